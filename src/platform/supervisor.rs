//! The process supervisor of a run. Every process `just` starts for the run
//! (recipe lines, scripts, backticks, `shell()`, dotenv commands,
//! `--command`, the chooser) is started through it, and it:
//!
//! * registers a child in the same critical section that spawns it, so a
//!   signal handled at any instant reaches every child there is;
//! * puts all of the run's processes in one process group of their own, as
//!   a shell gives a pipeline one, so that a signal reaches their
//!   descendants too; when standard input is the terminal and `just` is in
//!   its foreground, that group is the terminal's foreground group while
//!   recipes run, and `just` takes the terminal back when none does;
//! * takes the signals the signal thread hands it (`deliver`): records the
//!   first, passes each on to the group, and, when the run ends, waits a
//!   while for the group's last processes;
//! * follows job control like a shell: a child stopped from the terminal
//!   (Ctrl-Z) stops `just` too, and continuing `just` continues the group.
//!
//! The operating system's part is `platform::os` (process groups, the
//! terminal, waiting); this file holds only the bookkeeping.

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::os::process::{self as os, Pid, Terminal, Waited};

/// How long `just` waits, at the end of a signalled run, for the
/// descendants of its children to end.
const SETTLE: Duration = Duration::from_secs(2);

/// The variable with which tests make every spawn pause this many
/// milliseconds between the fork and the child's registration, to hit that
/// window with a signal on purpose.
const SPAWN_PAUSE_VARIABLE: &str = "JUST_TEST_SPAWN_PAUSE_MS";

/// The process supervisor of one run.
pub(crate) struct Supervisor {
  shared: Arc<Shared>,
  attached: bool,
}

pub(super) struct Shared {
  state: Mutex<State>,
  verbose: bool,
  terminal: Option<Terminal>,
  spawn_pause: Option<Duration>,
}

#[derive(Default)]
struct State {
  /// Children started and not yet reaped.
  children: Vec<Pid>,
  /// The run's process group, once a child has made it.
  group: Option<Pid>,
  /// Work in progress that a signal must not cut short (a script's
  /// temporary directory exists) though no child runs.
  busy: usize,
  /// The first signal not yet taken by the run.
  pending: Option<i32>,
  /// The first signal delivered to `just` in this run (not a stop request).
  delivered: Option<i32>,
  /// Whether any signal was passed on: the group is waited for at the end.
  signalled: bool,
  /// Whether the group has the terminal.
  terminal_given: bool,
  /// Counts continuations after a stop, so that a stop seen by several
  /// waiting threads is acted on once.
  epoch: u64,
}

/// Why a process was not started.
#[derive(Debug)]
pub(crate) enum SpawnError {
  /// A signal is pending: the run is being interrupted.
  Interrupted {
    signal: i32,
  },
  Io(io::Error),
}

impl Supervisor {
  /// The supervisor of a run, receiving the process's signals until it is
  /// dropped. `verbose` notes each SIGTERM passed on to a child.
  pub(crate) fn new(verbose: bool) -> Supervisor {
    let mut supervisor = Supervisor::detached(verbose);
    super::signals::attach(Arc::clone(&supervisor.shared));
    supervisor.attached = true;
    supervisor
  }

  /// A supervisor that receives no signals (tests, helpers without a run).
  pub(crate) fn detached(verbose: bool) -> Supervisor {
    let spawn_pause = std::env::var(SPAWN_PAUSE_VARIABLE)
      .ok()
      .and_then(|text| text.parse().ok())
      .map(Duration::from_millis);
    let shared = Shared {
      state: Mutex::new(State::default()),
      verbose,
      terminal: Terminal::open(),
      spawn_pause,
    };
    Supervisor { shared: Arc::new(shared), attached: false }
  }

