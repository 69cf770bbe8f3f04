//! `--keep-going`: after a recipe fails, every recipe that does not depend
//! on it still runs; the ones that do are skipped. Failures and skips are
//! collected and reported together at the end. Signals still stop the run.

use std::sync::{Mutex, MutexGuard, PoisonError};

use super::error::ExecutionError;
use crate::platform::signals;

type Result<'src, T = ()> = std::result::Result<T, ExecutionError<'src>>;

/// The failures and skips of one run, in the order they happened.
pub struct KeepGoing<'src> {
  enabled: bool,
  report: Mutex<Report<'src>>,
}

#[derive(Default)]
struct Report<'src> {
  failures: Vec<ExecutionError<'src>>,
  /// Recipe path and why it was skipped.
  skipped: Vec<(String, String)>,
}

impl<'src> KeepGoing<'src> {
  pub fn new(enabled: bool) -> Self {
    KeepGoing { enabled, report: Mutex::new(Report::default()) }
  }

  pub fn enabled(&self) -> bool {
    self.enabled
  }

  fn lock(&self) -> MutexGuard<'_, Report<'src>> {
    self.report.lock().unwrap_or_else(PoisonError::into_inner)
  }

  /// Record the outcome of running `recipe` and turn a failure into
  /// `Unsuccessful`, which its dependents see. Errors that must stop the run
  /// (signals) pass through unchanged, as does everything when disabled.
  pub fn absorb(&self, recipe: &str, result: Result<'src>) -> Result<'src> {
    let error = match result {
      Err(error) if self.enabled && !stops_run(&error) => error,
      other => return other,
    };
    if !matches!(error, ExecutionError::Unsuccessful { .. }) {
      self.lock().failures.push(error.naming(recipe));
    }
    Err(ExecutionError::Unsuccessful { recipe: recipe.to_string() })
  }

  /// Record that `recipe` will not run, and why.
  pub fn skip(&self, recipe: &str, reason: String) {
    let mut report = self.lock();
    let entry = (recipe.to_string(), reason);
    if !report.skipped.contains(&entry) {
      report.skipped.push(entry);
    }
  }

  /// The outcome of the run: Ok when nothing failed, otherwise every
  /// failure and skip, which the command line renders together.
  pub fn finish(self) -> Result<'src> {
    let report = self.report.into_inner().unwrap_or_else(PoisonError::into_inner);
    if report.failures.is_empty() {
      return Ok(());
    }
    Err(ExecutionError::KeptGoing { failures: report.failures, skipped: report.skipped })
  }
}

/// Interruption by a signal ends the run even with `--keep-going`.
fn stops_run(error: &ExecutionError<'_>) -> bool {
  matches!(error, ExecutionError::Interrupted { .. }) || signals::recorded().is_some()
}

/// Settles the results of several dependencies: without `--keep-going` the
/// first error; with it, every result is looked at, a stopping error wins and
/// otherwise the first `Unsuccessful` is kept for the end.
pub struct Outcome<'src> {
  keep_going: bool,
  unsuccessful: Option<ExecutionError<'src>>,
}

impl<'src> Outcome<'src> {
  pub fn new(keep_going: bool) -> Self {
    Outcome { keep_going, unsuccessful: None }
  }

  /// Err means stop now.
  pub fn add(&mut self, result: Result<'src>) -> Result<'src> {
    match result {
      Err(error @ ExecutionError::Unsuccessful { .. }) if self.keep_going => {
        self.unsuccessful.get_or_insert(error);
        Ok(())
      }
      other => other,
    }
  }

  pub fn finish(self) -> Result<'src> {
    match self.unsuccessful {
      Some(error) => Err(error),
      None => Ok(()),
    }
  }
}
