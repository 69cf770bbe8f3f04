//! Integration tests: lists. The table's inputs are in tests/cases/lists.py
//! and its expected outputs (captured from the reference) in tests/cases/lists.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/lists.rs");

#[test]
fn lists_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
