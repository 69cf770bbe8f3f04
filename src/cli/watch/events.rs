//! File events from the platform's directory watcher, filtered by the current [`Targets`], gathered
//! into bursts and handed to the watch loop; with `--watch-restart` they also
//! stop the run in progress. Without it, what happens while a run goes on
//! (the run's own writes above all) never starts the next run, as in
//! watchexec. Nothing wakes up while nothing changes: the watcher's thread
//! blocks on the kernel, the loop on a condition variable.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::targets::Targets;
use crate::platform::signals;
use crate::platform::watcher::{Change, ChangeKind, DirectoryWatcher};

/// How long stopped recipes get between SIGTERM and SIGKILL.
const GRACE: Duration = Duration::from_secs(2);

#[derive(Default)]
struct State {
  targets: Targets,
  /// Relevant changes since the last run started.
  changes: Burst,
  last_change: Option<Instant>,
  running: bool,
  /// A run ended, and the events it caused are still on their way: until
  /// the marker written at its end comes through (events arrive in order).
  draining: bool,
  stopping: bool,
  /// Directories created under a watched tree or glob since they were
  /// last collected: the loop watches them.
  created: Vec<PathBuf>,
  /// The last error the watcher reported, printed by the loop.
  error: Option<String>,
}

struct Shared {
  state: Mutex<State>,
  wake: Condvar,
  restart: bool,
  /// A file in a private watched directory, written at the end of each run.
  marker: PathBuf,
}

impl Shared {
  fn lock(&self) -> MutexGuard<'_, State> {
    self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
  }
}

/// The relevant changes of a burst.
#[derive(Default)]
pub(super) struct Burst {
  /// The changed paths, in arrival order, each once.
  pub paths: Vec<PathBuf>,
  seen: HashSet<PathBuf>,
  /// Changes were lost, so which paths changed is not known.
  pub lost: bool,
}

impl Burst {
  fn add(&mut self, path: PathBuf) {
    if self.seen.insert(path.clone()) {
      self.paths.push(path);
    }
  }

  fn is_empty(&self) -> bool {
    self.paths.is_empty() && !self.lost
  }
}

/// The stream of relevant changes, and the runs they interrupt.
#[derive(Clone)]
pub(super) struct Events {
  shared: Arc<Shared>,
  debounce: Duration,
}

/// The watches themselves.
pub(super) struct Watcher {
  watcher: DirectoryWatcher,
  watched: HashSet<PathBuf>,
  /// Directories that could not be watched, and ignore files that could
  /// not be read, each reported once.
  warned: BTreeSet<PathBuf>,
  shared: Arc<Shared>,
  /// Holds the marker; removed with the watcher.
  _private: tempfile::TempDir,
}

pub(super) fn start(debounce: Duration, restart: bool) -> Result<(Events, Watcher), String> {
  let failed = |error: &dyn std::fmt::Display| format!("failed to start watching files: {error}");
  let private = tempfile::Builder::new().prefix("just-watch-").tempdir().map_err(|e| failed(&e))?;
  let marker = private.path().join("run-ended");
  signals::remove_at_exit(private.path().to_path_buf());
  let state = Mutex::default();
  let shared = Arc::new(Shared { state, wake: Condvar::new(), restart, marker });
  let handler_shared = Arc::clone(&shared);
  let mut watcher = DirectoryWatcher::new(Box::new(move |result| receive(&handler_shared, result)))
    .map_err(|error| failed(&error))?;
  watcher.watch(private.path()).map_err(|error| failed(&error))?;
  let events = Events { shared: Arc::clone(&shared), debounce };
  let watched = HashSet::new();
  let watcher = Watcher { watcher, watched, warned: BTreeSet::new(), shared, _private: private };
  Ok((events, watcher))
}

impl Watcher {
  /// Watch what `targets` names (and stop watching what it no longer does).
  /// A directory that cannot be watched (unreadable, say) is reported once
  /// and left out; watching goes on.
  pub(super) fn watch(&mut self, targets: Targets) -> Result<(), String> {
    for (file, problem) in targets.ignore_problems() {
      if self.warned.insert(file.clone()) {
        write_stderr(&format!(
          "[watch] warning: cannot read the ignore rules of `{}`, going on without them: {problem}\n",
          crate::text::escape_control(&file.to_string_lossy()),
        ))?;
      }
    }
    let gone: Vec<PathBuf> = self.watched.difference(&targets.directories).cloned().collect();
    for directory in gone {
      self.watcher.unwatch(&directory);
      self.watched.remove(&directory);
    }
    let new: Vec<PathBuf> = targets.directories.difference(&self.watched).cloned().collect();
    self.shared.lock().targets = targets;
    self.add(new)
  }

