//! What the standard library's runtime set-up would have done at start-up
//! that `just` relies on (Unix).

use std::ffi::{c_char, c_int, CStr, OsString};
use std::os::unix::ffi::OsStringExt;
use std::sync::Mutex;

/// The command line C's `main` was given: the standard library reads it at
/// start-up only with glibc, not with musl, whose static binaries would
/// otherwise see no arguments at all.
static ARGUMENTS: Mutex<Option<Vec<OsString>>> = Mutex::new(None);

/// Records the command line; a standard stream that is closed gets
/// `/dev/null`, so that no file opened later takes its descriptor and is
/// read or written by recipes by mistake; writing to a closed pipe is an
/// error to report, not a signal that kills `just` (children get the
/// default disposition back when spawned); which jobserver descriptors a
/// parent left open is noted before `just` opens any of its own.
///
/// # Safety
///
/// `argv` holds `argc` valid NUL-terminated strings, as C's `main` gets.
pub(crate) unsafe fn prepare(argc: c_int, argv: *const *const c_char) {
  // SAFETY: as the caller promises.
  unsafe { record_arguments(argc, argv) };
  open_closed_standard_streams();
  super::jobserver::record_parent_descriptors();
  // SAFETY: installs the `SIG_IGN` disposition; no handler code runs.
  unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}

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

/// # Safety
///
/// As for [`prepare`].
unsafe fn record_arguments(argc: c_int, argv: *const *const c_char) {
  if argv.is_null() {
    return;
  }
  let count = usize::try_from(argc).unwrap_or(0);
  // SAFETY: `argv` has `argc` entries, each a NUL-terminated string.
  let arguments = (0..count)
    .map(|i| unsafe { *argv.add(i) })
    .take_while(|argument| !argument.is_null())
    .map(|argument| OsString::from_vec(unsafe { CStr::from_ptr(argument) }.to_bytes().to_vec()))
    .collect();
  *ARGUMENTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(arguments);
}

/// The process's command line.
pub(crate) fn arguments() -> Vec<OsString> {
  let recorded = ARGUMENTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
  recorded.unwrap_or_else(|| std::env::args_os().collect())
}

/// The process's command line, handed over without a copy; later calls get
/// it from the standard library (glibc) or nothing (musl).
pub(crate) fn take_arguments() -> Vec<OsString> {
  let recorded = ARGUMENTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
  recorded.unwrap_or_else(|| std::env::args_os().collect())
}

/// A helper that outlives an interrupted `just` long enough to clean up
/// after it (the Remote Execution API store cancels the actions in flight
/// once `just` closes its input): the terminal's SIGINT, SIGQUIT and SIGHUP,
/// sent to the whole process group, and SIGTERM are ignored.
pub(crate) fn ignore_interrupts() {
  for signal in [libc::SIGINT, libc::SIGQUIT, libc::SIGHUP, libc::SIGTERM] {
    // SAFETY: installs the `SIG_IGN` disposition; no handler code runs.
    unsafe { libc::signal(signal, libc::SIG_IGN) };
  }
}
