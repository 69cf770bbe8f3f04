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
