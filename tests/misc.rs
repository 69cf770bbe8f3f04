//! Integration tests: misc. The table's inputs are in tests/cases/misc.py
//! and its expected outputs (captured from the reference) in tests/cases/misc.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/misc.rs");

#[test]
fn misc_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}

// Machine-dependent outputs, checked by shape.

#[test]
fn timestamp_prefixes_echoed_lines() {
  common::Test::new()
    .justfile("foo:\n  echo hi\n")
    .arg("--timestamp")
    .stdout("hi\n")
    .stderr_regex(r"\[\d\d:\d\d:\d\d\] echo hi\n")
    .run();
}

#[test]
fn timestamp_format_is_strftime() {
  common::Test::new()
    .justfile("foo:\n  echo hi\n")
    .args(&["--timestamp", "--timestamp-format", "%H:%M"])
    .stdout("hi\n")
    .stderr_regex(r"\[\d\d:\d\d\] echo hi\n")
    .run();
}

#[test]
fn changelog_starts_with_heading() {
  common::Test::new().arg("--changelog").stdout_regex(r"Changelog\n=========\n(?s:.*)").run();
}

#[test]
fn shebang_script_runs_from_temporary_file() {
  common::Test::new()
    .justfile("x:\n  #!/bin/sh\n  echo $0\n")
    .stdout_regex(r"/.+/just-[A-Za-z0-9]+/x\n")
    .run();
}

#[test]
fn backtick_environment_has_invocation_directory_shape() {
  common::Test::new()
    .justfile("d := `pwd`\nfoo:\n  @echo {{d}}\n")
    .current_dir("sub")
    .stdout("{{TMP}}\n")
    .run();
}

#[test]
fn init_contents_are_a_valid_justfile() {
  let output = common::Test::new()
    .arg("--init")
    .env("JUST_CEILING", "{{TMP}}")
    .stderr("wrote justfile to `{{TMP}}/justfile`\n")
    .run();
  assert!(output.root.join("justfile").is_file());
}

#[test]
fn help_prints_usage_and_exits_zero() {
  common::Test::new()
    .arg("--help")
    .stdout_regex(r"(?s).*Usage: just \[OPTIONS\] \[ARGUMENTS\]\.\.\.\n.*--list.*")
    .run();
}
