//! The parser: tokens → parse tree.
//!
//! A recursive-descent parser over the significant tokens (whitespace is
//! dropped). Every test of the next token's kind is a "probe" recorded in the
//! expected set, which is cleared whenever a token is consumed, so that an
//! unexpected token is reported with exactly the kinds that were tried since
//! the last consumed token.

use super::ast::*;
use super::attributes::{ItemKind, CONFLICTS};
use super::lexer::{Lexer, BATCH};
use super::parse_error::{arguments, ParseErrorKind};
use super::settings::{Setting, SettingType};
use super::sources;
use super::strings;
use super::syntax_error::{SyntaxError, SyntaxErrorKind};
use super::token::{KindSet, Token, TokenKind};
use super::trees::{Nodes, Trees};

mod attributes;
pub(crate) use attributes::cache_output_problem;
mod expressions;
mod items;
#[cfg(test)]
mod layout_tests;
mod recipes;
#[cfg(test)]
mod streaming_tests;
#[cfg(test)]
mod tests;

use self::attributes::*;
use self::expressions::*;

/// Deepest allowed nesting of expressions.
const MAX_DEPTH: usize = 256;

/// Stack of the parsing thread. Only touched pages are committed.
pub(crate) const PARSER_STACK_SIZE: usize = 256 * 1024 * 1024;

/// Parse the tokens of one file (as returned by `lexer::lex`).
///
/// # Errors
///
/// The first syntax error, or the first lexical error in the tokens.
pub fn parse<'src>(
  tokens: &[Token<'src>],
  trees: &'src Trees<'src>,
) -> Result<Ast<'src>, SyntaxError<'src>> {
  let Some(first) = tokens.first() else {
    return Ok(Ast::default());
  };
  on_parser_thread(|| {
    Parser::new(Source::Slice(tokens.iter()), first.source, trees.nodes()).parse_ast()
  })
}

/// Lex and parse one file, streaming tokens from the lexer to the parser so
/// that the file's tokens are never all in memory. A lexical error anywhere
/// in the file still wins over any parse error. The tree's nodes go into
/// `trees`.
pub(crate) fn parse_source<'src>(
  file: &'src sources::Source,
  trees: &'src Trees<'src>,
) -> Result<Ast<'src>, SyntaxError<'src>> {
  on_parser_thread(|| {
    let lexer = Source::Lexer(Box::new(Lexer::significant(file)));
    let mut parser = Parser::new(lexer, file, trees.nodes());
    let result = parser.parse_ast();
    if let Some(error) = parser.tokens.finish_lexing() {
      return Err(Box::new(error));
    }
    result
  })
}

/// Deeply nested expressions recurse deeply (up to `MAX_DEPTH` levels, each
/// several frames); parse on a stack that is surely big enough.
fn on_parser_thread<'src, F>(parse: F) -> Result<Ast<'src>, SyntaxError<'src>>
where
  F: Fn() -> ParseResult<'src, Ast<'src>> + Sync,
{
  on_parser_stack(&parse).map_err(|error| *error)
}

/// Run `run` on a thread whose stack is big enough for parsing, or in place
/// if already on one. Callers that parse many files wrap the whole loop in
/// this: one thread, not one per file.
pub(crate) fn on_parser_stack<T: Send, F: FnOnce() -> T + Send>(run: F) -> T {
  crate::platform::stack::with_stack(PARSER_STACK_SIZE, "parser", run)
}

/// Where the parser's tokens come from.
enum Source<'t, 'src> {
  Slice(std::slice::Iter<'t, Token<'src>>),
  Lexer(Box<Lexer<'src>>),
}

/// Errors are boxed inside the parser to keep its (deeply recursive) frames small.
type ParseResult<'src, T> = std::result::Result<T, Box<SyntaxError<'src>>>;

/// Tokens are read from the source this many at a time. The parser looks
/// at most four tokens ahead (item dispatch).
const BUFFER: usize = BATCH;

/// The significant tokens (whitespace dropped) read but not yet consumed:
/// `lexer.batch()[pos..len]`, never empty, read in place from the lexer's
/// batch. Once the source is exhausted the last of them is an `Eof`, which
/// is never consumed.
struct TokenBuffer<'t, 'src> {
  lexer: Lexer<'src>,
  /// Already lexed tokens to read instead of lexing (`parse`).
  replay: Option<std::slice::Iter<'t, Token<'src>>>,
  pos: usize,
  len: usize,
  exhausted: bool,
}

impl<'t, 'src> TokenBuffer<'t, 'src> {
  fn new(source: Source<'t, 'src>, file: &'src sources::Source) -> Self {
    let (lexer, replay) = match source {
      Source::Slice(tokens) => (Lexer::significant(file), Some(tokens)),
      Source::Lexer(lexer) => (*lexer, None),
    };
    let mut tokens = Self { lexer, replay, pos: 0, len: 0, exhausted: false };
    tokens.fill();
    tokens
  }

