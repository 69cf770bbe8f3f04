//! String literal processing: unindentation, escapes, shell expansion.

use std::borrow::Cow;

use super::ast::StringKind;
use super::parse_error::ParseErrorKind;

/// The kind of a string token, from its opening delimiter.
pub(crate) fn string_kind(lexeme: &str) -> StringKind {
  if lexeme.starts_with("'''") {
    StringKind::RawIndented
  } else if lexeme.starts_with("\"\"\"") {
    StringKind::CookedIndented
  } else if lexeme.starts_with('"') {
    StringKind::CookedDouble
  } else {
    StringKind::RawSingle
  }
}

/// The text between the delimiters of a string or backtick lexeme.
pub(crate) fn contents(lexeme: &str, delimiter_len: usize) -> &str {
  if lexeme.len() < delimiter_len * 2 {
    return "";
  }
  lexeme.get(delimiter_len..lexeme.len() - delimiter_len).unwrap_or("")
}

/// Cook the contents of a (non-format) string literal: unindent indented
/// kinds, then process escapes of `"` kinds.
pub(crate) fn cook<'src>(kind: StringKind, raw: &str) -> Result<String, ParseErrorKind<'src>> {
  let text = if kind.is_indented() { unindent(raw) } else { raw.to_string() };
  if kind.processes_escapes() {
    process_escapes(&text)
  } else {
    Ok(text)
  }
}

/// Cook one literal piece of a format string: `{{{{` stands for `{{`, then
/// escapes for `"` kinds. Unindentation happens after evaluation.
pub(crate) fn cook_format_piece<'src>(
  kind: StringKind,
  raw: &str,
) -> Result<String, ParseErrorKind<'src>> {
  let text = unescape_braces(raw);
  if kind.processes_escapes() {
    process_escapes(&text)
  } else {
    Ok(text.into_owned())
  }
}

/// Literal text between interpolations (recipe bodies, format strings),
/// where `{{{{` stands for `{{`.
pub(crate) fn unescape_braces(raw: &str) -> Cow<'_, str> {
  if raw.contains('{') {
    Cow::Owned(raw.replace("{{{{", "{{"))
  } else {
    Cow::Borrowed(raw)
  }
}

fn is_blank(line: &str) -> bool {
  line.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

fn leading_whitespace(line: &str) -> &str {
  let end = line.find(|c| c != ' ' && c != '\t').unwrap_or(line.len());
  &line[..end]
}

fn common_prefix<'a>(a: &'a str, b: &str) -> &'a str {
  let end = a
    .char_indices()
    .zip(b.chars())
    .find(|((_, x), y)| x != y)
    .map_or_else(|| a.len().min(b.len()), |((i, _), _)| i);
  &a[..end]
}

/// Remove the common indentation of the non-blank lines; drop a blank first
/// and last line.
pub(crate) fn unindent(text: &str) -> String {
  let lines: Vec<&str> = text.split_inclusive('\n').collect();
  let indentation = lines
    .iter()
    .filter(|line| !is_blank(line))
    .map(|line| leading_whitespace(line))
    .reduce(common_prefix)
    .unwrap_or("");
  let last = lines.len().saturating_sub(1);
  let mut result = String::with_capacity(text.len());
  for (i, line) in lines.iter().enumerate() {
    if is_blank(line) {
      if i != 0 && i != last {
        result.push_str(line_terminator(line));
      }
    } else {
      result.push_str(&line[indentation.len()..]);
    }
  }
  result
}

fn line_terminator(line: &str) -> &str {
  if line.ends_with("\r\n") {
    "\r\n"
  } else if line.ends_with('\n') {
    "\n"
  } else {
    ""
  }
}

/// How a character after `\` is shown in the invalid-escape message.
fn render_escaped(c: char) -> String {
  match c {
    '`' => "\\`".to_string(),
    '\\' | '\'' | '"' => c.to_string(),
    _ => c.escape_default().to_string(),
  }
}

/// Process the escape sequences of a `"` string.
pub(crate) fn process_escapes<'src>(text: &str) -> Result<String, ParseErrorKind<'src>> {
  let mut result = String::with_capacity(text.len());
  let mut chars = text.chars().peekable();
  while let Some(c) = chars.next() {
    if c != '\\' {
      result.push(c);
      continue;
    }
    match chars.next() {
      Some('n') => result.push('\n'),
      Some('r') => result.push('\r'),
      Some('t') => result.push('\t'),
      Some('\\') => result.push('\\'),
      Some('"') => result.push('"'),
      Some('\n') => {}
      Some('\r') if chars.peek() == Some(&'\n') => {
        chars.next();
      }
      Some('u') => result.push(unicode_escape(&mut chars)?),
      Some(other) => {
        return Err(ParseErrorKind::InvalidEscapeSequence { character: render_escaped(other) })
      }
      None => return Err(ParseErrorKind::InvalidEscapeSequence { character: String::new() }),
    }
  }
  Ok(result)
}

fn unicode_escape<'src>(
  chars: &mut std::iter::Peekable<std::str::Chars>,
) -> Result<char, ParseErrorKind<'src>> {
  match chars.next() {
    Some('{') => {}
    Some(other) => return Err(ParseErrorKind::UnicodeEscapeDelimiter { character: other }),
    None => return Err(ParseErrorKind::UnicodeEscapeUnterminated),
  }
  let mut digits = String::new();
  loop {
    match chars.next() {
      None => return Err(ParseErrorKind::UnicodeEscapeUnterminated),
      Some('}') => break,
      Some(c) if c.is_ascii_hexdigit() => {
        digits.push(c);
        if digits.len() > 6 {
          return Err(ParseErrorKind::UnicodeEscapeLength { digits });
        }
      }
      Some(c) => return Err(ParseErrorKind::UnicodeEscapeCharacter { character: c }),
    }
  }
  if digits.is_empty() {
    return Err(ParseErrorKind::UnicodeEscapeEmpty);
  }
  u32::from_str_radix(&digits, 16)
    .ok()
    .and_then(char::from_u32)
    .ok_or(ParseErrorKind::UnicodeEscapeRange { digits })
}

