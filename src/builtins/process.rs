//! Running a child process and capturing its standard output, shared by
//! backticks, `shell()` and dotenv commands.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Read};
use std::process::{Command, ExitStatus, Stdio};
use std::string::FromUtf8Error;

use snafu::Snafu;

use crate::platform::exit::{signal_status, Exit};
use crate::platform::supervisor::{SpawnError, Supervisor};

#[derive(Debug, Snafu)]
#[snafu(visibility(pub(crate)))]
pub(crate) enum ProcessError {
  #[snafu(display("process exited with status code {code}"))]
  ExitCode { code: i32 },
  #[snafu(display("process terminated by signal {signal}"))]
  Signal { signal: i32 },
  #[snafu(display("process experienced an unknown failure"))]
  Unknown,
  /// Built by callers that track signals received while the child ran.
  #[snafu(display("process succeeded but `just` was interrupted by signal {name}"))]
  Interrupted { name: String, signal: i32 },
  #[snafu(display("error executing process: {source}"))]
  Io { source: io::Error },
  #[snafu(display("could not convert process stdout to UTF-8: {source}"))]
  Utf8 { source: FromUtf8Error },
}

impl ProcessError {
  /// The exit status `just` should use: the child's code, 128 + signal, else
  /// 1 (also when `just` itself was interrupted; backticks use 128 + signal).
  pub(crate) fn exit_status(&self) -> i32 {
    match self {
      ProcessError::ExitCode { code } => *code,
      ProcessError::Signal { signal } => signal_status(*signal),
      ProcessError::Unknown
      | ProcessError::Interrupted { .. }
      | ProcessError::Io { .. }
      | ProcessError::Utf8 { .. } => 1,
    }
  }

  /// Classify a finished child's status; None if it succeeded.
  pub(crate) fn from_status(status: ExitStatus) -> Option<ProcessError> {
    if status.success() {
      return None;
    }
    Some(match Exit::of(status) {
      Exit::Code(code) => ProcessError::ExitCode { code },
      Exit::Signal(signal) => ProcessError::Signal { signal },
      Exit::Unknown => ProcessError::Unknown,
    })
  }
}

/// Run `command` (stdin inherited, stderr inherited or discarded when
/// `quiet`) through `supervisor` and return its stdout minus one trailing
/// `\n` or `\r\n`.
pub(crate) fn capture_stdout(
  supervisor: &Supervisor,
  command: &mut Command,
  quiet: bool,
) -> Result<String, ProcessError> {
  command.stdin(Stdio::inherit()).stdout(Stdio::piped());
  command.stderr(if quiet { Stdio::null() } else { Stdio::inherit() });
  let mut running = supervisor.spawn(command).map_err(|error| match error {
    SpawnError::Interrupted { signal } => interrupted(signal),
    SpawnError::Io(source) => ProcessError::Io { source },
  })?;
  let mut stdout = Vec::new();
  let read = match running.take_stdout() {
    Some(mut pipe) => pipe.read_to_end(&mut stdout).map(drop),
    None => Ok(()),
  };
  let status = running.wait().map_err(|source| ProcessError::Io { source })?;
  read.map_err(|source| ProcessError::Io { source })?;
  if let Some(error) = ProcessError::from_status(status) {
    return Err(error);
  }
  // A signal handled while the child ran ends the run though it succeeded
  // (left pending: nothing else of the run starts meanwhile).
  if let Some(signal) = supervisor.pending() {
    return Err(interrupted(signal));
  }
  let mut text = String::from_utf8(stdout).map_err(|source| ProcessError::Utf8 { source })?;
  strip_one_line_ending(&mut text);
  Ok(text)
}

fn interrupted(signal: i32) -> ProcessError {
  ProcessError::Interrupted { name: crate::platform::signals::name(signal).to_string(), signal }
}

fn strip_one_line_ending(text: &mut String) {
  if text.ends_with("\r\n") {
    text.truncate(text.len() - 2);
  } else if text.ends_with('\n') {
    text.truncate(text.len() - 1);
  }
}

/// Environment changes for a child: names removed, then variables set.
/// Build it in this order: dotenv, unexports and exports, `[env]`; a later `set`/`remove` cancels an earlier one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CommandEnvironment {
  pub set: BTreeMap<String, String>,
  pub remove: BTreeSet<String>,
}

