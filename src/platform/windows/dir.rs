//! Directories as the Unix side holds them open, on Windows by path: an
//! entry is reached by joining its name, links are not followed where the
//! standard library can tell (`symlink_metadata`), and a directory's lock
//! is a lock file inside it.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

pub(crate) use crate::platform::entry_kind::Kind;

/// Which directory a handle names: on Windows, its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Identity(PathBuf);

/// A directory, by path.
pub(crate) struct Directory {
  path: PathBuf,
  /// The lock file, held open once `try_lock` took it.
  lock: std::sync::Mutex<Option<File>>,
}

impl Directory {
  fn at(path: PathBuf) -> Directory {
    Directory { path, lock: std::sync::Mutex::new(None) }
  }

  pub(crate) fn open(path: &Path) -> io::Result<Directory> {
    if !fs::metadata(path)?.is_dir() {
      return Err(io::Error::other(format!("`{}` is not a directory", path.display())));
    }
    Ok(Directory::at(path.to_path_buf()))
  }

  pub(crate) fn child(&self, name: &str) -> io::Result<Directory> {
    match self.kind(name)? {
      Some(Kind::Directory) => Ok(Directory::at(self.path.join(name))),
      Some(_) => Err(io::Error::other(format!("`{name}` is not a directory"))),
      None => Err(io::Error::from(io::ErrorKind::NotFound)),
    }
  }

  pub(crate) fn identity(&self) -> io::Result<Identity> {
    Ok(Identity(self.path.clone()))
  }

  pub(crate) fn parent(&self, expected: Identity) -> io::Result<Directory> {
    match self.path.parent() {
      Some(parent) if parent == expected.0 => Ok(Directory::at(parent.to_path_buf())),
      _ => Err(io::Error::other("a directory was moved while it was in use")),
    }
  }

  pub(crate) fn child_or_create(&self, name: &str, mode: u32) -> io::Result<Directory> {
    match self.create_directory(name, mode) {
      Ok(()) => {}
      Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
      Err(error) => return Err(error),
    }
    self.child(name)
  }

  pub(crate) fn kind(&self, name: &str) -> io::Result<Option<Kind>> {
    match fs::symlink_metadata(self.path.join(name)) {
      Ok(metadata) => {
        let file_type = metadata.file_type();
        Ok(Some(if file_type.is_symlink() {
          Kind::Symlink
        } else if file_type.is_dir() {
          Kind::Directory
        } else if file_type.is_file() {
          Kind::File
        } else {
          Kind::Other
        }))
      }
      Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
      Err(error) => Err(error),
    }
  }

  pub(crate) fn create_directory(&self, name: &str, _mode: u32) -> io::Result<()> {
    fs::create_dir(self.path.join(name))
  }

  pub(crate) fn create_file(&self, name: &str, _mode: u32) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(self.path.join(name))
  }

  pub(crate) fn open_regular(&self, name: &str) -> io::Result<File> {
    match self.kind(name)? {
      Some(Kind::File) => File::open(self.path.join(name)),
      Some(_) => {
        Err(io::Error::new(io::ErrorKind::InvalidData, format!("`{name}` is not a regular file")))
      }
      None => Err(io::Error::from(io::ErrorKind::NotFound)),
    }
  }

  pub(crate) fn symlink(&self, target: &str, name: &str) -> io::Result<()> {
    std::os::windows::fs::symlink_file(target, self.path.join(name))
  }

  pub(crate) fn rename(&self, from: &str, destination: &Directory, to: &str) -> io::Result<()> {
    fs::rename(self.path.join(from), destination.path.join(to))
  }

  pub(crate) fn remove_file(&self, name: &str) -> io::Result<()> {
    fs::remove_file(self.path.join(name))
  }

  pub(crate) fn remove_empty_directory(&self, name: &str) -> io::Result<bool> {
    let path = self.path.join(name);
    if fs::read_dir(&path)?.next().is_some() {
      return Ok(false);
    }
    fs::remove_dir(path).map(|()| true)
  }

  pub(crate) fn remove_tree(&self, name: &str) -> io::Result<()> {
    match self.kind(name)? {
      Some(Kind::Directory) => fs::remove_dir_all(self.path.join(name)),
      Some(_) => fs::remove_file(self.path.join(name)),
      None => Ok(()),
    }
  }

  /// Remove `name`, a directory whose lock `locked` holds, as `remove_tree`
  /// does. The lock is a file in it, held open without delete sharing, so
  /// it is released first: held, it would keep the directory from being
  /// removed.
  pub(crate) fn remove_locked_tree(&self, name: &str, locked: Directory) -> io::Result<()> {
    drop(locked);
    self.remove_tree(name)
  }

  pub(crate) fn set_mode(&self, _mode: u32) -> io::Result<()> {
    Ok(())
  }

  /// The lock is the file `.lock` in the directory, held open without
  /// sharing: another process cannot open it while it is held.
  pub(crate) fn try_lock(&self) -> io::Result<bool> {
    use std::os::windows::fs::OpenOptionsExt;
    const ERROR_SHARING_VIOLATION: i32 = 32;
    let opened = OpenOptions::new()
      .read(true)
      .write(true)
      .create(true)
      .truncate(false)
      .share_mode(0)
      .open(self.path.join(".lock"));
    let file = match opened {
      Ok(file) => file,
      Err(error) if error.raw_os_error() == Some(ERROR_SHARING_VIOLATION) => return Ok(false),
      Err(error) => return Err(error),
    };
    *self.lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(file);
    Ok(true)
  }

  pub(crate) fn names(&self) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(&self.path)? {
      if let Ok(name) = entry?.file_name().into_string() {
        names.push(name);
      }
    }
    Ok(names)
  }
}
