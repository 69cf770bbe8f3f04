//! Integration tests: fuzzfound. The table's inputs are in tests/cases/fuzzfound.py
//! and its expected outputs (captured from the reference) in tests/cases/fuzzfound.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/fuzzfound.rs");

#[test]
fn fuzzfound_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
