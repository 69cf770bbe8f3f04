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
pub fn shell_line(program: &str, arguments: &[String], line: &str) -> Command {
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
pub const SHEBANG_LINE_KEPT: bool = cfg!(unix);

/// The command running the shebang script at `path` whose `#!` line names
/// `interpreter` (and `argument`).
#[cfg(unix)]
pub fn shebang(
  path: &Path,
  _interpreter: &str,
  _argument: Option<&str>,
  _cygpath: &Path,
) -> io::Result<Command> {
  Ok(Command::new(path))
}

#[cfg(windows)]
pub fn shebang(
  path: &Path,
  interpreter: &str,
  argument: Option<&str>,
  cygpath: &Path,
) -> io::Result<Command> {
  let program = if interpreter.contains('/') {
    windows_path(interpreter, cygpath)?
  } else {
    interpreter.to_owned()
  };
  let mut command = Command::new(program);
  command.args(argument).arg(path);
  Ok(command)
}

/// `cygpath --windows PATH`, the Windows path of a Cygwin or MSYS path.
#[cfg(windows)]
fn windows_path(path: &str, cygpath: &Path) -> io::Result<String> {
  let output = Command::new(cygpath)
    .arg("--windows")
    .arg(path)
    .stdin(std::process::Stdio::null())
    .stderr(std::process::Stdio::inherit())
    .output()?;
  if !output.status.success() {
    return Err(io::Error::other(format!("`{}` failed: {}", cygpath.display(), output.status)));
  }
  let text = String::from_utf8(output.stdout).map_err(io::Error::other)?;
  Ok(text.trim_end_matches(['\r', '\n']).to_owned())
}
