//! The command-line vocabulary: every option and command of `just`, each
//! defined once, as one row (long name, short name, aliases, environment
//! variable, what it takes, default, help, relations to other flags) in the
//! file of its concern. `FLAGS` gathers them in the order of their long
//! names. `arguments.rs` builds clap's command (and so `--help`, errors,
//! completions and the man page) from it; `quick.rs` parses the common
//! command lines with it without building that command. Nothing here
//! imports the rest of `cli/`: the code that reads a flag stands above it.
//!
//! A new flag is one row in the file of its concern, listed in that file's
//! `ROWS`, with its test beside it; a new concern is one file, listed in
//! `GROUPS`.

pub(crate) mod about;
pub(crate) mod cache;
pub(crate) mod dependencies;
pub(crate) mod echo;
pub(crate) mod editing;
pub(crate) mod environment;
pub(crate) mod inspect;
pub(crate) mod listing;
pub(crate) mod remote;
pub(crate) mod running;
pub(crate) mod search;
pub(crate) mod shell;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod value;
pub(crate) mod watch;

use crate::options::{Choice, Options, Words};
pub(crate) use value::{FlagValue, Given};

/// The positional words (overrides, recipes and their arguments): not a
/// row, but an id clap and the parsers know.
pub(crate) const ARGUMENTS: &str = "ARGUMENTS";
/// In a `conflicts` list: every command (`Flag::command`).
pub(crate) const EVERY_COMMAND: &str = "<every command>";
/// The group of `--tree` and `--graph`, which `--all` requires.
pub(crate) const DEPENDENCY_VIEW: &str = "dependency-view";

/// The rows of each concern's file.
const GROUPS: &[&[Flag]] = &[
  about::ROWS,
  cache::ROWS,
  dependencies::ROWS,
  echo::ROWS,
  editing::ROWS,
  environment::ROWS,
  inspect::ROWS,
  listing::ROWS,
  remote::ROWS,
  running::ROWS,
  search::ROWS,
  shell::ROWS,
  watch::ROWS,
];

/// Every option and command, in the order of their long names (as `--help`
/// lists them, and as the rows apply).
pub(crate) const FLAGS: &[Flag] = &in_order::<{ count(GROUPS) }>(GROUPS);

/// How many rows `groups` have.
const fn count(groups: &[&[Flag]]) -> usize {
  let mut total = 0;
  let mut group = 0;
  while group < groups.len() {
    total += groups[group].len();
    group += 1;
  }
  total
}

/// The rows of `groups` in the order of their long names, sorted as the
/// program is compiled: two rows of one name do not compile.
const fn in_order<const N: usize>(groups: &[&[Flag]]) -> [Flag; N] {
  let mut rows = [groups[0][0]; N];
  let mut filled = 0;
  let mut group = 0;
  while group < groups.len() {
    let mut row = 0;
    while row < groups[group].len() {
      let flag = groups[group][row];
      let mut place = filled;
      while place > 0 && before(flag.long, rows[place - 1].long) {
        rows[place] = rows[place - 1];
        place -= 1;
      }
      assert!(place == 0 || before(rows[place - 1].long, flag.long), "two rows of one name");
      rows[place] = flag;
      filled += 1;
      row += 1;
    }
    group += 1;
  }
  rows
}

/// `a < b`, which a `const fn` cannot write.
const fn before(a: &str, b: &str) -> bool {
  let (a, b) = (a.as_bytes(), b.as_bytes());
  let mut index = 0;
  while index < a.len() && index < b.len() {
    if a[index] != b[index] {
      return a[index] < b[index];
    }
    index += 1;
  }
  a.len() < b.len()
}

/// One option or command.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flag {
  /// The long name, which is also its id.
  pub long: &'static str,
  pub short: Option<char>,
  /// Other long names, not shown in `--help`.
  pub aliases: &'static [&'static str],
  /// The `JUST_*` variable that gives it when the command line does not.
  pub env: Option<&'static str>,
  /// A `JUST_*` variable read after parsing, by the one that reads the
  /// flag, not by clap: for `--graph-format`, whose need of `--graph` would
  /// otherwise apply to every run the variable is set for.
  pub late_env: Option<&'static str>,
  pub takes: Takes,
  /// The value when neither the command line nor the environment gives one.
  pub default: Option<&'static str>,
  /// What the help calls the default when no parser gives one: the code
  /// that runs without the flag decides (`--chooser`, `--edit`, `--jobs`).
  pub shown_default: Option<&'static str>,
  /// `{default}` in it stands for `shown_default`, else `default` (which
  /// clap then does not add again).
  pub help: &'static str,
  /// A command (listed under "Commands"; conflicts with every other
  /// command): which one.
  pub command: Option<Command>,
  /// Flags (or `ARGUMENTS`, or `EVERY_COMMAND`) it may not be used with.
  pub conflicts: &'static [&'static str],
  /// A flag (or group) it is only valid with.
  pub requires: Option<&'static str>,
  /// A flag it replaces when given after it (and that replaces it).
  pub overrides: Option<&'static str>,
  pub hidden: bool,
  pub completer: Completer,
  /// Sets the options from what the command line and environment give
  /// the flag. Rows apply in table order.
  pub apply: Apply,
}

/// A row's way of setting the options from its value.
pub(crate) type Apply = fn(&mut Options, &FlagValue<'_>);

/// The commands, one per command row. `config::subcommand` makes each its
/// `Subcommand` in one exhaustive match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Command {
  Changelog,
  Cheatsheet,
  Choose,
  Clean,
  /// `--command`.
  Execute,
  Completions,
  Dump,
  Edit,
  Evaluate,
  Format,
  Graph,
  Groups,
  Init,
  Json,
  List,
  Lsp,
  Man,
  Request,
  Show,
  Summary,
  Tree,
  Usage,
  Variables,
}

