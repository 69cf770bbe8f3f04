//! The process supervisor of a run. Every process `just` starts for the run
//! (recipe lines, scripts, backticks, `shell()`, dotenv commands,
//! `--command`, the chooser) is started through it, and it:
//!
//! * registers a child in the same critical section that spawns it, so a
//!   signal handled at any instant reaches every child there is;
//! * places the children as just 1.58 does wherever a terminal is shared:
//!   when `just` has a controlling terminal, they stay in `just`'s own
//!   process group, the job its shell made, so the terminal's Ctrl-C,
//!   Ctrl-\ and Ctrl-Z reach `just`, every recipe process and the programs
//!   that ran `just` at once, and a recipe reads the terminal whenever
//!   `just` could. Without a controlling terminal nothing above `just`
//!   signals its group but through `just`, so the children get a process
//!   group of their own, as a shell gives a pipeline one, and a signal
//!   passed on reaches their descendants too;
//! * takes the signals the signal thread hands it (`deliver`): records the
//!   first (the run stops after the command that was running, whatever that
//!   command did with the signal), and passes on those another process sent
//!   to `just` (a terminal's signals reached the children already): to the
//!   children's group, or, sharing `just`'s group, to each child and its
//!   descendants, and again to each process that was starting as it went
//!   (forked, not yet executing its program) once it executes one; after a
//!   SIGTERM it waits a while, when the run ends, for the rest of the group.
//!
//! The operating system's part is `platform::os` (process groups, the
//! descendants of a process, waiting); this file holds only the
//! bookkeeping.

use std::io;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use super::os::pipe::Stop;
use super::os::process::{self as os, Pid};
use super::os::signal_thread;
use super::signals::{self, Receiver};

/// How long `just` waits, at the end of a run it ended with SIGTERM, for
/// the descendants of its children to end.
const SETTLE: Duration = Duration::from_secs(2);

/// For how long after passing a signal on `just` looks at the processes
/// that were starting then, and its first pause (each pause doubles).
const FOLLOW_UP: Duration = Duration::from_secs(3);
const FOLLOW_UP_FIRST_PAUSE: Duration = Duration::from_millis(2);

/// How often, and for how long, a start is retried while the script file
/// is still open for writing in a process another thread forked.
const BUSY_TEXT_RETRY: Duration = Duration::from_millis(5);
const BUSY_TEXT_ATTEMPTS: usize = 200;

/// The variable with which tests make every spawn pause this many
/// milliseconds between the fork and the child's registration, to hit that
/// window with a signal on purpose. Read by debug builds only.
#[cfg(debug_assertions)]
const SPAWN_PAUSE_VARIABLE: &str = "JUST_TEST_SPAWN_PAUSE_MS";

/// The process supervisor of one run, or of one recipe's run in it
/// ([`Supervisor::for_recipe`]).
pub(crate) struct Supervisor {
  shared: Arc<Shared>,
  attached: bool,
  /// The recipe's run this supervisor starts processes for, if any.
  recipe: Option<u64>,
}

struct Shared {
  state: Mutex<State>,
  verbose: bool,
  /// Whether children get a process group of their own (no controlling
  /// terminal), decided at the first start.
  own_group: OnceLock<bool>,
  spawn_pause: Option<Duration>,
  /// Raised when a signal stops the run, for writers of recipe output that
  /// must not wait for a reader who stopped reading; made on first use.
  interruption: OnceLock<Option<Stop>>,
}

