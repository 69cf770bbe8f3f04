//! The options of one run, as plain data: built once from the command line
//! and the `JUST_*` environment by `cli`, and read by every stage below it.

use std::{ffi::OsString, path::PathBuf};

use crate::color::{CommandColor, UseColor};

#[derive(Debug, Clone)]
pub(crate) struct Options {
  pub search: SearchConfig,
  /// The process's absolute current directory when `just` started.
  pub invocation_directory: PathBuf,

  pub alias_style: AliasStyle,
  pub allow_missing: bool,
  pub ceiling: Option<PathBuf>,
  pub check: bool,
  pub chooser: Option<OsString>,
  pub color: UseColor,
  pub command_color: Option<CommandColor>,
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
  /// `--up-to-date`: run nothing; answer whether every recipe of the run
  /// would be skipped by its `[cache]`.
  pub up_to_date: bool,
  /// `--cache-dir`: a directory shared stores cache entries in.
  pub cache_dir: Option<PathBuf>,
  /// `--cache-url`: an `http(s)://` or `s3://` shared store.
  pub cache_url: Option<String>,
  pub cache_read_only: bool,
  /// `--cache-timeout`: seconds a request to the shared store may take (plus
  /// one per MiB it moved), and each of its waits.
  pub cache_timeout: u64,
  /// `--remote-executor`: a `grpc(s)://` server running `[cache]` recipes.
  pub remote_executor: Option<String>,
  /// `--remote-fallback`: run locally when the executor cannot be reached.
  pub remote_fallback: bool,
  /// `--remote-jobs`: remote actions in flight at once.
  pub remote_jobs: usize,
  /// `--remote-property KEY=VALUE`: platform properties asked of workers.
  pub remote_properties: Vec<String>,
  /// `--remote-timeout`: the timeout of each remote action.
  pub remote_timeout: Option<u64>,
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
  // Running many recipes.
  pub keep_going: bool,
  pub output: OutputMode,
  pub jobserver: bool,
  pub watch: Option<WatchConfig>,
}

impl Options {
  /// Every option at its default.
  pub(crate) fn default_for(invocation_directory: PathBuf) -> Self {
    Options {
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
      up_to_date: false,
      cache_dir: None,
      cache_url: None,
      cache_read_only: false,
      cache_timeout: 10,
      remote_executor: None,
      remote_fallback: false,
      remote_jobs: 64,
      remote_properties: Vec::new(),
      remote_timeout: None,
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
      keep_going: false,
      output: OutputMode::Interleaved,
      jobserver: false,
      watch: None,
    }
  }
}

/// `NAME=VALUE` or `--set NAME VALUE`; `sub::x=1` has module path `["sub"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Override {
  pub module_path: Vec<String>,
  pub name: String,
  pub value: String,
}

impl std::fmt::Display for Override {
  fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    for module in &self.module_path {
      write!(f, "{module}::")?;
    }
    write!(f, "{}={}", self.name, self.value)
  }
}

/// `--watch` and its companions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WatchConfig {
  pub clear: bool,
  pub debounce_ms: u64,
  pub paths: Vec<String>,
  pub restart: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SearchConfig {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum AliasStyle {
  Left,
  #[default]
  Right,
  Separate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum DumpFormat {
  Json,
  #[default]
  Just,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum EvaluateFormat {
  #[default]
  Just,
  Shell,
}

/// How the output of concurrently running recipes is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(crate) enum OutputMode {
  #[default]
  Interleaved,
  Prefixed,
  Grouped,
}

/// `--graph-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum GraphFormat {
  #[default]
  Dot,
  Json,
  Mermaid,
}

/// A value given as one of a fixed set of words (`--color always`). Each
/// type has one table of its words (`choice!`), from which clap's possible
/// values, both parsers, completion and the row's default are derived.
pub(crate) trait Choice: Copy + 'static {
  const WORDS: Words;
  /// `WORDS.listed[i]` stands for `VALUES[i]`.
  const VALUES: &'static [Self];

  /// The value `word` stands for (a listed word or an alias).
  fn from_word(word: &str) -> Option<Self> {
    let words = Self::WORDS;
    let same = |known: &str| {
      if words.any_case {
        known.eq_ignore_ascii_case(word)
      } else {
        known == word
      }
    };
    let listed = match words.aliases.iter().find(|(alias, _)| same(alias)) {
      Some(&(_, listed)) => listed,
      None => word,
    };
    let index = words.listed.iter().position(|&known| same(known) || known == listed)?;
    Self::VALUES.get(index).copied()
  }
}

