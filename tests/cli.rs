//! Integration tests: cli. The table's inputs are in tests/cases/cli.py
//! and its expected outputs (captured from the reference) in tests/cases/cli.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/cli.rs");

#[test]
fn cli_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}

// Machine-dependent outputs, checked by shape or by hand.

#[test]
fn request_signal_reports_received_signal() {
  use std::process::{Command, Stdio};
  let binary =
    std::env::var_os("TEST_JUST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_just").into());
  let child = Command::new(binary)
    .args(["--request", "\"signal\""])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("spawn just");
  std::thread::sleep(std::time::Duration::from_millis(500));
  let pid = i32::try_from(child.id()).expect("pid");
  // SAFETY: sending a signal to our own child.
  unsafe {
    libc::kill(pid, libc::SIGUSR1);
  }
  let output = child.wait_with_output().expect("wait for just");
  assert_eq!(String::from_utf8_lossy(&output.stdout), r#"{"signal":"SIGUSR1"}"#);
  assert_eq!(output.status.code(), Some(0));
}

#[test]
fn man_page_first_lines() {
  common::Test::new()
    .arg("--man")
    .stdout_regex(
      r#"\.ie \\n\(\.g \.ds Aq \\\(aq\n\.el \.ds Aq '\n\.TH just 1  "just 1\.58\.0" \n\.SH NAME\n(?s:.*)"#,
    )
    .run();
}

#[test]
fn dynamic_completion_of_empty_word_lists_recipes_overrides_paths_then_options() {
  common::Test::new()
    .justfile("# build it\nbuild:\nexport name := 'v'\n")
    .write("a.txt", "")
    .args(&["--", "just", ""])
    .env("JUST_COMPLETE", "fish")
    .stdout_regex("build\tbuild it\nname=\n\\.\na\\.txt\njustfile\n--alias-style\t[^\n]*\n(?s:.*)")
    .run();
}
