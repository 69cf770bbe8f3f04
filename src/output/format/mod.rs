//! The canonical text form of justfiles (formatting.md): expression
//! rendering, `--dump`/`--fmt` output, `--show` and the `--fmt` command.

pub mod expression;

pub use expression::literal_text;