  #[inline]
  fn next(&self) -> Token<'src> {
    // `pos` is below `BUFFER`; the remainder only spares a bounds check.
    self.lexer.batch()[self.pos % BUFFER]
  }

  /// The token `n` places after the next one; the `Eof` past the end.
  fn nth(&mut self, n: usize) -> Token<'src> {
    if self.pos + n >= self.len && !self.exhausted {
      self.fill();
    }
    self.lexer.batch()[(self.pos + n).min(self.len.saturating_sub(1)) % BUFFER]
  }

  /// Consume the next token, unless it is the `Eof`.
  #[inline]
  fn consume(&mut self) -> Token<'src> {
    let token = self.next();
    if token.kind != TokenKind::Eof {
      self.pos += 1;
      if self.pos == self.len {
        self.fill();
      }
    }
    token
  }

  /// Keep the unconsumed tokens and read more after them.
  #[inline(never)]
  fn fill(&mut self) {
    self.len = match &mut self.replay {
      Some(tokens) => self.lexer.replay(self.pos, tokens),
      None => self.lexer.refill(self.pos),
    };
    self.pos = 0;
    self.exhausted = self.len == 0 || self.lexer.batch()[self.len - 1].kind == TokenKind::Eof;
  }

  /// Lex the rest of the file; the first lexical error, if any.
  fn finish_lexing(&mut self) -> Option<SyntaxError<'src>> {
    match self.replay {
      Some(_) => None,
      None => self.lexer.lex_rest(),
    }
  }
}

struct Parser<'t, 'src> {
  tokens: TokenBuffer<'t, 'src>,
  /// Where the tree's nodes are allocated.
  nodes: Nodes<'src>,
  /// Whether any token has been consumed (a BOM is only allowed first).
  started: bool,
  /// `[` tokens consumed, to blame extraneous attributes.
  brackets: Vec<Token<'src>>,
  expected: KindSet,
  depth: usize,
  items: Vec<Item<'src>>,
  unstable_features: Vec<UnstableFeature>,
  /// The file being parsed.
  file: &'src sources::Source,
  /// The comment line that would be the doc comment of a following recipe or module.
  doc_candidate: Option<Token<'src>>,
  /// Whether the previous top-level entry ended a line (or there is none).
  at_line_start: bool,
  /// Elements of the sequences being parsed (calls, lists, dependency
  /// arguments, setting lists): collected here and moved out into vectors
  /// of exact size.
  elements: Vec<Expression<'src>>,
  /// Interpolations of the body line being parsed.
  interpolations: Vec<Interpolation<'src>>,
  /// Lines of the body being parsed.
  lines: Vec<Line<'src>>,
  /// Parameters of the recipe being parsed.
  parameters: Vec<Parameter<'src>>,
  /// Dependencies of the recipe being parsed (priors, then subsequents).
  dependencies: Vec<Dependency<'src>>,
}

impl<'t, 'src> Parser<'t, 'src> {
  fn new(source: Source<'t, 'src>, file: &'src sources::Source, nodes: Nodes<'src>) -> Self {
    Self {
      file,
      tokens: TokenBuffer::new(source, file),
      nodes,
      started: false,
      brackets: Vec::new(),
      expected: KindSet::default(),
      depth: 0,
      items: Vec::new(),
      unstable_features: Vec::new(),
      doc_candidate: None,
      at_line_start: true,
      elements: Vec::new(),
      interpolations: Vec::new(),
      lines: Vec::new(),
      parameters: Vec::new(),
      dependencies: Vec::new(),
    }
  }

  // ---------------------------------------------------------------------
  // Token access

