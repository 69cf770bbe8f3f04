//! inotify: each directory is added with one `inotify_add_watch` from the
//! caller's thread, and a thread reads the events.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask, Watches};

use super::{Change, ChangeKind, Handler};

/// Every change to a directory's entries, and to the directory itself;
/// no reads.
fn mask() -> WatchMask {
  WatchMask::MODIFY
    | WatchMask::ATTRIB
    | WatchMask::CLOSE_WRITE
    | WatchMask::CREATE
    | WatchMask::DELETE
    | WatchMask::MOVED_FROM
    | WatchMask::MOVED_TO
    | WatchMask::DELETE_SELF
    | WatchMask::MOVE_SELF
    | WatchMask::ONLYDIR
}

type Paths = Arc<Mutex<HashMap<WatchDescriptor, PathBuf>>>;

pub(crate) struct DirectoryWatcher {
  watches: Watches,
  /// The directory of each watch, shared with the reading thread.
  paths: Paths,
  descriptors: HashMap<PathBuf, WatchDescriptor>,
}

fn lock(paths: &Paths) -> MutexGuard<'_, HashMap<WatchDescriptor, PathBuf>> {
  paths.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl DirectoryWatcher {
  pub(crate) fn new(handler: Handler) -> io::Result<DirectoryWatcher> {
    let inotify = Inotify::init()?;
    let watches = inotify.watches();
    let paths = Paths::default();
    let read_paths = Arc::clone(&paths);
    std::thread::Builder::new()
      .name("watch".into())
      .spawn(move || read(inotify, &read_paths, handler))?;
    Ok(DirectoryWatcher { watches, paths, descriptors: HashMap::new() })
  }

  /// Watch `directory`'s entries (again, after it was replaced).
  pub(crate) fn watch(&mut self, directory: &Path) -> io::Result<()> {
    // Held while adding, so that the reader knows the watch of any event.
    let mut paths = lock(&self.paths);
    let descriptor = self.watches.add(directory, mask())?;
    paths.insert(descriptor.clone(), directory.to_path_buf());
    self.descriptors.insert(directory.to_path_buf(), descriptor);
    Ok(())
  }

  pub(crate) fn unwatch(&mut self, directory: &Path) {
    if let Some(descriptor) = self.descriptors.remove(directory) {
      let mut paths = lock(&self.paths);
      // Still the watch of this directory (not of another path to it).
      if paths.get(&descriptor).is_some_and(|path| path == directory) {
        paths.remove(&descriptor);
        // Gone already when the directory was removed.
        let _ = self.watches.remove(descriptor);
      }
    }
  }
}

/// Read events until the descriptor fails; hand each to `handler`.
fn read(mut inotify: Inotify, paths: &Paths, mut handler: Handler) {
  let mut buffer = vec![0u8; 64 << 10];
  loop {
    let events = match inotify.read_events_blocking(&mut buffer) {
      Ok(events) => events,
      Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
      Err(error) => {
        handler(Err(format!("failed to watch files: {error}")));
        return;
      }
    };
    let mut changes = Vec::new();
    {
      let mut paths = lock(paths);
      for event in events {
        if event.mask.contains(EventMask::Q_OVERFLOW) {
          changes.push(Change { kind: ChangeKind::Lost, paths: Vec::new() });
          continue;
        }
        if event.mask.contains(EventMask::IGNORED) {
          paths.remove(&event.wd);
          continue;
        }
        let Some(directory) = paths.get(&event.wd) else {
          continue;
        };
        let path = match event.name {
          Some(name) => directory.join(name),
          None => directory.clone(),
        };
        let kind = if event.mask.intersects(EventMask::CREATE | EventMask::MOVED_TO) {
          ChangeKind::Create
        } else if event.mask.contains(EventMask::CLOSE_WRITE) {
          ChangeKind::Access
        } else {
          ChangeKind::Other
        };
        changes.push(Change { kind, paths: vec![path] });
      }
    }
    // The handler runs without the lock: it may wait for the watch loop,
    // which may be adding a watch.
    for change in changes {
      handler(Ok(change));
    }
  }
}
