//! Whether the jobserver descriptors a parent names are really its pipe.
//!
//! A `make -jN` rule without `+` (or any parent) may put
//! `--jobserver-auth=R,W` in `MAKEFLAGS` and yet close descriptors R and W
//! before starting `just`. `just` then opens descriptors of its own (the
//! signal self-pipe first) which take those numbers, and a check made later
//! would find a pipe there and take it for the parent's token pool: the
//! pool's reader would eat signals. So the descriptors are looked at once,
//! at start-up, before `just` opens anything.

use std::sync::atomic::{AtomicU8, Ordering};

/// Nothing named, or a named FIFO (a path, which no descriptor of ours can
/// take the place of); checked later by the jobserver client.
const UNCHECKED: u8 = 0;
const OPEN_PIPES: u8 = 1;
const NOT_PIPES: u8 = 2;

static PARENT_DESCRIPTORS: AtomicU8 = AtomicU8::new(UNCHECKED);

/// Look at the descriptors the environment names, before `just` opens any.
pub(crate) fn record_parent_descriptors() {
  let Some((read, write)) = named_descriptors() else {
    return;
  };
  let state = if is_pipe(read) && is_pipe(write) { OPEN_PIPES } else { NOT_PIPES };
  PARENT_DESCRIPTORS.store(state, Ordering::Relaxed);
}

/// Whether the descriptors the parent named were open pipes or FIFOs at
/// start-up (true when none were named).
pub(crate) fn parent_descriptors_usable() -> bool {
  PARENT_DESCRIPTORS.load(Ordering::Relaxed) != NOT_PIPES
}

/// The `R,W` of `--jobserver-auth=R,W` (or the older `--jobserver-fds=`, the
/// last of either) in the first of `CARGO_MAKEFLAGS`, `MAKEFLAGS` and
/// `MFLAGS` that is set, as the jobserver client reads them.
fn named_descriptors() -> Option<(i32, i32)> {
  let flags = ["CARGO_MAKEFLAGS", "MAKEFLAGS", "MFLAGS"].iter().find_map(std::env::var_os)?;
  let flags = flags.to_str()?;
  let auth = ["--jobserver-auth=", "--jobserver-fds="].iter().find_map(|prefix| {
    flags.rsplit_once(prefix).map(|(_, rest)| rest.split_ascii_whitespace().next().unwrap_or(""))
  })?;
  let (read, write) = auth.split_once(',')?;
  let (read, write) = (read.parse::<i32>().ok()?, write.parse::<i32>().ok()?);
  (read >= 0 && write >= 0).then_some((read, write))
}

/// Whether `fd` is an open pipe or FIFO.
fn is_pipe(fd: i32) -> bool {
  // SAFETY: an all-zero `stat` is a valid value of the plain C struct.
  let mut stat: libc::stat = unsafe { std::mem::zeroed() };
  // SAFETY: `fstat` writes only into the local buffer; any descriptor
  // number is safe to ask about.
  if unsafe { libc::fstat(fd, &raw mut stat) } != 0 {
    return false;
  }
  stat.st_mode & libc::S_IFMT == libc::S_IFIFO
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn a_pipe_is_a_pipe_and_a_closed_descriptor_is_not() {
    let [read, write] = super::super::signal_thread::cloexec_pipe().expect("pipe");
    assert!(is_pipe(read) && is_pipe(write));
    // SAFETY: closing the descriptors this test opened.
    unsafe {
      libc::close(read);
      libc::close(write);
    }
    assert!(!is_pipe(read));
    let file = std::fs::File::open("/dev/null").expect("open /dev/null");
    assert!(!is_pipe(std::os::fd::AsRawFd::as_raw_fd(&file)));
  }
}
