//! The clap definition of the command line. This is
//! the single source from which parsing, `--help`, `--completions` and
//! `--man` are derived.

use clap::{
  builder::{
    styling::{AnsiColor, Styles},
    FalseyValueParser, PossibleValue, PossibleValuesParser,
    Resettable::Reset,
    TypedValueParser,
  },
  value_parser, Arg, ArgAction, ArgGroup, Command, ValueHint,
};
use clap_complete::engine::{ArgValueCandidates, ArgValueCompleter, PathCompleter};
use std::{ffi::OsString, num::NonZeroUsize};

use crate::cli::completions;

/// Argument ids. Options use their long name; positional words use `ARGUMENTS`.
pub mod id {
  pub const ALIAS_STYLE: &str = "alias-style";
  pub const ALLOW_MISSING: &str = "allow-missing";
  pub const ARGUMENTS: &str = "ARGUMENTS";
  pub const CEILING: &str = "ceiling";
  pub const CHECK: &str = "check";
  pub const CHOOSER: &str = "chooser";
  pub const CLEAR_SHELL_ARGS: &str = "clear-shell-args";
  pub const COLOR: &str = "color";
  pub const COMMAND_COLOR: &str = "command-color";
  pub const COMPLETE_ALIASES: &str = "complete-aliases";
  pub const CYGPATH: &str = "cygpath";
  pub const DEFAULT_LIST: &str = "default-list";
  pub const DOTENV_COMMAND: &str = "dotenv-command";
  pub const DOTENV_FILENAME: &str = "dotenv-filename";
  pub const DOTENV_PATH: &str = "dotenv-path";
  pub const DRY_RUN: &str = "dry-run";
  pub const DUMP_FORMAT: &str = "dump-format";
  pub const EVALUATE_FORMAT: &str = "evaluate-format";
  pub const EXPLAIN: &str = "explain";
  pub const GLOBAL_JUSTFILE: &str = "global-justfile";
  pub const GROUP: &str = "group";
  pub const HIGHLIGHT: &str = "highlight";
  pub const INDENTATION: &str = "indentation";
  pub const JOBS: &str = "jobs";
  pub const JUSTFILE: &str = "justfile";
  pub const JUSTFILE_NAME: &str = "justfile-name";
  pub const LIST_HEADING: &str = "list-heading";
  pub const LIST_PREFIX: &str = "list-prefix";
  pub const LIST_SUBMODULES: &str = "list-submodules";
  pub const NO_ALIASES: &str = "no-aliases";
  pub const NO_CACHE: &str = "no-cache";
  pub const CACHE_DIR: &str = "cache-dir";
  pub const CACHE_URL: &str = "cache-url";
  pub const CACHE_READ_ONLY: &str = "cache-read-only";
  pub const CACHE_TIMEOUT: &str = "cache-timeout";
  pub const NO_DEPS: &str = "no-deps";
  pub const NO_DOTENV: &str = "no-dotenv";
  pub const NO_HIGHLIGHT: &str = "no-highlight";
  pub const ONE: &str = "one";
  pub const QUIET: &str = "quiet";
  pub const SET: &str = "set";
  pub const SHELL: &str = "shell";
  pub const SHELL_ARG: &str = "shell-arg";
  pub const SHELL_COMMAND: &str = "shell-command";
  pub const TEMPDIR: &str = "tempdir";
  pub const TIME: &str = "time";
  pub const TIMESTAMP: &str = "timestamp";
  pub const TIMESTAMP_FORMAT: &str = "timestamp-format";
  pub const UNSORTED: &str = "unsorted";
  pub const UNSTABLE: &str = "unstable";
  pub const VERBOSE: &str = "verbose";
  pub const WORKING_DIRECTORY: &str = "working-directory";
  pub const YES: &str = "yes";
  // Running many recipes: failure handling, output of concurrent recipes, make jobserver.
  pub const KEEP_GOING: &str = "keep-going";
  pub const OUTPUT: &str = "output";
  pub const JOBSERVER: &str = "jobserver";

  pub const WATCH: &str = "watch";
  pub const WATCH_CLEAR: &str = "clear";
  pub const WATCH_DEBOUNCE: &str = "watch-debounce";
  pub const WATCH_PATH: &str = "watch-path";
  pub const WATCH_RESTART: &str = "watch-restart";