#[derive(Default)]
struct State {
  /// Children started and not yet reaped.
  children: Vec<Pid>,
  /// The children's own process group (a Job Object on Windows), once a
  /// child has made it. Its leader is left unreaped until the group is
  /// retired (no child runs), so the group's id is never reused while
  /// `just` signals it.
  group: Option<os::Group>,
  /// Whether the group's leader has ended (and waits to be reaped).
  leader_ended: bool,
  /// The groups retired: the last, for the wait after a SIGTERM, and those
  /// the operating system needs kept until the run ends (`needs_keeping`:
  /// a Windows job still holding processes a recipe left running).
  retired: Vec<os::Group>,
  /// Work in progress that a signal must not cut short (a script's
  /// temporary directory exists) though no child runs.
  busy: usize,
  /// The first signal not yet taken by the run.
  pending: Option<i32>,
  /// The recipes' runs in progress, each with whether it owes or took the
  /// pending signal.
  recipes: Vec<(u64, Standing)>,
  next_recipe: u64,
  /// Whether the pending signal stopped something of the run (or a recipe
  /// ended owing it): it stays pending until the run ends.
  stopping: bool,
  /// The first signal delivered to `just` in this run (not a stop request).
  delivered: Option<i32>,
  /// Whether a SIGTERM or SIGKILL was passed on: the group is waited for
  /// at the end.
  terminated: bool,
}

/// Where a recipe's run stands with the pending signal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Standing {
  /// No signal came while it ran; one pending stops it all the same.
  Clear,
  /// The signal came while it ran and it has not taken it yet.
  Owes,
  /// It took the signal (`[continue]`, a `-` line) and goes on past it.
  Took,
}

impl State {
  fn leads_group(&self, pid: Pid) -> bool {
    self.group.as_ref().is_some_and(|group| group.id() == pid)
  }

  /// A signal came: pending for the run, and owed by every recipe's run in
  /// progress, which each either takes it or stops.
  fn record(&mut self, signal: i32) {
    self.pending.get_or_insert(signal);
    for (_, standing) in &mut self.recipes {
      *standing = Standing::Owes;
    }
  }

  fn standing(&self, recipe: Option<u64>) -> Standing {
    let found = self.recipes.iter().find(|(id, _)| Some(*id) == recipe);
    found.map_or(Standing::Clear, |&(_, standing)| standing)
  }

  /// The pending signal as `recipe`'s run sees it: none once it took it.
  fn pending_for(&self, recipe: Option<u64>) -> Option<i32> {
    self.pending.filter(|_| self.standing(recipe) != Standing::Took)
  }

  /// The pending signal that refuses `recipe`'s run new work, if any: the
  /// run is stopping then, whatever other recipes took.
  fn refusal(&mut self, recipe: Option<u64>) -> Option<i32> {
    let refused = self.pending_for(recipe);
    self.stopping |= refused.is_some();
    refused
  }

  /// `recipe`'s run goes on past the pending signal. Once every run it
  /// came to took it and nothing stopped, the run goes on as if it never
  /// came (the whole run of a serial recipe that continues on it).
  fn take(&mut self, recipe: Option<u64>) {
    for (id, standing) in &mut self.recipes {
      if Some(*id) == recipe {
        *standing = Standing::Took;
      }
    }
    let owed = self.recipes.iter().any(|&(_, standing)| standing == Standing::Owes);
    if !owed && !self.stopping {
      self.pending = None;
      for (_, standing) in &mut self.recipes {
        *standing = Standing::Clear;
      }
    }
  }

