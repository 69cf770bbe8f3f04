//! The lexer: source text → tokens (language.md §1–§3).
//!
//! Three situations decide how the next bytes are read:
//! * at the start of a line outside any delimiter: indentation (§2.7);
//! * inside a recipe body, outside an interpolation: raw text (§2.8);
//! * everywhere else: normal tokens (§2.2).

use std::path::Path;

use super::compile_error::{CompileError, CompileErrorKind};
use super::lex_error::LexErrorKind;
use super::token::{Token, TokenKind};

/// Tokenize a whole file. Concatenating the lexemes of the returned tokens
/// reproduces `src` exactly; the last token is `Eof`.
pub fn lex<'src>(src: &'src str, path: &'src Path) -> Result<Vec<Token<'src>>, CompileError<'src>> {
  Lexer::new(src, path).run()
}

type LexResult<'src, T = ()> = Result<T, CompileError<'src>>;

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

struct Lexer<'src> {
  src: &'src str,
  path: &'src Path,
  tokens: Vec<Token<'src>>,
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
  fn new(src: &'src str, path: &'src Path) -> Self {
    Self {
      src,
      path,
      tokens: Vec::new(),
      start: Position::default(),
      cursor: Position::default(),
      levels: vec![Level { whitespace: "", body: false }],
      delimiters: Vec::new(),
      interpolation: None,
      colon_since_dedent: false,
      at_line_start: true,
    }
  }

  fn run(mut self) -> LexResult<'src, Vec<Token<'src>>> {
    loop {
      if self.at_line_start {
        self.at_line_start = false;
        self.lex_line_start()?;
      }
      if self.rest().is_empty() {
        break;
      }
      if self.in_body_text() {
        self.lex_body_text();
      } else {
        self.lex_normal()?;
      }
    }
    self.finish()
  }

  fn finish(mut self) -> LexResult<'src, Vec<Token<'src>>> {
    if let Some(opener) = self.interpolation {
      return Err(lex_error(opener, LexErrorKind::UnterminatedInterpolation));
    }
    self.dedent_to(0);
    self.emit(TokenKind::Eof);
    Ok(self.tokens)
  }

  // ---- positions and token emission ----

  fn rest(&self) -> &'src str {
    &self.src[self.cursor.offset..]
  }

  fn next_char(&self) -> Option<char> {
    self.rest().chars().next()
  }

  /// `position` moved forward over `bytes` bytes. A final `\n` of the source
  /// does not start a new line (language.md §1.3).
  fn moved(&self, mut position: Position, bytes: usize) -> Position {
    let end = position.offset + bytes;
    for c in self.src[position.offset..end].chars() {
      position.offset += c.len_utf8();
      if c == '\n' && position.offset < self.src.len() {
        position.line += 1;
        position.column = 0;
      } else {
        position.column += c.len_utf8();
      }
    }
    position
  }

  fn advance(&mut self, bytes: usize) {
    self.cursor = self.moved(self.cursor, bytes);
  }

  fn token_at(&self, kind: TokenKind, position: Position, length: usize) -> Token<'src> {
    Token {
      kind,
      src: self.src,
      offset: position.offset,
      length,
      line: position.line,
      column: position.column,
      path: self.path,
    }
  }

  /// Emit the bytes between `start` and the cursor as a token of `kind`.
  fn emit(&mut self, kind: TokenKind) -> Token<'src> {
    let token = self.token_at(kind, self.start, self.cursor.offset - self.start.offset);
    match kind {
      TokenKind::Colon => self.colon_since_dedent = true,
      TokenKind::Dedent => self.colon_since_dedent = false,
      _ => {}
    }
    self.tokens.push(token);
    self.start = self.cursor;
    token
  }

  fn advance_and_emit(&mut self, bytes: usize, kind: TokenKind) -> Token<'src> {
    self.advance(bytes);
    self.emit(kind)
  }

  /// An error whose caret covers `length` bytes `skip` bytes after the cursor.
  fn error_ahead(&self, skip: usize, length: usize, kind: LexErrorKind) -> CompileError<'src> {
    let position = self.moved(self.cursor, skip);
    lex_error(self.token_at(TokenKind::Whitespace, position, length), kind)
  }

  fn error_here(&self, length: usize, kind: LexErrorKind) -> CompileError<'src> {
    self.error_ahead(0, length, kind)
  }

  // ---- indentation (§2.7) ----

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

  /// Rules 5–9 of §2.7: errors for a line that neither matches nor dedents.
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

  // ---- body text (§2.8) ----

  fn lex_body_text(&mut self) {
    let rest = self.rest();
    let mut length = 0;
    while let Some(c) = rest[length..].chars().next() {
      let tail = &rest[length..];
      if tail.starts_with("{{{{") {
        length += 4;
      } else if starts_with_line_end(tail) || tail.starts_with("{{") {
        break;
      } else {
        length += c.len_utf8();
      }
    }
    if length > 0 {
      self.advance_and_emit(length, TokenKind::Text);
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

  // ---- normal mode (§2.2) ----

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
    self.advance_and_emit(1, kind);
  }

  /// The first of `choices` whose text starts the rest, else `fallback` (one byte).
  fn lex_choice(&mut self, choices: &[(&str, TokenKind)], fallback: TokenKind) {
    let rest = self.rest();
    match choices.iter().find(|(text, _)| rest.starts_with(text)) {
      Some((text, kind)) => self.advance_and_emit(text.len(), *kind),
      None => self.advance_and_emit(1, fallback),
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
    let width = rest.find(|c| c != ' ' && c != '\t').unwrap_or(rest.len());
    self.advance_and_emit(width, TokenKind::Whitespace);
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
    let mut length = 0;
    while let Some(c) = rest[length..].chars().next() {
      if starts_with_line_end(&rest[length..]) {
        break;
      }
      length += c.len_utf8();
    }
    self.advance_and_emit(length, TokenKind::Comment);
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
    let length = rest.find(|c| !is_name_continue(c)).unwrap_or(rest.len());
    let token = self.advance_and_emit(length, TokenKind::Identifier);
    if token.lexeme() == "f" {
      if let Some(quote) = Quote::opening(self.rest()) {
        self.lex_format_string_start(quote)?;
      }
    }
    Ok(())
  }

  // ---- delimiters (§2.1) ----

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
          open_line: delimiter.opener.line + 1,
        },
      )),
      None => Err(self.error_here(1, LexErrorKind::UnexpectedClosingDelimiter { close })),
    }
  }

  // ---- strings (§3.1, §3.6) ----

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

fn lex_error(token: Token<'_>, kind: LexErrorKind) -> CompileError<'_> {
  CompileError::new(token, CompileErrorKind::Lex(kind))
}

fn is_name_start(c: char) -> bool {
  c.is_ascii_alphabetic() || c == '_'
}

fn is_name_continue(c: char) -> bool {
  c.is_ascii_alphanumeric() || c == '_' || c == '-'
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

fn starts_with_line_end(text: &str) -> bool {
  line_end_length(text).is_some()
}

/// Rule 1 of §2.7: the first character after the blank lines starting at
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
