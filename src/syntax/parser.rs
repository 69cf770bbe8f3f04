//! The parser: tokens → parse tree (language.md §4–§9, §12.2, §13).

use super::ast::Ast;
use super::compile_error::CompileError;
use super::token::Token;

/// Parse the tokens of one file (as returned by `lexer::lex`).
pub fn parse<'src>(tokens: &[Token<'src>]) -> Result<Ast<'src>, CompileError<'src>> {
  let _ = tokens;
  Ok(Ast::default())
}
