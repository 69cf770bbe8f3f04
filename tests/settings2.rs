//! Integration tests: settings2. The table's inputs are in tests/cases/settings2.py
//! and its expected outputs (captured from the reference) in tests/cases/settings2.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/settings2.rs");

#[test]
fn settings2_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}

/// A missing `set tempdir` directory fails with the IO error message; the
/// attempted `just-XXXXXX` path has a random suffix.
#[test]
fn tempdir_missing_directory_error() {
  common::Test::new()
    .justfile("set tempdir := 'nope'\na:\n  #!/bin/sh\n  echo hi\n")
    .stderr_regex(
      "error: recipe `a` could not be run because of an IO error while trying to create a \
       temporary directory or write a file to that directory: No such file or directory \
       \\(os error 2\\) at path \"{{TMP}}/nope/just-[A-Za-z0-9]{6}\"\n",
    )
    .status(1)
    .run();
}
