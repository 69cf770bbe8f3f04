//! What depends on the operating system: signal handling (console control
//! events on Windows) and stopping process trees, child exit statuses,
//! permission bits, file locks and file replacement, the standard streams,
//! and how a shell gets its command line. Everything else in the crate is
//! the same on every platform; each module here offers one interface with
//! a Unix and a Windows implementation (`unix/`, `windows/`, and
//! `signals.rs`, the Unix signal handling).

#[cfg(unix)]
#[path = "unix/mod.rs"]
mod os;
#[cfg(windows)]
#[path = "windows/mod.rs"]
mod os;

pub mod command;
pub mod exit;
pub use os::fs;
#[cfg(unix)]
pub mod signals;
#[cfg(windows)]
pub use os::signals;
pub mod stdio;

/// Whether `just` is built for Windows, where `set windows-shell` and
/// `set windows-powershell` choose the shell.
pub const WINDOWS: bool = cfg!(windows);

/// Start-up work the standard library's runtime would otherwise do.
pub fn prepare_process() {
  os::start::prepare();
}
