//! Directories held open, whose entries are reached relative to the handle
//! (`openat`, `mkdirat`, `renameat`, `unlinkat`, `fstatat` without following
//! links): once a directory is opened, swapping its path, or a parent's, for
//! a symbolic link cannot redirect what is done in it. What a shared cache
//! store holds and what a restore writes goes through these.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;

use rustix::fs::{AtFlags, FileType, FlockOperation, Mode, OFlags};

pub(crate) use crate::platform::entry_kind::Kind;

/// An open directory.
pub(crate) struct Directory {
  fd: OwnedFd,
}

/// Which directory a handle is open on (device and inode): what `parent`
/// checks the directory it opens against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Identity {
  device: u64,
  inode: u64,
}

const DIRECTORY: OFlags = OFlags::RDONLY.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC);

fn kind_of(file_type: FileType) -> Kind {
  match file_type {
    FileType::RegularFile => Kind::File,
    FileType::Directory => Kind::Directory,
    FileType::Symlink => Kind::Symlink,
    _ => Kind::Other,
  }
}

impl Directory {
  /// The directory at `path`, which may be reached through symbolic links
  /// (the caller's own choice of place).
  pub(crate) fn open(path: &Path) -> io::Result<Directory> {
    Ok(Directory { fd: rustix::fs::open(path, DIRECTORY, Mode::empty())? })
  }

