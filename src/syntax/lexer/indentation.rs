//! Indentation: the start of a line, indents and dedents, recipe bodies.

use super::*;

impl<'src> Lexer<'src> {
  // ---- indentation ----

  pub(super) fn current_level(&self) -> Level<'src> {
    self.levels.last().copied().unwrap_or(Level { whitespace: b"", body: false })
  }

  pub(super) fn update_body_text(&mut self) {
    self.body_text =
      self.delimiters.is_empty() && self.interpolation.is_none() && self.current_level().body;
  }

  /// Pop levels until `depth + 1` remain, one `Dedent` per popped level.
  #[inline(never)]
  pub(super) fn dedent_to(&mut self, depth: usize) {
    while self.levels.len() > depth + 1 {
      self.levels.pop();
      self.colon_since_dedent = false;
      self.within_line(0, TokenKind::Dedent);
    }
    self.update_body_text();
  }

  /// The indentation of a line: dedents, then its whitespace or `Indent`.
  #[inline(always)]
  pub(super) fn lex_line_start(&mut self) -> LexResult<'src> {
    if self.levels.len() == 1 && !matches!(self.peek(0), b' ' | b'\t') {
      return Ok(());
    }
    self.lex_indentation()
  }

  /// `lex_line_start` for a line that is indented or inside an indented block.
  #[inline(never)]
  pub(super) fn lex_indentation(&mut self) -> LexResult<'src> {
    let rest = self.rest();
    let width = blank_width(rest);
    let (whitespace, after) = rest.split_at(width);

    if matches!(after, [] | [b'\n', ..] | [b'\r', b'\n', ..]) {
      if self.next_content_at_column_zero() {
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

  /// Whether the first byte after the blank lines at the cursor starts a
  /// line; the answer holds for every blank line of the run.
  fn next_content_at_column_zero(&mut self) -> bool {
    let (end, answer) = self.blank_run;
    if self.offset < end {
      return answer;
    }
    let rest = self.rest();
    let length = blank_run_length(rest);
    self.blank_run = (self.offset + length, next_content_at_column_zero(rest, length));
    self.blank_run.1
  }

  /// The error for a line whose indentation neither matches the current
  /// level, nor returns to an enclosing one, nor opens a new one.
  #[cold]
  #[inline(never)]
  pub(super) fn indentation_error(
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
}