  /// Mark work that must run to its end, not be cut short by a signal, though
  /// no child runs (a script's temporary directory exists).
  pub(crate) fn busy(&self) -> Busy<'_> {
    self.shared.lock().busy += 1;
    Busy { shared: &self.shared }
  }

  /// Start `command` in the run's process group and register it.
  pub(crate) fn spawn(&self, command: &mut Command) -> Result<Running<'_>, SpawnError> {
    let shared = &*self.shared;
    let mut state = shared.lock();
    if let Some(signal) = state.pending {
      return Err(SpawnError::Interrupted { signal });
    }
    let terminal =
      shared.terminal.as_ref().filter(|terminal| state.terminal_given || terminal.is_foreground());
    let child = match os::spawn(command, state.group, terminal) {
      Err(error) if state.group.is_some() && os::group_is_gone(&error) => {
        state.group = None;
        os::spawn(command, None, terminal)
      }
      result => result,
    }
    .map_err(SpawnError::Io)?;
    if let Some(pause) = shared.spawn_pause {
      std::thread::sleep(pause);
    }
    let pid = Pid::try_from(child.id()).unwrap_or(Pid::MAX);
    let group = *state.group.get_or_insert(pid);
    state.children.push(pid);
    if let Some(terminal) = terminal {
      if !state.terminal_given {
        state.terminal_given = true;
        note_failure("give the terminal to the recipes", terminal.give(group));
      }
    }
    Ok(Running { shared, child, pid, reaped: false })
  }

  /// Start `command` and wait for it.
  pub(crate) fn run(&self, command: &mut Command) -> Result<ExitStatus, SpawnError> {
    self.spawn(command)?.wait().map_err(SpawnError::Io)
  }

  /// Take the pending signal, if any: the run has acted on it.
  pub(crate) fn take(&self) -> Option<i32> {
    self.shared.lock().pending.take()
  }

  /// The pending signal, if any, left pending.
  pub(crate) fn pending(&self) -> Option<i32> {
    self.shared.lock().pending
  }

  /// The first signal delivered to `just` during this run.
  pub(crate) fn delivered(&self) -> Option<i32> {
    self.shared.lock().delivered
  }

  /// Wait, for a while, for the rest of a signalled group (descendants of
  /// the children) to end.
  fn settle(&self) {
    let group = {
      let state = self.shared.lock();
      match state.group {
        Some(group) if state.signalled => group,
        _ => return,
      }
    };
    let deadline = Instant::now() + SETTLE;
    while Instant::now() < deadline {
      match os::group_alive(group) {
        Ok(true) => std::thread::sleep(Duration::from_millis(10)),
        Ok(false) => return,
        Err(error) => return note_failure("wait for the recipes' processes", Err(error)),
      }
    }
  }
}

impl Drop for Supervisor {
  fn drop(&mut self) {
    self.settle();
    if self.attached {
      super::signals::detach(&self.shared);
    }
  }
}

