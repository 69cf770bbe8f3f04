//! Everything printed: errors, listings, formatted justfiles.

pub mod color;
pub mod diagnostic;
pub mod evaluate;
pub mod format;
pub mod groups;
pub mod json;
pub mod list;
pub mod stdio;
pub mod summary;
pub mod usage;
pub mod variables;