  pub const CHANGELOG: &str = "changelog";
  pub const CHOOSE: &str = "choose";
  pub const CLEAN: &str = "clean";
  pub const COMMAND: &str = "command";
  pub const COMPLETIONS: &str = "completions";
  pub const DUMP: &str = "dump";
  pub const EDIT: &str = "edit";
  pub const EVALUATE: &str = "evaluate";
  pub const FORMAT: &str = "fmt";
  pub const GROUPS: &str = "groups";
  pub const INIT: &str = "init";
  pub const JSON: &str = "json";
  pub const LIST: &str = "list";
  pub const MAN: &str = "man";
  pub const REQUEST: &str = "request";
  pub const SHOW: &str = "show";
  pub const SUMMARY: &str = "summary";
  pub const USAGE: &str = "usage";
  pub const VARIABLES: &str = "variables";

  // Dependency views: `--tree`, `--graph`.
  pub const ALL: &str = "all";
  pub const GRAPH: &str = "graph";
  pub const GRAPH_FORMAT: &str = "graph-format";
  pub const TREE: &str = "tree";
  /// The group of `--tree` and `--graph`, which `--all` requires.
  pub const DEPENDENCY_VIEW: &str = "dependency-view";
}

/// The subcommand flags; any two of them conflict.
pub const SUBCOMMANDS: &[&str] = &[
  id::CHANGELOG,
  id::CHOOSE,
  id::CLEAN,
  id::COMMAND,
  id::COMPLETIONS,
  id::DUMP,
  id::EDIT,
  id::EVALUATE,
  id::FORMAT,
  id::GROUPS,
  id::INIT,
  id::JSON,
  id::LIST,
  id::MAN,
  id::REQUEST,
  id::SHOW,
  id::SUMMARY,
  id::USAGE,
  id::VARIABLES,
  id::GRAPH,
  id::TREE,
];

pub const COMPLETION_SHELLS: &[&str] = &["bash", "elvish", "fish", "nushell", "powershell", "zsh"];

/// The complete `just` command line.
pub fn command() -> Command {
  header()
    .after_help(
      "`just --help RECIPE` prints a recipe's help (its doc, usage, parameters and \
       dependencies); `just --help MODULE` a module's doc and recipes.",
    )
    .args(options())
    .arg(arguments())
    .next_help_heading("Commands")
    .args(by_long_name([subcommands(), dependency_views()].concat()))
    .group(ArgGroup::new(id::DEPENDENCY_VIEW).args([id::TREE, id::GRAPH]))
}

/// The command line needed to parse `words` (the program name first): when
/// they hold only recipe words (and possibly `--version`) and no `JUST_*`
/// variable of an option is set, every option takes its default, so only the
/// options with a default value and `ARGUMENTS` are defined, which spares
/// building and defaulting the others; a leading `--version` needs no
/// options at all. Otherwise the complete definition.
/// Readers of the matches treat an option left out as not given.
pub fn command_for(words: &[OsString]) -> Command {
  // clap answers a leading `--version` before reading any further word.
  if words.get(1).is_some_and(is_version_flag) {
    return header();
  }
  if !words.iter().skip(1).all(|word| is_recipe_word(word) || is_version_flag(word)) {
    return command();
  }
  let mut defaulted = Vec::new();
  // Subcommand flags have neither a default nor an environment variable
  // (`subcommands_have_no_defaults_or_environment`).
  for arg in options() {
    if arg.get_env().is_some_and(|name| std::env::var_os(name).is_some()) {
      return command();
    }
    if !arg.get_default_values().is_empty() {
      // Relations only apply to options given explicitly, and none is.
      defaulted.push(arg.conflicts_with(Reset).overrides_with(Reset).requires(Reset));
    }
  }
  header().args(defaulted).arg(arguments())
}

fn is_recipe_word(word: &OsString) -> bool {
  word.to_str().is_some_and(|word| !word.starts_with('-'))
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
  Arg::new(id::ARGUMENTS)
    .num_args(1..)
    .action(ArgAction::Append)
    .trailing_var_arg(true)
    .add(ArgValueCompleter::new(completions::complete_arguments))
    .help("Overrides (NAME=VALUE), then recipes and their arguments; without a recipe, the default one runs")
}

fn flag(name: &'static str, help: &'static str) -> Arg {
  Arg::new(name).long(name).action(ArgAction::SetTrue).help(help)
}

fn env_flag(name: &'static str, env: &'static str, help: &'static str) -> Arg {
  flag(name, help).env(env)
}

fn value(name: &'static str, value_name: &'static str, help: &'static str) -> Arg {
  Arg::new(name).long(name).value_name(value_name).action(ArgAction::Set).help(help)
}

