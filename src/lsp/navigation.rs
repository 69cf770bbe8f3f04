//! Go to definition, find references, document highlight and rename, from
//! the names a document uses where `just` reads them (`occurrences.rs`),
//! resolved across the files loaded with it (`project.rs`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use lexiclean::Lexiclean;
use lsp_types::{Location, Position, Range, TextEdit, Uri, WorkspaceEdit};

use super::documents::{self, Documents};
use super::occurrences::{occurrences, Occurrence, Role, KEYWORDS};
use super::outline::{self, Kind};
use super::positions;
use super::project::{self, Project, Symbol};
use super::workspace;

/// The occurrence at byte `offset` (or ending there).
fn at_offset(occurrences: &[Occurrence], offset: usize) -> Option<&Occurrence> {
  occurrences.iter().find(|occurrence| occurrence.start <= offset && offset <= occurrence.end)
}

/// The name at a position of a document, and what it stands for among the
/// files loaded with the document.
struct Target {
  project: Rc<Project>,
  /// The document's index in `project`.
  file: usize,
  occurrence: Occurrence,
  symbols: Vec<Symbol>,
}

impl Target {
  fn at(path: &Path, text: &str, position: Position, documents: &Documents) -> Option<Target> {
    let project = documents.project(path, text);
    let file = project.file(&path.lexiclean())?;
    let offset = positions::offset(&project.files[file].text, position);
    let occurrence = at_offset(&project.files[file].occurrences, offset)?.clone();
    let symbols = project.symbols(file, &occurrence);
    Some(Target { project, file, occurrence, symbols })
  }

  /// Every occurrence of what the name stands for, in every file.
  fn all(&self) -> Vec<(usize, &Occurrence)> {
    self.project.occurrences_of(&self.symbols)
  }

  fn location(&self, file: usize, occurrence: &Occurrence) -> Option<Location> {
    let file = &self.project.files[file];
    let uri = documents::path_uri(&file.path).parse::<Uri>().ok()?;
    let range = file.lines.range(&file.text, occurrence.start, occurrence.end);
    Some(Location { uri, range })
  }

  /// Where a definition leads: a `mod` to the module's file.
  fn definition_location(&self, file: usize, occurrence: &Occurrence) -> Option<Location> {
    if occurrence.role == Role::Module {
      return path_location(self.project.module_file(file, occurrence)?);
    }
    self.location(file, occurrence)
  }
}

fn location(uri: &Uri, text: &str, start: usize, end: usize) -> Location {
  Location { uri: uri.clone(), range: positions::range(text, start, end) }
}

pub(super) fn definition(
  path: &Path,
  text: &str,
  position: Position,
  documents: &Documents,
) -> Vec<Location> {
  let offset = positions::offset(text, position);
  // An `import` or `mod` path: the file.
  if let Some(file) = file_at(path, text, offset) {
    return path_location(&file).into_iter().collect();
  }
  if let Some(target) = Target::at(path, text, position, documents) {
    let found: Vec<Location> = target
      .all()
      .into_iter()
      .filter(|(_, occurrence)| occurrence.definition)
      .filter_map(|(file, occurrence)| target.definition_location(file, occurrence))
      .collect();
    if !found.is_empty() {
      return found;
    }
  }
  unloaded_definition(path, text, offset, documents).unwrap_or_default()
}

/// The definition of the name at `offset` when the files do not load (one
/// does not parse): read from the document and the files it imports, or
/// the file of a module it declares.
fn unloaded_definition(
  path: &Path,
  text: &str,
  offset: usize,
  documents: &Documents,
) -> Option<Vec<Location>> {
  let occurrences = occurrences(text);
  let target = at_offset(&occurrences, offset)?;
  let name = &text[target.start..target.end];
  let directory = path.parent().unwrap_or(Path::new(""));
  let mut files = vec![path.to_path_buf()];
  for definition in outline::definitions(text) {
    match definition.kind {
      Kind::Import { path: import } => files.push(directory.join(import)),
      Kind::Module { path: written, .. }
        if definition.name == name && target.role == Role::Module =>
      {
        let file = workspace::module_files(directory, name, written.as_deref()).into_iter().next();
        return Some(path_location(&file?).into_iter().collect());
      }
      _ => {}
    }
  }
  for file in files {
    let Some(defined) = documents.text(&file) else { continue };
    for found in outline::definitions(&defined) {
      let matches = matches!(
        (&found.kind, target.role),
        (Kind::Recipe { .. } | Kind::Alias { .. }, Role::Recipe)
          | (Kind::Variable { .. }, Role::Variable)
          | (Kind::Function { .. }, Role::Function)
      );
      if matches && found.name == name {
        let uri = documents::path_uri(&file).parse::<Uri>().ok()?;
        return Some(vec![location(&uri, &defined, found.start, found.end)]);
      }
    }
  }
  None
}

