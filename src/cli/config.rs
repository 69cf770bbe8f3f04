//! The configuration of one invocation, built from the command line and the
//! `JUST_*` environment. Later stages read its `Options`; nothing writes it
//! after `Config::from_args`.

use std::{
  ffi::OsString,
  path::{Path, PathBuf},
};

use clap::ArgMatches;
use lexiclean::Lexiclean;
use snafu::Snafu;

use crate::cli::{
  arguments,
  flags::{self, about::CompletionShell, Command, Flag, Given, FLAGS},
  positional::Positional,
  quick,
};
use crate::options::Choice;
pub(crate) use crate::options::{
  DumpFormat, GraphFormat, Options, Override, SearchConfig, WatchConfig,
};
use crate::syntax::path::{module_path, split_override_name};

/// What the command line asks for: the command, and the options every
/// stage reads (`Config` dereferences to them).
#[derive(Debug, Clone)]
pub(crate) struct Config {
  pub subcommand: Subcommand,
  pub options: Options,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Subcommand {
  /// Run recipes: the ordinary arguments after overrides and search directory.
  Run {
    arguments: Vec<String>,
  },
  Changelog,
  /// `--cheatsheet`: the language's vocabulary.
  Cheatsheet,
  /// `--lsp`: the language server, until the client goes.
  Lsp,
  Choose,
  Clean {
    paths: Vec<String>,
  },
  Command {
    binary: String,
    arguments: Vec<String>,
  },
  Completions {
    shell: CompletionShell,
  },
  Dump,
  Edit,
  Evaluate {
    path: Option<String>,
  },
  Format,
  Groups,
  Init,
  List {
    path: Vec<String>,
  },
  Man,
  Request {
    json: String,
  },
  Show {
    path: Vec<String>,
  },
  Summary,
  Usage {
    path: Vec<String>,
  },
  Variables,
  /// `--help RECIPE_PATH` / `--help MODULE_PATH`.
  Help {
    path: Vec<String>,
  },
  /// `--tree [RECIPE_PATH…]`.
  Tree {
    paths: Vec<String>,
    all: bool,
  },
  /// `--graph [RECIPE_PATH…]`.
  Graph {
    paths: Vec<String>,
    all: bool,
    format: GraphFormat,
  },
}

impl Config {
  /// A configuration with every option at its default, for tests and for
  /// stages that need one before the command line is parsed.
  pub(crate) fn default_for(invocation_directory: PathBuf) -> Self {
    Config {
      subcommand: Subcommand::Run { arguments: Vec::new() },
      options: Options::default_for(invocation_directory),
    }
  }
}

impl std::ops::Deref for Config {
  type Target = Options;

