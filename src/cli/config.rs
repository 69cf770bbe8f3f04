//! The configuration of one invocation, built from the command line and the
//! `JUST_*` environment (cli-and-execution.md §2–§3). Every later stage reads
//! it; nothing writes it after `Config::from_args`.

use std::path::PathBuf;

use crate::output::color::UseColor;

#[derive(Debug, Clone)]
pub struct Config {
  pub subcommand: Subcommand,
  pub search: SearchConfig,
  /// The process's absolute current directory when `just` started.
  pub invocation_directory: PathBuf,

  pub alias_style: AliasStyle,
  pub allow_missing: bool,
  pub ceiling: Option<PathBuf>,
  pub check: bool,
  pub chooser: Option<String>,
  pub color: UseColor,
  pub command_color: Option<String>,
  pub complete_aliases: bool,
  pub cygpath: PathBuf,
  pub default_list: bool,
  pub dotenv_command: Vec<String>,
  pub dotenv_filename: Vec<String>,
  pub dotenv_path: Vec<PathBuf>,
  pub dry_run: bool,
  pub dump_format: DumpFormat,
  pub evaluate_format: EvaluateFormat,
  pub explain: bool,
  pub groups: Vec<String>,
  pub highlight: bool,
  pub indentation: Option<String>,
  pub jobs: Option<usize>,
  /// `--justfile-name` values (already split on `,`); None = the defaults.
  pub justfile_names: Option<Vec<String>>,
  pub list_heading: String,
  pub list_prefix: String,
  pub list_submodules: bool,
  pub no_aliases: bool,
  pub no_cache: bool,
  pub no_deps: bool,
  pub no_dotenv: bool,
  pub one: bool,
  /// `--set` values first, then positional `NAME=VALUE` overrides (later wins).
  pub overrides: Vec<Override>,
  pub quiet: bool,
  /// `--shell`, if given.
  pub shell: Option<String>,
  /// The effective `--shell-arg` list if `--shell-arg` or `--clear-shell-args` was given.
  pub shell_args: Option<Vec<String>>,
  pub shell_command: bool,
  pub tempdir: Option<PathBuf>,
  pub time: bool,
  pub timestamp: bool,
  pub timestamp_format: String,
  pub unsorted: bool,
  pub unstable: bool,
  pub verbosity: u8,
  pub yes: bool,
}

/// `NAME=VALUE` or `--set NAME VALUE`; `sub::x=1` has module path `["sub"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
  pub module_path: Vec<String>,
  pub name: String,
  pub value: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchConfig {
  /// Upward search from the invocation directory.
  FromInvocationDirectory,
  /// Upward search from a search-directory prefix (`just ../build`), joined
  /// to the invocation directory and lexically cleaned.
  FromSearchDirectory { search_directory: PathBuf },
  /// `--justfile PATH` (absolute, cleaned), optionally with `--working-directory`.
  WithJustfile { justfile: PathBuf, working_directory: Option<PathBuf> },
  /// `--justfile -`: source read from stdin.
  Stdin { working_directory: Option<PathBuf> },
  /// `--global-justfile`.
  Global,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subcommand {
  /// Run recipes: the ordinary arguments after overrides and search directory.
  Run {
    arguments: Vec<String>,
  },
  Changelog,
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AliasStyle {
  Left,
  #[default]
  Right,
  Separate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DumpFormat {
  Json,
  #[default]
  Just,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EvaluateFormat {
  #[default]
  Just,
  Shell,
}

impl Config {
  /// A configuration with every option at its default, for tests and for
  /// stages that need one before the command line is parsed.
  pub fn default_for(invocation_directory: PathBuf) -> Self {
    Config {
      subcommand: Subcommand::Run { arguments: Vec::new() },
      search: SearchConfig::FromInvocationDirectory,
      invocation_directory,
      alias_style: AliasStyle::Right,
      allow_missing: false,
      ceiling: None,
      check: false,
      chooser: None,
      color: UseColor::Auto,
      command_color: None,
      complete_aliases: false,
      cygpath: PathBuf::from("cygpath"),
      default_list: false,
      dotenv_command: Vec::new(),
      dotenv_filename: Vec::new(),
      dotenv_path: Vec::new(),
      dry_run: false,
      dump_format: DumpFormat::Just,
      evaluate_format: EvaluateFormat::Just,
      explain: false,
      groups: Vec::new(),
      highlight: true,
      indentation: None,
      jobs: None,
      justfile_names: None,
      list_heading: "Available recipes:\n".into(),
      list_prefix: "    ".into(),
      list_submodules: false,
      no_aliases: false,
      no_cache: false,
      no_deps: false,
      no_dotenv: false,
      one: false,
      overrides: Vec::new(),
      quiet: false,
      shell: None,
      shell_args: None,
      shell_command: false,
      tempdir: None,
      time: false,
      timestamp: false,
      timestamp_format: "%H:%M:%S".into(),
      unsorted: false,
      unstable: false,
      verbosity: 0,
      yes: false,
    }
  }
}
