//! The lexer: source text → tokens.
//!
//! Three situations decide how the next bytes are read:
//! * at the start of a line outside any delimiter: indentation;
//! * inside a recipe body, outside an interpolation: raw text;
//! * everywhere else: normal tokens.
//!
//! The lexer works on bytes: every byte that ends or separates a token is
//! ASCII, and the bytes of a multi-byte character are all ≥ 0x80, so a token
//! boundary found by byte is always a character boundary. Characters are
//! decoded only for the byte order mark and for error messages.

use super::lex_error::LexErrorKind;
use super::sources::Source;
use super::syntax_error::{SyntaxError, SyntaxErrorKind};
use super::token::{Token, TokenKind};

mod indentation;
mod refill;
mod scan;
mod strings;
#[cfg(test)]
mod tests;
mod tokens;

use self::scan::*;

/// Tokenize a whole file. Concatenating the lexemes of the returned tokens
/// reproduces `src` exactly; the last token is `Eof`.
///
/// # Errors
///
/// The first lexical error.
pub fn lex(source: &Source) -> Result<Vec<Token<'_>>, SyntaxError<'_>> {
  let mut lexer = Lexer::new(source);
  let mut tokens = Vec::new();
  loop {
    let token = lexer.next_token()?;
    tokens.push(token);
    if token.kind == TokenKind::Eof {
      return Ok(tokens);
    }
  }
}

/// Errors are boxed inside the lexer so that a result fits in a register.
type LexResult<'src, T = ()> = Result<T, Box<SyntaxError<'src>>>;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Position {
  offset: usize,
  line: usize,
}

/// The four quote kinds of strings that may be format strings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Quote {
  Single,
  Double,
  TripleSingle,
  TripleDouble,
}

impl Quote {
  /// The quote opening a string at the start of `text`, longest first.
  fn opening(text: &[u8]) -> Option<Quote> {
    match text {
      [b'\'', b'\'', b'\'', ..] => Some(Quote::TripleSingle),
      [b'"', b'"', b'"', ..] => Some(Quote::TripleDouble),
      [b'\'', ..] => Some(Quote::Single),
      [b'"', ..] => Some(Quote::Double),
      _ => None,
    }
  }

  fn delimiter(self) -> &'static [u8] {
    match self {
      Quote::Single => b"'",
      Quote::Double => b"\"",
      Quote::TripleSingle => b"'''",
      Quote::TripleDouble => b"\"\"\"",
    }
  }

  fn has_escapes(self) -> bool {
    matches!(self, Quote::Double | Quote::TripleDouble)
  }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum DelimiterKind {
  Paren,
  Bracket,
  Brace,
  /// The interpolation of a format string, opened by its `{{`.
  FormatString(Quote),
}

impl DelimiterKind {
  fn opener_text(self) -> &'static str {
    match self {
      DelimiterKind::Paren => "(",
      DelimiterKind::Bracket => "[",
      DelimiterKind::Brace => "{",
      DelimiterKind::FormatString(_) => "{{",
    }
  }

  fn closed_by(self, close: u8) -> bool {
    matches!(
      (self, close),
      (DelimiterKind::Paren, b')') | (DelimiterKind::Bracket, b']') | (DelimiterKind::Brace, b'}')
    )
  }
}

#[derive(Copy, Clone, Debug)]
struct Delimiter<'src> {
  kind: DelimiterKind,
  opener: Token<'src>,
}

/// One entry of the indentation stack.
#[derive(Copy, Clone, Debug)]
struct Level<'src> {
  /// Spaces and tabs only.
  whitespace: &'src [u8],
  body: bool,
}

/// Where the literal part of a format string, scanned from just after its
/// opening quote or after a `}}`, stops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum FormatScan {
  /// Ends with the closing quote; the value is the byte length including it.
  Closed(usize),
  /// Ends with an interpolation `{{`; the value is the byte length including it.
  Interpolation(usize),
  Unterminated,
}

/// Tokens lexed per batch: the lexer runs ahead of the parser by at most
/// this many (plus the dedents of one line), so a file's tokens are never
/// all in memory, while handing one out costs only a read from the batch.
/// The parser reads the batch in place (see `refill`).
pub(crate) const BATCH: usize = 256;

