//! Integration tests: which compile error wins when recipe attribute checks
//! compete with parse and analysis errors. The table's inputs are in
//! tests/cases/precedence.py and its expected outputs (captured from the
//! reference) in tests/cases/precedence.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/precedence.rs");

#[test]
fn precedence_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
