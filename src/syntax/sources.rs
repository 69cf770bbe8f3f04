//! The arena of a run's source texts. `Sources` owns every loaded file's
//! text and display path; tokens borrow from it (lifetime `'src`). Like the
//! arena of parse trees (`trees.rs`), it is created by the caller of the
//! pipeline and passed down explicitly, so it lives as long as anything
//! built from it and is freed with it. Nothing is global: a second pair of
//! arenas is a second, independent run.

use std::fmt::{self, Debug, Formatter};
use std::path::PathBuf;

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
pub(crate) struct Sources {
  arena: elsa::sync::FrozenVec<Box<Source>>,
}

impl Sources {
  pub(crate) fn new() -> Self {
    Sources::default()
  }

  pub(crate) fn add(&self, text: impl Into<String>, path: impl Into<PathBuf>) -> &Source {
    self.arena.push_get(Box::new(Source::new(text, path)))
  }

  /// Every file added so far, in the order added.
  pub(crate) fn iter(&self) -> impl Iterator<Item = &Source> {
    self.arena.iter()
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
