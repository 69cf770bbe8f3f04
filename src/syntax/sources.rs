//! The arenas of one run. `Sources` owns every loaded file's text and
//! display path; tokens borrow from it (lifetime `'src`). `Trees` owns the
//! files' parse trees, which the analysed justfile borrows. Both are created
//! by the caller of the pipeline and passed down explicitly, so they live as
//! long as anything built from them and are freed with it. Nothing is
//! global: a second pair of arenas is a second, independent run.

use std::fmt::{self, Debug, Formatter};
use std::path::PathBuf;

use super::ast::Ast;

/// A source file: its text and the path diagnostics show for it.
pub struct Source {
  pub text: String,
  pub path: PathBuf,
}

impl Source {
  pub fn new(text: impl Into<String>, path: impl Into<PathBuf>) -> Self {
    Source { text: text.into(), path: path.into() }
  }
}

/// Tokens print their file's path, not its whole text.
impl Debug for Source {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    write!(f, "Source({})", self.path.display())
  }
}

/// The arena of a run's sources. Adding a file hands out a reference that
/// lives as long as the arena; files are never removed or moved. It may be
/// shared with the thread that parses (see `parser::on_parser_stack`).
#[derive(Default)]
pub struct Sources {
  arena: elsa::sync::FrozenVec<Box<Source>>,
}

impl Sources {
  pub fn new() -> Self {
    Sources::default()
  }

  pub fn add(&self, text: impl Into<String>, path: impl Into<PathBuf>) -> &Source {
    self.arena.push_get(Box::new(Source::new(text, path)))
  }

  /// Every file added so far, in the order added.
  pub fn iter(&self) -> impl Iterator<Item = &Source> {
    self.arena.iter()
  }
}

/// The arena of a run's parse trees, borrowing from a `Sources`.
#[derive(Default)]
pub struct Trees<'src> {
  arena: elsa::sync::FrozenVec<Box<Ast<'src>>>,
}

impl<'src> Trees<'src> {
  pub fn new() -> Self {
    Trees::default()
  }

  pub fn add(&self, ast: Ast<'src>) -> &Ast<'src> {
    self.arena.push_get(Box::new(ast))
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn added_sources_live_as_long_as_the_arena() {
    let sources = Sources::new();
    let a = sources.add("a := 1", "a.just");
    let b = sources.add("b", "b.just");
    assert!(!std::ptr::eq(a, b));
    assert_eq!(a.text, "a := 1");
    assert_eq!(b.path, std::path::Path::new("b.just"));
  }

  #[test]
  fn two_arenas_are_independent_runs() {
    let first = Sources::new();
    let second = Sources::new();
    assert_eq!(first.add("x", "justfile").text, second.add("x", "justfile").text);
  }
}
