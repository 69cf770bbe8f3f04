//! The canonical text form of justfiles: expression
//! rendering, `--dump`/`--fmt` output, `--show` and the `--fmt` command.

pub mod attributes;
pub mod expression;
pub mod fmt;
pub mod justfile;
pub mod recipe;

pub use fmt::{run_format, FormatRequest};
pub use justfile::{format_justfile, indentation_setting, write_justfile};
pub use recipe::show_recipe;

#[cfg(test)]
mod tests;
