//! Signals as messages: the handler of each handled signal does nothing but
//! note the signal in an atomic set (`ARRIVED`) and write one byte to a pipe
//! (the self-pipe): the signal's number, with the high bit set when another
//! process sent it (rather than the kernel, for a terminal's key or a
//! hang-up). A thread reads the pipe and hands each signal to the supervisor
//! as an ordinary function call. Children start with the default
//! dispositions (exec resets caught signals) and an unchanged signal mask; a
//! signal that reaches a child between its fork and its exec, where it still
//! has `just`'s handler, is re-raised there with the default disposition, so
//! it is never lost.

use std::io;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

/// The signals a run handles: hang-up, interrupt, quit and terminate.
pub(crate) const HANDLED: [i32; 4] = [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM];

/// The bit of a pipe byte that says another process sent the signal.
const FROM_PROCESS: u8 = 0x80;

/// The self-pipe's write end, -1 until installed.
static PIPE: AtomicI32 = AtomicI32::new(-1);

/// `just`'s process id, to tell a forked child that has not executed yet.
static PROCESS: AtomicI32 = AtomicI32::new(0);

/// The handled signals that arrived and were not taken yet, one bit each.
static ARRIVED: AtomicU64 = AtomicU64::new(0);

fn bit(signal: i32) -> u64 {
  1u64.checked_shl(u32::try_from(signal).unwrap_or(u32::MAX)).unwrap_or(0)
}

/// Take `signal` from the arrived set: true if it was there, false if it
/// was taken already (by `take_arrived`).
pub(crate) fn take_arrival(signal: i32) -> bool {
  ARRIVED.fetch_and(!bit(signal), Ordering::SeqCst) & bit(signal) != 0
}

/// Take every signal that arrived and was not taken yet. A signal sent to
/// `just` before a child ended has arrived by the time a thread that does
/// not block it returns from waiting for that child (the kernel runs the
/// handler on the way out of the system call at the latest).
pub(crate) fn take_arrived() -> Vec<i32> {
  let arrived = ARRIVED.swap(0, Ordering::SeqCst);
  HANDLED.into_iter().filter(|&signal| arrived & bit(signal) != 0).collect()
}

extern "C" fn handle(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
  // SAFETY: getpid, sigaction, sigprocmask-free raise and write are
  // async-signal-safe; `info` is the kernel's siginfo for this delivery;
  // errno is saved and restored around them.
  unsafe {
    let errno = *errno_location();
    if libc::getpid() != PROCESS.load(Ordering::Relaxed) {
      // A forked child before its exec: do what the signal would do there.
      libc::signal(signal, libc::SIG_DFL);
      libc::raise(signal);
      *errno_location() = errno;
      return;
    }
    let sender = if info.is_null() { 0 } else { sender(&*info) };
    if sender == PROCESS.load(Ordering::Relaxed) {
      // `just` passing a signal on to its own job: it has it already.
      *errno_location() = errno;
      return;
    }
    ARRIVED.fetch_or(bit(signal), Ordering::SeqCst);
    // Signal numbers are below 64: the number fits in the low bits.
    let mut byte = signal as u8;
    if sender != 0 {
      byte |= FROM_PROCESS;
    }
    // The pipe does not block; a full pipe only loses a repetition (the
    // reader delivers whatever it has read by then).
    let fd = PIPE.load(Ordering::Relaxed);
    libc::write(fd, (&raw const byte).cast(), 1);
    *errno_location() = errno;
  }
}

/// The process that sent a signal; 0 for the kernel (a terminal's key, a
/// hang-up).
#[cfg(any(target_os = "linux", target_os = "android"))]
unsafe fn sender(info: &libc::siginfo_t) -> libc::pid_t {
  // SAFETY: every signal this handler takes carries the sender's fields.
  unsafe { info.si_pid() }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
unsafe fn sender(info: &libc::siginfo_t) -> libc::pid_t {
  info.si_pid
}

/// Where the calling thread's `errno` lives (its name differs by libc).
#[cfg(target_os = "linux")]
unsafe fn errno_location() -> *mut libc::c_int {
  // SAFETY: always valid for the calling thread.
  unsafe { libc::__errno_location() }
}

#[cfg(any(target_vendor = "apple", target_os = "freebsd", target_os = "dragonfly"))]
unsafe fn errno_location() -> *mut libc::c_int {
  // SAFETY: always valid for the calling thread.
  unsafe { libc::__error() }
}

#[cfg(any(target_os = "android", target_os = "openbsd", target_os = "netbsd"))]
unsafe fn errno_location() -> *mut libc::c_int {
  // SAFETY: always valid for the calling thread.
  unsafe { libc::__errno() }
}

/// A pipe whose ends are closed on exec.
#[cfg(not(target_vendor = "apple"))]
pub(super) fn cloexec_pipe() -> io::Result<[libc::c_int; 2]> {
  let mut fds = [0; 2];
  // SAFETY: pipe2 writes two descriptors into the local array.
  check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
  Ok(fds)
}

/// A pipe whose ends are closed on exec. macOS has no pipe2: the flag is
/// set right after: enough for the self-pipe, made before `just` starts any
/// process; a pipe made during a run may reach a child started at the same
/// instant, which holds it until it ends.
#[cfg(target_vendor = "apple")]
pub(super) fn cloexec_pipe() -> io::Result<[libc::c_int; 2]> {
  let mut fds = [0; 2];
  // SAFETY: pipe writes two descriptors into the local array; fcntl on them.
  unsafe {
    check(libc::pipe(fds.as_mut_ptr()))?;
    for fd in fds {
      check(libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC))?;
    }
  }
  Ok(fds)
}

