//! The clap definition of the command line, generated from the flag table
//! (`flags/`). This is the single source from which parsing errors,
//! `--help`, `--completions` and `--man` are derived.

use clap::{
  builder::{
    styling::{AnsiColor, Styles},
    FalseyValueParser, PossibleValue, PossibleValuesParser, TypedValueParser,
  },
  value_parser, Arg, ArgAction, ArgGroup, Command, ValueHint,
};
use clap_complete::engine::{ArgValueCompleter, PathCompleter};
use std::{ffi::OsString, num::NonZeroUsize};

use crate::cli::flags::{self, Completer, Flag, Kind, Takes, FLAGS};
use crate::options::Words;

/// The complete `just` command line.
pub(crate) fn command() -> Command {
  header()
    .after_help(
      "`just --help RECIPE` prints a recipe's help (its doc, usage, parameters and \
       dependencies); `just --help MODULE` a module's doc and recipes.",
    )
    .args(options())
    .arg(arguments())
    .next_help_heading("Commands")
    .args(FLAGS.iter().filter(|flag| flag.command.is_some()).map(arg))
    .group(
      ArgGroup::new(flags::DEPENDENCY_VIEW)
        .args([flags::dependencies::TREE.long, flags::dependencies::GRAPH.long]),
    )
}

/// The command line needed to parse `words` (the program name first): clap
/// answers a leading `--version` before reading any further word, so that
/// needs no options at all; anything else the complete definition. (The
/// common lines never get here: `quick.rs` parses them.)
pub(crate) fn command_for(words: &[OsString]) -> Command {
  if words.get(1).is_some_and(is_version_flag) {
    return header();
  }
  command()
}

fn is_version_flag(word: &OsString) -> bool {
  word == "--version" || word == "-V"
}

fn header() -> Command {
  Command::new("just")
    .bin_name("just")
    .version(env!("CARGO_PKG_VERSION"))
    .about(banner())
    .styles(styles())
    .dont_collapse_args_in_usage(true)
}

/// The first line of `--help`: what this is, and where it lives (Cargo.toml's
/// `homepage`, when set).
fn banner() -> String {
  match env!("CARGO_PKG_HOMEPAGE") {
    "" => env!("CARGO_PKG_DESCRIPTION").to_owned(),
    home => format!("{} - {home}", env!("CARGO_PKG_DESCRIPTION")),
  }
}

/// The palette of `--help` and usage errors on a terminal.
fn styles() -> Styles {
  Styles::styled()
    .header(AnsiColor::Yellow.on_default().bold())
    .usage(AnsiColor::Yellow.on_default().bold())
    .literal(AnsiColor::Cyan.on_default().bold())
    .placeholder(AnsiColor::Blue.on_default())
    .valid(AnsiColor::Green.on_default().bold())
    .invalid(AnsiColor::Red.on_default().bold())
    .error(AnsiColor::Red.on_default().bold())
}

fn arguments() -> Arg {
  Arg::new(flags::ARGUMENTS)
    .num_args(1..)
    .action(ArgAction::Append)
    .trailing_var_arg(true)
    .help("Overrides (NAME=VALUE), then recipes and their arguments; without a recipe, the default one runs")
}

/// The options (not the commands), in the order of their long names.
fn options() -> Vec<Arg> {
  FLAGS.iter().filter(|flag| flag.command.is_none()).map(arg).collect()
}

