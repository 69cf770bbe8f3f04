//! The arena of a run's parse trees (`Trees`), which borrow from the
//! run's `Sources`, and the allocator parsers build them with (`Nodes`),
//! which also numbers the slots of variable references and calls. The
//! analysed justfile borrows the trees; the arena is created by the caller
//! of the pipeline beside its `Sources` and freed with what was built from
//! it.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};

use super::ast::{Ast, Slot};

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
}
