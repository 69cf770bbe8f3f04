//! Go to definition, find references, document highlight and rename, from
//! the names a document uses where `just` reads them: definitions, recipe
//! references (dependencies, alias targets) and expression references
//! (values, defaults, dependency arguments, `{{…}}` in recipe bodies) —
//! never shell text, strings or comments. A parameter is only itself in its
//! recipe, where it hides a variable of the same name.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use lexiclean::Lexiclean;
use lsp_types::{Location, Position, Range, TextEdit, Uri, WorkspaceEdit};

use super::diagnostics;
use super::documents::{self, Documents};
use super::outline::{self, Kind};
use super::project::{Project, Symbol};
use super::workspace;

/// What a name at a place is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
  /// A recipe or alias: definition, dependency, alias target.
  Recipe,
  /// A variable (assignment).
  Variable,
  /// A user function (definition or call).
  Function,
  /// A parameter of the recipe or function defined on line `.0`.
  Parameter(usize),
  Module,
}

#[derive(Clone, Debug)]
pub(super) struct Occurrence {
  pub start: usize,
  pub end: usize,
  pub role: Role,
  pub definition: bool,
  /// Where the `module::` path before the name starts (`start` without one).
  pub qualifier: usize,
}

const KEYWORDS: &[&str] = &["if", "else", "assert", "true", "false"];

/// Every occurrence of a name in `text` that `just` reads as one.
pub(super) fn occurrences(text: &str) -> Vec<Occurrence> {
  let mut found = Vec::new();
  let mut offset = 0;
  // The parameters in scope (of the recipe whose body this is) and its line.
  let mut scope: Option<(usize, Vec<String>)> = None;
  for (line_number, raw) in text.split('\n').enumerate() {
    let line_offset = offset;
    offset += raw.len() + 1;
    let line = raw.strip_suffix('\r').unwrap_or(raw);
    if line.starts_with([' ', '\t']) {
      body_line(line, line_offset, scope.as_ref(), &mut found);
      continue;
    }
    if line.trim().is_empty() || line.starts_with('#') || line.starts_with('[') {
      continue;
    }
    scope = None;
    let words =
      |prefix: &str| line.strip_prefix(prefix).filter(|rest| rest.starts_with([' ', '\t']));
    let at = |slice: &str| slice.as_ptr() as usize - line.as_ptr() as usize;
    if let Some(rest) = words("alias") {
      alias(line, at(rest.trim_start()), line_offset, &mut found);
      continue;
    }
    if let Some(rest) = words("mod").or_else(|| words("mod?")) {
      let rest = rest.trim_start();
      push(&mut found, line_offset + at(rest), name_length(rest), Role::Module, true);
      continue;
    }
    if words("import").is_some() || words("import?").is_some() || words("unexport").is_some() {
      continue;
    }
    if let Some(rest) = words("set") {
      if let Some(value) = rest.find(":=") {
        let start = at(rest) + value + 2;
        expression(line, start, line.len(), line_offset, None, &mut found);
      }
      continue;
    }
    let mut rest = line;
    for keyword in ["export", "eager"] {
      if let Some(after) = words(keyword) {
        rest = after.trim_start();
      }
    }
    let rest = rest.strip_prefix('@').unwrap_or(rest);
    let length = name_length(rest);
    if length == 0 {
      continue;
    }
    let name_start = at(rest);
    let after = rest[length..].trim_start();
    if after.starts_with(":=") {
      push(&mut found, line_offset + name_start, length, Role::Variable, true);
      let value = at(after) + 2;
      expression(line, value, line.len(), line_offset, None, &mut found);
    } else if after.starts_with('(') {
      push(&mut found, line_offset + name_start, length, Role::Function, true);
      function_definition(line, at(after) + 1, line_offset, line_number, &mut found);
    } else {
      // A recipe header.
      push(&mut found, line_offset + name_start, length, Role::Recipe, true);
      let Some(colon) = header_colon(line, name_start + length) else { continue };
      let mut names = Vec::new();
      header_parameters(
        line,
        name_start + length,
        colon,
        line_offset,
        line_number,
        &mut names,
        &mut found,
      );
      let own = (line_number, names);
      dependencies(line, colon + 1, line_offset, &own, &mut found);
      scope = Some(own);
    }
  }
  found
}

/// An alias's name (from `start`) and its target.
fn alias(line: &str, start: usize, line_offset: usize, found: &mut Vec<Occurrence>) {
  let rest = &line[start..];
  let name_end = name_length(rest);
  if name_end > 0 {
    push(found, line_offset + start, name_end, Role::Recipe, true);
    if let Some(target) = rest.find(":=") {
      alias_target(line, start + target + 2, line_offset, found);
    }
  }
}