impl CommandEnvironment {
  pub(crate) const fn new() -> Self {
    CommandEnvironment { set: BTreeMap::new(), remove: BTreeSet::new() }
  }

  pub(crate) fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
    let name = name.into();
    self.remove.remove(&name);
    self.set.insert(name, value.into());
  }

  pub(crate) fn remove(&mut self, name: impl Into<String>) {
    let name = name.into();
    self.set.remove(&name);
    self.remove.insert(name);
  }

  pub(crate) fn apply(&self, command: &mut Command) {
    // `JUST_WATCH` applies to the `just` it was given to, never to a
    // nested one in a recipe, which would watch and never return.
    // Removing a variable makes the child's environment a copy built for
    // every spawn, so only when there is one to remove.
    if just_watch_is_set() {
      command.env_remove("JUST_WATCH");
    }
    for name in &self.remove {
      command.env_remove(name);
    }
    command.envs(&self.set);
  }
}

/// Whether `just` was given `JUST_WATCH`, looked up once: `just` never
/// changes its own environment.
fn just_watch_is_set() -> bool {
  static SET: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
  *SET.get_or_init(|| std::env::var_os("JUST_WATCH").is_some())
}

/// `SHELL ARGS... COMMAND` for running one command line through a shell.
pub(crate) fn shell_command(program: &str, arguments: &[String], command_line: &str) -> Command {
  crate::platform::command::shell_line(program, arguments, command_line)
}

/// Whether the shell is a Windows shell that must not get the command twice
/// (as `$0`) when running `shell()`.
pub(crate) fn is_windows_shell(program: &str) -> bool {
  let file_name = program.rsplit(['/', '\\']).next().unwrap_or(program);
  matches!(file_name, "cmd" | "cmd.exe" | "powershell" | "powershell.exe" | "pwsh" | "pwsh.exe")
}

#[cfg(test)]
mod tests {
  use super::*;

  fn sh(script: &str) -> Command {
    shell_command("sh", &["-cu".to_string()], script)
  }

  #[test]
  fn captures_and_strips_one_line_ending() {
    let cases = [
      ("printf 'a\\n'", "a"),
      ("printf 'a\\n\\n'", "a\n"),
      ("printf 'a\\r\\n'", "a"),
      ("printf 'a'", "a"),
      ("true", ""),
    ];
    for (script, expected) in cases {
      assert_eq!(
        capture_stdout(&Supervisor::detached(false), &mut sh(script), true).unwrap(),
        expected,
        "{script}"
      );
    }
  }

  #[test]
  fn failures() {
    let cases = [
      ("exit 4", "process exited with status code 4", 4),
      ("kill -TERM $$", "process terminated by signal 15", 143),
      (
        "printf '\\377'",
        "could not convert process stdout to UTF-8: invalid utf-8 sequence of 1 bytes from index 0",
        1,
      ),
    ];
    for (script, message, status) in cases {
      let error = capture_stdout(&Supervisor::detached(false), &mut sh(script), true).unwrap_err();
      assert_eq!(error.to_string(), message);
      assert_eq!(error.exit_status(), status);
    }
  }

  #[test]
  fn io_error() {
    let error =
      capture_stdout(&Supervisor::detached(false), &mut Command::new("/nonexistent/program"), true)
        .unwrap_err();
    assert!(error.to_string().starts_with("error executing process: "), "{error}");
  }

  #[test]
  fn environment_changes() {
    let mut environment = CommandEnvironment::new();
    environment.set("JUST_TEST_A", "1");
    environment.remove("JUST_TEST_A");
    environment.remove("JUST_TEST_B");
    environment.set("JUST_TEST_B", "2");
    let mut command = sh("echo ${JUST_TEST_A:-none} $JUST_TEST_B");
    environment.apply(&mut command);
    assert_eq!(capture_stdout(&Supervisor::detached(false), &mut command, true).unwrap(), "none 2");
  }

  #[test]
  fn windows_shells() {
    for (program, expected) in
      [("cmd.exe", true), ("C:\\x\\pwsh", true), ("/bin/sh", false), ("bash", false)]
    {
      assert_eq!(is_windows_shell(program), expected, "{program}");
    }
  }
}
