//! Parse trees of the root file, its imports and modules → an analysed `Justfile`.

pub mod analyzer;
pub mod argument_error;
mod body;
mod builtins;
pub mod compile_error;
pub mod const_eval;
pub mod error;
#[cfg(test)]
pub(crate) mod fixtures;
mod list_gate;
pub mod loader;
pub mod lookup;
pub mod model;
mod names;
mod parameters;
pub(crate) mod resolver;
mod settings;
pub mod table;
