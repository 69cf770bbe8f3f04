//! Strings, backticks and format strings.

use super::*;

impl<'src> Lexer<'src> {
  // ---- strings ----

  #[inline(never)]
  pub(super) fn lex_string(&mut self) -> LexResult<'src> {
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

  pub(super) fn lex_backtick(&mut self) -> LexResult<'src> {
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
  pub(super) fn quoted(&mut self, scan: StringScan, kind: TokenKind) {
    self.within_line(scan.length, kind);
    // A closing quote follows, so no `\n` in it is the source's last byte.
    self.line += scan.newlines;
  }

  /// The string after an `f` prefix: a plain string when it closes before any
  /// interpolation, else a `FormatStringStart` opening an f-string delimiter.
  #[inline(never)]
  pub(super) fn lex_format_string_start(&mut self, quote: Quote) -> LexResult<'src> {
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
  pub(super) fn lex_format_string_continuation(&mut self, quote: Quote) -> LexResult<'src> {
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
