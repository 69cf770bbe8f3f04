//! `--keep-going`: after a recipe fails, every recipe that does not depend
//! on it still runs; the ones that do are skipped. Each failure is printed
//! (its one-line message) when it happens; at the end a summary lists each
//! recipe that failed or was skipped once, under its full path, in the
//! order the recipes run in serially (the command line's order, each
//! recipe after its dependencies in declaration order), and `just` exits
//! with the status of the first failure in that order, whatever the timing
//! of `[parallel]` recipes. A signal still stops the run; the summary so far
//! is printed, and says so.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::error::{ExecutionError, Fate, Summary};
use crate::analysis::model::{Recipe, RecipeId};
use crate::color::Painter;
use crate::platform::signals;
use crate::platform::supervisor::Supervisor;

type Result<'src, T = ()> = std::result::Result<T, ExecutionError<'src>>;

/// The failures and skips of one run.
pub(crate) struct KeepGoing<'r, 'src> {
  enabled: bool,
  /// `--quiet`: failures are not printed as they happen.
  quiet: bool,
  supervisor: &'r Supervisor,
  painter: Painter,
  report: Mutex<Report<'src>>,
}

#[derive(Default)]
struct Report<'src> {
  /// Each recipe's place in the serial order (`plan`).
  ranks: HashMap<RecipeId, usize>,
  /// Each recipe's path and fate: a failure outranks a run, which outranks
  /// a skip.
  fates: HashMap<RecipeId, (&'src str, Option<Fate>)>,
  /// The failure first in the serial order, for the exit status.
  first: Option<(usize, ExecutionError<'src>)>,
}

impl<'r, 'src> KeepGoing<'r, 'src> {
  pub(crate) fn new(
    enabled: bool,
    quiet: bool,
    supervisor: &'r Supervisor,
    painter: Painter,
  ) -> Self {
    KeepGoing { enabled, quiet, supervisor, painter, report: Mutex::new(Report::default()) }
  }

  pub(crate) fn enabled(&self) -> bool {
    self.enabled
  }

  fn lock(&self) -> MutexGuard<'_, Report<'src>> {
    self.report.lock().unwrap_or_else(PoisonError::into_inner)
  }

  /// Set the serial order: recipe paths as they would run one by one.
  pub(crate) fn plan(&self, order: HashMap<RecipeId, usize>) {
    if self.enabled {
      self.lock().ranks = order;
    }
  }

  /// Whether the run is being stopped by a signal.
  fn stopping(&self, error: &ExecutionError<'_>) -> bool {
    matches!(error, ExecutionError::Interrupted { .. })
      || self.supervisor.pending().is_some()
      || self.supervisor.delivered().is_some()
  }

  /// Record the outcome of running `recipe` and turn a failure into
  /// `Unsuccessful`, which its dependents see; the failure's message is
  /// printed now. Errors that must stop the run (signals) pass through
  /// unchanged, as does everything when disabled.
  pub(crate) fn absorb(&self, recipe: &Recipe<'src>, result: Result<'src>) -> Result<'src> {
    if !self.enabled {
      return result;
    }
    let (id, path) = (recipe.id(), recipe.namepath);
    let error = match result {
      Ok(()) => {
        let mut report = self.lock();
        let (_, fate) = report.fates.entry(id).or_insert((path, None));
        if matches!(fate, Some(Fate::Skipped { .. })) {
          *fate = None;
        }
        return Ok(());
      }
      Err(error) if self.stopping(&error) => return Err(error),
      Err(error) => error,
    };
    if !matches!(error, ExecutionError::Unsuccessful { .. }) {
      let error = error.naming(path);
      self.announce(&error);
      let mut report = self.lock();
      let rank = report.ranks.get(&id).copied().unwrap_or(usize::MAX);
      let (_, fate) = report.fates.entry(id).or_insert((path, None));
      if !matches!(fate, Some(Fate::Failed { .. })) {
        *fate = Some(Fate::Failed { status: error.status() });
      }
      if report.first.as_ref().is_none_or(|(first, _)| rank < *first) {
        report.first = Some((rank, error));
      }
    }
    Err(ExecutionError::Unsuccessful { recipe: path.to_string() })
  }

  /// Print a failure's one-line message as it happens.
  fn announce(&self, error: &ExecutionError<'src>) {
    let message = error.to_string();
    if message.is_empty() || self.quiet {
      return;
    }
    let line = message.lines().next().unwrap_or_default();
    let text = format!("{}: {}\n", self.painter.error_label(), self.painter.message(line));
    // A failure to write it surfaces when the summary is written.
    let _ = crate::platform::stdio::stderr(&text);
  }

  /// Record that `recipe` will not run, and why (unless it ran or failed).
  pub(crate) fn skip(&self, recipe: &Recipe<'src>, reason: String) {
    if self.enabled {
      let skipped = (recipe.namepath, Some(Fate::Skipped { reason }));
      self.lock().fates.entry(recipe.id()).or_insert(skipped);
    }
  }

  fn summary(report: &Report<'src>) -> Vec<Summary> {
    let mut lines: Vec<(usize, Summary)> = report
      .fates
      .iter()
      .filter_map(|(id, (path, fate))| {
        let rank = report.ranks.get(id).copied().unwrap_or(usize::MAX);
        Some((rank, Summary { recipe: (*path).to_string(), fate: fate.clone()? }))
      })
      .collect();
    lines
      .sort_by(|(a, first), (b, second)| a.cmp(b).then_with(|| first.recipe.cmp(&second.recipe)));
    lines.into_iter().map(|(_, line)| line).collect()
  }

  /// The outcome of a run that ended: Ok when nothing failed, otherwise
  /// the summary.
  pub(crate) fn finish(self) -> Result<'src> {
    let report = self.report.into_inner().unwrap_or_else(PoisonError::into_inner);
    let summary = Self::summary(&report);
    match report.first {
      None => Ok(()),
      Some((_, first)) => Err(ExecutionError::KeptGoing {
        summary,
        status: first.status(),
        stopped: None,
        signal: None,
      }),
    }
  }

  /// The outcome of a run stopped by `error` (a signal): the error, the
  /// summary so far, and the signal.
  pub(crate) fn interrupted(self, error: ExecutionError<'src>) -> ExecutionError<'src> {
    let signal = self.supervisor.delivered().or(self.supervisor.pending());
    let report = self.report.into_inner().unwrap_or_else(PoisonError::into_inner);
    ExecutionError::KeptGoing {
      summary: Self::summary(&report),
      status: error.status(),
      stopped: Some(Box::new(error)),
      signal: signal.map(signals::name),
    }
  }
}

