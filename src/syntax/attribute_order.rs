//! The canonical order of an item's attributes: by
//! name, then per-name rules. `--dump`, `--fmt`, `--show` and `--json` print
//! in this order, and the analyzer uses it to decide which of two
//! conflicting `[arg]`s to blame.

use std::cmp::Ordering;

use super::ast::{
  ArgAttribute, Attribute, AttributeEntry, Expression, Keyed, StringKind, StringLiteral,
};
use super::token::Token;

/// The attributes in canonical order: by name, then per-name rules.
pub(crate) fn sorted<'a, 'src>(
  entries: &'a [AttributeEntry<'src>],
) -> Vec<&'a AttributeEntry<'src>> {
  let mut sorted: Vec<&AttributeEntry> = entries.iter().collect();
  sorted.sort_by(|a, b| compare(&a.attribute, &b.attribute));
  sorted
}

fn compare(a: &Attribute, b: &Attribute) -> Ordering {
  a.name().cmp(b.name()).then_with(|| same_name(a, b))
}

/// Two attributes of the same name; only repeatable ones have an order.
fn same_name(a: &Attribute, b: &Attribute) -> Ordering {
  use Attribute::*;
  match (a, b) {
    (Group(a), Group(b)) => compare_literals(a, b),
    (Metadata(a), Metadata(b)) => compare_literal_lists(a, b),
    (Env(a, _), Env(b, _)) => compare_env_keys(a, b),
    (Arg(a), Arg(b)) => compare_args(a, b),
    (
      Android | Arg(_) | Cache(_) | Confirm(_) | Continue(_) | Default | Doc(_) | Dragonfly
      | Env(..) | ExitMessage | Extension(_) | Freebsd | Group(_) | Linux | Macos | Metadata(_)
      | Netbsd | NoCd | NoExitMessage | NoQuiet | Openbsd | Parallel | PositionalArguments
      | Private | Script(_) | Shell | Timestamp(_) | Unix | Windows | WorkingDirectory(_),
      _,
    ) => Ordering::Equal,
  }
}

fn position(token: Token) -> (usize, usize) {
  (token.column(), token.line as usize)
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

fn key_position<T>(keyed: Option<&Keyed<T>>) -> Option<(usize, usize)> {
  keyed.as_ref().map(|k| position(k.key))
}

fn long_name(arg: &ArgAttribute) -> Option<String> {
  arg.long.as_ref().map(|long| match &long.value {
    Some(literal) => literal.cooked.to_string(),
    None => arg.name.cooked.to_string(),
  })
}

fn is_bare_long(arg: &ArgAttribute) -> bool {
  arg.long.as_ref().is_some_and(|long| long.value.is_none())
}

fn bound(keyed: Option<&Keyed<(StringLiteral, usize)>>) -> Option<usize> {
  keyed.as_ref().map(|k| k.value.1)
}

/// A help text, if it is a literal, and where its key is written.
type HelpKey<'a> = (Option<&'a [u8]>, (usize, usize));

/// An `[arg]`'s help text orders it by its text (none first), then by
/// where its key is written.
fn help_key<'a>(arg: &'a ArgAttribute) -> Option<HelpKey<'a>> {
  arg.help.as_ref().map(|help| {
    (literal_key(&help.value).map(|literal| literal.cooked.as_bytes()), position(help.key))
  })
}

/// Also decides which of two `[arg]`s claiming one option is blamed. Equal
/// long names always conflict, so the tie-breaks after the name (bare `long`
/// first, then the literal's position) only show in that error.
pub(crate) fn compare_args(a: &ArgAttribute, b: &ArgAttribute) -> Ordering {
  let long_position = |arg: &ArgAttribute| {
    arg.long.as_ref().and_then(|long| long.value.as_ref()).map(|literal| position(literal.token))
  };
  key_position(a.flag.as_ref())
    .cmp(&key_position(b.flag.as_ref()))
    .then_with(|| help_key(a).cmp(&help_key(b)))
    .then_with(|| long_name(a).cmp(&long_name(b)))
    .then_with(|| is_bare_long(b).cmp(&is_bare_long(a)))
    .then_with(|| long_position(a).cmp(&long_position(b)))
    .then_with(|| bound(a.max.as_ref()).cmp(&bound(b.max.as_ref())))
    .then_with(|| bound(a.min.as_ref()).cmp(&bound(b.min.as_ref())))
    .then_with(|| key_position(a.multiple.as_ref()).cmp(&key_position(b.multiple.as_ref())))
    .then_with(|| a.name.cooked.cmp(b.name.cooked))
}
