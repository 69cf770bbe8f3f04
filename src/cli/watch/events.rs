//! File events, debounced by `notify-debouncer-full`, filtered by the
//! current [`Targets`] and handed to the watch loop; with `--watch-restart`
//! they also stop the run in progress.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};

use super::targets::Targets;
use crate::platform::signals;

/// How long stopped recipes get between SIGTERM and SIGKILL.
const GRACE: Duration = Duration::from_secs(2);

#[derive(Default)]
struct State {
  targets: Targets,
  /// Relevant changes since the last run started, in arrival order.
  changes: Vec<PathBuf>,
  last_change: Option<Instant>,
  running: bool,
  stopping: bool,
  /// The last error the watcher reported, printed by the loop.
  error: Option<String>,
}

struct Shared {
  state: Mutex<State>,
  wake: Condvar,
  restart: bool,
}

impl Shared {
  fn lock(&self) -> MutexGuard<'_, State> {
    self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
  }
}

/// The stream of relevant changes, and the runs they interrupt.
#[derive(Clone)]
pub struct Events {
  shared: Arc<Shared>,
  debounce: Duration,
}

/// The watches themselves.
pub struct Watcher {
  debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
  watched: BTreeSet<PathBuf>,
  shared: Arc<Shared>,
}

pub fn start(debounce: Duration, restart: bool) -> Result<(Events, Watcher), String> {
  let shared = Arc::new(Shared { state: Mutex::default(), wake: Condvar::new(), restart });
  let handler_shared = Arc::clone(&shared);
  let debouncer = new_debouncer(debounce, None, move |result: DebounceEventResult| {
    receive(&handler_shared, result);
  })
  .map_err(|error| format!("failed to start watching files: {error}"))?;
  let events = Events { shared: Arc::clone(&shared), debounce };
  Ok((events, Watcher { debouncer, watched: BTreeSet::new(), shared }))
}

impl Watcher {
  /// Watch what `targets` names (and stop watching what it no longer does).
  pub fn watch(&mut self, targets: Targets) -> Result<(), String> {
    let watcher = &mut self.debouncer;
    for gone in self.watched.difference(&targets.directories) {
      let _ = watcher.unwatch(gone);
    }
    for directory in targets.directories.difference(&self.watched) {
      match watcher.watch(directory, RecursiveMode::NonRecursive) {
        Ok(()) => {}
        // Removed since it was listed: its parent's event covers it.
        Err(error) if !directory.exists() => drop(error),
        Err(error) => {
          return Err(format!("failed to watch `{}`: {error}", directory.display()));
        }
      }
    }
    self.watched = targets.directories.clone();
    self.shared.lock().targets = targets;
    Ok(())
  }

  /// Hand an error met while the run goes on to the loop.
  pub fn fail(&self, error: String) {
    self.shared.lock().error = Some(error);
    self.shared.wake.notify_all();
  }
}

impl Events {
  /// Mark the start or the end of a run.
  pub fn set_running(&self, running: bool) {
    let mut state = self.shared.lock();
    state.running = running;
    if running {
      state.changes.clear();
      state.stopping = false;
    }
    self.shared.wake.notify_all();
  }

  /// Whether the run that just ended was stopped for a restart.
  pub fn was_stopped(&self) -> bool {
    self.shared.lock().stopping
  }

  /// Wait for a burst of relevant changes to end; returns its paths.
  pub fn next_burst(&self) -> Result<Vec<PathBuf>, String> {
    let mut state = self.shared.lock();
    loop {
      if let Some(error) = state.error.take() {
        return Err(error);
      }
      let Some(last) = state.last_change.filter(|_| !state.changes.is_empty()) else {
        state = self.shared.wake.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner());
        continue;
      };
      let quiet_until = last + self.debounce;
      let now = Instant::now();
      if now >= quiet_until {
        state.last_change = None;
        return Ok(std::mem::take(&mut state.changes));
      }
      state = self
        .shared
        .wake
        .wait_timeout(state, quiet_until - now)
        .map(|(state, _)| state)
        .unwrap_or_else(|poisoned| poisoned.into_inner().0);
    }
  }
}

/// The debouncer's callback: keep the relevant paths and wake the loop.
fn receive(shared: &Shared, result: DebounceEventResult) {
  let mut state = shared.lock();
  let events = match result {
    Ok(events) => events,
    Err(errors) => {
      let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
      state.error = Some(format!("failed to watch files: {}", text.join("; ")));
      shared.wake.notify_all();
      return;
    }
  };
  // Reading a file is no change (and recipes read their inputs).
  let relevant: Vec<PathBuf> = events
    .into_iter()
    .filter(|event| !matches!(event.event.kind, EventKind::Access(_)))
    .flat_map(|event| event.event.paths)
    .filter(|path| state.targets.is_relevant(path))
    .collect();
  if relevant.is_empty() {
    return;
  }
  for path in relevant {
    if !state.changes.contains(&path) {
      state.changes.push(path);
    }
  }
  state.last_change = Some(Instant::now());
  shared.wake.notify_all();
  if shared.restart && state.running && !state.stopping {
    state.stopping = true;
    stop_run(shared, state);
  }
}

/// Stop the run as a SIGTERM would; SIGKILL what still runs after the grace
/// period, until the run has ended.
fn stop_run(shared: &Shared, mut state: MutexGuard<'_, State>) {
  while state.running {
    signals::request_stop();
    let (next, timeout) = shared
      .wake
      .wait_timeout_while(state, GRACE, |state| state.running)
      .unwrap_or_else(|poisoned| poisoned.into_inner());
    state = next;
    if timeout.timed_out() {
      signals::kill_children();
    }
  }
}
