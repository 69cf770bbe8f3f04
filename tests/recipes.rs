//! Integration tests: recipes. The table's inputs are in tests/cases/recipes.py
//! and its expected outputs (captured from the reference) in tests/cases/recipes.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/recipes.rs");

#[test]
fn recipes_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
