//! Shared harness for the integration tests.
//!
//! Every test runs the freshly built `just` binary in a new temporary
//! directory, with a small deterministic environment, and compares its exact
//! stdout, stderr and exit status with outputs captured from the reference
//! implementation (the table cases in `tests/cases/` are recorded with
//! `JUST_RECORD=1`, see `tests/integration/cases.rs`).
//!
//! In arguments, environment values, written files and expected output,
//! `{{TMP}}` stands for the temporary directory's
//! (canonical) path (`{{TMP_ESCAPED}}` and `{{TMP_NAME}}`: see `fill`). Set `TEST_JUST_BIN=/path/to/just` to run the tests
//! against another binary, e.g. the reference.
//!
//! With `JUST_TEST_WINDOWS=/path/to/just.exe` the binary is a Windows one,
//! run through `wine`: `{{TMP}}` then stands for the directory as Windows
//! programs see it (`Z:\tmp\…`), and a run that Wine itself disturbed
//! (see `wine_disturbed` and `silent_failure_unexpected`) is retried.
//!
//! The hand-written tests share what they drive through the modules below:
//! processes (`process`), a shell on a pseudo-terminal (`pty`), the
//! language server's client side (`lsp`), shell completion (`completion`),
//! the shared cache's projects and stores (`store`), the servers on
//! 127.0.0.1 (`servers`) and the remote-execution farm (`farm`).

#![allow(dead_code)]

pub(crate) mod completion;
pub(crate) mod farm;
pub(crate) mod lsp;
pub(crate) mod process;
pub(crate) mod pty;
pub(crate) mod servers;
pub(crate) mod store;

use std::{
  ffi::OsString,
  fmt::Write as _,
  fs,
  io::Write as _,
  path::{Path, PathBuf},
  process::{Command, Stdio},
};

use pretty_assertions::StrComparison;
use regex::Regex;
use tempfile::TempDir;

/// Placeholder for the temporary directory in expected output and arguments.
pub(crate) const TMP: &str = "{{TMP}}";
/// Placeholder for the temporary directory as a string escape writes it
/// (each `\` doubled: Windows paths in `--evaluate` or JSON output).
pub(crate) const TMP_ESCAPED: &str = "{{TMP_ESCAPED}}";
/// Placeholder for the temporary directory's own name (Windows error
/// locations name the justfile relative to its parent).
pub(crate) const TMP_NAME: &str = "{{TMP_NAME}}";

/// `text` with the placeholders replaced by the temporary directory `tmp`.
pub(crate) fn fill(text: &str, tmp: &str) -> String {
  text
    .replace(TMP_ESCAPED, &tmp.replace('\\', "\\\\"))
    .replace(TMP_NAME, tmp.rsplit(['/', '\\']).next().unwrap_or(tmp))
    .replace(TMP, tmp)
}

/// `text` with the temporary directory `tmp` replaced by the placeholders
/// (for recording); its bare name only when testing a Windows binary.
pub(crate) fn abstract_tmp(text: &str, tmp: &str) -> String {
  let text = text.replace(&tmp.replace('\\', "\\\\"), TMP_ESCAPED).replace(tmp, TMP);
  match (windows_binary(), tmp.rsplit(['/', '\\']).next()) {
    (Some(_), Some(name)) if !name.is_empty() => text.replace(name, TMP_NAME),
    _ => text,
  }
}

/// How one output stream is checked.
#[derive(Clone, Debug)]
pub(crate) enum Expect {
  /// Exactly this text (after `{{TMP}}` substitution).
  Exact(String),
  /// The whole stream matches this regular expression (after `{{TMP}}`
  /// substitution, with the path regex-escaped).
  Matches(String),
  /// Anything goes.
  Any,
}

/// What a finished run produced, for further checks.
pub(crate) struct Output {
  pub tempdir: TempDir,
  pub root: PathBuf,
  pub stdout: String,
  pub stderr: String,
  pub status: i32,
}

/// Builder for one run of the binary under test.
pub(crate) struct Test {
  justfile: Option<String>,
  files: Vec<(String, String)>,
  dirs: Vec<String>,
  symlinks: Vec<(String, String)>,
  args: Vec<String>,
  env: Vec<(String, String)>,
  stdin: String,
  current_dir: String,
  stdout: Expect,
  stderr: Expect,
  status: i32,
  expect_files: Vec<(String, String)>,
  binary: Option<OsString>,
}

impl Default for Test {
  fn default() -> Self {
    Self::new()
  }
}

impl Test {
  pub(crate) fn new() -> Self {
    Test {
      justfile: None,
      files: Vec::new(),
      dirs: Vec::new(),
      symlinks: Vec::new(),
      args: Vec::new(),
      env: Vec::new(),
      stdin: String::new(),
      current_dir: String::new(),
      stdout: Expect::Exact(String::new()),
      stderr: Expect::Exact(String::new()),
      status: 0,
      expect_files: Vec::new(),
      binary: None,
    }
  }

