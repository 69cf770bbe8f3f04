//! The values justfiles compute with, their operators, and the built-in
//! functions and constants (including running the processes that backticks
//! and `shell()` capture). Nothing here knows the justfile model, so both
//! analysis (const evaluation, name checks) and evaluation use it.

pub(crate) mod constants;
pub(crate) mod expression;
pub(crate) mod functions;
pub(crate) mod operators;
pub(crate) mod process;
pub(crate) mod value;
