//! Which recipes run and how: dependencies, failures, parallelism, confirmation, choosing.

use std::path::PathBuf;

use super::{choice, command, option, path, switch, Command, Completer, Flag, Kind, Takes};
use crate::options::OutputMode;

/// The rows of this file.
pub(crate) const ROWS: &[Flag] = &[
  ALLOW_MISSING,
  CHOOSE,
  CHOOSER,
  DRY_RUN,
  EXPLAIN,
  JOBS,
  JOBSERVER,
  KEEP_GOING,
  NO_DEPS,
  ONE,
  OUTPUT,
  QUIET,
  TIME,
  UNSTABLE,
  VERBOSE,
  YES,
];

pub(crate) const ALLOW_MISSING: Flag = switch(
  "allow-missing",
  "JUST_ALLOW_MISSING",
  "Succeed silently on unknown recipes and modules",
  |o, v| {
    o.allow_missing = v.switch();
  },
);

pub(crate) const CHOOSE: Flag = Flag {
  shown_default: Some(DEFAULT_CHOOSER),
  ..command(
    "choose",
    Takes::Switch,
    Command::Choose,
    "Pick recipes to run with a chooser: `--chooser`, else $JUST_CHOOSER, else `{default}`",
  )
};

pub(crate) const CHOOSER: Flag = Flag {
  env: Some("JUST_CHOOSER"),
  shown_default: Some(DEFAULT_CHOOSER),
  completer: Completer::File,
  ..path(
    "chooser",
    "CHOOSER",
    "Program `--choose` runs to pick recipes (default `{default}`)",
    |o, v| {
      o.chooser = v.path().map(PathBuf::into_os_string);
    },
  )
};

pub(crate) const DRY_RUN: Flag = Flag {
  short: Some('n'),
  conflicts: &["quiet"],
  ..switch("dry-run", "JUST_DRY_RUN", "Print commands without running them", |o, v| {
    o.dry_run = v.switch();
  })
};

pub(crate) const EXPLAIN: Flag =
  switch("explain", "JUST_EXPLAIN", "Print a recipe's doc comment before running it", |o, v| {
    o.explain = v.switch();
  });

pub(crate) const JOBS: Flag = Flag {
  env: Some("JUST_JOBS"),
  shown_default: Some("no limit; with `--jobserver`, the number of CPUs"),
  ..option(
    "jobs",
    Takes::Value("N", Kind::Positive),
    "Run at most N recipes at once in `[parallel]` recipes [default: {default}]",
    |o, v| {
      o.jobs = v.positive();
    },
  )
};

pub(crate) const JOBSERVER: Flag = switch(
  "jobserver",
  "JUST_JOBSERVER",
  "Share the `--jobs` slots with make and cargo run by recipes, or use those of a parent make",
  |o, v| {
    o.jobserver = v.switch();
  },
);

pub(crate) const KEEP_GOING: Flag = Flag {
  short: Some('k'),
  ..switch(
    "keep-going",
    "JUST_KEEP_GOING",
    "After a failure, run every recipe that does not depend on it",
    |o, v| {
      o.keep_going = v.switch();
    },
  )
};

pub(crate) const NO_DEPS: Flag = Flag {
  aliases: &["no-dependencies"],
  ..switch("no-deps", "JUST_NO_DEPS", "Skip recipe dependencies", |o, v| o.no_deps = v.switch())
};

pub(crate) const ONE: Flag =
  switch("one", "JUST_ONE", "Refuse more than one recipe invocation", |o, v| o.one = v.switch());

pub(crate) const OUTPUT: Flag = Flag {
  env: Some("JUST_OUTPUT"),
  default: Some(OutputMode::Interleaved.word()),
  ..choice::<OutputMode>("output", "MODE", "Output of recipe commands: as written, each line prefixed with `[recipe] `, or held per recipe", |o, v| {
    o.output = v.choice().unwrap_or_default();
  })
};

pub(crate) const QUIET: Flag = Flag {
  short: Some('q'),
  ..switch(
    "quiet",
    "JUST_QUIET",
    "Print nothing: neither `just`'s own messages nor the output of recipes",
    |o, v| {
      o.quiet = v.switch();
    },
  )
};

pub(crate) const TIME: Flag =
  switch("time", "JUST_TIME", "Report how long each recipe took", |o, v| o.time = v.switch());

pub(crate) const UNSTABLE: Flag = Flag {
  env: Some("JUST_UNSTABLE"),
  ..option("unstable", Takes::FalseySwitch, "Allow unstable features", |o, v| {
    o.unstable = v.switch();
  })
};

pub(crate) const VERBOSE: Flag = Flag {
  short: Some('v'),
  env: Some("JUST_VERBOSE"),
  ..option("verbose", Takes::Count, "Say more (repeat for even more)", |o, v| {
    o.verbosity = v.count();
  })
};

pub(crate) const YES: Flag =
  switch("yes", "JUST_YES", "Confirm every recipe without asking", |o, v| o.yes = v.switch());

/// The chooser program when neither `--chooser` nor `$JUST_CHOOSER` names
/// one (with options to pick many and preview each).
pub(crate) const DEFAULT_CHOOSER: &str = "fzf";

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::config::Subcommand;
  use crate::cli::flags::testing::{command, error, options};

  #[test]
  fn allow_missing_yes_one_explain_time() {
    assert!(options(&["--allow-missing"]).allow_missing);
    assert!(options(&["--yes"]).yes);
    assert!(options(&["--one"]).one);
    assert!(options(&["--explain"]).explain);
    assert!(options(&["--time"]).time);
  }

  #[test]
  fn choose_runs_the_chooser() {
    assert_eq!(command(&["--choose"]), Subcommand::Choose);
    assert_eq!(options(&[]).chooser, None);
    assert_eq!(options(&["--chooser", "sk"]).chooser, Some("sk".into()));
  }

  #[test]
  fn dry_run_excludes_quiet() {
    assert!(options(&["-n"]).dry_run);
    assert!(options(&["-q"]).quiet);
    assert_eq!(
      error(&["-n", "-q"]),
      "error: the argument '--dry-run' cannot be used with '--quiet'"
    );
  }

  #[test]
  fn jobs_is_a_positive_number() {
    assert_eq!(options(&[]).jobs, None);
    assert_eq!(options(&["--jobs", "2"]).jobs, Some(2));
    assert_eq!(
      error(&["--jobs", "0"]),
      "error: invalid value '0' for '--jobs <N>': number would be zero for non-zero type"
    );
    assert!(options(&["--jobserver"]).jobserver);
  }

  #[test]
  fn keep_going_and_no_deps() {
    assert!(options(&["-k"]).keep_going);
    assert!(options(&["--no-deps"]).no_deps);
    assert!(options(&["--no-dependencies"]).no_deps);
  }

  #[test]
  fn output_is_interleaved_by_default() {
    assert_eq!(options(&[]).output, OutputMode::Interleaved);
    assert_eq!(options(&["--output", "prefixed"]).output, OutputMode::Prefixed);
  }

  #[test]
  fn unstable_and_verbose() {
    assert!(options(&["--unstable"]).unstable);
    assert_eq!(options(&["-vv"]).verbosity, 2);
  }
}
