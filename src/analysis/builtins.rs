//! The analyzer's view of built-in functions and constants.

use crate::builtins::constants;
use crate::builtins::functions::Function;

/// `Err(expected)` (e.g. `1 to 2`) when `count` arguments do not fit the
/// function's arity in the table; None when `name` is no built-in.
pub(crate) fn check_arity(name: &str, count: usize) -> Option<Result<(), String>> {
  let arity = Function::from_name(name)?.arity();
  Some(if arity.accepts(count) { Ok(()) } else { Err(arity.to_string()) })
}

/// Whether `name` is a built-in function that needs `set lists`.
pub(crate) fn requires_lists(name: &str) -> bool {
  Function::from_name(name).is_some_and(Function::requires_lists)
}

pub(crate) fn constant(name: &str) -> Option<&'static str> {
  constants::constant(name)
}
