//! Integration tests: lazy. The table's inputs are in tests/cases/lazy.py
//! and its expected outputs (captured from the reference) in tests/cases/lazy.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/lazy.rs");

#[test]
fn lazy_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
