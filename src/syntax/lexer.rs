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

/// Tokenize a whole file. Concatenating the lexemes of the returned tokens
/// reproduces `src` exactly; the last token is `Eof`.
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
pub const BATCH: usize = 256;

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
pub struct Lexer<'src> {
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
}

impl<'src> Lexer<'src> {
  pub fn new(source: &'src Source) -> Self {
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
    }
  }

  /// A lexer that hands out only significant tokens: what the parser reads.
  pub fn significant(source: &'src Source) -> Self {
    Self { skip_whitespace: true, ..Self::new(source) }
  }

  /// The file being lexed.
  pub fn source(&self) -> &'src Source {
    self.maker.source
  }

  /// The next token; after `Eof`, `Eof` again.
  pub fn next_token(&mut self) -> Result<Token<'src>, SyntaxError<'src>> {
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
  pub fn batch(&self) -> &[Token<'src>; BATCH] {
    &self.batch
  }

  /// Drop the batch's tokens before `keep`, move the rest to the front and
  /// lex more after them; the new length of the batch. The tokens end with
  /// an `Eof`; a lexical error ends them early, with an `Eof` where it was
  /// met, and waits for `lex_rest`.
  #[inline(never)]
  pub fn refill(&mut self, keep: usize) -> usize {
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
  pub fn replay(&mut self, keep: usize, tokens: &mut std::slice::Iter<'_, Token<'src>>) -> usize {
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
  pub fn lex_rest(&mut self) -> Option<SyntaxError<'src>> {
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

  /// Lex until the batch is full or the source ends.
  fn fill_batch(&mut self) -> LexResult<'src> {
    if self.at_file_start {
      self.at_file_start = false;
      self.lex_line_start()?;
    }
    if self.skip_whitespace {
      self.fill::<true>()
    } else {
      self.fill::<false>()
    }
  }

  /// `fill_batch`, handing out whitespace unless `SKIP`.
  ///
  /// The cursor lives in a local `Cursor` while the loop runs: kept in
  /// `self`, it would be stored and reloaded around every token written to
  /// the batch. The common tokens are lexed right here; the rest by the
  /// general methods, with the cursor stored back around each call
  /// (`general`).
  fn fill<const SKIP: bool>(&mut self) -> LexResult<'src> {
    let mut c = self.cursor();
    while c.len < BATCH {
      let Some(&byte) = c.bytes.get(c.offset) else {
        self.store(&c);
        return self.finish();
      };
      if c.body_text {
        self.hot_body_text::<SKIP>(&mut c)?;
        continue;
      }
      match info(byte).class {
        ByteClass::Name => {
          let end = identifier_end(c.bytes, c.offset);
          if byte == b'f' && end == c.offset + 1 && matches!(c.peek(1), b'\'' | b'"') {
            self.general(&mut c, Self::lex_identifier)?;
            continue;
          }
          let length = end - c.offset;
          self.emit(&mut c, TokenKind::Identifier, length);
          // Often followed by a blank, which the parser does not see:
          // passing it here spares a round of the loop.
          skip_space::<SKIP>(&mut c);
        }
        ByteClass::Blank => {
          let width = blank_end(c.bytes, c.offset) - c.offset;
          self.blank::<SKIP>(&mut c, width);
        }
        ByteClass::Newline => self.hot_line_end::<SKIP>(&mut c, 1)?,
        ByteClass::Return if c.peek(1) == b'\n' => self.hot_line_end::<SKIP>(&mut c, 2)?,
        ByteClass::Hash => {
          let length = comment_length(c.rest());
          self.emit(&mut c, TokenKind::Comment, length);
        }
        ByteClass::Quote => {
          let Some(scan) = string_scan(c.rest()) else {
            self.general(&mut c, Self::lex_string)?;
            continue;
          };
          self.emit(&mut c, TokenKind::StringToken, scan.length);
          c.line += scan.newlines;
          skip_space::<SKIP>(&mut c);
        }
        ByteClass::BraceR
          if c.peek(1) == b'}' && self.delimiters.is_empty() && self.interpolation.is_some() =>
        {
          self.interpolation = None;
          self.emit(&mut c, TokenKind::InterpolationEnd, 2);
          c.nested = false;
          c.body_text = self.current_level().body;
        }
        _ => match operator(byte, c.peek(1)) {
          Some((length, kind)) => {
            if kind == TokenKind::Colon {
              self.colon_since_dedent = true;
            }
            self.emit(&mut c, kind, length);
            skip_space::<SKIP>(&mut c);
          }
          None => self.general(&mut c, |lexer| lexer.lex_normal(byte))?,
        },
      }
    }
    self.store(&c);
    Ok(())
  }

  /// The hot state of the lexer, to run `fill` on.
  #[inline(always)]
  fn cursor(&self) -> Cursor<'src> {
    Cursor {
      bytes: self.src.as_bytes(),
      source: self.maker.source,
      offset: self.offset,
      line: self.line,
      len: self.len,
      body_text: self.body_text,
      nested: !self.delimiters.is_empty() || self.interpolation.is_some(),
    }
  }

  /// Store the cursor's changes back in the lexer.
  #[inline(always)]
  fn store(&mut self, c: &Cursor<'src>) {
    self.offset = c.offset;
    self.line = c.line;
    self.len = c.len;
    self.body_text = c.body_text;
  }

  /// Run a general lexing method from `fill`: the uncommon tokens, and
  /// errors.
  #[inline(always)]
  fn general(
    &mut self,
    c: &mut Cursor<'src>,
    method: impl FnOnce(&mut Self) -> LexResult<'src>,
  ) -> LexResult<'src> {
    self.store(c);
    let result = method(self);
    *c = self.cursor();
    result
  }

  /// Emit a token of `kind` over the cursor's next `length` bytes, which
  /// hold no `\n`.
  #[inline(always)]
  fn emit(&mut self, c: &mut Cursor<'src>, kind: TokenKind, length: usize) -> Token<'src> {
    // As in `TokenMaker::token`, positions are narrowed to `u32`.
    let token = Token {
      kind,
      source: c.source,
      offset: c.offset as u32,
      length: length as u32,
      line: c.line as u32,
    };
    c.offset += length;
    match self.batch.get_mut(c.len) {
      Some(slot) => {
        *slot = token;
        c.len += 1;
      }
      None => self.overflow.push(token),
    }
    token
  }

  /// Blanks within a line: whitespace, when handed out.
  #[inline(always)]
  fn blank<const SKIP: bool>(&mut self, c: &mut Cursor<'src>, width: usize) {
    if SKIP || width == 0 {
      c.offset += width;
    } else {
      self.emit(c, TokenKind::Whitespace, width);
    }
  }

  /// Recipe lines: their text, `{{`s and line ends, while the lexer stays
  /// in recipe text and the batch has room. A `{{ name }}`, the commonest
  /// interpolation, is lexed whole.
  #[inline(always)]
  fn hot_body_text<const SKIP: bool>(&mut self, c: &mut Cursor<'src>) -> LexResult<'src> {
    while c.len < BATCH {
      let end = body_text_end(c.bytes, c.offset);
      if end > c.offset {
        let length = end - c.offset;
        self.emit(c, TokenKind::Text, length);
      }
      match c.bytes.get(end) {
        Some(b'{') => {
          if let Some((before, name, after)) = name_interpolation(c.bytes, end) {
            self.emit(c, TokenKind::InterpolationStart, 2);
            self.blank::<SKIP>(c, before);
            self.emit(c, TokenKind::Identifier, name);
            self.blank::<SKIP>(c, after);
            self.emit(c, TokenKind::InterpolationEnd, 2);
            continue;
          }
          let opener = self.emit(c, TokenKind::InterpolationStart, 2);
          self.interpolation = Some(opener);
          c.body_text = false;
          c.nested = true;
          return Ok(());
        }
        Some(b'\n') => self.hot_line_end::<SKIP>(c, 1)?,
        Some(_) => self.hot_line_end::<SKIP>(c, 2)?,
        None => return Ok(()),
      }
      if !c.body_text {
        return Ok(());
      }
    }
    Ok(())
  }

  /// A line end of `length` bytes: `Eol` then the next line's indentation,
  /// or whitespace inside a delimiter or interpolation.
  #[inline(always)]
  fn hot_line_end<const SKIP: bool>(
    &mut self,
    c: &mut Cursor<'src>,
    length: usize,
  ) -> LexResult<'src> {
    if c.nested {
      self.blank::<SKIP>(c, length);
    } else {
      self.emit(c, TokenKind::Eol, length);
    }
    // As `newline_at`: a `\n` ending the source starts no line.
    if c.offset < c.bytes.len() {
      c.line += 1;
    }
    if c.nested || (self.levels.len() == 1 && !matches!(c.peek(0), b' ' | b'\t')) {
      return Ok(());
    }
    self.hot_indentation::<SKIP>(c)
  }

  /// The common cases of `lex_indentation`: another line of the current
  /// level, the first line of a block, a blank line before the end of
  /// every block.
  #[inline(always)]
  fn hot_indentation<const SKIP: bool>(&mut self, c: &mut Cursor<'src>) -> LexResult<'src> {
    let end = blank_end(c.bytes, c.offset);
    let width = end - c.offset;
    let level = self.current_level();
    match c.bytes.get(end) {
      Some(b'\n')
        if width == 0
          && c
            .bytes
            .get(end + 1)
            .is_some_and(|&next| !matches!(next, b' ' | b'\t' | b'\r' | b'\n')) =>
      {
        // An empty line, then one starting at column 0: every block ends.
        self.hot_dedent_all(c);
        return Ok(());
      }
      None | Some(b'\n' | b'\r') => {}
      Some(_) if width == level.whitespace.len() => {
        if same_whitespace(&c.bytes[c.offset..end], level.whitespace) {
          self.blank::<SKIP>(c, width);
          return Ok(());
        }
      }
      Some(_) if self.levels.len() == 1 => {
        let whitespace = &c.bytes[c.offset..end];
        if !is_mixed(whitespace) {
          let body = self.colon_since_dedent;
          self.levels.push(Level { whitespace, body });
          c.body_text = body;
          self.emit(c, TokenKind::Indent, width);
          return Ok(());
        }
      }
      Some(_) => {}
    }
    self.general(c, Self::lex_indentation)
  }

  /// `dedent_to(0)`.
  #[inline(always)]
  fn hot_dedent_all(&mut self, c: &mut Cursor<'src>) {
    while self.levels.len() > 1 {
      self.levels.pop();
      self.colon_since_dedent = false;
      self.emit(c, TokenKind::Dedent, 0);
    }
    c.body_text = false;
  }

  #[inline(never)]
  fn finish(&mut self) -> LexResult<'src> {
    if let Some(opener) = self.interpolation {
      return Err(lex_error(opener, LexErrorKind::UnterminatedInterpolation));
    }
    self.dedent_to(0);
    self.done = true;
    let eof = self.token_at(TokenKind::Eof, self.position(), 0);
    self.push(eof);
    Ok(())
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

  // ---- indentation ----

  fn current_level(&self) -> Level<'src> {
    self.levels.last().copied().unwrap_or(Level { whitespace: b"", body: false })
  }

  fn update_body_text(&mut self) {
    self.body_text =
      self.delimiters.is_empty() && self.interpolation.is_none() && self.current_level().body;
  }

  /// Pop levels until `depth + 1` remain, one `Dedent` per popped level.
  #[inline(never)]
  fn dedent_to(&mut self, depth: usize) {
    while self.levels.len() > depth + 1 {
      self.levels.pop();
      self.colon_since_dedent = false;
      self.within_line(0, TokenKind::Dedent);
    }
    self.update_body_text();
  }

  /// The indentation of a line: dedents, then its whitespace or `Indent`.
  #[inline(always)]
  fn lex_line_start(&mut self) -> LexResult<'src> {
    if self.levels.len() == 1 && !matches!(self.peek(0), b' ' | b'\t') {
      return Ok(());
    }
    self.lex_indentation()
  }

  /// `lex_line_start` for a line that is indented or inside an indented block.
  #[inline(never)]
  fn lex_indentation(&mut self) -> LexResult<'src> {
    let rest = self.rest();
    let width = blank_width(rest);
    let (whitespace, after) = rest.split_at(width);

    if matches!(after, [] | [b'\n', ..] | [b'\r', b'\n', ..]) {
      if next_content_at_column_zero(rest) {
        self.dedent_to(0);
      }
      self.whitespace_within_line(width);
      return Ok(());
    }

    let current = self.current_level();
    let extends_current = width >= current.whitespace.len()
      && same_whitespace(&whitespace[..current.whitespace.len()], current.whitespace);
    if extends_current && width == current.whitespace.len() {
      self.whitespace_within_line(width);
      return Ok(());
    }
    // Each level's indentation extends the one before, so only a line
    // indented less than the current level can return to an enclosing one.
    if width < current.whitespace.len() {
      if let Some(depth) =
        self.levels.iter().position(|level| same_whitespace(level.whitespace, whitespace))
      {
        self.dedent_to(depth);
        self.whitespace_within_line(width);
        return Ok(());
      }
    }
    if current.body && extends_current {
      // The surplus is lexed as part of the line's text.
      self.whitespace_within_line(current.whitespace.len());
      return Ok(());
    }
    if current.body || !extends_current || is_mixed(whitespace) {
      return Err(self.indentation_error(whitespace, current));
    }
    self.levels.push(Level { whitespace, body: self.colon_since_dedent });
    self.update_body_text();
    self.within_line(width, TokenKind::Indent);
    Ok(())
  }

  /// The error for a line whose indentation neither matches the current
  /// level, nor returns to an enclosing one, nor opens a new one.
  #[cold]
  #[inline(never)]
  fn indentation_error(
    &self,
    whitespace: &'src [u8],
    current: Level<'src>,
  ) -> Box<SyntaxError<'src>> {
    // Spaces and tabs are one byte each, so bytes and characters agree.
    let shown = if current.body {
      &whitespace[..current.whitespace.len().min(whitespace.len())]
    } else {
      whitespace
    };
    if is_mixed(shown) {
      return self.error_here(
        shown.len(),
        LexErrorKind::MixedLeadingWhitespace { whitespace: blanks_text(shown) },
      );
    }
    self.error_here(
      whitespace.len(),
      LexErrorKind::InconsistentLeadingWhitespace {
        expected: blanks_text(current.whitespace),
        found: blanks_text(whitespace),
      },
    )
  }

  // ---- the reference lexer ----

  /// Lex the whole source with the general methods alone, a byte at a
  /// time: what `fill` must agree with. The tokens lexed, and the error.
  #[cfg(test)]
  fn lex_by_reference(mut self) -> (Vec<Token<'src>>, Option<Box<SyntaxError<'src>>>) {
    let mut lex = || -> LexResult<'src> {
      self.lex_line_start()?;
      while let Some(&byte) = self.src.as_bytes().get(self.offset) {
        if self.body_text {
          self.lex_reference_body_text()?;
        } else {
          self.lex_normal(byte)?;
        }
      }
      self.finish()
    };
    let error = lex().err();
    let mut tokens = self.batch[..self.len].to_vec();
    tokens.extend_from_slice(&self.overflow);
    (tokens, error)
  }

  /// The text of a recipe line up to the next `{{` or line end, then that
  /// `{{` or line end.
  #[cfg(test)]
  fn lex_reference_body_text(&mut self) -> LexResult<'src> {
    let rest = self.rest();
    let length = body_text_length(rest);
    if length > 0 {
      self.within_line(length, TokenKind::Text);
    }
    match rest.get(length..).unwrap_or_default() {
      [b'{', b'{', ..] => {
        let opener = self.within_line(2, TokenKind::InterpolationStart);
        self.interpolation = Some(opener);
        self.body_text = false;
      }
      [b'\n', ..] => return self.eol(1),
      [b'\r', b'\n', ..] => return self.eol(2),
      _ => {}
    }
    Ok(())
  }

  // ---- normal mode ----

  #[inline(never)]
  fn lex_normal(&mut self, byte: u8) -> LexResult<'src> {
    match byte {
      b' ' | b'\t' => self.lex_whitespace(),
      b'\n' => self.lex_line_end(1)?,
      b'\r' if self.peek(1) == b'\n' => self.lex_line_end(2)?,
      b'\r' => return Err(self.error_here(1, LexErrorKind::UnpairedCarriageReturn)),
      b'#' => self.lex_comment(),
      b'\\' => self.lex_backslash()?,
      b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.lex_identifier()?,
      b'!' | b'=' | b':' | b'+' | b'$' | b'*' | b',' | b'/' | b'?' | b'@' => {
        if let Some((length, kind)) = operator(byte, self.peek(1)) {
          if kind == TokenKind::Colon {
            self.colon_since_dedent = true;
          }
          self.within_line(length, kind);
        }
      }
      b'&' => self.lex_doubled(b'&', TokenKind::AmpersandAmpersand)?,
      b'|' => self.lex_doubled(b'|', TokenKind::BarBar)?,
      b'(' => self.lex_open(DelimiterKind::Paren, TokenKind::ParenL),
      b'[' => self.lex_open(DelimiterKind::Bracket, TokenKind::BracketL),
      b'{' => self.lex_open(DelimiterKind::Brace, TokenKind::BraceL),
      b')' | b']' | b'}' => self.lex_close(byte)?,
      b'\'' | b'"' => self.lex_string()?,
      b'`' => self.lex_backtick()?,
      _ => self.lex_other()?,
    }
    Ok(())
  }

  /// A byte order mark, or an error for a character no token starts with.
  #[inline(never)]
  fn lex_other(&mut self) -> LexResult<'src> {
    match self.char_ahead(0) {
      Some('\u{feff}') => {
        self.within_line('\u{feff}'.len_utf8(), TokenKind::ByteOrderMark);
        Ok(())
      }
      Some(c) => Err(
        self
          .error_here(c.len_utf8(), LexErrorKind::UnknownStartOfToken { character: c.to_string() }),
      ),
      // Only off a character boundary, where the lexer never stops.
      None => {
        Err(self.error_here(1, LexErrorKind::UnknownStartOfToken { character: String::new() }))
      }
    }
  }

  /// `&&` / `||`: a lone `&` or `|` is an error pointing at what follows it.
  #[inline(never)]
  fn lex_doubled(&mut self, c: u8, kind: TokenKind) -> LexResult<'src> {
    let expected = char::from(c);
    match self.char_ahead(1) {
      Some(next) if next == expected => {
        self.within_line(2, kind);
        Ok(())
      }
      Some(next) => {
        Err(self.error_ahead(1, next.len_utf8(), LexErrorKind::ExpectedCharacter { expected }))
      }
      None => {
        Err(self.error_ahead(1, 0, LexErrorKind::ExpectedCharacterFoundEndOfFile { expected }))
      }
    }
  }

  fn lex_whitespace(&mut self) {
    let width = blank_width(self.rest());
    self.whitespace_within_line(width);
  }

  /// An `Eol` of `length` bytes (its last is the `\n`), then the next
  /// line's indentation.
  #[inline(always)]
  fn eol(&mut self, length: usize) -> LexResult<'src> {
    self.within_line(length, TokenKind::Eol);
    self.newline_at(self.offset - 1);
    self.lex_line_start()
  }

  /// A line end: `Eol`, or plain whitespace inside a delimiter or interpolation.
  #[inline(always)]
  fn lex_line_end(&mut self, length: usize) -> LexResult<'src> {
    if self.delimiters.is_empty() && self.interpolation.is_none() {
      return self.eol(length);
    }
    self.whitespace_within_line(length);
    self.newline_at(self.offset - 1);
    Ok(())
  }

  fn lex_comment(&mut self) {
    let length = comment_length(self.rest());
    self.within_line(length, TokenKind::Comment);
  }

  /// `\` + line end (+ the next line's leading blanks) continues the line.
  #[inline(never)]
  fn lex_backslash(&mut self) -> LexResult<'src> {
    let after = self.rest().get(1..).unwrap_or_default();
    if let Some(line_end) = line_end_length(after) {
      let blanks = blank_width(&after[line_end..]);
      self.spanning(1 + line_end + blanks, TokenKind::Whitespace);
      return Ok(());
    }
    let kind = match self.char_ahead(1) {
      None => LexErrorKind::UnexpectedEndOfFileInEscape,
      Some('\r') => LexErrorKind::UnpairedCarriageReturn,
      Some(character) => LexErrorKind::InvalidEscapeSequence { character },
    };
    Err(self.error_here(1, kind))
  }

  #[inline(never)]
  fn lex_identifier(&mut self) -> LexResult<'src> {
    let rest = self.rest();
    let length = identifier_length(rest);
    self.within_line(length, TokenKind::Identifier);
    if length == 1 && rest[0] == b'f' {
      if let Some(quote) = Quote::opening(&rest[length..]) {
        return self.lex_format_string_start(quote);
      }
    }
    Ok(())
  }

  // ---- delimiters ----

  fn lex_open(&mut self, kind: DelimiterKind, token_kind: TokenKind) {
    let opener = self.within_line(1, token_kind);
    self.delimiters.push(Delimiter { kind, opener });
    self.body_text = false;
  }

  fn lex_close(&mut self, close: u8) -> LexResult<'src> {
    if self.peek(1) == b'}' && close == b'}' {
      match self.delimiters.last() {
        Some(Delimiter { kind: DelimiterKind::FormatString(quote), .. }) => {
          return self.lex_format_string_continuation(*quote);
        }
        None if self.interpolation.is_some() => {
          self.interpolation = None;
          self.update_body_text();
          self.within_line(2, TokenKind::InterpolationEnd);
          return Ok(());
        }
        _ => {}
      }
    }
    let innermost = self.delimiters.last().copied();
    match innermost {
      Some(delimiter) if delimiter.kind.closed_by(close) => {
        self.delimiters.pop();
        self.update_body_text();
        let kind = match close {
          b')' => TokenKind::ParenR,
          b']' => TokenKind::BracketR,
          _ => TokenKind::BraceR,
        };
        self.within_line(1, kind);
        Ok(())
      }
      Some(delimiter) => Err(self.error_here(
        1,
        LexErrorKind::MismatchedClosingDelimiter {
          close: char::from(close),
          open: delimiter.kind.opener_text().to_owned(),
          // The `{{` of a format string ends its opening token.
          open_line: delimiter.opener.line as usize
            + delimiter.opener.lexeme().matches('\n').count()
            + 1,
        },
      )),
      None => Err(
        self.error_here(1, LexErrorKind::UnexpectedClosingDelimiter { close: char::from(close) }),
      ),
    }
  }

  // ---- strings ----

  #[inline(never)]
  fn lex_string(&mut self) -> LexResult<'src> {
    let rest = self.rest();
    // Called at a quote, so there is always one.
    let Some(quote) = Quote::opening(rest) else {
      return Err(self.error_here(1, LexErrorKind::UnterminatedString));
    };
    let delimiter = quote.delimiter();
    match scan_string(rest, delimiter.len(), delimiter, quote.has_escapes()) {
      Some(scan) => {
        self.quoted(scan, TokenKind::StringToken);
        Ok(())
      }
      None => Err(self.error_here(delimiter.len(), LexErrorKind::UnterminatedString)),
    }
  }

  fn lex_backtick(&mut self) -> LexResult<'src> {
    let rest = self.rest();
    let delimiter: &[u8] = if rest.starts_with(b"```") { b"```" } else { b"`" };
    match scan_string(rest, delimiter.len(), delimiter, false) {
      Some(scan) => {
        self.quoted(scan, TokenKind::Backtick);
        Ok(())
      }
      None => Err(self.error_here(delimiter.len(), LexErrorKind::UnterminatedBacktick)),
    }
  }

  /// Emit a string or backtick token as scanned, moving to the line its
  /// last line break starts.
  fn quoted(&mut self, scan: StringScan, kind: TokenKind) {
    self.within_line(scan.length, kind);
    // A closing quote follows, so no `\n` in it is the source's last byte.
    self.line += scan.newlines;
  }

  /// The string after an `f` prefix: a plain string when it closes before any
  /// interpolation, else a `FormatStringStart` opening an f-string delimiter.
  #[inline(never)]
  fn lex_format_string_start(&mut self, quote: Quote) -> LexResult<'src> {
    let open = quote.delimiter().len();
    match scan_format(&self.rest()[open..], quote) {
      FormatScan::Closed(length) => {
        self.spanning(open + length, TokenKind::StringToken);
      }
      FormatScan::Interpolation(length) => {
        let opener = self.spanning(open + length, TokenKind::FormatStringStart);
        self.delimiters.push(Delimiter { kind: DelimiterKind::FormatString(quote), opener });
        self.body_text = false;
      }
      FormatScan::Unterminated => {
        return Err(self.error_here(open, LexErrorKind::UnterminatedString))
      }
    }
    Ok(())
  }

  /// A `}}` closing an f-string interpolation, and the literal text after it.
  #[inline(never)]
  fn lex_format_string_continuation(&mut self, quote: Quote) -> LexResult<'src> {
    match scan_format(&self.rest()[2..], quote) {
      FormatScan::Closed(length) => {
        self.spanning(2 + length, TokenKind::FormatStringEnd);
        self.delimiters.pop();
        self.update_body_text();
      }
      FormatScan::Interpolation(length) => {
        self.spanning(2 + length, TokenKind::FormatStringContinue);
      }
      FormatScan::Unterminated => return Err(self.error_here(2, LexErrorKind::UnterminatedString)),
    }
    Ok(())
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

