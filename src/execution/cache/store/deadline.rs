//! The helper's deadline for each whole request. The HTTP client bounds
//! each wait (connecting, each read, each write), but a server that sends
//! one byte a second never lets a wait last, so a request could take as
//! long as the server liked. A watchdog thread ends the helper when a
//! request outlives `--cache-timeout` plus one second for each MiB it has
//! moved (so that large blobs on a working link still fit): the reply to
//! the request is then an error saying so, `just` warns once and goes on
//! without the store, which it never asks again in that run.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The transfer rate that earns a request more time: each `RATE` bytes
/// moved extend its deadline by one second.
const RATE: u64 = 1 << 20;

/// The deadline of the request in progress, shared with the watchdog.
pub(super) struct Deadline {
  timeout: Duration,
  /// When the request in progress started; `None` between requests.
  started: Mutex<Option<Instant>>,
  changed: Condvar,
  /// Bytes the request in progress has sent or received.
  moved: AtomicU64,
}

impl Deadline {
  /// A deadline of `timeout` per request, watched by a thread of its own.
  pub(super) fn watch(timeout: Duration) -> io::Result<Arc<Deadline>> {
    let deadline = Arc::new(Deadline {
      timeout,
      started: Mutex::new(None),
      changed: Condvar::new(),
      moved: AtomicU64::new(0),
    });
    let watched = deadline.clone();
    std::thread::Builder::new().name("deadline".into()).spawn(move || watched.watchdog())?;
    Ok(deadline)
  }

  fn started(&self) -> MutexGuard<'_, Option<Instant>> {
    self.started.lock().unwrap_or_else(PoisonError::into_inner)
  }

  /// A request starts now.
  pub(super) fn begin(&self) {
    self.moved.store(0, Ordering::Relaxed);
    *self.started() = Some(Instant::now());
    self.changed.notify_one();
  }

  /// The request is answered: write `reply` to standard output while the
  /// watchdog cannot write its own (always in this order: the deadline's
  /// lock, then standard output's).
  pub(super) fn end(&self, reply: &str) -> io::Result<()> {
    let mut started = self.started();
    *started = None;
    write_line(reply)
  }

  /// `reader`, counting what it reads as moved by the request.
  pub(super) fn counted<R: Read>(&self, reader: R) -> Counted<'_, R> {
    Counted { inner: reader, moved: &self.moved }
  }

  /// When the request that began at `started` expires; `None` for a
  /// timeout too large for the clock, which is none.
  fn expiry(&self, started: Instant) -> Option<Instant> {
    let moved = self.moved.load(Ordering::Relaxed);
    started.checked_add(self.timeout)?.checked_add(Duration::from_secs(moved / RATE))
  }

  /// Wait for each request's deadline; end the process when one passes.
  fn watchdog(&self) {
    let mut started = self.started();
    loop {
      let current = *started;
      started = match current.and_then(|begun| self.expiry(begun)) {
        None => self.changed.wait(started).unwrap_or_else(PoisonError::into_inner),
        Some(expiry) => {
          let now = Instant::now();
          if now >= expiry {
            self.expire();
          }
          self.changed.wait_timeout(started, expiry - now).unwrap_or_else(PoisonError::into_inner).0
        }
      };
    }
  }

  /// The request took too long: answer it with an error and end the
  /// process, which ends the request wherever it waits. Called with the
  /// lock held, so the request's own reply cannot follow.
  fn expire(&self) -> ! {
    let seconds = self.timeout.as_secs();
    // Whether or not the reply reaches `just`, the helper ends: `just`
    // takes the end of its output for a failed request too.
    let _ = write_line(&format!("error timed out after {seconds} s"));
    std::process::exit(1)
  }
}

/// Write `line` to standard output, flushed.
pub(super) fn write_line(line: &str) -> io::Result<()> {
  let mut out = io::stdout().lock();
  writeln!(out, "{line}").and_then(|()| out.flush())
}

/// A reader whose bytes count as moved by the request.
pub(super) struct Counted<'a, R> {
  inner: R,
  moved: &'a AtomicU64,
}

impl<R: Read> Read for Counted<'_, R> {
  fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
    let count = self.inner.read(buffer)?;
    self.moved.fetch_add(count as u64, Ordering::Relaxed);
    Ok(count)
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn deadline(timeout: Duration) -> Deadline {
    Deadline {
      timeout,
      started: Mutex::new(None),
      changed: Condvar::new(),
      moved: AtomicU64::new(0),
    }
  }

  #[test]
  fn each_mib_moved_adds_a_second() {
    let deadline = deadline(Duration::from_secs(2));
    let started = Instant::now();
    assert_eq!(deadline.expiry(started), Some(started + Duration::from_secs(2)));
    let moved = vec![0u8; 3 << 19];
    let mut counted = deadline.counted(&moved[..]);
    io::copy(&mut counted, &mut io::sink()).unwrap();
    assert_eq!(deadline.expiry(started), Some(started + Duration::from_secs(3)));
  }

  #[test]
  fn a_timeout_too_large_for_the_clock_never_expires() {
    assert_eq!(deadline(Duration::from_secs(u64::MAX)).expiry(Instant::now()), None);
  }
}