fn options() -> Vec<Arg> {
  let options: Vec<Arg> = vec![
    value(id::ALIAS_STYLE, "ALIAS_STYLE", "How `--list` shows aliases")
      .env("JUST_ALIAS_STYLE")
      .value_parser(choices(["left", "right", "separate"]))
      .default_value("right")
      .conflicts_with(id::NO_ALIASES),
    env_flag(id::ALLOW_MISSING, "JUST_ALLOW_MISSING", "Succeed silently on unknown recipes and modules"),
    value(id::CEILING, "CEILING", "Stop the justfile search after this directory")
      .env("JUST_CEILING")
      .value_parser(value_parser!(std::path::PathBuf))
      .value_hint(ValueHint::DirPath),
    flag(id::CHECK, "With `--fmt`: change nothing; exit 0 if the justfile is formatted, else print a diff and exit 1")
      .requires(id::FORMAT),
    value(id::CHOOSER, "CHOOSER", "Program `--choose` runs to pick recipes (default `fzf`)")
      .env("JUST_CHOOSER")
      .value_parser(value_parser!(std::path::PathBuf))
      .add(ArgValueCompleter::new(PathCompleter::file())),
    flag(id::CLEAR_SHELL_ARGS, "Use no shell arguments").overrides_with(id::SHELL_ARG),
    value(id::COLOR, "COLOR", "When to use colour")
      .env("JUST_COLOR")
      .value_parser(choices(["always", "auto", "never"]))
      .default_value("auto"),
    value(id::COMMAND_COLOR, "COMMAND_COLOR", "Colour of echoed recipe lines")
      .env("JUST_COMMAND_COLOR")
      .value_parser(choices(["black", "blue", "cyan", "green", "purple", "red", "yellow"])),
    env_flag(id::COMPLETE_ALIASES, "JUST_COMPLETE_ALIASES", "Offer aliases when completing"),
    value(id::CYGPATH, "CYGPATH", "Path converter used on Windows")
      .env("JUST_CYGPATH")
      .value_parser(value_parser!(std::path::PathBuf))
      .default_value("cygpath")
      .add(ArgValueCompleter::new(PathCompleter::file())),
    env_flag(id::DEFAULT_LIST, "JUST_DEFAULT_LIST", "List recipes when none is given"),
    value(id::DOTENV_COMMAND, "COMMAND", "Load the output of COMMAND as a dotenv file")
      .env("JUST_DOTENV_COMMAND")
      .action(ArgAction::Append)
      .conflicts_with_all([id::DOTENV_FILENAME, id::DOTENV_PATH, id::NO_DOTENV]),
    value(id::DOTENV_FILENAME, "DOTENV_FILENAME", "Look for a dotenv file with this name instead of `.env`")
      .short('F')
      .action(ArgAction::Append)
      .conflicts_with(id::DOTENV_PATH),
    value(id::DOTENV_PATH, "DOTENV_PATH", "Load this dotenv file instead of searching for one")
      .short('E')
      .action(ArgAction::Append)
      .add(ArgValueCompleter::new(PathCompleter::file())),
    env_flag(id::DRY_RUN, "JUST_DRY_RUN", "Print commands without running them")
      .short('n')
      .conflicts_with(id::QUIET),
    value(id::DUMP_FORMAT, "FORMAT", "Output format of `--dump`")
      .env("JUST_DUMP_FORMAT")
      .value_parser(choices(["json", "just"]))
      .default_value("just")
      .conflicts_with(id::JSON),
    value(id::EVALUATE_FORMAT, "FORMAT", "Output format of `--evaluate`")
      .env("JUST_EVALUATE_FORMAT")
      .value_parser(choices(["just", "shell"]))
      .default_value("just"),
    env_flag(id::EXPLAIN, "JUST_EXPLAIN", "Print a recipe's doc comment before running it"),
    flag(id::GLOBAL_JUSTFILE, "Use the user's global justfile")
      .short('g')
      .conflicts_with_all([id::JUSTFILE, id::WORKING_DIRECTORY]),
    value(id::GROUP, "GROUP", "Only list recipes of this group")
      .env("JUST_GROUP")
      .action(ArgAction::Append)
      .requires(id::LIST)
      .add(ArgValueCandidates::new(completions::groups)),
    env_flag(id::HIGHLIGHT, "JUST_HIGHLIGHT", "Echo recipe lines in bold")
      .overrides_with(id::NO_HIGHLIGHT),
    value(id::INDENTATION, "INDENTATION", "Indentation of recipe bodies when formatting")
      .env("JUST_INDENTATION")
      .value_parser(parse_indentation),
    value(id::JOBS, "N", "Run at most N recipes at once in `[parallel]` recipes [default: no limit; with `--jobserver`, the number of CPUs]")
      .env("JUST_JOBS")
      .value_parser(value_parser!(NonZeroUsize)),
    value(id::JUSTFILE, "JUSTFILE", "Use this justfile (`-` reads it from standard input)")
      .short('f')
      .env("JUST_JUSTFILE")
      .value_parser(value_parser!(std::path::PathBuf))
      .add(ArgValueCompleter::new(PathCompleter::file())),
    value(id::JUSTFILE_NAME, "NAME", "Search for justfiles with these comma-separated names (may be repeated)")
      .env("JUST_JUSTFILE_NAME")
      .action(ArgAction::Append),
    value(id::LIST_HEADING, "TEXT", "Text printed before the recipe list")
      .env("JUST_LIST_HEADING")
      .default_value("Available recipes:\n"),
    value(id::LIST_PREFIX, "TEXT", "Text printed before each listed recipe")
      .env("JUST_LIST_PREFIX")
      .default_value("    "),
    env_flag(id::LIST_SUBMODULES, "JUST_LIST_SUBMODULES", "Also list recipes of submodules")
      .requires(id::LIST),
    env_flag(id::NO_ALIASES, "JUST_NO_ALIASES", "Leave aliases out of listings"),
    env_flag(id::NO_CACHE, "JUST_NO_CACHE", "Ignore the recipe cache"),
    value(id::CACHE_DIR, "DIR", "Share `[cache]` results through this directory")
      .env("JUST_CACHE_DIR")
      .value_parser(value_parser!(std::path::PathBuf))
      .value_hint(ValueHint::DirPath)
      .conflicts_with(id::CACHE_URL),
    value(id::CACHE_URL, "URL", "Share `[cache]` results through this http://, https:// or s3:// store")
      .env("JUST_CACHE_URL"),
    env_flag(id::CACHE_READ_ONLY, "JUST_CACHE_READ_ONLY", "Only read from the shared `[cache]` store")
      .value_parser(FalseyValueParser::new()),
    value(id::CACHE_TIMEOUT, "SECONDS", "Give up on a silent shared `[cache]` store after SECONDS (default 10)")
      .env("JUST_CACHE_TIMEOUT")
      .value_parser(value_parser!(u64)),
    env_flag(id::NO_DEPS, "JUST_NO_DEPS", "Skip recipe dependencies").alias("no-dependencies"),
    env_flag(id::NO_DOTENV, "JUST_NO_DOTENV", "Never load dotenv files"),
    env_flag(id::NO_HIGHLIGHT, "JUST_NO_HIGHLIGHT", "Echo recipe lines without bold")
      .overrides_with(id::HIGHLIGHT),
    env_flag(id::ONE, "JUST_ONE", "Refuse more than one recipe invocation"),
    env_flag(id::QUIET, "JUST_QUIET", "Print nothing: neither `just`'s own messages nor the output of recipes").short('q'),
    Arg::new(id::SET)
      .long(id::SET)
      .num_args(2)
      .value_names(["VARIABLE", "VALUE"])
      .action(ArgAction::Append)
      .add(ArgValueCandidates::new(completions::variables))
      .help("Set VARIABLE to VALUE"),
    value(id::SHELL, "SHELL", "Run recipe lines and backticks with this shell"),
    value(id::SHELL_ARG, "SHELL_ARG", "Pass this argument to the shell")
      .action(ArgAction::Append)
      .allow_hyphen_values(true)
      .overrides_with(id::CLEAR_SHELL_ARGS),
    flag(id::SHELL_COMMAND, "With `--command`: run the command through the shell")
      .requires(id::COMMAND),
    value(id::TEMPDIR, "TEMPDIR", "Directory for temporary files")
      .env("JUST_TEMPDIR")
      .value_parser(value_parser!(std::path::PathBuf))
      .value_hint(ValueHint::DirPath),
    env_flag(id::TIME, "JUST_TIME", "Report how long each recipe took"),
    env_flag(id::TIMESTAMP, "JUST_TIMESTAMP", "Prefix echoed lines with the time"),
    value(id::TIMESTAMP_FORMAT, "TIMESTAMP_FORMAT", "strftime format of `--timestamp`")
      .env("JUST_TIMESTAMP_FORMAT")
      .default_value("%H:%M:%S"),
    env_flag(id::UNSORTED, "JUST_UNSORTED", "Keep source order in listings").short('u'),
    env_flag(id::UNSTABLE, "JUST_UNSTABLE", "Allow unstable features")
      .value_parser(FalseyValueParser::new()),
    Arg::new(id::VERBOSE)
      .long(id::VERBOSE)
      .short('v')
      .env("JUST_VERBOSE")
      .action(ArgAction::Count)
      .help("Say more (repeat for even more)"),
    value(id::WORKING_DIRECTORY, "WORKING_DIRECTORY", "Run in this directory (needs --justfile)")
      .short('d')
      .env("JUST_WORKING_DIRECTORY")
      .value_parser(value_parser!(std::path::PathBuf))
      .requires(id::JUSTFILE)
      .value_hint(ValueHint::DirPath),
    env_flag(id::YES, "JUST_YES", "Confirm every recipe without asking"),
    // Running many recipes.
    env_flag(id::KEEP_GOING, "JUST_KEEP_GOING", "After a failure, run every recipe that does not depend on it")
      .short('k'),
    value(id::OUTPUT, "MODE", "Output of recipe commands: as written, each line prefixed with `[recipe] `, or held per recipe")
      .env("JUST_OUTPUT")
      .value_parser(choices(["interleaved", "prefixed", "grouped"]))
      .default_value("interleaved"),
    env_flag(id::JOBSERVER, "JUST_JOBSERVER", "Share the `--jobs` slots with make and cargo run by recipes, or use those of a parent make"),
  ]
  .into_iter()
  .chain(watch_options())
  .chain(dependency_view_options())
  .collect();
  by_long_name(options)
}

