//! Where the run's processes start, signalling them, and waiting, for the
//! supervisor. Every libc result is checked: an error either is the answer
//! (a group that no longer exists) or is returned.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};

pub(crate) use super::descendants::{descendants, own_job_is_only_ours};
pub(crate) use super::pid::Pid;
pub(crate) use super::starting::{starting, Starting};

/// Signals the supervisor sends itself: to end a run, and to end what is
/// left of it after a grace period.
pub(crate) const TERMINATE: i32 = libc::SIGTERM;
pub(crate) const KILL: i32 = libc::SIGKILL;

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

/// The children's own process group, named by its leader's id (the
/// supervisor keeps the leader unreaped while it holds the group). Nothing
/// to release when it is dropped.
#[derive(Debug)]
pub(crate) struct Group(Pid);

impl Group {
  pub(crate) fn id(&self) -> Pid {
    self.0
  }
}

/// Start `command`: in process group `group`, or in a new group it leads
/// when None, which is returned; or, when `own_group` is false, in `just`'s
/// own group, as a shell starts the commands of one job. (Creation flags
/// are Windows'.) A script file just written can be briefly "busy"
/// (ETXTBSY) when another thread forked while its write descriptor was
/// open: that child holds the descriptor until its own exec, a matter of
/// milliseconds; the caller retries (see [`is_busy_text`]).
pub(crate) fn spawn(
  command: &mut Command,
  own_group: bool,
  group: Option<&Group>,
  _creation_flags: u32,
) -> io::Result<(Child, Option<Group>)> {
  if !own_group {
    return Ok((command.spawn()?, None));
  }
  command.process_group(group.map_or(0, Group::id));
  let child = command.spawn()?;
  let new = match group {
    Some(_) => None,
    None => Some(Group(Pid::try_from(child.id()).unwrap_or(Pid::MAX))),
  };
  Ok((child, new))
}

/// Whether a start failed only because the executable is still open for
/// writing somewhere (ETXTBSY), which passes.
pub(crate) fn is_busy_text(error: &io::Error) -> bool {
  is(error, libc::ETXTBSY)
}

/// Whether `just` has a controlling terminal, whose keys and hang-up signal
/// the whole foreground job: then recipes stay in `just`'s own process
/// group, in the job the shell made, as just 1.58 runs them.
pub(crate) fn has_controlling_terminal() -> bool {
  // SAFETY: open and close on a path constant; O_NOCTTY never acquires one.
  // A failure to close a descriptor only opened to look is nothing to act on.
  unsafe {
    let fd = libc::open(c"/dev/tty".as_ptr(), libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
    if fd == -1 {
      return false;
    }
    libc::close(fd);
    true
  }
}

/// Send `signal` to every process of `just`'s own process group.
pub(crate) fn signal_own_group(signal: i32) -> io::Result<bool> {
  // SAFETY: getpgrp cannot fail.
  signal_group_id(unsafe { libc::getpgrp() }, signal)
}

/// Send `signal` to process `pid`; false if it is gone.
pub(crate) fn signal_process(pid: Pid, signal: i32) -> io::Result<bool> {
  // SAFETY: plain kill(2) on a positive (process) id.
  match check(unsafe { libc::kill(pid, signal) }) {
    Ok(_) => Ok(true),
    Err(error) if is(&error, libc::ESRCH) => Ok(false),
    Err(error) => Err(error),
  }
}

/// Whether the run must keep `group` after no child of it runs: never on
/// Unix, where a process group needs nothing held (its leader is reaped by
/// the caller).
pub(crate) fn needs_keeping(_group: &Group) -> bool {
  false
}

/// Send `signal` to every process of `group`; false if none is left.
pub(crate) fn signal_group(group: &Group, signal: i32) -> io::Result<bool> {
  signal_group_id(group.id(), signal)
}

fn signal_group_id(group: Pid, signal: i32) -> io::Result<bool> {
  // SAFETY: plain kill(2) on a negative (group) id.
  match check(unsafe { libc::kill(-group, signal) }) {
    Ok(_) => Ok(true),
    Err(error) if is(&error, libc::ESRCH) => Ok(false),
    Err(error) => Err(error),
  }
}

/// Whether any process of `group` is still alive (zombies included).
pub(crate) fn group_alive(group: &Group) -> io::Result<bool> {
  signal_group(group, 0)
}

/// Wait for child `pid` to end, and reap it.
pub(crate) fn wait(pid: Pid) -> io::Result<ExitStatus> {
  use std::os::unix::process::ExitStatusExt;
  loop {
    let mut status: libc::c_int = 0;
    // SAFETY: waitpid writes the status into a local.
    match check(unsafe { libc::waitpid(pid, &raw mut status, 0) }) {
      Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
      Err(error) => return Err(error),
      Ok(_) => return Ok(ExitStatus::from_raw(status)),
    }
  }
}

/// Wait for child `pid` to end, leaving it unreaped: as long as it is a
/// zombie its id, which names its process group, cannot be reused, so the
/// group can be signalled and joined safely. [`reap`] it afterwards.
pub(crate) fn wait_unreaped(pid: Pid) -> io::Result<ExitStatus> {
  use std::os::unix::process::ExitStatusExt;
  let id = libc::id_t::try_from(pid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
  loop {
    // SAFETY: waitid writes into a local siginfo.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: as above; WNOWAIT leaves the child waitable.
    match check(unsafe {
      libc::waitid(libc::P_PID, id, &raw mut info, libc::WEXITED | libc::WNOWAIT)
    }) {
      Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
      Err(error) => return Err(error),
      Ok(_) => {
        // SAFETY: waitid filled in a child's status.
        let status = unsafe { child_status(&info) };
        let raw = match info.si_code {
          libc::CLD_EXITED => (status & 0xff) << 8,
          libc::CLD_DUMPED => (status & 0x7f) | 0x80,
          _ => status & 0x7f,
        };
        return Ok(ExitStatus::from_raw(raw));
      }
    }
  }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
unsafe fn child_status(info: &libc::siginfo_t) -> libc::c_int {
  // SAFETY: the caller's siginfo comes from waitid.
  unsafe { info.si_status() }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
unsafe fn child_status(info: &libc::siginfo_t) -> libc::c_int {
  info.si_status
}

/// Reap a child that [`wait_unreaped`] saw end.
pub(crate) fn reap(pid: Pid) -> io::Result<()> {
  wait(pid).map(drop)
}

/// End the process at once with `status`, running nothing else: what a
/// fatal signal does while `just` has nothing to clean up.
pub(crate) fn exit_now(status: i32) -> ! {
  // SAFETY: _exit(2) ends the process.
  unsafe { libc::_exit(status) }
}