/// Whether indentation (spaces and tabs only) holds both.
fn is_mixed(whitespace: &[u8]) -> bool {
  whitespace.split_first().is_some_and(|(first, rest)| rest.iter().any(|byte| byte != first))
}

/// Equality of two runs of indentation, which are short: cheaper than a
/// call to `memcmp`.
fn same_whitespace(a: &[u8], b: &[u8]) -> bool {
  a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Indentation (spaces and tabs) as text for a message.
fn blanks_text(whitespace: &[u8]) -> String {
  String::from_utf8_lossy(whitespace).into_owned()
}

/// The length of the identifier starting `text`, whose first byte is known
/// to start one: four bytes a step while they last, then one.
fn identifier_length(text: &[u8]) -> usize {
  let continues = |byte: u8| info(byte).continues_identifier;
  let mut length = 1;
  while let Some(&[a, b, c, d]) = text.get(length..length + 4) {
    if !continues(a) {
      return length;
    }
    if !continues(b) {
      return length + 1;
    }
    if !continues(c) {
      return length + 2;
    }
    if !continues(d) {
      return length + 3;
    }
    length += 4;
  }
  while let Some(&byte) = text.get(length) {
    if !continues(byte) {
      break;
    }
    length += 1;
  }
  length
}

/// The operator (or punctuation) starting with `byte`, followed by `next`,
/// when `byte` starts one by itself: its length and kind.
#[inline(always)]
fn operator(byte: u8, next: u8) -> Option<(usize, TokenKind)> {
  Some(match (byte, next) {
    (b'!', b'=') => (2, TokenKind::BangEquals),
    (b'!', b'~') => (2, TokenKind::BangTilde),
    (b'!', _) => (1, TokenKind::Bang),
    (b'=', b'=') => (2, TokenKind::EqualsEquals),
    (b'=', b'~') => (2, TokenKind::EqualsTilde),
    (b'=', _) => (1, TokenKind::Equals),
    (b':', b'=') => (2, TokenKind::ColonEquals),
    (b':', b':') => (2, TokenKind::ColonColon),
    (b':', _) => (1, TokenKind::Colon),
    (b'+', b'+') => (2, TokenKind::PlusPlus),
    (b'+', _) => (1, TokenKind::Plus),
    (b'$', _) => (1, TokenKind::Dollar),
    (b'*', _) => (1, TokenKind::Asterisk),
    (b',', _) => (1, TokenKind::Comma),
    (b'/', _) => (1, TokenKind::Slash),
    (b'?', _) => (1, TokenKind::QuestionMark),
    (b'@', _) => (1, TokenKind::At),
    _ => return None,
  })
}

/// The length of the comment starting `text`: up to its line end.
fn comment_length(text: &[u8]) -> usize {
  match memchr::memchr(b'\n', text) {
    Some(newline) if newline > 0 && text[newline - 1] == b'\r' => newline - 1,
    Some(newline) => newline,
    None => text.len(),
  }
}

/// Where the recipe text starting at `start` ends: at the next `{{`
/// (`{{{{` is text) or line end.
#[inline(always)]
fn body_text_end(bytes: &[u8], start: usize) -> usize {
  start + body_text_length(bytes.get(start..).unwrap_or_default())
}

/// The length of the recipe text starting `text`.
#[inline(always)]
fn body_text_length(text: &[u8]) -> usize {
  let mut length = 0;
  while let Some(&byte) = text.get(length) {
    if !info(byte).text_stop {
      length += 1;
      continue;
    }
    match text.get(length..).unwrap_or_default() {
      [b'{', b'{', b'{', b'{', ..] => length += 4,
      [b'{', b'{', ..] | [b'\n', ..] | [b'\r', b'\n', ..] => break,
      _ => length += 1,
    }
  }
  length
}

/// The `{{ name }}` whose `{{` is at `at`, if that is what is there: the
/// widths of the blanks before the name, of the name and of the blanks
/// after it.
#[inline(always)]
fn name_interpolation(bytes: &[u8], at: usize) -> Option<(usize, usize, usize)> {
  let start = blank_end(bytes, at + 2);
  if !matches!(bytes.get(start)?, b'a'..=b'z' | b'A'..=b'Z' | b'_') {
    return None;
  }
  let end = identifier_end(bytes, start);
  let close = blank_end(bytes, end);
  if bytes.get(close..close + 2)? != b"}}" {
    return None;
  }
  Some((start - at - 2, end - start, close - end))
}

/// Where the identifier starting at `start` ends; its first byte is known
/// to start one.
#[inline(always)]
fn identifier_end(bytes: &[u8], start: usize) -> usize {
  start + identifier_length(bytes.get(start..).unwrap_or_default())
}

/// Where the spaces and tabs from `start` on end.
#[inline(always)]
fn blank_end(bytes: &[u8], start: usize) -> usize {
  let mut end = start;
  while let Some(b' ' | b'\t') = bytes.get(end) {
    end += 1;
  }
  end
}

/// Pass a space the parser would not see anyway.
#[inline(always)]
fn skip_space<const SKIP: bool>(c: &mut Cursor<'_>) {
  if SKIP && c.peek(0) == b' ' {
    c.offset += 1;
  }
}

/// The scan of the string starting `text`; `None` when unterminated.
#[inline(always)]
fn string_scan(text: &[u8]) -> Option<StringScan> {
  let quote = Quote::opening(text)?;
  let delimiter = quote.delimiter();
  scan_string(text, delimiter.len(), delimiter, quote.has_escapes())
}

/// The number of spaces and tabs `text` starts with.
fn blank_width(text: &[u8]) -> usize {
  text.iter().position(|&byte| byte != b' ' && byte != b'\t').unwrap_or(text.len())
}

fn line_end_length(text: &[u8]) -> Option<usize> {
  match text {
    [b'\n', ..] => Some(1),
    [b'\r', b'\n', ..] => Some(2),
    _ => None,
  }
}

/// Whether the first character after the blank lines starting at
/// `text` begins a line (it follows a `\n` directly).
fn next_content_at_column_zero(text: &[u8]) -> bool {
  match text.iter().position(|byte| !matches!(byte, b' ' | b'\t' | b'\r' | b'\n')) {
    Some(index) => index > 0 && text[index - 1] == b'\n',
    None => false,
  }
}

/// A string or backtick token: its length and the line breaks in it.
#[derive(Copy, Clone, Debug)]
struct StringScan {
  length: usize,
  newlines: usize,
}

/// Scan the string starting `text` from its content (`open` bytes in) to
/// its closing `delimiter`, or `None` when unterminated. With escapes, the
/// character after a `\` never closes.
fn scan_string(text: &[u8], open: usize, delimiter: &[u8], escapes: bool) -> Option<StringScan> {
  let first = *delimiter.first()?;
  let mut scan = StringScan { length: 0, newlines: 0 };
  let mut index = open;
  while let Some(&byte) = text.get(index) {
    if !info(byte).string_special {
      index += 1;
      continue;
    }
    if byte == first && (delimiter.len() == 1 || text[index..].starts_with(delimiter)) {
      scan.length = index + delimiter.len();
      return Some(scan);
    }
    // Skipping one byte after a `\` skips a whole character: the rest of a
    // multi-byte character never matches an ASCII byte.
    if escapes && byte == b'\\' {
      index += 1;
    }
    if text.get(index) == Some(&b'\n') {
      scan.newlines += 1;
    }
    index += 1;
  }
  None
}

/// Scan a literal piece of a format string. `{{{{` is always an escaped
/// literal, even right after a `\`; otherwise the character after a `\`
/// (in `"` kinds) neither closes the string nor starts a `{{`.
fn scan_format(text: &[u8], quote: Quote) -> FormatScan {
  let delimiter = quote.delimiter();
  let mut index = 0;
  let mut escaped = false;
  while let Some(&byte) = text.get(index) {
    let tail = &text[index..];
    if tail.starts_with(b"{{{{") {
      index += 4;
      escaped = false;
      continue;
    }
    if escaped {
      escaped = false;
    } else if tail.starts_with(delimiter) {
      return FormatScan::Closed(index + delimiter.len());
    } else if tail.starts_with(b"{{") {
      return FormatScan::Interpolation(index + 2);
    } else if byte == b'\\' && quote.has_escapes() {
      escaped = true;
    }
    // As in `scan_string`, one byte at a time is safe after a `\`.
    index += 1;
  }
  FormatScan::Unterminated
}

/// What a byte starts, for the dispatch of `Lexer::fill`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ByteClass {
  /// An identifier: an ASCII letter or `_`.
  Name,
  /// A space or tab.
  Blank,
  Newline,
  Return,
  Hash,
  Quote,
  BraceR,
  /// Anything else: an operator, or a token lexed by `lex_normal`.
  Other,
}

