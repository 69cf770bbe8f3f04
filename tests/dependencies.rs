//! Integration tests: dependencies. The table's inputs are in tests/cases/dependencies.py
//! and its expected outputs (captured from the reference) in tests/cases/dependencies.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/dependencies.rs");

#[test]
fn dependencies_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
