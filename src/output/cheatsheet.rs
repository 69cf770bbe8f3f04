//! `--cheatsheet`: the language's vocabulary on one page — every setting,
//! attribute, built-in function and constant with a one-line example and
//! the first sentence of what it does — read from the tables that define
//! the language (`Setting`, `AttributeKind`, `Function`, the constants), so
//! a new row shows up here without a second list to keep.

use crate::builtins::constants;
use crate::builtins::functions::Function;
use crate::color::Painter;
use crate::syntax::attributes::AttributeKind;
use crate::syntax::settings::Setting;

/// What precedes each row, as `--list`'s default prefix.
const INDENT: &str = "    ";

/// The widest examples' column: a longer example puts its description on
/// the next line.
const EXAMPLE_WIDTH: usize = 36;

/// The widest line: a description is cut to fit.
const LINE_WIDTH: usize = 120;

/// The cheatsheet, its `# …` descriptions painted as `--list` paints doc
/// comments.
pub(crate) fn cheatsheet(painter: Painter) -> String {
  let mut out = String::new();
  let settings = Setting::ALL.iter().map(|setting| (setting.example().to_owned(), setting.doc()));
  push_section(&mut out, "Settings", settings, painter);
  // The OS attributes share one text: one row.
  let attributes = AttributeKind::ALL.iter().map(|kind| (kind.example().to_owned(), kind.doc()));
  push_section(&mut out, "Attributes", grouped(attributes), painter);
  let functions =
    Function::ALL.iter().map(|function| (function_example(*function), function.doc()));
  push_section(&mut out, "Functions", functions, painter);
  let constants =
    constants::all().iter().map(|(name, _)| ((*name).to_owned(), constants::doc(name)));
  push_section(&mut out, "Constants", grouped(constants), painter);
  out
}

/// The rows with the same text as one, their examples joined, at the first
/// one's place.
fn grouped<'d>(
  rows: impl Iterator<Item = (String, &'d str)>,
) -> impl Iterator<Item = (String, &'d str)> {
  let mut out: Vec<(String, &str)> = Vec::new();
  for (example, doc) in rows {
    match out.iter_mut().find(|(_, shown)| *shown == doc) {
      Some((examples, _)) => {
        examples.push(' ');
        examples.push_str(&example);
      }
      None => out.push((example, doc)),
    }
  }
  out.into_iter()
}

fn push_section<'d>(
  out: &mut String,
  heading: &str,
  rows: impl Iterator<Item = (String, &'d str)>,
  painter: Painter,
) {
  if !out.is_empty() {
    out.push('\n');
  }
  out.push_str(heading);
  out.push_str(":\n");
  let rows: Vec<(String, &str)> = rows.collect();
  let column = rows
    .iter()
    .map(|(example, _)| example.chars().count())
    .filter(|width| *width <= EXAMPLE_WIDTH)
    .max()
    .unwrap_or(0);
  let room = LINE_WIDTH - INDENT.len() - column - " # ".len();
  for (example, doc) in rows {
    out.push_str(INDENT);
    out.push_str(&example);
    let width = example.chars().count();
    if width > column {
      out.push('\n');
      out.push_str(INDENT);
      out.push_str(&" ".repeat(column));
    } else {
      out.push_str(&" ".repeat(column - width));
    }
    out.push(' ');
    out.push_str(&painter.doc(&format!("# {}", summary(doc, room))));
    out.push('\n');
  }
}

/// A call of the function: the first in its documentation, else one that
/// names its parameters.
fn function_example(function: Function) -> String {
  let name = function.name();
  code_spans(function.doc())
    .find(|span| span.strip_prefix(name).is_some_and(|rest| rest.starts_with('(')))
    .map_or_else(|| format!("{name}({})", function.parameters()), str::to_owned)
}

/// The text of each `` `code` `` span of `text`.
fn code_spans(text: &str) -> impl Iterator<Item = &str> {
  text.split('`').skip(1).step_by(2)
}

/// The first sentence of `text` on one line, within `room` characters:
/// if it is longer, its longest beginning that ends a clause (before a
/// `:`, `;` or `(`) and fits, else its beginning shortened with `…`.
fn summary(text: &str, room: usize) -> String {
  /// A clause shorter than this says too little: `…` is better.
  const SHORTEST_CLAUSE: usize = 24;
  let sentence = first_sentence(text);
  if sentence.chars().count() <= room {
    return sentence;
  }
  let fits = |end: &usize| (SHORTEST_CLAUSE..room).contains(&sentence[..*end].chars().count());
  if let Some(end) = clause_ends(&sentence).filter(fits).last() {
    return format!("{}.", &sentence[..end]);
  }
  let mut shortened = sentence.chars().take(room - 1).collect::<String>().trim_end().to_owned();
  shortened.push('…');
  shortened
}

