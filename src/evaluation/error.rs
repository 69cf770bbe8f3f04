//! Run-time evaluation errors. Those with a token are shown with a source
//! excerpt.

use snafu::Snafu;

use crate::platform::exit::signal_status;
use crate::syntax::token::Token;

#[derive(Debug, Snafu)]
#[snafu(visibility(pub))]
pub(crate) enum EvaluationError<'src> {
  #[snafu(display("assert failed: {message}"))]
  Assert { token: Token<'src>, message: String },
  #[snafu(display("backtick failed with exit code {code}"))]
  BacktickCode { token: Token<'src>, code: i32 },
  #[snafu(display("backtick was terminated by signal {signal}"))]
  BacktickSignal { token: Token<'src>, signal: i32 },
  #[snafu(display("backtick {message}"))]
  BacktickOther { token: Token<'src>, message: String, status: i32 },
  #[snafu(display("call to function `{function}` failed: {message}"))]
  FunctionCall { token: Token<'src>, function: String, message: String },
  #[snafu(display("{message}"))]
  WithToken { token: Token<'src>, message: String },
  #[snafu(display("maximum recursion depth of 256 exceeded while calling function {function}"))]
  Recursion { function: String },
  #[snafu(display("{message}"))]
  Plain { message: String },
}

impl<'src> EvaluationError<'src> {
  pub(crate) fn token(&self) -> Option<Token<'src>> {
    use EvaluationError::*;
    match self {
      Assert { token, .. }
      | BacktickCode { token, .. }
      | BacktickSignal { token, .. }
      | BacktickOther { token, .. }
      | FunctionCall { token, .. }
      | WithToken { token, .. } => Some(*token),
      Recursion { .. } | Plain { .. } => None,
    }
  }

  pub(crate) fn status(&self) -> i32 {
    use EvaluationError::*;
    match self {
      BacktickCode { code, .. } => *code,
      BacktickSignal { signal, .. } => signal_status(*signal),
      BacktickOther { status, .. } => *status,
      _ => 1,
    }
  }
}
