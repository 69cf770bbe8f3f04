//! Integration tests: modules. The table's inputs are in tests/cases/modules.py
//! and its expected outputs (captured from the reference) in tests/cases/modules.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/modules.rs");

#[test]
fn modules_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