/// Where the clauses of `sentence` end: before each `: `, `; ` or ` (`
/// outside code.
fn clause_ends(sentence: &str) -> impl Iterator<Item = usize> + '_ {
  let bytes = sentence.as_bytes();
  let mut in_code = false;
  bytes.iter().enumerate().filter_map(move |(index, byte)| {
    let next = bytes.get(index + 1).copied();
    match byte {
      b'`' => {
        in_code = !in_code;
        None
      }
      b':' | b';' if !in_code && next == Some(b' ') => Some(index),
      b' ' if !in_code && next == Some(b'(') => Some(index),
      _ => None,
    }
  })
}

/// The text up to the end of its first sentence (a `.` before a space, or
/// the end), on one line.
fn first_sentence(text: &str) -> String {
  let mut sentence = String::new();
  let mut in_code = false;
  let mut characters = text.chars().peekable();
  while let Some(character) = characters.next() {
    in_code ^= character == '`';
    sentence.push(character);
    if character == '.' && !in_code && characters.peek().is_none_or(|next| *next == ' ') {
      break;
    }
  }
  sentence.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn every_row_of_every_table_is_shown() {
    let sheet = cheatsheet(Painter::plain());
    for setting in Setting::ALL {
      let row = format!("{INDENT}{}", setting.example());
      assert!(sheet.lines().any(|line| line.starts_with(&row)), "{setting:?}");
    }
    for kind in AttributeKind::ALL {
      assert!(sheet.contains(kind.example()), "{kind:?}");
    }
    for function in Function::ALL {
      assert!(sheet.contains(&format!("{INDENT}{}", function_example(*function))), "{function:?}");
      assert!(function_example(*function).starts_with(&format!("{}(", function.name())));
    }
    for (name, _) in constants::all() {
      assert!(
        sheet.lines().any(|line| line.split_whitespace().any(|word| word == *name)),
        "{name}"
      );
    }
    for line in sheet.lines() {
      assert!(line.chars().count() <= LINE_WIDTH || !line.contains('#'), "{line}");
    }
  }

  #[test]
  fn first_sentence_ends_at_a_full_stop_outside_code() {
    assert_eq!(first_sentence("One `a. b` two. Three."), "One `a. b` two.");
    assert_eq!(first_sentence("No stop\n   here"), "No stop here");
    assert_eq!(first_sentence("Version 1.2 is. Next"), "Version 1.2 is.");
  }

  #[test]
  fn summary_fits_its_room() {
    assert_eq!(summary("Short. More.", 20), "Short.");
    let text = "The value of the key `a: b`: an example here and there.";
    assert_eq!(summary(text, 40), "The value of the key `a: b`.");
    assert_eq!(
      summary("Tiny (a clause too short to stand alone here).", 40),
      "Tiny (a clause too short to stand alone…"
    );
    assert_eq!(summary("A rather long sentence without a clause.", 10), "A rather…");
  }

  /// Each example is a justfile line that compiles.
  #[test]
  fn setting_and_attribute_examples_compile() {
    for setting in Setting::ALL {
      let source = format!("{}\nr:\n  echo\n", setting.example());
      assert_compiles(&source);
    }
    for kind in AttributeKind::ALL {
      let body = if *kind == AttributeKind::Extension { "#!/bin/sh" } else { "echo" };
      let source = format!("set unstable\n{}\nr mode='debug':\n  {body}\n", kind.example());
      assert_compiles(&source);
    }
  }

  fn assert_compiles(source: &str) {
    use crate::analysis::loader::{Arenas, LoadRequest};
    let directory = tempfile::tempdir().expect("tempdir");
    let path = directory.path().join("justfile");
    let request = LoadRequest {
      justfile: &path,
      source: Some(source.to_owned()),
      working_directory: directory.path(),
      overrides: &[],
      unstable: true,
    };
    let (sources, trees) =
      (crate::syntax::sources::Sources::new(), crate::syntax::trees::Trees::new());
    let arenas = Arenas { sources: &sources, trees: &trees };
    if let Err(error) = crate::analysis::analyzer::compile(&request, arenas) {
      panic!("{source}: {error:?}");
    }
  }
}
