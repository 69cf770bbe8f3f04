//! Reading a child's output pipe until the child is done with it: until the
//! pipe closes, or, once its shell has exited, until what is already in the
//! pipe is read (a background process the recipe left running may keep the
//! pipe open for ever), or until the reader of the stream the output goes to
//! has gone away (a closed pipe: `just … | head -1`).

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};

/// At most this much is still read from a pipe after its shell exited: a
/// background process writing without pause cannot hold the recipe.
const DRAIN_LIMIT: usize = 1 << 20;

/// A child's output pipe.
pub(crate) trait ChildPipe: AsFd {}

impl<T: AsFd> ChildPipe for T {}

/// Where `just` passes a pipe's bytes on.
#[derive(Copy, Clone)]
pub(crate) enum Destination {
  Stdout,
  Stderr,
}

/// A one-shot signal that wakes every [`Source`] waiting on it: "the shell
/// has exited, read what is there and stop".
pub(crate) struct Stop {
  read: OwnedFd,
  write: OwnedFd,
}

impl Stop {
  pub(crate) fn new() -> io::Result<Self> {
    let fds = super::signal_thread::cloexec_pipe()?;
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    set_nonblocking(read.as_fd())?;
    set_nonblocking(write.as_fd())?;
    Ok(Stop { read, write })
  }

  /// Wake the readers. The byte is never read, so the signal stays raised.
  pub(crate) fn raise(&self) {
    // SAFETY: writes one byte from a local to a descriptor we own; a full
    // pipe (EAGAIN) means it is raised already.
    unsafe { libc::write(self.write.as_raw_fd(), b"!".as_ptr().cast(), 1) };
  }
}

/// One of a child's output pipes, read on behalf of `destination` (1 or 2).
pub(crate) struct Source<'a, P: AsFd> {
  pipe: P,
  stop: &'a Stop,
  destination: RawFd,
  /// Bytes read since the stop was raised, or None before.
  drained: Option<usize>,
}

impl<'a, P: AsFd> Source<'a, P> {
  pub(crate) fn new(pipe: P, stop: &'a Stop, destination: Destination) -> io::Result<Self> {
    set_nonblocking(pipe.as_fd())?;
    let destination = match destination {
      Destination::Stdout => libc::STDOUT_FILENO,
      Destination::Stderr => libc::STDERR_FILENO,
    };
    Ok(Source { pipe, stop, destination, drained: None })
  }

  /// The next bytes of the pipe, or None when the child is done with it or
  /// nobody reads the destination any more. Dropping the source then closes
  /// the pipe, so a child still writing gets SIGPIPE, as it would writing to
  /// the closed destination itself.
  pub(crate) fn read(&mut self, buffer: &mut [u8]) -> io::Result<Option<usize>> {
    loop {
      if self.drained.is_none() {
        match self.wait()? {
          Wake::Data => {}
          Wake::Stop => self.drained = Some(0),
          Wake::ReaderGone => return Ok(None),
        }
      }
      // SAFETY: reads into the caller's buffer, within its length.
      let count = unsafe {
        libc::read(self.pipe.as_fd().as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len())
      };
      if count < 0 {
        let error = io::Error::last_os_error();
        match error.kind() {
          io::ErrorKind::Interrupted => continue,
          io::ErrorKind::WouldBlock if self.drained.is_none() => continue,
          io::ErrorKind::WouldBlock => return Ok(None),
          _ => return Err(error),
        }
      }
      let count = count as usize;
      if count == 0 {
        return Ok(None);
      }
      if let Some(drained) = &mut self.drained {
        if *drained >= DRAIN_LIMIT {
          return Ok(None);
        }
        *drained += count;
      }
      return Ok(Some(count));
    }
  }

  /// Block until the pipe has data (or closed), the stop is raised, or the
  /// destination lost its reader.
  fn wait(&self) -> io::Result<Wake> {
    let mut fds = [
      poll_fd(self.pipe.as_fd(), libc::POLLIN),
      poll_fd(self.stop.read.as_fd(), libc::POLLIN),
      libc::pollfd { fd: self.destination, events: 0, revents: 0 },
    ];
    loop {
      // SAFETY: polls a local array of initialised entries, its length given.
      let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) };
      if ready >= 0 {
        break;
      }
      let error = io::Error::last_os_error();
      if error.kind() != io::ErrorKind::Interrupted {
        return Err(error);
      }
    }
    if fds[2].revents & (libc::POLLERR | libc::POLLHUP) != 0 {
      return Ok(Wake::ReaderGone);
    }
    if fds[0].revents != 0 {
      return Ok(Wake::Data);
    }
    Ok(if fds[1].revents != 0 { Wake::Stop } else { Wake::Data })
  }
}

enum Wake {
  Data,
  Stop,
  ReaderGone,
}

fn poll_fd(fd: BorrowedFd<'_>, events: libc::c_short) -> libc::pollfd {
  libc::pollfd { fd: fd.as_raw_fd(), events, revents: 0 }
}