  /// `recipe`'s run ended: if it still owed the pending signal, that
  /// signal stopped it and stays pending for the rest of the run.
  fn end_recipe(&mut self, recipe: u64) {
    if self.standing(Some(recipe)) == Standing::Owes {
      self.stopping = true;
    }
    self.recipes.retain(|&(id, _)| id != recipe);
  }
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
    signals::attach(Arc::clone(&supervisor.shared) as Arc<dyn Receiver>);
    supervisor.attached = true;
    supervisor
  }

  /// A supervisor that receives no signals (tests, helpers without a run).
  pub(crate) fn detached(verbose: bool) -> Supervisor {
    let shared = Shared {
      state: Mutex::new(State::default()),
      verbose,
      own_group: OnceLock::new(),
      spawn_pause: spawn_pause(),
      interruption: OnceLock::new(),
    };
    Supervisor { shared: Arc::new(shared), attached: false, recipe: None }
  }

  /// The supervisor as one recipe's run sees it: a signal that comes while
  /// it runs is its own to take (`resume`) or to stop at, and once another
  /// recipe stopped at it, taking it lets this recipe alone go on.
  pub(crate) fn for_recipe(&self) -> Supervisor {
    let mut state = self.shared.lock();
    let id = state.next_recipe;
    state.next_recipe += 1;
    state.recipes.push((id, Standing::Clear));
    drop(state);
    Supervisor { shared: Arc::clone(&self.shared), attached: false, recipe: Some(id) }
  }

  /// Mark work that must run to its end, not be cut short by a signal, though
  /// no child runs (a script's temporary directory exists).
  /// Refused once a signal is pending: the run is stopping (or `just` is
  /// ending at once, which would leave that work half done).
  /// The error is the pending signal.
  pub(crate) fn busy(&self) -> Result<Busy<'_>, i32> {
    let mut state = self.shared.lock();
    if let Some(signal) = state.refusal(self.recipe) {
      return Err(signal);
    }
    state.busy += 1;
    Ok(Busy { shared: &self.shared })
  }

  /// Start `command` where the run's processes go, and register it.
  pub(crate) fn spawn(&self, command: &mut Command) -> Result<Running<'_>, SpawnError> {
    self.spawn_with_flags(command, 0)
  }

  /// [`Supervisor::spawn`] with Windows process creation flags (a
  /// `Command`'s own would be overwritten: the supervisor adds flags of its
  /// own to these); none on Unix.
  pub(crate) fn spawn_with_flags(
    &self,
    command: &mut Command,
    creation_flags: u32,
  ) -> Result<Running<'_>, SpawnError> {
    let shared = &*self.shared;
    let own_group = *shared.own_group.get_or_init(|| !os::has_controlling_terminal());
    let mut attempts = 0;
    loop {
      let mut state = shared.lock();
      if let Some(signal) = state.refusal(self.recipe) {
        return Err(SpawnError::Interrupted { signal });
      }
      let spawned = os::spawn(command, own_group, state.group.as_ref(), creation_flags);
      let (child, new_group) = match spawned {
        Err(error) if os::is_busy_text(&error) && attempts < BUSY_TEXT_ATTEMPTS => {
          // Retried without the lock, so signals are handled meanwhile.
          drop(state);
          attempts += 1;
          std::thread::sleep(BUSY_TEXT_RETRY);
          continue;
        }
        result => result.map_err(SpawnError::Io)?,
      };
      if let Some(pause) = shared.spawn_pause {
        std::thread::sleep(pause);
      }
      let pid = Pid::try_from(child.id()).unwrap_or(Pid::MAX);
      if let Some(group) = new_group {
        state.group = Some(group);
      }
      state.children.push(pid);
      return Ok(Running { shared, child, pid, reaped: false });
    }
  }

  /// Start `command` and wait for it.
  pub(crate) fn run(&self, command: &mut Command) -> Result<ExitStatus, SpawnError> {
    self.spawn(command)?.wait().map_err(SpawnError::Io)
  }

  /// What is raised once a signal stops the run (None if the pipe behind it
  /// could not be made: writers then wait as they always did).
  pub(crate) fn interruption(&self) -> Option<&Stop> {
    let shared = &*self.shared;
    let stop = shared.interruption.get_or_init(|| Stop::new().ok()).as_ref();
    if let Some(stop) = stop.filter(|_| shared.lock().pending.is_some()) {
      stop.raise();
    }
    stop
  }

  /// The recipe's run goes on past the pending signal (a `-` line, a
  /// recipe that continues on it); the rest of the run does too only if
  /// nothing else was stopped by it or still has to take it. Until then
  /// no process starts.
  pub(crate) fn resume(&self) {
    self.shared.lock().take(self.recipe);
  }

  /// The pending signal, if any, left pending; none for a recipe's run
  /// that took it.
  pub(crate) fn pending(&self) -> Option<i32> {
    self.shared.lock().pending_for(self.recipe)
  }

  /// The first signal delivered to `just` during this run.
  pub(crate) fn delivered(&self) -> Option<i32> {
    self.shared.lock().delivered
  }

  /// After a SIGTERM passed on, wait a while for the rest of the children's
  /// group (their descendants) to end. Processes that outlive an interrupt
  /// are left at once, as just 1.58 leaves them: a background job ignores
  /// SIGINT by design.
  fn settle(&self) {
    if !self.shared.lock().terminated {
      return;
    }
    let deadline = Instant::now() + SETTLE;
    while Instant::now() < deadline {
      let alive = {
        let state = self.shared.lock();
        match state.group.as_ref().or(state.retired.last()) {
          Some(group) => os::group_alive(group),
          None => return,
        }
      };
      match alive {
        Ok(true) => std::thread::sleep(Duration::from_millis(10)),
        Ok(false) => return,
        Err(error) => return note_failure("wait for the recipes' processes", Err(error)),
      }
    }
  }
}

