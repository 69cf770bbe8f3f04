//! Integration tests: strings. The table's inputs are in tests/cases/strings.py
//! and its expected outputs (captured from the reference) in tests/cases/strings.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/strings.rs");

#[test]
fn strings_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