/// Settles the results of several dependencies, in declaration order:
/// without `--keep-going`, the first error, preferring a recipe's own
/// failure to `Unsuccessful` (a dependency another thread saw fail); with
/// it, a stopping error wins and otherwise the first `Unsuccessful` is kept
/// for the end.
pub(crate) struct Outcome<'src> {
  keep_going: bool,
  unsuccessful: Option<ExecutionError<'src>>,
}

impl<'src> Outcome<'src> {
  pub(crate) fn new(keep_going: bool) -> Self {
    Outcome { keep_going, unsuccessful: None }
  }

  /// Err means stop now.
  pub(crate) fn add(&mut self, result: Result<'src>) -> Result<'src> {
    match result {
      Err(error @ ExecutionError::Unsuccessful { .. }) if self.keep_going => {
        self.unsuccessful.get_or_insert(error);
        Ok(())
      }
      other => other,
    }
  }

  /// Settle the results of dependencies that all ran (`[parallel]`).
  pub(crate) fn settle(mut self, results: Vec<Result<'src>>) -> Result<'src> {
    if self.keep_going {
      for result in results {
        self.add(result)?;
      }
      return self.finish();
    }
    let mut unsuccessful = None;
    for result in results {
      match result {
        Ok(()) => {}
        Err(error @ ExecutionError::Unsuccessful { .. }) => {
          unsuccessful.get_or_insert(error);
        }
        Err(error) => return Err(error),
      }
    }
    unsuccessful.map_or(Ok(()), Err)
  }

  pub(crate) fn finish(self) -> Result<'src> {
    match self.unsuccessful {
      Some(error) => Err(error),
      None => Ok(()),
    }
  }
}
