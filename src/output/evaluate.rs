//! `--evaluate`: resolving the optional path
//! and formatting evaluated variables in the `just` and `shell` formats.

use snafu::Snafu;

use crate::analysis::lookup::{closest, lookup, suggest_submodule, Lookup, Suggestion};
use crate::analysis::model::{Assignment, Module};
use crate::builtins::value::Value;
use crate::options::EvaluateFormat;

fn suggestion_line(suggestion: Option<&Suggestion>) -> String {
  suggestion.as_ref().map(|s| format!("\n{s}")).unwrap_or_default()
}

#[derive(Debug, Snafu)]
pub(crate) enum EvaluateError {
  #[snafu(display(
    "justfile does not contain variable or submodule `{name}`{}",
    suggestion_line(suggestion.as_ref())
  ))]
  UnknownVariableOrSubmodule { name: String, suggestion: Option<Suggestion> },
  #[snafu(display("justfile does not contain submodule `{name}`{}", suggestion_line(suggestion.as_ref())))]
  UnknownSubmodule { name: String, suggestion: Option<Suggestion> },
  #[snafu(display("invalid module path `{path}`"))]
  InvalidModulePath { path: String },
  #[snafu(display("optional module `{path}` is absent"))]
  AbsentModule { path: String },
}

/// What `--evaluate PATH` names.
pub(crate) enum EvaluateTarget<'a, 'src> {
  /// Print this module's variables (the listing).
  Module { module: &'a Module<'src> },
  /// Print this variable's raw value, no newline: the assignment at `index`
  /// of `module`.
  Variable { module: &'a Module<'src>, index: usize },
}

/// Resolves `--evaluate [PATH]` (`::` allowed, module aliases followed).
pub(crate) fn resolve_evaluate_path<'a, 'src>(
  root: &'a Module<'src>,
  path: Option<&str>,
) -> Result<EvaluateTarget<'a, 'src>, EvaluateError> {
  let Some(path) = path else {
    return Ok(EvaluateTarget::Module { module: root });
  };
  let Some(components) = module_path_components(path) else {
    return Err(EvaluateError::InvalidModulePath { path: path.to_string() });
  };
  let mut module = root;
  for (index, component) in components.iter().enumerate() {
    let last = index + 1 == components.len();
    if last {
      if let Some(variable) = module.assignments.index_of(component) {
        return Ok(EvaluateTarget::Variable { module, index: variable });
      }
    }
    match lookup(module, component) {
      Lookup::Module(submodule) => module = submodule,
      Lookup::AbsentModule => {
        return Err(EvaluateError::AbsentModule { path: components[..=index].join("::") });
      }
      _ if last => {
        let suggestion = suggest_variable_or_submodule(module, component);
        let name = component.to_string();
        return Err(EvaluateError::UnknownVariableOrSubmodule { name, suggestion });
      }
      _ => {
        let suggestion = suggest_submodule(module, component);
        return Err(EvaluateError::UnknownSubmodule { name: component.to_string(), suggestion });
      }
    }
  }
  Ok(EvaluateTarget::Module { module })
}

/// The names of an `--evaluate` path: space-separated words, or one word
/// split on `::`; None unless every one is a name (an empty path is invalid,
/// a blank one names the root).
pub(crate) fn module_path_components(path: &str) -> Option<Vec<&str>> {
  if path.is_empty() {
    return None;
  }
  let words: Vec<&str> = path.split(' ').filter(|word| !word.is_empty()).collect();
  crate::syntax::path::path_of_words(&words)
}

fn suggest_variable_or_submodule(module: &Module, name: &str) -> Option<Suggestion> {
  let variables = module.assignments.keys().map(|key| (key.to_string(), None));
  let modules = module.modules.keys().map(|key| (key.to_string(), None));
  closest(variables.chain(modules), name)
}

const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

fn escape(byte: u8) -> Option<&'static str> {
  Some(match byte {
    b'\\' => "\\\\",
    b'"' => "\\\"",
    b'\n' => "\\n",
    b'\r' => "\\r",
    b'\t' => "\\t",
    _ => return None,
  })
}

/// `"…"` with escapes; in colour the string is green and escapes cyan.
#[cfg(test)]
fn quoted(text: &str, color: bool) -> String {
  let mut out = String::new();
  push_quoted(&mut out, text, color);
  out
}

