//! Process groups, the terminal and waiting, for the supervisor. Every libc
//! result is checked: an error either is the answer (a group that no longer
//! exists) or is returned.

use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus};

use super::signal_thread::{continued, without_sigttou};

pub(crate) type Pid = i32;

/// The signals the supervisor passes on to the run's process group.
pub(crate) const TERMINATE: i32 = libc::SIGTERM;
pub(crate) const KILL: i32 = libc::SIGKILL;
const CONTINUE: i32 = libc::SIGCONT;

fn check(result: libc::c_int) -> io::Result<libc::c_int> {
  if result == -1 {
    Err(io::Error::last_os_error())
  } else {
    Ok(result)
  }
}

fn is(error: &io::Error, code: libc::c_int) -> bool {
  error.raw_os_error() == Some(code)
}

/// Start `command` in process group `group`, or in a new group it leads
/// when None. When `terminal` is given, the child makes its group the
/// terminal's foreground group before it executes (as a shell's child does),
/// so it never reads the terminal from the background. A script file just
/// written can be briefly "busy" (ETXTBSY) when another thread forked while
/// its write descriptor was open: that child holds the descriptor until its
/// own exec, a matter of milliseconds, so the start is retried for a while.
pub(crate) fn spawn(
  command: &mut Command,
  group: Option<Pid>,
  terminal: Option<&Terminal>,
) -> io::Result<Child> {
  command.process_group(group.unwrap_or(0));
  if let Some(terminal) = terminal {
    let fd = terminal.fd;
    // SAFETY: the closure runs in the forked child before exec and calls
    // only async-signal-safe functions on its own copies of the descriptor
    // and signal mask.
    unsafe {
      command.pre_exec(move || {
        // The child is in the background until this call: SIGTTOU must not
        // stop it. A failure leaves the work to the parent's call.
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut set);
        libc::sigaddset(&raw mut set, libc::SIGTTOU);
        libc::pthread_sigmask(libc::SIG_BLOCK, &raw const set, &raw mut old);
        libc::tcsetpgrp(fd, libc::getpgrp());
        libc::pthread_sigmask(libc::SIG_SETMASK, &raw const old, std::ptr::null_mut());
        Ok(())
      });
    }
  }
  let mut attempts = 0;
  loop {
    match command.spawn() {
      Err(error) if is(&error, libc::ETXTBSY) && attempts < 200 => {
        attempts += 1;
        std::thread::sleep(std::time::Duration::from_millis(5));
      }
      result => return result,
    }
  }
}

/// Whether starting a process in an existing group failed because the group
/// is gone (every process in it has ended).
pub(crate) fn group_is_gone(error: &io::Error) -> bool {
  is(error, libc::EPERM) || is(error, libc::ESRCH)
}

/// Send `signal` to every process of `group`; false if none is left.
pub(crate) fn signal_group(group: Pid, signal: i32) -> io::Result<bool> {
  // SAFETY: plain kill(2) on a negative (group) id.
  match check(unsafe { libc::kill(-group, signal) }) {
    Ok(_) => Ok(true),
    Err(error) if is(&error, libc::ESRCH) => Ok(false),
    Err(error) => Err(error),
  }
}

/// Whether any process of `group` is still alive (zombies included).
pub(crate) fn group_alive(group: Pid) -> io::Result<bool> {
  signal_group(group, 0)
}

/// Continue a stopped group.
pub(crate) fn continue_group(group: Pid) -> io::Result<bool> {
  signal_group(group, CONTINUE)
}

/// The terminal's signal (interrupt or quit key) that ended a process, if
/// one did.
pub(crate) fn keyboard_signal(status: &ExitStatus) -> Option<i32> {
  status.signal().filter(|&signal| signal == libc::SIGINT || signal == libc::SIGQUIT)
}

/// How a wait ended.
pub(crate) enum Waited {
  Exited(ExitStatus),
  /// Stopped by a job-control signal (only reported with job control).
  Stopped,
}

