//! The values justfiles compute with, their operators, and the built-in
//! functions and constants (including running the processes that backticks
//! and `shell()` capture). Nothing here knows the justfile model, so both
//! analysis (const evaluation, name checks) and evaluation use it.

pub mod constants;
pub mod expression;
pub mod functions;
pub mod operators;
pub mod process;
pub mod value;
