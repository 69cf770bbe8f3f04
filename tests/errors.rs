//! Integration tests: errors. The table's inputs are in tests/cases/errors.py
//! and its expected outputs (captured from the reference) in tests/cases/errors.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/errors.rs");

#[test]
fn errors_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
