//! The conversion between byte offsets of a text and LSP positions (lines
//! and UTF-16 code units). Positions a client sends out of range, or inside
//! a character, are clamped, never trusted.

use lsp_types::{Position, Range};

use crate::syntax::token::Token;

/// The byte offset of `position` in `text`: a line past the end is the end
/// of the text, a column past the line's end is the line's end (before its
/// line break), a column inside a character is that character's start.
pub(super) fn offset(text: &str, position: Position) -> usize {
  let mut line_start = 0;
  for _ in 0..position.line {
    match text[line_start..].find('\n') {
      Some(index) => line_start += index + 1,
      None => return text.len(),
    }
  }
  let line_end = text[line_start..].find('\n').map_or(text.len(), |index| line_start + index);
  let line = &text[line_start..line_end];
  let line = line.strip_suffix('\r').unwrap_or(line);
  let mut units = 0;
  for (index, character) in line.char_indices() {
    let width = character.len_utf16() as u32;
    if units + width > position.character {
      return line_start + index;
    }
    units += width;
  }
  line_start + line.len()
}

/// The LSP position of byte `offset` of `text` (clamped to the text, and
/// to the start of the character it falls in). It counts the lines before
/// it: for many offsets of one text, `Lines` is the quick way.
pub(super) fn position(text: &str, offset: usize) -> Position {
  let offset = char_start(text, offset);
  let before = &text.as_bytes()[..offset];
  let line = memchr::memchr_iter(b'\n', before).count();
  let line_start = memchr::memrchr(b'\n', before).map_or(0, |index| index + 1);
  position_on_line(text, line, line_start, offset)
}

/// The position of byte `offset` (a character boundary) of `text`, on the
/// 0-based line `line` that starts at byte `line_start`, as a token knows.
pub(super) fn position_on_line(
  text: &str,
  line: usize,
  line_start: usize,
  offset: usize,
) -> Position {
  let character = text.get(line_start..offset).map_or(0, |before| before.encode_utf16().count());
  Position { line: line as u32, character: character as u32 }
}

/// `offset` clamped to `text` and moved back to the start of the character
/// it falls in.
pub(super) fn char_start(text: &str, offset: usize) -> usize {
  let mut offset = offset.min(text.len());
  while !text.is_char_boundary(offset) {
    offset -= 1;
  }
  offset
}

/// The range of bytes `start..end` of `text`.
pub(super) fn range(text: &str, start: usize, end: usize) -> Range {
  Range { start: position(text, start), end: position(text, end.max(start)) }
}

/// Where the lines of a text start: positions of many offsets of one text
/// (references in a file, its symbols) without counting the lines before
/// each one again.
#[derive(Clone, Debug, Default)]
pub(super) struct Lines {
  starts: Vec<usize>,
}

impl Lines {
  pub(super) fn new(text: &str) -> Lines {
    let mut starts = vec![0];
    starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|newline| newline + 1));
    Lines { starts }
  }

  /// What `position(text, offset)` is, `text` being the text these are the
  /// lines of.
  pub(super) fn position(&self, text: &str, offset: usize) -> Position {
    let offset = char_start(text, offset);
    let line = self.starts.partition_point(|&start| start <= offset).saturating_sub(1);
    let line_start = self.starts.get(line).copied().unwrap_or(0);
    position_on_line(text, line, line_start, offset)
  }

  /// What `range(text, start, end)` is.
  pub(super) fn range(&self, text: &str, start: usize, end: usize) -> Range {
    Range { start: self.position(text, start), end: self.position(text, end.max(start)) }
  }
}

/// The positions of increasing offsets of one text (the tokens of a file in
/// order), each counted on from the one before, so that a long line costs
/// no more than a short one.
pub(super) struct Cursor<'t> {
  text: &'t str,
  offset: usize,
  position: Position,
}

