//! Integration tests: leftovers. The table's inputs are in tests/cases/leftovers.py
//! and its expected outputs (captured from the reference) in tests/cases/leftovers.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/leftovers.rs");

#[test]
fn leftovers_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
