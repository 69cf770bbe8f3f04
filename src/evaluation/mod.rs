//! Dotenv loading, and evaluation of assignments and recipe expressions.

pub(crate) mod dotenv;
pub(crate) mod error;
pub(crate) mod evaluator;
pub(crate) mod prepare;
pub(crate) mod shell;