impl<'t> Cursor<'t> {
  pub(super) fn new(text: &'t str) -> Cursor<'t> {
    Cursor { text, offset: 0, position: Position { line: 0, character: 0 } }
  }

  /// What `position(text, offset)` is; quick when `offset` is not before
  /// the one asked before.
  pub(super) fn position(&mut self, offset: usize) -> Position {
    let offset = char_start(self.text, offset);
    if offset < self.offset {
      *self = Cursor::new(self.text);
    }
    let between = &self.text[self.offset..offset];
    match memchr::memrchr(b'\n', between.as_bytes()) {
      Some(last) => {
        let lines = memchr::memchr_iter(b'\n', between.as_bytes()).count();
        self.position.line += lines as u32;
        self.position.character = between[last + 1..].encode_utf16().count() as u32;
      }
      None => self.position.character += between.encode_utf16().count() as u32,
    }
    self.offset = offset;
    self.position
  }
}

/// The range of a token, as `just`'s excerpt underlines it: its lexeme,
/// cut at the end of its first line.
pub(super) fn token_range(token: &Token) -> Range {
  let text = token.src();
  let start = char_start(text, token.offset as usize);
  let end = char_start(text, start + token.length as usize);
  let end = text[start..end].find('\n').map_or(end, |newline| start + newline);
  Range { start: on_token_line(token, start), end: on_token_line(token, end) }
}

/// The position of byte `offset` of a token's file, on the line where the
/// token starts. The token knows that line: counting the lines before it,
/// for each token of a large file, would take time by the square of its
/// size.
pub(super) fn on_token_line(token: &Token, offset: usize) -> lsp_types::Position {
  let text = token.src();
  // An empty token (the end of the file after a line end) has the line of
  // the token before it, and `just` counts its column from that line's
  // start, the line end included: so does the editor's position.
  if token.length == 0 {
    let line_start = token.line_start();
    let offset = char_start(text, offset).max(line_start);
    let character = text[line_start..offset].encode_utf16().count();
    return lsp_types::Position { line: token.line, character: character as u32 };
  }
  let start = char_start(text, token.offset as usize);
  let line_start = memchr::memrchr(b'\n', &text.as_bytes()[..start]).map_or(0, |index| index + 1);
  let offset = char_start(text, offset).max(line_start);
  position_on_line(text, token.line as usize, line_start, offset)
}

#[cfg(test)]
mod tests {
  use std::path::Path;

  use super::*;
  use crate::syntax::sources::Sources;

  #[test]
  fn positions_count_utf16_units_and_clamp() {
    let text = "a\u{e9}\u{1F600}b\nxy\r\n";
    assert_eq!(offset(text, Position { line: 0, character: 2 }), 3);
    assert_eq!(offset(text, Position { line: 0, character: 3 }), 3);
    assert_eq!(offset(text, Position { line: 0, character: 4 }), 7);
    assert_eq!(offset(text, Position { line: 0, character: 99 }), 8);
    assert_eq!(offset(text, Position { line: 1, character: 99 }), 11);
    assert_eq!(offset(text, Position { line: 9, character: 0 }), text.len());
    assert_eq!(position(text, 7), Position { line: 0, character: 4 });
    assert_eq!(position(text, 5), Position { line: 0, character: 2 });
    assert_eq!(position(text, 1000), Position { line: 2, character: 0 });
  }

  #[test]
  fn lines_and_cursors_give_the_positions_counting_gives() {
    let text = "a\u{e9}\u{1F600}b\r\n\nxy\n\u{feff}z";
    let lines = Lines::new(text);
    for offset in 0..=text.len() + 2 {
      assert_eq!(lines.position(text, offset), position(text, offset), "offset {offset}");
    }
    assert_eq!(lines.range(text, 9, 3), range(text, 9, 3));
    let mut cursor = Cursor::new(text);
    for offset in (0..=text.len() + 2).chain([3, 12, 1, 7]) {
      assert_eq!(cursor.position(offset), position(text, offset), "offset {offset}");
    }
  }

  /// `token_range` takes a token's line from the token: the line its first
  /// character is on, in every mode of the lexer; the end of the file is
  /// where `just`'s excerpt puts it.
  #[test]
  fn token_ranges_are_the_ranges_of_their_offsets() {
    let texts = [
      "a:\n  echo {{x}}\n\nb x='''\n1\n''' y=\"\\n\":\r\n\techo a\n",
      "x := `a\nb` + f\"{{\n'\u{1F600}'}}\n\" # c\n[group('g')]\nr:\n    #!/bin/sh\n    \u{e9}\n",
      "\u{feff}mod m\nimport 'x'\nset shell := ['sh',\n  '-c']\nz := (\n  'a'\n)\n",
    ];
    let sources = Sources::new();
    for text in texts {
      let source = sources.add(text, Path::new("justfile"));
      let tokens = crate::syntax::lexer::lex(source).map_err(|error| error.to_string());
      let tokens = tokens.unwrap_or_else(|error| panic!("{text:?}: {error}"));
      assert!(tokens.len() > 10, "{text:?} lexes");
      for token in tokens {
        let start = token.offset as usize;
        let end = start + token.length as usize;
        let end = text[start..end].find('\n').map_or(end, |newline| start + newline);
        let counted = if token.length == 0 && start == text.len() {
          // The end of the file: where `just` says, the line of the token
          // before it, the column counted from that line's start.
          let before = &text[token.line_start()..start];
          let at = lsp_types::Position {
            line: token.line,
            character: before.encode_utf16().count() as u32,
          };
          Range { start: at, end: at }
        } else {
          range(text, start, end)
        };
        assert_eq!(token_range(&token), counted, "{token:?} of {text:?}");
      }
    }
  }
}
