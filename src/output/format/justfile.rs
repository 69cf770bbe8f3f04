//! The canonical text of one file (formatting.md §1–§4), for `--dump` and `--fmt`.

use super::attributes;
use super::expression::literal_text;
use super::recipe;
use crate::syntax::ast::{
  Alias, Assignment, Ast, Attribute, Attributes, FunctionDefinition, Import, Item, ModuleItem,
  Recipe, Set, SettingValue, Unexport,
};
use crate::syntax::token::Token;

/// Format a parse tree; recipe bodies are indented with `indentation`.
pub fn format_justfile(ast: &Ast, indentation: &str) -> String {
  let mut out = String::new();
  for (index, item) in ast.items.iter().enumerate() {
    match item {
      Item::Eol => push_line_end(&mut out),
      Item::Comment(token) => push_comment(&mut out, &ast.items, index, *token),
      Item::Recipe(r) => push_recipe(&mut out, r, indentation),
      other => out.push_str(&item_text(other)),
    }
  }
  finish(out)
}

/// A line end, except that no more than one blank line is ever produced.
fn push_line_end(out: &mut String) {
  if !out.ends_with("\n\n") {
    out.push('\n');
  }
}

/// Drop blank lines at the end; a non-empty output ends with one `\n`.
fn finish(mut out: String) -> String {
  if out.is_empty() {
    return out;
  }
  let trimmed_len = out.trim_end_matches('\n').len();
  out.truncate(trimmed_len);
  out.push('\n');
  out
}

fn push_comment(out: &mut String, items: &[Item], index: usize, token: Token) {
  let text = token.lexeme().trim_end();
  match index.checked_sub(1).map(|i| &items[i]) {
    Some(Item::Recipe(r)) if recipe::has_body(r) => {}
    Some(Item::Eol) | None => match doc_comment_text(items, index, token) {
      Some(doc) => out.push_str(&format!("# {doc}")),
      None => out.push_str(text),
    },
    Some(_) => {
      out.push(' ');
      out.push_str(text);
    }
  }
}

/// The doc text if the comment at `index` documents the recipe or module
/// on the next line (§2.3).
fn doc_comment_text<'src>(
  items: &[Item<'src>],
  index: usize,
  token: Token<'src>,
) -> Option<&'src str> {
  let attributes = match (items.get(index + 1), items.get(index + 2)) {
    (Some(Item::Eol), Some(Item::Recipe(r))) => &r.attributes,
    (Some(Item::Eol), Some(Item::Module(m))) => &m.attributes,
    _ => return None,
  };
  if has_doc_attribute(attributes) {
    return None;
  }
  let lexeme = token.lexeme();
  if token.line == 0 && lexeme.starts_with("#!") {
    return None;
  }
  let text = lexeme.strip_prefix('#').unwrap_or(lexeme).trim();
  (!text.is_empty()).then_some(text)
}

fn has_doc_attribute(attributes: &Attributes) -> bool {
  attributes.list.iter().any(|entry| matches!(entry.attribute, Attribute::Doc(_)))
}

fn push_recipe(out: &mut String, r: &Recipe, indentation: &str) {
  out.push_str(&attributes::render_lines(&r.attributes.list));
  out.push_str(&recipe::header(r));
  if recipe::has_body(r) {
    out.push('\n');
    out.push_str(&recipe::body(r, indentation));
    if recipe::has_trailing_blank_lines(r) {
      out.push('\n');
    }
  }
}

fn item_text(item: &Item) -> String {
  let (attributes, text) = match item {
    Item::Alias(alias) => (&alias.attributes, alias_text(alias)),
    Item::Assignment(assignment) => (&assignment.attributes, assignment_text(assignment)),
    Item::Function(function) => (&function.attributes, function_text(function)),
    Item::Import(import) => (&import.attributes, import_text(import)),
    Item::Module(module) => (&module.attributes, module_text(module)),
    Item::Set(set) => (&set.attributes, set_text(set)),
    Item::Unexport(unexport) => (&unexport.attributes, unexport_text(unexport)),
    Item::Comment(_) | Item::Eol | Item::Recipe(_) => return String::new(),
  };
  attributes::render_lines(&attributes.list) + &text
}

fn alias_text(alias: &Alias) -> String {
  let target = alias.target.iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::");
  format!("alias {} := {target}", alias.name.lexeme())
}

fn assignment_text(assignment: &Assignment) -> String {
  let eager = if assignment.eager { "eager " } else { "" };
  let export = if assignment.export { "export " } else { "" };
  format!("{eager}{export}{} := {}", assignment.name.lexeme(), assignment.value)
}

fn function_text(function: &FunctionDefinition) -> String {
  let parameters = function.parameters.iter().map(|p| p.lexeme()).collect::<Vec<_>>().join(", ");
  format!("{}({parameters}) := {}", function.name.lexeme(), function.body)
}

fn optional_mark(optional: bool) -> &'static str {
  if optional {
    "?"
  } else {
    ""
  }
}

fn import_text(import: &Import) -> String {
  format!("import{} {}", optional_mark(import.optional), literal_text(&import.path))
}

fn module_text(module: &ModuleItem) -> String {
  let mut text = format!("mod{} {}", optional_mark(module.optional), module.name.lexeme());
  if let Some(path) = &module.path {
    text.push(' ');
    text.push_str(&literal_text(path));
  }
  text
}

fn set_text(set: &Set) -> String {
  let name = set.name.lexeme();
  match &set.value {
    SettingValue::Boolean { value: true, .. } => format!("set {name}"),
    SettingValue::Boolean { value: false, .. } => format!("set {name} := false"),
    SettingValue::Expression(expression) => format!("set {name} := {expression}"),
    SettingValue::List(elements) => {
      let elements = elements.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
      format!("set {name} := [{elements}]")
    }
    SettingValue::Literal(literal) => format!("set {name} := {}", literal_text(literal)),
  }
}

fn unexport_text(unexport: &Unexport) -> String {
  format!("unexport {}", unexport.name.lexeme())
}

/// The value of the first enabled `set indentation` of this file (the
/// `--fmt` indentation default, formatting.md §3).
pub fn indentation_setting(ast: &Ast) -> Option<String> {
  ast.items.iter().find_map(|item| match item {
    Item::Set(set) if set.name.lexeme() == "indentation" && enabled(&set.attributes) => {
      match &set.value {
        SettingValue::Literal(literal) => Some(literal.cooked.clone()),
        _ => None,
      }
    }
    _ => None,
  })
}

/// Whether an item's OS attributes enable it on this platform (reference.md §4.2).
pub fn enabled(attributes: &Attributes) -> bool {
  let mut os =
    attributes.list.iter().map(|entry| &entry.attribute).filter(|a| a.is_os()).peekable();
  os.peek().is_none() || os.any(os_matches)
}

fn os_matches(attribute: &Attribute) -> bool {
  match attribute {
    Attribute::Android => cfg!(target_os = "android"),
    Attribute::Dragonfly => cfg!(target_os = "dragonfly"),
    Attribute::Freebsd => cfg!(target_os = "freebsd"),
    Attribute::Linux => cfg!(target_os = "linux"),
    Attribute::Macos => cfg!(target_os = "macos"),
    Attribute::Netbsd => cfg!(target_os = "netbsd"),
    Attribute::Openbsd => cfg!(target_os = "openbsd"),
    Attribute::Unix => cfg!(unix),
    Attribute::Windows => cfg!(windows),
    _ => false,
  }
}
