//! Everything printed: errors, listings, formatted justfiles.

pub mod color;
pub mod diagnostic;
pub mod evaluate;
pub mod format;
pub mod graph;
pub mod groups;
pub mod json;
pub mod list;
pub mod recipe_help;
pub mod summary;
pub mod tree;
pub mod usage;
pub mod variables;
