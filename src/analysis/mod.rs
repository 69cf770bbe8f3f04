//! Parse trees of the root file, its imports and modules → an analysed `Justfile`.

pub(crate) mod analyzer;
pub(crate) mod argument_error;
mod binder;
pub(crate) mod bindings;
mod body;
mod builtins;
pub(crate) mod compile_error;
pub(crate) mod const_eval;
pub(crate) mod effects;
mod entries;
pub(crate) mod error;
#[cfg(test)]
pub(crate) mod fixtures;
mod list_gate;
pub(crate) mod loader;
pub(crate) mod lookup;
pub(crate) mod model;
mod names;
mod parameters;
pub(crate) mod resolver;
mod settings;
pub(crate) mod table;
