//! `--man` and `--changelog`.

use crate::cli::arguments;

/// The project's changelog, embedded at build time.
pub const CHANGELOG: &str = include_str!("../../CHANGELOG.md");

/// The roff man page generated from the flag definitions.
pub fn man() -> String {
  let mut buffer = Vec::new();
  // Rendering into a Vec cannot fail.
  let _ = clap_mangen::Man::new(arguments::command()).render(&mut buffer);
  String::from_utf8_lossy(&buffer).into_owned()
}

/// The text `--changelog` prints.
pub fn changelog() -> &'static str {
  CHANGELOG
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn man_page_header() {
    let page = man();
    let mut lines = page.lines();
    assert_eq!(lines.next(), Some(".ie \\n(.g .ds Aq \\(aq"));
    assert_eq!(lines.next(), Some(".el .ds Aq '"));
    assert_eq!(lines.next(), Some(".TH just 1  \"just 1.58.0\" "));
    assert_eq!(lines.next(), Some(".SH NAME"));
  }
}
