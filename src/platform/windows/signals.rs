//! Console control events, the Windows counterpart of signal handling
//! (`signals.rs` on Unix), behind the same interface.
//!
//! Ctrl-C and Ctrl-Break reach every process attached to the console,
//! children included: `just` does not forward them. Its console control
//! handler (which Windows runs on a thread of its own) ends `just` at once
//! with 128 + SIGINT when no child is running; otherwise it records the
//! event as SIGINT (closing the console as SIGHUP) and lets the children
//! decide, and `just` reports what happened when they end.
//!
//! Under `--watch-restart` ([`use_process_groups`]) each recipe process is
//! started suspended, put in a Job Object of its own and then resumed, so
//! that [`request_stop`] ends the recipe's whole process tree.

use std::io;
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use windows_sys::core::BOOL;
use windows_sys::Win32::Foundation::{CloseHandle, FALSE, HANDLE, TRUE};
use windows_sys::Win32::System::Console::{
  SetConsoleCtrlHandler, CTRL_BREAK_EVENT, CTRL_CLOSE_EVENT, CTRL_C_EVENT, CTRL_LOGOFF_EVENT,
  CTRL_SHUTDOWN_EVENT,
};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
  CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
  AssignProcessToJobObject, CreateJobObjectW, TerminateJobObject,
};
use windows_sys::Win32::System::Threading::{
  ExitProcess, OpenThread, ResumeThread, CREATE_SUSPENDED, THREAD_SUSPEND_RESUME,
};

// The POSIX numbers, so that names, `[continue(…)]` and exit statuses
// (128 + number) read as they do on Unix.
const SIGHUP: i32 = 1;
const SIGINT: i32 = 2;
const SIGQUIT: i32 = 3;
const SIGTERM: i32 = 15;

static RECORDED: AtomicI32 = AtomicI32::new(0);
static DELIVERED: AtomicI32 = AtomicI32::new(0);
static RUNNING: AtomicUsize = AtomicUsize::new(0);
static GROUPS: AtomicBool = AtomicBool::new(false);
static VERBOSE: AtomicU8 = AtomicU8::new(0);
/// Whether a caller waits for an event ([`wait_for_any`]) rather than runs.
static WAITING: AtomicBool = AtomicBool::new(false);
static WAKE: (Mutex<()>, Condvar) = (Mutex::new(()), Condvar::new());
/// The Job Object of each child started under [`use_process_groups`], by
/// process id (handles kept as integers: a raw handle is not `Send`).
static JOBS: Mutex<Vec<(u32, isize)>> = Mutex::new(Vec::new());

fn signal_of_event(event: u32) -> Option<i32> {
  match event {
    CTRL_C_EVENT | CTRL_BREAK_EVENT => Some(SIGINT),
    CTRL_CLOSE_EVENT | CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT => Some(SIGHUP),
    _ => None,
  }
}

unsafe extern "system" fn handle(event: u32) -> BOOL {
  let Some(signal) = signal_of_event(event) else {
    return FALSE;
  };
  DELIVERED.store(signal, Ordering::SeqCst);
  if WAITING.load(Ordering::SeqCst) {
    let _lock = WAKE.0.lock().unwrap_or_else(PoisonError::into_inner);
    WAKE.1.notify_all();
    return TRUE;
  }
  if RUNNING.load(Ordering::SeqCst) == 0 {
    // SAFETY: ends the process; nothing of ours is left half-written that
    // the exit status would not already report.
    unsafe { ExitProcess(crate::platform::exit::signal_status(signal) as u32) };
  }
  let _ = RECORDED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
  // Children in Job Objects of their own share the console: they got the
  // event too. Nothing to forward.
  TRUE
}

/// Install the console control handler.
pub fn install(verbosity: u8) {
  VERBOSE.store(verbosity, Ordering::SeqCst);
  // SAFETY: registers a handler that only touches atomics and locks.
  unsafe { SetConsoleCtrlHandler(Some(handle), TRUE) };
}