fn check(result: libc::c_int) -> io::Result<libc::c_int> {
  if result == -1 {
    Err(io::Error::last_os_error())
  } else {
    Ok(result)
  }
}

/// Create the self-pipe, start the thread that reads it and calls `deliver`
/// with each signal, and install the handlers.
pub(crate) fn start(deliver: fn(i32, bool)) -> io::Result<()> {
  let [read, write] = cloexec_pipe()?;
  // SAFETY: fcntl on the descriptor just created.
  check(unsafe { libc::fcntl(write, libc::F_SETFL, libc::O_NONBLOCK) })?;
  PIPE.store(write, Ordering::Relaxed);
  // SAFETY: getpid cannot fail.
  PROCESS.store(unsafe { libc::getpid() }, Ordering::Relaxed);
  // Delivering takes a lock and maybe writes a note: a small stack will do.
  let builder = std::thread::Builder::new().name("signals".into()).stack_size(64 * 1024);
  builder.spawn(move || read_signals(read, deliver))?;
  for signal in HANDLED {
    install_handler(signal)?;
  }
  Ok(())
}

fn install_handler(signal: libc::c_int) -> io::Result<()> {
  let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) = handle;
  // SAFETY: installing a handler that only notes the signal in an atomic
  // and writes to the self-pipe.
  unsafe {
    let mut action: libc::sigaction = std::mem::zeroed();
    action.sa_sigaction = handler as usize;
    action.sa_flags = libc::SA_RESTART | libc::SA_SIGINFO;
    check(libc::sigemptyset(&raw mut action.sa_mask))?;
    check(libc::sigaction(signal, &raw const action, std::ptr::null_mut()))?;
  }
  Ok(())
}

fn read_signals(fd: libc::c_int, deliver: fn(i32, bool)) {
  let mut byte = 0u8;
  loop {
    // SAFETY: reading one byte into a local.
    match unsafe { libc::read(fd, (&raw mut byte).cast(), 1) } {
      1 => deliver(i32::from(byte & !FROM_PROCESS), byte & FROM_PROCESS != 0),
      -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
      _ => {
        let error = io::Error::last_os_error();
        let _ = crate::platform::stdio::stderr(&format!(
          "just: failed to read signals, signals now end `just` at once: {error}\n"
        ));
        for signal in HANDLED {
          // SAFETY: restoring the default disposition, which cannot fail for
          // these signals.
          unsafe { libc::signal(signal, libc::SIG_DFL) };
        }
        return;
      }
    }
  }
}

/// Blocks every signal in the calling thread.
pub(crate) fn block_all_in_this_thread() -> io::Result<()> {
  // SAFETY: initialising a local signal set.
  let set = unsafe {
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigfillset(&raw mut set);
    set
  };
  // SAFETY: pthread_sigmask with an initialised set.
  match unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &raw const set, std::ptr::null_mut()) } {
    0 => Ok(()),
    code => Err(io::Error::from_raw_os_error(code)),
  }
}

/// Blocks every signal in the calling thread and waits for one; returns its
/// number (`--request signal`).
pub(crate) fn wait_for_any() -> io::Result<i32> {
  block_all_in_this_thread()?;
  // SAFETY: plain libc calls on a locally owned, initialised signal set.
  unsafe {
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigfillset(&raw mut set);
    let mut signal: libc::c_int = 0;
    match libc::sigwait(&raw const set, &raw mut signal) {
      0 => Ok(signal),
      code => Err(io::Error::from_raw_os_error(code)),
    }
  }
}