/// Options and commands are listed in the order of their long names, as
/// in just 1.58's `--help`.
fn by_long_name(mut args: Vec<Arg>) -> Vec<Arg> {
  args.sort_by(|a, b| a.get_long().cmp(&b.get_long()));
  args
}

/// Watch mode: run the recipes again whenever what they depend on changes.
fn watch_options() -> Vec<Arg> {
  vec![
    env_flag(id::WATCH, "JUST_WATCH", "Run again whenever inputs or the justfile change")
      .short('w')
      .conflicts_with_all(SUBCOMMANDS),
    value(id::WATCH_PATH, "PATH", "With `--watch`: also watch this file, directory or glob")
      .action(ArgAction::Append)
      .requires(id::WATCH)
      .value_hint(ValueHint::AnyPath),
    value(id::WATCH_DEBOUNCE, "MS", "With `--watch`: wait for MS quiet milliseconds")
      .value_parser(value_parser!(u64))
      .default_value("100")
      .requires(id::WATCH),
    flag(id::WATCH_RESTART, "With `--watch`: stop running recipes when changes arrive")
      .requires(id::WATCH),
    flag(id::WATCH_CLEAR, "With `--watch`: clear the screen before each run").requires(id::WATCH),
  ]
}

fn subcommands() -> Vec<Arg> {
  let commands = vec![
    flag(id::CHANGELOG, "Print the changelog"),
    flag(
      id::CHOOSE,
      "Pick recipes to run with a chooser: `--chooser`, else $JUST_CHOOSER, else `fzf`",
    ),
    Arg::new(id::CLEAN)
      .long(id::CLEAN)
      .num_args(0..)
      .value_name("RECIPE_PATH")
      .action(ArgAction::Append)
      .conflicts_with(id::ARGUMENTS)
      .help(
        "Delete `[cache]` results, and those in the `--cache-dir` store; with RECIPE_PATH (`a::b` or `a b`), only of recipes under it",
      ),
    Arg::new(id::COMMAND)
      .long(id::COMMAND)
      .short('c')
      .num_args(1..)
      .value_name("COMMAND")
      .allow_hyphen_values(true)
      .action(ArgAction::Set)
      .value_parser(value_parser!(std::ffi::OsString))
      .help("Run COMMAND with the justfile's working directory, dotenv, overrides and exports"),
    value(id::COMPLETIONS, "SHELL", "Print the completion script for SHELL")
      .value_parser(choices(COMPLETION_SHELLS.iter().map(|&shell| completion_shell(shell))))
      .ignore_case(true),
    flag(id::DUMP, "Print the justfile"),
    flag(id::EDIT, "Open the justfile in $VISUAL or $EDITOR (default `vim`)").short('e'),
    flag(id::EVALUATE, "Print the values of variables (or of the one named)").alias("eval"),
    flag(id::FORMAT, "Rewrite the justfile in canonical form").alias("format"),
    flag(id::GROUPS, "List the recipe groups"),
    flag(id::INIT, "Create a justfile in the project root").alias("initialize"),
    flag(id::JSON, "Print the justfile as JSON"),
    Arg::new(id::LIST)
      .long(id::LIST)
      .short('l')
      .num_args(0..)
      .value_name("MODULE")
      .action(ArgAction::Append)
      .conflicts_with(id::ARGUMENTS)
      .help("List the recipes of MODULE, or of the root module"),
    flag(id::MAN, "Print the man page"),
    value(id::REQUEST, "REQUEST", "Answer an internal JSON request").hide(true),
    Arg::new(id::SHOW)
      .long(id::SHOW)
      .add(ArgValueCandidates::new(completions::recipe_paths))
      .short('s')
      .num_args(1..)
      .value_name("RECIPE_PATH")
      .action(ArgAction::Append)
      .conflicts_with(id::ARGUMENTS)
      .help("Print the source of a recipe"),
    flag(id::SUMMARY, "Print the names of the recipes on one line"),
    Arg::new(id::USAGE)
      .long(id::USAGE)
      .add(ArgValueCandidates::new(completions::recipe_paths))
      .num_args(1..)
      .value_name("RECIPE_PATH")
      .action(ArgAction::Append)
      .conflicts_with(id::ARGUMENTS)
      .help("Print how to call a recipe"),
    flag(id::VARIABLES, "Print the names of the variables"),
  ];
  with_subcommand_conflicts(commands)
}