  fn deref(&self) -> &Options {
    &self.options
  }
}

impl std::ops::DerefMut for Config {
  fn deref_mut(&mut self) -> &mut Options {
    &mut self.options
  }
}

/// Why the command line could not be turned into a `Config`.
#[derive(Debug, Snafu)]
pub(crate) enum ConfigError {
  /// A command-line syntax error, or `--help`/`--version`. Print it with
  /// `source.print()` (help and version go to stdout) and exit with
  /// `source.exit_code()` (2 for errors, 0 for help and version).
  #[snafu(display("{source}"))]
  Clap { source: clap::Error },
  #[snafu(display("failed to get current directory: {source}"))]
  CurrentDirectory { source: std::io::Error },
  #[snafu(display("invalid override path `{path}`"))]
  InvalidOverridePath { path: String },
  #[snafu(display("invalid module path `{path}`"))]
  InvalidModulePath { path: String },
  #[snafu(display(
    "path-prefixed recipes may not be used with `--global-justfile`, `--working-directory`, or `--justfile`"
  ))]
  SearchDirectoryConflict,
  /// `subcommand` is the flag's name, without its dashes.
  #[snafu(display(
    "`--{subcommand}` used with unexpected {}",
    unexpected_words(overrides, arguments)
  ))]
  SubcommandArguments { subcommand: &'static str, overrides: Vec<String>, arguments: Vec<String> },
  /// A word a parser accepted but the flag's choice does not know: the
  /// parsers take their words from the same table, so this is a mistake in
  /// `just`.
  #[snafu(display("internal error: `--{flag}` does not take `{word}`"))]
  UnknownWord { flag: &'static str, word: String },
}

impl ConfigError {
  /// The process exit status this error calls for.
  pub(crate) fn exit_code(&self) -> i32 {
    match self {
      ConfigError::Clap { source } => source.exit_code(),
      ConfigError::CurrentDirectory { .. }
      | ConfigError::InvalidOverridePath { .. }
      | ConfigError::InvalidModulePath { .. }
      | ConfigError::SearchDirectoryConflict
      | ConfigError::SubcommandArguments { .. }
      | ConfigError::UnknownWord { .. } => 1,
    }
  }
}

fn unexpected_words(overrides: &[String], arguments: &[String]) -> String {
  match (overrides.is_empty(), arguments.len()) {
    (true, 1) => format!("argument: {}", crate::text::ticked(arguments, "and")),
    (true, _) => format!("arguments: {}", crate::text::ticked(arguments, "and")),
    (false, 0) => format!("overrides: {}", crate::text::ticked(overrides, "and")),
    (false, _) => format!(
      "overrides: {}; and arguments: {}",
      crate::text::ticked(overrides, "and"),
      crate::text::ticked(arguments, "and")
    ),
  }
}

impl Config {
  /// Parse the command line (`args` includes the program name) and the
  /// `JUST_*` environment. The invocation directory is the current directory.
  pub(crate) fn from_args<I: IntoIterator<Item = OsString>>(
    args: I,
  ) -> Result<Config, ConfigError> {
    let args: Vec<OsString> = args.into_iter().collect();
    if let Some(quick) = quick::parse(&args) {
      let invocation_directory =
        std::env::current_dir().map_err(|source| ConfigError::CurrentDirectory { source })?;
      return Self::from_given(&quick.with_arguments(args), invocation_directory);
    }
    let matches = match arguments::command_for(&args).try_get_matches_from(&args) {
      Ok(matches) => matches,
      Err(source) if source.kind() == clap::error::ErrorKind::DisplayHelp => {
        return Self::help_for(&args).unwrap_or(Err(ConfigError::Clap { source }));
      }
      Err(source) => return Err(ConfigError::Clap { source }),
    };
    let invocation_directory =
      std::env::current_dir().map_err(|source| ConfigError::CurrentDirectory { source })?;
    Self::from_matches(&matches, invocation_directory)
  }

  /// `just --help RECIPE…` / `just --help MODULE…`: the command line without
  /// its help word names recipes to run; None when it does not (plain
  /// `--help`, or help with another command).
  fn help_for(args: &[OsString]) -> Option<Result<Config, ConfigError>> {
    let end = args.iter().position(|word| word == "--").unwrap_or(args.len());
    for index in (1..end).filter(|&index| args[index] == "--help" || args[index] == "-h") {
      let mut rest = args.to_vec();
      rest.remove(index);
      let Ok(matches) = arguments::command().try_get_matches_from(&rest) else {
        continue;
      };
      let directory = match std::env::current_dir() {
        Ok(directory) => directory,
        Err(source) => return Some(Err(ConfigError::CurrentDirectory { source })),
      };
      return match Self::from_matches(&matches, directory) {
        Ok(mut config) => match &config.subcommand {
          Subcommand::Run { arguments } if !arguments.is_empty() && config.watch.is_none() => {
            config.subcommand = Subcommand::Help { path: arguments.clone() };
            Some(Ok(config))
          }
          // Nothing to run, or a command: plain `--help`.
          Subcommand::Run { .. }
          | Subcommand::Changelog
          | Subcommand::Cheatsheet
          | Subcommand::Lsp
          | Subcommand::Choose
          | Subcommand::Clean { .. }
          | Subcommand::Command { .. }
          | Subcommand::Completions { .. }
          | Subcommand::Dump
          | Subcommand::Edit
          | Subcommand::Evaluate { .. }
          | Subcommand::Format
          | Subcommand::Groups
          | Subcommand::Init
          | Subcommand::List { .. }
          | Subcommand::Man
          | Subcommand::Request { .. }
          | Subcommand::Show { .. }
          | Subcommand::Summary
          | Subcommand::Usage { .. }
          | Subcommand::Variables
          | Subcommand::Help { .. }
          | Subcommand::Tree { .. }
          | Subcommand::Graph { .. } => None,
        },
        Err(_) => None,
      };
    }
    None
  }

  /// Build the configuration from parsed matches, relative to `invocation_directory`.
  pub(crate) fn from_matches(
    matches: &ArgMatches,
    invocation_directory: PathBuf,
  ) -> Result<Config, ConfigError> {
    Self::from_given(&Matches(matches), invocation_directory)
  }

  /// Build the configuration from what the command line gives each flag
  /// (clap's matches or the quick parser's), relative to `invocation_directory`.
  pub(crate) fn from_given(
    matches: &dyn Given,
    invocation_directory: PathBuf,
  ) -> Result<Config, ConfigError> {
    let positional = Positional::from_values(positional_words(matches));
    let overrides = collect_overrides(matches, &positional)?;
    let search = search_config(matches, &positional, &invocation_directory)?;
    let subcommand = subcommand(matches, positional, &overrides)?;

    let mut config = Config::default_for(invocation_directory);
    config.subcommand = subcommand;
    config.search = search;
    config.overrides = overrides;
    flags::value::apply_options(&mut config.options, matches);
    Ok(config)
  }
}

/// Parsed matches, read without panicking: an option the definition does
/// not have reads as not given.
struct Matches<'a>(&'a ArgMatches);

