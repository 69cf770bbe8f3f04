//! Printing one part of the justfile: a recipe, its usage, values, the whole justfile.

use super::{choice, command, Command, Completer, Flag, Takes, ARGUMENTS};
use crate::options::{DumpFormat, EvaluateFormat};

/// The rows of this file.
pub(crate) const ROWS: &[Flag] = &[SHOW, USAGE, EVALUATE, EVALUATE_FORMAT, DUMP, DUMP_FORMAT, JSON];

pub(crate) const SHOW: Flag = Flag {
  short: Some('s'),
  conflicts: &[ARGUMENTS],
  completer: Completer::RecipePaths,
  ..command("show", Takes::Words("RECIPE_PATH", 1), Command::Show, "Print the source of a recipe")
};

pub(crate) const USAGE: Flag = Flag {
  conflicts: &[ARGUMENTS],
  completer: Completer::RecipePaths,
  ..command("usage", Takes::Words("RECIPE_PATH", 1), Command::Usage, "Print how to call a recipe")
};

pub(crate) const EVALUATE: Flag = Flag {
  aliases: &["eval"],
  ..command(
    "evaluate",
    Takes::Switch,
    Command::Evaluate,
    "Print the values of variables (or of the one named)",
  )
};

pub(crate) const EVALUATE_FORMAT: Flag = Flag {
  env: Some("JUST_EVALUATE_FORMAT"),
  default: Some(EvaluateFormat::Just.word()),
  ..choice::<EvaluateFormat>(
    "evaluate-format",
    "FORMAT",
    "Output format of `--evaluate`",
    |o, v| {
      o.evaluate_format = v.choice().unwrap_or_default();
    },
  )
};

pub(crate) const DUMP: Flag = command("dump", Takes::Switch, Command::Dump, "Print the justfile");

pub(crate) const DUMP_FORMAT: Flag = Flag {
  env: Some("JUST_DUMP_FORMAT"),
  default: Some(DumpFormat::Just.word()),
  conflicts: &["json"],
  // Before `--json`'s row, which sets the format too.
  ..choice::<DumpFormat>("dump-format", "FORMAT", "Output format of `--dump`", |o, v| {
    o.dump_format = v.choice().unwrap_or_default();
  })
};

pub(crate) const JSON: Flag = Flag {
  apply: |o, v| {
    if v.switch() {
      o.dump_format = DumpFormat::Json;
    }
  },
  ..command("json", Takes::Switch, Command::Json, "Print the justfile as JSON")
};

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::config::Subcommand;
  use crate::cli::flags::testing::{command, error, options, strings};

  #[test]
  fn show_and_usage_take_a_recipe_path() {
    assert_eq!(command(&["-s", "a::b"]), Subcommand::Show { path: strings(&["a::b"]) });
    assert_eq!(command(&["--usage", "a", "b"]), Subcommand::Usage { path: strings(&["a", "b"]) });
  }

  #[test]
  fn evaluate_takes_at_most_one_variable() {
    assert_eq!(command(&["--evaluate"]), Subcommand::Evaluate { path: None });
    assert_eq!(command(&["--eval", "x"]), Subcommand::Evaluate { path: Some("x".into()) });
    assert_eq!(options(&["--evaluate-format", "shell"]).evaluate_format, EvaluateFormat::Shell);
  }

  #[test]
  fn dump_format_and_json() {
    assert_eq!(command(&["--dump"]), Subcommand::Dump);
    assert_eq!(options(&["--dump", "--dump-format", "json"]).dump_format, DumpFormat::Json);
    assert_eq!(command(&["--json"]), Subcommand::Dump);
    assert_eq!(options(&["--json"]).dump_format, DumpFormat::Json);
    assert_eq!(
      error(&["--json", "--dump-format", "just"]),
      "error: the argument '--json' cannot be used with '--dump-format <FORMAT>'"
    );
  }
}
