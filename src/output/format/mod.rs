//! The canonical text form of justfiles: expression
//! rendering, `--dump`/`--fmt` output, `--show` and the `--fmt` command.

pub(crate) mod attributes;
pub(crate) mod expression;
pub(crate) mod fmt;
pub(crate) mod justfile;
pub(crate) mod recipe;

pub(crate) use fmt::{run_format, FormatRequest};
pub use justfile::{format_justfile, indentation_setting, write_justfile};
pub(crate) use recipe::show_recipe;

#[cfg(test)]
mod tests;
