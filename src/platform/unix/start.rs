//! What the standard library's runtime set-up would have done at start-up
//! that `just` relies on (Unix).

/// A standard stream that is closed gets `/dev/null`, so that no file opened
/// later takes its descriptor and is read or written by recipes by mistake;
/// writing to a closed pipe is an error to report, not a signal that kills
/// `just` (children get the default disposition back when spawned).
pub fn prepare() {
  open_closed_standard_streams();
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
