//! Byte-level scanning: what a run of bytes is, without the lexer's state.

use super::*;

/// Whether indentation (spaces and tabs only) holds both.
pub(super) fn is_mixed(whitespace: &[u8]) -> bool {
  whitespace.split_first().is_some_and(|(first, rest)| rest.iter().any(|byte| byte != first))
}

/// Equality of two runs of indentation, which are short: cheaper than a
/// call to `memcmp`.
pub(super) fn same_whitespace(a: &[u8], b: &[u8]) -> bool {
  a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Indentation (spaces and tabs) as text for a message.
pub(super) fn blanks_text(whitespace: &[u8]) -> String {
  String::from_utf8_lossy(whitespace).into_owned()
}

/// The length of the identifier starting `text`, whose first byte is known
/// to start one: four bytes a step while they last, then one.
pub(super) fn identifier_length(text: &[u8]) -> usize {
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
pub(super) fn operator(byte: u8, next: u8) -> Option<(usize, TokenKind)> {
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
pub(super) fn comment_length(text: &[u8]) -> usize {
  match memchr::memchr(b'\n', text) {
    Some(newline) if newline > 0 && text[newline - 1] == b'\r' => newline - 1,
    Some(newline) => newline,
    None => text.len(),
  }
}

/// Where the recipe text starting at `start` ends: at the next `{{`
/// (`{{{{` is text) or line end.
#[inline(always)]
pub(super) fn body_text_end(bytes: &[u8], start: usize) -> usize {
  start + body_text_length(bytes.get(start..).unwrap_or_default())
}

/// The length of the recipe text starting `text`.
#[inline(always)]
pub(super) fn body_text_length(text: &[u8]) -> usize {
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
pub(super) fn name_interpolation(bytes: &[u8], at: usize) -> Option<(usize, usize, usize)> {
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
pub(super) fn identifier_end(bytes: &[u8], start: usize) -> usize {
  start + identifier_length(bytes.get(start..).unwrap_or_default())
}

/// Where the spaces and tabs from `start` on end.
#[inline(always)]
pub(super) fn blank_end(bytes: &[u8], start: usize) -> usize {
  let mut end = start;
  while let Some(b' ' | b'\t') = bytes.get(end) {
    end += 1;
  }
  end
}

/// Pass a space the parser would not see anyway.
#[inline(always)]
pub(super) fn skip_space<const SKIP: bool>(c: &mut Cursor<'_>) {
  if SKIP && c.peek(0) == b' ' {
    c.offset += 1;
  }
}

/// The scan of the string starting `text`; `None` when unterminated.
#[inline(always)]
pub(super) fn string_scan(text: &[u8]) -> Option<StringScan> {
  let quote = Quote::opening(text)?;
  let delimiter = quote.delimiter();
  scan_string(text, delimiter.len(), delimiter, quote.has_escapes())
}

/// The number of spaces and tabs `text` starts with.
pub(super) fn blank_width(text: &[u8]) -> usize {
  text.iter().position(|&byte| byte != b' ' && byte != b'\t').unwrap_or(text.len())
}

pub(super) fn line_end_length(text: &[u8]) -> Option<usize> {
  match text {
    [b'\n', ..] => Some(1),
    [b'\r', b'\n', ..] => Some(2),
    _ => None,
  }
}

/// How many bytes of blank lines (spaces, tabs, line ends) start `text`.
pub(super) fn blank_run_length(text: &[u8]) -> usize {
  text.iter().position(|byte| !matches!(byte, b' ' | b'\t' | b'\r' | b'\n')).unwrap_or(text.len())
}

/// Whether the first character after the `length` bytes of blank lines
/// starting `text` begins a line (it follows a `\n` directly).
pub(super) fn next_content_at_column_zero(text: &[u8], length: usize) -> bool {
  length > 0 && length < text.len() && text[length - 1] == b'\n'
}

/// A string or backtick token: its length and the line breaks in it.
#[derive(Copy, Clone, Debug)]
pub(super) struct StringScan {
  pub(super) length: usize,
  pub(super) newlines: usize,
}

/// Scan the string starting `text` from its content (`open` bytes in) to
/// its closing `delimiter`, or `None` when unterminated. With escapes, the
/// character after a `\` never closes.
pub(super) fn scan_string(
  text: &[u8],
  open: usize,
  delimiter: &[u8],
  escapes: bool,
) -> Option<StringScan> {
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
pub(super) fn scan_format(text: &[u8], quote: Quote) -> FormatScan {
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
pub(super) enum ByteClass {
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
pub(super) struct ByteInfo {
  pub(super) class: ByteClass,
  /// Continues an identifier: an ASCII letter or digit, `_` or `-`.
  pub(super) continues_identifier: bool,
  /// A run of recipe text may stop at it: `{` (of `{{`), `\n`, `\r` (of `\r\n`).
  pub(super) text_stop: bool,
  /// A string scan must look at it: a quote, backtick, `\` or `\n`.
  pub(super) string_special: bool,
}

pub(super) const BYTE_INFO: [ByteInfo; 256] = {
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
pub(super) fn info(byte: u8) -> ByteInfo {
  BYTE_INFO[usize::from(byte)]
}
