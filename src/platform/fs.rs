//! File-system operations whose meaning depends on the operating system:
//! permission bits, advisory locks, and the raw bytes of OS strings.

use std::{
  ffi::OsStr,
  fs::{self, File, Permissions},
  io,
  path::Path,
};

/// Whether `path` is a file that may be executed.
#[cfg(unix)]
pub fn is_executable(path: &Path) -> bool {
  use std::os::unix::fs::PermissionsExt;
  fs::metadata(path)
    .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
pub fn is_executable(path: &Path) -> bool {
  path.is_file()
}

/// Makes `path` executable by its owner.
#[cfg(unix)]
pub fn make_executable(path: &Path) -> io::Result<()> {
  use std::os::unix::fs::PermissionsExt;
  let mut permissions = fs::metadata(path)?.permissions();
  permissions.set_mode(permissions.mode() | 0o100);
  fs::set_permissions(path, permissions)
}

#[cfg(not(unix))]
pub fn make_executable(_: &Path) -> io::Result<()> {
  Ok(())
}

/// Permissions that let only the owner in (0700 on Unix); None where the
/// platform's defaults already keep a user's temporary files private.
#[cfg(unix)]
pub fn private_directory_permissions() -> Option<Permissions> {
  use std::os::unix::fs::PermissionsExt;
  Some(Permissions::from_mode(0o700))
}

#[cfg(not(unix))]
pub fn private_directory_permissions() -> Option<Permissions> {
  None
}

/// Blocks until this process holds the exclusive advisory lock on `file`;
/// the lock is released when the file is closed.
#[cfg(unix)]
pub fn lock_exclusive(file: &File) -> io::Result<()> {
  use std::os::unix::io::AsRawFd;
  // SAFETY: flock on a file descriptor that `file` owns for the whole call.
  if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
    return Err(io::Error::last_os_error());
  }
  Ok(())
}

#[cfg(not(unix))]
pub fn lock_exclusive(_: &File) -> io::Result<()> {
  Ok(())
}

/// The bytes of an OS string as the operating system holds them.
#[cfg(unix)]
pub fn os_str_bytes(text: &OsStr) -> Vec<u8> {
  use std::os::unix::ffi::OsStrExt;
  text.as_bytes().to_vec()
}

#[cfg(not(unix))]
pub fn os_str_bytes(text: &OsStr) -> Vec<u8> {
  text.to_string_lossy().into_owned().into_bytes()
}