#[cfg(debug_assertions)]
fn spawn_pause() -> Option<Duration> {
  std::env::var(SPAWN_PAUSE_VARIABLE)
    .ok()
    .and_then(|text| text.parse().ok())
    .map(Duration::from_millis)
}

#[cfg(not(debug_assertions))]
fn spawn_pause() -> Option<Duration> {
  None
}

impl Drop for Supervisor {
  fn drop(&mut self) {
    if let Some(recipe) = self.recipe {
      self.shared.lock().end_recipe(recipe);
      return;
    }
    self.settle();
    if self.attached {
      signals::detach(&*self.shared);
    }
  }
}

impl Shared {
  fn lock(&self) -> MutexGuard<'_, State> {
    self.state.lock().unwrap_or_else(PoisonError::into_inner)
  }

  fn own_group(&self) -> bool {
    self.own_group.get().copied().unwrap_or(true)
  }
}

impl Receiver for Shared {
  /// A signal for `just`, from the signal thread; `from_process` when
  /// another process sent it (not a terminal's key or hang-up). False when
  /// the run has nothing running nor anything to clean up: the process
  /// then ends at once.
  fn deliver(&self, signal: i32, from_process: bool) -> bool {
    let mut state = self.lock();
    // The waiting thread may have recorded it already, as its child ended.
    let recorded = !signal_thread::take_arrival(signal);
    if !recorded {
      let ends_at_once = state.children.is_empty() && state.busy == 0;
      // Pending even then: no other thread starts a process while `just` ends.
      state.record(signal);
      if ends_at_once {
        return false;
      }
      state.delivered.get_or_insert(signal);
    }
    self.interrupt_writers();
    let forwarded = if from_process || self.own_group() {
      self.forward(&mut state, signal)
    } else {
      Forwarded::default()
    };
    drop(state);
    forwarded.finish(signal);
    true
  }

  /// Stop the run as a SIGTERM would, without one being delivered
  /// (`--watch-restart`).
  fn request_stop(&self) {
    let mut state = self.lock();
    state.record(os::TERMINATE);
    self.interrupt_writers();
    let forwarded = self.forward(&mut state, os::TERMINATE);
    drop(state);
    forwarded.finish(os::TERMINATE);
  }

  /// SIGKILL whatever still runs after a stop request's grace period.
  fn kill(&self) {
    let mut state = self.lock();
    let forwarded = self.forward(&mut state, os::KILL);
    drop(state);
    print(&forwarded.notes);
  }
}

impl Shared {
  fn interrupt_writers(&self) {
    if let Some(Some(stop)) = self.interruption.get() {
      stop.raise();
    }
  }

