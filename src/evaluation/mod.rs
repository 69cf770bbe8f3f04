//! Values, built-in functions and constants, dotenv loading, and evaluation
//! of assignments and recipe expressions.

pub mod constants;
pub mod dotenv;
pub mod error;
pub mod evaluator;
pub mod functions;
pub mod operators;
pub mod prepare;
pub mod process;
pub mod value;
