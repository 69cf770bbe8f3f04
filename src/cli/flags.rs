//! The command-line vocabulary: every option and command of `just`, each
//! defined once in `FLAGS` (long name, short name, aliases, environment
//! variable, what it takes, default, help, relations to other flags).
//! `arguments.rs` builds clap's command (and so `--help`, errors,
//! completions and the man page) from it; `quick.rs` parses the common
//! command lines with it without building that command.

/// Flag ids: a flag's id is its long name. Positional words use `ARGUMENTS`.
pub(crate) mod id {
  pub(crate) const ALIAS_STYLE: &str = "alias-style";
  pub(crate) const ALLOW_MISSING: &str = "allow-missing";
  pub(crate) const ARGUMENTS: &str = "ARGUMENTS";
  pub(crate) const CEILING: &str = "ceiling";
  pub(crate) const CHECK: &str = "check";
  pub(crate) const CHOOSER: &str = "chooser";
  pub(crate) const CLEAR_SHELL_ARGS: &str = "clear-shell-args";
  pub(crate) const COLOR: &str = "color";
  pub(crate) const COMMAND_COLOR: &str = "command-color";
  pub(crate) const COMPLETE_ALIASES: &str = "complete-aliases";
  pub(crate) const CYGPATH: &str = "cygpath";
  pub(crate) const DEFAULT_LIST: &str = "default-list";
  pub(crate) const DOTENV_COMMAND: &str = "dotenv-command";
  pub(crate) const DOTENV_FILENAME: &str = "dotenv-filename";
  pub(crate) const DOTENV_PATH: &str = "dotenv-path";
  pub(crate) const DRY_RUN: &str = "dry-run";
  pub(crate) const DUMP_FORMAT: &str = "dump-format";
  pub(crate) const EVALUATE_FORMAT: &str = "evaluate-format";
  pub(crate) const EXPLAIN: &str = "explain";
  pub(crate) const GLOBAL_JUSTFILE: &str = "global-justfile";
  pub(crate) const GROUP: &str = "group";
  pub(crate) const HIGHLIGHT: &str = "highlight";
  pub(crate) const INDENTATION: &str = "indentation";
  pub(crate) const JOBS: &str = "jobs";
  pub(crate) const JUSTFILE: &str = "justfile";
  pub(crate) const JUSTFILE_NAME: &str = "justfile-name";
  pub(crate) const LIST_HEADING: &str = "list-heading";
  pub(crate) const LIST_PREFIX: &str = "list-prefix";
  pub(crate) const LIST_SUBMODULES: &str = "list-submodules";
  pub(crate) const NO_ALIASES: &str = "no-aliases";
  pub(crate) const NO_CACHE: &str = "no-cache";
  pub(crate) const CACHE_DIR: &str = "cache-dir";
  pub(crate) const CACHE_URL: &str = "cache-url";
  pub(crate) const CACHE_READ_ONLY: &str = "cache-read-only";
  pub(crate) const CACHE_TIMEOUT: &str = "cache-timeout";
  pub(crate) const NO_DEPS: &str = "no-deps";
  pub(crate) const NO_DOTENV: &str = "no-dotenv";
  pub(crate) const NO_HIGHLIGHT: &str = "no-highlight";
  pub(crate) const ONE: &str = "one";
  pub(crate) const QUIET: &str = "quiet";
  pub(crate) const REMOTE_EXECUTOR: &str = "remote-executor";
  pub(crate) const REMOTE_FALLBACK: &str = "remote-fallback";
  pub(crate) const REMOTE_JOBS: &str = "remote-jobs";
  pub(crate) const REMOTE_PROPERTY: &str = "remote-property";
  pub(crate) const REMOTE_TIMEOUT: &str = "remote-timeout";
  pub(crate) const SET: &str = "set";
  pub(crate) const SHELL: &str = "shell";
  pub(crate) const SHELL_ARG: &str = "shell-arg";
  pub(crate) const SHELL_COMMAND: &str = "shell-command";
  pub(crate) const TEMPDIR: &str = "tempdir";
  pub(crate) const TIME: &str = "time";
  pub(crate) const TIMESTAMP: &str = "timestamp";
  pub(crate) const TIMESTAMP_FORMAT: &str = "timestamp-format";
  pub(crate) const UNSORTED: &str = "unsorted";
  pub(crate) const UNSTABLE: &str = "unstable";
  pub(crate) const VERBOSE: &str = "verbose";
  pub(crate) const WORKING_DIRECTORY: &str = "working-directory";
  pub(crate) const YES: &str = "yes";
  // Running many recipes: failure handling, output of concurrent recipes, make jobserver.
  pub(crate) const KEEP_GOING: &str = "keep-going";
  pub(crate) const OUTPUT: &str = "output";
  pub(crate) const JOBSERVER: &str = "jobserver";

