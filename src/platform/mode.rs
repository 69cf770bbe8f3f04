//! The permission bits a cache entry records for each output and restores.
//! On systems without Unix modes only "executable or not" is meaningful, and
//! nothing is restored.

use std::{fs::Metadata, io, path::Path};

/// The permission bits of a file or directory.
#[cfg(unix)]
pub(crate) fn of(metadata: &Metadata) -> u32 {
  use std::os::unix::fs::PermissionsExt;
  metadata.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
pub(crate) fn of(metadata: &Metadata) -> u32 {
  if metadata.permissions().readonly() {
    0o444
  } else {
    0o644
  }
}

/// Give `path` the permission bits `mode`.
#[cfg(unix)]
pub(crate) fn set(path: &Path, mode: u32) -> io::Result<()> {
  use std::os::unix::fs::PermissionsExt;
  std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o7777))
}

#[cfg(not(unix))]
pub(crate) fn set(_: &Path, _: u32) -> io::Result<()> {
  Ok(())
}

/// Make a symbolic link at `link` pointing to `target`.
#[cfg(unix)]
pub(crate) fn symlink(target: &Path, link: &Path) -> io::Result<()> {
  std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
pub(crate) fn symlink(target: &Path, link: &Path) -> io::Result<()> {
  std::os::windows::fs::symlink_file(target, link)
}
