//! A store in a directory: each object a file, written under a temporary
//! name in the same directory and renamed into place, so readers see it
//! whole or not at all. Objects are not synced to disk one by one: after a
//! crash an object may be empty or short, which every reader detects by
//! its hash, and the next run that publishes it replaces it.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::PathBuf;

use super::{Store, StoreError, StoreResult};
use crate::platform::mode;

pub(super) struct DirectoryStore {
  root: PathBuf,
}

impl DirectoryStore {
  pub(super) fn new(root: PathBuf) -> Self {
    DirectoryStore { root }
  }
}

impl Store for DirectoryStore {
  fn get(&self, name: &str, _limit: u64) -> StoreResult<Option<Box<dyn Read + Send>>> {
    match File::open(self.root.join(name)) {
      Ok(file) => Ok(Some(Box::new(file))),
      Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
      Err(error) => Err(StoreError::io(&error)),
    }
  }

  fn contains(&self, name: &str) -> StoreResult<bool> {
    match fs::metadata(self.root.join(name)) {
      Ok(_) => Ok(true),
      Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
      Err(error) => Err(StoreError::io(&error)),
    }
  }

  fn put(&self, name: &str, body: &mut dyn Read, _length: u64) -> StoreResult<()> {
    let path = self.root.join(name);
    let directory = path.parent().unwrap_or(&self.root);
    let mut write = || -> io::Result<()> {
      fs::create_dir_all(directory)?;
      let mut staged = tempfile::Builder::new().prefix(".tmp-").tempfile_in(directory)?;
      io::copy(body, &mut staged)?;
      // Readable by whoever the umask lets read the store, as a file
      // created by any other program there would be.
      mode::set_file(staged.as_file(), 0o666 & !mode::umask())?;
      staged.persist(&path).map_err(|error| error.error)?;
      Ok(())
    };
    write().map_err(|error| StoreError::io(&error))
  }
}
