//! Signals as messages: the handler of each handled signal does nothing but
//! write the signal's number, one byte, to a pipe (the self-pipe); a thread
//! reads the pipe and hands each signal to the supervisor as an ordinary
//! function call. SIGCONT's handler only counts continuations. Children
//! start with the default dispositions (exec resets caught signals) and an
//! unchanged signal mask.

use std::io;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

/// The signals a run handles: hang-up, interrupt, quit and terminate.
pub(crate) const HANDLED: [i32; 4] = [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM];

/// The self-pipe's write end, -1 until installed.
static PIPE: AtomicI32 = AtomicI32::new(-1);

/// How many times `just` was continued (SIGCONT) since installing.
static CONTINUED: AtomicU64 = AtomicU64::new(0);

extern "C" fn count_continue(_: libc::c_int) {
  CONTINUED.fetch_add(1, Ordering::SeqCst);
}

/// How many times `just` was continued after a stop.
pub(crate) fn continued() -> u64 {
  CONTINUED.load(Ordering::SeqCst)
}

extern "C" fn handle(signal: libc::c_int) {
  let fd = PIPE.load(Ordering::Relaxed);
  // Signal numbers are below 64: one byte each.
  let byte = signal as u8;
  // SAFETY: errno is saved and restored around write(2), which is
  // async-signal-safe; the pipe does not block, and a full pipe only loses
  // a repetition (the reader delivers whatever it has read by then).
  unsafe {
    let errno = *errno_location();
    libc::write(fd, (&raw const byte).cast(), 1);
    *errno_location() = errno;
  }
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
pub(crate) fn start(deliver: fn(i32)) -> io::Result<()> {
  let [read, write] = cloexec_pipe()?;
  // SAFETY: fcntl on the descriptor just created.
  check(unsafe { libc::fcntl(write, libc::F_SETFL, libc::O_NONBLOCK) })?;
  PIPE.store(write, Ordering::Relaxed);
  // Delivering takes a lock and maybe writes a note: a small stack will do.
  let builder = std::thread::Builder::new().name("signals".into()).stack_size(64 * 1024);
  builder.spawn(move || read_signals(read, deliver))?;
  for signal in HANDLED {
    install_handler(signal, handle)?;
  }
  install_handler(libc::SIGCONT, count_continue)
}

fn install_handler(signal: libc::c_int, handler: extern "C" fn(libc::c_int)) -> io::Result<()> {
  // SAFETY: installing a handler that only writes to the self-pipe or to an
  // atomic counter.
  unsafe {
    let mut action: libc::sigaction = std::mem::zeroed();
    action.sa_sigaction = handler as usize;
    action.sa_flags = libc::SA_RESTART;
    check(libc::sigemptyset(&raw mut action.sa_mask))?;
    check(libc::sigaction(signal, &raw const action, std::ptr::null_mut()))?;
  }
  Ok(())
}

fn read_signals(fd: libc::c_int, deliver: fn(i32)) {
  let mut byte = 0u8;
  loop {
    // SAFETY: reading one byte into a local.
    match unsafe { libc::read(fd, (&raw mut byte).cast(), 1) } {
      1 => deliver(i32::from(byte)),
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

/// Blocks SIGTTOU in the calling thread while `action` runs, so that `just`
/// can hand the terminal over and take it back from the background.
pub(crate) fn without_sigttou<T>(action: impl FnOnce() -> T) -> T {
  // SAFETY: plain mask changes on initialised local sets. These calls fail
  // only for an invalid signal number or `how`, and these are constants.
  unsafe {
    let mut set: libc::sigset_t = std::mem::zeroed();
    let mut old: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&raw mut set);
    libc::sigaddset(&raw mut set, libc::SIGTTOU);
    libc::pthread_sigmask(libc::SIG_BLOCK, &raw const set, &raw mut old);
    let result = action();
    libc::pthread_sigmask(libc::SIG_SETMASK, &raw const old, std::ptr::null_mut());
    result
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
