//! Everything printed: errors, listings, formatted justfiles.

pub(crate) mod cheatsheet;
#[cfg(test)]
mod compile_error_tests;
pub(crate) mod diagnostic;
pub(crate) mod evaluate;
pub(crate) mod format;
pub(crate) mod graph;
pub(crate) mod groups;
pub(crate) mod json;
pub(crate) mod list;
pub(crate) mod recipe_help;
pub(crate) mod sink;
pub(crate) mod summary;
pub(crate) mod tree;
pub(crate) mod usage;
pub(crate) mod variables;
