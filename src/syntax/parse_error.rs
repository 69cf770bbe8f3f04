//! Parse errors (language.md §12.2, §12.3).

use snafu::Snafu;

use super::token::KindSet;
use super::token::TokenKind;

#[derive(Debug, Clone, Snafu)]
pub enum ParseErrorKind<'src> {
  #[snafu(display("expected {}, but found {found}", expected_list(*expected)))]
  UnexpectedToken { expected: KindSet, found: TokenKind },
  #[snafu(display("unknown setting `{setting}`"))]
  UnknownSetting { setting: &'src str },
}

/// `a`, `a or b`, `a, b, or c`.
pub fn expected_list(expected: KindSet) -> String {
  let names: Vec<&str> = expected.kinds().map(TokenKind::name).collect();
  match names.as_slice() {
    [] => String::new(),
    [one] => (*one).to_string(),
    [a, b] => format!("{a} or {b}"),
    [init @ .., last] => format!("{}, or {last}", init.join(", ")),
  }
}