impl Matches<'_> {
  fn contains_id(&self, id: &str) -> bool {
    self.0.try_contains_id(id).unwrap_or_else(left_out)
  }

  fn value_source(&self, id: &str) -> Option<clap::parser::ValueSource> {
    self.contains_id(id).then(|| self.0.value_source(id)).flatten()
  }

  fn get_one<T: Clone + Send + Sync + 'static>(&self, id: &str) -> Option<&T> {
    self.0.try_get_one::<T>(id).unwrap_or_else(left_out)
  }

  fn get_many<T: Clone + Send + Sync + 'static>(
    &self,
    id: &str,
  ) -> Option<clap::parser::ValuesRef<'_, T>> {
    self.0.try_get_many::<T>(id).unwrap_or_else(left_out)
  }
}

impl Given for Matches<'_> {
  fn on_command_line(&self, id: &str) -> bool {
    self.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
  }

  fn get_flag(&self, id: &str) -> bool {
    self.get_one::<bool>(id).copied().unwrap_or(false)
  }

  fn get_count(&self, id: &str) -> u8 {
    self.get_one::<u8>(id).copied().unwrap_or(0)
  }

  fn values(&self, id: &str) -> Option<Vec<String>> {
    self.get_many::<String>(id).map(|values| values.cloned().collect())
  }

  fn string(&self, id: &str) -> Option<String> {
    self.get_one::<String>(id).cloned()
  }

  fn word(&self, id: &str) -> Option<&str> {
    self.get_one::<String>(id).map(String::as_str)
  }

  fn path(&self, id: &str) -> Option<PathBuf> {
    self.get_one::<PathBuf>(id).cloned()
  }

  fn number(&self, id: &str) -> Option<u64> {
    self.get_one::<u64>(id).copied()
  }

  fn positive(&self, id: &str) -> Option<usize> {
    self.get_one::<std::num::NonZeroUsize>(id).map(|number| number.get())
  }

  fn command_words(&self, id: &str) -> Vec<OsString> {
    self.get_many::<OsString>(id).into_iter().flatten().cloned().collect()
  }

  fn pairs(&self, id: &str) -> Vec<(String, String)> {
    self
      .0
      .try_get_occurrences::<String>(id)
      .unwrap_or_else(left_out)
      .map(|occurrences| {
        occurrences
          .filter_map(|mut pair| Some((pair.next()?.clone(), pair.next()?.clone())))
          .collect()
      })
      .unwrap_or_default()
  }
}

/// Only an argument left out of the definition may fail to be read; a type
/// mismatch is a mistake in this file.
fn left_out<T: Default>(error: clap::parser::MatchesError) -> T {
  debug_assert!(matches!(error, clap::parser::MatchesError::UnknownArgument { .. }), "{error}");
  T::default()
}

/// The words processed as positional arguments: the values of `--list`,
/// `--show`, `--usage` or `--clean` when given, otherwise `ARGUMENTS`.
fn positional_words(matches: &dyn Given) -> Vec<String> {
  for flag in [flags::dependencies::TREE.long, flags::dependencies::GRAPH.long] {
    // Recipe paths may also follow other options: `--graph --graph-format json a`.
    if matches.on_command_line(flag) {
      return [strings(matches, flag), matches.take_arguments().unwrap_or_default()].concat();
    }
  }
  for flag in [
    flags::listing::LIST.long,
    flags::inspect::SHOW.long,
    flags::inspect::USAGE.long,
    flags::cache::CLEAN.long,
  ] {
    if matches.on_command_line(flag) {
      return strings(matches, flag);
    }
  }
  matches.take_arguments().unwrap_or_default()
}