/// Wait for child `pid` to end, or, with `job_control`, to stop.
pub(crate) fn wait(pid: Pid, job_control: bool) -> io::Result<Waited> {
  let flags = if job_control { libc::WUNTRACED } else { 0 };
  loop {
    let mut status: libc::c_int = 0;
    // SAFETY: waitpid writes the status into a local.
    match check(unsafe { libc::waitpid(pid, &raw mut status, flags) }) {
      Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
      Err(error) => return Err(error),
      Ok(_) if libc::WIFSTOPPED(status) => return Ok(Waited::Stopped),
      Ok(_) => return Ok(Waited::Exited(ExitStatus::from_raw(status))),
    }
  }
}

/// Stop `just`'s own process group as the terminal's Ctrl-Z would have
/// (`just` may share it with a shell script that runs it), so the shell
/// that started the job gets the terminal back; returns once `just` is
/// continued. Any of `just`'s threads may take the signal, some time after
/// `kill` returns, so this waits for the continuation to be counted (or,
/// should the stop have been discarded, as it is for an orphaned group,
/// for half a second of running).
pub(crate) fn stop_self() -> io::Result<()> {
  let before = continued();
  // SAFETY: kill(2) on our own process group; SIGTSTP keeps its default
  // disposition (stop).
  check(unsafe { libc::kill(0, libc::SIGTSTP) })?;
  let start = std::time::Instant::now();
  while continued() == before && start.elapsed() < std::time::Duration::from_millis(500) {
    std::thread::sleep(std::time::Duration::from_millis(1));
  }
  Ok(())
}

/// End the process at once with `status`, running nothing else: what a
/// fatal signal does while `just` has nothing to clean up.
pub(crate) fn exit_now(status: i32) -> ! {
  // SAFETY: _exit(2) ends the process.
  unsafe { libc::_exit(status) }
}

/// The controlling terminal on standard input, for job control.
pub(crate) struct Terminal {
  /// A close-on-exec duplicate of standard input, so a child whose own
  /// standard input is a pipe can still reach the terminal.
  fd: libc::c_int,
}

impl Terminal {
  /// The terminal, if standard input is `just`'s controlling terminal.
  pub(crate) fn open() -> Option<Terminal> {
    // SAFETY: isatty, tcgetpgrp and fcntl on descriptor 0 only read it.
    unsafe {
      if libc::isatty(0) != 1 || libc::tcgetpgrp(0) == -1 {
        return None;
      }
      let fd = libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 3);
      (fd != -1).then_some(Terminal { fd })
    }
  }

  /// Whether `just`'s own group is the terminal's foreground group.
  pub(crate) fn is_foreground(&self) -> bool {
    // SAFETY: plain queries.
    unsafe { libc::tcgetpgrp(self.fd) == libc::getpgrp() }
  }

  /// Make `group` the foreground group. A group that is already gone is
  /// no error. SIGTTOU is blocked meanwhile, so this works from the
  /// background too.
  pub(crate) fn give(&self, group: Pid) -> io::Result<()> {
    // SAFETY: tcsetpgrp on our own descriptor.
    let result = without_sigttou(|| check(unsafe { libc::tcsetpgrp(self.fd, group) }));
    match result {
      Err(error) if group_is_gone(&error) => Ok(()),
      result => result.map(drop),
    }
  }

  /// Make `just`'s own group the foreground group again.
  pub(crate) fn take_back(&self) -> io::Result<()> {
    // SAFETY: tcsetpgrp on our own descriptor with our own group.
    without_sigttou(|| check(unsafe { libc::tcsetpgrp(self.fd, libc::getpgrp()) })).map(drop)
  }
}

impl Drop for Terminal {
  fn drop(&mut self) {
    // SAFETY: closing the descriptor this value owns. Nothing is left to
    // report a failure to.
    unsafe { libc::close(self.fd) };
  }
}
