//! Hand-written function tests: machine-dependent values, pinned by shape.

use crate::common::Test;

tests! {
  system_information_functions_match_the_build_target,
  num_cpus_is_a_positive_decimal,
  just_pid_is_a_decimal_and_just_executable_is_absolute,
  uuid_is_a_lowercase_version_4_uuid,
  uuid_differs_between_calls,
  datetime_formats_local_and_utc_time,
  choose_draws_from_the_alphabet,
  read_of_a_non_utf8_file_fails,
  which_and_require_find_executables_via_relative_path_entries,
  canonicalize_resolves_symlinks,
  #[cfg(unix)]
  env_of_a_non_unicode_variable_fails,
}

fn system_information_functions_match_the_build_target() {
  let stdout = format!(
    "a := \"{}\"\nb := \"{}\"\nc := \"unix\"\n",
    std::env::consts::ARCH,
    std::env::consts::OS
  );
  Test::new()
    .justfile("a := arch()\nb := os()\nc := os_family()\n")
    .arg("--evaluate")
    .stdout(&stdout)
    .run();
}

fn num_cpus_is_a_positive_decimal() {
  Test::new()
    .justfile("x := num_cpus()\n")
    .args(&["--evaluate", "x"])
    .stdout_regex("[1-9][0-9]*")
    .run();
}

fn just_pid_is_a_decimal_and_just_executable_is_absolute() {
  let output = Test::new()
    .justfile("a := just_pid()\nb := just_executable()\n")
    .arg("--evaluate")
    .stdout_regex("a := \"[1-9][0-9]*\"\nb := \"/.*just\"\n")
    .run();
  let executable = std::path::Path::new(env!("CARGO_BIN_EXE_just")).canonicalize().unwrap();
  if std::env::var_os("TEST_JUST_BIN").is_none() {
    assert!(output.stdout.contains(&format!("b := \"{}\"", executable.display())));
  }
}

fn uuid_is_a_lowercase_version_4_uuid() {
  Test::new()
    .justfile("x := uuid()\n")
    .args(&["--evaluate", "x"])
    .stdout_regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
    .run();
}

fn uuid_differs_between_calls() {
  let output = Test::new()
    .justfile("a := uuid()\nb := uuid()\n")
    .arg("--evaluate")
    .stdout_regex("a := \"[-0-9a-f]{36}\"\nb := \"[-0-9a-f]{36}\"\n")
    .run();
  let lines: Vec<&str> = output.stdout.lines().map(|line| &line[5..]).collect();
  assert_ne!(lines[0], lines[1]);
}

fn datetime_formats_local_and_utc_time() {
  Test::new()
    .justfile("a := datetime('%Y-%m-%d %H:%M:%S%.3f')\nb := datetime_utc('%Y %Z')\n")
    .arg("--evaluate")
    .stdout_regex(
      "a := \"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}\"\nb := \"[0-9]{4} UTC\"\n",
    )
    .run();
}

fn choose_draws_from_the_alphabet() {
  Test::new()
    .justfile("x := choose('32', 'abc')\n")
    .args(&["--evaluate", "x"])
    .stdout_regex("[abc]{32}")
    .run();
}

fn read_of_a_non_utf8_file_fails() {
  Test::new()
    .justfile("setup:\n  @printf '\\377' > bin.txt\nr: setup\n  echo {{ read('bin.txt') }}\n")
    .arg("r")
    .stderr(
      "error: call to function `read` failed: I/O error reading `bin.txt`: stream did not contain valid UTF-8\n \
       ——▶ justfile:4:11\n  │\n4 │   echo {{ read('bin.txt') }}\n  │           ^^^^\n",
    )
    .status(1)
    .run();
}

fn which_and_require_find_executables_via_relative_path_entries() {
  let output = Test::new()
    .justfile(
      "set lists\nset unstable\nsetup:\n  @chmod +x b/tool\nr: setup\n  @echo {{ which('tool') }} {{ require('tool') }} {{ require('./b/../b/tool') }}\n",
    )
    .write("b/tool", "#!/bin/sh\n")
    .env("PATH", &format!("b:{}", std::env::var("PATH").unwrap_or_default()))
    .arg("r")
    .stdout("{{TMP}}/b/tool {{TMP}}/b/tool {{TMP}}/b/tool\n")
    .run();
  assert!(output.root.join("b/tool").exists());
}

fn canonicalize_resolves_symlinks() {
  Test::new()
    .justfile("setup:\n  @ln -s target.txt link\nr: setup\n  @echo {{ canonicalize('link') }}\n")
    .write("target.txt", "")
    .arg("r")
    .stdout("{{TMP}}/target.txt\n")
    .run();
}

#[cfg(unix)]
fn env_of_a_non_unicode_variable_fails() {
  use std::os::unix::ffi::OsStrExt;
  let dir = tempfile::tempdir().unwrap();
  std::fs::write(dir.path().join("justfile"), "x := env('U')\n").unwrap();
  let output = std::process::Command::new(crate::common::binary())
    .current_dir(dir.path())
    .arg("--evaluate")
    .env_clear()
    .env("NO_COLOR", "1")
    .env("U", std::ffi::OsStr::from_bytes(b"\xff"))
    .output()
    .unwrap();
  assert_eq!(output.status.code(), Some(1));
  assert_eq!(
    String::from_utf8_lossy(&output.stderr),
    "error: call to function `env` failed: environment variable `U` is not unicode: `\u{FFFD}`\n \
     ——▶ justfile:1:6\n  │\n1 │ x := env('U')\n  │      ^^^\n"
  );
}
