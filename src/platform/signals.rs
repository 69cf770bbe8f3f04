//! Signal handling. Handlers only touch atomics and
//! call async-signal-safe functions: with no child running, a fatal signal
//! ends `just` at once with 128 + signal; with children running, the first
//! signal is recorded and SIGTERM is forwarded to every child.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

const MAX_CHILDREN: usize = 64;

static RECORDED: AtomicI32 = AtomicI32::new(0);
static RUNNING: AtomicUsize = AtomicUsize::new(0);
static CHILDREN: [AtomicI32; MAX_CHILDREN] = [const { AtomicI32::new(0) }; MAX_CHILDREN];
static VERBOSE: AtomicI32 = AtomicI32::new(0);
/// Whether children run in process groups of their own (`--watch-restart`).
static GROUPS: AtomicBool = AtomicBool::new(false);
/// The last signal delivered to the process, whether or not it was taken.
static DELIVERED: AtomicI32 = AtomicI32::new(0);

pub const FATAL: [i32; 4] = [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM];

extern "C" fn handle(signal: libc::c_int) {
  if RUNNING.load(Ordering::SeqCst) == 0 {
    // SAFETY: _exit is async-signal-safe.
    unsafe { libc::_exit(super::exit::signal_status(signal)) };
  }
  DELIVERED.store(signal, Ordering::SeqCst);
  let _ = RECORDED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
  // Children in groups of their own miss the terminal's signals: pass them on.
  if signal == libc::SIGTERM || GROUPS.load(Ordering::SeqCst) {
    forward(signal);
  }
}

/// Send `signal` to every running child (async-signal-safe).
fn forward(signal: libc::c_int) {
  for slot in &CHILDREN {
    let pid = slot.load(Ordering::SeqCst);
    if pid > 0 {
      if signal == libc::SIGTERM && VERBOSE.load(Ordering::SeqCst) > 0 {
        write_note(pid);
      }
      // SAFETY: kill is async-signal-safe. A child not leading a group
      // (a backtick) gets the signal itself.
      unsafe {
        if !GROUPS.load(Ordering::SeqCst) || libc::kill(-pid, signal) != 0 {
          libc::kill(pid, signal);
        }
      }
    }
  }
}

/// Stop the running recipes as a SIGTERM would, without one being
/// delivered: record it and forward it to every child (`--watch-restart`).
pub fn request_stop() {
  let _ = RECORDED.compare_exchange(0, libc::SIGTERM, Ordering::SeqCst, Ordering::SeqCst);
  forward(libc::SIGTERM);
}

/// Run recipe processes in process groups of their own, so that stopping
/// one stops what it started too.
pub fn use_process_groups() {
  GROUPS.store(true, Ordering::SeqCst);
}

/// SIGKILL every child still running after a stop request's grace period.
pub fn kill_children() {
  forward(libc::SIGKILL);
}

/// Take the last signal delivered to the process, if any; unlike [`take`],
/// stop requests do not show here.
pub fn take_delivered() -> Option<i32> {
  match DELIVERED.swap(0, Ordering::SeqCst) {
    0 => None,
    signal => Some(signal),
  }
}

/// `just: sending SIGTERM to child process PID`, written without allocating.
fn write_note(pid: i32) {
  let mut buffer = [0u8; 64];
  let prefix = b"just: sending SIGTERM to child process ";
  buffer[..prefix.len()].copy_from_slice(prefix);
  let mut length = prefix.len();
  let mut digits = [0u8; 12];
  let mut count = 0;
  let mut n = pid.unsigned_abs();
  loop {
    digits[count] = b'0' + (n % 10) as u8;
    count += 1;
    n /= 10;
    if n == 0 {
      break;
    }
  }
  for i in (0..count).rev() {
    buffer[length] = digits[i];
    length += 1;
  }
  buffer[length] = b'\n';
  length += 1;
  // SAFETY: write is async-signal-safe; the buffer is valid for `length` bytes.
  unsafe { libc::write(2, buffer.as_ptr().cast(), length) };
}

/// Install the handlers for SIGHUP, SIGINT, SIGQUIT and SIGTERM.
pub fn install(verbosity: u8) {
  VERBOSE.store(i32::from(verbosity), Ordering::SeqCst);
  for signal in FATAL {
    // SAFETY: installing a handler that only uses async-signal-safe operations.
    unsafe {
      let mut action: libc::sigaction = std::mem::zeroed();
      action.sa_sigaction = handle as extern "C" fn(libc::c_int) as usize;
      action.sa_flags = libc::SA_RESTART;
      libc::sigemptyset(&mut action.sa_mask);
      libc::sigaction(signal, &action, std::ptr::null_mut());
    }
  }
}

/// Marks a child as running for as long as it lives.
pub struct ChildGuard {
  slot: Option<usize>,
}

impl ChildGuard {
  pub fn new(pid: u32) -> Self {
    RUNNING.fetch_add(1, Ordering::SeqCst);
    let pid = i32::try_from(pid).unwrap_or(0);
    let slot = CHILDREN
      .iter()
      .position(|slot| slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst).is_ok());
    ChildGuard { slot }
  }
}

impl Drop for ChildGuard {
  fn drop(&mut self) {
    if let Some(slot) = self.slot {
      CHILDREN[slot].store(0, Ordering::SeqCst);
    }
    RUNNING.fetch_sub(1, Ordering::SeqCst);
  }
}

