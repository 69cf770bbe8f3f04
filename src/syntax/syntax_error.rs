//! A lexical or syntax error: the token it blames and what is wrong. The
//! analysis stage wraps it into a `CompileError` with its own errors, so that
//! all compile errors are rendered alike.

use std::fmt::{self, Display, Formatter};

use super::lex_error::LexErrorKind;
use super::parse_error::ParseErrorKind;
use super::token::Token;

#[derive(Debug, Clone)]
pub struct SyntaxError<'src> {
  pub token: Token<'src>,
  pub(crate) kind: Box<SyntaxErrorKind<'src>>,
}

#[derive(Debug, Clone)]
pub(crate) enum SyntaxErrorKind<'src> {
  Lex(LexErrorKind),
  Parse(ParseErrorKind<'src>),
}

impl<'src> SyntaxError<'src> {
  pub(crate) fn new(token: Token<'src>, kind: SyntaxErrorKind<'src>) -> Self {
    Self { token, kind: Box::new(kind) }
  }
}

impl Display for SyntaxError<'_> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    match self.kind.as_ref() {
      SyntaxErrorKind::Lex(kind) => kind.fmt(f),
      SyntaxErrorKind::Parse(kind) => kind.fmt(f),
    }
  }
}