  /// Run this binary instead of the one under test.
  pub(crate) fn binary(mut self, path: impl Into<OsString>) -> Self {
    self.binary = Some(path.into());
    self
  }

  pub(crate) fn justfile(mut self, contents: &str) -> Self {
    self.justfile = Some(contents.to_owned());
    self
  }

  /// Write a file (parents created) relative to the temporary directory;
  /// `{{TMP}}` in the contents is substituted.
  pub(crate) fn write(mut self, path: &str, contents: &str) -> Self {
    self.files.push((path.to_owned(), contents.to_owned()));
    self
  }

  /// Create a directory (and parents) relative to the temporary directory.
  pub(crate) fn dir(mut self, path: &str) -> Self {
    self.dirs.push(path.to_owned());
    self
  }

  /// Create a symbolic link (Unix) relative to the temporary directory,
  /// pointing to `target` as written.
  pub(crate) fn symlink(mut self, link: &str, target: &str) -> Self {
    self.symlinks.push((link.to_owned(), target.to_owned()));
    self
  }

  /// Append arguments; `{{TMP}}` in them is replaced by the temporary directory.
  pub(crate) fn args<S: AsRef<str>>(mut self, args: &[S]) -> Self {
    self.args.extend(args.iter().map(|arg| arg.as_ref().to_owned()));
    self
  }

  pub(crate) fn arg(self, arg: &str) -> Self {
    self.args(&[arg])
  }

  /// Set an environment variable; `{{TMP}}` in the value is substituted.
  pub(crate) fn env(mut self, key: &str, value: &str) -> Self {
    self.env.push((key.to_owned(), value.to_owned()));
    self
  }

  pub(crate) fn stdin(mut self, stdin: &str) -> Self {
    stdin.clone_into(&mut self.stdin);
    self
  }

  /// Run in this directory, relative to the temporary directory (created if missing).
  pub(crate) fn current_dir(mut self, dir: &str) -> Self {
    dir.clone_into(&mut self.current_dir);
    self
  }

  pub(crate) fn stdout(mut self, expected: &str) -> Self {
    self.stdout = Expect::Exact(expected.to_owned());
    self
  }

  pub(crate) fn stderr(mut self, expected: &str) -> Self {
    self.stderr = Expect::Exact(expected.to_owned());
    self
  }

  /// The whole of stdout must match this regular expression.
  pub(crate) fn stdout_regex(mut self, pattern: &str) -> Self {
    self.stdout = Expect::Matches(pattern.to_owned());
    self
  }

  /// The whole of stderr must match this regular expression.
  pub(crate) fn stderr_regex(mut self, pattern: &str) -> Self {
    self.stderr = Expect::Matches(pattern.to_owned());
    self
  }

  pub(crate) fn any_stdout(mut self) -> Self {
    self.stdout = Expect::Any;
    self
  }

  pub(crate) fn any_stderr(mut self) -> Self {
    self.stderr = Expect::Any;
    self
  }

  pub(crate) fn status(mut self, status: i32) -> Self {
    self.status = status;
    self
  }

  /// After the run, this file must exist with exactly these contents.
  pub(crate) fn expect_file(mut self, path: &str, contents: &str) -> Self {
    self.expect_files.push((path.to_owned(), contents.to_owned()));
    self
  }

  /// Run and panic with a readable diff on any mismatch.
  #[track_caller]
  pub(crate) fn run(self) -> Output {
    match self.try_run() {
      Ok(output) => output,
      Err(message) => panic!("{message}"),
    }
  }

  /// Run without checking anything, for recording what a binary prints.
  pub(crate) fn capture(&self) -> Result<Output, String> {
    let tempdir = tempfile::tempdir().map_err(|error| format!("tempdir: {error}"))?;
    let root =
      tempdir.path().canonicalize().map_err(|error| format!("canonicalize tempdir: {error}"))?;
    let tmp = shown_path(&root);
    self.populate(&root, &tmp)?;
    let (stdout, stderr, status) = self.execute(&root, &tmp)?;
    Ok(Output { tempdir, root, stdout, stderr, status })
  }

  /// Run and describe every mismatch instead of panicking.
  pub(crate) fn try_run(self) -> Result<Output, String> {
    let Output { tempdir, root, stdout, stderr, status } = self.capture()?;
    let tmp = shown_path(&root);
    let mut problems = String::new();
    check_stream("stdout", &self.stdout, &stdout, &tmp, &mut problems);
    check_stream("stderr", &self.stderr, &stderr, &tmp, &mut problems);
    if status != self.status {
      let _ = writeln!(problems, "exit status: expected {}, got {status}", self.status);
    }
    self.check_files(&root, &tmp, &mut problems);
    if problems.is_empty() {
      Ok(Output { tempdir, root, stdout, stderr, status })
    } else {
      Err(format!("args: {:?}\n{problems}", self.args))
    }
  }

