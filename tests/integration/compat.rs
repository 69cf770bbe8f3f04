//! Compatibility cases that need real processes: dotenv files that are FIFOs
//! or process substitutions.

tests! {
  dotenv_fifo_named_dot_env_is_read,
  dotenv_path_process_substitution_is_read,
  ;
  extensions:
  ceiling_through_symlink_stops_search,
}

use std::{
  fs,
  io::Write as _,
  process::{Command, Output, Stdio},
};

use crate::common::{binary, clean_environment};

trait RunCleanly {
  /// Runs with only PATH, HOME and `NO_COLOR=1` set and no standard input.
  fn run_cleanly(&mut self) -> Output;
}

impl RunCleanly for Command {
  fn run_cleanly(&mut self) -> Output {
    clean_environment(self);
    self.stdin(Stdio::null()).output().unwrap()
  }
}

const JUSTFILE: &str = "set dotenv-load\na:\n  @echo $FOO\n";

/// A FIFO named `.env` is read like a file: a writer thread feeds it.
fn dotenv_fifo_named_dot_env_is_read() {
  let tempdir = tempfile::tempdir().unwrap();
  let root = tempdir.path();
  fs::write(root.join("justfile"), JUSTFILE).unwrap();
  let fifo = root.join(".env");
  let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
  assert!(status.success(), "mkfifo failed");
  // Left detached: if the FIFO is never opened for reading, the thread blocks
  // in `open` and the assertion below reports the failure.
  std::thread::spawn(move || {
    let mut writer = fs::OpenOptions::new().write(true).open(fifo).unwrap();
    writer.write_all(b"FOO=fifo\n").unwrap();
  });
  let output = Command::new(binary()).arg("a").current_dir(root).run_cleanly();
  assert_eq!(String::from_utf8_lossy(&output.stderr), "");
  assert_eq!(String::from_utf8_lossy(&output.stdout), "fifo\n");
  assert_eq!(output.status.code(), Some(0));
}

/// `--dotenv-path <(…)`: the path is a pipe under /dev/fd.
fn dotenv_path_process_substitution_is_read() {
  let tempdir = tempfile::tempdir().unwrap();
  let root = tempdir.path();
  fs::write(root.join("justfile"), JUSTFILE).unwrap();
  let output = Command::new("bash")
    .arg("-c")
    .arg(r#""$0" --dotenv-path <(echo FOO=substituted) a"#)
    .arg(binary())
    .current_dir(root)
    .run_cleanly();
  assert_eq!(String::from_utf8_lossy(&output.stderr), "");
  assert_eq!(String::from_utf8_lossy(&output.stdout), "substituted\n");
  assert_eq!(output.status.code(), Some(0));
}

/// A ceiling reached through a symlink bounds the search like its target
/// (deliberate difference: just 1.58 ignores it and finds the justfile above).
fn ceiling_through_symlink_stops_search() {
  let tempdir = tempfile::tempdir().unwrap();
  let root = tempdir.path().canonicalize().unwrap();
  fs::write(root.join("justfile"), "a:\n  @echo found\n").unwrap();
  fs::create_dir_all(root.join("foo/bar")).unwrap();
  std::os::unix::fs::symlink(root.join("foo"), root.join("link")).unwrap();
  let output = Command::new(binary())
    .arg("--ceiling")
    .arg(root.join("link"))
    .arg("a")
    .current_dir(root.join("foo/bar"))
    .run_cleanly();
  assert_eq!(String::from_utf8_lossy(&output.stderr), "error: no justfile found\n");
  assert_eq!(String::from_utf8_lossy(&output.stdout), "");
  assert_eq!(output.status.code(), Some(1));
}
