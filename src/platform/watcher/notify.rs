//! `notify`'s watcher for the platform, one non-recursive watch per
//! directory.

use std::io;
use std::path::Path;

use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

use super::{Change, ChangeKind, Handler};

pub(crate) struct DirectoryWatcher {
  watcher: RecommendedWatcher,
}

/// The error without the paths `notify` appends (callers name the path).
fn io_error(error: notify::Error) -> io::Error {
  match error.kind {
    notify::ErrorKind::Io(error) => error,
    notify::ErrorKind::Generic(text) => io::Error::other(text),
    kind => io::Error::other(notify::Error::new(kind).to_string()),
  }
}

impl DirectoryWatcher {
  pub(crate) fn new(mut handler: Handler) -> io::Result<DirectoryWatcher> {
    let watcher = notify::recommended_watcher(move |result: notify::Result<Event>| {
      handler(match result {
        Ok(event) => Ok(Change {
          kind: match event.kind {
            _ if event.need_rescan() => ChangeKind::Lost,
            EventKind::Create(_) => ChangeKind::Create,
            EventKind::Access(_) => ChangeKind::Access,
            _ => ChangeKind::Other,
          },
          paths: event.paths,
        }),
        Err(error) => Err(format!("failed to watch files: {error}")),
      });
    })
    .map_err(io_error)?;
    Ok(DirectoryWatcher { watcher })
  }

  pub(crate) fn watch(&mut self, directory: &Path) -> io::Result<()> {
    self.watcher.watch(directory, RecursiveMode::NonRecursive).map_err(io_error)
  }

  pub(crate) fn unwatch(&mut self, directory: &Path) {
    let _ = self.watcher.unwatch(directory);
  }
}
