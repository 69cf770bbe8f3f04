//! `just`: a command runner for justfiles.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! config (`cli`) → search → load → lex → parse (`syntax`) → analyze
//! (`analysis`) → evaluate (`evaluation`) → execute (`execution`), with
//! `output` rendering listings, formatted justfiles and errors.

pub mod analysis;
pub mod cli;
pub mod error;
pub mod evaluation;
pub mod execution;
pub mod output;
pub mod search;
pub mod syntax;
pub mod text;

/// Run `just` with the process's arguments and environment; returns the exit status.
pub fn run() -> i32 {
  cli::run::main()
}
