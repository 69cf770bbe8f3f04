//! What a name in a directory is, as both operating systems' `dir` modules
//! report it.

/// What a name in a directory is, its links not followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
  File,
  Directory,
  Symlink,
  /// A FIFO, a socket or a device.
  Other,
}
