//! Go to definition, find references, document highlight and rename, from
//! the names a document uses where `just` reads them: definitions, recipe
//! references (dependencies, alias targets) and expression references
//! (values, defaults, dependency arguments, `{{…}}` in recipe bodies) —
//! never shell text, strings or comments. A parameter is only itself in its
//! recipe, where it hides a variable of the same name.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{Location, Position, Range, TextEdit, Uri, WorkspaceEdit};

use super::completion::definitions_with_imports;
use super::diagnostics;
use super::documents::{self, Documents};
use super::outline::{self, Kind};

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
      // A body line: only inside `{{…}}`.
      let mut rest = 0;
      while let Some(open) = line[rest..].find("{{") {
        let start = rest + open + 2;
        let close = line[start..].find("}}").map_or(line.len(), |close| start + close);
        expression(line, start, close, line_offset, scope.as_ref(), &mut found);
        rest = close;
        if rest >= line.len() {
          break;
        }
      }
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
      let rest = rest.trim_start();
      let name_end = name_length(rest);
      if name_end > 0 {
        push(&mut found, line_offset + at(rest), name_end, Role::Recipe, true);
        if let Some((_, target)) = rest.split_once(":=") {
          let target = target.trim_start();
          let length = name_length(target);
          if length > 0 && !target[length..].starts_with("::") {
            push(&mut found, line_offset + at(target), length, Role::Recipe, false);
          }
        }
      }
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
      let open = at(after) + 1;
      let close = line[open..].find(')').map_or(line.len(), |close| open + close);
      let parameters = names_in(line, open, close);
      for &(start, end) in &parameters {
        push(&mut found, line_offset + start, end - start, Role::Parameter(line_number), true);
      }
      let names = parameters.iter().map(|&(start, end)| line[start..end].to_string()).collect();
      if let Some(body) = line[close..].find(":=") {
        expression(
          line,
          close + body + 2,
          line.len(),
          line_offset,
          Some(&(line_number, names)),
          &mut found,
        );
      }
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

