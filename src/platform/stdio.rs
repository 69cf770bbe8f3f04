//! Checked writes to the standard streams. Every byte `just` prints goes
//! through here, so no write error (a full disk, an I/O error, a closed
//! descriptor) is lost. A broken pipe is not an error: the reader has seen
//! all it wanted (`just --list | head -1`).

use std::fs::File;
use std::io::{self, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;

/// Write `text` to standard output.
pub fn stdout(text: &str) -> io::Result<()> {
  write_bytes(libc::STDOUT_FILENO, text.as_bytes())
}

/// Write `text` to standard error.
pub fn stderr(text: &str) -> io::Result<()> {
  write_bytes(libc::STDERR_FILENO, text.as_bytes())
}

/// Write raw `bytes` (a child's output, say) to standard output.
pub fn stdout_bytes(bytes: &[u8]) -> io::Result<()> {
  write_bytes(libc::STDOUT_FILENO, bytes)
}

/// Write raw `bytes` to standard error.
pub fn stderr_bytes(bytes: &[u8]) -> io::Result<()> {
  write_bytes(libc::STDERR_FILENO, bytes)
}

/// Write `text` and a line end to standard error.
pub fn stderr_line(text: &str) -> io::Result<()> {
  stderr(&format!("{text}\n"))
}

/// Standard output for a long text written in pieces, unbuffered. Unlike
/// `stdout`, it reports a broken pipe, so that the writer writes nothing
/// more; pass the final result through `quiet_on_broken_pipe`.
pub struct PiecewiseStdout;

impl Write for PiecewiseStdout {
  fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
    borrowed_file(libc::STDOUT_FILENO).write(bytes)
  }

  fn flush(&mut self) -> io::Result<()> {
    Ok(())
  }
}

/// Write straight to the descriptor, unbuffered: `std::io::stdout` would
/// report a closed descriptor (EBADF) as success.
fn write_bytes(descriptor: libc::c_int, bytes: &[u8]) -> io::Result<()> {
  quiet_on_broken_pipe(borrowed_file(descriptor).write_all(bytes))
}

fn borrowed_file(descriptor: libc::c_int) -> ManuallyDrop<File> {
  // SAFETY: the descriptor is only borrowed (never closed: `ManuallyDrop`);
  // if it is not open, a write reports EBADF.
  ManuallyDrop::new(unsafe { File::from_raw_fd(descriptor) })
}

/// A broken pipe is not an error: the reader has seen all it wanted.
pub fn quiet_on_broken_pipe(result: io::Result<()>) -> io::Result<()> {
  match result {
    Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
    result => result,
  }
}
