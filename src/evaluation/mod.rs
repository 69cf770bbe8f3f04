//! Dotenv loading, and evaluation of assignments and recipe expressions.

pub mod dotenv;
pub mod error;
pub mod evaluator;
pub mod prepare;
pub mod shell;
