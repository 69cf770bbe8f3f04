//! Integration tests: leftovers. The table's inputs are in tests/cases/leftovers.py
//! and its expected outputs (captured from the reference) in tests/cases/leftovers.rs.

mod common;

use common::{assert_unique_names, run_cases, Case};

include!("cases/leftovers.rs");

#[test]
fn leftovers_cases() {
  assert_unique_names(CASES);
  run_cases(CASES);
}

/// `[arg]` naming no parameter is a parse error, so `--fmt` fails too (the
/// path shown depends on the temporary directory's name).
#[test]
fn arg_for_undefined_parameter_fails_format() {
  common::Test::new()
    .justfile("[arg('b')]\na:\n")
    .args(&["--fmt", "--check"])
    .stderr_regex(
      "error: argument attribute for undefined argument `b`\n ——▶ [^\n]*justfile:1:6\n  │\n1 │ \\[arg\\('b'\\)\\]\n  │      \\^\\^\\^\n",
    )
    .status(1)
    .run();
}

#[cfg(unix)]
mod unix {
  use std::ffi::OsString;
  use std::os::unix::ffi::OsStringExt;
  use std::process::{Command, Output};

  fn binary() -> OsString {
    std::env::var_os("TEST_JUST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_just").into())
  }

  fn just(directory: &std::path::Path, args: &[OsString], env: &[(&str, OsString)]) -> Output {
    let mut command = Command::new(binary());
    command.env_clear().current_dir(directory).args(args).env("NO_COLOR", "1");
    if let Some(path) = std::env::var_os("PATH") {
      command.env("PATH", path);
    }
    for (key, value) in env {
      command.env(key, value);
    }
    command.output().expect("run just")
  }

  fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
  }

  fn invalid() -> OsString {
    OsString::from_vec(b"a\xff".to_vec())
  }

  #[test]
  fn non_utf8_color_environment_is_an_invalid_value() {
    let directory = tempfile::tempdir().expect("tempdir");
    let output = just(directory.path(), &[], &[("JUST_COLOR", invalid())]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
      text(&output.stderr),
      "error: invalid value 'a\u{fffd}' for '--color <COLOR>'\n  [possible values: always, auto, never]\n\nFor more information, try '--help'.\n"
    );
  }

  #[test]
  fn non_utf8_chooser_is_accepted() {
    let directory = tempfile::tempdir().expect("tempdir");
    std::fs::write(directory.path().join("justfile"), "a:\n  @echo hi\n").expect("write");
    let output = just(directory.path(), &["--chooser".into(), invalid()], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), "hi\n");
  }

  #[test]
  fn non_unicode_justfile_path_warns() {
    let directory = tempfile::tempdir().expect("tempdir");
    let root = directory.path().canonicalize().expect("canonicalize");
    let path = root.join(OsString::from_vec(b"j\xff".to_vec()));
    std::fs::write(&path, "a:\n  @echo hi\n").expect("write");
    let output = just(&root, &["--justfile".into(), path.clone().into_os_string()], &[]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "hi\n");
    assert_eq!(
      text(&output.stderr),
      format!(
        "The justfile path `{}` is not Unicode. Just is considering phasing-out support for \
         non-Unicode paths. If you see this warning, please leave a comment on \
         https://github.com/casey/just/issues/3229. Thank you!\n",
        path.display()
      )
    );
  }

  #[test]
  fn deleted_current_directory() {
    let directory = tempfile::tempdir().expect("tempdir");
    let gone = directory.path().join("gone");
    std::fs::create_dir(&gone).expect("mkdir");
    // The shell enters the directory, removes it, then becomes `just`.
    let script = format!("rmdir '{}' && exec \"$0\"", gone.display());
    let output = Command::new("sh")
      .arg("-c")
      .arg(script)
      .arg(binary())
      .current_dir(&gone)
      .env_clear()
      .env("NO_COLOR", "1")
      .output()
      .expect("run just");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
      text(&output.stderr),
      "error: failed to get current directory: No such file or directory (os error 2)\n"
    );
  }
}
