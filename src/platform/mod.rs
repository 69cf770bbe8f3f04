//! What depends on the operating system: signal handling (console control
//! events on Windows), the process supervisor (process groups, the
//! terminal, job control; Job Objects on Windows), child exit statuses,
//! permission bits, file locks and file replacement, the standard streams,
//! and how a shell gets its command line. Everything else in the crate is
//! the same on every platform. The supervisor (`supervisor.rs`) and the
//! signal wiring are written against `os`, the operating system's module
//! (`unix/`, `windows/`), which each provide the same functions.

#[cfg(unix)]
#[path = "unix/mod.rs"]
mod os;
#[cfg(windows)]
#[path = "windows/mod.rs"]
mod os;

pub(crate) mod command;
pub(crate) mod exit;
pub(crate) use os::dir;
mod entry_kind;
pub(crate) use os::fs;
pub(crate) mod mode;
pub(crate) use os::pipe;
pub(crate) mod signals;
pub(crate) mod stack;
pub(crate) mod stdio;
mod stream;
pub(crate) mod supervisor;
pub(crate) mod watcher;

/// Whether `just` is built for Windows, where `set windows-shell` and
/// `set windows-powershell` choose the shell.
pub(crate) const WINDOWS: bool = cfg!(windows);

/// Start-up work the standard library's runtime would otherwise do.
///
/// # Safety
///
/// `argv` holds `argc` valid NUL-terminated strings, as C's `main` gets.
pub(crate) unsafe fn prepare_process(argc: std::ffi::c_int, argv: *const *const std::ffi::c_char) {
  // SAFETY: as the caller promises.
  unsafe { os::start::prepare(argc, argv) };
}

/// Whether the jobserver descriptors a parent names in `MAKEFLAGS` were its
/// open pipe when `just` started (true when it names none): a parent that
/// names them but closed them leaves their numbers to `just`'s own pipes.
pub(crate) fn parent_jobserver_usable() -> bool {
  os::jobserver::parent_descriptors_usable()
}

/// A helper that must outlive an interrupted `just` to clean up after it
/// ignores the interruptions the terminal sends the whole process group.
#[cfg_attr(not(feature = "network-stores"), allow(dead_code))]
pub(crate) fn ignore_interrupts() {
  os::start::ignore_interrupts();
}

/// The process's command line, program name first.
pub(crate) fn arguments() -> Vec<std::ffi::OsString> {
  os::start::arguments()
}

/// The process's command line, program name first, for the one reader that
/// keeps it (the run); `arguments` afterwards may not see it.
pub(crate) fn take_arguments() -> Vec<std::ffi::OsString> {
  os::start::take_arguments()
}