/// What the lexer needs to know about a byte. One table for all of it: its
/// address then takes one register in the lexer's loop, not one per table.
#[derive(Copy, Clone, Debug)]
struct ByteInfo {
  class: ByteClass,
  /// Continues an identifier: an ASCII letter or digit, `_` or `-`.
  continues_identifier: bool,
  /// A run of recipe text may stop at it: `{` (of `{{`), `\n`, `\r` (of `\r\n`).
  text_stop: bool,
  /// A string scan must look at it: a quote, backtick, `\` or `\n`.
  string_special: bool,
}

const BYTE_INFO: [ByteInfo; 256] = {
  let other = ByteInfo {
    class: ByteClass::Other,
    continues_identifier: false,
    text_stop: false,
    string_special: false,
  };
  let mut table = [other; 256];
  let mut byte = 0;
  while byte < 256 {
    let b = byte as u8;
    table[byte] = ByteInfo {
      class: match b {
        b'a'..=b'z' | b'A'..=b'Z' | b'_' => ByteClass::Name,
        b' ' | b'\t' => ByteClass::Blank,
        b'\n' => ByteClass::Newline,
        b'\r' => ByteClass::Return,
        b'#' => ByteClass::Hash,
        b'\'' | b'"' => ByteClass::Quote,
        b'}' => ByteClass::BraceR,
        _ => ByteClass::Other,
      },
      continues_identifier: b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
      text_stop: matches!(b, b'{' | b'\n' | b'\r'),
      string_special: matches!(b, b'\'' | b'"' | b'`' | b'\\' | b'\n'),
    };
    byte += 1;
  }
  table
};

