//! The lexer: source text → tokens.
//!
//! Three situations decide how the next bytes are read:
//! * at the start of a line outside any delimiter: indentation;
//! * inside a recipe body, outside an interpolation: raw text;
//! * everywhere else: normal tokens.

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

type LexResult<'src, T = ()> = Result<T, SyntaxError<'src>>;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Position {
  offset: usize,
  line: usize,
  column: usize,
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
  fn opening(text: &str) -> Option<Quote> {
    [Quote::TripleSingle, Quote::TripleDouble, Quote::Single, Quote::Double]
      .into_iter()
      .find(|quote| text.starts_with(quote.delimiter()))
  }

  fn delimiter(self) -> &'static str {
    match self {
      Quote::Single => "'",
      Quote::Double => "\"",
      Quote::TripleSingle => "'''",
      Quote::TripleDouble => "\"\"\"",
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

  fn closed_by(self, close: char) -> bool {
    matches!(
      (self, close),
      (DelimiterKind::Paren, ')') | (DelimiterKind::Bracket, ']') | (DelimiterKind::Brace, '}')
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
  whitespace: &'src str,
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

/// An incremental lexer: `next_token` lexes only as far as needed, so the
/// parser can consume tokens without the whole file's tokens in memory.
pub struct Lexer<'src> {
  src: &'src str,
  source: &'src Source,
  /// Tokens lexed but not yet handed out.
  tokens: std::collections::VecDeque<Token<'src>>,
  /// Set once `Eof` has been emitted.
  done: bool,
  /// Hand out only significant tokens (the parser ignores whitespace).
  skip_whitespace: bool,
  /// Start of the token being lexed.
  start: Position,
  cursor: Position,
  levels: Vec<Level<'src>>,
  delimiters: Vec<Delimiter<'src>>,
  /// The `{{` of the open recipe-body interpolation, if any.
  interpolation: Option<Token<'src>>,
  /// Whether a `:` was lexed since the last dedent: the next indent starts a body.
  colon_since_dedent: bool,
  at_line_start: bool,
}

impl<'src> Lexer<'src> {
  pub fn new(source: &'src Source) -> Self {
    Self {
      src: &source.text,
      source,
      skip_whitespace: false,
      tokens: std::collections::VecDeque::new(),
      done: false,
      start: Position::default(),
      cursor: Position::default(),
      levels: vec![Level { whitespace: "", body: false }],
      delimiters: Vec::new(),
      interpolation: None,
      colon_since_dedent: false,
      at_line_start: true,
    }
  }

  /// A lexer that hands out only significant tokens: what the parser reads.
  pub fn significant(source: &'src Source) -> Self {
    Self { skip_whitespace: true, ..Self::new(source) }
  }

  /// The file being lexed.
  pub fn source(&self) -> &'src Source {
    self.source
  }

  /// The next token; after `Eof`, `Eof` again.
  pub fn next_token(&mut self) -> LexResult<'src, Token<'src>> {
    loop {
      if let Some(token) = self.tokens.pop_front() {
        return Ok(token);
      }
      if self.done {
        return Ok(self.token_at(TokenKind::Eof, self.cursor, 0));
      }
      self.step()?;
    }
  }

  /// Lex one line start, text run or normal token (or finish at the end).
  fn step(&mut self) -> LexResult<'src> {
    if self.at_line_start {
      self.at_line_start = false;
      self.lex_line_start()?;
    }
    if self.rest().is_empty() {
      return self.finish();
    }
    if self.in_body_text() {
      self.lex_body_text();
      Ok(())
    } else {
      self.lex_normal()
    }
  }

  fn finish(&mut self) -> LexResult<'src> {
    if let Some(opener) = self.interpolation {
      return Err(lex_error(opener, LexErrorKind::UnterminatedInterpolation));
    }
    self.dedent_to(0);
    self.emit(TokenKind::Eof);
    self.done = true;
    Ok(())
  }

  // ---- positions and token emission ----

  fn rest(&self) -> &'src str {
    &self.src[self.cursor.offset..]
  }

  fn next_char(&self) -> Option<char> {
    self.rest().chars().next()
  }

  /// `position` moved forward over `bytes` bytes. A final `\n` of the source
  /// does not start a new line.
  fn moved(&self, mut position: Position, bytes: usize) -> Position {
    let end = position.offset + bytes;
    let slice = &self.src.as_bytes()[position.offset..end];
    // A `\n` that is the source's last byte does not start a line.
    let counted = if end == self.src.len() && slice.last() == Some(&b'\n') {
      &slice[..slice.len() - 1]
    } else {
      slice
    };
    match counted.iter().rposition(|&byte| byte == b'\n') {
      None => position.column += bytes,
      Some(last) => {
        position.line += counted.iter().filter(|&&byte| byte == b'\n').count();
        position.column = bytes - last - 1;
      }
    }
    position.offset = end;
    position
  }

  fn advance(&mut self, bytes: usize) {
    self.cursor = self.moved(self.cursor, bytes);
  }

  fn token_at(&self, kind: TokenKind, position: Position, length: usize) -> Token<'src> {
    Token::new(kind, self.source, position.offset, length, position.line, position.column)
  }

  /// Emit the bytes between `start` and the cursor as a token of `kind`.
  fn emit(&mut self, kind: TokenKind) -> Token<'src> {
    let token = self.token_at(kind, self.start, self.cursor.offset - self.start.offset);
    match kind {
      TokenKind::Colon => self.colon_since_dedent = true,
      TokenKind::Dedent => self.colon_since_dedent = false,
      _ => {}
    }
    if kind != TokenKind::Whitespace || !self.skip_whitespace {
      self.tokens.push_back(token);
    }
    self.start = self.cursor;
    token
  }

  fn advance_and_emit(&mut self, bytes: usize, kind: TokenKind) -> Token<'src> {
    self.advance(bytes);
    self.emit(kind)
  }

  /// `advance_and_emit` for a token known to hold no line break, which
  /// needs no scan for one.
  fn emit_within_line(&mut self, bytes: usize, kind: TokenKind) -> Token<'src> {
    debug_assert!(!self.rest().as_bytes()[..bytes].contains(&b'\n'));
    self.cursor.offset += bytes;
    self.cursor.column += bytes;
    self.emit(kind)
  }

  /// An error whose caret covers `length` bytes `skip` bytes after the cursor.
  fn error_ahead(&self, skip: usize, length: usize, kind: LexErrorKind) -> SyntaxError<'src> {
    let position = self.moved(self.cursor, skip);
    lex_error(self.token_at(TokenKind::Whitespace, position, length), kind)
  }

  fn error_here(&self, length: usize, kind: LexErrorKind) -> SyntaxError<'src> {
    self.error_ahead(0, length, kind)
  }

  // ---- indentation ----

  fn current_level(&self) -> Level<'src> {
    self.levels.last().copied().unwrap_or(Level { whitespace: "", body: false })
  }

  fn in_body_text(&self) -> bool {
    self.delimiters.is_empty() && self.interpolation.is_none() && self.current_level().body
  }

  /// Pop levels until `depth + 1` remain, one `Dedent` per popped level.
  fn dedent_to(&mut self, depth: usize) {
    while self.levels.len() > depth + 1 {
      self.levels.pop();
      self.emit(TokenKind::Dedent);
    }
  }

  fn emit_whitespace(&mut self, bytes: usize) {
    if bytes > 0 {
      self.advance_and_emit(bytes, TokenKind::Whitespace);
    }
  }

  fn lex_line_start(&mut self) -> LexResult<'src> {
    let rest = self.rest();
    let width = rest.find(|c| c != ' ' && c != '\t').unwrap_or(rest.len());
    let whitespace = &rest[..width];
    let after = &rest[width..];

    if after.is_empty() || after.starts_with('\n') || after.starts_with("\r\n") {
      if next_content_at_column_zero(rest) {
        self.dedent_to(0);
      }
      self.emit_whitespace(width);
      return Ok(());
    }

    let current = self.current_level();
    if whitespace == current.whitespace {
      self.emit_whitespace(width);
      return Ok(());
    }
    if let Some(depth) = self.levels.iter().position(|level| level.whitespace == whitespace) {
      self.dedent_to(depth);
      self.emit_whitespace(width);
      return Ok(());
    }
    if current.body && whitespace.starts_with(current.whitespace) {
      // The surplus is lexed as part of the line's text.
      self.emit_whitespace(current.whitespace.len());
      return Ok(());
    }
    self.check_indentation(whitespace, current)?;
    self.levels.push(Level { whitespace, body: self.colon_since_dedent });
    self.advance_and_emit(width, TokenKind::Indent);
    Ok(())
  }

  /// Errors for a line whose indentation neither matches the current level
  /// nor returns to an enclosing one.
  fn check_indentation(&self, whitespace: &'src str, current: Level<'src>) -> LexResult<'src> {
    let mixed = |shown: &str| {
      self.error_here(
        shown.len(),
        LexErrorKind::MixedLeadingWhitespace { whitespace: shown.to_owned() },
      )
    };
    if current.body {
      // Spaces and tabs are one byte each, so bytes and characters agree.
      let head = &whitespace[..current.whitespace.len().min(whitespace.len())];
      if is_mixed(head) {
        return Err(mixed(head));
      }
    } else if is_mixed(whitespace) {
      return Err(mixed(whitespace));
    }
    if current.body || !whitespace.starts_with(current.whitespace) {
      return Err(self.error_here(
        whitespace.len(),
        LexErrorKind::InconsistentLeadingWhitespace {
          expected: current.whitespace.to_owned(),
          found: whitespace.to_owned(),
        },
      ));
    }
    Ok(())
  }

  // ---- body text ----

  fn lex_body_text(&mut self) {
    let rest = self.rest();
    let bytes = rest.as_bytes();
    let mut length = 0;
    // Only ASCII bytes stop the scan, so `length` stays on a char boundary.
    while let Some(&byte) = bytes.get(length) {
      match byte {
        b'{' if rest[length..].starts_with("{{{{") => length += 4,
        b'{' if bytes.get(length + 1) == Some(&b'{') => break,
        b'\n' => break,
        b'\r' if bytes.get(length + 1) == Some(&b'\n') => break,
        _ => length += 1,
      }
    }
    if length > 0 {
      self.emit_within_line(length, TokenKind::Text);
    }
    let rest = self.rest();
    if rest.starts_with("{{") {
      let opener = self.advance_and_emit(2, TokenKind::InterpolationStart);
      self.interpolation = Some(opener);
    } else if let Some(length) = line_end_length(rest) {
      self.advance_and_emit(length, TokenKind::Eol);
      self.at_line_start = true;
    }
  }

  // ---- normal mode ----

  fn lex_normal(&mut self) -> LexResult<'src> {
    let Some(c) = self.next_char() else {
      return Ok(());
    };
    match c {
      ' ' | '\t' => self.lex_whitespace(),
      '\n' => self.lex_line_end(1),
      '\r' if self.rest().starts_with("\r\n") => self.lex_line_end(2),
      '\r' => return Err(self.error_here(1, LexErrorKind::UnpairedCarriageReturn)),
      '#' => self.lex_comment(),
      '\\' => self.lex_backslash()?,
      '!' => self.lex_choice(
        &[("!=", TokenKind::BangEquals), ("!~", TokenKind::BangTilde)],
        TokenKind::Bang,
      ),
      '=' => self.lex_choice(
        &[("==", TokenKind::EqualsEquals), ("=~", TokenKind::EqualsTilde)],
        TokenKind::Equals,
      ),
      ':' => self.lex_choice(
        &[(":=", TokenKind::ColonEquals), ("::", TokenKind::ColonColon)],
        TokenKind::Colon,
      ),
      '+' => self.lex_choice(&[("++", TokenKind::PlusPlus)], TokenKind::Plus),
      '&' => self.lex_doubled('&', TokenKind::AmpersandAmpersand)?,
      '|' => self.lex_doubled('|', TokenKind::BarBar)?,
      '$' => self.lex_single(TokenKind::Dollar),
      '*' => self.lex_single(TokenKind::Asterisk),
      ',' => self.lex_single(TokenKind::Comma),
      '/' => self.lex_single(TokenKind::Slash),
      '?' => self.lex_single(TokenKind::QuestionMark),
      '@' => self.lex_single(TokenKind::At),
      '(' => self.lex_open(DelimiterKind::Paren, TokenKind::ParenL),
      '[' => self.lex_open(DelimiterKind::Bracket, TokenKind::BracketL),
      '{' => self.lex_open(DelimiterKind::Brace, TokenKind::BraceL),
      ')' | ']' | '}' => self.lex_close(c)?,
      '\'' | '"' => self.lex_string()?,
      '`' => self.lex_backtick()?,
      '\u{feff}' => {
        self.advance_and_emit(c.len_utf8(), TokenKind::ByteOrderMark);
      }
      c if is_name_start(c) => self.lex_identifier()?,
      c => {
        return Err(self.error_here(
          c.len_utf8(),
          LexErrorKind::UnknownStartOfToken { character: c.to_string() },
        ))
      }
    }
    Ok(())
  }

  fn lex_single(&mut self, kind: TokenKind) {
    self.emit_within_line(1, kind);
  }

  /// The first of `choices` whose text starts the rest, else `fallback` (one byte).
  fn lex_choice(&mut self, choices: &[(&str, TokenKind)], fallback: TokenKind) {
    let rest = self.rest();
    match choices.iter().find(|(text, _)| rest.starts_with(text)) {
      Some((text, kind)) => self.emit_within_line(text.len(), *kind),
      None => self.emit_within_line(1, fallback),
    };
  }

  /// `&&` / `||`: a lone `&` or `|` is an error pointing at what follows it.
  fn lex_doubled(&mut self, c: char, kind: TokenKind) -> LexResult<'src> {
    match self.rest()[1..].chars().next() {
      Some(next) if next == c => {
        self.advance_and_emit(2, kind);
        Ok(())
      }
      Some(next) => {
        Err(self.error_ahead(1, next.len_utf8(), LexErrorKind::ExpectedCharacter { expected: c }))
      }
      None => {
        Err(self.error_ahead(1, 0, LexErrorKind::ExpectedCharacterFoundEndOfFile { expected: c }))
      }
    }
  }

  fn lex_whitespace(&mut self) {
    let rest = self.rest();
    let width = rest.bytes().position(|byte| byte != b' ' && byte != b'\t').unwrap_or(rest.len());
    self.emit_within_line(width, TokenKind::Whitespace);
  }

  /// A line end: `Eol`, or plain whitespace inside a delimiter or interpolation.
  fn lex_line_end(&mut self, length: usize) {
    if self.delimiters.is_empty() && self.interpolation.is_none() {
      self.advance_and_emit(length, TokenKind::Eol);
      self.at_line_start = true;
    } else {
      self.advance_and_emit(length, TokenKind::Whitespace);
    }
  }

  fn lex_comment(&mut self) {
    let rest = self.rest();
    let bytes = rest.as_bytes();
    let mut length = 0;
    while let Some(&byte) = bytes.get(length) {
      match byte {
        b'\n' => break,
        b'\r' if bytes.get(length + 1) == Some(&b'\n') => break,
        _ => length += 1,
      }
    }
    self.emit_within_line(length, TokenKind::Comment);
  }

  /// `\` + line end (+ the next line's leading blanks) continues the line.
  fn lex_backslash(&mut self) -> LexResult<'src> {
    let after = &self.rest()[1..];
    if let Some(line_end) = line_end_length(after) {
      let blanks =
        after[line_end..].find(|c| c != ' ' && c != '\t').unwrap_or(after.len() - line_end);
      self.advance_and_emit(1 + line_end + blanks, TokenKind::Whitespace);
      return Ok(());
    }
    let kind = match after.chars().next() {
      None => LexErrorKind::UnexpectedEndOfFileInEscape,
      Some('\r') => LexErrorKind::UnpairedCarriageReturn,
      Some(character) => LexErrorKind::InvalidEscapeSequence { character },
    };
    Err(self.error_here(1, kind))
  }

  fn lex_identifier(&mut self) -> LexResult<'src> {
    let rest = self.rest();
    let length =
      rest.bytes().position(|byte| !IDENTIFIER_BYTE[usize::from(byte)]).unwrap_or(rest.len());
    let token = self.emit_within_line(length, TokenKind::Identifier);
    if token.lexeme() == "f" {
      if let Some(quote) = Quote::opening(self.rest()) {
        self.lex_format_string_start(quote)?;
      }
    }
    Ok(())
  }

  // ---- delimiters ----

  fn lex_open(&mut self, kind: DelimiterKind, token_kind: TokenKind) {
    let opener = self.advance_and_emit(1, token_kind);
    self.delimiters.push(Delimiter { kind, opener });
  }

  fn lex_close(&mut self, close: char) -> LexResult<'src> {
    if self.rest().starts_with("}}") {
      match self.delimiters.last() {
        Some(Delimiter { kind: DelimiterKind::FormatString(quote), .. }) => {
          return self.lex_format_string_continuation(*quote);
        }
        None if self.interpolation.is_some() => {
          self.advance_and_emit(2, TokenKind::InterpolationEnd);
          self.interpolation = None;
          return Ok(());
        }
        _ => {}
      }
    }
    let innermost = self.delimiters.last().copied();
    match innermost {
      Some(delimiter) if delimiter.kind.closed_by(close) => {
        self.delimiters.pop();
        let kind = match close {
          ')' => TokenKind::ParenR,
          ']' => TokenKind::BracketR,
          _ => TokenKind::BraceR,
        };
        self.advance_and_emit(1, kind);
        Ok(())
      }
      Some(delimiter) => Err(self.error_here(
        1,
        LexErrorKind::MismatchedClosingDelimiter {
          close,
          open: delimiter.kind.opener_text().to_owned(),
          // The `{{` of a format string ends its opening token.
          open_line: delimiter.opener.line as usize
            + delimiter.opener.lexeme().matches('\n').count()
            + 1,
        },
      )),
      None => Err(self.error_here(1, LexErrorKind::UnexpectedClosingDelimiter { close })),
    }
  }

  // ---- strings ----

  fn lex_string(&mut self) -> LexResult<'src> {
    let Some(quote) = Quote::opening(self.rest()) else {
      return Ok(());
    };
    let open = quote.delimiter().len();
    match scan_string(&self.rest()[open..], quote.delimiter(), quote.has_escapes()) {
      Some(length) => {
        self.advance_and_emit(open + length, TokenKind::StringToken);
        Ok(())
      }
      None => Err(self.error_here(open, LexErrorKind::UnterminatedString)),
    }
  }

  fn lex_backtick(&mut self) -> LexResult<'src> {
    let delimiter = if self.rest().starts_with("```") { "```" } else { "`" };
    let open = delimiter.len();
    match scan_string(&self.rest()[open..], delimiter, false) {
      Some(length) => {
        self.advance_and_emit(open + length, TokenKind::Backtick);
        Ok(())
      }
      None => Err(self.error_here(open, LexErrorKind::UnterminatedBacktick)),
    }
  }

  /// The string after an `f` prefix: a plain string when it closes before any
  /// interpolation, else a `FormatStringStart` opening an f-string delimiter.
  fn lex_format_string_start(&mut self, quote: Quote) -> LexResult<'src> {
    let open = quote.delimiter().len();
    match scan_format(&self.rest()[open..], quote) {
      FormatScan::Closed(length) => {
        self.advance_and_emit(open + length, TokenKind::StringToken);
      }
      FormatScan::Interpolation(length) => {
        let opener = self.advance_and_emit(open + length, TokenKind::FormatStringStart);
        self.delimiters.push(Delimiter { kind: DelimiterKind::FormatString(quote), opener });
      }
      FormatScan::Unterminated => {
        return Err(self.error_here(open, LexErrorKind::UnterminatedString))
      }
    }
    Ok(())
  }

  /// A `}}` closing an f-string interpolation, and the literal text after it.
  fn lex_format_string_continuation(&mut self, quote: Quote) -> LexResult<'src> {
    match scan_format(&self.rest()[2..], quote) {
      FormatScan::Closed(length) => {
        self.advance_and_emit(2 + length, TokenKind::FormatStringEnd);
        self.delimiters.pop();
      }
      FormatScan::Interpolation(length) => {
        self.advance_and_emit(2 + length, TokenKind::FormatStringContinue);
      }
      FormatScan::Unterminated => return Err(self.error_here(2, LexErrorKind::UnterminatedString)),
    }
    Ok(())
  }
}

