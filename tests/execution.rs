//! Integration tests: execution. The table's inputs are in tests/cases/execution.py
//! and its expected outputs (captured from the reference) in tests/cases/execution.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/execution.rs");

#[test]
fn execution_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
