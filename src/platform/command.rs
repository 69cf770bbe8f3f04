//! How a command line reaches a shell, and how a shebang script is started.
//!
//! On Unix a shell gets its command line as one argument and the kernel
//! reads a script's `#!` line. On Windows every program parses its own
//! command line: cmd takes what follows `/c` as it is, so a line for
//! `cmd`/`cmd.exe` is passed unquoted (any other shell gets the usual
//! argument quoting), and a shebang script is started by running its
//! interpreter, translated by `cygpath` when it is a Unix path.

use std::io;
use std::path::Path;
use std::process::Command;

/// `SHELL ARGUMENTS… LINE`.
pub(crate) fn shell_line(program: &str, arguments: &[String], line: &str) -> Command {
  let mut command = Command::new(program);
  command.args(arguments);
  push_line(&mut command, program, line);
  command
}

#[cfg(unix)]
fn push_line(command: &mut Command, _program: &str, line: &str) {
  command.arg(line);
}

#[cfg(windows)]
fn push_line(command: &mut Command, program: &str, line: &str) {
  use std::os::windows::process::CommandExt;
  match Path::new(program).file_name().and_then(|name| name.to_str()) {
    Some("cmd" | "cmd.exe") => command.raw_arg(line),
    _ => command.arg(line),
  };
}

/// Whether a shebang script keeps its `#!` line's text: on Windows the
/// interpreter is run explicitly and may not understand it (cmd), so the
/// line is left empty.
pub(crate) const SHEBANG_LINE_KEPT: bool = cfg!(unix);

/// Why a shebang script's interpreter could not be named on Windows.
#[derive(Debug)]
#[cfg_attr(unix, allow(dead_code))]
pub(crate) enum ShebangError {
  /// `cygpath` could not be started.
  NotFound(io::Error),
  /// `cygpath` ran and failed, with this exit code.
  Status(Option<i32>),
  /// `cygpath` succeeded but its output is no path (not UTF-8).
  Output(String),
}

/// The command running the shebang script at `path` whose `#!` line names
/// `interpreter` (and `argument`).
#[cfg(unix)]
pub(crate) fn shebang(
  path: &Path,
  _interpreter: &str,
  _argument: Option<&str>,
  _cygpath: &Path,
) -> Result<Command, ShebangError> {
  Ok(Command::new(path))
}

#[cfg(windows)]
pub(crate) fn shebang(
  path: &Path,
  interpreter: &str,
  argument: Option<&str>,
  cygpath: &Path,
) -> Result<Command, ShebangError> {
  let program = if interpreter.contains('/') {
    windows_path(interpreter, cygpath)?
  } else {
    interpreter.to_owned()
  };
  let mut command = Command::new(program);
  command.args(argument).arg(path);
  Ok(command)
}

/// The Unix (Cygwin or MSYS) spelling of a Windows path, for
/// `invocation_directory()`: None on Unix, or when `cygpath` fails.
#[cfg(unix)]
pub(crate) fn unix_path(_path: &Path, _cygpath: &Path) -> Option<String> {
  None
}

#[cfg(windows)]
pub(crate) fn unix_path(path: &Path, cygpath: &Path) -> Option<String> {
  convert(cygpath, "--unix", path.as_os_str()).ok()
}

/// `cygpath --windows PATH`, the Windows path of a Cygwin or MSYS path.
#[cfg(windows)]
fn windows_path(path: &str, cygpath: &Path) -> Result<String, ShebangError> {
  convert(cygpath, "--windows", path.as_ref())
}

/// `cygpath DIRECTION PATH`: its output, without the line end.
#[cfg(windows)]
fn convert(
  cygpath: &Path,
  direction: &str,
  path: &std::ffi::OsStr,
) -> Result<String, ShebangError> {
  let output = Command::new(cygpath)
    .arg(direction)
    .arg(path)
    .stdin(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .output()
    .map_err(ShebangError::NotFound)?;
  if !output.status.success() {
    return Err(ShebangError::Status(output.status.code()));
  }
  let text =
    String::from_utf8(output.stdout).map_err(|error| ShebangError::Output(error.to_string()))?;
  Ok(text.trim_end_matches(['\r', '\n']).to_owned())
}
