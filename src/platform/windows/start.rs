//! Start-up (Windows): consoles learn ANSI colours.

use windows_sys::Win32::System::Console::{
  GetConsoleMode, GetStdHandle, SetConsoleMode, ENABLE_VIRTUAL_TERMINAL_PROCESSING,
  STD_ERROR_HANDLE, STD_OUTPUT_HANDLE,
};

/// Turns on virtual-terminal processing for standard output and error when
/// they are consoles, so that colours and styles (ANSI escapes) show as
/// such; where a console cannot (before Windows 10), it stays as it was.
///
/// # Safety
///
/// Nothing to promise: C's arguments are not read (Windows keeps the
/// command line as UTF-16, [`arguments`]).
pub(crate) unsafe fn prepare(_argc: std::ffi::c_int, _argv: *const *const std::ffi::c_char) {
  for id in [STD_OUTPUT_HANDLE, STD_ERROR_HANDLE] {
    // SAFETY: queries and sets the mode of a standard handle, with a local
    // out-parameter; a handle that is not a console fails harmlessly.
    unsafe {
      let handle = GetStdHandle(id);
      let mut mode = 0;
      if GetConsoleMode(handle, &raw mut mode) != 0 {
        SetConsoleMode(handle, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
      }
    }
  }
}

/// The process's command line.
pub(crate) fn arguments() -> Vec<std::ffi::OsString> {
  std::env::args_os().collect()
}

/// The process's command line (as `arguments`: nothing is kept to hand over).
pub(crate) fn take_arguments() -> Vec<std::ffi::OsString> {
  arguments()
}

/// Console control events reach every process of the console; a helper
/// that must outlive an interrupted `just` ignores them.
pub(crate) fn ignore_interrupts() {
  // SAFETY: `None` with `TRUE` makes this process ignore Ctrl-C.
  unsafe { windows_sys::Win32::System::Console::SetConsoleCtrlHandler(None, 1) };
}
