//! Attribute ordering and rendering (formatting.md §4.5).

use std::cmp::Ordering;

use super::expression::literal_text;
use crate::syntax::ast::{
  ArgAttribute, Attribute, AttributeEntry, CacheAttribute, Expression, Interpreter, Keyed,
  StringKind, StringLiteral,
};
use crate::syntax::token::Token;

/// The attributes in canonical order: by name, then per-name rules.
pub fn sorted<'a, 'src>(entries: &'a [AttributeEntry<'src>]) -> Vec<&'a AttributeEntry<'src>> {
  let mut sorted: Vec<&AttributeEntry> = entries.iter().collect();
  sorted.sort_by(|a, b| compare(&a.attribute, &b.attribute));
  sorted
}

/// Each attribute on its own line: `[NAME(ARGS)]\n`.
pub fn render_lines(entries: &[AttributeEntry]) -> String {
  sorted(entries).into_iter().map(|entry| format!("[{}]\n", render(&entry.attribute))).collect()
}

fn compare(a: &Attribute, b: &Attribute) -> Ordering {
  a.name().cmp(b.name()).then_with(|| match (a, b) {
    (Attribute::Group(a), Attribute::Group(b)) => compare_literals(a, b),
    (Attribute::Metadata(a), Attribute::Metadata(b)) => compare_literal_lists(a, b),
    (Attribute::Env(a, _), Attribute::Env(b, _)) => compare_env_keys(a, b),
    (Attribute::Arg(a), Attribute::Arg(b)) => compare_args(a, b),
    _ => Ordering::Equal,
  })
}

fn position(token: Token) -> (usize, usize) {
  (token.column, token.line)
}

/// `"` sorts before `'`, single-line before triple-quoted.
fn kind_rank(kind: StringKind) -> (bool, bool) {
  (!kind.processes_escapes(), kind.is_indented())
}

fn compare_literals(a: &StringLiteral, b: &StringLiteral) -> Ordering {
  let key = |l: &StringLiteral| (l.expand, kind_rank(l.kind), position(l.token));
  a.cooked.as_bytes().cmp(b.cooked.as_bytes()).then_with(|| key(a).cmp(&key(b)))
}

fn compare_literal_lists(a: &[StringLiteral], b: &[StringLiteral]) -> Ordering {
  for (x, y) in a.iter().zip(b) {
    let ordering = compare_literals(x, y);
    if ordering != Ordering::Equal {
      return ordering;
    }
  }
  a.len().cmp(&b.len())
}

fn literal_key<'a, 'src>(key: &'a Expression<'src>) -> Option<&'a StringLiteral<'src>> {
  match key {
    Expression::StringLiteral(literal) => Some(literal),
    _ => None,
  }
}

fn compare_env_keys(a: &Expression, b: &Expression) -> Ordering {
  match (literal_key(a), literal_key(b)) {
    (Some(x), Some(y)) => compare_literals(x, y),
    (Some(_), None) => Ordering::Less,
    (None, Some(_)) => Ordering::Greater,
    (None, None) => position(a.first_token()).cmp(&position(b.first_token())),
  }
}

fn key_position<T>(keyed: &Option<Keyed<T>>) -> Option<(usize, usize)> {
  keyed.as_ref().map(|k| position(k.key))
}

fn long_name(arg: &ArgAttribute) -> Option<String> {
  arg.long.as_ref().map(|long| match &long.value {
    Some(literal) => literal.cooked.clone(),
    None => arg.name.cooked.clone(),
  })
}

fn is_bare_long(arg: &ArgAttribute) -> bool {
  arg.long.as_ref().is_some_and(|long| long.value.is_none())
}

fn bound(keyed: &Option<Keyed<(StringLiteral, usize)>>) -> Option<usize> {
  keyed.as_ref().map(|k| k.value.1)
}