  pub(crate) const WATCH: &str = "watch";
  pub(crate) const WATCH_CLEAR: &str = "clear";
  pub(crate) const WATCH_DEBOUNCE: &str = "watch-debounce";
  pub(crate) const WATCH_PATH: &str = "watch-path";
  pub(crate) const WATCH_RESTART: &str = "watch-restart";

  pub(crate) const CHANGELOG: &str = "changelog";
  pub(crate) const CHOOSE: &str = "choose";
  pub(crate) const CLEAN: &str = "clean";
  pub(crate) const COMMAND: &str = "command";
  pub(crate) const COMPLETIONS: &str = "completions";
  pub(crate) const DUMP: &str = "dump";
  pub(crate) const EDIT: &str = "edit";
  pub(crate) const EVALUATE: &str = "evaluate";
  pub(crate) const FORMAT: &str = "fmt";
  /// `--fmt`'s other name, by which just 1.58 reports it.
  pub(crate) const FORMAT_ALIAS: &str = "format";
  pub(crate) const GROUPS: &str = "groups";
  pub(crate) const INIT: &str = "init";
  pub(crate) const JSON: &str = "json";
  pub(crate) const LIST: &str = "list";
  pub(crate) const LSP: &str = "lsp";
  pub(crate) const MAN: &str = "man";
  pub(crate) const REQUEST: &str = "request";
  pub(crate) const SHOW: &str = "show";
  pub(crate) const SUMMARY: &str = "summary";
  pub(crate) const USAGE: &str = "usage";
  pub(crate) const VARIABLES: &str = "variables";

  // Dependency views: `--tree`, `--graph`.
  pub(crate) const ALL: &str = "all";
  pub(crate) const GRAPH: &str = "graph";
  pub(crate) const GRAPH_FORMAT: &str = "graph-format";
  pub(crate) const TREE: &str = "tree";
  /// The group of `--tree` and `--graph`, which `--all` requires.
  pub(crate) const DEPENDENCY_VIEW: &str = "dependency-view";

  /// In a `conflicts` list: every command (`Flag::command`).
  pub(crate) const EVERY_COMMAND: &str = "<every command>";
}

use id::*;

use std::path::PathBuf;

use crate::cli::completions::CompletionShell;
use crate::cli::config::{ceiling_directory, FlagValue};
use crate::cli::edit::DEFAULT_EDITOR;
use crate::cli::run::DEFAULT_CHOOSER;
use crate::color::{CommandColor, UseColor};
use crate::options::{
  AliasStyle, Choice, DumpFormat, EvaluateFormat, GraphFormat, Options, OutputMode, WatchConfig,
  Words,
};

/// One option or command.
#[derive(Debug)]
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

