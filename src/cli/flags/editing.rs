//! Commands that write or open the justfile: `--fmt`, `--edit`, `--init`.

use super::{command, option, Command, Flag, Kind, Takes};

/// The rows of this file.
pub(crate) const ROWS: &[Flag] = &[FORMAT, CHECK, INDENTATION, EDIT, INIT];

pub(crate) const FORMAT: Flag = Flag {
  aliases: &[FORMAT_ALIAS],
  ..command("fmt", Takes::Switch, Command::Format, "Rewrite the justfile in canonical form")
};

pub(crate) const CHECK: Flag = Flag {
  requires: Some("fmt"),
  ..option("check", Takes::Switch, "With `--fmt`: change nothing; exit 0 if the justfile is formatted, else print a diff and exit 1", |o, v| {
    o.check = v.switch();
  })
};

pub(crate) const INDENTATION: Flag = Flag {
  env: Some("JUST_INDENTATION"),
  ..option(
    "indentation",
    Takes::Value("INDENTATION", Kind::Indentation),
    "Indentation of recipe bodies when formatting",
    |o, v| {
      o.indentation = v.string();
    },
  )
};

pub(crate) const EDIT: Flag = Flag {
  short: Some('e'),
  shown_default: Some(DEFAULT_EDITOR),
  ..command(
    "edit",
    Takes::Switch,
    Command::Edit,
    "Open the justfile in $VISUAL or $EDITOR (default `{default}`)",
  )
};

pub(crate) const INIT: Flag = Flag {
  aliases: &["initialize"],
  ..command("init", Takes::Switch, Command::Init, "Create a justfile in the project root")
};

/// The editor when neither `$VISUAL` nor `$EDITOR` names one.
pub(crate) const DEFAULT_EDITOR: &str = "vim";

/// `--fmt`'s other name, by which just 1.58 reports it.
pub(crate) const FORMAT_ALIAS: &str = "format";

#[cfg(test)]
mod tests {
  use crate::cli::config::Subcommand;
  use crate::cli::flags::testing::{command, error, options, MISSING};

  #[test]
  fn fmt_is_also_format() {
    assert_eq!(command(&["--fmt"]), Subcommand::Format);
    assert_eq!(command(&["--format"]), Subcommand::Format);
  }

  #[test]
  fn check_needs_fmt() {
    assert!(options(&["--fmt", "--check"]).check);
    assert_eq!(error(&["--check"]), MISSING);
  }

  #[test]
  fn indentation_is_spaces_or_tabs() {
    assert_eq!(options(&["--indentation", "\t"]).indentation.as_deref(), Some("\t"));
    assert_eq!(
      error(&["--indentation", "x"]),
      "error: invalid value 'x' for '--indentation <INDENTATION>': indentation must be spaces or tabs"
    );
  }

  #[test]
  fn edit_and_init_are_commands() {
    assert_eq!(command(&["-e"]), Subcommand::Edit);
    assert_eq!(command(&["--init"]), Subcommand::Init);
    assert_eq!(command(&["--initialize"]), Subcommand::Init);
  }
}
