//! Wording shared by every layer's messages.

/// A "ticked list" (README of the spec): `` `a` ``, `` `a` and `b` ``,
/// `` `a`, `b`, and `c` `` — with `or` instead of `and` for alternatives.
pub fn ticked<S: AsRef<str>>(items: &[S], conjunction: &str) -> String {
  let ticked: Vec<String> = items.iter().map(|item| format!("`{}`", item.as_ref())).collect();
  match ticked.as_slice() {
    [] => String::new(),
    [one] => one.clone(),
    [a, b] => format!("{a} {conjunction} {b}"),
    [init @ .., last] => format!("{}, {conjunction} {last}", init.join(", ")),
  }
}

/// `0 arguments`, `1 argument`, `2 arguments`.
pub fn count(n: usize, singular: &str, plural: &str) -> String {
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