/// Appends `text` as `quoted` renders it. Escaped characters are ASCII, so
/// the text is scanned by byte and copied in runs between them.
fn push_quoted(out: &mut String, text: &str, color: bool) {
  if color {
    out.push_str(GREEN);
  }
  out.push('"');
  let mut start = 0;
  for (index, byte) in text.bytes().enumerate() {
    let Some(escaped) = escape(byte) else { continue };
    out.push_str(&text[start..index]);
    if color {
      out.push_str(CYAN);
      out.push_str(escaped);
      out.push_str(GREEN);
    } else {
      out.push_str(escaped);
    }
    start = index + 1;
  }
  out.push_str(&text[start..]);
  out.push('"');
  if color {
    out.push_str(RESET);
  }
}

#[cfg(test)]
fn value_text(value: &Value, color: bool) -> String {
  let mut out = String::new();
  push_value(&mut out, value, color);
  out
}

fn push_value(out: &mut String, value: &Value, color: bool) {
  match value.elements() {
    [single] => push_quoted(out, single, color),
    elements => {
      out.push('[');
      for (index, element) in elements.iter().enumerate() {
        if index > 0 {
          out.push_str(", ");
        }
        push_quoted(out, element, color);
      }
      out.push(']');
    }
  }
}

/// `"VALUE"` for the shell format, with `!`, `"`, `$`, `\` and backticks
/// backslash-escaped.
#[cfg(test)]
fn shell_quoted(value: &Value) -> String {
  let mut out = String::new();
  push_shell_quoted(&mut out, value);
  out
}

fn push_shell_quoted(out: &mut String, value: &Value) {
  out.push('"');
  for c in value.joined().chars() {
    if matches!(c, '!' | '"' | '$' | '\\' | '`') {
      out.push('\\');
    }
    out.push(c);
  }
  out.push('"');
}

/// The `--evaluate` listing of `module`'s non-private variables, given
/// their evaluated values by assignment index, in listing order
/// (`variables::public_assignment_indices`).
pub(crate) fn evaluate_listing(
  module: &Module,
  values: &[(usize, &Value)],
  format: EvaluateFormat,
  color: bool,
) -> String {
  let values: Vec<(&Assignment, &Value)> = values
    .iter()
    .filter_map(|&(index, value)| Some((module.assignments.at(index)?, value)))
    .collect();
  let name = |assignment: &Assignment| assignment.name.lexeme().chars().count();
  let width = values.iter().map(|(assignment, _)| name(assignment)).max().unwrap_or(0);
  let mut out = String::with_capacity(values.len() * (width + 32));
  for (assignment, value) in values {
    let name = assignment.name.lexeme();
    match format {
      EvaluateFormat::Just => {
        out.push_str(name);
        for _ in name.chars().count()..width {
          out.push(' ');
        }
        out.push_str(" := ");
        push_value(&mut out, value, color);
        out.push('\n');
      }
      EvaluateFormat::Shell => {
        if module.settings.export || assignment.export {
          out.push_str("export ");
        }
        out.extend(name.chars().map(|c| if c == '-' { '_' } else { c }));
        out.push('=');
        push_shell_quoted(&mut out, value);
        out.push('\n');
      }
    }
  }
  out
}

/// `--evaluate NAME`: the raw value, no trailing newline.
pub(crate) fn evaluate_variable(value: &Value) -> String {
  value.joined()
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn quoting() {
    let cases = [
      ("a\tb", false, "\"a\\tb\""),
      ("a\tb", true, "\x1b[32m\"a\x1b[36m\\t\x1b[32mb\"\x1b[0m"),
      ("q\"\\\n\r", false, "\"q\\\"\\\\\\n\\r\""),
    ];
    for (text, color, expected) in cases {
      assert_eq!(quoted(text, color), expected);
    }
  }

  #[test]
  fn values() {
    assert_eq!(value_text(&Value(vec!["a".into(), "b".into()]), false), "[\"a\", \"b\"]");
    assert_eq!(value_text(&Value::empty_list(), false), "[]");
    assert_eq!(shell_quoted(&Value::string("$a`b`!\"\\")), "\"\\$a\\`b\\`\\!\\\"\\\\\"");
  }
}