/// What the tokens of one source share, and the one place tokens are made.
#[derive(Copy, Clone, Debug)]
struct TokenMaker<'src> {
  source: &'src Source,
}

impl<'src> TokenMaker<'src> {
  fn token(self, kind: TokenKind, position: Position, length: usize) -> Token<'src> {
    let Position { offset, line } = position;
    // A token's positions are `u32`: every position in a source under
    // 4 GiB fits, and none past it can be told apart whichever way it is
    // narrowed. Narrowing here spares `Token::new` its range checks.
    let narrow = |n: usize| n as u32 as usize;
    Token::new(kind, self.source, narrow(offset), narrow(length), narrow(line))
  }
}

/// The part of the lexer `fill` reads and moves, held in locals while it
/// runs (see `Lexer::cursor` and `Lexer::store`).
#[derive(Copy, Clone, Debug)]
struct Cursor<'src> {
  bytes: &'src [u8],
  source: &'src Source,
  offset: usize,
  line: usize,
  /// Tokens in the batch.
  len: usize,
  body_text: bool,
  /// Whether a delimiter or interpolation is open: a line end is then whitespace.
  nested: bool,
}

impl<'src> Cursor<'src> {
  /// The bytes from the cursor on.
  #[inline(always)]
  fn rest(&self) -> &'src [u8] {
    self.bytes.get(self.offset..).unwrap_or_default()
  }

  /// The byte `ahead` bytes after the cursor, or 0 past the end.
  #[inline(always)]
  fn peek(&self, ahead: usize) -> u8 {
    self.bytes.get(self.offset + ahead).copied().unwrap_or(0)
  }
}

/// An incremental lexer: `next_token` lexes only as far as needed, a batch
/// at a time, so the parser can consume tokens without the whole file's
/// tokens in memory.
///
/// `repr(C)` with the batch first: the batch's address is the lexer's, so
/// the lexing loop needs no register for it.
#[repr(C)]
pub(crate) struct Lexer<'src> {
  /// Tokens lexed but not yet handed out: `batch[next..len]` (for
  /// `next_token`; the parser reads `batch[..len]` itself), then
  /// `overflow`. The batch is an array in the lexer itself, so that writing
  /// a token cannot (as far as the compiler knows) touch the lexer's state.
  batch: [Token<'src>; BATCH],
  src: &'src str,
  maker: TokenMaker<'src>,
  len: usize,
  next: usize,
  /// Tokens lexed once the batch was full: the rest of a step's tokens.
  overflow: Vec<Token<'src>>,
  /// An error met while filling the batch: `next_token` reports it once the
  /// tokens lexed before it have been handed out, `lex_rest` after `refill`.
  error: Option<Box<SyntaxError<'src>>>,
  /// Set once `Eof` has been lexed.
  done: bool,
  /// Hand out only significant tokens (the parser ignores whitespace).
  skip_whitespace: bool,
  /// Byte offset of the next byte to lex.
  offset: usize,
  /// Line of `offset`: tracked as the lexer moves, never recomputed.
  line: usize,
  levels: Vec<Level<'src>>,
  delimiters: Vec<Delimiter<'src>>,
  /// The `{{` of the open recipe-body interpolation, if any.
  interpolation: Option<Token<'src>>,
  /// Whether the next bytes are recipe-body text: the current level is a
  /// body and no delimiter or interpolation is open. Kept up to date
  /// wherever one of those changes.
  body_text: bool,
  /// Whether a `:` was lexed since the last dedent: the next indent starts a body.
  colon_since_dedent: bool,
  /// Whether nothing has been lexed yet. Later lines' starts are lexed
  /// along with the line end before them.
  at_file_start: bool,
  /// The end of the last run of blank lines scanned (the offset of its
  /// first other byte, or of the end of the text) and whether that byte
  /// starts a line: each blank line of a run asks, and scanning the run
  /// again for each would cost the square of its length.
  blank_run: (usize, bool),
}

