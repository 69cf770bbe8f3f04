//! Everything printed: errors, listings, formatted justfiles.

pub mod color;
pub mod diagnostic;
pub mod format;
