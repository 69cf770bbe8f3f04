//! Checked writes to the standard streams. Every byte `just` prints goes
//! through here, so no write error (a full disk, an I/O error, a closed
//! descriptor) is lost. A broken pipe is not an error: the reader has seen
//! all it wanted (`just --list | head -1`).

use std::io::{self, Write};

use super::os::streams;
use super::stream::Stream;

/// Write `text` to standard output.
pub(crate) fn stdout(text: &str) -> io::Result<()> {
  write_bytes(Stream::Stdout, text.as_bytes())
}

/// Write `text` to standard error.
pub(crate) fn stderr(text: &str) -> io::Result<()> {
  write_bytes(Stream::Stderr, text.as_bytes())
}

/// Write raw `bytes` (a child's output, say) to standard output.
pub(crate) fn stdout_bytes(bytes: &[u8]) -> io::Result<()> {
  write_bytes(Stream::Stdout, bytes)
}

/// Write raw `bytes` to standard error.
pub(crate) fn stderr_bytes(bytes: &[u8]) -> io::Result<()> {
  write_bytes(Stream::Stderr, bytes)
}

/// Write `text` and a line end to standard error.
pub(crate) fn stderr_line(text: &str) -> io::Result<()> {
  stderr(&format!("{text}\n"))
}

/// Standard output for a long text written in pieces, unbuffered. Unlike
/// `stdout`, it reports a broken pipe, so that the writer writes nothing
/// more; pass the final result through `quiet_on_broken_pipe`.
pub(crate) struct PiecewiseStdout;

impl Write for PiecewiseStdout {
  fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
    streams::write(Stream::Stdout, bytes)
  }

  fn flush(&mut self) -> io::Result<()> {
    Ok(())
  }
}

/// Writes straight to the operating system, unbuffered: `std::io::stdout`
/// would report a closed descriptor as success.
struct Unbuffered(Stream);

impl Write for Unbuffered {
  fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
    streams::write(self.0, bytes)
  }

  fn flush(&mut self) -> io::Result<()> {
    Ok(())
  }
}

fn write_bytes(stream: Stream, bytes: &[u8]) -> io::Result<()> {
  quiet_on_broken_pipe(Unbuffered(stream).write_all(bytes))
}

/// A broken pipe is not an error: the reader has seen all it wanted.
pub(crate) fn quiet_on_broken_pipe(result: io::Result<()>) -> io::Result<()> {
  match result {
    Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
    result => result,
  }
}
