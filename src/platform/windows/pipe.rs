//! Reading a child's output pipe (Windows): until the pipe closes, or the
//! reader of the stream the output goes to has gone away (a write there
//! fails and ends the recipe's output). Anonymous pipes cannot be waited on
//! together with an event, so a background process the recipe left running
//! holds its output until it ends, as with just 1.58.

use std::io::{self, Read};

/// A child's output pipe.
pub(crate) trait ChildPipe: Read {}

impl<T: Read> ChildPipe for T {}

/// Where `just` passes a pipe's bytes on.
#[derive(Copy, Clone)]
pub(crate) enum Destination {
  Stdout,
  Stderr,
}

/// "The shell has exited": a blocking read of a pipe cannot be woken, so
/// nothing listens for it on Windows.
pub(crate) struct Stop;

impl Stop {
  pub(crate) fn new() -> io::Result<Self> {
    Ok(Stop)
  }

  pub(crate) fn raise(&self) {}
}

/// One of a child's output pipes.
pub(crate) struct Source<'a, P: ChildPipe> {
  pipe: P,
  _stop: &'a Stop,
}

impl<'a, P: ChildPipe> Source<'a, P> {
  pub(crate) fn new(pipe: P, stop: &'a Stop, _destination: Destination) -> io::Result<Self> {
    Ok(Source { pipe, _stop: stop })
  }

  /// The next bytes of the pipe, or None when it closed.
  pub(crate) fn read(&mut self, buffer: &mut [u8]) -> io::Result<Option<usize>> {
    loop {
      match self.pipe.read(buffer) {
        Ok(0) => return Ok(None),
        Ok(count) => return Ok(Some(count)),
        Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
        // A closed pipe is the end of the output.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => return Ok(None),
        Err(error) => return Err(error),
      }
    }
  }
}

/// Write all of `bytes` to `destination`. A write to a console or pipe
/// cannot be waited on together with an event on Windows, so the stop is
/// not listened for.
pub(crate) fn write_unless_stopped(
  destination: Destination,
  bytes: &[u8],
  _stop: &Stop,
) -> io::Result<()> {
  match destination {
    Destination::Stdout => crate::platform::stdio::stdout_bytes(bytes),
    Destination::Stderr => crate::platform::stdio::stderr_bytes(bytes),
  }
}

/// Windows has no small limit on open handles.
pub(crate) fn open_file_limit() -> usize {
  usize::MAX
}