/// What the lexer needs to know about `byte`.
fn info(byte: u8) -> ByteInfo {
  BYTE_INFO[usize::from(byte)]
}

#[cfg(test)]
mod tests {
  use super::*;
  use TokenKind::*;

  fn lex_ok(src: &str) -> Vec<Token<'static>> {
    let source: &'static Source = Box::leak(Box::new(Source::new(src, "justfile")));
    match lex(source) {
      Ok(tokens) => tokens,
      Err(error) => panic!("lexing {src:?} failed: {error}"),
    }
  }

  fn assert_tokens(src: &str, expected: &[(TokenKind, &str)]) {
    let tokens = lex_ok(src);
    let rebuilt: String = tokens.iter().map(Token::lexeme).collect();
    assert_eq!(rebuilt, src, "lexemes do not rebuild {src:?}");
    let actual: Vec<(TokenKind, &str)> = tokens.iter().map(|t| (t.kind, t.lexeme())).collect();
    pretty_assertions::assert_eq!(actual, expected, "tokens of {src:?}");
  }

  #[test]
  fn token_sequences() {
    let cases: &[(&str, &[(TokenKind, &str)])] = &[
      ("", &[(Eof, "")]),
      (
        "x := 'a'\n",
        &[
          (Identifier, "x"),
          (Whitespace, " "),
          (ColonEquals, ":="),
          (Whitespace, " "),
          (StringToken, "'a'"),
          (Eol, "\n"),
          (Eof, ""),
        ],
      ),
      (
        "foo:\n  echo hi\n",
        &[
          (Identifier, "foo"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "  "),
          (Text, "echo hi"),
          (Eol, "\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "a:\n\techo {{x + \"y\"}} z\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "\t"),
          (Text, "echo "),
          (InterpolationStart, "{{"),
          (Identifier, "x"),
          (Whitespace, " "),
          (Plus, "+"),
          (Whitespace, " "),
          (StringToken, "\"y\""),
          (InterpolationEnd, "}}"),
          (Text, " z"),
          (Eol, "\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "a:\n  x\n\n    y\n  \nb:\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "  "),
          (Text, "x"),
          (Eol, "\n"),
          (Eol, "\n"),
          (Whitespace, "  "),
          (Text, "  y"),
          (Eol, "\n"),
          (Dedent, ""),
          (Whitespace, "  "),
          (Eol, "\n"),
          (Identifier, "b"),
          (Colon, ":"),
          (Eol, "\n"),
          (Eof, ""),
        ],
      ),
      (
        "a:\n  {{{{{x}} #}}\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "  "),
          (Text, "{{{{{x}} #}}"),
          (Eol, "\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "a:\n  {{{{{{x}}\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "  "),
          (Text, "{{{{"),
          (InterpolationStart, "{{"),
          (Identifier, "x"),
          (InterpolationEnd, "}}"),
          (Eol, "\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "a:\n  {{if a == b { c } else { d }}}\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "  "),
          (InterpolationStart, "{{"),
          (Identifier, "if"),
          (Whitespace, " "),
          (Identifier, "a"),
          (Whitespace, " "),
          (EqualsEquals, "=="),
          (Whitespace, " "),
          (Identifier, "b"),
          (Whitespace, " "),
          (BraceL, "{"),
          (Whitespace, " "),
          (Identifier, "c"),
          (Whitespace, " "),
          (BraceR, "}"),
          (Whitespace, " "),
          (Identifier, "else"),
          (Whitespace, " "),
          (BraceL, "{"),
          (Whitespace, " "),
          (Identifier, "d"),
          (Whitespace, " "),
          (BraceR, "}"),
          (InterpolationEnd, "}}"),
          (Eol, "\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "a:\n  {{ x +\n  y }}\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "  "),
          (InterpolationStart, "{{"),
          (Whitespace, " "),
          (Identifier, "x"),
          (Whitespace, " "),
          (Plus, "+"),
          (Whitespace, "\n"),
          (Whitespace, "  "),
          (Identifier, "y"),
          (Whitespace, " "),
          (InterpolationEnd, "}}"),
          (Eol, "\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "a: \\\n    b\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Whitespace, " "),
          (Whitespace, "\\\n    "),
          (Identifier, "b"),
          (Eol, "\n"),
          (Eof, ""),
        ],
      ),
      (
        "x := (\n  a\r\n)\n",
        &[
          (Identifier, "x"),
          (Whitespace, " "),
          (ColonEquals, ":="),
          (Whitespace, " "),
          (ParenL, "("),
          (Whitespace, "\n"),
          (Whitespace, "  "),
          (Identifier, "a"),
          (Whitespace, "\r\n"),
          (ParenR, ")"),
          (Eol, "\n"),
          (Eof, ""),
        ],
      ),
      (
        "x := a # c\r\ny\r\n# a\rb\n",
        &[
          (Identifier, "x"),
          (Whitespace, " "),
          (ColonEquals, ":="),
          (Whitespace, " "),
          (Identifier, "a"),
          (Whitespace, " "),
          (Comment, "# c"),
          (Eol, "\r\n"),
          (Identifier, "y"),
          (Eol, "\r\n"),
          (Comment, "# a\rb"),
          (Eol, "\n"),
          (Eof, ""),
        ],
      ),
      (
        "a:\r\n  x\ry\r\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\r\n"),
          (Indent, "  "),
          (Text, "x\ry"),
          (Eol, "\r\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "'a' \"b\\\"c\" '''d'''\"\"\"e\"\"\"`f````g```''''''''x",
        &[
          (StringToken, "'a'"),
          (Whitespace, " "),
          (StringToken, "\"b\\\"c\""),
          (Whitespace, " "),
          (StringToken, "'''d'''"),
          (StringToken, "\"\"\"e\"\"\""),
          (Backtick, "`f`"),
          (Backtick, "```g```"),
          (StringToken, "''''''"),
          (StringToken, "''"),
          (Identifier, "x"),
          (Eof, ""),
        ],
      ),
      (
        "\"\"\"a\\\"\"\"b\"\"\" \"\\\\\" '\n'",
        &[
          (StringToken, "\"\"\"a\\\"\"\"b\"\"\""),
          (Whitespace, " "),
          (StringToken, "\"\\\\\""),
          (Whitespace, " "),
          (StringToken, "'\n'"),
          (Eof, ""),
        ],
      ),
      (
        "x'a' f`b` _a-b9--",
        &[
          (Identifier, "x"),
          (StringToken, "'a'"),
          (Whitespace, " "),
          (Identifier, "f"),
          (Backtick, "`b`"),
          (Whitespace, " "),
          (Identifier, "_a-b9--"),
          (Eof, ""),
        ],
      ),
      (
        "f'a{{b}}c{{d}}e' f'abc' f'{{{{' f\"\\{{{{\"",
        &[
          (Identifier, "f"),
          (FormatStringStart, "'a{{"),
          (Identifier, "b"),
          (FormatStringContinue, "}}c{{"),
          (Identifier, "d"),
          (FormatStringEnd, "}}e'"),
          (Whitespace, " "),
          (Identifier, "f"),
          (StringToken, "'abc'"),
          (Whitespace, " "),
          (Identifier, "f"),
          (StringToken, "'{{{{'"),
          (Whitespace, " "),
          (Identifier, "f"),
          (StringToken, "\"\\{{{{\""),
          (Eof, ""),
        ],
      ),
      (
        "f\"\\{{{ x }}\" f\"\\{{ x }}\" f\"a\\\"{{x}}\"",
        &[
          (Identifier, "f"),
          (FormatStringStart, "\"\\{{{"),
          (Whitespace, " "),
          (Identifier, "x"),
          (Whitespace, " "),
          (FormatStringEnd, "}}\""),
          (Whitespace, " "),
          (Identifier, "f"),
          (StringToken, "\"\\{{ x }}\""),
          (Whitespace, " "),
          (Identifier, "f"),
          (FormatStringStart, "\"a\\\"{{"),
          (Identifier, "x"),
          (FormatStringEnd, "}}\""),
          (Eof, ""),
        ],
      ),
      (
        "f'a{{ f'[{{x}}]' }}b' f'''{{ {} }}\n'''",
        &[
          (Identifier, "f"),
          (FormatStringStart, "'a{{"),
          (Whitespace, " "),
          (Identifier, "f"),
          (FormatStringStart, "'[{{"),
          (Identifier, "x"),
          (FormatStringEnd, "}}]'"),
          (Whitespace, " "),
          (FormatStringEnd, "}}b'"),
          (Whitespace, " "),
          (Identifier, "f"),
          (FormatStringStart, "'''{{"),
          (Whitespace, " "),
          (BraceL, "{"),
          (BraceR, "}"),
          (Whitespace, " "),
          (FormatStringEnd, "}}\n'''"),
          (Eof, ""),
        ],
      ),
      (
        "x := f'{{\n  a\n}}'\n",
        &[
          (Identifier, "x"),
          (Whitespace, " "),
          (ColonEquals, ":="),
          (Whitespace, " "),
          (Identifier, "f"),
          (FormatStringStart, "'{{"),
          (Whitespace, "\n"),
          (Whitespace, "  "),
          (Identifier, "a"),
          (Whitespace, "\n"),
          (FormatStringEnd, "}}'"),
          (Eol, "\n"),
          (Eof, ""),
        ],
      ),
      (
        "\u{feff}x\n\u{feff}",
        &[
          (ByteOrderMark, "\u{feff}"),
          (Identifier, "x"),
          (Eol, "\n"),
          (ByteOrderMark, "\u{feff}"),
          (Eof, ""),
        ],
      ),
      (
        "a:\n  b\nc\n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "  "),
          (Text, "b"),
          (Eol, "\n"),
          (Dedent, ""),
          (Identifier, "c"),
          (Eol, "\n"),
          (Eof, ""),
        ],
      ),
      (
        "foo:\n\n    echo %\n",
        &[
          (Identifier, "foo"),
          (Colon, ":"),
          (Eol, "\n"),
          (Eol, "\n"),
          (Indent, "    "),
          (Text, "echo %"),
          (Eol, "\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "x := a\n  b\n    c:\n      d\n  e",
        &[
          (Identifier, "x"),
          (Whitespace, " "),
          (ColonEquals, ":="),
          (Whitespace, " "),
          (Identifier, "a"),
          (Eol, "\n"),
          (Indent, "  "),
          (Identifier, "b"),
          (Eol, "\n"),
          (Indent, "    "),
          (Identifier, "c"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "      "),
          (Text, "d"),
          (Eol, "\n"),
          (Dedent, ""),
          (Dedent, ""),
          (Whitespace, "  "),
          (Identifier, "e"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
      (
        "a:\n  x\n   \n",
        &[
          (Identifier, "a"),
          (Colon, ":"),
          (Eol, "\n"),
          (Indent, "  "),
          (Text, "x"),
          (Eol, "\n"),
          (Whitespace, "   "),
          (Eol, "\n"),
          (Dedent, ""),
          (Eof, ""),
        ],
      ),
    ];
    for (src, expected) in cases {
      assert_tokens(src, expected);
    }
  }

  #[test]
  fn operators_longest_match() {
    let tokens = lex_ok("!=!~!==~=:=:::&&||+++$*,/?@()[]{}");
    let kinds: Vec<TokenKind> = tokens.iter().map(|t| t.kind).collect();
    assert_eq!(
      kinds,
      [
        BangEquals,
        BangTilde,
        BangEquals,
        EqualsTilde,
        Equals,
        ColonEquals,
        ColonColon,
        Colon,
        AmpersandAmpersand,
        BarBar,
        PlusPlus,
        Plus,
        Dollar,
        Asterisk,
        Comma,
        Slash,
        QuestionMark,
        At,
        ParenL,
        ParenR,
        BracketL,
        BracketR,
        BraceL,
        BraceR,
        Eof
      ]
    );
  }

  #[test]
  fn positions() {
    // (source, index of token, kind, line, column)
    let cases: &[(&str, usize, TokenKind, usize, usize)] = &[
      ("[private]\n", 4, Eof, 0, 10),
      ("a\n\n", 3, Eof, 1, 1),
      ("a\nbc", 3, Eof, 1, 2),
      ("\u{feff}x := y", 5, Identifier, 0, 8),
      ("x := 'a\nb' c", 6, Identifier, 1, 3),
      ("a:\n  b\n", 3, Indent, 1, 0),
      ("a:\n  b\n", 6, Dedent, 1, 4),
      ("'é' x", 2, Identifier, 0, 5),
    ];
    for &(src, index, kind, line, column) in cases {
      let source = Source::new(src, "justfile");
      let tokens = match lex(&source) {
        Ok(tokens) => tokens,
        Err(error) => panic!("lexing {src:?} failed: {error}"),
      };
      let token = tokens[index];
      assert_eq!(
        (token.kind, token.line as usize, token.column()),
        (kind, line, column),
        "{src:?}"
      );
    }
  }

  #[test]
  fn errors() {
    // (source, message, line, column, caret length in bytes)
    let cases: &[(&str, &str, usize, usize, usize)] = &[
      ("x := a & b", "expected character `&`", 0, 8, 1),
      ("x := a &", "expected character `&` but found end-of-file", 0, 8, 0),
      ("x := a &\n", "expected character `&`", 0, 8, 1),
      ("x := a |é", "expected character `|`", 0, 8, 2),
      ("x := a |", "expected character `|` but found end-of-file", 0, 8, 0),
      ("x := a \\", "expected escape sequence but found end-of-file", 0, 7, 1),
      ("x := a \\ b", "`\\ ` is not a valid escape sequence", 0, 7, 1),
      ("x := a \\é", "`\\\\u{e9}` is not a valid escape sequence", 0, 7, 1),
      ("foo: \\\\", "`\\\\` is not a valid escape sequence", 0, 5, 1),
      ("foo: \\`", "`\\\\`` is not a valid escape sequence", 0, 5, 1),
      ("foo: \\\t", "`\\\\t` is not a valid escape sequence", 0, 5, 1),
      ("x := a \r b", "unpaired carriage return", 0, 7, 1),
      ("x := a \\\r b", "unpaired carriage return", 0, 7, 1),
      ("x := é", "unknown start of token 'é' (U+00E9)", 0, 5, 2),
      ("x := 日", "unknown start of token '日' (U+65E5)", 0, 5, 3),
      ("x := %", "unknown start of token '%'", 0, 5, 1),
      ("x := 1", "unknown start of token '1'", 0, 5, 1),
      ("x := \u{1}", "unknown start of token '\u{1}' (U+0001)", 0, 5, 1),
      ("a\n\n  x := ~", "unknown start of token '~'", 2, 7, 1),
      ("x := ]", "unexpected closing delimiter `]`", 0, 5, 1),
      ("x := }}", "unexpected closing delimiter `}`", 0, 5, 1),
      ("x := (]", "mismatched closing delimiter `]`, did you mean to close the `(` on line 1?", 0, 6, 1),
      ("x := (\n\n[ }", "mismatched closing delimiter `}`, did you mean to close the `[` on line 3?", 2, 2, 1),
      ("x := f'abc", "unterminated string", 0, 6, 1),
      ("x := f\"\"\"abc", "unterminated string", 0, 6, 3),
      ("x := f'{{ 'a' }}", "unterminated string", 0, 14, 2),
      ("x := f'''{{ 'a' }}", "unterminated string", 0, 16, 2),
      ("x := '''abc", "unterminated string", 0, 5, 3),
      ("x := 'abc\n", "unterminated string", 0, 5, 1),
      ("x := \"abc\\\"", "unterminated string", 0, 5, 1),
      ("x := \"\"\"abc", "unterminated string", 0, 5, 3),
      ("x := `abc", "unterminated backtick", 0, 5, 1),
      ("x := ```abc``", "unterminated backtick", 0, 5, 3),
      ("foo:\n  echo {{ a", "unterminated interpolation", 1, 7, 2),
      ("foo:\n  echo {{ a\n", "unterminated interpolation", 1, 7, 2),
      ("foo:\n  echo {{ (a", "unterminated interpolation", 1, 7, 2),
      ("foo:\n  echo {{ a ) }}", "unexpected closing delimiter `)`", 1, 12, 1),
      ("foo:\n  echo {{ a } }}", "unexpected closing delimiter `}`", 1, 12, 1),
      ("x := f\"{{ a ) }}\"", "mismatched closing delimiter `)`, did you mean to close the `{{` on line 1?", 0, 12, 1),
      ("x := f\"{{{  }}\"", "mismatched closing delimiter `}`, did you mean to close the `{{` on line 1?", 0, 13, 1),
      ("x := f'\n\n{{ d ) }}'", "mismatched closing delimiter `)`, did you mean to close the `{{` on line 3?", 2, 5, 1),
      (
        "x := f'a{{ b }}c\n\n{{ d ) }}'",
        "mismatched closing delimiter `)`, did you mean to close the `{{` on line 1?",
        2,
        5,
        1,
      ),
      (
        "foo:\n\t echo hi\n",
        "found a mix of tabs and spaces in leading whitespace: `␉␠`\nleading whitespace may consist of tabs or spaces, but not both",
        1,
        0,
        2,
      ),
      (
        "foo:\n    echo\n\t  echo\n",
        "found a mix of tabs and spaces in leading whitespace: `␉␠␠`\nleading whitespace may consist of tabs or spaces, but not both",
        2,
        0,
        3,
      ),
      (
        "foo:\n    echo\n  \t  echo\n",
        "found a mix of tabs and spaces in leading whitespace: `␠␠␉␠`\nleading whitespace may consist of tabs or spaces, but not both",
        2,
        0,
        4,
      ),
      (
        "foo:\n\t\techo\n\t echo\n",
        "found a mix of tabs and spaces in leading whitespace: `␉␠`\nleading whitespace may consist of tabs or spaces, but not both",
        2,
        0,
        2,
      ),
      (
        "x := a\n \t b\n",
        "found a mix of tabs and spaces in leading whitespace: `␠␉␠`\nleading whitespace may consist of tabs or spaces, but not both",
        1,
        0,
        3,
      ),
      (
        "foo:\n    echo\n\t\t\t\t\techo\n",
        "recipe line has inconsistent leading whitespace, started with `␠␠␠␠` but found line with `␉␉␉␉␉`",
        2,
        0,
        5,
      ),
      (
        "foo:\n    echo\n  echo\n",
        "recipe line has inconsistent leading whitespace, started with `␠␠␠␠` but found line with `␠␠`",
        2,
        0,
        2,
      ),
      (
        "a := b\n    c\n  d\n",
        "recipe line has inconsistent leading whitespace, started with `␠␠␠␠` but found line with `␠␠`",
        2,
        0,
        2,
      ),
      (
        "a := b\n  c\n\td\n",
        "recipe line has inconsistent leading whitespace, started with `␠␠` but found line with `␉`",
        2,
        0,
        1,
      ),
    ];
    for &(src, message, line, column, length) in cases {
      let source = Source::new(src, "justfile");
      let error = match lex(&source) {
        Ok(tokens) => panic!("lexing {src:?} succeeded: {tokens:?}"),
        Err(error) => error,
      };
      assert_eq!(error.to_string(), message, "message for {src:?}");
      assert_eq!(
        (error.token.line as usize, error.token.column(), error.token.length as usize),
        (line, column, length),
        "caret for {src:?}"
      );
      assert_eq!(error.token.offset as usize, offset_of(src, line, column), "offset for {src:?}");
    }
  }

  fn offset_of(src: &str, line: usize, column: usize) -> usize {
    let line_start: usize = src.split_inclusive('\n').take(line).map(str::len).sum();
    line_start + column
  }

  /// Every token of `src` from a `Lexer` (all, or only significant ones),
  /// through `Eof` and one more `Eof`, or the first error.
  fn pull(src: &str, significant: bool) -> (Vec<Token<'static>>, Option<String>) {
    // Test tokens live for the whole test process.
    let source: &'static Source = Box::leak(Box::new(Source::new(src, "justfile")));
    let mut lexer = if significant { Lexer::significant(source) } else { Lexer::new(source) };
    let mut tokens = Vec::new();
    loop {
      match lexer.next_token() {
        Ok(token) if token.kind == Eof && tokens.last().is_some_and(|t: &Token| t.kind == Eof) => {
          tokens.push(token);
          return (tokens, None);
        }
        Ok(token) => tokens.push(token),
        Err(error) => return (tokens, Some(error.to_string())),
      }
    }
  }

  #[test]
  fn tokens_span_batches() {
    let src = "x := 'a' + \"b\" # c\nfoo arg='d':\n  echo {{arg}} {{{{ e\n\n".repeat(200);
    let (all, error) = pull(&src, false);
    assert_eq!(error, None);
    let rebuilt: String = all.iter().map(Token::lexeme).collect();
    assert_eq!(rebuilt, src);
    assert_eq!(all.len(), 200 * 28 + 2);
    let (significant, error) = pull(&src, true);
    assert_eq!(error, None);
    let expected: Vec<Token> = all.into_iter().filter(|t| t.kind != Whitespace).collect();
    let shape = |t: &Token| (t.kind, t.offset, t.length, t.line, t.column() as u32);
    assert_eq!(
      significant.iter().map(shape).collect::<Vec<_>>(),
      expected.iter().map(shape).collect::<Vec<_>>()
    );
    assert_eq!(expected.last().map(|t| (t.kind, t.line, t.column() as u32)), Some((Eof, 799, 1)));
  }

  #[test]
  fn dedents_beyond_a_batch() {
    let depth = 600;
    let mut src = String::from("a\n");
    for level in 1..=depth {
      src += &" ".repeat(level);
      src += "b\n";
    }
    for significant in [false, true] {
      let (tokens, error) = pull(&src, significant);
      assert_eq!(error, None);
      let dedents: Vec<&Token> = tokens.iter().filter(|t| t.kind == Dedent).collect();
      assert_eq!(dedents.len(), depth);
      assert!(dedents.iter().all(|t| (t.line, t.column() as u32) == (600, 602)));
      let kinds: Vec<TokenKind> = tokens.iter().rev().take(depth + 2).map(|t| t.kind).collect();
      assert_eq!(kinds[..2], [Eof, Eof]);
      assert!(kinds[2..].iter().all(|kind| *kind == Dedent));
    }
    let (tokens, _) = pull(&src, false);
    assert_eq!(tokens.iter().map(Token::lexeme).collect::<String>(), src);
  }

  #[test]
  fn error_after_a_batch_follows_the_tokens_before_it() {
    let src = format!("{}x := %\n", "a := b\n".repeat(300));
    let (tokens, error) = pull(&src, true);
    assert_eq!(error.as_deref(), Some("unknown start of token '%'"));
    assert_eq!(tokens.len(), 300 * 4 + 2);
    assert_eq!(
      tokens.last().map(|t| (t.kind, t.line, t.column() as u32)),
      Some((ColonEquals, 300, 2))
    );
  }

  /// Every significant token of `src` read through `refill`, keeping the
  /// last `keep` unread tokens of each batch, and what `lex_rest` reports.
  fn refilled(src: &str, keep: usize) -> (Vec<Token<'static>>, Option<String>) {
    // Test tokens live for the whole test process.
    let source: &'static Source = Box::leak(Box::new(Source::new(src, "justfile")));
    let mut lexer = Lexer::significant(source);
    let mut tokens = Vec::new();
    let mut len = lexer.refill(0);
    loop {
      let read = len.saturating_sub(keep).max(1);
      tokens.extend_from_slice(&lexer.batch()[..read]);
      if tokens.last().is_some_and(|t| t.kind == Eof) {
        return (tokens, lexer.lex_rest().map(|error| error.to_string()));
      }
      len = lexer.refill(read);
    }
  }

  #[test]
  fn refill_reads_every_token_in_place() {
    let src = "x := 'a' + \"b\" # c\nfoo arg='d':\n  echo {{arg}} {{{{ e\n\n".repeat(200);
    let (expected, error) = pull(&src, true);
    assert_eq!(error, None);
    for keep in [0, 1, 4] {
      let (tokens, error) = refilled(&src, keep);
      assert_eq!(error, None);
      // Each call leaks its own source: compare all but the source.
      let shape = |t: &Token| (t.kind, t.offset, t.length, t.line);
      let expected = &expected[..expected.len() - 1];
      assert_eq!(tokens.len(), expected.len(), "keeping {keep}");
      let mismatch = tokens.iter().zip(expected).position(|(a, b)| shape(a) != shape(b));
      assert_eq!(mismatch, None, "keeping {keep}");
    }
  }

  #[test]
  fn refill_ends_at_a_lexical_error_with_an_eof() {
    let src = format!("{}x := %\n", "a := b\n".repeat(300));
    let (tokens, error) = refilled(&src, 3);
    assert_eq!(error.as_deref(), Some("unknown start of token '%'"));
    assert_eq!(tokens.len(), 300 * 4 + 3);
    assert_eq!(tokens[tokens.len() - 2].kind, ColonEquals);
  }

  #[test]
  fn lex_rest_finds_an_error_past_the_tokens_read() {
    let src = format!("{}x := %\n", "a := b\n".repeat(300));
    let source: &'static Source = Box::leak(Box::new(Source::new(src, "justfile")));
    let mut lexer = Lexer::significant(source);
    assert_eq!(lexer.refill(0), BATCH);
    assert_eq!(
      lexer.lex_rest().map(|error| error.to_string()).as_deref(),
      Some("unknown start of token '%'")
    );
  }

  #[test]
  fn identifier_length_stops_at_the_first_byte_no_identifier_continues() {
    for byte in 0..=u8::MAX {
      for at in 1..20 {
        let mut text = vec![b'a'; 24];
        text[at] = byte;
        let expected = if info(byte).continues_identifier { 24 } else { at };
        assert_eq!(identifier_length(&text), expected, "byte {byte:#x} at {at}");
        assert_eq!(identifier_length(&text[..=at]), expected.min(at + 1), "byte {byte:#x} last");
      }
    }
  }

  #[test]
  fn lexemes_rebuild_source() {
    let sources = [
      "set shell := ['bash', '-c']\n\n# doc\n[private]\nbuild target='x' *args: (dep 'a') && post\n  @echo {{target}} {{{{ }}\n  -cc {{ if a =~ 'b' { f'{{c}}' } else { `d` } }}\n\npost:\n\techo\n",
      "x := \"\"\"\n  a\n  \"\"\"\ny := ```\n  ls\n```\n",
      "a:\r\n  echo\r\n\r\nb: a\r\n",
      "mod? foo 'bar.just'\nimport 'x'\nalias b := a::c\n",
    ];
    for src in sources {
      let tokens = lex_ok(src);
      let rebuilt: String = tokens.iter().map(Token::lexeme).collect();
      assert_eq!(rebuilt, src);
      assert_eq!(tokens.last().map(|t| t.kind), Some(Eof));
    }
  }

  /// A small deterministic generator of justfile-like text.
  struct Fragments(u64);

  impl Fragments {
    fn below(&mut self, n: usize) -> usize {
      self.0 =
        self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
      ((self.0 >> 33) as usize) % n
    }

    fn text(&mut self) -> String {
      const PIECES: &[&str] = &[
        "a",
        "foo",
        "x-y_1",
        "f",
        "f'",
        "f\"",
        "'s'",
        "\"d\\\"\"",
        "'''t\n'''",
        "\"\"\"u\n\"\"\"",
        "`c`",
        "```\nb\n```",
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\n\n",
        "\n  ",
        "\n\t",
        "\n    ",
        ":",
        ":=",
        "::",
        "=",
        "==",
        "=~",
        "!",
        "!=",
        "!~",
        "+",
        "++",
        "*",
        "/",
        ",",
        "?",
        "@",
        "$",
        "&&",
        "&",
        "||",
        "|",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "{{",
        "}}",
        "{{{{",
        "{{ x }}",
        "{{y}}",
        "#",
        "# c\n",
        "\\\n",
        "\\",
        "\u{feff}",
        "é",
        "%",
        "a:\n  echo ",
        "b x='1':\n\techo {{x}}\n",
        "\nc:\n    {{ f(\"{{\") }} z\n\n",
        "set y := true\n",
      ];
      let count = self.below(60);
      (0..count).map(|_| PIECES[self.below(PIECES.len())]).collect()
    }
  }

  /// The kind, offset, length and line of a token.
  fn shape(token: &Token) -> (TokenKind, u32, u32, u32) {
    (token.kind, token.offset, token.length, token.line)
  }

  #[test]
  fn batches_lex_as_the_reference_lexer_does() {
    let mut fragments = Fragments(7);
    for _ in 0..4000 {
      let text = fragments.text();
      let src = text.repeat(1 + fragments.below(3) * 40);
      let source: &'static Source = Box::leak(Box::new(Source::new(&src, "justfile")));
      for significant in [false, true] {
        let new = if significant { Lexer::significant } else { Lexer::new };
        let (expected, error) = new(source).lex_by_reference();
        let expected_error = error.map(|error| (error.to_string(), shape(&error.token)));
        let mut lexer = new(source);
        let mut tokens = Vec::new();
        let error = loop {
          match lexer.next_token() {
            Ok(token) => {
              tokens.push(shape(&token));
              if token.kind == Eof {
                break None;
              }
            }
            Err(error) => break Some((error.to_string(), shape(&error.token))),
          }
        };
        assert_eq!(tokens, expected.iter().map(shape).collect::<Vec<_>>(), "tokens of {src:?}");
        assert_eq!(error, expected_error, "error of {src:?}");
      }
    }
  }
}