impl<'src> Lexer<'src> {
  pub(crate) fn new(source: &'src Source) -> Self {
    let maker = TokenMaker { source };
    Self {
      src: &source.text,
      maker,
      batch: [maker.token(TokenKind::Eof, Position::default(), 0); BATCH],
      len: 0,
      next: 0,
      overflow: Vec::new(),
      error: None,
      done: false,
      skip_whitespace: false,
      offset: 0,
      line: 0,
      levels: vec![Level { whitespace: b"", body: false }],
      delimiters: Vec::new(),
      interpolation: None,
      body_text: false,
      colon_since_dedent: false,
      at_file_start: true,
      blank_run: (0, false),
    }
  }

  /// A lexer that hands out only significant tokens: what the parser reads.
  pub(crate) fn significant(source: &'src Source) -> Self {
    Self { skip_whitespace: true, ..Self::new(source) }
  }

  /// The next token; after `Eof`, `Eof` again.
  pub(crate) fn next_token(&mut self) -> Result<Token<'src>, SyntaxError<'src>> {
    if self.next < self.len {
      // `next < len <= BATCH`: the remainder only spares a bounds check.
      let token = self.batch[self.next % BATCH];
      self.next += 1;
      return Ok(token);
    }
    self.next_batch()
  }

  /// Refill the batch and hand out its first token.
  #[inline(never)]
  fn next_batch(&mut self) -> Result<Token<'src>, SyntaxError<'src>> {
    self.next = 0;
    self.len = 0;
    if !self.overflow.is_empty() {
      self.take_overflow();
    } else if let Some(error) = self.error.take() {
      return Err(*error);
    } else if !self.done {
      if let Err(error) = self.fill_batch() {
        if self.len == 0 {
          return Err(*error);
        }
        self.error = Some(error);
      }
    }
    if self.len == 0 {
      return Ok(self.token_at(TokenKind::Eof, self.position(), 0));
    }
    self.next = 1;
    Ok(self.batch[0])
  }

  /// The batch, read in place by the parser: `batch()[..batch_len()]`.
  #[inline(always)]
  pub(crate) fn batch(&self) -> &[Token<'src>; BATCH] {
    &self.batch
  }

  /// Drop the batch's tokens before `keep`, move the rest to the front and
  /// lex more after them; the new length of the batch. The tokens end with
  /// an `Eof`; a lexical error ends them early, with an `Eof` where it was
  /// met, and waits for `lex_rest`.
  #[inline(never)]
  pub(crate) fn refill(&mut self, keep: usize) -> usize {
    self.keep_from(keep);
    if !self.overflow.is_empty() {
      self.take_overflow();
    } else if !self.done {
      if let Err(error) = self.fill_batch() {
        self.fail(error);
      }
    }
    self.len
  }

  /// `refill` from already lexed `tokens` instead of from the source,
  /// dropping whitespace. Tokens that end without an `Eof` get one after
  /// their last.
  pub(crate) fn replay(
    &mut self,
    keep: usize,
    tokens: &mut std::slice::Iter<'_, Token<'src>>,
  ) -> usize {
    let last = self.len.checked_sub(1).map_or(self.batch[0], |last| self.batch[last]);
    self.keep_from(keep);
    if self.done {
      return self.len;
    }
    while self.len < BATCH {
      let Some(&token) = tokens.next() else {
        let last = self.len.checked_sub(1).map_or(last, |last| self.batch[last]);
        self.done = true;
        self.push(eof_after(last));
        break;
      };
      if token.kind != TokenKind::Whitespace {
        self.push(token);
        if token.kind == TokenKind::Eof {
          self.done = true;
          break;
        }
      }
    }
    self.len
  }