fn path_location(file: &Path) -> Option<Location> {
  let uri = documents::path_uri(file).parse::<Uri>().ok()?;
  Some(Location { uri, range: Range::default() })
}

/// The file an `import` line, or a `mod` line's path, at `offset` names.
fn file_at(path: &Path, text: &str, offset: usize) -> Option<PathBuf> {
  let line_start = text[..offset.min(text.len())].rfind('\n').map_or(0, |index| index + 1);
  let line_end = text[line_start..].find('\n').map_or(text.len(), |index| line_start + index);
  let line = &text[line_start..line_end];
  let definitions = outline::definitions(line);
  let directory = path.parent().unwrap_or(Path::new(""));
  match &definitions.first()?.kind {
    Kind::Import { path: import } => Some(directory.join(import)),
    Kind::Module { path: Some(module), .. }
      if line.find(['\'', '"']).is_some_and(|quote| line_start + quote <= offset) =>
    {
      Some(directory.join(module))
    }
    _ => None,
  }
}

/// Where what the name at `position` stands for occurs, in every file loaded
/// with the document.
pub(super) fn references(
  path: &Path,
  text: &str,
  position: Position,
  include_declaration: bool,
  documents: &Documents,
) -> Vec<Location> {
  let Some(target) = Target::at(path, text, position, documents) else { return Vec::new() };
  target
    .all()
    .into_iter()
    .filter(|(_, occurrence)| include_declaration || !occurrence.definition)
    .filter_map(|(file, occurrence)| target.location(file, occurrence))
    .collect()
}

/// The occurrences in this document of what the name at `position` stands
/// for (defined here or in another loaded file).
pub(super) fn highlights(
  path: &Path,
  text: &str,
  position: Position,
  documents: &Documents,
) -> Vec<lsp_types::DocumentHighlight> {
  let Some(target) = Target::at(path, text, position, documents) else { return Vec::new() };
  let own = &target.project.files[target.file];
  target
    .all()
    .into_iter()
    .filter(|&(file, _)| file == target.file)
    .map(|(_, occurrence)| lsp_types::DocumentHighlight {
      range: own.lines.range(&own.text, occurrence.start, occurrence.end),
      kind: Some(if occurrence.definition {
        lsp_types::DocumentHighlightKind::WRITE
      } else {
        lsp_types::DocumentHighlightKind::READ
      }),
    })
    .collect()
}

/// The range of the name that can be renamed at `position`.
pub(super) fn prepare_rename(text: &str, position: Position) -> Option<Range> {
  let offset = positions::offset(text, position);
  let occurrences = occurrences(text);
  let target = at_offset(&occurrences, offset)?;
  Some(positions::range(text, target.start, target.end))
}

