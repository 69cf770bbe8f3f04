//! `just` itself: its changelog, man page, shell completions, language server.

use super::{command, switch, Command, Flag, Kind, Takes};
use crate::options::Choice;

/// The rows of this file.
pub(crate) const ROWS: &[Flag] =
  &[CHANGELOG, CHEATSHEET, MAN, COMPLETIONS, COMPLETE_ALIASES, LSP, REQUEST];

pub(crate) const CHANGELOG: Flag =
  command("changelog", Takes::Switch, Command::Changelog, "Print the changelog");

pub(crate) const CHEATSHEET: Flag = command(
  "cheatsheet",
  Takes::Switch,
  Command::Cheatsheet,
  "Print every setting, attribute, function and constant with an example",
);

pub(crate) const MAN: Flag = command("man", Takes::Switch, Command::Man, "Print the man page");

pub(crate) const COMPLETIONS: Flag = command(
  "completions",
  Takes::Value("SHELL", Kind::Choice(CompletionShell::WORDS)),
  Command::Completions,
  "Print the completion script for SHELL",
);

pub(crate) const COMPLETE_ALIASES: Flag =
  switch("complete-aliases", "JUST_COMPLETE_ALIASES", "Offer aliases when completing", |o, v| {
    o.complete_aliases = v.switch();
  });

pub(crate) const LSP: Flag = command(
  "lsp",
  Takes::Switch,
  Command::Lsp,
  "Serve the Language Server Protocol on standard input and output (for editors)",
);

pub(crate) const REQUEST: Flag = Flag {
  hidden: true,
  ..command(
    "request",
    Takes::Value("REQUEST", Kind::Text),
    Command::Request,
    "Answer an internal JSON request",
  )
};

/// A shell `--completions` has a script for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CompletionShell {
  Bash,
  Elvish,
  Fish,
  Nushell,
  Powershell,
  Zsh,
}

crate::options::choice!(any_case CompletionShell {
  Bash = "bash",
  Elvish = "elvish",
  Fish = "fish",
  Nushell = "nushell" | "nu",
  Powershell = "powershell",
  Zsh = "zsh",
});

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::config::Subcommand;
  use crate::cli::flags::testing::{command, error, options};

  #[test]
  fn changelog_is_a_command() {
    assert_eq!(command(&["--changelog"]), Subcommand::Changelog);
  }

  #[test]
  fn man_is_a_command() {
    assert_eq!(command(&["--man"]), Subcommand::Man);
  }

  #[test]
  fn completions_take_a_shell_in_any_case() {
    let fish = Subcommand::Completions { shell: CompletionShell::Fish };
    assert_eq!(command(&["--completions", "Fish"]), fish);
    assert_eq!(
      error(&["--completions", "tcsh"]),
      "error: invalid value 'tcsh' for '--completions <SHELL>'"
    );
  }

  #[test]
  fn shells_are_read_in_any_case_and_by_alias() {
    crate::options::tests::check_table(CompletionShell::word);
    assert_eq!(CompletionShell::from_word("BASH"), Some(CompletionShell::Bash));
    assert_eq!(CompletionShell::from_word("Nu"), Some(CompletionShell::Nushell));
    assert_eq!(CompletionShell::from_word("tcsh"), None);
  }

  #[test]
  fn complete_aliases_offers_aliases() {
    assert!(options(&["--complete-aliases"]).complete_aliases);
    assert!(!options(&[]).complete_aliases);
  }

  #[test]
  fn lsp_is_a_command() {
    assert_eq!(command(&["--lsp"]), Subcommand::Lsp);
  }

  #[test]
  fn request_is_a_hidden_command_taking_json() {
    assert_eq!(command(&["--request", "{}"]), Subcommand::Request { json: "{}".into() });
    let help = crate::cli::arguments::command().render_help().to_string();
    assert!(!help.contains("--request"));
  }
}