/// Every option and command, in the order of their long names (as `--help`
/// lists them).
pub(crate) const FLAGS: &[Flag] = &[
  Flag {
    env: Some("JUST_ALIAS_STYLE"),
    default: Some(AliasStyle::Right.word()),
    conflicts: &[NO_ALIASES],
    ..choice::<AliasStyle>(ALIAS_STYLE, "ALIAS_STYLE", "How `--list` shows aliases", |o, v| {
      o.alias_style = v.choice().unwrap_or_default();
    })
  },
  Flag {
    requires: Some(DEPENDENCY_VIEW),
    ..option(ALL, Takes::Switch, "With `--tree`/`--graph` and no recipe: include private recipes among the roots", nothing)
  },
  switch(ALLOW_MISSING, "JUST_ALLOW_MISSING", "Succeed silently on unknown recipes and modules", |o, v| {
    o.allow_missing = v.switch();
  }),
  Flag {
    env: Some("JUST_CACHE_DIR"),
    conflicts: &[CACHE_URL],
    completer: Completer::Directory,
    ..path(CACHE_DIR, "DIR", "Share `[cache]` results through this directory", |o, v| o.cache_dir = v.path())
  },
  Flag {
    env: Some("JUST_CACHE_READ_ONLY"),
    ..option(CACHE_READ_ONLY, Takes::FalseySwitch, "Only read from the shared `[cache]` store", |o, v| {
      o.cache_read_only = v.switch();
    })
  },
  Flag {
    env: Some("JUST_CACHE_TIMEOUT"),
    default: Some("10"),
    ..option(CACHE_TIMEOUT, Takes::Value("SECONDS", Kind::Number), "Give up on a request to a shared `[cache]` store after SECONDS, plus a second per MiB it moved (default {default})", |o, v| {
      // Always given: the row has a default.
      o.cache_timeout = v.number().unwrap_or_default();
    })
  },
  Flag {
    env: Some("JUST_CACHE_URL"),
    ..text(CACHE_URL, "URL", "Share `[cache]` results through this http://, https://, s3:// or grpc(s):// (Remote Execution API) store", |o, v| {
      o.cache_url = v.string();
    })
  },
  Flag {
    env: Some("JUST_CEILING"),
    completer: Completer::Directory,
    ..path(CEILING, "CEILING", "Stop the justfile search after this directory", |o, v| {
      o.ceiling = v.path().map(|ceiling| ceiling_directory(&o.invocation_directory, &ceiling));
    })
  },
  command(CHANGELOG, Takes::Switch, Command::Changelog, "Print the changelog"),
  Flag {
    requires: Some(FORMAT),
    ..option(CHECK, Takes::Switch, "With `--fmt`: change nothing; exit 0 if the justfile is formatted, else print a diff and exit 1", |o, v| {
      o.check = v.switch();
    })
  },
  Flag {
    shown_default: Some(DEFAULT_CHOOSER),
    ..command(CHOOSE, Takes::Switch, Command::Choose, "Pick recipes to run with a chooser: `--chooser`, else $JUST_CHOOSER, else `{default}`")
  },
  Flag {
    env: Some("JUST_CHOOSER"),
    shown_default: Some(DEFAULT_CHOOSER),
    completer: Completer::File,
    ..path(CHOOSER, "CHOOSER", "Program `--choose` runs to pick recipes (default `{default}`)", |o, v| {
      o.chooser = v.path().map(PathBuf::into_os_string);
    })
  },
  Flag {
    conflicts: &[ARGUMENTS],
    ..command(CLEAN, Takes::Words("RECIPE_PATH", 0), Command::Clean, "Delete `[cache]` results, and those in the `--cache-dir` store; with RECIPE_PATH (`a::b` or `a b`), only of recipes under it")
  },
  Flag {
    requires: Some(WATCH),
    ..option(WATCH_CLEAR, Takes::Switch, "With `--watch`: clear the screen before each run", nothing)
  },
  Flag {
    overrides: Some(SHELL_ARG),
    // Before `--shell-arg`'s row, which replaces this when given.
    ..option(CLEAR_SHELL_ARGS, Takes::Switch, "Use no shell arguments", |o, v| {
      if v.switch() {
        o.shell_args = Some(Vec::new());
      }
    })
  },
  Flag {
    env: Some("JUST_COLOR"),
    default: Some(UseColor::Auto.word()),
    ..choice::<UseColor>(COLOR, "COLOR", "When to use colour", |o, v| o.color = v.choice().unwrap_or_default())
  },
  Flag {
    short: Some('c'),
    ..command(COMMAND, Takes::Rest("COMMAND"), Command::Execute, "Run COMMAND with the justfile's working directory, dotenv, overrides and exports")
  },
  Flag {
    env: Some("JUST_COMMAND_COLOR"),
    ..choice::<CommandColor>(COMMAND_COLOR, "COMMAND_COLOR", "Colour of echoed recipe lines", |o, v| o.command_color = v.choice())
  },
  switch(COMPLETE_ALIASES, "JUST_COMPLETE_ALIASES", "Offer aliases when completing", |o, v| {
    o.complete_aliases = v.switch();
  }),
  command(COMPLETIONS, Takes::Value("SHELL", Kind::Choice(CompletionShell::WORDS)), Command::Completions, "Print the completion script for SHELL"),
  Flag {
    env: Some("JUST_CYGPATH"),
    default: Some("cygpath"),
    completer: Completer::File,
    ..path(CYGPATH, "CYGPATH", "Path converter used on Windows", |o, v| {
      if let Some(cygpath) = v.path() {
        o.cygpath = cygpath;
      }
    })
  },
  switch(DEFAULT_LIST, "JUST_DEFAULT_LIST", "List recipes when none is given", |o, v| o.default_list = v.switch()),
  Flag {
    env: Some("JUST_DOTENV_COMMAND"),
    conflicts: &[DOTENV_FILENAME, DOTENV_PATH, NO_DOTENV],
    ..option(DOTENV_COMMAND, Takes::Values("COMMAND", Kind::Text), "Load the output of COMMAND as a dotenv file", |o, v| {
      o.dotenv_command = v.strings();
    })
  },
  Flag {
    short: Some('F'),
    conflicts: &[DOTENV_PATH],
    ..option(DOTENV_FILENAME, Takes::Values("DOTENV_FILENAME", Kind::Text), "Look for a dotenv file with this name instead of `.env`", |o, v| {
      o.dotenv_filename = v.strings();
    })
  },
  Flag {
    short: Some('E'),
    completer: Completer::File,
    ..option(DOTENV_PATH, Takes::Values("DOTENV_PATH", Kind::Text), "Load this dotenv file instead of searching for one", |o, v| {
      o.dotenv_path = v.strings().into_iter().map(PathBuf::from).collect();
    })
  },
  Flag {
    short: Some('n'),
    conflicts: &[QUIET],
    ..switch(DRY_RUN, "JUST_DRY_RUN", "Print commands without running them", |o, v| o.dry_run = v.switch())
  },
  command(DUMP, Takes::Switch, Command::Dump, "Print the justfile"),
  Flag {
    env: Some("JUST_DUMP_FORMAT"),
    default: Some(DumpFormat::Just.word()),
    conflicts: &[JSON],
    // Before `--json`'s row, which sets the format too.
    ..choice::<DumpFormat>(DUMP_FORMAT, "FORMAT", "Output format of `--dump`", |o, v| {
      o.dump_format = v.choice().unwrap_or_default();
    })
  },
  Flag {
    short: Some('e'),
    shown_default: Some(DEFAULT_EDITOR),
    ..command(EDIT, Takes::Switch, Command::Edit, "Open the justfile in $VISUAL or $EDITOR (default `{default}`)")
  },
  Flag {
    aliases: &["eval"],
    ..command(EVALUATE, Takes::Switch, Command::Evaluate, "Print the values of variables (or of the one named)")
  },
  Flag {
    env: Some("JUST_EVALUATE_FORMAT"),
    default: Some(EvaluateFormat::Just.word()),
    ..choice::<EvaluateFormat>(EVALUATE_FORMAT, "FORMAT", "Output format of `--evaluate`", |o, v| {
      o.evaluate_format = v.choice().unwrap_or_default();
    })
  },
  switch(EXPLAIN, "JUST_EXPLAIN", "Print a recipe's doc comment before running it", |o, v| o.explain = v.switch()),
  Flag {
    aliases: &[FORMAT_ALIAS],
    ..command(FORMAT, Takes::Switch, Command::Format, "Rewrite the justfile in canonical form")
  },
  Flag {
    short: Some('g'),
    conflicts: &[JUSTFILE, WORKING_DIRECTORY],
    ..option(GLOBAL_JUSTFILE, Takes::Switch, "Use the user's global justfile", nothing)
  },
  Flag {
    completer: Completer::RecipePaths,
    ..command(GRAPH, Takes::Words("RECIPE_PATH", 0), Command::Graph, "Print the dependency graph of recipes for tools (see --graph-format)")
  },
  Flag {
    late_env: Some("JUST_GRAPH_FORMAT"),
    default: Some(GraphFormat::Dot.word()),
    requires: Some(GRAPH),
    ..choice::<GraphFormat>(GRAPH_FORMAT, "FORMAT", "Output format of `--graph` (else $JUST_GRAPH_FORMAT)", nothing)
  },
  Flag {
    env: Some("JUST_GROUP"),
    requires: Some(LIST),
    completer: Completer::Groups,
    ..option(GROUP, Takes::Values("GROUP", Kind::Text), "Only list recipes of this group", |o, v| o.groups = v.strings())
  },
  command(GROUPS, Takes::Switch, Command::Groups, "List the recipe groups"),
  Flag {
    overrides: Some(NO_HIGHLIGHT),
    // Highlighting is the default: `--no-highlight`'s row sets it.
    ..switch(HIGHLIGHT, "JUST_HIGHLIGHT", "Echo recipe lines in bold", nothing)
  },
  Flag {
    env: Some("JUST_INDENTATION"),
    ..option(INDENTATION, Takes::Value("INDENTATION", Kind::Indentation), "Indentation of recipe bodies when formatting", |o, v| {
      o.indentation = v.string();
    })
  },
  Flag {
    aliases: &["initialize"],
    ..command(INIT, Takes::Switch, Command::Init, "Create a justfile in the project root")
  },
  Flag {
    env: Some("JUST_JOBS"),
    shown_default: Some("no limit; with `--jobserver`, the number of CPUs"),
    ..option(JOBS, Takes::Value("N", Kind::Positive), "Run at most N recipes at once in `[parallel]` recipes [default: {default}]", |o, v| {
      o.jobs = v.positive();
    })
  },
  switch(JOBSERVER, "JUST_JOBSERVER", "Share the `--jobs` slots with make and cargo run by recipes, or use those of a parent make", |o, v| {
    o.jobserver = v.switch();
  }),
  Flag {
    apply: |o, v| {
      if v.switch() {
        o.dump_format = DumpFormat::Json;
      }
    },
    ..command(JSON, Takes::Switch, Command::Json, "Print the justfile as JSON")
  },
  Flag {
    short: Some('f'),
    env: Some("JUST_JUSTFILE"),
    completer: Completer::File,
    ..path(JUSTFILE, "JUSTFILE", "Use this justfile (`-` reads it from standard input)", nothing)
  },
  Flag {
    env: Some("JUST_JUSTFILE_NAME"),
    ..option(JUSTFILE_NAME, Takes::Values("NAME", Kind::Text), "Search for justfiles with these comma-separated names (may be repeated)", |o, v| {
      o.justfile_names = v.values().map(|values| {
        values.iter().flat_map(|value| value.split(',')).map(str::to_owned).collect()
      });
    })
  },
  Flag {
    short: Some('k'),
    ..switch(KEEP_GOING, "JUST_KEEP_GOING", "After a failure, run every recipe that does not depend on it", |o, v| {
      o.keep_going = v.switch();
    })
  },
  Flag {
    short: Some('l'),
    conflicts: &[ARGUMENTS],
    ..command(LIST, Takes::Words("MODULE", 0), Command::List, "List the recipes of MODULE, or of the root module")
  },
  Flag {
    env: Some("JUST_LIST_HEADING"),
    default: Some("Available recipes:\n"),
    ..text(LIST_HEADING, "TEXT", "Text printed before the recipe list", |o, v| {
      if let Some(heading) = v.string() {
        o.list_heading = heading;
      }
    })
  },
  Flag {
    env: Some("JUST_LIST_PREFIX"),
    default: Some("    "),
    ..text(LIST_PREFIX, "TEXT", "Text printed before each listed recipe", |o, v| {
      if let Some(prefix) = v.string() {
        o.list_prefix = prefix;
      }
    })
  },
  Flag {
    requires: Some(LIST),
    ..switch(LIST_SUBMODULES, "JUST_LIST_SUBMODULES", "Also list recipes of submodules", |o, v| {
      o.list_submodules = v.switch();
    })
  },
  command(LSP, Takes::Switch, Command::Lsp, "Serve the Language Server Protocol on standard input and output (for editors)"),
  command(MAN, Takes::Switch, Command::Man, "Print the man page"),
  switch(NO_ALIASES, "JUST_NO_ALIASES", "Leave aliases out of listings", |o, v| o.no_aliases = v.switch()),
  switch(NO_CACHE, "JUST_NO_CACHE", "Ignore the recipe cache", |o, v| o.no_cache = v.switch()),
  Flag {
    aliases: &["no-dependencies"],
    ..switch(NO_DEPS, "JUST_NO_DEPS", "Skip recipe dependencies", |o, v| o.no_deps = v.switch())
  },
  switch(NO_DOTENV, "JUST_NO_DOTENV", "Never load dotenv files", |o, v| o.no_dotenv = v.switch()),
  Flag {
    overrides: Some(HIGHLIGHT),
    ..switch(NO_HIGHLIGHT, "JUST_NO_HIGHLIGHT", "Echo recipe lines without bold", |o, v| o.highlight = !v.switch())
  },
  switch(ONE, "JUST_ONE", "Refuse more than one recipe invocation", |o, v| o.one = v.switch()),
  Flag {
    env: Some("JUST_OUTPUT"),
    default: Some(OutputMode::Interleaved.word()),
    ..choice::<OutputMode>(OUTPUT, "MODE", "Output of recipe commands: as written, each line prefixed with `[recipe] `, or held per recipe", |o, v| {
      o.output = v.choice().unwrap_or_default();
    })
  },
  Flag {
    short: Some('q'),
    ..switch(QUIET, "JUST_QUIET", "Print nothing: neither `just`'s own messages nor the output of recipes", |o, v| {
      o.quiet = v.switch();
    })
  },
  Flag {
    env: Some("JUST_REMOTE_EXECUTOR"),
    ..text(REMOTE_EXECUTOR, "URL", "Run `[cache]` recipes on the workers of this grpc:// or grpcs:// Remote Execution API server (unstable)", |o, v| {
      o.remote_executor = v.string();
    })
  },
  Flag {
    ..switch(REMOTE_FALLBACK, "JUST_REMOTE_FALLBACK", "Run `[cache]` recipes locally when the `--remote-executor` cannot be reached", |o, v| {
      o.remote_fallback = v.switch();
    })
  },
  Flag {
    env: Some("JUST_REMOTE_JOBS"),
    default: Some("64"),
    ..option(REMOTE_JOBS, Takes::Value("N", Kind::Positive), "Have at most N `[cache]` recipes in flight on the `--remote-executor`, apart from `--jobs` (default {default})", |o, v| {
      o.remote_jobs = v.positive().unwrap_or(64);
    })
  },
  Flag {
    ..option(REMOTE_PROPERTY, Takes::Values("KEY=VALUE", Kind::Text), "Ask for workers with this platform property, besides the OS and processor (unstable)", |o, v| {
      o.remote_properties = v.strings();
    })
  },
  Flag {
    env: Some("JUST_REMOTE_TIMEOUT"),
    ..option(REMOTE_TIMEOUT, Takes::Value("SECONDS", Kind::Positive), "Ask the `--remote-executor` to stop an action that runs longer than SECONDS", |o, v| {
      o.remote_timeout = v.positive().map(|seconds| seconds as u64);
    })
  },
  Flag {
    hidden: true,
    ..command(REQUEST, Takes::Value("REQUEST", Kind::Text), Command::Request, "Answer an internal JSON request")
  },
  Flag {
    completer: Completer::Variables,
    // Read with the positional overrides, before the rows apply.
    ..option(SET, Takes::Pair("VARIABLE", "VALUE"), "Set VARIABLE to VALUE", nothing)
  },
  text(SHELL, "SHELL", "Run recipe lines and backticks with this shell", |o, v| o.shell = v.string()),
  Flag {
    overrides: Some(CLEAR_SHELL_ARGS),
    ..option(SHELL_ARG, Takes::HyphenValues("SHELL_ARG"), "Pass this argument to the shell", |o, v| {
      if v.on_command_line() {
        o.shell_args = Some(v.strings());
      }
    })
  },
  Flag {
    requires: Some(COMMAND),
    ..option(SHELL_COMMAND, Takes::Switch, "With `--command`: run the command through the shell", |o, v| {
      o.shell_command = v.switch();
    })
  },
  Flag {
    short: Some('s'),
    conflicts: &[ARGUMENTS],
    completer: Completer::RecipePaths,
    ..command(SHOW, Takes::Words("RECIPE_PATH", 1), Command::Show, "Print the source of a recipe")
  },
  command(SUMMARY, Takes::Switch, Command::Summary, "Print the names of the recipes on one line"),
  Flag {
    env: Some("JUST_TEMPDIR"),
    completer: Completer::Directory,
    ..path(TEMPDIR, "TEMPDIR", "Directory for temporary files", |o, v| o.tempdir = v.path())
  },
  switch(TIME, "JUST_TIME", "Report how long each recipe took", |o, v| o.time = v.switch()),
  switch(TIMESTAMP, "JUST_TIMESTAMP", "Prefix echoed lines with the time", |o, v| o.timestamp = v.switch()),
  Flag {
    env: Some("JUST_TIMESTAMP_FORMAT"),
    default: Some("%H:%M:%S"),
    ..text(TIMESTAMP_FORMAT, "TIMESTAMP_FORMAT", "strftime format of `--timestamp`", |o, v| {
      if let Some(format) = v.string() {
        o.timestamp_format = format;
      }
    })
  },
  Flag {
    completer: Completer::RecipePaths,
    ..command(TREE, Takes::Words("RECIPE_PATH", 0), Command::Tree, "Print the dependency tree of recipes (default: every recipe nothing depends on)")
  },
  Flag {
    short: Some('u'),
    ..switch(UNSORTED, "JUST_UNSORTED", "Keep source order in listings", |o, v| o.unsorted = v.switch())
  },
  Flag {
    env: Some("JUST_UNSTABLE"),
    ..option(UNSTABLE, Takes::FalseySwitch, "Allow unstable features", |o, v| o.unstable = v.switch())
  },
  Flag {
    conflicts: &[ARGUMENTS],
    completer: Completer::RecipePaths,
    ..command(USAGE, Takes::Words("RECIPE_PATH", 1), Command::Usage, "Print how to call a recipe")
  },
  command(VARIABLES, Takes::Switch, Command::Variables, "Print the names of the variables"),
  Flag {
    short: Some('v'),
    env: Some("JUST_VERBOSE"),
    ..option(VERBOSE, Takes::Count, "Say more (repeat for even more)", |o, v| o.verbosity = v.count())
  },
  Flag {
    short: Some('w'),
    conflicts: &[EVERY_COMMAND],
    // With the flags that only go with it.
    ..switch(WATCH, "JUST_WATCH", "Run again whenever inputs or the justfile change", |o, v| {
      o.watch = v.switch().then(|| WatchConfig {
        clear: v.other(WATCH_CLEAR).switch(),
        // Always given: the row has a default.
        debounce_ms: v.other(WATCH_DEBOUNCE).number().unwrap_or_default(),
        paths: v.other(WATCH_PATH).strings(),
        restart: v.other(WATCH_RESTART).switch(),
      });
    })
  },
  Flag {
    default: Some("100"),
    requires: Some(WATCH),
    ..option(WATCH_DEBOUNCE, Takes::Value("MS", Kind::Number), "With `--watch`: wait for MS quiet milliseconds", nothing)
  },
  Flag {
    requires: Some(WATCH),
    completer: Completer::AnyPath,
    ..option(WATCH_PATH, Takes::Values("PATH", Kind::Text), "With `--watch`: also watch this file, directory or glob", nothing)
  },
  Flag {
    requires: Some(WATCH),
    ..option(WATCH_RESTART, Takes::Switch, "With `--watch`: stop running recipes when changes arrive", nothing)
  },
  Flag {
    short: Some('d'),
    env: Some("JUST_WORKING_DIRECTORY"),
    requires: Some(JUSTFILE),
    completer: Completer::Directory,
    ..path(WORKING_DIRECTORY, "WORKING_DIRECTORY", "Run in this directory (needs --justfile)", nothing)
  },
  switch(YES, "JUST_YES", "Confirm every recipe without asking", |o, v| o.yes = v.switch()),
];

/// The row of the flag with this id, found at compile time (a `const`
/// naming a flag that is not in the table does not compile).
pub(crate) const fn row(id: &str) -> &'static Flag {
  let mut index = 0;
  while index < FLAGS.len() {
    if same_text(FLAGS[index].long, id) {
      return &FLAGS[index];
    }
    index += 1;
  }
  panic!("no such flag")
}

/// `a == b`, which a `const fn` cannot write.
const fn same_text(a: &str, b: &str) -> bool {
  let (a, b) = (a.as_bytes(), b.as_bytes());
  if a.len() != b.len() {
    return false;
  }
  let mut index = 0;
  while index < a.len() {
    if a[index] != b[index] {
      return false;
    }
    index += 1;
  }
  true
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
