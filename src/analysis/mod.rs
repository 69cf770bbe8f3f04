//! Parse trees of the root file, its imports and modules → an analysed `Justfile`.

pub mod analyzer;
pub mod error;
pub mod model;
