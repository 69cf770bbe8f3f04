//! Integration tests: list. The table's inputs are in tests/cases/list.py
//! and its expected outputs (captured from the reference) in tests/cases/list.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/list.rs");

#[test]
fn list_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