/// Stop the running recipes as a SIGTERM would on Unix: record it and end
/// each child's process tree (`--watch-restart`).
pub fn request_stop() {
  let _ = RECORDED.compare_exchange(0, SIGTERM, Ordering::SeqCst, Ordering::SeqCst);
  terminate_jobs();
}

/// Put each recipe process, and whatever it starts, in a Job Object of its
/// own, so that stopping one stops its whole tree.
pub fn use_process_groups() {
  GROUPS.store(true, Ordering::SeqCst);
}

/// End every child tree still running after a stop request's grace period.
pub fn kill_children() {
  terminate_jobs();
}

fn terminate_jobs() {
  let jobs = JOBS.lock().unwrap_or_else(PoisonError::into_inner);
  for &(pid, job) in jobs.iter() {
    if VERBOSE.load(Ordering::SeqCst) > 0 {
      let _ =
        crate::platform::stdio::stderr_line(&format!("just: terminating child process {pid}"));
    }
    // SAFETY: the job handle stays open while it is listed.
    unsafe {
      TerminateJobObject(job as HANDLE, crate::platform::exit::signal_status(SIGTERM) as u32)
    };
  }
}

/// Take the last event delivered to the process, if any; unlike [`take`],
/// stop requests do not show here.
pub fn take_delivered() -> Option<i32> {
  nonzero(DELIVERED.swap(0, Ordering::SeqCst))
}

/// Take the recorded signal, if any.
pub fn take() -> Option<i32> {
  nonzero(RECORDED.swap(0, Ordering::SeqCst))
}

/// The recorded signal, if any, left recorded.
pub fn recorded() -> Option<i32> {
  nonzero(RECORDED.load(Ordering::SeqCst))
}

fn nonzero(signal: i32) -> Option<i32> {
  (signal != 0).then_some(signal)
}

/// Marks a child as running for as long as it lives.
pub struct ChildGuard {
  pid: u32,
}

impl ChildGuard {
  pub fn new(pid: u32) -> Self {
    RUNNING.fetch_add(1, Ordering::SeqCst);
    ChildGuard { pid }
  }
}

impl Drop for ChildGuard {
  fn drop(&mut self) {
    let mut jobs = JOBS.lock().unwrap_or_else(PoisonError::into_inner);
    jobs.retain(|&(pid, job)| {
      if pid != self.pid {
        return true;
      }
      // SAFETY: the handle was opened by `spawn` and is closed once, here.
      unsafe { CloseHandle(job as HANDLE) };
      false
    });
    RUNNING.fetch_sub(1, Ordering::SeqCst);
  }
}

/// Spawn a command as a tracked child and wait for it.
pub fn run(command: &mut Command) -> io::Result<ExitStatus> {
  let mut child = spawn(command)?;
  let _guard = ChildGuard::new(child.id());
  child.wait()
}

/// Starts `command`. After [`use_process_groups`] the child starts
/// suspended, joins a Job Object of its own, and only then runs, so that
/// nothing it starts escapes the job.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
  if !GROUPS.load(Ordering::SeqCst) {
    return command.spawn();
  }
  command.creation_flags(CREATE_SUSPENDED);
  let mut child = command.spawn()?;
  let contained = contain(&child).and_then(|job| match resume(child.id()) {
    Ok(()) => Ok(job),
    Err(error) => {
      // SAFETY: the job was just created and is not listed anywhere.
      unsafe { CloseHandle(job) };
      Err(error)
    }
  });
  match contained {
    Ok(job) => {
      JOBS.lock().unwrap_or_else(PoisonError::into_inner).push((child.id(), job as isize));
      Ok(child)
    }
    Err(error) => {
      let _ = child.kill();
      let _ = child.wait();
      Err(error)
    }
  }
}

