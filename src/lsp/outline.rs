//! A tolerant, line-based reading of a justfile for completion, hover and
//! navigation, which must work while the file does not parse: the names it
//! defines at the top level (recipes with their parameters and doc comments,
//! variables, user functions, aliases, modules, imports) and where each is.
//! Exact answers (diagnostics, formatting, the outline) come from the real
//! parser; this only finds names.

/// What a top-level line defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
  Recipe { parameters: Vec<String> },
  Variable { value: String },
  Function { parameters: Vec<String> },
  Alias { target: String },
  Module { path: Option<String>, optional: bool },
  Import { path: String },
}

#[derive(Clone, Debug)]
pub(super) struct Definition {
  pub name: String,
  pub kind: Kind,
  /// 0-based line, and byte range of the name in the text.
  pub line: usize,
  pub start: usize,
  pub end: usize,
  /// The `# comment` right above it (attribute lines skipped).
  pub doc: Option<String>,
  /// Defined in a file the text imports: its line and offsets are that
  /// file's.
  pub imported: bool,
}

/// Whether `c` may be in a name.
pub(super) fn is_name_char(c: char) -> bool {
  c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn name_at_start(text: &str) -> Option<&str> {
  let first = text.chars().next()?;
  if !(first.is_ascii_alphabetic() || first == '_') {
    return None;
  }
  let end = text.find(|c: char| !is_name_char(c)).unwrap_or(text.len());
  Some(&text[..end])
}

/// Every top-level definition of `text`, in order.
pub(super) fn definitions(text: &str) -> Vec<Definition> {
  let mut found = Vec::new();
  let mut offset = 0;
  let mut doc: Option<&str> = None;
  for (line_number, line) in text.split('\n').enumerate() {
    let mut line_offset = offset;
    offset += line.len() + 1;
    let line = match line.strip_prefix('\u{feff}') {
      Some(after_bom) if line_number == 0 => {
        line_offset += '\u{feff}'.len_utf8();
        after_bom
      }
      _ => line,
    };
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.starts_with([' ', '\t']) || line.trim().is_empty() {
      if line.trim().is_empty() {
        doc = None;
      }
      continue;
    }
    if let Some(comment) = line.strip_prefix('#') {
      doc = (!comment.starts_with('!')).then(|| comment.trim());
      continue;
    }
    if line.starts_with('[') {
      continue;
    }
    let this_doc = doc.take();
    let mut rest = line;
    let skip = skip_word;
    let definition = |name: &str, kind: Kind, rest_start: &str| {
      let start = line_offset + (rest_start.as_ptr() as usize - line.as_ptr() as usize);
      Definition {
        name: name.to_string(),
        kind,
        line: line_number,
        start,
        end: start + name.len(),
        doc: this_doc.map(str::to_string),
        imported: false,
      }
    };
    if skip(&mut rest, "alias") {
      if let Some(name) = name_at_start(rest) {
        let target = rest[name.len()..].trim_start().strip_prefix(":=").unwrap_or("").trim();
        found.push(definition(name, Kind::Alias { target: target.to_string() }, rest));
      }
      continue;
    }
    if skip(&mut rest, "import") || skip(&mut rest, "import?") {
      found.push(definition("", Kind::Import { path: unquote(rest) }, rest));
      continue;
    }
    let plain_module = skip(&mut rest, "mod");
    if plain_module || skip(&mut rest, "mod?") {
      if let Some(name) = name_at_start(rest) {
        let path = rest[name.len()..].trim();
        let path = (!path.is_empty()).then(|| unquote(path));
        found.push(definition(name, Kind::Module { path, optional: !plain_module }, rest));
      }
      continue;
    }
    if skip(&mut rest, "set") || skip(&mut rest, "unexport") {
      continue;
    }
    if !skip(&mut rest, "export") {
      skip(&mut rest, "eager");
    }
    let rest = rest.strip_prefix('@').unwrap_or(rest);
    let Some(name) = name_at_start(rest) else { continue };
    let after = rest[name.len()..].trim_start();
    if let Some(value) = after.strip_prefix(":=") {
      found.push(definition(name, Kind::Variable { value: value.trim().to_string() }, rest));
    } else if let Some(arguments) = after.strip_prefix('(') {
      let parameters = function_parameters(arguments);
      found.push(definition(name, Kind::Function { parameters }, rest));
    } else if let Some(colon) = after.find(':') {
      if after[colon..].starts_with(":=") {
        continue;
      }
      found.push(definition(name, Kind::Recipe { parameters: parameters(&after[..colon]) }, rest));
    }
  }
  found
}

/// Whether `rest` starts with the word `word` and blank space; if so,
/// `rest` moves past them.
fn skip_word(rest: &mut &str, word: &str) -> bool {
  if let Some(after) = rest.strip_prefix(word) {
    if after.starts_with([' ', '\t']) {
      *rest = after.trim_start();
      return true;
    }
  }
  false
}

/// The parameter names of a user function, from the text after its `(`.
pub(super) fn function_parameters(arguments: &str) -> Vec<String> {
  let close = arguments.find(')').unwrap_or(arguments.len());
  arguments[..close]
    .split(',')
    .map(|parameter| parameter.trim().to_string())
    .filter(|parameter| !parameter.is_empty())
    .collect()
}

/// The parameter names of a recipe header's text between name and colon.
fn parameters(text: &str) -> Vec<String> {
  let mut names = Vec::new();
  let mut quote: Option<char> = None;
  let mut depth = 0;
  let mut word = String::new();
  let mut in_default = false;
  for c in text.chars().chain(std::iter::once(' ')) {
    if let Some(q) = quote {
      if c == q {
        quote = None;
      }
      continue;
    }
    match c {
      '\'' | '"' | '`' => quote = Some(c),
      '(' => depth += 1,
      ')' => depth -= 1,
      '=' if depth == 0 => {
        in_default = true;
        if !word.is_empty() {
          names.push(std::mem::take(&mut word));
        }
      }
      ' ' | '\t' if depth == 0 => {
        if !word.is_empty() && !in_default {
          names.push(std::mem::take(&mut word));
        }
        word.clear();
        in_default = false;
      }
      '+' | '*' | '$' if word.is_empty() => {}
      c if depth == 0 && !in_default && is_name_char(c) => word.push(c),
      _ => {}
    }
  }
  names
}

/// The parameters of a recipe header's text between name and colon, each
/// its name and the text of its default (`target='all'` → `target`,
/// `'all'`); `+`, `*` and `$` are left out of the name.
pub(super) fn parameter_defaults(text: &str) -> Vec<(String, Option<String>)> {
  // Words at depth 0 outside quotes; `=` joins the words around it.
  let mut words: Vec<String> = Vec::new();
  let mut word = String::new();
  let mut quote: Option<char> = None;
  let mut depth = 0_i32;
  for c in text.chars().chain(std::iter::once(' ')) {
    if let Some(q) = quote {
      word.push(c);
      if c == q {
        quote = None;
      }
      continue;
    }
    match c {
      '\'' | '"' | '`' => {
        quote = Some(c);
        word.push(c);
      }
      '(' | ')' => {
        depth += if c == '(' { 1 } else { -1 };
        word.push(c);
      }
      ' ' | '\t' if depth <= 0 => {
        if !word.is_empty() {
          let joins = word.starts_with('=') || words.last().is_some_and(|last| last.ends_with('='));
          match words.last_mut() {
            Some(last) if joins => last.push_str(&word),
            _ => words.push(std::mem::take(&mut word)),
          }
          word.clear();
        }
      }
      _ => word.push(c),
    }
  }
  words
    .into_iter()
    .filter_map(|word| {
      let word = word.trim_start_matches(['+', '*', '$']);
      let (name, default) = match word.split_once('=') {
        Some((name, default)) => (name, Some(default.to_string())),
        None => (word, None),
      };
      (!name.is_empty() && name.chars().all(is_name_char)).then(|| (name.to_string(), default))
    })
    .collect()
}

fn unquote(text: &str) -> String {
  let text = text.trim();
  let text = text.split(" #").next().unwrap_or(text).trim();
  text.trim_matches(|c| c == '\'' || c == '"').to_string()
}

/// The recipe whose header or body holds line `line`: the last recipe
/// defined at or above it, if no other top-level line comes between.
pub(super) fn enclosing_recipe<'d>(
  text: &str,
  definitions: &'d [Definition],
  line: usize,
) -> Option<&'d Definition> {
  let recipe = definitions.iter().rev().find(|definition| {
    !definition.imported
      && definition.line <= line
      && matches!(definition.kind, Kind::Recipe { .. })
  })?;
  // A top-level line between the header and `line` ends the recipe.
  let ended =
    text.split('\n').enumerate().skip(recipe.line + 1).take(line.saturating_sub(recipe.line)).any(
      |(_, content)| {
        let content = content.strip_suffix('\r').unwrap_or(content);
        !content.is_empty() && !content.starts_with([' ', '\t'])
      },
    );
  (!ended).then_some(recipe)
}