/// The words of a `Choice`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Words {
  /// Listed in `--help` and errors, in this order.
  pub listed: &'static [&'static str],
  /// Other words for a listed one, not shown: (alias, listed word).
  pub aliases: &'static [(&'static str, &'static str)],
  /// Whether a word is accepted in any (ASCII) case.
  pub any_case: bool,
}

/// Implements `Choice` for an enum from its one table of words
/// (`Variant = "word"`, optionally `| "alias"`; `any_case` first to accept
/// any case), and gives it `word()`. The table must name every variant:
/// `word()` matches on them.
macro_rules! choice {
  (any_case $type:ident { $($rest:tt)* }) => {
    $crate::options::choice!(@impl true, $type { $($rest)* });
  };
  ($type:ident { $($rest:tt)* }) => {
    $crate::options::choice!(@impl false, $type { $($rest)* });
  };
  (@impl $any_case:expr, $type:ident {
    $($variant:ident = $word:literal $(| $alias:literal)*),+ $(,)?
  }) => {
    // Not every choice needs its words outside the table and the tests.
    #[allow(dead_code)]
    impl $type {
      /// The word that stands for this value.
      pub(crate) const fn word(self) -> &'static str {
        match self {
          $($type::$variant => $word),+
        }
      }
    }

    impl $crate::options::Choice for $type {
      const WORDS: $crate::options::Words = $crate::options::Words {
        listed: &[$($word),+],
        aliases: &[$($(($alias, $word),)*)+],
        any_case: $any_case,
      };
      const VALUES: &'static [Self] = &[$($type::$variant),+];
    }
  };
}
pub(crate) use choice;

// The words of each choice, in the order `--help` lists them.
choice!(AliasStyle { Left = "left", Right = "right", Separate = "separate" });
choice!(UseColor { Always = "always", Auto = "auto", Never = "never" });
choice!(CommandColor {
  Black = "black",
  Blue = "blue",
  Cyan = "cyan",
  Green = "green",
  Purple = "purple",
  Red = "red",
  Yellow = "yellow",
});
choice!(DumpFormat { Json = "json", Just = "just" });
choice!(EvaluateFormat { Just = "just", Shell = "shell" });
choice!(GraphFormat { Dot = "dot", Json = "json", Mermaid = "mermaid" });
choice!(OutputMode { Interleaved = "interleaved", Prefixed = "prefixed", Grouped = "grouped" });

#[cfg(test)]
pub(crate) mod tests {
  use super::*;

  /// A choice's table: as many values as words, each word (and alias, in
  /// any case where allowed) read back as its value, no word twice.
  pub(crate) fn check_table<T: Choice + PartialEq + std::fmt::Debug>(word: fn(T) -> &'static str) {
    let words = T::WORDS;
    assert_eq!(words.listed.len(), T::VALUES.len());
    for (&listed, &value) in words.listed.iter().zip(T::VALUES) {
      assert_eq!(word(value), listed);
      assert_eq!(T::from_word(listed), Some(value));
      assert_eq!(T::from_word(&listed.to_uppercase()).is_some(), words.any_case, "{listed}");
      assert_eq!(words.listed.iter().filter(|&&other| other == listed).count(), 1, "{listed}");
    }
    for &(alias, listed) in words.aliases {
      assert!(!words.listed.contains(&alias), "{alias}");
      assert_eq!(T::from_word(alias).map(word), Some(listed), "{alias}");
    }
    assert_eq!(T::from_word("nope"), None);
  }

  #[test]
  fn choice_tables_are_consistent() {
    check_table(AliasStyle::word);
    check_table(UseColor::word);
    check_table(CommandColor::word);
    check_table(DumpFormat::word);
    check_table(EvaluateFormat::word);
    check_table(GraphFormat::word);
    check_table(OutputMode::word);
  }
}
