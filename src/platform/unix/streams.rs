//! Unbuffered writes to the standard streams' descriptors (Unix).

use std::fs::File;
use std::io::{self, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;

use crate::platform::stream::Stream;

/// Write some of `bytes` straight to the descriptor: `std::io::stdout`
/// would report a closed descriptor (EBADF) as success.
pub(crate) fn write(stream: Stream, bytes: &[u8]) -> io::Result<usize> {
  let descriptor = match stream {
    Stream::Stdout => libc::STDOUT_FILENO,
    Stream::Stderr => libc::STDERR_FILENO,
  };
  // SAFETY: the descriptor is only borrowed (never closed: `ManuallyDrop`);
  // if it is not open, a write reports EBADF.
  let mut file = ManuallyDrop::new(unsafe { File::from_raw_fd(descriptor) });
  file.write(bytes)
}
