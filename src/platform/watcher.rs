//! Watching directories, each non-recursively, for changes to their
//! entries: on Linux through inotify itself (one system call per
//! directory, from the calling thread), elsewhere through `notify`.
//! Changes reach a handler on a thread of the watcher's own.

#[cfg(target_os = "linux")]
#[path = "watcher/inotify.rs"]
mod backend;
#[cfg(not(target_os = "linux"))]
#[path = "watcher/notify.rs"]
mod backend;

pub(crate) use backend::DirectoryWatcher;

/// What happened to a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChangeKind {
  /// Created, or moved in.
  Create,
  /// Read, or closed after writing: no change of its own.
  Access,
  /// Written, removed, renamed or its metadata changed.
  Other,
  /// Changes were lost (the system's queue of them overflowed): anything
  /// watched may have changed. No paths.
  Lost,
}

/// A change to one or more paths.
#[derive(Debug)]
pub(crate) struct Change {
  pub kind: ChangeKind,
  pub paths: Vec<std::path::PathBuf>,
}

/// Receives each change, or the error that ended watching.
pub(crate) type Handler = Box<dyn FnMut(Result<Change, String>) + Send>;
