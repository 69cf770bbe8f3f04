//! The analyzer's view of built-in functions and constants.

use crate::builtins::{constants, functions};
use functions::Arity;

/// `Err(expected)` (e.g. `1 to 2`) when `count` arguments do not fit; None
/// when `name` is no built-in.
pub(crate) fn check_arity(name: &str, count: usize) -> Option<Result<(), String>> {
  let arity = functions::arity(name)?;
  let fits = match arity {
    Arity::Exact(n) => count == n,
    Arity::Optional(low, high) => (low..=high).contains(&count),
    Arity::AtLeast(low) => count >= low,
  };
  Some(if fits { Ok(()) } else { Err(arity.to_string()) })
}

pub(crate) fn canonical_name(name: &str) -> String {
  functions::canonical_name(name).into_owned()
}

pub(crate) fn requires_lists(name: &str) -> bool {
  functions::requires_lists(name)
}

pub(crate) fn constant(name: &str) -> Option<&'static str> {
  constants::constant(name)
}
