//! The permission bits a cache entry records for each output and restores.
//! On systems without Unix modes only "executable or not" is meaningful, and
//! nothing is restored.

use std::fs::Metadata;

/// The permission bits of a file or directory.
#[cfg(unix)]
pub fn of(metadata: &Metadata) -> u32 {
  use std::os::unix::fs::PermissionsExt;
  metadata.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
pub fn of(metadata: &Metadata) -> u32 {
  if metadata.permissions().readonly() {
    0o444
  } else {
    0o644
  }
}
