//! Integration tests: arguments. The table's inputs are in tests/cases/arguments.py
//! and its expected outputs (captured from the reference) in tests/cases/arguments.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/arguments.rs");

#[test]
fn arguments_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