fn lex_error(token: Token<'_>, kind: LexErrorKind) -> SyntaxError<'_> {
  SyntaxError::new(token, SyntaxErrorKind::Lex(kind))
}

fn is_name_start(c: char) -> bool {
  c.is_ascii_alphabetic() || c == '_'
}

fn is_mixed(whitespace: &str) -> bool {
  whitespace.contains(' ') && whitespace.contains('\t')
}

fn line_end_length(text: &str) -> Option<usize> {
  if text.starts_with('\n') {
    Some(1)
  } else if text.starts_with("\r\n") {
    Some(2)
  } else {
    None
  }
}

/// Whether the first character after the blank lines starting at
/// `text` begins a line (it follows a `\n` directly).
fn next_content_at_column_zero(text: &str) -> bool {
  match text.find(|c| !matches!(c, ' ' | '\t' | '\r' | '\n')) {
    Some(index) => index > 0 && text.as_bytes()[index - 1] == b'\n',
    None => false,
  }
}

/// Length of a string's content plus its closing `delimiter`, or `None` when
/// unterminated. With escapes, the character after a `\` never closes.
fn scan_string(text: &str, delimiter: &str, escapes: bool) -> Option<usize> {
  let mut index = 0;
  while let Some(c) = text[index..].chars().next() {
    if text[index..].starts_with(delimiter) {
      return Some(index + delimiter.len());
    }
    index += c.len_utf8();
    if escapes && c == '\\' {
      index += text[index..].chars().next().map_or(0, char::len_utf8);
    }
  }
  None
}

/// Scan a literal piece of a format string. `{{{{` is always an escaped
/// literal, even right after a `\`; otherwise the character after a `\`
/// (in `"` kinds) neither closes the string nor starts a `{{`.
fn scan_format(text: &str, quote: Quote) -> FormatScan {
  let delimiter = quote.delimiter();
  let mut index = 0;
  let mut escaped = false;
  while let Some(c) = text[index..].chars().next() {
    let tail = &text[index..];
    if tail.starts_with("{{{{") {
      index += 4;
      escaped = false;
      continue;
    }
    if escaped {
      escaped = false;
    } else if tail.starts_with(delimiter) {
      return FormatScan::Closed(index + delimiter.len());
    } else if tail.starts_with("{{") {
      return FormatScan::Interpolation(index + 2);
    } else if c == '\\' && quote.has_escapes() {
      escaped = true;
    }
    index += c.len_utf8();
  }
  FormatScan::Unterminated
}

/// The bytes that continue an identifier: ASCII letters, digits, `_` and `-`.
const IDENTIFIER_BYTE: [bool; 256] = {
  let mut table = [false; 256];
  let mut byte = 0;
  while byte < 256 {
    let b = byte as u8;
    table[byte] = b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    byte += 1;
  }
  table
};

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
        (token.kind, token.line as usize, token.column as usize),
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
        (error.token.line as usize, error.token.column as usize, error.token.length as usize),
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
}