impl Shared {
  fn lock(&self) -> MutexGuard<'_, State> {
    self.state.lock().unwrap_or_else(PoisonError::into_inner)
  }

  /// A signal for `just`, from the signal thread. False when the run has
  /// nothing running nor anything to clean up: the process then ends at once.
  pub(super) fn deliver(&self, signal: i32) -> bool {
    let mut state = self.lock();
    if state.children.is_empty() && state.busy == 0 {
      return false;
    }
    state.pending.get_or_insert(signal);
    state.delivered.get_or_insert(signal);
    self.forward(&mut state, signal);
    true
  }

  /// Stop the run as a SIGTERM would, without one being delivered
  /// (`--watch-restart`).
  pub(super) fn request_stop(&self) {
    let mut state = self.lock();
    state.pending.get_or_insert(os::TERMINATE);
    self.forward(&mut state, os::TERMINATE);
  }

  /// SIGKILL whatever still runs after a stop request's grace period.
  pub(super) fn kill(&self) {
    let mut state = self.lock();
    self.forward(&mut state, os::KILL);
  }

  /// Pass `signal` on to the run's process group.
  fn forward(&self, state: &mut State, signal: i32) {
    let Some(group) = state.group else {
      return;
    };
    state.signalled = true;
    if signal == os::TERMINATE && self.verbose {
      for pid in &state.children {
        note(&format!("just: sending SIGTERM to child process {pid}\n"));
      }
    }
    note_failure("signal the recipes", os::signal_group(group, signal).map(drop));
  }

  /// A child was seen stopped; `epoch` is the count of continuations seen
  /// before the wait began. The first thread to see the stop stops `just`
  /// (giving its shell the terminal back) and, once continued, continues
  /// the group, giving it the terminal again if `just` is in the foreground.
  fn child_stopped(&self, epoch: u64) {
    let mut state = self.lock();
    let (Some(terminal), Some(group)) = (&self.terminal, state.group) else {
      return;
    };
    if state.epoch != epoch {
      return;
    }
    if state.terminal_given {
      state.terminal_given = false;
      note_failure("take the terminal back", terminal.take_back());
    }
    note_failure("stop", os::stop_self());
    if terminal.is_foreground() {
      state.terminal_given = true;
      note_failure("give the terminal to the recipes", terminal.give(group));
    }
    note_failure("continue the recipes", os::continue_group(group).map(drop));
    state.epoch += 1;
  }

  /// A child ended: forget it, and take the terminal back when none runs.
  /// A child the terminal's interrupt or quit key ended (the group had the
  /// terminal, so `just` did not get the signal itself) interrupts the run
  /// as if `just` had got it too.
  fn unregister(&self, pid: Pid, status: Option<&ExitStatus>) {
    let mut state = self.lock();
    state.children.retain(|&child| child != pid);
    // A group with nobody left in it cannot be joined: the next child makes
    // a new one. (Should the last process leave between this check and the
    // next spawn, `spawn` starts over in a new group.)
    if let Some(group) = state.group.filter(|_| state.children.is_empty()) {
      match os::group_alive(group) {
        Ok(true) => {}
        Ok(false) => state.group = None,
        Err(error) => note_failure("look for the recipes' processes", Err(error)),
      }
    }
    if let Some(signal) = status.and_then(os::keyboard_signal).filter(|_| state.terminal_given) {
      state.pending.get_or_insert(signal);
      state.delivered.get_or_insert(signal);
    }
    if state.children.is_empty() && state.terminal_given {
      state.terminal_given = false;
      if let Some(terminal) = &self.terminal {
        note_failure("take the terminal back", terminal.take_back());
      }
    }
  }
}

/// Marks work a signal must not cut short; see [`Supervisor::busy`].
pub(crate) struct Busy<'s> {
  shared: &'s Shared,
}

impl Drop for Busy<'_> {
  fn drop(&mut self) {
    self.shared.lock().busy -= 1;
  }
}

/// A registered child. Dropping it waits for the child.
pub(crate) struct Running<'s> {
  shared: &'s Shared,
  child: Child,
  pid: Pid,
  reaped: bool,
}

impl Running<'_> {
  /// The child, for its pipes.
  pub(crate) fn child(&mut self) -> &mut Child {
    &mut self.child
  }

  /// Wait for the child to end.
  pub(crate) fn wait(mut self) -> io::Result<ExitStatus> {
    self.reap()
  }

  fn reap(&mut self) -> io::Result<ExitStatus> {
    let job_control = self.shared.terminal.is_some();
    // Its pipes close first, as `Child::wait` does.
    drop(self.child.stdin.take());
    let result = loop {
      let epoch = self.shared.lock().epoch;
      match os::wait(self.pid, job_control) {
        Ok(Waited::Stopped) => self.shared.child_stopped(epoch),
        Ok(Waited::Exited(status)) => break Ok(status),
        Err(error) => break Err(error),
      }
    };
    self.reaped = true;
    self.shared.unregister(self.pid, result.as_ref().ok());
    result
  }
}

impl Drop for Running<'_> {
  fn drop(&mut self) {
    if !self.reaped {
      // The caller's own error is reported; a failure to wait adds nothing.
      let _ = self.reap();
    }
  }
}

/// Report a failed operation on processes or the terminal; the run goes on.
fn note_failure(what: &str, result: io::Result<()>) {
  if let Err(error) = result {
    note(&format!("just: failed to {what}: {error}\n"));
  }
}

/// A note on standard error; if even that fails, nothing is left to tell.
fn note(text: &str) {
  let _ = super::stdio::stderr(text);
}

impl std::fmt::Debug for Supervisor {
  fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    formatter.debug_struct("Supervisor").field("attached", &self.attached).finish_non_exhaustive()
  }
}
