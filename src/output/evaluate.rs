//! `--evaluate`: resolving the optional path
//! and formatting evaluated variables in the `just` and `shell` formats.

use std::collections::BTreeMap;

use snafu::Snafu;

use crate::analysis::lookup::{closest, lookup, suggest_submodule, Lookup, Suggestion};
use crate::analysis::model::Module;
use crate::builtins::value::Value;
use crate::options::EvaluateFormat;
use crate::output::variables::public_assignments;

fn suggestion_line(suggestion: &Option<Suggestion>) -> String {
  suggestion.as_ref().map(|s| format!("\n{s}")).unwrap_or_default()
}

#[derive(Debug, Snafu)]
pub enum EvaluateError {
  #[snafu(display(
    "justfile does not contain variable or submodule `{name}`{}",
    suggestion_line(suggestion)
  ))]
  UnknownVariableOrSubmodule { name: String, suggestion: Option<Suggestion> },
  #[snafu(display("justfile does not contain submodule `{name}`{}", suggestion_line(suggestion)))]
  UnknownSubmodule { name: String, suggestion: Option<Suggestion> },
  #[snafu(display("invalid module path `{path}`"))]
  InvalidModulePath { path: String },
  #[snafu(display("optional module `{path}` is absent"))]
  AbsentModule { path: String },
}

/// What `--evaluate PATH` names.
pub enum EvaluateTarget<'a, 'src> {
  /// Print this module's variables (the listing).
  Module { path: Vec<String>, module: &'a Module<'src> },
  /// Print this variable's raw value, no newline.
  Variable { path: Vec<String>, module: &'a Module<'src>, name: String },
}

/// Resolves `--evaluate [PATH]` (`::` allowed, module aliases followed).
pub fn resolve_evaluate_path<'a, 'src>(
  root: &'a Module<'src>,
  path: Option<&str>,
) -> Result<EvaluateTarget<'a, 'src>, EvaluateError> {
  let Some(path) = path else {
    return Ok(EvaluateTarget::Module { path: Vec::new(), module: root });
  };
  let Some(components) = module_path_components(path) else {
    return Err(EvaluateError::InvalidModulePath { path: path.to_string() });
  };
  let mut module = root;
  let mut module_path = Vec::new();
  for (index, component) in components.iter().enumerate() {
    let last = index + 1 == components.len();
    if last && module.assignments.contains_key(component) {
      let name = component.to_string();
      return Ok(EvaluateTarget::Variable { path: module_path, module, name });
    }
    match lookup(module, component) {
      Lookup::Module(submodule) => {
        module = submodule;
        module_path.clone_from(&submodule.path);
      }
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
  Ok(EvaluateTarget::Module { path: module_path, module })
}

/// The names of an `--evaluate` path: space-separated words, or one word
/// split on `::`; None unless every one is a name (an empty path is invalid,
/// a blank one names the root).
pub fn module_path_components(path: &str) -> Option<Vec<&str>> {
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

/// The names `--evaluate` prints for a module, sorted.
pub fn listed_variable_names<'src>(module: &Module<'src>) -> Vec<&'src str> {
  public_assignments(module).iter().map(|assignment| assignment.name.lexeme()).collect()
}

const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

fn escape(c: char) -> Option<&'static str> {
  Some(match c {
    '\\' => "\\\\",
    '"' => "\\\"",
    '\n' => "\\n",
    '\r' => "\\r",
    '\t' => "\\t",
    _ => return None,
  })
}

/// `"…"` with escapes; in colour the string is green and escapes cyan.
fn quoted(text: &str, color: bool) -> String {
  let mut out = String::new();
  if color {
    out.push_str(GREEN);
  }
  out.push('"');
  for c in text.chars() {
    match (escape(c), color) {
      (Some(escaped), true) => {
        out.push_str(CYAN);
        out.push_str(escaped);
        out.push_str(GREEN);
      }
      (Some(escaped), false) => out.push_str(escaped),
      (None, _) => out.push(c),
    }
  }
  out.push('"');
  if color {
    out.push_str(RESET);
  }
  out
}

fn value_text(value: &Value, color: bool) -> String {
  match value.elements() {
    [single] => quoted(single, color),
    elements => {
      let inner: Vec<String> = elements.iter().map(|e| quoted(e, color)).collect();
      format!("[{}]", inner.join(", "))
    }
  }
}

/// `"VALUE"` for the shell format, with `! " $ \ `` ` `` backslash-escaped.
fn shell_quoted(value: &Value) -> String {
  let mut out = String::from("\"");
  for c in value.joined().chars() {
    if matches!(c, '!' | '"' | '$' | '\\' | '`') {
      out.push('\\');
    }
    out.push(c);
  }
  out.push('"');
  out
}

/// The `--evaluate` listing of `module`'s non-private variables, given
/// their evaluated values.
pub fn evaluate_listing(
  module: &Module,
  values: &BTreeMap<String, Value>,
  format: EvaluateFormat,
  color: bool,
) -> String {
  let names = listed_variable_names(module);
  let width = names.iter().map(|name| name.chars().count()).max().unwrap_or(0);
  let mut out = String::new();
  for name in names {
    let Some(value) = values.get(name) else { continue };
    match format {
      EvaluateFormat::Just => {
        let padding = " ".repeat(width - name.chars().count());
        out.push_str(&format!("{name}{padding} := {}\n", value_text(value, color)));
      }
      EvaluateFormat::Shell => {
        let exported = module.settings.export
          || module.assignments.get(name).is_some_and(|assignment| assignment.export);
        let export = if exported { "export " } else { "" };
        let shell_name = name.replace('-', "_");
        out.push_str(&format!("{export}{shell_name}={}\n", shell_quoted(value)));
      }
    }
  }
  out
}

/// `--evaluate NAME`: the raw value, no trailing newline.
pub fn evaluate_variable(value: &Value) -> String {
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
