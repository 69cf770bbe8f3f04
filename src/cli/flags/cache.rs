//! The `[cache]` of recipe results and its shared store.

use super::{
  command, option, path, switch, text, Command, Completer, Flag, Kind, Takes, ARGUMENTS,
  EVERY_COMMAND,
};

/// The rows of this file.
pub(crate) const ROWS: &[Flag] =
  &[CACHE_DIR, CACHE_READ_ONLY, CACHE_TIMEOUT, CACHE_URL, NO_CACHE, CLEAN, UP_TO_DATE];

pub(crate) const CACHE_DIR: Flag = Flag {
  env: Some("JUST_CACHE_DIR"),
  conflicts: &["cache-url"],
  completer: Completer::Directory,
  ..path("cache-dir", "DIR", "Share `[cache]` results through this directory", |o, v| {
    o.cache_dir = v.path();
  })
};

pub(crate) const CACHE_READ_ONLY: Flag = Flag {
  env: Some("JUST_CACHE_READ_ONLY"),
  ..option(
    "cache-read-only",
    Takes::FalseySwitch,
    "Only read from the shared `[cache]` store",
    |o, v| {
      o.cache_read_only = v.switch();
    },
  )
};

pub(crate) const CACHE_TIMEOUT: Flag = Flag {
  env: Some("JUST_CACHE_TIMEOUT"),
  default: Some("10"),
  ..option("cache-timeout", Takes::Value("SECONDS", Kind::Number), "Give up on a request to a shared `[cache]` store after SECONDS, plus a second per MiB it moved (default {default})", |o, v| {
    // Always given: the row has a default.
    o.cache_timeout = v.number().unwrap_or_default();
  })
};

pub(crate) const CACHE_URL: Flag = Flag {
  env: Some("JUST_CACHE_URL"),
  ..text(
    "cache-url",
    "URL",
    "Share `[cache]` results through this http://, https://, s3:// or grpc(s):// (Remote Execution API) store",
    |o, v| {
      o.cache_url = v.string();
    },
  )
};

pub(crate) const NO_CACHE: Flag =
  switch("no-cache", "JUST_NO_CACHE", "Ignore the recipe cache", |o, v| o.no_cache = v.switch());

pub(crate) const CLEAN: Flag = Flag {
  conflicts: &[ARGUMENTS],
  ..command("clean", Takes::Words("RECIPE_PATH", 0), Command::Clean, "Delete `[cache]` results, and those in the `--cache-dir` store; with RECIPE_PATH (`a::b` or `a b`), only of recipes under it")
};

pub(crate) const UP_TO_DATE: Flag = Flag {
  conflicts: &["dry-run", "keep-going", "watch", EVERY_COMMAND],
  ..option(
    "up-to-date",
    Takes::Switch,
    "Run nothing: exit 0 if every recipe of the run would be skipped by its `[cache]`, 1 naming the first that would run, 2 on an error",
    |o, v| {
      o.up_to_date = v.switch();
    },
  )
};

#[cfg(test)]
mod tests {
  use std::path::PathBuf;

  use crate::cli::config::Subcommand;
  use crate::cli::flags::testing::{command, error, options, strings};

  #[test]
  fn cache_dir_names_a_store_and_excludes_cache_url() {
    assert_eq!(options(&["--cache-dir", "d"]).cache_dir, Some(PathBuf::from("d")));
    assert_eq!(
      error(&["--cache-dir", "d", "--cache-url", "http://x"]),
      "error: the argument '--cache-dir <DIR>' cannot be used with '--cache-url <URL>'"
    );
  }

  #[test]
  fn cache_read_only_only_reads() {
    assert!(options(&["--cache-read-only"]).cache_read_only);
    assert!(!options(&[]).cache_read_only);
  }

  #[test]
  fn cache_timeout_is_ten_seconds_by_default() {
    assert_eq!(options(&[]).cache_timeout, 10);
    assert_eq!(options(&["--cache-timeout", "3"]).cache_timeout, 3);
  }

  #[test]
  fn cache_url_names_a_store() {
    assert_eq!(options(&["--cache-url", "s3://b/p"]).cache_url.as_deref(), Some("s3://b/p"));
  }

  #[test]
  fn no_cache_ignores_the_cache() {
    assert!(options(&["--no-cache"]).no_cache);
  }

  #[test]
  fn clean_takes_recipe_paths() {
    assert_eq!(command(&["--clean"]), Subcommand::Clean { paths: Vec::new() });
    assert_eq!(command(&["--clean", "a", "b"]), Subcommand::Clean { paths: strings(&["a", "b"]) });
  }
}