fn strings(matches: &dyn Given, name: &str) -> Vec<String> {
  matches.values(name).unwrap_or_default()
}

fn parse_override(name: &str, value: &str) -> Result<Override, ConfigError> {
  let (module_path, name) = split_override_name(name)
    .ok_or_else(|| ConfigError::InvalidOverridePath { path: name.to_owned() })?;
  Ok(Override { module_path, name, value: value.to_owned() })
}

/// `--set` values first, then positional overrides.
fn collect_overrides(
  matches: &dyn Given,
  positional: &Positional,
) -> Result<Vec<Override>, ConfigError> {
  let set_pairs = matches.pairs(flags::environment::SET.long);
  set_pairs
    .iter()
    .chain(&positional.overrides)
    .map(|(name, value)| parse_override(name, value))
    .collect()
}

fn search_config(
  matches: &dyn Given,
  positional: &Positional,
  invocation_directory: &Path,
) -> Result<SearchConfig, ConfigError> {
  let justfile = matches.path(flags::search::JUSTFILE.long);
  let working_directory = matches.path(flags::search::WORKING_DIRECTORY.long);
  let global = matches.get_flag(flags::search::GLOBAL_JUSTFILE.long);

  if positional.search_directory.is_some()
    && (global || justfile.is_some() || working_directory.is_some())
  {
    return Err(ConfigError::SearchDirectoryConflict);
  }

  let absolute = |path: &Path| invocation_directory.join(path).lexiclean();

  Ok(match (justfile, &positional.search_directory) {
    _ if global => SearchConfig::Global,
    (Some(justfile), _) if justfile.as_os_str() == "-" => SearchConfig::Stdin { working_directory },
    (Some(justfile), _) => SearchConfig::WithJustfile {
      justfile: absolute(&justfile),
      working_directory: working_directory.as_deref().map(absolute),
    },
    (None, Some(directory)) => {
      SearchConfig::FromSearchDirectory { search_directory: absolute(Path::new(directory)) }
    }
    (None, None) => SearchConfig::FromInvocationDirectory,
  })
}

fn subcommand(
  matches: &dyn Given,
  positional: Positional,
  overrides: &[Override],
) -> Result<Subcommand, ConfigError> {
  let arguments = positional.arguments;
  let Some((flag, command)) = given_command(matches) else {
    return Ok(Subcommand::Run { arguments });
  };
  // A command that takes no words, named `name` in the error if it gets some.
  let nothing = |subcommand: Subcommand, name: &'static str| {
    reject_stray(name, &arguments, overrides).map(|()| subcommand)
  };
  let module_path = |arguments: Vec<String>| match module_path(&arguments) {
    Some(_) => Ok(arguments),
    None => Err(ConfigError::InvalidModulePath { path: arguments.join(" ") }),
  };

  match command {
    Command::Execute => Ok(execute(matches, flag)),
    Command::Request => {
      Ok(Subcommand::Request { json: matches.string(flag.long).unwrap_or_default() })
    }
    Command::Completions => {
      let word = matches.word(flag.long).unwrap_or_default();
      let shell = CompletionShell::from_word(word)
        .ok_or_else(|| ConfigError::UnknownWord { flag: flag.long, word: word.to_owned() })?;
      nothing(Subcommand::Completions { shell }, flag.long)
    }
    Command::List => Ok(Subcommand::List { path: split_module_path(module_path(arguments)?) }),
    Command::Show => Ok(Subcommand::Show { path: module_path(arguments)? }),
    Command::Usage => Ok(Subcommand::Usage { path: module_path(arguments)? }),
    Command::Clean => Ok(Subcommand::Clean { paths: module_path(arguments)? }),
    Command::Evaluate => evaluate(flag, &arguments),
    Command::Choose => Ok(Subcommand::Choose),
    Command::Tree | Command::Graph => dependency_view(matches, command, arguments),
    Command::Changelog => nothing(Subcommand::Changelog, flag.long),
    Command::Cheatsheet => nothing(Subcommand::Cheatsheet, flag.long),
    Command::Lsp => nothing(Subcommand::Lsp, flag.long),
    // just 1.58 names both by `--dump`, and `--fmt` by its other name.
    Command::Dump | Command::Json => nothing(Subcommand::Dump, flags::inspect::DUMP.long),
    Command::Format => nothing(Subcommand::Format, flags::editing::FORMAT_ALIAS),
    Command::Edit => nothing(Subcommand::Edit, flag.long),
    Command::Groups => nothing(Subcommand::Groups, flag.long),
    Command::Init => nothing(Subcommand::Init, flag.long),
    Command::Man => nothing(Subcommand::Man, flag.long),
    Command::Summary => nothing(Subcommand::Summary, flag.long),
    Command::Variables => nothing(Subcommand::Variables, flag.long),
  }
}