  #[inline]
  fn peek(&self) -> Token<'src> {
    self.tokens.next()
  }

  /// The token `n` places after the next one (`peek_nth(0)` is `peek()`).
  fn peek_nth(&mut self, n: usize) -> Token<'src> {
    self.tokens.nth(n)
  }

  #[inline]
  fn peek_kind(&self) -> TokenKind {
    self.peek().kind
  }

  /// Probe: record `kind` as expected and test the next token.
  #[inline]
  fn next_is(&mut self, kind: TokenKind) -> bool {
    self.expected.insert(kind);
    self.peek_kind() == kind
  }

  /// Probe each of `kinds`, none of which is the next token's kind.
  #[inline]
  fn probe_all(&mut self, kinds: &[TokenKind]) {
    for kind in kinds {
      self.expected.insert(*kind);
    }
  }

  /// Test the next token for a contextual keyword, without probing.
  fn next_is_word(&self, word: &str) -> bool {
    let next = self.peek();
    next.kind == TokenKind::Identifier && next.lexeme() == word
  }

  /// Lookahead for item dispatch: probes only the first kind.
  fn next_are(&mut self, kinds: &[TokenKind]) -> bool {
    if let Some(first) = kinds.first() {
      self.expected.insert(*first);
    }
    kinds.iter().enumerate().all(|(i, kind)| self.peek_nth(i).kind == *kind)
  }

  #[inline]
  fn advance(&mut self) -> Token<'src> {
    let token = self.tokens.consume();
    if token.kind == TokenKind::BracketL {
      self.brackets.push(token);
    }
    self.started = true;
    self.expected.clear();
    token
  }

  #[inline]
  fn accept(&mut self, kind: TokenKind) -> Option<Token<'src>> {
    if self.next_is(kind) {
      Some(self.advance())
    } else {
      None
    }
  }

  fn expect(&mut self, kind: TokenKind) -> ParseResult<'src, Token<'src>> {
    self.accept(kind).ok_or_else(|| self.unexpected())
  }

  #[cold]
  fn unexpected(&self) -> Box<SyntaxError<'src>> {
    let found = self.peek();
    error(found, ParseErrorKind::UnexpectedToken { expected: self.expected, found: found.kind })
  }

  /// Whether the next token is a string touching `prefix` (an `x`/`f` prefix).
  fn string_touches(&mut self, prefix: Token<'src>, kinds: &[TokenKind]) -> bool {
    let next = self.peek_nth(1);
    kinds.contains(&next.kind) && prefix.offset + prefix.length == next.offset
  }
}

// -------------------------------------------------------------------------
// Helpers that need no parser state

/// The first token of an expression as written, including an `x`/`f`
/// prefix (which the tree does not keep as a token).
fn expression_start<'src>(expression: &Expression<'src>) -> Token<'src> {
  let token = expression.first_token();
  let prefixed = match expression {
    Expression::FormatString { .. } => true,
    Expression::StringLiteral(literal) => literal.expand,
    _ => false,
  };
  if prefixed && token.offset > 0 && token.column() > 0 {
    Token { kind: TokenKind::Identifier, offset: token.offset - 1, length: 1, ..token }
  } else {
    token
  }
}

fn error<'src>(token: Token<'src>, kind: ParseErrorKind<'src>) -> Box<SyntaxError<'src>> {
  Box::new(SyntaxError::new(token, SyntaxErrorKind::Parse(kind)))
}

/// The doc text of a comment line: after `#`, trimmed, non-empty.
fn doc_text(comment: Token<'_>) -> Option<&str> {
  let text = trim(comment.lexeme().get(1..)?);
  (!text.is_empty()).then_some(text)
}

/// `str::trim`, on ASCII whitespace first: a doc comment is usually ASCII,
/// and the Unicode-aware trim costs several times as much per comment.
fn trim(text: &str) -> &str {
  let ascii = text.trim_ascii();
  // `trim_ascii` keeps the vertical tab, which `trim` removes.
  let unusual = |byte: Option<&u8>| byte.is_some_and(|byte| !byte.is_ascii() || *byte == 0x0b);
  if unusual(ascii.as_bytes().first()) || unusual(ascii.as_bytes().last()) {
    ascii.trim()
  } else {
    ascii
  }
}
