//! Lexical errors (language.md §2, §3, catalogue §12.3).

use snafu::Snafu;

#[derive(Debug, Clone, PartialEq, Eq, Snafu)]
pub enum LexErrorKind {
  #[snafu(display("unknown start of token '{character}'"))]
  UnknownStartOfToken { character: String },
}
