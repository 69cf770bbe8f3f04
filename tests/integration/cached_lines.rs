//! `[cache]` on recipes of shell lines: the key covers every evaluated
//! line, its sigils, the shell and its arguments, and what a script's key
//! covers; a hit runs no line; the shared store replays every line's output.

tests! {
  ;
  extensions:
  second_run_is_a_hit_and_runs_no_line,
  key_names_the_shell_its_arguments_and_every_line,
  changed_line_misses,
  changed_shell_misses,
  changed_sigil_misses,
  output_changed_since_the_run_misses,
  failed_line_records_nothing,
  guard_that_stops_the_recipe_records_nothing,
  directory_store_replays_every_line_to_another_checkout,
}

use std::fs;

use crate::common::store::store_flag;
use crate::common::{expect_run, run_just, text};

fn project(justfile: &str) -> tempfile::TempDir {
  let directory = tempfile::tempdir().expect("tempdir");
  fs::write(directory.path().join("justfile"), justfile).expect("justfile");
  fs::write(directory.path().join("in.txt"), "A\n").expect("input");
  directory
}

const BUILD: &str = "set unstable
[cache(inputs='in.txt', outputs='out')]
build:
  echo building {{ 'from' }} in.txt
  cp in.txt out
";

fn second_run_is_a_hit_and_runs_no_line() {
  let project = project(BUILD);
  let root = project.path();
  expect_run(
    root,
    &["-v", "build"],
    "building from in.txt\n",
    "===> running recipe `build`...\n===> cache miss, no entry\necho building from in.txt\ncp in.txt out\n",
    0,
  );
  fs::remove_file(root.join("in.txt")).ok();
  fs::write(root.join("in.txt"), "A\n").expect("same input");
  expect_run(
    root,
    &["-v", "build"],
    "",
    "===> running recipe `build`...\n===> cache hit, skipping invocation\n",
    0,
  );
  expect_run(root, &["build"], "", "", 0);
}

/// The hex digest and the JSON of the `===> cache key HEX:` banner.
fn cache_key(stderr: &str) -> (String, serde_json::Value) {
  let start = stderr.find("===> cache key ").expect("cache key banner") + "===> cache key ".len();
  let hex = stderr[start..start + 64].to_string();
  let json_start = start + 64 + ":\n".len();
  let json_end = json_start + stderr[json_start..].find("\n}\n").expect("end of key") + 2;
  (hex, serde_json::from_str(&stderr[json_start..json_end]).expect("key"))
}

fn key_names_the_shell_its_arguments_and_every_line() {
  let project = project(
    "set unstable\nset shell := ['bash', '-euc']\nset guards\nword := 'hi'\n[cache]\nr:\n  @echo {{ word }}\n  -false\n  ?true\n",
  );
  let output = run_just(project.path(), &["-vv", "r"]);
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  let (hex, key) = cache_key(&text(&output.stderr));
  assert_eq!(blake3::hash(key.to_string().as_bytes()).to_hex().as_str(), hex);
  assert_eq!(key["body"], serde_json::json!(["echo hi", "false", "true"]));
  assert_eq!(
    key["executor"],
    serde_json::json!({"type": "shell", "shell": "bash", "arguments": ["-euc"], "sigils": ["", "-", "?"]})
  );
  assert_eq!(key["recipe"], "r");
  let entry = project.path().join(".justcache").join(format!("{hex}.json"));
  assert_eq!(fs::read_to_string(entry).expect("entry"), "{\"recipe\":\"r\"}");
}

/// Runs `r` of `before`, then of `after`: the second run runs again.
fn misses_after(before: &str, after: &str, ran: &str) {
  let project = project(before);
  let root = project.path();
  assert_eq!(run_just(root, &["r"]).status.code(), Some(0));
  expect_run(root, &["r"], "", "", 0);
  fs::write(root.join("justfile"), after).expect("justfile");
  expect_run(root, &["r"], ran, "", 0);
}

fn changed_line_misses() {
  misses_after(
    "set unstable\nx := 'a'\n[cache]\nr:\n  @echo {{ x }}\n",
    "set unstable\nx := 'b'\n[cache]\nr:\n  @echo {{ x }}\n",
    "b\n",
  );
}

fn changed_shell_misses() {
  misses_after(
    "set unstable\n[cache]\nr:\n  @echo ran\n",
    "set unstable\nset shell := ['sh', '-c']\n[cache]\nr:\n  @echo ran\n",
    "ran\n",
  );
}

fn changed_sigil_misses() {
  misses_after(
    "set unstable\n[cache]\nr:\n  @echo ran\n  @true\n",
    "set unstable\n[cache]\nr:\n  @echo ran\n  -@true\n",
    "ran\n",
  );
}

fn output_changed_since_the_run_misses() {
  let project = project(BUILD);
  let root = project.path();
  assert_eq!(run_just(root, &["build"]).status.code(), Some(0));
  fs::write(root.join("out"), "edited\n").expect("edit output");
  expect_run(
    root,
    &["-v", "build"],
    "building from in.txt\n",
    "===> running recipe `build`...\n===> cache miss, output `out` changed\necho building from in.txt\ncp in.txt out\n",
    0,
  );
  assert_eq!(fs::read_to_string(root.join("out")).expect("output"), "A\n");
}

fn failed_line_records_nothing() {
  let project = project("set unstable\n[cache]\nr:\n  @echo ran\n  @exit 3\n");
  let root = project.path();
  for _ in 0..2 {
    expect_run(root, &["r"], "ran\n", "error: recipe `r` failed on line 5 with exit code 3\n", 3);
  }
}

/// A guard that ends the recipe early leaves it to be checked again.
fn guard_that_stops_the_recipe_records_nothing() {
  let project =
    project("set unstable\nset guards\n[cache]\nr:\n  @echo ran\n  @?false\n  @echo never\n");
  let root = project.path();
  for _ in 0..2 {
    expect_run(root, &["r"], "ran\n", "", 0);
  }
}

/// The shared store gets what every line printed, on both streams, and a
/// checkout without the entry restores the outputs and replays it.
fn directory_store_replays_every_line_to_another_checkout() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let justfile = "set unstable\n[cache(inputs='in.txt', outputs='out')]\nbuild:\n  @echo one\n  @echo two >&2\n  @cp in.txt out\n  @echo ran >> ../count\n";
  let workspace = tempfile::tempdir().expect("workspace");
  let checkouts: Vec<_> = ["a", "b"]
    .iter()
    .map(|name| {
      let checkout = workspace.path().join(name);
      fs::create_dir(&checkout).expect("checkout");
      fs::write(checkout.join("justfile"), justfile).expect("justfile");
      fs::write(checkout.join("in.txt"), "A\n").expect("input");
      checkout
    })
    .collect();
  for checkout in &checkouts {
    expect_run(checkout, &[&flag, "build"], "one\n", "two\n", 0);
  }
  assert_eq!(fs::read_to_string(workspace.path().join("count")).expect("count"), "ran\n");
  assert_eq!(fs::read_to_string(checkouts[1].join("out")).expect("restored output"), "A\n");
}