/// Expand `$VAR`, `${VAR}`, `${VAR:-default}` and a leading `~` from the
/// process environment.
pub(crate) fn shell_expand<'src>(text: &str) -> Result<String, ParseErrorKind<'src>> {
  shellexpand::full(text)
    .map(|expanded| expanded.into_owned())
    .map_err(|error| ParseErrorKind::ShellExpansion { message: error.to_string() })
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn unindentation() {
    let cases = [
      ("\n  a\n    b\n\n  c\n  ", "a\n  b\n\nc\n"),
      ("  foo  ", "foo  "),
      ("\n\tfoo\n  bar", "\tfoo\n  bar"),
      ("", ""),
      ("\r\n  a\r\n\r\n  b\r\n", "a\r\n\r\nb\r\n"),
    ];
    for (input, expected) in cases {
      assert_eq!(unindent(input), expected, "{input:?}");
    }
  }

  #[test]
  fn escapes() {
    let ok = [
      (r"a\nb", "a\nb"),
      (r"\t\\\r", "\t\\\r"),
      ("a\\\nb", "ab"),
      ("a\\\r\nb", "ab"),
      (r"\u{e9}\u{1F600}", "é😀"),
    ];
    for (input, expected) in ok {
      assert_eq!(process_escapes(input).unwrap(), expected);
    }
    let errors = [
      (r"\q", "`\\q` is not a valid escape sequence"),
      ("\\é", "`\\\\u{e9}` is not a valid escape sequence"),
      ("\\`", "`\\\\`` is not a valid escape sequence"),
      ("\\\ra", "`\\\\r` is not a valid escape sequence"),
      (r"\u", "unterminated unicode escape sequence"),
      (r"\u{", "unterminated unicode escape sequence"),
      (r"\uz", "expected unicode escape sequence delimiter `{` but found `z`"),
      (r"\u{}", "unicode escape sequences must not be empty"),
      (r"\u{g}", "expected hex digit [0-9A-Fa-f] but found `g`"),
      (
        r"\u{1234567}",
        "unicode escape sequence starting with `\\u{1234567` longer than six hex digits",
      ),
      (
        r"\u{110000}",
        "unicode escape sequence value `110000` greater than maximum valid code point `10FFFF`",
      ),
    ];
    for (input, expected) in errors {
      assert_eq!(process_escapes(input).unwrap_err().to_string(), expected, "{input:?}");
    }
  }

  #[test]
  fn kinds_and_contents() {
    assert_eq!(string_kind("'''a'''"), StringKind::RawIndented);
    assert_eq!(string_kind("\"\"\"a\"\"\""), StringKind::CookedIndented);
    assert_eq!(string_kind("\"a\""), StringKind::CookedDouble);
    assert_eq!(string_kind("'a'"), StringKind::RawSingle);
    assert_eq!(contents("'''a'''", 3), "a");
    assert_eq!(contents("''", 1), "");
  }

  #[test]
  fn expansion() {
    assert_eq!(shell_expand("$$a$").unwrap(), "$a$");
    assert!(shell_expand("$JUST_PARSER_TEST_SURELY_UNSET")
      .unwrap_err()
      .to_string()
      .starts_with("shell expansion failed: error looking key 'JUST_PARSER_TEST_SURELY_UNSET' up"));
  }
}

/// What is wrong with an indentation value (`set indentation`, `--indentation`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum IndentationProblem {
  Empty,
  NotWhitespace,
  Mixed,
}

impl std::fmt::Display for IndentationProblem {
  fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
    f.write_str(match self {
      IndentationProblem::Empty => "indentation must not be empty",
      IndentationProblem::NotWhitespace => "indentation must be spaces or tabs",
      IndentationProblem::Mixed => "indentation may not be mixed",
    })
  }
}

/// An indentation is a run of the character it starts with, a space or a tab.
pub(crate) fn check_indentation(value: &str) -> Result<(), IndentationProblem> {
  let mut chars = value.chars();
  match chars.next() {
    None => Err(IndentationProblem::Empty),
    Some(first @ (' ' | '\t')) if chars.all(|c| c == first) => Ok(()),
    Some(' ' | '\t') => Err(IndentationProblem::Mixed),
    Some(_) => Err(IndentationProblem::NotWhitespace),
  }
}

#[cfg(test)]
mod indentation_tests {
  use super::*;

  #[test]
  fn indentation_is_judged_by_its_first_character() {
    let cases = [
      ("    ", Ok(())),
      ("\t\t", Ok(())),
      ("", Err(IndentationProblem::Empty)),
      (",", Err(IndentationProblem::NotWhitespace)),
      (", ", Err(IndentationProblem::NotWhitespace)),
      ("x\t", Err(IndentationProblem::NotWhitespace)),
      (" ,", Err(IndentationProblem::Mixed)),
      (" \t", Err(IndentationProblem::Mixed)),
      ("\t,", Err(IndentationProblem::Mixed)),
    ];
    for (value, expected) in cases {
      assert_eq!(check_indentation(value), expected, "{value:?}");
    }
  }
}