fn compare_args(a: &ArgAttribute, b: &ArgAttribute) -> Ordering {
  key_position(&a.flag)
    .cmp(&key_position(&b.flag))
    .then_with(|| key_position(&a.help).cmp(&key_position(&b.help)))
    .then_with(|| long_name(a).cmp(&long_name(b)))
    .then_with(|| is_bare_long(a).cmp(&is_bare_long(b)))
    .then_with(|| bound(&a.max).cmp(&bound(&b.max)))
    .then_with(|| bound(&a.min).cmp(&bound(&b.min)))
    .then_with(|| key_position(&a.multiple).cmp(&key_position(&b.multiple)))
    .then_with(|| a.name.cooked.cmp(&b.name.cooked))
}

/// The text between the brackets: `name` or `name(ARGS)`.
pub fn render(attribute: &Attribute) -> String {
  let name = attribute.name();
  match arguments(attribute) {
    Some(arguments) => format!("{name}({})", arguments.join(", ")),
    None => name.to_string(),
  }
}

fn optional_expression(expression: &Option<Expression>) -> Option<Vec<String>> {
  expression.as_ref().map(|e| vec![e.to_string()])
}

fn arguments(attribute: &Attribute) -> Option<Vec<String>> {
  use Attribute::*;
  match attribute {
    Arg(arg) => Some(arg_arguments(arg)),
    Cache(cache) => cache_arguments(cache),
    Confirm(e) | Doc(e) | Timestamp(e) => optional_expression(e),
    Continue(signals) if signals.is_empty() => None,
    Continue(signals) => Some(signals.iter().map(|s| format!("\"{}\"", s.name())).collect()),
    Env(key, value) => Some(vec![key.to_string(), value.to_string()]),
    Extension(literal) | Group(literal) => Some(vec![literal_text(literal)]),
    Metadata(literals) => Some(literals.iter().map(literal_text).collect()),
    Script(interpreter) => interpreter.as_ref().map(interpreter_arguments),
    WorkingDirectory(e) => Some(vec![e.to_string()]),
    _ => None,
  }
}

pub fn interpreter_arguments(interpreter: &Interpreter) -> Vec<String> {
  std::iter::once(&interpreter.command).chain(&interpreter.arguments).map(literal_text).collect()
}

fn cache_arguments(cache: &CacheAttribute) -> Option<Vec<String>> {
  let keys = [("extra", &cache.extra), ("inputs", &cache.inputs), ("outputs", &cache.outputs)];
  let rendered: Vec<String> = keys
    .iter()
    .filter_map(|(name, keyed)| keyed.as_ref().map(|k| format!("{name}={}", k.value)))
    .collect();
  (!rendered.is_empty()).then_some(rendered)
}

fn optional_literal_key(
  name: &str,
  keyed: &Option<Keyed<Option<StringLiteral>>>,
) -> Option<String> {
  keyed.as_ref().map(|k| match &k.value {
    Some(literal) => format!("{name}={}", literal_text(literal)),
    None => name.to_string(),
  })
}

fn arg_arguments(arg: &ArgAttribute) -> Vec<String> {
  let expression_key = |name: &str, keyed: &Option<Keyed<Expression>>| {
    keyed.as_ref().map(|k| format!("{name}={}", k.value))
  };
  let bound_key = |name: &str, keyed: &Option<Keyed<(StringLiteral, usize)>>| {
    keyed.as_ref().map(|k| format!("{name}='{}'", k.value.1))
  };
  let present = |name: &str, keyed: &Option<Keyed<()>>| keyed.as_ref().map(|_| name.to_string());
  [
    Some(literal_text(&arg.name)),
    optional_literal_key("long", &arg.long),
    optional_literal_key("short", &arg.short),
    expression_key("pattern", &arg.pattern),
    expression_key("value", &arg.value),
    present("flag", &arg.flag),
    present("multiple", &arg.multiple),
    bound_key("min", &arg.min),
    bound_key("max", &arg.max),
    expression_key("help", &arg.help),
  ]
  .into_iter()
  .flatten()
  .collect()
}