  /// Watch directories created since the targets were listed (and those
  /// below them), where the targets say they matter. One created where a
  /// watched directory was removed is watched afresh.
  pub(super) fn add_created(&mut self, created: Vec<PathBuf>) -> Result<(), String> {
    let new: Vec<PathBuf> = {
      let state = self.shared.lock();
      created.iter().flat_map(|directory| state.targets.directories_below(directory)).collect()
    };
    self.add(new)
  }

  fn add(&mut self, directories: Vec<PathBuf>) -> Result<(), String> {
    let mut failures = BTreeSet::new();
    // Directories past the system's limit on watches: one warning for all.
    let mut over_limit: Option<(usize, String)> = None;
    for directory in directories {
      match self.watcher.watch(&directory) {
        Ok(()) => {
          self.watched.insert(directory);
        }
        // Removed since it was listed: its parent's event covers it.
        Err(_) if !directory.exists() => {}
        Err(error) if error.kind() == std::io::ErrorKind::StorageFull => {
          if self.warned.insert(directory) {
            over_limit.get_or_insert((0, error.to_string())).0 += 1;
          }
        }
        Err(error) => {
          if !self.warned.contains(&directory) {
            failures.insert((directory, error.to_string()));
          }
        }
      }
    }
    let write = write_stderr;
    // In path order, whatever the order of the watches.
    for (directory, error) in failures {
      write(&format!(
        "[watch] warning: cannot watch `{}`, going on without it: {error}\n",
        crate::text::escape_control(&directory.to_string_lossy()),
      ))?;
      self.warned.insert(directory);
    }
    if let Some((count, error)) = over_limit {
      let directories = if count == 1 { "directory" } else { "directories" };
      write(&format!(
        "[watch] warning: the system's limit on watches is reached ({error}): {count} \
         {directories} not watched (on Linux, raise `fs.inotify.max_user_watches`)\n"
      ))?;
    }
    Ok(())
  }

  /// Hand an error met while the run goes on to the loop.
  pub(super) fn fail(&self, error: String) {
    self.shared.lock().error = Some(error);
    self.shared.wake.notify_all();
  }
}

impl Events {
  /// Mark the start or the end of a run.
  pub(super) fn set_running(&self, running: bool) {
    let mut state = self.shared.lock();
    state.running = running;
    if running {
      state.changes = Burst::default();
      state.stopping = false;
    } else {
      state.draining = std::fs::write(&self.shared.marker, "").is_ok();
    }
    self.shared.wake.notify_all();
  }

  /// Whether the run that just ended was stopped for a restart.
  pub(super) fn was_stopped(&self) -> bool {
    self.shared.lock().stopping
  }

  /// Wait for a burst of relevant changes to end, and return it.
  /// Directories created meanwhile are handed to `created` to be watched.
  pub(super) fn next_burst(
    &self,
    mut created: impl FnMut(Vec<PathBuf>) -> Result<(), String>,
  ) -> Result<Burst, String> {
    let mut state = self.shared.lock();
    loop {
      if let Some(error) = state.error.take() {
        return Err(error);
      }
      if !state.created.is_empty() {
        let directories = std::mem::take(&mut state.created);
        // Watching may talk to the watcher's thread, which may wait for this lock.
        drop(state);
        created(directories)?;
        state = self.shared.lock();
        continue;
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
        .map_or_else(|poisoned| poisoned.into_inner().0, |(state, _)| state);
    }
  }
}

/// The watcher's handler: keep the relevant paths and wake the loop.
/// Write a warning to standard error; a failure ends watching.
fn write_stderr(message: &str) -> Result<(), String> {
  crate::platform::stdio::stderr(message)
    .map_err(|error| format!("failed to write to standard error: {error}"))
}

fn receive(shared: &Shared, result: Result<Change, String>) {
  let mut state = shared.lock();
  let event = match result {
    Ok(event) => event,
    Err(error) => {
      state.error = Some(error);
      shared.wake.notify_all();
      return;
    }
  };
  if event.paths.contains(&shared.marker) {
    if event.kind != ChangeKind::Access {
      state.draining = false;
    }
    return;
  }
  // Reading a file is no change (and recipes read their inputs).
  if event.kind == ChangeKind::Access {
    return;
  }
  if event.kind == ChangeKind::Create {
    let directories: Vec<PathBuf> = (event.paths.iter())
      .filter(|path| path.is_dir() && state.targets.covers(path))
      .cloned()
      .collect();
    if !directories.is_empty() {
      state.created.extend(directories);
      shared.wake.notify_all();
    }
  }
  let busy = state.running || state.draining;
  if busy && !shared.restart {
    return;
  }
  if event.kind == ChangeKind::Lost {
    // Lost changes may include relevant ones; directories created meanwhile
    // are watched when the next run lists the targets again.
    state.changes.lost = true;
  } else {
    let relevant: Vec<PathBuf> =
      event.paths.into_iter().filter(|path| state.targets.is_relevant(path)).collect();
    if relevant.is_empty() {
      return;
    }
    for path in relevant {
      state.changes.add(path);
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
