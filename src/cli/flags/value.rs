//! What the command line and the environment give the flags: the values a
//! row's `apply` reads, whichever parser (clap's or the quick one) read
//! them.

use std::{ffi::OsString, path::PathBuf};

use super::{ARGUMENTS, FLAGS};
use crate::options::{Choice, Options};

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
  /// `string` without a copy.
  fn word(&self, id: &str) -> Option<&str>;
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
    self.values(ARGUMENTS)
  }
}

/// What the command line and the environment give one flag (or its
/// default), for its row's `apply`.
pub(crate) struct FlagValue<'a> {
  given: &'a dyn Given,
  id: &'static str,
}

impl<'a> FlagValue<'a> {
  /// What another flag is given, for a row that applies the flags that
  /// only go with it (`--watch`).
  pub(crate) fn other(&self, id: &'static str) -> FlagValue<'a> {
    FlagValue { given: self.given, id }
  }

  pub(crate) fn switch(&self) -> bool {
    self.given.get_flag(self.id)
  }

  pub(crate) fn count(&self) -> u8 {
    self.given.get_count(self.id)
  }

  pub(crate) fn on_command_line(&self) -> bool {
    self.given.on_command_line(self.id)
  }

  pub(crate) fn values(&self) -> Option<Vec<String>> {
    self.given.values(self.id)
  }

  pub(crate) fn strings(&self) -> Vec<String> {
    self.values().unwrap_or_default()
  }

  pub(crate) fn string(&self) -> Option<String> {
    self.given.string(self.id)
  }

  pub(crate) fn path(&self) -> Option<PathBuf> {
    self.given.path(self.id)
  }

  pub(crate) fn number(&self) -> Option<u64> {
    self.given.number(self.id)
  }

  pub(crate) fn positive(&self) -> Option<usize> {
    self.given.positive(self.id)
  }

  /// The value of a `Choice` flag, None when it has none. Both parsers
  /// accept only the words of its table (`choice_words_are_the_parsers`).
  pub(crate) fn choice<T: Choice>(&self) -> Option<T> {
    self.given.word(self.id).and_then(T::from_word)
  }
}

/// Each row sets the options from what it is given, in table order.
pub(crate) fn apply_options(options: &mut Options, matches: &dyn Given) {
  for flag in FLAGS {
    (flag.apply)(options, &FlagValue { given: matches, id: flag.long });
  }
}
