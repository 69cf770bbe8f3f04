//! The batch loop: `fill_batch`, `fill` and the hot paths `fill` inlines (body text, line
//! ends, indentation), which handle the common tokens on a cursor kept in
//! registers and leave the rest to the general methods.

use super::*;

impl<'src> Lexer<'src> {
  /// Lex until the batch is full or the source ends.
  pub(super) fn fill_batch(&mut self) -> LexResult<'src> {
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
  pub(super) fn fill<const SKIP: bool>(&mut self) -> LexResult<'src> {
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
  pub(super) fn cursor(&self) -> Cursor<'src> {
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
  pub(super) fn store(&mut self, c: &Cursor<'src>) {
    self.offset = c.offset;
    self.line = c.line;
    self.len = c.len;
    self.body_text = c.body_text;
  }

  /// Run a general lexing method from `fill`: the uncommon tokens, and
  /// errors.
  #[inline(always)]
  pub(super) fn general(
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
  pub(super) fn emit(
    &mut self,
    c: &mut Cursor<'src>,
    kind: TokenKind,
    length: usize,
  ) -> Token<'src> {
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
  pub(super) fn blank<const SKIP: bool>(&mut self, c: &mut Cursor<'src>, width: usize) {
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
  pub(super) fn hot_body_text<const SKIP: bool>(
    &mut self,
    c: &mut Cursor<'src>,
  ) -> LexResult<'src> {
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
  pub(super) fn hot_line_end<const SKIP: bool>(
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
  pub(super) fn hot_indentation<const SKIP: bool>(
    &mut self,
    c: &mut Cursor<'src>,
  ) -> LexResult<'src> {
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
  pub(super) fn hot_dedent_all(&mut self, c: &mut Cursor<'src>) {
    while self.levels.len() > 1 {
      self.levels.pop();
      self.colon_since_dedent = false;
      self.emit(c, TokenKind::Dedent, 0);
    }
    c.body_text = false;
  }

  #[inline(never)]
  pub(super) fn finish(&mut self) -> LexResult<'src> {
    if let Some(opener) = self.interpolation {
      return Err(lex_error(opener, LexErrorKind::UnterminatedInterpolation));
    }
    self.dedent_to(0);
    self.done = true;
    let eof = self.token_at(TokenKind::Eof, self.position(), 0);
    self.push(eof);
    Ok(())
  }
}
