//! What each variable reference and function call is bound to: the parser
//! numbers every `Variable` and `Call` node (its `Slot`), and this table,
//! indexed by slot, says which parameter, assignment, constant or function
//! the name means there. `binder.rs` fills it from the checked model;
//! evaluation reads it and never looks a name up again.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::builtins::functions::Function;
use crate::syntax::ast::Slot;

/// What the name of a `Variable` or `Call` node means where it is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Binding {
  /// Not bound (yet): a node of an expression that is never evaluated at run
  /// time (settings, `[doc]`, `[arg(pattern, help)]`), of a recipe not run,
  /// or made outside the parser. Evaluation then looks the name up itself.
  #[default]
  Unbound,
  /// The recipe parameter at this index.
  Parameter(u32),
  /// The parameter at this index of the user function whose body this is.
  FunctionParameter(u32),
  /// The module assignment at this index of its `assignments` table.
  Assignment(u32),
  /// The built-in constant with this id (`constants::value`).
  Constant(u32),
  /// The user function at this index of the module's `functions`.
  UserFunction(u32),
  Builtin(Function),
}

/// A binding in one word: the kind in the top three bits, the index below.
const KIND_SHIFT: u32 = 29;
const INDEX_MASK: u32 = (1 << KIND_SHIFT) - 1;

impl Binding {
  fn pack(self) -> u32 {
    let (kind, index) = match self {
      Binding::Unbound => return 0,
      Binding::Parameter(index) => (1, index),
      Binding::FunctionParameter(index) => (2, index),
      Binding::Assignment(index) => (3, index),
      Binding::Constant(id) => (4, id),
      Binding::UserFunction(index) => (5, index),
      Binding::Builtin(function) => (6, function as u32),
    };
    // An index too large to pack stays unbound: looked up by name.
    if index > INDEX_MASK {
      return 0;
    }
    kind << KIND_SHIFT | index
  }

  fn unpack(word: u32) -> Binding {
    let index = word & INDEX_MASK;
    match word >> KIND_SHIFT {
      1 => Binding::Parameter(index),
      2 => Binding::FunctionParameter(index),
      3 => Binding::Assignment(index),
      4 => Binding::Constant(index),
      5 => Binding::UserFunction(index),
      6 => Function::from_index(index as usize).map_or(Binding::Unbound, Binding::Builtin),
      _ => Binding::Unbound,
    }
  }
}

/// The binding of every slot of a run. Threads that run recipes in
/// parallel may bind the same recipe at once: they store the same words.
#[derive(Debug, Default)]
pub(crate) struct Bindings(Vec<AtomicU32>);

impl Bindings {
  /// Room for `count` slots, none bound yet.
  pub(crate) fn with_slots(count: usize) -> Self {
    Bindings((0..count).map(|_| AtomicU32::new(0)).collect())
  }

  pub(crate) fn get(&self, slot: Slot) -> Binding {
    self
      .0
      .get(slot.index())
      .map_or(Binding::Unbound, |word| Binding::unpack(word.load(Ordering::Relaxed)))
  }

  pub(super) fn set(&self, slot: Slot, binding: Binding) {
    if let Some(word) = self.0.get(slot.index()) {
      word.store(binding.pack(), Ordering::Relaxed);
    }
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn bindings_pack_into_one_word() {
    let mut bindings = vec![
      Binding::Unbound,
      Binding::Parameter(0),
      Binding::FunctionParameter(7),
      Binding::Assignment(INDEX_MASK),
      Binding::Constant(28),
      Binding::UserFunction(3),
    ];
    bindings.extend(Function::ALL.iter().copied().map(Binding::Builtin));
    for binding in bindings {
      assert_eq!(Binding::unpack(binding.pack()), binding);
    }
    assert_eq!(Binding::Assignment(INDEX_MASK + 1).pack(), 0);
  }
}