/// A recipe body line: names only inside `{{…}}`, the recipe's parameters
/// (`scope`) in scope.
fn body_line(
  line: &str,
  line_offset: usize,
  scope: Option<&(usize, Vec<String>)>,
  found: &mut Vec<Occurrence>,
) {
  let mut rest = 0;
  while let Some(open) = line[rest..].find("{{") {
    let start = rest + open + 2;
    let close = line[start..].find("}}").map_or(line.len(), |close| start + close);
    expression(line, start, close, line_offset, scope, found);
    rest = close;
    if rest >= line.len() {
      break;
    }
  }
}

/// A user function's parameters (from `open`, after its `(`) and its body,
/// where they are in scope.
fn function_definition(
  line: &str,
  open: usize,
  line_offset: usize,
  line_number: usize,
  found: &mut Vec<Occurrence>,
) {
  let close = line[open..].find(')').map_or(line.len(), |close| open + close);
  let parameters = names_in(line, open, close);
  for &(start, end) in &parameters {
    push(found, line_offset + start, end - start, Role::Parameter(line_number), true);
  }
  let names = parameters.iter().map(|&(start, end)| line[start..end].to_string()).collect();
  if let Some(body) = line[close..].find(":=") {
    let scope = (line_number, names);
    expression(line, close + body + 2, line.len(), line_offset, Some(&scope), found);
  }
}

fn push(found: &mut Vec<Occurrence>, start: usize, length: usize, role: Role, definition: bool) {
  if length > 0 {
    found.push(Occurrence { start, end: start + length, role, definition, qualifier: start });
  }
}

/// A name of a `module::…::name` path starting at `path_start`: a module
/// when more of the path follows, else `last`.
fn push_path_part(
  found: &mut Vec<Occurrence>,
  line: &str,
  (path_start, start, end): (usize, usize, usize),
  line_offset: usize,
  last: Role,
) {
  let role = if line[end..].starts_with("::") { Role::Module } else { last };
  found.push(Occurrence {
    start: line_offset + start,
    end: line_offset + end,
    role,
    definition: false,
    qualifier: line_offset + path_start,
  });
}

/// The path after an alias's `:=`, from `start`: a recipe or a module.
fn alias_target(line: &str, start: usize, line_offset: usize, found: &mut Vec<Occurrence>) {
  let mut path_start = None;
  for (name_start, name_end) in names_in(line, start, line.len()) {
    let path_start = *path_start.get_or_insert(name_start);
    if name_start != path_start && !line[..name_start].ends_with("::") {
      break;
    }
    push_path_part(found, line, (path_start, name_start, name_end), line_offset, Role::Recipe);
  }
}

fn name_length(text: &str) -> usize {
  match text.chars().next() {
    Some(c) if c.is_ascii_alphabetic() || c == '_' => {
      text.find(|c: char| !outline::is_name_char(c)).unwrap_or(text.len())
    }
    _ => 0,
  }
}

/// The names (outside strings) of `line[start..end]`.
fn names_in(line: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
  let mut names = Vec::new();
  let bytes = line.as_bytes();
  let mut index = start;
  let end = end.min(line.len());
  while index < end {
    let c = bytes[index];
    if matches!(c, b'\'' | b'"' | b'`') {
      let close = line[index + 1..end].find(c as char).map_or(end, |close| index + 1 + close + 1);
      index = close;
      continue;
    }
    if c == b'#' {
      break;
    }
    // A name starts with an ASCII byte, so the slice starts on a character.
    let starts_name = c.is_ascii_alphabetic() || c == b'_';
    let length = if starts_name && (index == 0 || !outline::is_name_char(bytes[index - 1] as char))
    {
      name_length(&line[index..end])
    } else {
      0
    };
    if length > 0 {
      names.push((index, index + length));
      index += length;
    } else {
      index += 1;
    }
  }
  names
}

/// The names an expression in `line[start..end]` reads.
fn expression(
  line: &str,
  start: usize,
  end: usize,
  line_offset: usize,
  scope: Option<&(usize, Vec<String>)>,
  found: &mut Vec<Occurrence>,
) {
  for (name_start, name_end) in names_in(line, start, end) {
    let name = &line[name_start..name_end];
    if KEYWORDS.contains(&name)
      || line[..name_start].ends_with("::")
      || line[name_end..].starts_with("::")
    {
      continue;
    }
    let role = if line[name_end..].trim_start().starts_with('(') {
      Role::Function
    } else {
      match scope {
        Some((scope_line, names)) if names.iter().any(|parameter| parameter == name) => {
          Role::Parameter(*scope_line)
        }
        _ => Role::Variable,
      }
    };
    push(found, line_offset + name_start, name_end - name_start, role, false);
  }
}

/// The colon ending a recipe header, after its name.
fn header_colon(line: &str, from: usize) -> Option<usize> {
  let mut quote: Option<char> = None;
  let mut depth = 0_i32;
  for (index, c) in line[from..].char_indices() {
    let index = from + index;
    match quote {
      Some(q) if c == q => quote = None,
      Some(_) => {}
      None => match c {
        '\'' | '"' | '`' => quote = Some(c),
        '(' => depth += 1,
        ')' => depth -= 1,
        ':' if depth <= 0 && !line[index..].starts_with(":=") => return Some(index),
        _ => {}
      },
    }
  }
  None
}