/// The clap definition of one flag of the table.
fn arg(flag: &Flag) -> Arg {
  let mut arg = Arg::new(flag.long).long(flag.long);
  arg = match flag.shown_default.or(flag.default) {
    Some(shown) if flag.help.contains(DEFAULT) => {
      // Clap would name a parser's default again.
      arg.help(flag.help.replace(DEFAULT, shown)).hide_default_value(flag.default.is_some())
    }
    _ => arg.help(flag.help),
  };
  if let Some(short) = flag.short {
    arg = arg.short(short);
  }
  for &alias in flag.aliases {
    arg = arg.alias(alias);
  }
  if let Some(env) = flag.env {
    arg = arg.env(env);
  }
  arg = match flag.takes {
    Takes::Switch => arg.action(ArgAction::SetTrue),
    Takes::FalseySwitch => arg.action(ArgAction::SetTrue).value_parser(FalseyValueParser::new()),
    Takes::Count => arg.action(ArgAction::Count),
    Takes::Value(name, kind) => with_kind(arg.value_name(name).action(ArgAction::Set), kind),
    Takes::Values(name, kind) => with_kind(arg.value_name(name).action(ArgAction::Append), kind),
    Takes::HyphenValues(name) => {
      arg.value_name(name).action(ArgAction::Append).allow_hyphen_values(true)
    }
    Takes::Pair(first, second) => {
      arg.num_args(2).value_names([first, second]).action(ArgAction::Append)
    }
    Takes::Words(name, min) => arg.num_args(min..).value_name(name).action(ArgAction::Append),
    Takes::Rest(name) => arg
      .num_args(1..)
      .value_name(name)
      .allow_hyphen_values(true)
      .action(ArgAction::Set)
      .value_parser(value_parser!(std::ffi::OsString)),
  };
  if let Some(default) = flag.default {
    arg = arg.default_value(default);
  }
  let conflicts: Vec<&str> = flags::conflicts(flag).collect();
  if !conflicts.is_empty() {
    arg = arg.conflicts_with_all(conflicts);
  }
  if let Some(required) = flag.requires {
    arg = arg.requires(required);
  }
  if let Some(overridden) = flag.overrides {
    arg = arg.overrides_with(overridden);
  }
  if flag.hidden {
    arg = arg.hide(true);
  }
  match flag.completer {
    Completer::Nothing => arg,
    Completer::File => arg.add(ArgValueCompleter::new(PathCompleter::file())),
    Completer::Directory => arg.value_hint(ValueHint::DirPath),
    Completer::AnyPath => arg.value_hint(ValueHint::AnyPath),
    // What the justfile defines: `completions.rs` adds these when completing.
    Completer::Groups | Completer::Variables | Completer::RecipePaths => arg,
  }
}

/// Where a row's help names its default (`Flag::help`).
const DEFAULT: &str = "{default}";

/// The value parser of a kind of value.
fn with_kind(arg: Arg, kind: Kind) -> Arg {
  match kind {
    Kind::Text => arg,
    Kind::Path => arg.value_parser(value_parser!(std::path::PathBuf)),
    Kind::Choice(words) => arg.value_parser(choices(words)).ignore_case(words.any_case),
    Kind::Positive => arg.value_parser(value_parser!(NonZeroUsize)),
    Kind::Number => arg.value_parser(value_parser!(u64)),
    Kind::Indentation => arg.value_parser(parse_indentation),
  }
}

/// `--indentation`: a non-empty run of only spaces or only tabs.
/// One of a fixed set of words. Unlike clap's `PossibleValuesParser`, a value
/// that is not UTF-8 is reported as an invalid value (shown lossily), as the
/// reference does.
#[derive(Clone)]
struct Choices(PossibleValuesParser);

/// The listed words, each with its aliases (accepted, not listed).
fn choices(words: Words) -> Choices {
  Choices(PossibleValuesParser::new(words.listed.iter().map(|&word| {
    let aliases = words.aliases.iter().filter(move |(_, listed)| *listed == word);
    PossibleValue::new(word).aliases(aliases.map(|&(alias, _)| alias))
  })))
}

impl TypedValueParser for Choices {
  type Value = String;

  fn parse_ref(
    &self,
    command: &Command,
    arg: Option<&Arg>,
    value: &std::ffi::OsStr,
  ) -> Result<String, clap::Error> {
    match value.to_str() {
      Some(_) => self.0.parse_ref(command, arg, value),
      None => self.0.parse_ref(command, arg, std::ffi::OsStr::new(&*value.to_string_lossy())),
    }
  }

  fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
    self.0.possible_values()
  }
}

fn parse_indentation(text: &str) -> Result<String, String> {
  crate::syntax::strings::check_indentation(text)
    .map(|()| text.to_owned())
    .map_err(|problem| problem.to_string())
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn command_is_well_formed() {
    command().debug_assert();
  }

  #[test]
  fn indentation_validation() {
    let cases = [
      ("", Err("indentation must not be empty")),
      ("x", Err("indentation must be spaces or tabs")),
      (" \t", Err("indentation may not be mixed")),
      ("  ", Ok("  ")),
      ("\t", Ok("\t")),
    ];
    for (input, expected) in cases {
      assert_eq!(
        parse_indentation(input),
        expected.map(str::to_owned).map_err(str::to_owned),
        "{input:?}"
      );
    }
  }
}
