//! What recipes see: overrides and dotenv files.

use std::path::PathBuf;

use super::{nothing, option, switch, Completer, Flag, Kind, Takes};

/// The rows of this file.
pub(crate) const ROWS: &[Flag] = &[SET, DOTENV_COMMAND, DOTENV_FILENAME, DOTENV_PATH, NO_DOTENV];

pub(crate) const SET: Flag = Flag {
  completer: Completer::Variables,
  // Read with the positional overrides, before the rows apply.
  ..option("set", Takes::Pair("VARIABLE", "VALUE"), "Set VARIABLE to VALUE", nothing)
};

pub(crate) const DOTENV_COMMAND: Flag = Flag {
  env: Some("JUST_DOTENV_COMMAND"),
  conflicts: &["dotenv-filename", "dotenv-path", "no-dotenv"],
  ..option(
    "dotenv-command",
    Takes::Values("COMMAND", Kind::Text),
    "Load the output of COMMAND as a dotenv file",
    |o, v| {
      o.dotenv_command = v.strings();
    },
  )
};

pub(crate) const DOTENV_FILENAME: Flag = Flag {
  short: Some('F'),
  conflicts: &["dotenv-path"],
  ..option(
    "dotenv-filename",
    Takes::Values("DOTENV_FILENAME", Kind::Text),
    "Look for a dotenv file with this name instead of `.env`",
    |o, v| {
      o.dotenv_filename = v.strings();
    },
  )
};

pub(crate) const DOTENV_PATH: Flag = Flag {
  short: Some('E'),
  completer: Completer::File,
  ..option(
    "dotenv-path",
    Takes::Values("DOTENV_PATH", Kind::Text),
    "Load this dotenv file instead of searching for one",
    |o, v| {
      o.dotenv_path = v.strings().into_iter().map(PathBuf::from).collect();
    },
  )
};

pub(crate) const NO_DOTENV: Flag =
  switch("no-dotenv", "JUST_NO_DOTENV", "Never load dotenv files", |o, v| o.no_dotenv = v.switch());

#[cfg(test)]
mod tests {
  use std::path::PathBuf;

  use crate::cli::flags::testing::{error, options, strings};

  #[test]
  fn set_overrides_a_variable_before_positional_overrides() {
    let overrides = options(&["--set", "a", "1", "--set", "m::b", "2", "a=3"]).overrides;
    let overrides: Vec<String> = overrides.iter().map(ToString::to_string).collect();
    assert_eq!(overrides, ["a=1", "m::b=2", "a=3"]);
  }

  #[test]
  fn dotenv_command_excludes_the_other_dotenv_flags() {
    assert_eq!(options(&["--dotenv-command", "x"]).dotenv_command, strings(&["x"]));
    assert_eq!(
      error(&["--dotenv-command", "x", "--no-dotenv"]),
      "error: the argument '--dotenv-command <COMMAND>' cannot be used with '--no-dotenv'"
    );
  }

  #[test]
  fn dotenv_filename_and_path_may_repeat() {
    assert_eq!(options(&["-F", "a", "-F", "b"]).dotenv_filename, strings(&["a", "b"]));
    assert_eq!(options(&["-E", "x.env"]).dotenv_path, [PathBuf::from("x.env")]);
  }

  #[test]
  fn no_dotenv_loads_none() {
    assert!(options(&["--no-dotenv"]).no_dotenv);
  }
}