/// Rename what is at `position` to `new_name` in every file loaded with the
/// document (open or not), or say why not.
pub(super) fn rename(
  path: &Path,
  text: &str,
  position: Position,
  new_name: &str,
  documents: &Documents,
) -> Result<WorkspaceEdit, String> {
  if !is_name(new_name) {
    return Err(format!("`{new_name}` is not a valid name"));
  }
  if KEYWORDS.contains(&new_name) {
    return Err(format!("`{new_name}` is a keyword"));
  }
  let target =
    Target::at(path, text, position, documents).ok_or("nothing to rename here".to_string())?;
  let old = target.project.name(target.file, &target.occurrence);
  let all = target.all();
  let Some((_, definition)) = all.iter().find(|(_, occurrence)| occurrence.definition) else {
    return Err(format!("`{old}` is not defined in the files `just` loads with this one"));
  };
  if definition.role == Role::Module {
    return Err("renaming a module would change the file `just` looks for".into());
  }
  if target.project.defines(&target.symbols, new_name) {
    return Err(format!("`{new_name}` is already defined"));
  }
  let mut by_file: BTreeMap<usize, Vec<&Occurrence>> = BTreeMap::new();
  for (file, occurrence) in all {
    by_file.entry(file).or_default().push(occurrence);
  }
  let texts: HashMap<usize, String> = by_file
    .iter()
    .map(|(&file, occurrences)| {
      (file, renamed_text(&target.project.files[file].text, occurrences, new_name))
    })
    .collect();
  let renamed: HashMap<PathBuf, String> = texts
    .iter()
    .map(|(&file, text)| (target.project.files[file].path.clone(), text.clone()))
    .collect();
  let root_file = &target.project.files[target.file].path;
  if let Some(error) = project::error_after_edits(root_file, &renamed, documents.overlays()) {
    return Err(format!("the justfile would not compile: {error}"));
  }
  if let Some((file, offset)) = captured(&target, &by_file, &texts, new_name) {
    let text = texts.get(&file).unwrap_or(&target.project.files[file].text);
    let line = text[..offset.min(text.len())].matches('\n').count() + 1;
    let path = target.project.files[file].path.display();
    return Err(format!(
      "`{new_name}` would change what the name on line {line} of {path} refers to"
    ));
  }
  let changes = by_file.into_iter().filter_map(|(file, occurrences)| {
    let file = &target.project.files[file];
    let uri = documents::path_uri(&file.path).parse::<Uri>().ok()?;
    let edits = occurrences
      .iter()
      .map(|occurrence| TextEdit {
        range: file.lines.range(&file.text, occurrence.start, occurrence.end),
        new_text: new_name.to_string(),
      })
      .collect();
    Some((uri, edits))
  });
  Ok(WorkspaceEdit { changes: Some(changes.collect()), ..WorkspaceEdit::default() })
}

/// A place where the renamed `texts` would give a name another meaning (a
/// parameter hiding the renamed variable, the renamed parameter hiding a
/// variable): its file, and its offset in the renamed text. The renamed
/// occurrences must be exactly those of the renamed thing.
fn captured(
  target: &Target,
  by_file: &BTreeMap<usize, Vec<&Occurrence>>,
  texts: &HashMap<usize, String>,
  new_name: &str,
) -> Option<(usize, usize)> {
  let old_length = target.occurrence.end - target.occurrence.start;
  let mut expected: HashSet<(usize, usize)> = HashSet::new();
  for (&file, occurrences) in by_file {
    let mut starts: Vec<usize> = occurrences.iter().map(|occurrence| occurrence.start).collect();
    starts.sort_unstable();
    for (before, start) in starts.into_iter().enumerate() {
      expected.insert((file, start - before * old_length + before * new_name.len()));
    }
  }
  let renamed = target.project.with_texts(texts);
  let symbols: Vec<Symbol> = target.symbols.iter().map(|symbol| symbol.renamed(new_name)).collect();
  let found: HashSet<(usize, usize)> = renamed
    .occurrences_of(&symbols)
    .into_iter()
    .map(|(file, occurrence)| (file, occurrence.start))
    .collect();
  found.symmetric_difference(&expected).min().copied()
}

/// Whether `text` is a name: a letter or `_`, then letters, digits, `_` and `-`.
fn is_name(text: &str) -> bool {
  text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    && text.chars().all(outline::is_name_char)
}

/// `text` with each of `occurrences` replaced by `new_name`.
fn renamed_text(text: &str, occurrences: &[&Occurrence], new_name: &str) -> String {
  let mut renamed = text.to_string();
  let mut sorted = occurrences.to_vec();
  sorted.sort_by_key(|occurrence| std::cmp::Reverse(occurrence.start));
  for occurrence in sorted {
    renamed.replace_range(occurrence.start..occurrence.end, new_name);
  }
  renamed
}
