//! The signal wiring, the one process-wide state of `just`: the signals it
//! handles are turned into messages by a self-pipe and a thread
//! (`platform::os`), which hands each to the supervisor of the run in
//! progress (a `Receiver`, which the supervisor implements). With no run in
//! progress, or a run with nothing running, a handled signal ends `just` at
//! once with 128 + signal, as just 1.58 does. Also the signal names
//! (`os::signal_table`).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::os::signal_thread;

/// What the handled signals go to while a run is in progress: its
/// supervisor (`platform::supervisor`), which attaches itself.
pub(super) trait Receiver: Send + Sync {
  /// A signal for `just`; `from_process` when another process sent it.
  /// False when the run has nothing running nor anything to clean up: the
  /// process then ends at once.
  fn deliver(&self, signal: i32, from_process: bool) -> bool;

  /// Stop the run as a SIGTERM would, without one being delivered.
  fn request_stop(&self);

  /// SIGKILL whatever still runs after a stop request's grace period.
  fn kill(&self);
}

/// The receiver of the run in progress.
static CURRENT: Mutex<Option<Arc<dyn Receiver>>> = Mutex::new(None);

fn current() -> MutexGuard<'static, Option<Arc<dyn Receiver>>> {
  CURRENT.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Make `receiver` the one that receives signals.
pub(super) fn attach(receiver: Arc<dyn Receiver>) {
  *current() = Some(receiver);
}

/// Stop sending signals to `receiver`.
pub(super) fn detach(receiver: &dyn Receiver) {
  let mut current = current();
  if is_attached(current.as_ref(), receiver) {
    *current = None;
  }
}

/// Whether `receiver` is the one that receives signals now.
pub(super) fn is_current(receiver: &dyn Receiver) -> bool {
  is_attached(current().as_ref(), receiver)
}

/// Whether `attached` is `receiver` (the same object, by address).
fn is_attached(attached: Option<&Arc<dyn Receiver>>, receiver: &dyn Receiver) -> bool {
  attached.is_some_and(|attached| std::ptr::addr_eq(Arc::as_ptr(attached), receiver))
}

/// Directories to remove before a signal ends `just` at once.
static REMOVE_AT_EXIT: Mutex<Vec<std::path::PathBuf>> = Mutex::new(Vec::new());

/// Remove `directory` (a private temporary one) if a signal ends `just` at
/// once, which skips the destructors that would remove it.
pub(crate) fn remove_at_exit(directory: std::path::PathBuf) {
  REMOVE_AT_EXIT.lock().unwrap_or_else(PoisonError::into_inner).push(directory);
}

/// Called on the signal thread with each handled signal; `from_process`
/// when another process sent it.
fn deliver(signal: i32, from_process: bool) {
  let attached = current().clone();
  if !attached.is_some_and(|receiver| receiver.deliver(signal, from_process)) {
    // Held until the process ends: see `settle_before_reporting`.
    let directories = REMOVE_AT_EXIT.lock().unwrap_or_else(PoisonError::into_inner);
    for directory in directories.iter() {
      let _ = std::fs::remove_dir_all(directory);
    }
    super::os::process::exit_now(super::exit::signal_status(signal));
  }
}

/// Called before an error is reported: if a signal is ending `just` at once,
/// the error may be its doing (a private directory it removed under the
/// main thread's feet), so this waits for the signal's exit status instead,
/// never returning.
pub(crate) fn settle_before_reporting() {
  drop(REMOVE_AT_EXIT.lock().unwrap_or_else(PoisonError::into_inner));
}

/// Start handling signals: until a run attaches its supervisor, a handled
/// signal ends `just` at once.
pub(crate) fn install() -> std::io::Result<()> {
  signal_thread::start(deliver)
}

/// Stop the run in progress as a SIGTERM would (`--watch-restart`).
pub(crate) fn request_stop() {
  let attached = current().clone();
  if let Some(receiver) = attached {
    receiver.request_stop();
  }
}

/// SIGKILL what the run in progress still runs after a stop request.
pub(crate) fn kill_children() {
  let attached = current().clone();
  if let Some(receiver) = attached {
    receiver.kill();
  }
}

/// Blocks every signal in the calling thread, so that signals sent to the
/// process are taken by the signal thread.
pub(crate) fn block_all_in_this_thread() -> std::io::Result<()> {
  signal_thread::block_all_in_this_thread()
}

/// Blocks every signal in the calling thread and waits for one; returns its
/// number.
pub(crate) fn wait_for_any() -> std::io::Result<i32> {
  signal_thread::wait_for_any()
}

/// A signal, by number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Signal(pub i32);

use super::os::signal_table::SIGNALS;

impl Signal {
  #[cfg(test)]
  pub(crate) const HANGUP: Signal = Signal(SIGNALS[0].0);
  pub(crate) const INTERRUPT: Signal = Signal(SIGNALS[1].0);
  #[cfg(test)]
  pub(crate) const QUIT: Signal = Signal(SIGNALS[2].0);

  /// Its `SIG…` name, if the table has it.
  pub(crate) fn known_name(self) -> Option<&'static str> {
    SIGNALS.iter().find(|(number, ..)| *number == self.0).map(|(_, name, _)| *name)
  }

  /// Its `SIG…` name, else "signal".
  pub(crate) fn name(self) -> &'static str {
    self.known_name().unwrap_or("signal")
  }

  /// The signal named `name` that a recipe may continue after.
  pub(crate) fn continuable(name: &str) -> Option<Signal> {
    SIGNALS
      .iter()
      .find(|(_, known, continuable)| *continuable && *known == name)
      .map(|(number, ..)| Signal(*number))
  }
}

/// The name of a signal number, else "signal".
pub(crate) fn name(signal: i32) -> &'static str {
  Signal(signal).name()
}
