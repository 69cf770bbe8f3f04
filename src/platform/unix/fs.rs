//! File-system operations whose meaning depends on the operating system:
//! permission bits, advisory locks, the raw bytes of OS strings, and what
//! `--fmt` needs to replace a file without changing its identity (Unix).

use std::{
  ffi::OsStr,
  fs::{self, File, Metadata, OpenOptions, Permissions},
  io,
  os::unix::fs::{MetadataExt, OpenOptionsExt},
  path::Path,
};

/// Whether `path` is a file that may be executed.
pub(crate) fn is_executable(path: &Path) -> bool {
  use std::os::unix::fs::PermissionsExt;
  fs::metadata(path)
    .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

/// The names under which `candidate` may be an executable: itself.
pub(crate) fn executable_names(
  candidate: std::path::PathBuf,
) -> Result<Vec<std::path::PathBuf>, String> {
  Ok(vec![candidate])
}

/// `path` with every `.`, `..` and symbolic link resolved.
pub(crate) fn physical_path(path: &Path) -> io::Result<std::path::PathBuf> {
  fs::canonicalize(path)
}

/// Makes `path` executable by its owner.
pub(crate) fn make_executable(path: &Path) -> io::Result<()> {
  use std::os::unix::fs::PermissionsExt;
  let mut permissions = fs::metadata(path)?.permissions();
  permissions.set_mode(permissions.mode() | 0o100);
  fs::set_permissions(path, permissions)
}

/// Permissions that let only the owner in (0700 on Unix); None where the
/// platform's defaults already keep a user's temporary files private.
pub(crate) fn private_directory_permissions() -> Option<Permissions> {
  use std::os::unix::fs::PermissionsExt;
  Some(Permissions::from_mode(0o700))
}

/// Blocks until this process holds the exclusive advisory lock on `file`;
/// the lock is released when the file is closed.
pub(crate) fn lock_exclusive(file: &File) -> io::Result<()> {
  use std::os::unix::io::AsRawFd;
  // SAFETY: flock on a file descriptor that `file` owns for the whole call.
  if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
    return Err(io::Error::last_os_error());
  }
  Ok(())
}

/// An OS string as the operating system holds it, as JSON: `{"Unix": [bytes]}`.
pub(crate) fn os_string_json(text: &OsStr) -> serde_json::Value {
  use std::os::unix::ffi::OsStrExt;
  serde_json::json!({ "Unix": text.as_bytes() })
}

/// Whether `path` (whose metadata is `metadata`) is the file's only name, so
/// that replacing it by rename keeps every name pointing at the new text.
pub(crate) fn is_only_link(_path: &Path, metadata: &Metadata) -> io::Result<bool> {
  Ok(metadata.nlink() == 1)
}

/// Creates the file `path`, which must not exist, readable by its owner only.
pub(crate) fn create_private(path: &Path) -> io::Result<File> {
  OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)
}

/// Gives `file` the owner, group and mode of `original` (`Ok(false)` when
/// the owner cannot be given back), for a replacement of that file.
pub(crate) fn take_identity(file: &File, original: &Metadata) -> io::Result<bool> {
  let current = file.metadata()?;
  if (current.uid(), current.gid()) != (original.uid(), original.gid()) {
    match std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid())) {
      Ok(()) => {}
      Err(error) if error.kind() == io::ErrorKind::PermissionDenied => return Ok(false),
      Err(error) => return Err(error),
    }
  }
  // After the owner: changing it clears set-user-ID and set-group-ID bits.
  file.set_permissions(original.permissions())?;
  Ok(true)
}

/// Puts `replacement` in the place of `target`, in one step.
pub(crate) fn replace(replacement: &Path, target: &Path) -> io::Result<()> {
  fs::rename(replacement, target)
}

/// Reserves disk space for `length` bytes of `file`, so that a full disk
/// fails here rather than halfway through a rewrite. Where the file system
/// cannot reserve space, nothing is reserved.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
pub(crate) fn allocate(file: &File, length: u64) -> io::Result<()> {
  use std::os::unix::io::AsRawFd;
  let length = libc::off_t::try_from(length).map_err(io::Error::other)?;
  if length == 0 {
    return Ok(());
  }
  // SAFETY: a plain system call on an open descriptor.
  match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, length) } {
    0 => Ok(()),
    libc::EOPNOTSUPP | libc::EINVAL => Ok(()),
    code => Err(io::Error::from_raw_os_error(code)),
  }
}

#[cfg(target_vendor = "apple")]
pub(crate) fn allocate(file: &File, length: u64) -> io::Result<()> {
  use std::os::unix::io::AsRawFd;
  let current = file.metadata()?.len();
  let Some(extra) = length.checked_sub(current).filter(|extra| *extra > 0) else {
    return Ok(());
  };
  let mut store = libc::fstore_t {
    fst_flags: libc::F_ALLOCATEALL,
    fst_posmode: libc::F_PEOFPOSMODE,
    fst_offset: 0,
    fst_length: libc::off_t::try_from(extra).map_err(io::Error::other)?,
    fst_bytesalloc: 0,
  };
  // SAFETY: F_PREALLOCATE reads and writes only the `fstore_t` passed.
  if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_PREALLOCATE, &mut store) } == -1 {
    let error = io::Error::last_os_error();
    return match error.raw_os_error() {
      Some(libc::ENOTSUP | libc::EINVAL) => Ok(()),
      _ => Err(error),
    };
  }
  Ok(())
}

#[cfg(not(any(
  target_os = "linux",
  target_os = "android",
  target_os = "freebsd",
  target_vendor = "apple"
)))]
pub(crate) fn allocate(_file: &File, _length: u64) -> io::Result<()> {
  Ok(())
}

/// The bytes of an OS string as the operating system holds them.
pub(crate) fn os_str_bytes(text: &OsStr) -> Vec<u8> {
  use std::os::unix::ffi::OsStrExt;
  text.as_bytes().to_vec()
}

/// The longest path the system takes, as `path_length` counts it
/// (`PATH_MAX` less its NUL).
pub(crate) const LONGEST_PATH: usize = libc::PATH_MAX as usize - 1;

/// The longest name of a file the system takes, as `path_length` counts
/// it.
pub(crate) const LONGEST_NAME: usize = 255;

/// The length of `path` as the system counts it: bytes.
pub(crate) fn path_length(path: &OsStr) -> usize {
  path.len()
}
