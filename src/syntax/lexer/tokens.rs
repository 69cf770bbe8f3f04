//! Normal mode: operators, identifiers, comments, delimiters, line ends;
//! and the reference lexer `fill` must agree with.

use super::*;

impl<'src> Lexer<'src> {
  // ---- the reference lexer ----

  /// Lex the whole source with the general methods alone, a byte at a
  /// time: what `fill` must agree with. The tokens lexed, and the error.
  #[cfg(test)]
  pub(super) fn lex_by_reference(mut self) -> (Vec<Token<'src>>, Option<Box<SyntaxError<'src>>>) {
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
  pub(super) fn lex_reference_body_text(&mut self) -> LexResult<'src> {
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
  pub(super) fn lex_normal(&mut self, byte: u8) -> LexResult<'src> {
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
  pub(super) fn lex_other(&mut self) -> LexResult<'src> {
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
  pub(super) fn lex_doubled(&mut self, c: u8, kind: TokenKind) -> LexResult<'src> {
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

  pub(super) fn lex_whitespace(&mut self) {
    let width = blank_width(self.rest());
    self.whitespace_within_line(width);
  }

  /// An `Eol` of `length` bytes (its last is the `\n`), then the next
  /// line's indentation.
  #[inline(always)]
  pub(super) fn eol(&mut self, length: usize) -> LexResult<'src> {
    self.within_line(length, TokenKind::Eol);
    self.newline_at(self.offset - 1);
    self.lex_line_start()
  }

  /// A line end: `Eol`, or plain whitespace inside a delimiter or interpolation.
  #[inline(always)]
  pub(super) fn lex_line_end(&mut self, length: usize) -> LexResult<'src> {
    if self.delimiters.is_empty() && self.interpolation.is_none() {
      return self.eol(length);
    }
    self.whitespace_within_line(length);
    self.newline_at(self.offset - 1);
    Ok(())
  }

  pub(super) fn lex_comment(&mut self) {
    let length = comment_length(self.rest());
    self.within_line(length, TokenKind::Comment);
  }

  /// `\` + line end (+ the next line's leading blanks) continues the line.
  #[inline(never)]
  pub(super) fn lex_backslash(&mut self) -> LexResult<'src> {
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
  pub(super) fn lex_identifier(&mut self) -> LexResult<'src> {
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

  pub(super) fn lex_open(&mut self, kind: DelimiterKind, token_kind: TokenKind) {
    let opener = self.within_line(1, token_kind);
    self.delimiters.push(Delimiter { kind, opener });
    self.body_text = false;
  }

  pub(super) fn lex_close(&mut self, close: u8) -> LexResult<'src> {
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
}