/// `--tree` and `--graph`.
fn dependency_views() -> Vec<Arg> {
  let view = |name: &'static str, help: &'static str| {
    Arg::new(name)
      .long(name)
      .add(ArgValueCandidates::new(completions::recipe_paths))
      .num_args(0..)
      .value_name("RECIPE_PATH")
      .action(ArgAction::Append)
      .help(help)
  };
  with_subcommand_conflicts(vec![
    view(
      id::TREE,
      "Print the dependency tree of recipes (default: every recipe nothing depends on)",
    ),
    view(id::GRAPH, "Print the dependency graph of recipes for tools (see --graph-format)"),
  ])
}

/// The options of `--tree` and `--graph`.
fn dependency_view_options() -> Vec<Arg> {
  vec![
    flag(id::ALL, "With `--tree`/`--graph` and no recipe: include private recipes among the roots")
      .requires(id::DEPENDENCY_VIEW),
    value(id::GRAPH_FORMAT, "FORMAT", "Output format of `--graph` (else $JUST_GRAPH_FORMAT)")
      .value_parser(choices(["dot", "json", "mermaid"]))
      .default_value("dot")
      .requires(id::GRAPH),
  ]
}

/// Makes each subcommand flag conflict with every other one.
fn with_subcommand_conflicts(commands: Vec<Arg>) -> Vec<Arg> {
  commands
    .into_iter()
    .map(|arg| {
      let own = arg.get_id().as_str().to_owned();
      arg.conflicts_with_all(SUBCOMMANDS.iter().copied().filter(|other| *other != own))
    })
    .collect()
}

/// `--indentation`: a non-empty run of only spaces or only tabs.
/// One of a fixed set of words. Unlike clap's `PossibleValuesParser`, a value
/// that is not UTF-8 is reported as an invalid value (shown lossily), as the
/// reference does.
#[derive(Clone)]
struct Choices(PossibleValuesParser);

/// `nu` is accepted for `nushell`, without being listed.
fn completion_shell(shell: &'static str) -> PossibleValue {
  let value = PossibleValue::new(shell);
  if shell == "nushell" {
    value.alias("nu")
  } else {
    value
  }
}

fn choices<T: Into<PossibleValue>>(values: impl IntoIterator<Item = T>) -> Choices {
  Choices(PossibleValuesParser::new(values))
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
  fn restricted_command_is_well_formed() {
    command_for(&[OsString::from("just"), OsString::from("recipe")]).debug_assert();
  }

  #[test]
  fn subcommands_have_no_defaults_or_environment() {
    for arg in subcommands() {
      assert!(arg.get_default_values().is_empty(), "{}", arg.get_id());
      assert!(arg.get_env().is_none(), "{}", arg.get_id());
    }
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