/// A new Job Object holding `child`.
fn contain(child: &Child) -> io::Result<HANDLE> {
  // SAFETY: plain calls; the job handle is closed on failure.
  unsafe {
    let job = CreateJobObjectW(std::ptr::null(), std::ptr::null());
    if job.is_null() {
      return Err(io::Error::last_os_error());
    }
    if AssignProcessToJobObject(job, child.as_raw_handle() as HANDLE) == 0 {
      let error = io::Error::last_os_error();
      CloseHandle(job);
      return Err(error);
    }
    Ok(job)
  }
}

/// Resume the threads of a process started suspended.
fn resume(pid: u32) -> io::Result<()> {
  // SAFETY: a thread snapshot walked with a correctly sized entry; every
  // handle opened is closed.
  unsafe {
    let snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    if snapshot as isize == -1 {
      return Err(io::Error::last_os_error());
    }
    let mut entry: THREADENTRY32 = std::mem::zeroed();
    entry.dwSize = std::mem::size_of::<THREADENTRY32>() as u32;
    let mut more = Thread32First(snapshot, &mut entry) != 0;
    let mut result = Err(io::Error::other("no thread to resume"));
    while more {
      if entry.th32OwnerProcessID == pid {
        let thread = OpenThread(THREAD_SUSPEND_RESUME, FALSE, entry.th32ThreadID);
        if thread.is_null() {
          result = Err(io::Error::last_os_error());
        } else {
          result =
            if ResumeThread(thread) == u32::MAX { Err(io::Error::last_os_error()) } else { Ok(()) };
          CloseHandle(thread);
        }
      }
      more = Thread32Next(snapshot, &mut entry) != 0;
    }
    CloseHandle(snapshot);
    result
  }
}

/// Console control handlers run on a thread of their own: no thread has
/// anything to block.
pub fn block_all_in_this_thread() {}

/// Waits for a console control event; returns its signal number.
pub fn wait_for_any() -> i32 {
  WAITING.store(true, Ordering::SeqCst);
  // SAFETY: registers a handler that only touches atomics and locks.
  unsafe { SetConsoleCtrlHandler(Some(handle), TRUE) };
  let mut lock = WAKE.0.lock().unwrap_or_else(PoisonError::into_inner);
  loop {
    if let Some(signal) = take_delivered() {
      return signal;
    }
    lock = WAKE.1.wait(lock).unwrap_or_else(PoisonError::into_inner);
  }
}

/// A signal, by number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signal(pub i32);

/// Every signal `just` names, by its POSIX number: its name, and whether a
/// recipe may continue after it (`[continue(NAME…)]`). Windows delivers
/// only the first three (console events); the rest are names justfiles may
/// still spell.
const SIGNALS: &[(i32, &str, bool)] = &[
  (SIGHUP, "SIGHUP", true),
  (SIGINT, "SIGINT", true),
  (SIGQUIT, "SIGQUIT", true),
  (4, "SIGILL", false),
  (5, "SIGTRAP", false),
  (6, "SIGABRT", false),
  (7, "SIGBUS", false),
  (8, "SIGFPE", false),
  (9, "SIGKILL", false),
  (10, "SIGUSR1", false),
  (11, "SIGSEGV", false),
  (12, "SIGUSR2", false),
  (13, "SIGPIPE", false),
  (14, "SIGALRM", false),
  (SIGTERM, "SIGTERM", false),
  (17, "SIGCHLD", false),
  (18, "SIGCONT", false),
  (19, "SIGSTOP", false),
  (20, "SIGTSTP", false),
  (21, "SIGTTIN", false),
  (22, "SIGTTOU", false),
  (23, "SIGURG", false),
  (24, "SIGXCPU", false),
  (25, "SIGXFSZ", false),
  (26, "SIGVTALRM", false),
  (27, "SIGPROF", false),
  (28, "SIGWINCH", false),
  (29, "SIGIO", false),
  (31, "SIGSYS", false),
];

impl Signal {
  pub const HANGUP: Signal = Signal(SIGHUP);
  pub const INTERRUPT: Signal = Signal(SIGINT);
  pub const QUIT: Signal = Signal(SIGQUIT);

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
