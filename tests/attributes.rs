//! Integration tests: attributes. The table's inputs are in tests/cases/attributes.py
//! and its expected outputs (captured from the reference) in tests/cases/attributes.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/attributes.rs");

#[test]
fn attributes_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
