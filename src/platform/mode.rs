//! The permission bits a cache entry records for each output and restores.
//! On systems without Unix modes only "executable or not" is meaningful, and
//! nothing is restored.

use std::{fs::Metadata, io};

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

/// The process's file mode creation mask (`0` where there is none), read
/// once: from `/proc/self/status` where the kernel reports it, else from
/// the mode a probe file gets in the temporary directory (never by setting
/// it, which would race with threads creating files).
#[cfg(unix)]
pub(crate) fn umask() -> u32 {
  use std::os::unix::fs::PermissionsExt;
  static UMASK: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
  *UMASK.get_or_init(|| {
    let reported = std::fs::read_to_string("/proc/self/status").ok().and_then(|status| {
      let line = status.lines().find_map(|line| line.strip_prefix("Umask:"))?;
      u32::from_str_radix(line.trim(), 8).ok()
    });
    if let Some(mask) = reported {
      return mask & 0o777;
    }
    let probe = tempfile::Builder::new()
      .permissions(std::fs::Permissions::from_mode(0o777))
      .tempfile()
      .and_then(|file| file.as_file().metadata());
    probe.map_or(0o022, |metadata| !metadata.permissions().mode() & 0o777)
  })
}

#[cfg(not(unix))]
pub(crate) fn umask() -> u32 {
  0
}

/// Give the open `file` the permission bits `mode`.
#[cfg(unix)]
pub(crate) fn set_file(file: &std::fs::File, mode: u32) -> io::Result<()> {
  use std::os::unix::fs::PermissionsExt;
  file.set_permissions(std::fs::Permissions::from_mode(mode & 0o7777))
}

#[cfg(not(unix))]
pub(crate) fn set_file(_: &std::fs::File, _: u32) -> io::Result<()> {
  Ok(())
}