/// Take the recorded signal, if any.
pub fn take() -> Option<i32> {
  match RECORDED.swap(0, Ordering::SeqCst) {
    0 => None,
    signal => Some(signal),
  }
}

/// The recorded signal, if any, left recorded.
pub fn recorded() -> Option<i32> {
  match RECORDED.load(Ordering::SeqCst) {
    0 => None,
    signal => Some(signal),
  }
}

/// A signal, by number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signal(pub i32);

/// Every signal `just` names: its number, its name, and whether a recipe
/// may continue after it (`[continue(NAME…)]`).
const SIGNALS: &[(i32, &str, bool)] = &[
  (libc::SIGHUP, "SIGHUP", true),
  (libc::SIGINT, "SIGINT", true),
  (libc::SIGQUIT, "SIGQUIT", true),
  (libc::SIGILL, "SIGILL", false),
  (libc::SIGTRAP, "SIGTRAP", false),
  (libc::SIGABRT, "SIGABRT", false),
  (libc::SIGBUS, "SIGBUS", false),
  (libc::SIGFPE, "SIGFPE", false),
  (libc::SIGKILL, "SIGKILL", false),
  (libc::SIGUSR1, "SIGUSR1", false),
  (libc::SIGSEGV, "SIGSEGV", false),
  (libc::SIGUSR2, "SIGUSR2", false),
  (libc::SIGPIPE, "SIGPIPE", false),
  (libc::SIGALRM, "SIGALRM", false),
  (libc::SIGTERM, "SIGTERM", false),
  (libc::SIGCHLD, "SIGCHLD", false),
  (libc::SIGCONT, "SIGCONT", false),
  (libc::SIGSTOP, "SIGSTOP", false),
  (libc::SIGTSTP, "SIGTSTP", false),
  (libc::SIGTTIN, "SIGTTIN", false),
  (libc::SIGTTOU, "SIGTTOU", false),
  (libc::SIGURG, "SIGURG", false),
  (libc::SIGXCPU, "SIGXCPU", false),
  (libc::SIGXFSZ, "SIGXFSZ", false),
  (libc::SIGVTALRM, "SIGVTALRM", false),
  (libc::SIGPROF, "SIGPROF", false),
  (libc::SIGWINCH, "SIGWINCH", false),
  (libc::SIGIO, "SIGIO", false),
  (libc::SIGSYS, "SIGSYS", false),
];

impl Signal {
  pub const HANGUP: Signal = Signal(libc::SIGHUP);
  pub const INTERRUPT: Signal = Signal(libc::SIGINT);
  pub const QUIT: Signal = Signal(libc::SIGQUIT);

  /// Its `SIG…` name, if the table has it.
  pub fn known_name(self) -> Option<&'static str> {
    SIGNALS.iter().find(|(number, ..)| *number == self.0).map(|(_, name, _)| *name)
  }

  /// Its `SIG…` name, else "signal".
  pub fn name(self) -> &'static str {
    self.known_name().unwrap_or("signal")
  }

  /// The signal named `name` that a recipe may continue after.
  pub fn continuable(name: &str) -> Option<Signal> {
    SIGNALS
      .iter()
      .find(|(_, known, continuable)| *continuable && *known == name)
      .map(|(number, ..)| Signal(*number))
  }
}

/// The name of a signal number, else "signal".
pub fn name(signal: i32) -> &'static str {
  Signal(signal).name()
}

/// Spawn a command as a tracked child and wait for it.
pub fn run(command: &mut std::process::Command) -> std::io::Result<std::process::ExitStatus> {
  let mut child = spawn(command)?;
  let _guard = ChildGuard::new(child.id());
  child.wait()
}

/// Starts `command`. A script file just written can be briefly "busy"
/// (ETXTBSY) when another thread forked while its write descriptor was open:
/// that child holds the descriptor until its own exec, a matter of
/// milliseconds, so the start is retried for a short while. After
/// [`use_process_groups`] the child leads a process group of its own.
pub fn spawn(command: &mut std::process::Command) -> std::io::Result<std::process::Child> {
  if GROUPS.load(Ordering::SeqCst) {
    std::os::unix::process::CommandExt::process_group(command, 0);
  }
  let mut attempts = 0;
  loop {
    match command.spawn() {
      Err(error) if error.raw_os_error() == Some(libc::ETXTBSY) && attempts < 200 => {
        attempts += 1;
        std::thread::sleep(std::time::Duration::from_millis(5));
      }
      result => return result,
    }
  }
}

/// Blocks every signal in the calling thread, so that signals sent to the
/// process are delivered to the other threads (their handlers, `sigwait`).
pub fn block_all_in_this_thread() {
  // SAFETY: plain calls on a stack-allocated, initialised signal set.
  unsafe {
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigfillset(&mut set);
    libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
  }
}

/// Blocks every signal in the calling thread and waits for one; returns its
/// number.
pub fn wait_for_any() -> i32 {
  block_all_in_this_thread();
  // SAFETY: plain libc calls on a locally owned, initialised signal set.
  unsafe {
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigfillset(&mut set);
    let mut signal: libc::c_int = 0;
    libc::sigwait(&set, &mut signal);
    signal
  }
}
