//! Integration tests: search. The table's inputs are in tests/cases/search.py
//! and its expected outputs (captured from the reference) in tests/cases/search.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/search.rs");

#[test]
fn search_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
