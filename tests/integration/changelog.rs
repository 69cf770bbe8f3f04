//! `--changelog` prints CHANGELOG.md, which has a section for the current
//! version.

tests! {
  changelog_has_a_section_for_this_version,
  ;
  extensions:
  changelog_prints_the_changelog_file,
}

use std::process::Command;

const CHANGELOG: &str = include_str!("../../CHANGELOG.md");

fn changelog_prints_the_changelog_file() {
  let output = Command::new(env!("CARGO_BIN_EXE_just"))
    .arg("--changelog")
    .output()
    .expect("run just --changelog");
  assert!(output.status.success());
  assert_eq!(String::from_utf8_lossy(&output.stdout), CHANGELOG);
  assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

fn changelog_has_a_section_for_this_version() {
  let heading = format!("\n{} — ", env!("CARGO_PKG_VERSION"));
  assert!(CHANGELOG.contains(&heading), "CHANGELOG.md lacks a `{heading}` section");
}
