//! Lexical errors: bad characters, indentation and unterminated strings.

use snafu::Snafu;

#[derive(Debug, Clone, PartialEq, Eq, Snafu)]
pub(crate) enum LexErrorKind {
  #[snafu(display("unknown start of token '{character}'{}", code_point_suffix(character)))]
  UnknownStartOfToken { character: String },
  #[snafu(display("unterminated string"))]
  UnterminatedString,
  #[snafu(display("unterminated backtick"))]
  UnterminatedBacktick,
  #[snafu(display("unterminated interpolation"))]
  UnterminatedInterpolation,
  #[snafu(display(
    "found a mix of tabs and spaces in leading whitespace: `{}`\nleading whitespace may consist of tabs or spaces, but not both",
    visible_whitespace(whitespace)
  ))]
  MixedLeadingWhitespace { whitespace: String },
  #[snafu(display(
    "recipe line has inconsistent leading whitespace, started with `{}` but found line with `{}`",
    visible_whitespace(expected),
    visible_whitespace(found)
  ))]
  InconsistentLeadingWhitespace { expected: String, found: String },
  /// `\c` outside a string, or inside a `"` string (reported by whoever cooks it).
  #[snafu(display("`\\{}` is not a valid escape sequence", escaped_character(*character)))]
  InvalidEscapeSequence { character: char },
  #[snafu(display("expected escape sequence but found end-of-file"))]
  UnexpectedEndOfFileInEscape,
  #[snafu(display(
    "mismatched closing delimiter `{close}`, did you mean to close the `{open}` on line {open_line}?"
  ))]
  MismatchedClosingDelimiter { close: char, open: String, open_line: usize },
  #[snafu(display("unexpected closing delimiter `{close}`"))]
  UnexpectedClosingDelimiter { close: char },
  #[snafu(display("unpaired carriage return"))]
  UnpairedCarriageReturn,
  #[snafu(display("expected character `{expected}`"))]
  ExpectedCharacter { expected: char },
  #[snafu(display("expected character `{expected}` but found end-of-file"))]
  ExpectedCharacterFoundEndOfFile { expected: char },
}

/// ` (U+⟨HEX⟩)` after characters that are not printable ASCII.
fn code_point_suffix(character: &str) -> String {
  match character.chars().next() {
    Some(c) if !('\x21'..='\x7e').contains(&c) => format!(" (U+{:04X})", u32::from(c)),
    _ => String::new(),
  }
}

/// Tabs as `␉`, spaces as `␠`.
fn visible_whitespace(whitespace: &str) -> String {
  whitespace
    .chars()
    .map(|c| match c {
      '\t' => '␉',
      ' ' => '␠',
      other => other,
    })
    .collect()
}

/// How the character after a `\` is shown in an invalid-escape message.
pub(crate) fn escaped_character(character: char) -> String {
  match character {
    '`' => "\\`".to_owned(),
    '\\' | '\'' | '"' => character.to_string(),
    other => other.escape_default().to_string(),
  }
}
