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
