//! How a child process ended, and the exit status `just` reports for it:
//! the child's own code, or 128 + the signal that killed it, as shells do.

use std::process::ExitStatus;

/// The status of a process killed by `signal`.
pub(crate) const fn signal_status(signal: i32) -> i32 {
  128 + signal
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
  Code(i32),
  Signal(i32),
  /// Neither a code nor a signal (a stopped process).
  Unknown,
}

impl Exit {
  pub(crate) fn of(status: ExitStatus) -> Exit {
    match (status.code(), signal_of(status)) {
      (Some(code), _) => Exit::Code(code),
      (None, Some(signal)) => Exit::Signal(signal),
      (None, None) => Exit::Unknown,
    }
  }

  /// The status `just` exits with: the code, 128 + the signal, else 1.
  pub(crate) fn status(self) -> i32 {
    match self {
      Exit::Code(code) => code,
      Exit::Signal(signal) => signal_status(signal),
      Exit::Unknown => 1,
    }
  }
}

#[cfg(unix)]
fn signal_of(status: ExitStatus) -> Option<i32> {
  use std::os::unix::process::ExitStatusExt;
  status.signal()
}

#[cfg(not(unix))]
fn signal_of(_status: ExitStatus) -> Option<i32> {
  None
}
