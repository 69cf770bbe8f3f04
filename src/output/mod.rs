//! Everything printed: errors, listings, formatted justfiles.

#[cfg(test)]
mod compile_error_tests;
pub mod diagnostic;
pub mod evaluate;
pub mod format;
pub mod graph;
pub mod groups;
pub mod json;
pub mod list;
pub mod recipe_help;
pub mod sink;
pub mod summary;
pub mod tree;
pub mod usage;
pub mod variables;