  fn populate(&self, root: &Path, tmp: &str) -> Result<(), String> {
    if let Some(justfile) = &self.justfile {
      write_file(&root.join("justfile"), justfile)?;
    }
    for (path, contents) in &self.files {
      write_file(&root.join(path), &fill(contents, tmp))?;
    }
    for dir in &self.dirs {
      create_dir(&root.join(dir))?;
    }
    for (link, target) in &self.symlinks {
      create_symlink(&root.join(link), target)?;
    }
    create_dir(&root.join(&self.current_dir))
  }

  fn execute(&self, root: &Path, tmp: &str) -> Result<(String, String, i32), String> {
    let mut attempts = 0;
    loop {
      let (stdout, stderr, status) = self.execute_once(root, tmp)?;
      attempts += 1;
      if attempts < 4
        && windows_binary().is_some()
        && (wine_disturbed(&stderr) || self.silent_failure_unexpected(&stdout, &stderr, status))
      {
        continue;
      }
      return Ok((stdout, stderr, status));
    }
  }

  /// A run that failed without a word on either stream when the case
  /// expects otherwise: `just` always says why it fails, so the launch
  /// failed, and Wine (whose own messages `WINEDEBUG=-all` silences) is to
  /// blame.
  fn silent_failure_unexpected(&self, stdout: &str, stderr: &str, status: i32) -> bool {
    let silent = |expect: &Expect| matches!(expect, Expect::Exact(text) if text.is_empty());
    status != 0
      && stdout.is_empty()
      && stderr.is_empty()
      && !(status == self.status && silent(&self.stdout) && silent(&self.stderr))
  }

  fn execute_once(&self, root: &Path, tmp: &str) -> Result<(String, String, i32), String> {
    let program = self.binary.clone().unwrap_or_else(binary);
    let mut command = match windows_binary() {
      Some(_) => {
        let mut command = Command::new("wine");
        command.arg(program);
        command
      }
      None => Command::new(program),
    };
    command
      .current_dir(root.join(&self.current_dir))
      .args(self.args.iter().map(|arg| fill(arg, tmp)))
      .stdin(Stdio::piped())
      .stdout(Stdio::piped())
      .stderr(Stdio::piped());
    clean_environment(&mut command);
    for (key, value) in &self.env {
      command.env(key, fill(value, tmp));
    }
    let mut child = command.spawn().map_err(|error| format!("spawn just: {error}"))?;
    if let Some(mut stdin) = child.stdin.take() {
      // A recipe may exit without reading stdin; a broken pipe is fine.
      let _ = stdin.write_all(self.stdin.as_bytes());
    }
    let output = if windows_binary().is_some() {
      wait_with_deadline(child)?
    } else {
      child.wait_with_output().map_err(|error| format!("wait for just: {error}"))?
    };
    Ok((
      String::from_utf8_lossy(&output.stdout).into_owned(),
      String::from_utf8_lossy(&output.stderr).into_owned(),
      process::exit_code(&output.status),
    ))
  }

  fn check_files(&self, root: &Path, tmp: &str, problems: &mut String) {
    for (path, expected) in &self.expect_files {
      match fs::read_to_string(root.join(path)) {
        Ok(actual) => check_stream(
          &format!("file `{path}`"),
          &Expect::Exact(expected.clone()),
          &actual,
          tmp,
          problems,
        ),
        Err(error) => {
          let _ = writeln!(problems, "file `{path}`: cannot read: {error}");
        }
      }
    }
  }
}

/// The binary under test: ours, or `$TEST_JUST_BIN` (e.g. the reference
/// binary, to check that the captured tables are still right), or the
/// Windows binary `$JUST_TEST_WINDOWS`.
pub(crate) fn binary() -> std::ffi::OsString {
  windows_binary()
    .or_else(|| std::env::var_os("TEST_JUST_BIN"))
    .unwrap_or_else(|| env!("CARGO_BIN_EXE_just").into())
}

/// The Windows binary to run under Wine (`$JUST_TEST_WINDOWS`), if any.
pub(crate) fn windows_binary() -> Option<OsString> {
  std::env::var_os("JUST_TEST_WINDOWS").filter(|value| !value.is_empty())
}

/// A path as the binary under test sees it: under Wine, Unix paths are on
/// drive `Z:` with `\` separators.
pub(crate) fn shown_path(path: &Path) -> String {
  let path = path.to_string_lossy();
  match windows_binary() {
    Some(_) => format!("Z:{}", path.replace('/', "\\")),
    None => path.into_owned(),
  }
}

