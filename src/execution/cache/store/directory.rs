//! A store in a directory: each object a file, written under a temporary
//! name in the same directory and renamed into place, so readers see it
//! whole or not at all. Objects are not synced to disk one by one: after a
//! crash an object may be empty or short, which every reader detects by
//! its hash, and the next run that publishes it replaces it.
//!
//! Whoever can write the store may put anything there, so nothing in it is
//! followed or waited on: `cas` and `ac` must be directories (a symbolic
//! link there is refused, neither read through nor written through), and
//! an object must be a regular file, opened without following a link and
//! without blocking (a FIFO would hang the run); anything else reads as a
//! refused object, which the reader warns about and ignores, and which the
//! next publisher replaces.

use std::io::{self, Read};
use std::path::PathBuf;

use super::{Store, StoreError, StoreResult};
use crate::platform::dir::{Directory, Kind};
use crate::platform::mode;

pub(super) struct DirectoryStore {
  root: PathBuf,
}

/// An object the store holds but that is not a regular file: reading it
/// fails with `InvalidData`, saying why.
struct Refused(String);

impl Read for Refused {
  fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
    Err(io::Error::new(io::ErrorKind::InvalidData, self.0.clone()))
  }
}

/// An object's name: its prefix directory (`cas`, `ac`) and its file name.
fn split(name: &str) -> StoreResult<(&str, &str)> {
  name
    .split_once('/')
    .filter(|(prefix, leaf)| !prefix.is_empty() && !leaf.is_empty() && !leaf.contains('/'))
    .ok_or_else(|| StoreError(format!("invalid object name `{name}`")))
}

fn refused(prefix: &str, error: &io::Error) -> StoreError {
  StoreError(format!("`{prefix}` refused: {error}"))
}

impl DirectoryStore {
  pub(super) fn new(root: PathBuf) -> Self {
    DirectoryStore { root }
  }

  /// The prefix directory `prefix`, if the store has one; never a link.
  fn prefix(&self, prefix: &str) -> StoreResult<Option<Directory>> {
    let root = match Directory::open(&self.root) {
      Ok(root) => root,
      Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
      Err(error) => return Err(StoreError::io(&error)),
    };
    match root.child(prefix) {
      Ok(directory) => Ok(Some(directory)),
      Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
      Err(error) => Err(refused(prefix, &error)),
    }
  }

  /// The prefix directory, created (with the store) if missing.
  fn prefix_for_writing(&self, prefix: &str) -> io::Result<Directory> {
    std::fs::create_dir_all(&self.root)?;
    let root = Directory::open(&self.root)?;
    root.child_or_create(prefix, 0o777)
  }
}

impl Store for DirectoryStore {
  fn get(&self, name: &str, _limit: u64) -> StoreResult<Option<Box<dyn Read + Send>>> {
    let (prefix, leaf) = split(name)?;
    let Some(directory) = self.prefix(prefix)? else {
      return Ok(None);
    };
    match directory.open_regular(leaf) {
      Ok(file) => Ok(Some(Box::new(file))),
      Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
      Err(error) if error.kind() == io::ErrorKind::InvalidData => {
        Ok(Some(Box::new(Refused(error.to_string()))))
      }
      Err(error) => Err(StoreError::io(&error)),
    }
  }

  /// Only a regular file counts: anything else is replaced when published.
  fn contains(&self, name: &str) -> StoreResult<bool> {
    let (prefix, leaf) = split(name)?;
    let Some(directory) = self.prefix(prefix)? else {
      return Ok(false);
    };
    Ok(directory.kind(leaf).map_err(|error| StoreError::io(&error))? == Some(Kind::File))
  }

  fn put(&self, name: &str, body: &mut dyn Read, _length: u64) -> StoreResult<()> {
    let (prefix, leaf) = split(name)?;
    let directory = self.prefix_for_writing(prefix).map_err(|error| refused(prefix, &error))?;
    let staged = format!(".tmp-{}", uuid::Uuid::new_v4().simple());
    let mut write = || -> io::Result<()> {
      // Readable by whoever the umask lets read the store, as a file
      // created by any other program there would be.
      let mut file = directory.create_file(&staged, 0o600)?;
      io::copy(body, &mut file)?;
      mode::set_file(&file, 0o666 & !mode::umask())?;
      drop(file);
      directory.rename(&staged, &directory, leaf)
    };
    write().map_err(|error| {
      let _ = directory.remove_file(&staged);
      StoreError::io(&error)
    })
  }
}
