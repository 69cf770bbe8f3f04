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

use std::path::Path;
use std::process::Command;

const JUSTFILE: &str = "mod tools\nversion := '1'\n\n[group('ci')]\nbuild:\n";
const TOOLS: &str = "lint:\nlist-all:\nother:\n";

/// Complete `line` (the cursor at its end) as bash would after `eval`-ing
/// `just --completions bash`, and return COMPREPLY, one answer per line.
fn complete(line: &str) -> String {
  let dir = tempfile::tempdir().expect("temp dir");
  std::fs::write(dir.path().join("justfile"), JUSTFILE).expect("write justfile");
  std::fs::create_dir(dir.path().join("tools")).expect("make tools");
  std::fs::write(dir.path().join("tools/mod.just"), TOOLS).expect("write module");
  let bin = dir.path().join("bin");
  std::fs::create_dir(&bin).expect("make bin");
  std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_just"), bin.join("just")).expect("link just");
  // COMP_WORDS as bash's readline would split `line`: at blanks, and around
  // runs of `:` since `:` is in COMP_WORDBREAKS.
  let script = r#"
    eval "$(just --completions bash)"
    COMP_LINE=$LINE COMP_POINT=${#LINE}
    COMP_WORDS=($(printf '%s' "$LINE" | sed -E 's/(:+)/ \1 /g'))
    [[ $LINE == *[[:blank:]] ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _just just "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\n' "${COMPREPLY[@]}"
  "#;
  let output = Command::new("bash")
    .args(["--norc", "--noprofile", "-c", script])
    .current_dir(dir.path())
    .env_clear()
    .env("PATH", path_with(&bin))
    .env("LINE", line)
    .env("COMP_TYPE", "9")
    .output()
    .expect("run bash");
  assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
  String::from_utf8(output.stdout).expect("UTF-8 answers")
}

fn path_with(bin: &Path) -> std::ffi::OsString {
  let mut paths = vec![bin.to_path_buf()];
  paths.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
  std::env::join_paths(paths).expect("join PATH")
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