  /// The directory `name` in this one, never through a symbolic link: a
  /// link or anything but a directory is an error saying so.
  pub(crate) fn child(&self, name: &str) -> io::Result<Directory> {
    match rustix::fs::openat(&self.fd, name, DIRECTORY | OFlags::NOFOLLOW, Mode::empty()) {
      Ok(fd) => Ok(Directory { fd }),
      Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR) => {
        Err(io::Error::other(format!("`{name}` is {}, not a directory", self.described(name))))
      }
      Err(error) => Err(error.into()),
    }
  }

  /// The directory `name` in this one, created with `mode` if missing.
  pub(crate) fn child_or_create(&self, name: &str, mode: u32) -> io::Result<Directory> {
    match self.create_directory(name, mode) {
      Ok(()) => {}
      Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
      Err(error) => return Err(error),
    }
    self.child(name)
  }

  /// "a symbolic link", "a FIFO, socket or device", … for messages.
  fn described(&self, name: &str) -> &'static str {
    match self.kind(name) {
      Ok(Some(Kind::Symlink)) => "a symbolic link",
      Ok(Some(Kind::Other)) => "a FIFO, socket or device",
      Ok(Some(Kind::File)) => "a file",
      _ => "not a directory",
    }
  }

  /// What `name` is, links not followed; `None` if there is no such name.
  pub(crate) fn kind(&self, name: &str) -> io::Result<Option<Kind>> {
    match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
      Ok(stat) => Ok(Some(kind_of(FileType::from_raw_mode(stat.st_mode)))),
      Err(rustix::io::Errno::NOENT) => Ok(None),
      Err(error) => Err(error.into()),
    }
  }

  /// Create the directory `name`, which must not exist.
  pub(crate) fn create_directory(&self, name: &str, mode: u32) -> io::Result<()> {
    Ok(rustix::fs::mkdirat(&self.fd, name, permission_bits(mode))?)
  }

  /// Create the file `name`, which must not exist (not even as a link),
  /// for writing, with `mode` (less the umask).
  pub(crate) fn create_file(&self, name: &str, mode: u32) -> io::Result<File> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(File::from(rustix::fs::openat(&self.fd, name, flags, permission_bits(mode))?))
  }

  /// The regular file `name`, open for reading. It is opened without
  /// waiting (a FIFO would block the open and every read) and without
  /// following a link, then checked: anything but a regular file is an
  /// error of kind `InvalidData` saying what it is.
  pub(crate) fn open_regular(&self, name: &str) -> io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
      Ok(fd) => fd,
      Err(rustix::io::Errno::LOOP) => return Err(not_regular(name, "a symbolic link")),
      Err(error) => return Err(error.into()),
    };
    let kind = kind_of(FileType::from_raw_mode(rustix::fs::fstat(&fd)?.st_mode));
    if kind != Kind::File {
      let what = if kind == Kind::Directory { "a directory" } else { "a FIFO, socket or device" };
      return Err(not_regular(name, what));
    }
    rustix::fs::fcntl_setfl(&fd, rustix::fs::fcntl_getfl(&fd)? - OFlags::NONBLOCK)?;
    Ok(File::from(fd))
  }

  /// Make the symbolic link `name` pointing to `target`.
  pub(crate) fn symlink(&self, target: &str, name: &str) -> io::Result<()> {
    Ok(rustix::fs::symlinkat(target, &self.fd, name)?)
  }

  /// Rename `from` in this directory to `to` in `destination`.
  pub(crate) fn rename(&self, from: &str, destination: &Directory, to: &str) -> io::Result<()> {
    Ok(rustix::fs::renameat(&self.fd, from, &destination.fd, to)?)
  }

  /// Remove the name `name` (not a directory).
  pub(crate) fn remove_file(&self, name: &str) -> io::Result<()> {
    Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?)
  }

  /// Remove the directory `name` if it is empty (`Ok(false)` if it is not).
  pub(crate) fn remove_empty_directory(&self, name: &str) -> io::Result<bool> {
    match rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR) {
      Ok(()) => Ok(true),
      Err(rustix::io::Errno::NOTEMPTY | rustix::io::Errno::EXIST) => Ok(false),
      Err(error) => Err(error.into()),
    }
  }

  /// Remove `name`, a directory whose lock `locked` holds, as `remove_tree`
  /// does; the lock is held until it is gone.
  pub(crate) fn remove_locked_tree(&self, name: &str, locked: Directory) -> io::Result<()> {
    let removed = self.remove_tree(name);
    drop(locked);
    removed
  }

  /// Which directory this handle is open on.
  pub(crate) fn identity(&self) -> io::Result<Identity> {
    let stat = rustix::fs::fstat(&self.fd)?;
    #[allow(clippy::useless_conversion, clippy::unnecessary_cast)]
    Ok(Identity { device: stat.st_dev as u64, inode: stat.st_ino as u64 })
  }

  /// The directory holding this one, which must be `expected` (it was
  /// when this one was reached from it): a directory moved meanwhile is an
  /// error, never a way elsewhere.
  pub(crate) fn parent(&self, expected: Identity) -> io::Result<Directory> {
    let parent = Directory { fd: rustix::fs::openat(&self.fd, "..", DIRECTORY, Mode::empty())? };
    if parent.identity()? != expected {
      return Err(io::Error::other("a directory was moved while it was in use"));
    }
    Ok(parent)
  }

  /// Remove `name` and, if it is a directory, everything below it, never
  /// through a link; directories without write permission are made
  /// writable first. What another process removes meanwhile is not missed.
  /// One directory is open at a time, however deep the tree (the way back
  /// up is `..`, checked against the directory it was reached from), and
  /// each directory is listed once.
  pub(crate) fn remove_tree(&self, name: &str) -> io::Result<()> {
    /// A directory on the way down: its name, the identity of the one
    /// holding it, and the subdirectories of that one still to remove.
    struct Level {
      name: String,
      above: Identity,
      pending: Vec<String>,
    }
    if self.kind(name)? != Some(Kind::Directory) {
      return gone(self.remove_file(name));
    }
    let mut current = match self.child(name) {
      Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
      opened => opened?,
    };
    current.set_mode(0o700)?;
    let mut pending = current.remove_all_but_directories()?;
    let mut levels: Vec<Level> = Vec::new();
    loop {
      if let Some(child) = pending.pop() {
        let directory = match current.child(&child) {
          Ok(directory) => directory,
          Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
          Err(error) => return Err(error),
        };
        directory.set_mode(0o700)?;
        let above = current.identity()?;
        levels.push(Level { name: child, above, pending: std::mem::take(&mut pending) });
        current = directory;
        pending = current.remove_all_but_directories()?;
        continue;
      }
      let Some(level) = levels.pop() else {
        break;
      };
      let parent = current.parent(level.above)?;
      current = parent;
      gone(
        rustix::fs::unlinkat(&current.fd, level.name.as_str(), AtFlags::REMOVEDIR)
          .map_err(io::Error::from),
      )?;
      pending = level.pending;
    }
    drop(current);
    gone(rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR).map_err(io::Error::from))
  }

  /// Remove every name in this directory but its subdirectories, whose
  /// names are returned.
  fn remove_all_but_directories(&self) -> io::Result<Vec<String>> {
    let mut directories = Vec::new();
    for name in self.names()? {
      match self.kind(&name)? {
        Some(Kind::Directory) => directories.push(name),
        Some(_) => gone(self.remove_file(&name))?,
        None => {}
      }
    }
    Ok(directories)
  }

  /// Give this directory the permission bits `mode`.
  pub(crate) fn set_mode(&self, mode: u32) -> io::Result<()> {
    Ok(rustix::fs::fchmod(&self.fd, permission_bits(mode))?)
  }

  /// Take the exclusive lock on this directory if no other open handle
  /// holds it; it is released when the handle is closed, however the
  /// process ends.
  pub(crate) fn try_lock(&self) -> io::Result<bool> {
    match rustix::fs::flock(&self.fd, FlockOperation::NonBlockingLockExclusive) {
      Ok(()) => Ok(true),
      Err(rustix::io::Errno::WOULDBLOCK) => Ok(false),
      Err(error) => Err(error.into()),
    }
  }

  /// The names in this directory but `.` and `..`, in no order; a name
  /// that is not UTF-8 is skipped (nothing `just` makes has one).
  pub(crate) fn names(&self) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in rustix::fs::Dir::read_from(&self.fd)? {
      let name = OsString::from_vec(entry?.file_name().to_bytes().to_vec());
      if name != "." && name != ".." {
        if let Ok(name) = name.into_string() {
          names.push(name);
        }
      }
    }
    Ok(names)
  }
}

/// A name another process removed first is gone all the same.
fn gone(result: io::Result<()>) -> io::Result<()> {
  match result {
    Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
    result => result,
  }
}

fn not_regular(name: &str, what: &str) -> io::Error {
  io::Error::new(io::ErrorKind::InvalidData, format!("`{name}` is {what}, not a regular file"))
}

/// The permission bits of `mode` as the platform's mode type (16 bits on
/// macOS, 32 on Linux).
fn permission_bits(mode: u32) -> Mode {
  Mode::from_raw_mode((mode & 0o7777) as rustix::fs::RawMode)
}
