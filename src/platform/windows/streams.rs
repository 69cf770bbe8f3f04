//! Unbuffered writes to the standard streams' handles (Windows).

use std::fs::File;
use std::io::{self, Write};
use std::mem::ManuallyDrop;
use std::os::windows::io::FromRawHandle;

use windows_sys::Win32::Foundation::HANDLE;
use windows_sys::Win32::System::Console::{
  GetConsoleMode, GetStdHandle, STD_ERROR_HANDLE, STD_OUTPUT_HANDLE,
};

use crate::platform::stream::Stream;

/// Write some of `bytes` to the stream's handle. A console gets UTF-8 text
/// through the standard library's console writer, which converts it to the
/// console's UTF-16, and other bytes (a child's output in the ANSI code
/// page, say) as they are, as a file or pipe does. A missing
/// handle is reported (`ERROR_INVALID_HANDLE`), not taken for success as
/// `std::io::stdout` does.
pub(crate) fn write(stream: Stream, bytes: &[u8]) -> io::Result<usize> {
  let id = match stream {
    Stream::Stdout => STD_OUTPUT_HANDLE,
    Stream::Stderr => STD_ERROR_HANDLE,
  };
  // SAFETY: GetStdHandle only reads the process's standard handles.
  let handle = unsafe { GetStdHandle(id) };
  if is_console(handle) && std::str::from_utf8(bytes).is_ok() {
    return write_console(stream, bytes);
  }
  // SAFETY: the handle is only borrowed (never closed: `ManuallyDrop`); an
  // invalid one makes the write fail.
  let mut file = ManuallyDrop::new(unsafe { File::from_raw_handle(handle) });
  file.write(bytes)
}

fn write_console(stream: Stream, bytes: &[u8]) -> io::Result<usize> {
  match stream {
    Stream::Stdout => {
      let mut stdout = io::stdout().lock();
      let written = stdout.write(bytes)?;
      stdout.flush()?;
      Ok(written)
    }
    Stream::Stderr => io::stderr().lock().write(bytes),
  }
}

fn is_console(handle: HANDLE) -> bool {
  let mut mode = 0;
  // SAFETY: a query on a handle with a local out-parameter.
  unsafe { GetConsoleMode(handle, &raw mut mode) != 0 }
}