fn push(found: &mut Vec<Occurrence>, start: usize, length: usize, role: Role, definition: bool) {
  if length > 0 {
    found.push(Occurrence { start, end: start + length, role, definition });
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
    if line[..name_start].ends_with("::") || line[name_end..].starts_with("::") {
      first_in_group = false;
      continue;
    }
    if depth == 0 || first_in_group {
      push(found, line_offset + name_start, name_end - name_start, Role::Recipe, false);
      first_in_group = false;
    } else {
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

/// The occurrences of the same thing as the one at `offset`.
fn same<'o>(
  text: &str,
  occurrences: &'o [Occurrence],
  offset: usize,
) -> Option<(&'o Occurrence, Vec<&'o Occurrence>)> {
  let target = at_offset(occurrences, offset)?;
  let name = &text[target.start..target.end];
  let all = occurrences
    .iter()
    .filter(|occurrence| {
      occurrence.role == target.role && &text[occurrence.start..occurrence.end] == name
    })
    .collect();
  Some((target, all))
}

fn location(uri: &Uri, text: &str, start: usize, end: usize) -> Location {
  Location { uri: uri.clone(), range: documents::range(text, start, end) }
}

pub(super) fn definition(
  path: &Path,
  uri: &Uri,
  text: &str,
  position: Position,
  documents: &Documents,
) -> Vec<Location> {
  let offset = documents::offset(text, position);
  // An `import` or `mod` path: the file.
  if let Some(file) = file_at(path, text, offset) {
    return path_location(&file).into_iter().collect();
  }
  let occurrences = occurrences(text);
  let Some((target, all)) = same(text, &occurrences, offset) else { return Vec::new() };
  if let Some(definition) = all.iter().find(|occurrence| occurrence.definition) {
    if target.role == Role::Module {
      if let Some(file) = module_file(path, text, definition.start) {
        return path_location(&file).into_iter().collect();
      }
    }
    return vec![location(uri, text, definition.start, definition.end)];
  }
  // Defined in an imported file.
  let name = &text[target.start..target.end];
  let directory = path.parent().unwrap_or(Path::new(""));
  for definition in outline::definitions(text) {
    let Kind::Import { path: import } = definition.kind else { continue };
    let file = directory.join(import);
    let Some(imported) = documents.text(&file) else { continue };
    for found in outline::definitions(&imported) {
      let matches = matches!(
        (&found.kind, target.role),
        (Kind::Recipe { .. } | Kind::Alias { .. }, Role::Recipe)
          | (Kind::Variable { .. }, Role::Variable)
          | (Kind::Function { .. }, Role::Function)
          | (Kind::Module { .. }, Role::Module)
      );
      if matches && found.name == name {
        if let Ok(uri) = documents::path_uri(&file).parse::<Uri>() {
          return vec![location(&uri, &imported, found.start, found.end)];
        }
      }
    }
  }
  Vec::new()
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

/// The file of the `mod` whose name starts at `start`, found as `just` finds it.
fn module_file(path: &Path, text: &str, start: usize) -> Option<PathBuf> {
  let line_start = text[..start].rfind('\n').map_or(0, |index| index + 1);
  let line_end = text[line_start..].find('\n').map_or(text.len(), |index| line_start + index);
  let definition = outline::definitions(&text[line_start..line_end]).into_iter().next()?;
  let directory = path.parent().unwrap_or(Path::new(""));
  let Kind::Module { path: written } = definition.kind else { return None };
  let base = if let Some(written) = written {
    directory.join(written)
  } else {
    let file = directory.join(format!("{}.just", definition.name));
    if file.is_file() {
      return Some(file);
    }
    directory.join(&definition.name)
  };
  if base.is_file() {
    return Some(base);
  }
  ["mod.just", "justfile", ".justfile", "Justfile"]
    .into_iter()
    .map(|name| base.join(name))
    .find(|file| file.is_file())
}

pub(super) fn references(
  uri: &Uri,
  text: &str,
  position: Position,
  include_declaration: bool,
) -> Vec<Location> {
  let offset = documents::offset(text, position);
  let occurrences = occurrences(text);
  let Some((_, all)) = same(text, &occurrences, offset) else { return Vec::new() };
  all
    .into_iter()
    .filter(|occurrence| include_declaration || !occurrence.definition)
    .map(|occurrence| location(uri, text, occurrence.start, occurrence.end))
    .collect()
}

pub(super) fn highlights(text: &str, position: Position) -> Vec<lsp_types::DocumentHighlight> {
  let offset = documents::offset(text, position);
  let occurrences = occurrences(text);
  let Some((_, all)) = same(text, &occurrences, offset) else { return Vec::new() };
  all
    .into_iter()
    .map(|occurrence| lsp_types::DocumentHighlight {
      range: documents::range(text, occurrence.start, occurrence.end),
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
  let (target, _) = same(text, &occurrences, offset)?;
  Some(documents::range(text, target.start, target.end))
}

/// Rename what is at `position` to `new_name` in this document, or say why not.
pub(super) fn rename(
  path: &Path,
  uri: &Uri,
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
  let offset = documents::offset(text, position);
  let occurrences = occurrences(text);
  let Some((target, all)) = same(text, &occurrences, offset) else {
    return Err("nothing to rename here".into());
  };
  let old = &text[target.start..target.end];
  if !all.iter().any(|occurrence| occurrence.definition) {
    return Err(format!("`{old}` is not defined in this file"));
  }
  if target.role == Role::Module {
    return Err("renaming a module would change the file `just` looks for".into());
  }
  // Would it still compile? Apply the edits and ask the compiler.
  let mut renamed = text.to_string();
  let mut sorted: Vec<&&Occurrence> = all.iter().collect();
  sorted.sort_by_key(|occurrence| std::cmp::Reverse(occurrence.start));
  for occurrence in &sorted {
    renamed.replace_range(occurrence.start..occurrence.end, new_name);
  }
  let defined = definitions_with_imports(path, text, documents);
  let clash = defined.iter().any(|definition| {
    definition.name == new_name
      && matches!(
        (&definition.kind, target.role),
        (Kind::Recipe { .. } | Kind::Alias { .. }, Role::Recipe)
          | (Kind::Variable { .. }, Role::Variable)
          | (Kind::Function { .. }, Role::Function)
      )
  });
  if clash {
    return Err(format!("`{new_name}` is already defined"));
  }
  if let Some(error) = diagnostics::error_after_edit(path, &renamed, documents) {
    return Err(format!("the justfile would not compile: {error}"));
  }
  let edits: Vec<TextEdit> = all
    .iter()
    .map(|occurrence| TextEdit {
      range: documents::range(text, occurrence.start, occurrence.end),
      new_text: new_name.to_string(),
    })
    .collect();
  Ok(WorkspaceEdit {
    changes: Some(HashMap::from([(uri.clone(), edits)])),
    ..WorkspaceEdit::default()
  })
}
