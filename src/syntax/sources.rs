//! The arenas of one run. `Sources` owns every loaded file's text and
//! display path; tokens borrow from it (lifetime `'src`). `Trees` owns the
//! files' parse trees and the nodes they are made of, which the analysed
//! justfile borrows. Both are created by the caller of the pipeline and
//! passed down explicitly, so they live as long as anything built from them
//! and are freed with it. Nothing is global: a second pair of arenas is a
//! second, independent run.

use std::cell::Cell;
use std::fmt::{self, Debug, Formatter};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use super::ast::{Ast, Slot};

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

/// The arena of a run's parse trees, borrowing from a `Sources`. The nodes
/// of the trees (recipes, expressions, lists of them) are bump-allocated
/// from `nodes`, so a tree costs a few large allocations rather than one
/// per node, and is freed in one go with the arena.
#[derive(Default)]
pub struct Trees<'src> {
  arena: elsa::sync::FrozenVec<Box<Ast<'src>>>,
  nodes: bumpalo_herd::Herd,
  /// The next free `Slot` number of the run.
  slots: AtomicU32,
}

impl<'src> Trees<'src> {
  pub fn new() -> Self {
    Trees::default()
  }

  pub(crate) fn add(&self, ast: Ast<'src>) -> &Ast<'src> {
    self.arena.push_get(Box::new(ast))
  }

  /// An allocator of nodes that live as long as this arena. Each parsing
  /// thread takes its own.
  pub(crate) fn nodes(&'src self) -> Nodes<'src> {
    Nodes { member: self.nodes.get(), slots: &self.slots, next: Cell::new(0), end: Cell::new(0) }
  }

  /// How many slots the parsers have handed out: every `Slot` of the run's
  /// trees is below this.
  pub(crate) fn slot_count(&self) -> usize {
    self.slots.load(Ordering::Relaxed) as usize
  }
}

/// Slots a parser reserves at a time; it gives back what it did not use.
const SLOT_BLOCK: u32 = 64;

/// Allocates parse-tree nodes in a `Trees` arena. Nodes are never dropped
/// one by one, so only types without drop glue (no owned heap data) may be
/// allocated: a node that owned a `Vec` would leak it.
pub(crate) struct Nodes<'src> {
  member: bumpalo_herd::Member<'src>,
  /// The arena's slot counter, and the block of it this allocator holds.
  slots: &'src AtomicU32,
  next: Cell<u32>,
  end: Cell<u32>,
}

impl Drop for Nodes<'_> {
  /// Give back the unused rest of the block, if no one reserved after it
  /// (always so when files are parsed one after the other), so slots stay
  /// dense.
  fn drop(&mut self) {
    let (next, end) = (self.next.get(), self.end.get());
    if next < end {
      let _ = self.slots.compare_exchange(end, next, Ordering::Relaxed, Ordering::Relaxed);
    }
  }
}

impl<'src> Nodes<'src> {
  pub(crate) fn alloc<T>(&self, node: T) -> &'src T {
    const { assert!(!std::mem::needs_drop::<T>(), "arena nodes must not own heap data") };
    self.member.alloc(node)
  }

  /// Move `items` into the arena; an empty list allocates nothing.
  pub(crate) fn slice<T, I>(&self, items: I) -> &'src [T]
  where
    I: IntoIterator<Item = T>,
    I::IntoIter: ExactSizeIterator,
  {
    const { assert!(!std::mem::needs_drop::<T>(), "arena nodes must not own heap data") };
    let items = items.into_iter();
    if items.len() == 0 {
      return &[];
    }
    self.member.alloc_slice_fill_iter(items)
  }

  /// Move the items of `scratch` from `start` on into the arena.
  pub(crate) fn take<T: Copy>(&self, scratch: &mut Vec<T>, start: usize) -> &'src [T] {
    let items = scratch.get(start..).unwrap_or(&[]);
    let taken: &'src [T] = if items.is_empty() { &[] } else { self.member.alloc_slice_copy(items) };
    scratch.truncate(start);
    taken
  }

  pub(crate) fn str(&self, text: &str) -> &'src str {
    self.member.alloc_str(text)
  }

  /// A new slot number for a variable reference or call.
  #[inline]
  pub(crate) fn slot(&self) -> Slot {
    let next = self.next.get();
    if next == self.end.get() {
      return self.reserve_slots();
    }
    self.next.set(next + 1);
    Slot(next)
  }

  /// A new block of slots, and its first.
  #[cold]
  fn reserve_slots(&self) -> Slot {
    let next = self.slots.fetch_add(SLOT_BLOCK, Ordering::Relaxed);
    self.end.set(next.saturating_add(SLOT_BLOCK));
    self.next.set(next.saturating_add(1));
    Slot(next)
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
  fn nodes_live_as_long_as_their_trees() {
    let trees = Trees::new();
    let nodes = trees.nodes();
    let mut scratch = vec![1, 2, 3, 4];
    let taken = nodes.take(&mut scratch, 1);
    let empty: &[u8] = nodes.slice(Vec::new());
    drop(nodes);
    assert_eq!(taken, [2, 3, 4]);
    assert_eq!(scratch, [1]);
    assert!(empty.is_empty());
    assert_eq!(trees.nodes().str("text"), "text");
  }

  #[test]
  fn two_arenas_are_independent_runs() {
    let first = Sources::new();
    let second = Sources::new();
    assert_eq!(first.add("x", "justfile").text, second.add("x", "justfile").text);
  }
}