/// Where the name that ends at byte `offset` (a character boundary) starts.
pub(super) fn name_start(text: &str, offset: usize) -> usize {
  text[..offset]
    .char_indices()
    .rev()
    .take_while(|&(_, c)| is_name_char(c))
    .last()
    .map_or(offset, |(index, _)| index)
}

/// The name under (or just before) byte `offset`, and its range.
pub(super) fn word_at(text: &str, offset: usize) -> Option<(usize, usize)> {
  let mut offset = offset.min(text.len());
  while !text.is_char_boundary(offset) {
    offset -= 1;
  }
  let start = name_start(text, offset);
  let end =
    text[offset..].find(|c: char| !is_name_char(c)).map_or(text.len(), |index| offset + index);
  (start < end).then_some((start, end))
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn definitions_of_a_broken_file() {
    let text = "# Build it\n[group('x')]\nbuild target='a' +rest: (dep target\n  echo {{\nx := 'v'\nalias b := build\nmod? sub 'sub.just'\nf(a, b) := a + b\nimport 'other.just'\n@quiet $e:\n";
    let found: Vec<(String, Kind, Option<String>)> =
      definitions(text).into_iter().map(|d| (d.name, d.kind, d.doc)).collect();
    assert_eq!(
      found,
      vec![
        (
          "build".into(),
          Kind::Recipe { parameters: vec!["target".into(), "rest".into()] },
          Some("Build it".into())
        ),
        ("x".into(), Kind::Variable { value: "'v'".into() }, None),
        ("b".into(), Kind::Alias { target: "build".into() }, None),
        ("sub".into(), Kind::Module { path: Some("sub.just".into()), optional: true }, None),
        ("f".into(), Kind::Function { parameters: vec!["a".into(), "b".into()] }, None),
        (String::new(), Kind::Import { path: "other.just".into() }, None),
        ("quiet".into(), Kind::Recipe { parameters: vec!["e".into()] }, None),
      ]
    );
  }
}
