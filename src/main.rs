//! The `just` executable. It starts from the C `main` rather than through
//! the standard library's runtime set-up, whose main-thread stack-guard probe
//! (parsing `/proc/self/maps`) costs more than `just --version` otherwise
//! does; the parts of that set-up `just` relies on are done here. `just` runs
//! on a thread with a large stack of its own (`just::run`).
#![no_main]

use std::ffi::{c_char, c_int};

#[unsafe(no_mangle)]
extern "C" fn main(_argc: c_int, _argv: *const *const c_char) -> c_int {
  open_closed_standard_streams();
  ignore_sigpipe();
  // `exit` flushes standard output, as returning from a Rust `main` would.
  std::process::exit(just::run());
}

/// A standard stream that is closed gets `/dev/null`, so that no file opened
/// later takes its descriptor and is read or written by recipes by mistake.
fn open_closed_standard_streams() {
  let mut streams = [0, 1, 2].map(|fd| libc::pollfd { fd, events: 0, revents: 0 });
  // SAFETY: `poll` reads and writes only the three initialised entries.
  let polled = unsafe { libc::poll(streams.as_mut_ptr(), 3, 0) };
  if polled < 0 {
    return;
  }
  for stream in streams {
    if stream.revents & libc::POLLNVAL != 0 {
      // SAFETY: a plain `open` of a constant, NUL-terminated path; the lowest
      // free descriptor is the closed stream's.
      unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
    }
  }
}

/// Writing to a closed pipe is an error to report, not a signal that kills
/// `just`; children get the default disposition back when spawned.
fn ignore_sigpipe() {
  // SAFETY: installs the `SIG_IGN` disposition; no handler code runs.
  unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}
