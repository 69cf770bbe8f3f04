//! Integration tests: settings. The table's inputs are in tests/cases/settings.py
//! and its expected outputs (captured from the reference) in tests/cases/settings.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/settings.rs");

#[test]
fn settings_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