  /// After `refill`: lex the rest of the file; the first lexical error, if any.
  pub(crate) fn lex_rest(&mut self) -> Option<SyntaxError<'src>> {
    while !self.done {
      self.len = 0;
      self.overflow.clear();
      if let Err(error) = self.fill_batch() {
        self.fail(error);
      }
    }
    self.error.take().map(|error| *error)
  }

  /// Keep lexing no further: the tokens so far, an `Eof`, and `error` for `lex_rest`.
  #[cold]
  #[inline(never)]
  fn fail(&mut self, error: Box<SyntaxError<'src>>) {
    self.error = Some(error);
    self.done = true;
    let eof = self.token_at(TokenKind::Eof, self.position(), 0);
    self.push(eof);
  }

  /// Move `batch[keep..len]` to the front.
  fn keep_from(&mut self, keep: usize) {
    let keep = keep.min(self.len);
    self.batch.copy_within(keep..self.len, 0);
    self.len -= keep;
  }

  /// Move as much of the overflow as fits after the batch's tokens.
  fn take_overflow(&mut self) {
    let count = self.overflow.len().min(BATCH - self.len);
    self.batch[self.len..self.len + count].copy_from_slice(&self.overflow[..count]);
    self.overflow.drain(..count);
    self.len += count;
  }

  /// Add a token to the batch, or to the overflow when the batch is full.
  #[inline(always)]
  fn push(&mut self, token: Token<'src>) {
    match self.batch.get_mut(self.len) {
      Some(slot) => {
        *slot = token;
        self.len += 1;
      }
      None => self.overflow.push(token),
    }
  }

  // ---- positions and tokens ----

  /// The bytes from the cursor on.
  fn rest(&self) -> &'src [u8] {
    let src: &'src str = self.src;
    src.as_bytes().get(self.offset..).unwrap_or_default()
  }

  /// The byte `ahead` bytes after the cursor, or 0 past the end (0 is never
  /// compared against).
  fn peek(&self, ahead: usize) -> u8 {
    self.src.as_bytes().get(self.offset + ahead).copied().unwrap_or(0)
  }

  /// The character starting `ahead` bytes after the cursor.
  fn char_ahead(&self, ahead: usize) -> Option<char> {
    self.src.get(self.offset + ahead..).and_then(|rest| rest.chars().next())
  }

  fn position(&self) -> Position {
    Position { offset: self.offset, line: self.line }
  }

  fn token_at(&self, kind: TokenKind, position: Position, length: usize) -> Token<'src> {
    self.maker.token(kind, position, length)
  }

  /// Emit a token of `kind` over the next `length` bytes, which hold no `\n`.
  fn within_line(&mut self, length: usize, kind: TokenKind) -> Token<'src> {
    let token = self.token_at(kind, self.position(), length);
    self.offset += length;
    self.push(token);
    token
  }

  /// Emit whitespace over the next `length` bytes, which hold no `\n`
  /// (only moving past them when whitespace is not handed out), if any.
  fn whitespace_within_line(&mut self, length: usize) {
    if self.skip_whitespace || length == 0 {
      self.offset += length;
    } else {
      self.within_line(length, TokenKind::Whitespace);
    }
  }

  /// Emit a token of `kind` over the next `length` bytes, any of which may be `\n`.
  #[inline(never)]
  fn spanning(&mut self, length: usize, kind: TokenKind) -> Token<'src> {
    let token = self.token_at(kind, self.position(), length);
    let start = self.offset;
    let end = start + length;
    if let Some(bytes) = self.src.as_bytes().get(start..end) {
      for newline in memchr::memchr_iter(b'\n', bytes) {
        self.newline_at(start + newline);
      }
    }
    self.offset = end;
    if !(self.skip_whitespace && kind == TokenKind::Whitespace) {
      self.push(token);
    }
    token
  }

  /// Note a `\n` at `index`: a new line starts after it, unless it is the
  /// source's last byte.
  fn newline_at(&mut self, index: usize) {
    if index + 1 < self.src.len() {
      self.line += 1;
    }
  }

  /// An error whose caret covers `length` bytes `skip` bytes after the
  /// cursor, on the cursor's line.
  #[cold]
  #[inline(never)]
  fn error_ahead(&self, skip: usize, length: usize, kind: LexErrorKind) -> Box<SyntaxError<'src>> {
    let mut position = self.position();
    position.offset += skip;
    lex_error(self.token_at(TokenKind::Whitespace, position, length), kind)
  }

  fn error_here(&self, length: usize, kind: LexErrorKind) -> Box<SyntaxError<'src>> {
    self.error_ahead(0, length, kind)
  }
}

/// The `Eof` that follows `last`.
fn eof_after(last: Token<'_>) -> Token<'_> {
  if last.kind == TokenKind::Eof {
    return last;
  }
  Token { kind: TokenKind::Eof, offset: last.offset + last.length, length: 0, ..last }
}

fn lex_error(token: Token<'_>, kind: LexErrorKind) -> Box<SyntaxError<'_>> {
  Box::new(SyntaxError::new(token, SyntaxErrorKind::Lex(kind)))
}