/// How long a run under Wine may take before it counts as hung.
const WINE_DEADLINE: std::time::Duration = std::time::Duration::from_secs(120);

/// Wait for `child` and its output, for at most [`WINE_DEADLINE`]: a Windows
/// process that hangs, or one that leaves the output pipes open, fails the
/// test instead of stalling the suite.
fn wait_with_deadline(child: std::process::Child) -> Result<std::process::Output, String> {
  let (sender, receiver) = std::sync::mpsc::channel();
  let id = child.id();
  std::thread::spawn(move || {
    let _ = sender.send(child.wait_with_output());
  });
  if let Ok(output) = receiver.recv_timeout(WINE_DEADLINE) {
    output.map_err(|error| format!("wait for just: {error}"))
  } else {
    let _ = Command::new("kill").arg(id.to_string()).status();
    Err(format!("no end to the run within {} seconds", WINE_DEADLINE.as_secs()))
  }
}

/// Whether Wine itself, not the program, wrote to stderr or failed the
/// launch (it does about once in 300 runs); only then is a run retried.
fn wine_disturbed(stderr: &str) -> bool {
  (stderr.contains("wine client error:")
    && (stderr.contains("sendmsg: Bad file descriptor")
      || stderr.contains("Socket operation on non-socket")))
    || stderr.contains("Internal error. (os error 1359)")
}

/// Keep only PATH and HOME (and Wine's own settings), so the outcome does
/// not depend on the caller's environment (no `JUST_*` variables, no
/// colour).
pub(crate) fn clean_environment(command: &mut Command) {
  command.env_clear();
  for key in ["PATH", "HOME", "WINEPREFIX", "WINEDEBUG", "WINEDLLOVERRIDES"] {
    if let Some(value) = std::env::var_os(key) {
      command.env(key, value);
    }
  }
  command.env("NO_COLOR", "1");
}

/// `just ARGS` in `directory`, in the environment of `clean_environment`,
/// its standard input empty.
pub(crate) fn just_in(directory: &Path, args: &[&str]) -> Command {
  let mut command = Command::new(binary());
  clean_environment(&mut command);
  command.current_dir(directory).args(args).stdin(Stdio::null());
  command
}

/// Run `just ARGS` in `directory` (see `just_in`).
pub(crate) fn run_just(directory: &Path, args: &[&str]) -> std::process::Output {
  just_in(directory, args).output().expect("run just")
}

/// Run `just ARGS` in `directory` and check its exact outputs and status.
#[track_caller]
pub(crate) fn expect_run(
  directory: &Path,
  args: &[&str],
  stdout: &str,
  stderr: &str,
  status: i32,
) -> std::process::Output {
  let output = run_just(directory, args);
  assert_eq!(text(&output.stderr), stderr, "stderr of {args:?}");
  assert_eq!(text(&output.stdout), stdout, "stdout of {args:?}");
  assert_eq!(output.status.code(), Some(status), "status of {args:?}");
  output
}

/// Bytes a process wrote, as text.
pub(crate) fn text(bytes: &[u8]) -> String {
  String::from_utf8_lossy(bytes).into_owned()
}

fn write_file(path: &Path, contents: &str) -> Result<(), String> {
  if let Some(parent) = path.parent() {
    create_dir(parent)?;
  }
  fs::write(path, contents).map_err(|error| format!("write {}: {error}", path.display()))
}

#[cfg(unix)]
fn create_symlink(link: &Path, target: &str) -> Result<(), String> {
  std::os::unix::fs::symlink(target, link)
    .map_err(|error| format!("symlink {}: {error}", link.display()))
}

#[cfg(not(unix))]
fn create_symlink(link: &Path, _: &str) -> Result<(), String> {
  Err(format!("symlink {}: the cases make links on Unix only", link.display()))
}

fn create_dir(path: &Path) -> Result<(), String> {
  fs::create_dir_all(path).map_err(|error| format!("create {}: {error}", path.display()))
}

fn check_stream(label: &str, expect: &Expect, actual: &str, tmp: &str, problems: &mut String) {
  match expect {
    Expect::Any => {}
    Expect::Exact(expected) => {
      let expected = fill(expected, tmp);
      if expected != actual {
        let _ = writeln!(
          problems,
          "{label} differs (< expected, > actual):\n{}",
          StrComparison::new(&expected, actual)
        );
      }
    }
    Expect::Matches(pattern) => {
      let pattern = format!("^(?:{})$", pattern.replace(TMP, &regex::escape(tmp)));
      match Regex::new(&pattern) {
        Ok(regex) if regex.is_match(actual) => {}
        Ok(_) => {
          let _ = writeln!(problems, "{label} does not match /{pattern}/:\n{actual}");
        }
        Err(error) => {
          let _ = writeln!(problems, "{label}: bad regex /{pattern}/: {error}");
        }
      }
    }
  }
}
