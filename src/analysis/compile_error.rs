//! A compile error: the token it blames and what is wrong. Each stage has its
//! own error enum (lexer, parser, analyzer); this wraps them so that they are
//! rendered alike.

use std::fmt::{self, Display, Formatter};

use super::error::AnalysisErrorKind;
use crate::syntax::{
  lex_error::LexErrorKind,
  parse_error::ParseErrorKind,
  syntax_error::{SyntaxError, SyntaxErrorKind},
  token::Token,
};

#[derive(Debug, Clone)]
pub struct CompileError<'src> {
  pub token: Token<'src>,
  pub kind: Box<CompileErrorKind<'src>>,
}

#[derive(Debug, Clone)]
pub enum CompileErrorKind<'src> {
  Lex(LexErrorKind),
  Parse(ParseErrorKind<'src>),
  Analysis(AnalysisErrorKind<'src>),
}

impl<'src> CompileError<'src> {
  pub fn new(token: Token<'src>, kind: CompileErrorKind<'src>) -> Self {
    Self { token, kind: Box::new(kind) }
  }

  /// Text of a `caused by: …` line, for errors that wrap a library error.
  pub fn caused_by(&self) -> Option<String> {
    match self.kind.as_ref() {
      CompileErrorKind::Analysis(kind) => kind.caused_by(),
      _ => None,
    }
  }
}

impl Display for CompileError<'_> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    match self.kind.as_ref() {
      CompileErrorKind::Lex(kind) => kind.fmt(f),
      CompileErrorKind::Parse(kind) => kind.fmt(f),
      CompileErrorKind::Analysis(kind) => kind.fmt(f),
    }
  }
}

impl<'src> From<SyntaxError<'src>> for CompileError<'src> {
  fn from(error: SyntaxError<'src>) -> Self {
    let kind = match *error.kind {
      SyntaxErrorKind::Lex(kind) => CompileErrorKind::Lex(kind),
      SyntaxErrorKind::Parse(kind) => CompileErrorKind::Parse(kind),
    };
    CompileError::new(error.token, kind)
  }
}
