//! Wording shared by every layer's messages.

/// A "ticked list" (README of the spec): `` `a` ``, `` `a` and `b` ``,
/// `` `a`, `b`, and `c` `` — with `or` instead of `and` for alternatives.
pub(crate) fn ticked<S: AsRef<str>>(items: &[S], conjunction: &str) -> String {
  let ticked: Vec<String> = items.iter().map(|item| format!("`{}`", item.as_ref())).collect();
  match ticked.as_slice() {
    [] => String::new(),
    [one] => one.clone(),
    [a, b] => format!("{a} {conjunction} {b}"),
    [init @ .., last] => format!("{}, {conjunction} {last}", init.join(", ")),
  }
}

/// `0 arguments`, `1 argument`, `2 arguments`.
pub(crate) fn count(n: usize, singular: &str, plural: &str) -> String {
  format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn ticked_lists() {
    assert_eq!(ticked::<&str>(&[], "and"), "");
    assert_eq!(ticked(&["a"], "and"), "`a`");
    assert_eq!(ticked(&["a", "b"], "and"), "`a` and `b`");
    assert_eq!(ticked(&["a", "b", "c"], "and"), "`a`, `b`, and `c`");
    assert_eq!(ticked(&["a", "b"], "or"), "`a` or `b`");
  }

  #[test]
  fn counts() {
    assert_eq!(count(0, "argument", "arguments"), "0 arguments");
    assert_eq!(count(1, "argument", "arguments"), "1 argument");
    assert_eq!(count(2, "value", "values"), "2 values");
  }
}

/// `text` with control characters (C0, DEL and C1, which can start terminal
/// escape sequences) written as `\u{…}`, so that a file name cannot drive
/// the terminal it is printed on.
pub(crate) fn escape_control(text: &str) -> std::borrow::Cow<'_, str> {
  if !text.chars().any(char::is_control) {
    return std::borrow::Cow::Borrowed(text);
  }
  let mut out = String::with_capacity(text.len() + 8);
  for c in text.chars() {
    if c.is_control() {
      out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
    } else {
      out.push(c);
    }
  }
  std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod escape_tests {
  #[test]
  fn control_characters_are_escaped() {
    assert_eq!(super::escape_control("a\x1b[2Jb\n\u{9b}c"), "a\\u{1b}[2Jb\\u{a}\\u{9b}c");
    assert_eq!(super::escape_control("plain é"), "plain é");
  }
}
