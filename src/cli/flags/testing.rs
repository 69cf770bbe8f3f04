//! For the tests beside the rows: what a command line (without the program
//! name) gives, through clap's parser and, when it takes the line, the
//! quick one, which must agree.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::cli::config::{tests::ENVIRONMENT, Config, ConfigError, Subcommand};
use crate::cli::{arguments, quick};
use crate::options::Options;

/// The invocation directory of the tests' command lines.
pub(crate) const DIRECTORY: &str = "/inv/dir";

fn words(args: &[&str]) -> Vec<OsString> {
  std::iter::once("just").chain(args.iter().copied()).map(OsString::from).collect()
}

/// The configuration `args` give, or why not (clap's error first line).
pub(crate) fn parsed(args: &[&str]) -> Result<Config, String> {
  let _guard = ENVIRONMENT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
  let words = words(args);
  let directory = PathBuf::from(DIRECTORY);
  let from_clap = match arguments::command().try_get_matches_from(&words) {
    Ok(matches) => Config::from_matches(&matches, directory.clone()),
    Err(source) => Err(ConfigError::Clap { source }),
  };
  if let Some(quick) = quick::parse(&words) {
    let from_quick = Config::from_given(&quick.with_arguments(words.clone()), directory);
    assert_eq!(format!("{from_quick:?}"), format!("{from_clap:?}"), "{args:?}");
  }
  from_clap.map_err(|error| match error {
    ConfigError::Clap { source } => source.render().to_string().lines().next().unwrap().into(),
    other => other.to_string(),
  })
}

/// The options `args` give.
pub(crate) fn options(args: &[&str]) -> Options {
  parsed(args).unwrap_or_else(|error| panic!("{args:?}: {error}")).options
}

/// The command `args` give.
pub(crate) fn command(args: &[&str]) -> Subcommand {
  parsed(args).unwrap_or_else(|error| panic!("{args:?}: {error}")).subcommand
}

/// Why `args` are refused.
pub(crate) fn error(args: &[&str]) -> String {
  parsed(args).map(|config| panic!("{args:?} parsed: {config:?}")).unwrap_err()
}

/// `words` as owned strings.
pub(crate) fn strings(words: &[&str]) -> Vec<String> {
  words.iter().map(|word| (*word).to_owned()).collect()
}

/// The first line of clap's error for a flag given without one it requires.
pub(crate) const MISSING: &str = "error: the following required arguments were not provided:";
