//! `--watch` and the flags that only go with it.

use super::{nothing, option, switch, Completer, Flag, Kind, Takes, EVERY_COMMAND};
use crate::options::WatchConfig;

/// The rows of this file.
pub(crate) const ROWS: &[Flag] = &[WATCH, WATCH_CLEAR, WATCH_DEBOUNCE, WATCH_PATH, WATCH_RESTART];

pub(crate) const WATCH: Flag = Flag {
  short: Some('w'),
  conflicts: &[EVERY_COMMAND],
  // With the flags that only go with it.
  ..switch("watch", "JUST_WATCH", "Run again whenever inputs or the justfile change", |o, v| {
    o.watch = v.switch().then(|| WatchConfig {
      clear: v.other(WATCH_CLEAR.long).switch(),
      // Always given: the row has a default.
      debounce_ms: v.other(WATCH_DEBOUNCE.long).number().unwrap_or_default(),
      paths: v.other(WATCH_PATH.long).strings(),
      restart: v.other(WATCH_RESTART.long).switch(),
    });
  })
};

pub(crate) const WATCH_CLEAR: Flag = Flag {
  requires: Some("watch"),
  ..option("clear", Takes::Switch, "With `--watch`: clear the screen before each run", nothing)
};

pub(crate) const WATCH_DEBOUNCE: Flag = Flag {
  default: Some("100"),
  requires: Some("watch"),
  ..option(
    "watch-debounce",
    Takes::Value("MS", Kind::Number),
    "With `--watch`: wait for MS quiet milliseconds",
    nothing,
  )
};

pub(crate) const WATCH_PATH: Flag = Flag {
  requires: Some("watch"),
  completer: Completer::AnyPath,
  ..option(
    "watch-path",
    Takes::Values("PATH", Kind::Text),
    "With `--watch`: also watch this file, directory or glob",
    nothing,
  )
};

pub(crate) const WATCH_RESTART: Flag = Flag {
  requires: Some("watch"),
  ..option(
    "watch-restart",
    Takes::Switch,
    "With `--watch`: stop running recipes when changes arrive",
    nothing,
  )
};

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::flags::testing::{error, options, strings, MISSING};

  #[test]
  fn watch_gathers_the_flags_that_go_with_it() {
    assert_eq!(options(&[]).watch, None);
    let watch = WatchConfig { clear: false, debounce_ms: 100, paths: Vec::new(), restart: false };
    assert_eq!(options(&["-w"]).watch, Some(watch));
    let args = ["-w", "--clear", "--watch-debounce", "5", "--watch-path", "src", "--watch-restart"];
    let watch =
      WatchConfig { clear: true, debounce_ms: 5, paths: strings(&["src"]), restart: true };
    assert_eq!(options(&args).watch, Some(watch));
  }

  #[test]
  fn watch_flags_need_watch_and_watch_no_command() {
    for args in
      [&["--clear"][..], &["--watch-debounce", "5"], &["--watch-path", "x"], &["--watch-restart"]]
    {
      assert_eq!(error(args), MISSING, "{args:?}");
    }
    assert_eq!(
      error(&["-w", "--list"]),
      "error: the argument '--watch' cannot be used with '--list [<MODULE>...]'"
    );
  }
}
