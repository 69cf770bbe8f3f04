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

pub(crate) use crate::options::{
  AliasStyle, DumpFormat, EvaluateFormat, GraphFormat, Options, OutputMode, Override, SearchConfig,
  WatchConfig,
};
use crate::syntax::path::{module_path, split_override_name};
use crate::{
  cli::{
    arguments::{self, id},
    positional::Positional,
    quick,
  },
  color::UseColor,
};

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
    shell: String,
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
  #[snafu(display(
    "`{subcommand}` used with unexpected {}",
    unexpected_words(overrides, arguments)
  ))]
  SubcommandArguments { subcommand: &'static str, overrides: Vec<String>, arguments: Vec<String> },
}

impl ConfigError {
  /// The process exit status this error calls for.
  pub(crate) fn exit_code(&self) -> i32 {
    match self {
      ConfigError::Clap { source } => source.exit_code(),
      _ => 1,
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
          _ => None,
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
    apply_options(&mut config, matches);
    Ok(config)
  }
}

/// What the command line and the environment give each flag (by id), with
/// each flag's default where it has one: the values `from_given` reads.
pub(crate) trait Given {
  /// Whether the command line gives the flag (not the environment or a default).
  fn on_command_line(&self, id: &str) -> bool;
  fn get_flag(&self, id: &str) -> bool;
  fn get_count(&self, id: &str) -> u8;
  /// Every value of a text flag (or of `ARGUMENTS`), None when it has none.
  fn values(&self, id: &str) -> Option<Vec<String>>;
  fn string(&self, id: &str) -> Option<String>;
  fn path(&self, id: &str) -> Option<PathBuf>;
  fn number(&self, id: &str) -> Option<u64>;
  fn positive(&self, id: &str) -> Option<usize>;
  /// The words of `--command`.
  fn command_words(&self, id: &str) -> Vec<OsString>;
  /// The pairs of `--set`.
  fn pairs(&self, id: &str) -> Vec<(String, String)>;
  /// The values of `ARGUMENTS`, which only the one reader of them
  /// (`positional_words`) asks for, so they may be handed over.
  fn take_arguments(&self) -> Option<Vec<String>> {
    self.values(id::ARGUMENTS)
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
  for flag in [id::TREE, id::GRAPH] {
    // Recipe paths may also follow other options: `--graph --graph-format json a`.
    if matches.on_command_line(flag) {
      return [strings(matches, flag), matches.take_arguments().unwrap_or_default()].concat();
    }
  }
  for flag in [id::LIST, id::SHOW, id::USAGE, id::CLEAN] {
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
  let set_pairs = matches.pairs(id::SET);
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
  let justfile = matches.path(id::JUSTFILE);
  let working_directory = matches.path(id::WORKING_DIRECTORY);
  let global = matches.get_flag(id::GLOBAL_JUSTFILE);

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
  let reject_stray = |subcommand: &'static str, stray: &[String], check_overrides: bool| {
    let overrides: Vec<String> = if check_overrides {
      overrides.iter().map(Override::to_string).collect()
    } else {
      Vec::new()
    };
    if stray.is_empty() && overrides.is_empty() {
      Ok(())
    } else {
      Err(ConfigError::SubcommandArguments { subcommand, overrides, arguments: stray.to_vec() })
    }
  };
  let nothing = |subcommand: Subcommand, name: &'static str| {
    reject_stray(name, &arguments, true).map(|()| subcommand)
  };

  if matches.on_command_line(id::COMMAND) {
    let mut words = matches
      .command_words(id::COMMAND)
      .into_iter()
      .map(|word| word.to_string_lossy().into_owned());
    let binary = words.next().unwrap_or_default();
    return Ok(Subcommand::Command { binary, arguments: words.collect() });
  }
  if let Some(json) = matches.string(id::REQUEST) {
    return Ok(Subcommand::Request { json });
  }
  if let Some(shell) = matches.string(id::COMPLETIONS) {
    return nothing(Subcommand::Completions { shell: shell.to_lowercase() }, "--completions");
  }
  let module_path = |arguments: Vec<String>| match module_path(&arguments) {
    Some(_) => Ok(arguments),
    None => Err(ConfigError::InvalidModulePath { path: arguments.join(" ") }),
  };
  if matches.on_command_line(id::LIST) {
    return Ok(Subcommand::List { path: split_module_path(module_path(arguments)?) });
  }
  if matches.on_command_line(id::SHOW) {
    return Ok(Subcommand::Show { path: module_path(arguments)? });
  }
  if matches.on_command_line(id::USAGE) {
    return Ok(Subcommand::Usage { path: module_path(arguments)? });
  }
  if matches.on_command_line(id::CLEAN) {
    return Ok(Subcommand::Clean { paths: module_path(arguments)? });
  }
  if matches.get_flag(id::EVALUATE) {
    let stray = arguments.get(1..).unwrap_or_default();
    reject_stray("--evaluate", stray, false)?;
    if let Some(path) = arguments.first() {
      if crate::output::evaluate::module_path_components(path).is_none() {
        return Err(ConfigError::InvalidModulePath { path: path.clone() });
      }
    }
    return Ok(Subcommand::Evaluate { path: arguments.first().cloned() });
  }
  if matches.get_flag(id::CHOOSE) {
    return Ok(Subcommand::Choose);
  }
  if let Some(view) = dependency_view(matches, &arguments)? {
    return Ok(view);
  }