/// What a flag takes on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Takes {
  /// Nothing: given or not. From the environment: `true` or `false`.
  Switch,
  /// Nothing. From the environment: anything but a false word (`0`, `false`,
  /// `no`, `off`, `n`, `f`, empty).
  FalseySwitch,
  /// Nothing, counted (`-vv`).
  Count,
  /// One value, given once.
  Value(&'static str, Kind),
  /// One value per occurrence, repeatable.
  Values(&'static str, Kind),
  /// One value per occurrence, repeatable, which may start with `-`.
  HyphenValues(&'static str),
  /// Two values per occurrence, repeatable (`--set NAME VALUE`).
  Pair(&'static str, &'static str),
  /// At least `min` words, repeatable (`--list [MODULE]...`).
  Words(&'static str, usize),
  /// A command and its arguments: every word after it (`--command`).
  Rest(&'static str),
}

impl Takes {
  /// The name of its one value, as help and errors show it (`<FORMAT>`).
  pub(crate) fn value_name(self) -> Option<&'static str> {
    match self {
      Takes::Value(name, _) => Some(name),
      Takes::Switch
      | Takes::FalseySwitch
      | Takes::Count
      | Takes::Values(..)
      | Takes::HyphenValues(_)
      | Takes::Pair(..)
      | Takes::Words(..)
      | Takes::Rest(_) => None,
    }
  }
}

/// The values a flag accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
  Text,
  Path,
  /// One of the words of a `Choice` type.
  Choice(Words),
  /// A number above zero.
  Positive,
  /// A number.
  Number,
  /// A non-empty run of only spaces or only tabs.
  Indentation,
}

/// What completion offers for a flag's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Completer {
  Nothing,
  File,
  Directory,
  AnyPath,
  Groups,
  Variables,
  RecipePaths,
}

/// For rows that set no option: commands (`config::subcommand` reads
/// them), and flags that a search, a command or another row reads.
fn nothing(_: &mut Options, _: &FlagValue<'_>) {}

const fn option(long: &'static str, takes: Takes, help: &'static str, apply: Apply) -> Flag {
  Flag {
    long,
    short: None,
    aliases: &[],
    env: None,
    late_env: None,
    takes,
    default: None,
    shown_default: None,
    help,
    command: None,
    conflicts: &[],
    requires: None,
    overrides: None,
    hidden: false,
    completer: Completer::Nothing,
    apply,
  }
}

const fn command(long: &'static str, takes: Takes, command: Command, help: &'static str) -> Flag {
  Flag { command: Some(command), ..option(long, takes, help, nothing) }
}

const fn switch(long: &'static str, env: &'static str, help: &'static str, apply: Apply) -> Flag {
  Flag { env: Some(env), ..option(long, Takes::Switch, help, apply) }
}

const fn text(long: &'static str, name: &'static str, help: &'static str, apply: Apply) -> Flag {
  option(long, Takes::Value(name, Kind::Text), help, apply)
}

const fn path(long: &'static str, name: &'static str, help: &'static str, apply: Apply) -> Flag {
  option(long, Takes::Value(name, Kind::Path), help, apply)
}

/// A flag taking one of the words of `T`.
const fn choice<T: Choice>(
  long: &'static str,
  name: &'static str,
  help: &'static str,
  apply: Apply,
) -> Flag {
  option(long, Takes::Value(name, Kind::Choice(T::WORDS)), help, apply)
}

/// The position in `FLAGS` of the flag with this id (long name).
pub(crate) fn index(id: &str) -> Option<usize> {
  FLAGS.binary_search_by(|flag| flag.long.cmp(id)).ok()
}

/// The flags `flag` may not be used with, `EVERY_COMMAND` expanded.
pub(crate) fn conflicts(flag: &Flag) -> impl Iterator<Item = &'static str> + '_ {
  let mut own: Vec<&'static str> = Vec::new();
  for &other in flag.conflicts {
    if other == EVERY_COMMAND {
      own.extend(commands());
    } else {
      own.push(other);
    }
  }
  let commands = flag.command.is_some().then(commands).into_iter().flatten();
  own.into_iter().chain(commands.filter(move |&other| other != flag.long))
}

/// The ids of the commands.
pub(crate) fn commands() -> impl Iterator<Item = &'static str> {
  FLAGS.iter().filter(|flag| flag.command.is_some()).map(|flag| flag.long)
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn flags_are_in_order_of_their_long_names() {
    for pair in FLAGS.windows(2) {
      assert!(pair[0].long < pair[1].long, "{} before {}", pair[0].long, pair[1].long);
    }
  }

  #[test]
  fn commands_have_no_defaults_or_environment() {
    for flag in FLAGS.iter().filter(|flag| flag.command.is_some()) {
      assert!(flag.default.is_none() && flag.env.is_none(), "{}", flag.long);
    }
  }

  #[test]
  fn help_names_a_default_only_where_there_is_one() {
    for flag in FLAGS {
      let shown = flag.shown_default.or(flag.default);
      if flag.help.contains("{default}") {
        assert!(shown.is_some(), "{}", flag.long);
      } else {
        assert!(flag.shown_default.is_none(), "{}", flag.long);
      }
    }
  }

  #[test]
  fn relations_name_flags() {
    for flag in FLAGS {
      let named = flag.conflicts.iter().chain(&flag.requires).chain(&flag.overrides).copied();
      for other in named {
        assert!(
          [ARGUMENTS, EVERY_COMMAND, DEPENDENCY_VIEW].contains(&other) || index(other).is_some(),
          "{}: {other}",
          flag.long
        );
      }
    }
  }
}