  /// Pass `signal` on to the run's processes: their own group, or each
  /// child and its descendants. Returns what to finish once the lock is
  /// released.
  fn forward(&self, state: &mut State, signal: i32) -> Forwarded {
    if state.children.is_empty() && state.group.is_none() {
      return Forwarded::default();
    }
    // Noted before the signal goes: a process a handler starts after it
    // is never taken for one that missed it.
    let tree = os::descendants(&state.children);
    let everyone: Vec<Pid> = state.children.iter().chain(&tree).copied().collect();
    let starting = if signal == os::KILL { Vec::new() } else { os::starting(&everyone) };
    let notes = self.send(state, signal, &everyone);
    Forwarded { notes, starting }
  }

  /// Send `signal` to the run's processes (`everyone`: the children and
  /// their descendants). Returns the notes to print.
  fn send(&self, state: &mut State, signal: i32, everyone: &[Pid]) -> Vec<String> {
    let mut notes = Vec::new();
    if signal == os::TERMINATE || signal == os::KILL {
      state.terminated = true;
    }
    if signal == os::TERMINATE && self.verbose {
      for pid in &state.children {
        notes.push(format!("just: sending SIGTERM to child process {pid}\n"));
      }
    }
    let failure = |error: io::Error| format!("just: failed to signal the recipes: {error}\n");
    if let Some(group) = &state.group {
      if let Err(error) = os::signal_group(group, signal) {
        notes.push(failure(error));
      }
      return notes;
    }
    // Sharing `just`'s group: when that group is `just`'s job alone, signal
    // it as the terminal would (atomically, so a process forking at that
    // instant cannot miss it; `just` ignores what it sends itself);
    // otherwise each child and its descendants.
    if os::own_job_is_only_ours() {
      if let Err(error) = os::signal_own_group(signal) {
        notes.push(failure(error));
      }
      return notes;
    }
    for &pid in everyone {
      if let Err(error) = os::signal_process(pid, signal) {
        notes.push(failure(error));
      }
    }
    notes
  }

  /// A child ended: record the signals that reached `just` before it did
  /// (so a signal the child handled still stops the run, though the
  /// signal thread may not have read it yet), and forget the child; when
  /// none is left, retire the children's group and reap its leader.
  fn unregister(&self, pid: Pid) {
    let mut state = self.lock();
    // Only the supervisor signals are delivered to records them: a detached
    // one (a helper's) must not take them from the run's.
    let arrived =
      if signals::is_current(self) { signal_thread::take_arrived() } else { Vec::new() };
    for signal in arrived {
      state.record(signal);
      state.delivered.get_or_insert(signal);
      self.interrupt_writers();
    }
    state.children.retain(|&child| child != pid);
    if state.leads_group(pid) {
      state.leader_ended = true;
    }
    if !state.children.is_empty() {
      return;
    }
    let Some(group) = state.group.take() else {
      return;
    };
    let leader = group.id();
    state.retired.retain(os::needs_keeping);
    state.retired.push(group);
    let reaped = if std::mem::take(&mut state.leader_ended) { os::reap(leader) } else { Ok(()) };
    drop(state);
    note_failure("reap the recipes' first process", reaped);
  }
}

/// A signal passed on: the notes to print, and the processes that were
/// starting as it went (see `os::Starting`).
#[derive(Default)]
struct Forwarded {
  notes: Vec<String>,
  starting: Vec<os::Starting>,
}

impl Forwarded {
  /// Print the notes, and pass `signal` on again to each process that was
  /// starting as it went and has executed a program since: it may have
  /// taken the signal in its parent's handler, which the exec discarded.
  /// On a thread of its own, so the signal thread is free for the next
  /// signal.
  fn finish(self, signal: i32) {
    print(&self.notes);
    let mut starting = self.starting;
    if starting.is_empty() {
      return;
    }
    let spawned = std::thread::Builder::new()
      .name("signal follow-up".to_owned())
      .spawn(move || follow_up(signal, &mut starting));
    if let Err(error) = spawned {
      note(&format!("just: failed to watch the recipes' starting processes: {error}\n"));
    }
  }
}

