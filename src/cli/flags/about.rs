//! `just` itself: its changelog, man page, shell completions, language server.

use super::{command, switch, Command, Flag, Kind, Takes};
use crate::options::Choice;

/// The rows of this file.
pub(crate) const ROWS: &[Flag] = &[CHANGELOG, MAN, COMPLETIONS, COMPLETE_ALIASES, LSP, REQUEST];

pub(crate) const CHANGELOG: Flag =
  command("changelog", Takes::Switch, Command::Changelog, "Print the changelog");

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