fn set_nonblocking(fd: BorrowedFd<'_>) -> io::Result<()> {
  // SAFETY: reads and sets the status flags of a descriptor we hold.
  unsafe {
    let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
    if flags < 0 || libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
      return Err(io::Error::last_os_error());
    }
  }
  Ok(())
}

/// Write all of `bytes` to `destination`, unless `stop` is raised while it
/// cannot take them: a reader that stopped reading (a paused pager, a
/// stopped job) must not hold `just` once the run is interrupted. To a pipe, each write follows a
/// poll that says it can take at least `PIPE_BUF` bytes and writes no more,
/// so it never blocks; to a socket, writes do not wait; anything else (a
/// terminal, a file) is written as usual. A reader that went away ends the
/// write quietly, as a broken pipe does everywhere.
pub(crate) fn write_unless_stopped(
  destination: Destination,
  bytes: &[u8],
  stop: &Stop,
) -> io::Result<()> {
  let (fd, kind) = match destination {
    Destination::Stdout => (libc::STDOUT_FILENO, kind_of(libc::STDOUT_FILENO, &STDOUT_KIND)),
    Destination::Stderr => (libc::STDERR_FILENO, kind_of(libc::STDERR_FILENO, &STDERR_KIND)),
  };
  if kind == Kind::Other {
    return write_all_blocking(fd, bytes);
  }
  let mut rest = bytes;
  while !rest.is_empty() {
    let mut fds = [
      libc::pollfd { fd, events: libc::POLLOUT, revents: 0 },
      poll_fd(stop.read.as_fd(), libc::POLLIN),
    ];
    // SAFETY: polls a local array of initialised entries, its length given.
    if unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) } < 0 {
      let error = io::Error::last_os_error();
      if error.kind() == io::ErrorKind::Interrupted {
        continue;
      }
      return Err(error);
    }
    if fds[0].revents & (libc::POLLERR | libc::POLLHUP) != 0 {
      return Ok(());
    }
    // A reader still reading gets the bytes, stopped run or not (a recipe
    // may go on past the signal); only what would wait for it is dropped.
    if fds[0].revents & libc::POLLOUT == 0 {
      if fds[1].revents != 0 {
        return Ok(());
      }
      continue;
    }
    let count = rest.len().min(libc::PIPE_BUF);
    // SAFETY: writes `count` bytes of the caller's slice, within its length.
    let written = unsafe {
      match kind {
        Kind::Socket => libc::send(fd, rest.as_ptr().cast(), count, libc::MSG_DONTWAIT | NO_SIGNAL),
        _ => libc::write(fd, rest.as_ptr().cast(), count),
      }
    };
    if written < 0 {
      let error = io::Error::last_os_error();
      match error.kind() {
        io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock => continue,
        io::ErrorKind::BrokenPipe => return Ok(()),
        _ => return Err(error),
      }
    }
    rest = &rest[usize::try_from(written).unwrap_or(0)..];
  }
  Ok(())
}

#[cfg(any(target_os = "linux", target_os = "android"))]
const NO_SIGNAL: libc::c_int = libc::MSG_NOSIGNAL;
// SIGPIPE is ignored for the whole process anyway (`start.rs`).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const NO_SIGNAL: libc::c_int = 0;

fn write_all_blocking(fd: RawFd, bytes: &[u8]) -> io::Result<()> {
  let mut rest = bytes;
  while !rest.is_empty() {
    // SAFETY: writes from the caller's slice, within its length.
    let written = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
    if written < 0 {
      let error = io::Error::last_os_error();
      match error.kind() {
        io::ErrorKind::Interrupted => continue,
        io::ErrorKind::BrokenPipe => return Ok(()),
        _ => return Err(error),
      }
    }
    if written == 0 {
      return Err(io::ErrorKind::WriteZero.into());
    }
    rest = &rest[usize::try_from(written).unwrap_or(0)..];
  }
  Ok(())
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
  Pipe,
  Socket,
  Other,
}

static STDOUT_KIND: std::sync::OnceLock<Kind> = std::sync::OnceLock::new();
static STDERR_KIND: std::sync::OnceLock<Kind> = std::sync::OnceLock::new();

/// What kind of file a standard stream is, looked up once.
fn kind_of(fd: RawFd, cache: &std::sync::OnceLock<Kind>) -> Kind {
  *cache.get_or_init(|| {
    // SAFETY: fstat writes into a local.
    let mode = unsafe {
      let mut stat: libc::stat = std::mem::zeroed();
      if libc::fstat(fd, &raw mut stat) != 0 {
        return Kind::Other;
      }
      stat.st_mode & libc::S_IFMT
    };
    match mode {
      libc::S_IFIFO => Kind::Pipe,
      libc::S_IFSOCK => Kind::Socket,
      _ => Kind::Other,
    }
  })
}

/// How many descriptors the process may have open (its soft limit), or a
/// large number when unlimited or unknown.
pub(crate) fn open_file_limit() -> usize {
  // SAFETY: getrlimit writes into a local.
  let limit = unsafe {
    let mut limit: libc::rlimit = std::mem::zeroed();
    if libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) != 0 {
      return usize::MAX;
    }
    limit.rlim_cur
  };
  usize::try_from(limit).unwrap_or(usize::MAX)
}
