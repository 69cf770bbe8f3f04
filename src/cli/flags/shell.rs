//! How recipe lines, backticks and `--command` run: the shell, its arguments, temporary files.

use super::{command, option, path, text, Command, Completer, Flag, Takes};

/// The rows of this file.
pub(crate) const ROWS: &[Flag] =
  &[SHELL, SHELL_ARG, CLEAR_SHELL_ARGS, SHELL_COMMAND, COMMAND, CYGPATH, TEMPDIR];

pub(crate) const SHELL: Flag =
  text("shell", "SHELL", "Run recipe lines and backticks with this shell", |o, v| {
    o.shell = v.string();
  });

pub(crate) const SHELL_ARG: Flag = Flag {
  overrides: Some("clear-shell-args"),
  ..option(
    "shell-arg",
    Takes::HyphenValues("SHELL_ARG"),
    "Pass this argument to the shell",
    |o, v| {
      if v.on_command_line() {
        o.shell_args = Some(v.strings());
      }
    },
  )
};

pub(crate) const CLEAR_SHELL_ARGS: Flag = Flag {
  overrides: Some("shell-arg"),
  // Before `--shell-arg`'s row, which replaces this when given.
  ..option("clear-shell-args", Takes::Switch, "Use no shell arguments", |o, v| {
    if v.switch() {
      o.shell_args = Some(Vec::new());
    }
  })
};

pub(crate) const SHELL_COMMAND: Flag = Flag {
  requires: Some("command"),
  ..option(
    "shell-command",
    Takes::Switch,
    "With `--command`: run the command through the shell",
    |o, v| {
      o.shell_command = v.switch();
    },
  )
};

pub(crate) const COMMAND: Flag = Flag {
  short: Some('c'),
  ..command(
    "command",
    Takes::Rest("COMMAND"),
    Command::Execute,
    "Run COMMAND with the justfile's working directory, dotenv, overrides and exports",
  )
};

pub(crate) const CYGPATH: Flag = Flag {
  env: Some("JUST_CYGPATH"),
  default: Some("cygpath"),
  completer: Completer::File,
  ..path("cygpath", "CYGPATH", "Path converter used on Windows", |o, v| {
    if let Some(cygpath) = v.path() {
      o.cygpath = cygpath;
    }
  })
};

pub(crate) const TEMPDIR: Flag = Flag {
  env: Some("JUST_TEMPDIR"),
  completer: Completer::Directory,
  ..path("tempdir", "TEMPDIR", "Directory for temporary files", |o, v| o.tempdir = v.path())
};

#[cfg(test)]
mod tests {
  use std::path::PathBuf;

  use crate::cli::config::Subcommand;
  use crate::cli::flags::testing::{command, error, options, strings, MISSING};

  #[test]
  fn shell_and_its_arguments() {
    assert_eq!(options(&["--shell", "bash"]).shell.as_deref(), Some("bash"));
    assert_eq!(options(&["--shell-arg", "-c"]).shell_args, Some(strings(&["-c"])));
    assert_eq!(options(&["--clear-shell-args"]).shell_args, Some(Vec::new()));
    let last = options(&["--clear-shell-args", "--shell-arg", "-x"]).shell_args;
    assert_eq!(last, Some(strings(&["-x"])));
  }

  #[test]
  fn command_runs_the_rest_of_the_line() {
    let execute = Subcommand::Command { binary: "ls".into(), arguments: strings(&["-l", "x"]) };
    assert_eq!(command(&["-c", "ls", "-l", "x"]), execute);
    assert!(options(&["--shell-command", "-c", "ls"]).shell_command);
    assert_eq!(error(&["--shell-command"]), MISSING);
  }

  #[test]
  fn cygpath_and_tempdir() {
    assert_eq!(options(&[]).cygpath, PathBuf::from("cygpath"));
    assert_eq!(options(&["--cygpath", "/c"]).cygpath, PathBuf::from("/c"));
    assert_eq!(options(&["--tempdir", "t"]).tempdir, Some(PathBuf::from("t")));
  }
}
