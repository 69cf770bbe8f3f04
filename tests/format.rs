//! Integration tests: format. The table's inputs are in tests/cases/format.py
//! and its expected outputs (captured from the reference) in tests/cases/format.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/format.rs");

#[test]
fn format_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}

// Locations naming a temporary directory, checked by shape.

#[test]
fn fmt_stdin_error_location_names_temporary_directory() {
  common::Test::new()
    .args(&["--fmt", "-f", "-"])
    .stdin("a:\n  echo {{\n")
    .stderr_regex(
      "error: unterminated interpolation\n ——▶ just-[A-Za-z0-9]{6}/justfile:2:8\n  │\n2 │   echo \\{\\{\n  │        \\^\\^\n",
    )
    .status(1)
    .run();
}

#[test]
fn fmt_error_location_names_justfile_directory() {
  let output =
    common::Test::new().justfile("set frob := true\n").arg("--fmt").any_stderr().status(1).run();
  let dir = output.root.file_name().expect("name").to_string_lossy().into_owned();
  assert_eq!(
    output.stderr,
    format!("error: unknown setting `frob`\n ——▶ {dir}/justfile:1:5\n  │\n1 │ set frob := true\n  │     ^^^^\n")
  );
}
