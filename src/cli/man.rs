//! `--man` and `--changelog`.

use crate::cli::arguments;

/// The project's changelog, embedded at build time.
pub(crate) const CHANGELOG: &str = include_str!("../../CHANGELOG.md");

/// The roff man page generated from the flag definitions, with EXAMPLES and
/// EXIT STATUS sections before VERSION.
pub(crate) fn man() -> String {
  let mut buffer = Vec::new();
  // Rendering into a Vec cannot fail.
  let _ = clap_mangen::Man::new(arguments::command()).render(&mut buffer);
  let page = String::from_utf8_lossy(&buffer).into_owned();
  match page.find("\n.SH VERSION") {
    Some(at) => format!("{}\n{}{}", &page[..at], SECTIONS.trim_end(), &page[at..]),
    None => format!("{page}{SECTIONS}"),
  }
}

const SECTIONS: &str = r#".SH EXAMPLES
.TP
\fBjust\fR
Run the default recipe of the justfile found in this directory or above.
.TP
\fBjust build test\fR
Run \fBbuild\fR, then \fBtest\fR, each after its dependencies.
.TP
\fBjust deploy prod eu\fR
Run \fBdeploy\fR with the arguments \fBprod\fR and \fBeu\fR.
.TP
\fBjust version=2.0 release\fR
Run \fBrelease\fR with the variable \fBversion\fR set to 2.0.
.TP
\fBjust \-\-list\fR
List the recipes with their parameters and doc comments.
.TP
\fBjust \-\-help deploy\fR
Print how to call \fBdeploy\fR: its parameters, options and dependencies.
.TP
\fBjust \-\-tree release\fR
Print what \fBrelease\fR runs, in order, without running anything.
.TP
\fBjust \-\-watch test\fR
Run \fBtest\fR, then again whenever its inputs or the justfile change.
.SH "EXIT STATUS"
.TP
\fB0\fR
Success.
.TP
\fB1\fR
An error of \fBjust\fR's own: no justfile, a compile error, an unknown recipe, a failed write.
.TP
\fB2\fR
A command\-line syntax error.
.TP
\fIN\fR
A recipe line or script failed with exit code \fIN\fR.
.TP
\fB128\fR + \fIN\fR
A recipe, or \fBjust\fR, was ended by signal \fIN\fR (130 for Ctrl\-C).
"#;

/// The text `--changelog` prints.
pub(crate) fn changelog() -> &'static str {
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

  #[test]
  fn man_page_has_examples_and_exit_status_before_version() {
    let page = man();
    let headings: Vec<&str> = page.lines().filter(|line| line.starts_with(".SH")).collect();
    let at = |heading: &str| headings.iter().position(|line| *line == heading);
    let (examples, status, version) =
      (at(".SH EXAMPLES"), at(".SH \"EXIT STATUS\""), at(".SH VERSION"));
    assert!(examples.is_some() && status.is_some(), "{headings:?}");
    assert!(examples < status && status < version, "{headings:?}");
  }
}
