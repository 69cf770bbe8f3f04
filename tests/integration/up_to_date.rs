//! `just --up-to-date RECIPE…`: runs nothing and answers whether every
//! recipe of the run would be skipped by its `[cache]` (0), names the first
//! that would run and why (1), or reports an error (2).

tests! {
  ;
  extensions:
  fresh_project_would_run_and_nothing_is_written,
  after_a_run_every_cached_recipe_is_up_to_date,
  verbose_names_each_recipe_up_to_date,
  changed_input_names_the_recipe_and_the_input,
  missing_output_would_run,
  recipe_without_cache_would_run,
  recipe_without_body_runs_nothing,
  dependency_that_would_run_is_named_first,
  error_exits_two,
  unknown_recipe_exits_two,
  confirm_is_not_asked,
  no_process_is_started,
  quiet_says_nothing,
  shared_store_entry_counts_as_a_hit,
  conflicts_with_dry_run,
}

use std::fs;

use crate::common::store::store_flag;
use crate::common::{expect_run, run_just};

const JUSTFILE: &str = "set unstable

all: build test

[cache(inputs='in.txt', outputs='out')]
build:
  cp in.txt out

[cache(inputs='out')]
test: build
  #!/bin/sh
  echo tested

lint:
  echo lint

[confirm]
[cache]
deploy:
  @echo deployed

[cache]
bad:
  echo {{ error('no value') }}
";

fn project() -> tempfile::TempDir {
  let directory = tempfile::tempdir().expect("tempdir");
  fs::write(directory.path().join("justfile"), JUSTFILE).expect("justfile");
  fs::write(directory.path().join("in.txt"), "A\n").expect("input");
  directory
}

fn built() -> tempfile::TempDir {
  let project = project();
  let output = run_just(project.path(), &["all"]);
  assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
  project
}

fn fresh_project_would_run_and_nothing_is_written() {
  let project = project();
  expect_run(
    project.path(),
    &["--up-to-date", "all"],
    "",
    "recipe `build` would run: no entry\n",
    1,
  );
  let mut names: Vec<String> = fs::read_dir(project.path())
    .expect("list")
    .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
    .collect();
  names.sort();
  assert_eq!(names, ["in.txt", "justfile"], "--up-to-date wrote something");
}

fn after_a_run_every_cached_recipe_is_up_to_date() {
  let project = built();
  expect_run(project.path(), &["--up-to-date", "all"], "", "", 0);
  expect_run(project.path(), &["--up-to-date", "test", "build"], "", "", 0);
}

fn verbose_names_each_recipe_up_to_date() {
  let project = built();
  expect_run(
    project.path(),
    &["--up-to-date", "-v", "all"],
    "",
    "===> recipe `build` is up to date\n===> recipe `test` is up to date\n",
    0,
  );
}

fn changed_input_names_the_recipe_and_the_input() {
  let project = built();
  fs::write(project.path().join("in.txt"), "B\n").expect("edit");
  expect_run(
    project.path(),
    &["--up-to-date", "all"],
    "",
    "recipe `build` would run: input `in.txt` changed\n",
    1,
  );
}

fn missing_output_would_run() {
  let project = built();
  fs::remove_file(project.path().join("out")).expect("remove output");
  expect_run(
    project.path(),
    &["--up-to-date", "build"],
    "",
    "recipe `build` would run: output `out` missing\n",
    1,
  );
}

fn recipe_without_cache_would_run() {
  let project = built();
  expect_run(
    project.path(),
    &["--up-to-date", "build", "lint"],
    "",
    "recipe `lint` would run: not cached\n",
    1,
  );
}

fn recipe_without_body_runs_nothing() {
  let directory = tempfile::tempdir().expect("tempdir");
  fs::write(directory.path().join("justfile"), "a: b\nb:\n").expect("justfile");
  expect_run(directory.path(), &["--up-to-date", "a"], "", "", 0);
}

/// A dependency runs first: whether its dependents would run depends on
/// what it makes, so it is the one named.
fn dependency_that_would_run_is_named_first() {
  let project = built();
  fs::write(project.path().join("in.txt"), "B\n").expect("edit");
  expect_run(
    project.path(),
    &["--up-to-date", "test"],
    "",
    "recipe `build` would run: input `in.txt` changed\n",
    1,
  );
}

fn error_exits_two() {
  let project = project();
  expect_run(
    project.path(),
    &["--up-to-date", "bad"],
    "",
    "error: call to function `error` failed: no value\n  ——▶ justfile:24:11\n   │\n24 │   echo {{ error('no value') }}\n   │           ^^^^^\n",
    2,
  );
}

fn unknown_recipe_exits_two() {
  let project = project();
  expect_run(
    project.path(),
    &["--up-to-date", "nope"],
    "",
    "error: justfile does not contain recipe `nope`\n",
    2,
  );
}

fn confirm_is_not_asked() {
  let project = project();
  expect_run(
    project.path(),
    &["--up-to-date", "deploy"],
    "",
    "recipe `deploy` would run: no entry\n",
    1,
  );
  expect_run(project.path(), &["--yes", "deploy"], "deployed\n", "", 0);
  expect_run(project.path(), &["--up-to-date", "deploy"], "", "", 0);
}

/// Neither a recipe's line nor a script is started.
fn no_process_is_started() {
  let directory = tempfile::tempdir().expect("tempdir");
  let justfile = "set unstable\na: b\n  touch a-ran\n[cache]\nb:\n  touch b-ran\n";
  fs::write(directory.path().join("justfile"), justfile).expect("justfile");
  expect_run(directory.path(), &["--up-to-date", "a"], "", "recipe `b` would run: no entry\n", 1);
  assert!(!directory.path().join("b-ran").exists());
  assert!(!directory.path().join("a-ran").exists());
  assert!(!directory.path().join(".justcache").exists());
}

fn quiet_says_nothing() {
  let project = project();
  expect_run(project.path(), &["--up-to-date", "--quiet", "all"], "", "", 1);
  expect_run(project.path(), &["--up-to-date", "--quiet", "nope"], "", "", 2);
}

/// A run the shared store holds would be restored, not run.
fn shared_store_entry_counts_as_a_hit() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let first = project();
  let output = run_just(first.path(), &[&flag, "build"]);
  assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
  let second = project();
  expect_run(
    second.path(),
    &["--up-to-date", "build"],
    "",
    "recipe `build` would run: no entry\n",
    1,
  );
  expect_run(second.path(), &["--up-to-date", &flag, "build"], "", "", 0);
  assert!(!second.path().join("out").exists(), "--up-to-date restored the outputs");
}

fn conflicts_with_dry_run() {
  let project = project();
  let output = run_just(project.path(), &["--up-to-date", "-n", "all"]);
  assert_eq!(output.status.code(), Some(2));
  assert!(String::from_utf8_lossy(&output.stderr)
    .starts_with("error: the argument '--up-to-date' cannot be used with '--dry-run'\n"));
}