  let simple: [(&str, Subcommand, &'static str); 11] = [
    (id::CHANGELOG, Subcommand::Changelog, "--changelog"),
    (id::LSP, Subcommand::Lsp, "--lsp"),
    (id::DUMP, Subcommand::Dump, "--dump"),
    (id::JSON, Subcommand::Dump, "--dump"),
    (id::EDIT, Subcommand::Edit, "--edit"),
    (id::FORMAT, Subcommand::Format, "--format"),
    (id::GROUPS, Subcommand::Groups, "--groups"),
    (id::INIT, Subcommand::Init, "--init"),
    (id::MAN, Subcommand::Man, "--man"),
    (id::SUMMARY, Subcommand::Summary, "--summary"),
    (id::VARIABLES, Subcommand::Variables, "--variables"),
  ];
  for (flag, subcommand, name) in simple {
    if matches.get_flag(flag) {
      return nothing(subcommand, name);
    }
  }

  Ok(Subcommand::Run { arguments })
}

/// `--tree` or `--graph`, if given; `--all` takes no recipe paths.
fn dependency_view(
  matches: &dyn Given,
  arguments: &[String],
) -> Result<Option<Subcommand>, ConfigError> {
  let all = matches.get_flag(id::ALL);
  if all && !arguments.is_empty() {
    return Err(ConfigError::SubcommandArguments {
      subcommand: "--all",
      overrides: Vec::new(),
      arguments: arguments.to_vec(),
    });
  }
  if matches.on_command_line(id::TREE) {
    return Ok(Some(Subcommand::Tree { paths: arguments.to_vec(), all }));
  }
  if matches.on_command_line(id::GRAPH) {
    let format = graph_format(matches)?;
    return Ok(Some(Subcommand::Graph { paths: arguments.to_vec(), all, format }));
  }
  Ok(None)
}

/// `--graph-format`, else `JUST_GRAPH_FORMAT`, else `dot`. The variable is
/// read here rather than by clap, for which a value from the environment
/// would make `--graph-format`'s need of `--graph` apply to every run.
fn graph_format(matches: &dyn Given) -> Result<GraphFormat, ConfigError> {
  let given = if matches.on_command_line(id::GRAPH_FORMAT) {
    matches.string(id::GRAPH_FORMAT)
  } else {
    std::env::var("JUST_GRAPH_FORMAT").ok()
  };
  match given.as_deref() {
    Some("json") => Ok(GraphFormat::Json),
    Some("mermaid") => Ok(GraphFormat::Mermaid),
    None | Some("dot") => Ok(GraphFormat::Dot),
    Some(other) => {
      let message = format!(
        "invalid value '{other}' for '--graph-format <FORMAT>' (from JUST_GRAPH_FORMAT)\n  [possible values: dot, json, mermaid]"
      );
      let source = arguments::command().error(clap::error::ErrorKind::InvalidValue, message);
      Err(ConfigError::Clap { source })
    }
  }
}

/// `--list 'a b'`: a single word containing spaces is split on whitespace.
fn split_module_path(path: Vec<String>) -> Vec<String> {
  match path.as_slice() {
    [word] if word.contains(char::is_whitespace) => {
      word.split_whitespace().map(str::to_owned).collect()
    }
    _ => path,
  }
}

/// The ceiling as the searched directories are spelled: absolute (relative
/// to the invocation directory), without `.`/`..`, and physical where it
/// exists. Unlike just 1.58, which compares the text as given, so that any
/// other spelling never matches and silently lifts the bound.
fn ceiling_directory(invocation_directory: &Path, ceiling: &Path) -> PathBuf {
  let absolute = invocation_directory.join(ceiling).lexiclean();
  crate::platform::fs::physical_path(&absolute).unwrap_or(absolute)
}

fn apply_options(config: &mut Config, matches: &dyn Given) {
  let flag = |name: &str| matches.get_flag(name);

  config.alias_style = match matches.string(id::ALIAS_STYLE).as_deref() {
    Some("left") => AliasStyle::Left,
    Some("separate") => AliasStyle::Separate,
    _ => AliasStyle::Right,
  };
  config.allow_missing = flag(id::ALLOW_MISSING);
  config.ceiling = matches
    .path(id::CEILING)
    .map(|ceiling| ceiling_directory(&config.invocation_directory, &ceiling));
  config.check = flag(id::CHECK);
  config.chooser = matches.path(id::CHOOSER).map(PathBuf::into_os_string);
  config.color = match matches.string(id::COLOR).as_deref() {
    Some("always") => UseColor::Always,
    Some("never") => UseColor::Never,
    _ => UseColor::Auto,
  };
  config.command_color = matches.string(id::COMMAND_COLOR);
  config.complete_aliases = flag(id::COMPLETE_ALIASES);
  if let Some(cygpath) = matches.path(id::CYGPATH) {
    config.cygpath = cygpath;
  }
  config.default_list = flag(id::DEFAULT_LIST);
  config.dotenv_command = strings(matches, id::DOTENV_COMMAND);
  config.dotenv_filename = strings(matches, id::DOTENV_FILENAME);
  config.dotenv_path = strings(matches, id::DOTENV_PATH).into_iter().map(PathBuf::from).collect();
  config.dry_run = flag(id::DRY_RUN);
  config.dump_format =
    if flag(id::JSON) || matches.string(id::DUMP_FORMAT).as_deref() == Some("json") {
      DumpFormat::Json
    } else {
      DumpFormat::Just
    };
  config.evaluate_format = match matches.string(id::EVALUATE_FORMAT).as_deref() {
    Some("shell") => EvaluateFormat::Shell,
    _ => EvaluateFormat::Just,
  };
  config.explain = flag(id::EXPLAIN);
  config.groups = strings(matches, id::GROUP);
  config.highlight = !flag(id::NO_HIGHLIGHT);
  config.indentation = matches.string(id::INDENTATION);
  config.jobs = matches.positive(id::JOBS);
  config.justfile_names = matches
    .values(id::JUSTFILE_NAME)
    .map(|values| values.iter().flat_map(|value| value.split(',')).map(str::to_owned).collect());
  if let Some(heading) = matches.string(id::LIST_HEADING) {
    config.list_heading = heading;
  }
  if let Some(prefix) = matches.string(id::LIST_PREFIX) {
    config.list_prefix = prefix;
  }
  config.list_submodules = flag(id::LIST_SUBMODULES);
  config.no_aliases = flag(id::NO_ALIASES);
  config.no_cache = flag(id::NO_CACHE);
  config.cache_dir = matches.path(id::CACHE_DIR);
  config.cache_url = matches.string(id::CACHE_URL);
  config.cache_read_only = flag(id::CACHE_READ_ONLY);
  config.cache_timeout = matches.number(id::CACHE_TIMEOUT);
  config.no_deps = flag(id::NO_DEPS);
  config.no_dotenv = flag(id::NO_DOTENV);
  config.one = flag(id::ONE);
  config.quiet = flag(id::QUIET);
  config.shell = matches.string(id::SHELL);
  config.shell_args = if matches.on_command_line(id::SHELL_ARG) {
    Some(strings(matches, id::SHELL_ARG))
  } else if flag(id::CLEAR_SHELL_ARGS) {
    Some(Vec::new())
  } else {
    None
  };
  config.shell_command = flag(id::SHELL_COMMAND);
  config.tempdir = matches.path(id::TEMPDIR);
  config.time = flag(id::TIME);
  config.timestamp = flag(id::TIMESTAMP);
  if let Some(format) = matches.string(id::TIMESTAMP_FORMAT) {
    config.timestamp_format = format;
  }
  config.unsorted = flag(id::UNSORTED);
  config.unstable = flag(id::UNSTABLE);
  config.verbosity = matches.get_count(id::VERBOSE);
  config.yes = flag(id::YES);
  config.keep_going = flag(id::KEEP_GOING);
  config.output = match matches.string(id::OUTPUT).as_deref() {
    Some("prefixed") => OutputMode::Prefixed,
    Some("grouped") => OutputMode::Grouped,
    _ => OutputMode::Interleaved,
  };
  config.jobserver = flag(id::JOBSERVER);
  config.watch = flag(id::WATCH).then(|| WatchConfig {
    clear: flag(id::WATCH_CLEAR),
    debounce_ms: matches.number(id::WATCH_DEBOUNCE).unwrap_or(100),
    paths: strings(matches, id::WATCH_PATH),
    restart: flag(id::WATCH_RESTART),
  });
}

#[cfg(test)]
pub(crate) mod tests;
