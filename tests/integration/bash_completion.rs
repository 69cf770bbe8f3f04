//! The bash registration script in bash itself: words split by bash at `:`
//! are rejoined, so `mod::recipe` paths complete, and answers come back as
//! bash expects them (without the part up to the last `:`).

tests! {
  ;
  extensions:
  module_path_after_colons_completes_the_last_component,
  module_path_ending_in_colons_offers_the_module_recipes,
  module_path_as_separate_words,
  words_without_colons_complete_unchanged,
  show_takes_a_module_path_after_colons,
}

use crate::common::completion::{answers, Shell};

const JUSTFILE: &str = "mod tools\nversion := '1'\n\n[group('ci')]\nbuild:\n";
const TOOLS: &str = "lint:\nlist-all:\nother:\n";

/// Complete `line` (the cursor at its end) as bash would after `eval`-ing
/// `just --completions bash`, and return COMPREPLY, one answer per line.
fn complete(line: &str) -> String {
  let dir = tempfile::tempdir().expect("temp dir");
  std::fs::write(dir.path().join("justfile"), JUSTFILE).expect("write justfile");
  std::fs::create_dir(dir.path().join("tools")).expect("make tools");
  std::fs::write(dir.path().join("tools/mod.just"), TOOLS).expect("write module");
  answers(Shell::Bash, dir.path(), dir.path(), line)
}

fn module_path_after_colons_completes_the_last_component() {
  assert_eq!(complete("just tools::li"), "lint\nlist-all\n");
}

fn module_path_ending_in_colons_offers_the_module_recipes() {
  assert_eq!(complete("just tools::"), "lint\nlist-all\nother\n");
}

fn module_path_as_separate_words() {
  assert_eq!(complete("just tools li"), "lint\nlist-all\n");
}

fn words_without_colons_complete_unchanged() {
  assert_eq!(complete("just --list --group "), "ci\n");
  assert_eq!(complete("just --set v"), "version\n");
}

fn show_takes_a_module_path_after_colons() {
  assert_eq!(complete("just --show tools::o"), "other\n");
}
