//! Integration tests: listing. The table's inputs are in tests/cases/listing.py
//! and its expected outputs (captured from the reference) in tests/cases/listing.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/listing.rs");

#[test]
fn listing_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}