/// `name` (a flag's name) used with `stray` words or with `overrides`.
fn reject_stray(
  name: &'static str,
  stray: &[String],
  overrides: &[Override],
) -> Result<(), ConfigError> {
  if stray.is_empty() && overrides.is_empty() {
    return Ok(());
  }
  Err(ConfigError::SubcommandArguments {
    subcommand: name,
    overrides: overrides.iter().map(Override::to_string).collect(),
    arguments: stray.to_vec(),
  })
}

/// `--command`: the program and its arguments.
fn execute(matches: &dyn Given, flag: &Flag) -> Subcommand {
  let mut words =
    matches.command_words(flag.long).into_iter().map(|word| word.to_string_lossy().into_owned());
  let binary = words.next().unwrap_or_default();
  Subcommand::Command { binary, arguments: words.collect() }
}

/// `--evaluate [PATH]`: at most one word, a variable's path (overrides may
/// come with it).
fn evaluate(flag: &'static Flag, arguments: &[String]) -> Result<Subcommand, ConfigError> {
  reject_stray(flag.long, arguments.get(1..).unwrap_or_default(), &[])?;
  if let Some(path) = arguments.first() {
    if crate::output::evaluate::module_path_components(path).is_none() {
      return Err(ConfigError::InvalidModulePath { path: path.clone() });
    }
  }
  Ok(Subcommand::Evaluate { path: arguments.first().cloned() })
}

/// The command the command line gives (commands conflict with each other,
/// so there is at most one), with its row.
fn given_command(matches: &dyn Given) -> Option<(&'static Flag, Command)> {
  FLAGS.iter().find_map(|flag| {
    let command = flag.command?;
    matches.on_command_line(flag.long).then_some((flag, command))
  })
}

/// `--tree` or `--graph`; `--all` takes no recipe paths.
fn dependency_view(
  matches: &dyn Given,
  command: Command,
  paths: Vec<String>,
) -> Result<Subcommand, ConfigError> {
  let all = matches.get_flag(flags::dependencies::ALL.long);
  if all && !paths.is_empty() {
    return Err(ConfigError::SubcommandArguments {
      subcommand: flags::dependencies::ALL.long,
      overrides: Vec::new(),
      arguments: paths,
    });
  }
  if command == Command::Graph {
    let format = graph_format(matches)?;
    return Ok(Subcommand::Graph { paths, all, format });
  }
  Ok(Subcommand::Tree { paths, all })
}

/// `--graph-format`, else its `late_env` variable, else its default.
fn graph_format(matches: &dyn Given) -> Result<GraphFormat, ConfigError> {
  const FLAG: &Flag = &flags::dependencies::GRAPH_FORMAT;
  let from_environment = FLAG
    .late_env
    .filter(|_| !matches.on_command_line(FLAG.long))
    .and_then(|name| Some((name, std::env::var(name).ok()?)));
  let word = match &from_environment {
    Some((_, word)) => word.as_str(),
    None => matches.word(FLAG.long).or(FLAG.default).unwrap_or_default(),
  };
  GraphFormat::from_word(word).ok_or_else(|| {
    let value_name = FLAG.takes.value_name().unwrap_or_default();
    let source =
      from_environment.as_ref().map(|(name, _)| format!(" (from {name})")).unwrap_or_default();
    let message = format!(
      "invalid value '{word}' for '--{} <{value_name}>'{source}\n  [possible values: {}]",
      FLAG.long,
      GraphFormat::WORDS.listed.join(", ")
    );
    let source = arguments::command().error(clap::error::ErrorKind::InvalidValue, message);
    ConfigError::Clap { source }
  })
}

/// `--list 'a b'`: a single word containing spaces is split on whitespace.
fn split_module_path(path: Vec<String>) -> Vec<String> {
  match path.as_slice() {
    [word] if word.contains(char::is_whitespace) => {
      word.split_whitespace().map(str::to_owned).collect()
    }
    [] | [_] | [_, _, ..] => path,
  }
}

#[cfg(test)]
pub(crate) mod tests;
