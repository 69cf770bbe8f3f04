//! Console control events, the Windows counterpart of the Unix signal
//! thread. Windows runs a console control handler on a thread of its own,
//! so the handler is that thread: it hands Ctrl-C and Ctrl-Break to
//! `deliver` as SIGINT, and closing the console, logging off or shutting
//! down as SIGHUP. Every process attached to the console gets the event,
//! children included, so nothing is forwarded to them.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};

use windows_sys::core::BOOL;
use windows_sys::Win32::Foundation::{FALSE, TRUE};
use windows_sys::Win32::System::Console::{
  SetConsoleCtrlHandler, CTRL_BREAK_EVENT, CTRL_CLOSE_EVENT, CTRL_C_EVENT, CTRL_LOGOFF_EVENT,
  CTRL_SHUTDOWN_EVENT,
};

use super::signal_table::{SIGHUP, SIGINT};

static DELIVER: OnceLock<fn(i32, bool)> = OnceLock::new();
/// Whether a thread waits for an event ([`wait_for_any`]) rather than runs.
static WAITING: AtomicBool = AtomicBool::new(false);
static DELIVERED: AtomicI32 = AtomicI32::new(0);
static WAKE: (Mutex<()>, Condvar) = (Mutex::new(()), Condvar::new());

fn signal_of_event(event: u32) -> Option<i32> {
  match event {
    CTRL_C_EVENT | CTRL_BREAK_EVENT => Some(SIGINT),
    CTRL_CLOSE_EVENT | CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT => Some(SIGHUP),
    _ => None,
  }
}

unsafe extern "system" fn handle(event: u32) -> BOOL {
  let Some(signal) = signal_of_event(event) else {
    return FALSE;
  };
  if WAITING.load(Ordering::SeqCst) {
    let _lock = WAKE.0.lock().unwrap_or_else(PoisonError::into_inner);
    DELIVERED.store(signal, Ordering::SeqCst);
    WAKE.1.notify_all();
  } else if let Some(deliver) = DELIVER.get() {
    deliver(signal, false);
  }
  TRUE
}

fn install_handler() -> io::Result<()> {
  // SAFETY: registers a handler that only touches atomics and locks, and
  // calls `deliver`, which may end the process.
  if unsafe { SetConsoleCtrlHandler(Some(handle), TRUE) } == 0 {
    return Err(io::Error::last_os_error());
  }
  Ok(())
}

/// Start handing console events to `deliver`.
pub(crate) fn start(deliver: fn(i32, bool)) -> io::Result<()> {
  let _ = DELIVER.set(deliver);
  install_handler()
}

/// The handler delivers each event itself, on its own thread, before the
/// children it reached can end: there is never an event to take early.
pub(crate) fn take_arrival(_signal: i32) -> bool {
  true
}

/// See [`take_arrival`].
pub(crate) fn take_arrived() -> Vec<i32> {
  Vec::new()
}

/// Console events are not delivered to the threads of the process: there is
/// nothing to block.
pub(crate) fn block_all_in_this_thread() -> io::Result<()> {
  Ok(())
}

/// Waits for a console event; returns its signal number.
pub(crate) fn wait_for_any() -> io::Result<i32> {
  WAITING.store(true, Ordering::SeqCst);
  install_handler()?;
  let mut lock = WAKE.0.lock().unwrap_or_else(PoisonError::into_inner);
  loop {
    match DELIVERED.swap(0, Ordering::SeqCst) {
      0 => lock = WAKE.1.wait(lock).unwrap_or_else(PoisonError::into_inner),
      signal => return Ok(signal),
    }
  }
}