/// Parameters between a recipe's name and its colon: their names, and the
/// names their defaults read.
fn header_parameters(
  line: &str,
  start: usize,
  colon: usize,
  line_offset: usize,
  line_number: usize,
  names: &mut Vec<String>,
  found: &mut Vec<Occurrence>,
) {
  let mut in_default = false;
  let mut depth = 0;
  let mut previous_end = start;
  for (name_start, name_end) in names_in(line, start, colon) {
    let between = &line[previous_end..name_start];
    depth += between.matches('(').count() as i32 - between.matches(')').count() as i32;
    if depth == 0 && between.contains([' ', '\t']) && !between.contains('=') {
      in_default = false;
    }
    if between.contains('=') {
      in_default = true;
    }
    let name = &line[name_start..name_end];
    if in_default {
      if !KEYWORDS.contains(&name) {
        let role = if line[name_end..].trim_start().starts_with('(') {
          Role::Function
        } else {
          Role::Variable
        };
        push(found, line_offset + name_start, name_end - name_start, role, false);
      }
    } else {
      push(
        found,
        line_offset + name_start,
        name_end - name_start,
        Role::Parameter(line_number),
        true,
      );
      names.push(name.to_string());
    }
    previous_end = name_end;
  }
}

/// Dependencies after a header's colon: `name`, `(name args…)`, `&&`.
fn dependencies(
  line: &str,
  start: usize,
  line_offset: usize,
  scope: &(usize, Vec<String>),
  found: &mut Vec<Occurrence>,
) {
  let mut depth = 0;
  let mut first_in_group = false;
  let mut previous_end = start;
  let mut path_start = start;
  for (name_start, name_end) in names_in(line, start, line.len()) {
    let between = &line[previous_end..name_start];
    for c in between.chars() {
      match c {
        '(' => {
          depth += 1;
          first_in_group = depth == 1;
        }
        ')' => depth -= 1,
        _ => {}
      }
    }
    previous_end = name_end;
    let continued = line[..name_start].ends_with("::");
    let continues = line[name_end..].starts_with("::");
    if !continued {
      path_start = name_start;
    }
    if depth == 0 || first_in_group {
      push_path_part(found, line, (path_start, name_start, name_end), line_offset, Role::Recipe);
      first_in_group = continues;
    } else if !(continued || continues) {
      let name = &line[name_start..name_end];
      if KEYWORDS.contains(&name) {
        continue;
      }
      let role = if line[name_end..].trim_start().starts_with('(') {
        Role::Function
      } else if scope.1.iter().any(|parameter| parameter == name) {
        Role::Parameter(scope.0)
      } else {
        Role::Variable
      };
      push(found, line_offset + name_start, name_end - name_start, role, false);
    }
  }
}

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
    let project = Project::load(path, text, documents);
    let file = project.file(&path.lexiclean())?;
    let offset = documents::offset(&project.files[file].text, position);
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
    Some(location(&uri, &file.text, occurrence.start, occurrence.end))
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
  Location { uri: uri.clone(), range: documents::range(text, start, end) }
}

pub(super) fn definition(
  path: &Path,
  text: &str,
  position: Position,
  documents: &Documents,
) -> Vec<Location> {
  let offset = documents::offset(text, position);
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
      Kind::Module { path: written } if definition.name == name && target.role == Role::Module => {
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
    Kind::Module { path: Some(module) }
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
  let own = &target.project.files[target.file].text;
  target
    .all()
    .into_iter()
    .filter(|&(file, _)| file == target.file)
    .map(|(_, occurrence)| lsp_types::DocumentHighlight {
      range: documents::range(own, occurrence.start, occurrence.end),
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
  let offset = documents::offset(text, position);
  let occurrences = occurrences(text);
  let target = at_offset(&occurrences, offset)?;
  Some(documents::range(text, target.start, target.end))
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
  if name_length(new_name) != new_name.len() || new_name.is_empty() {
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
  if let Some(error) = diagnostics::error_after_edits(root_file, &renamed, documents) {
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
        range: documents::range(&file.text, occurrence.start, occurrence.end),
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

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn module_paths_are_modules_then_a_recipe() {
    let text = "a: x::y::z (m::r 'arg' v)\nalias b := m::r\n";
    let found: Vec<(&str, Role, &str)> = occurrences(text)
      .iter()
      .map(|found| (&text[found.start..found.end], found.role, &text[found.qualifier..found.start]))
      .collect();
    use Role::*;
    assert_eq!(
      found,
      [
        ("a", Recipe, ""),
        ("x", Module, ""),
        ("y", Module, "x::"),
        ("z", Recipe, "x::y::"),
        ("m", Module, ""),
        ("r", Recipe, "m::"),
        ("v", Variable, ""),
        ("b", Recipe, ""),
        ("m", Module, ""),
        ("r", Recipe, "m::"),
      ]
    );
  }
}
