//! Integration tests: functions. The table's inputs are in tests/cases/functions.py
//! and its expected outputs (captured from the reference) in tests/cases/functions.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/functions.rs");

#[test]
fn functions_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
