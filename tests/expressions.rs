//! Integration tests: expressions. The table's inputs are in tests/cases/expressions.py
//! and its expected outputs (captured from the reference) in tests/cases/expressions.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/expressions.rs");

#[test]
fn expressions_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