/// Look at the processes that were starting, at growing intervals, until
/// each has executed a program (and is sent `signal`) or ended.
fn follow_up(signal: i32, starting: &mut Vec<os::Starting>) {
  let deadline = Instant::now() + FOLLOW_UP;
  let mut pause = FOLLOW_UP_FIRST_PAUSE;
  while !starting.is_empty() && Instant::now() < deadline {
    std::thread::sleep(pause);
    pause = pause.saturating_mul(2);
    starting.retain(|process| match process.has_executed() {
      Some(false) => true,
      Some(true) => {
        if let Err(error) = os::signal_process(process.pid(), signal) {
          note(&format!("just: failed to signal the recipes: {error}\n"));
        }
        false
      }
      None => false,
    });
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
  /// The child's standard input, when piped; taken once. The child itself
  /// stays the supervisor's: only it waits for, signals or kills it.
  pub(crate) fn take_stdin(&mut self) -> Option<ChildStdin> {
    self.child.stdin.take()
  }

  /// The child's standard output, when piped; taken once.
  pub(crate) fn take_stdout(&mut self) -> Option<ChildStdout> {
    self.child.stdout.take()
  }

  /// The child's standard error, when piped; taken once.
  pub(crate) fn take_stderr(&mut self) -> Option<ChildStderr> {
    self.child.stderr.take()
  }

  /// Wait for the child to end.
  pub(crate) fn wait(mut self) -> io::Result<ExitStatus> {
    self.reap()
  }

  fn reap(&mut self) -> io::Result<ExitStatus> {
    // Its pipes close first, as `Child::wait` does.
    drop(self.child.stdin.take());
    let leads_the_group = self.shared.lock().leads_group(self.pid);
    let result = if leads_the_group { os::wait_unreaped(self.pid) } else { os::wait(self.pid) };
    self.reaped = true;
    self.shared.unregister(self.pid);
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

/// Report a failed operation on processes; the run goes on.
fn note_failure(what: &str, result: io::Result<()>) {
  if let Err(error) = result {
    note(&format!("just: failed to {what}: {error}\n"));
  }
}

/// Notes gathered under the lock, printed once it is released.
fn print(notes: &[String]) {
  for text in notes {
    note(text);
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

#[cfg(test)]
mod tests {
  use super::*;

  const INTERRUPT: i32 = 2;

  /// A state with `count` recipe runs in progress when `INTERRUPT` comes.
  fn interrupted(count: u64) -> State {
    let recipes = (0..count).map(|id| (id, Standing::Clear)).collect();
    let mut state = State { recipes, ..State::default() };
    state.record(INTERRUPT);
    state
  }

  #[test]
  fn the_one_recipe_taking_the_signal_lets_the_run_go_on() {
    let mut state = interrupted(1);
    state.take(Some(0));
    assert_eq!(state.pending, None);
    assert_eq!(state.refusal(None), None);
  }

  #[test]
  fn a_recipe_taking_the_signal_goes_on_alone() {
    let mut state = interrupted(2);
    state.take(Some(0));
    assert_eq!(state.refusal(Some(0)), None);
    assert_eq!(state.pending_for(Some(1)), Some(INTERRUPT));
    state.end_recipe(1);
    state.end_recipe(0);
    assert_eq!(state.refusal(None), Some(INTERRUPT));
  }

  #[test]
  fn a_recipe_ending_owing_the_signal_keeps_it_pending() {
    let mut state = interrupted(2);
    state.end_recipe(1);
    state.take(Some(0));
    assert_eq!(state.pending_for(Some(0)), None);
    assert_eq!(state.pending_for(None), Some(INTERRUPT));
  }

  #[test]
  fn a_new_signal_is_owed_again_by_a_recipe_that_took_the_last() {
    let mut state = interrupted(2);
    state.take(Some(0));
    state.record(INTERRUPT);
    assert_eq!(state.pending_for(Some(0)), Some(INTERRUPT));
  }
}
