//! Restoring an entry's outputs, through directory handles.
//!
//! Each differing output's parent is opened from the working directory one
//! name at a time, never through a symbolic link (`platform::dir`), and
//! everything after that is done relative to that handle: the staging
//! directory is made in it, the restored tree built in the staging
//! directory, and the swap is two renames between the two handles. So a
//! parent swapped for a link while the restore runs cannot redirect a write
//! outside the project: the handle still names the directory that was
//! checked. A staging directory is locked while its run lives (`flock`, the
//! lock the kernel drops however the process ends), so a run removes the
//! stagings a killed run left, and only those.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io::{self, Seek};
use std::path::{Path, PathBuf};

use lexiclean::Lexiclean;

use super::{Bound, Found, Restored, Shared};
use crate::execution::cache::store::{self, Location, Store, StoreError};
use crate::execution::cache::warning::{CacheWarning, Unwritten};
use crate::execution::cache::{digest, entry};
use crate::platform::dir::{self, Directory};
use crate::platform::{fs, mode};

/// The name every staging directory starts with.
const STAGING: &str = ".just-restore-";

/// Where a restore writes, and what no restored link may lead to.
pub(in crate::execution::cache) struct Target<'a> {
  pub working_directory: &'a Path,
  pub outputs: &'a [String],
  /// The run's justfiles, `.justcache` and the store, as physical paths.
  pub protected: &'a [PathBuf],
}

/// Why a restore failed: the store (not used again in the run) or this
/// machine's files.
enum Failure {
  Store(StoreError),
  Local(io::Error),
}

impl From<StoreError> for Failure {
  fn from(error: StoreError) -> Self {
    Failure::Store(error)
  }
}

impl From<io::Error> for Failure {
  fn from(error: io::Error) -> Self {
    Failure::Local(error)
  }
}

impl Shared {
  /// Put the entry's outputs in place and keep its output for replay;
  /// `None` when the entry cannot be used (warned) or a signal came; an
  /// error when a warning could not be written.
  ///
  /// The entry was checked as it was read (`entry::read`); here its place
  /// is (paths the system takes, no output below a link, no link to
  /// `target.protected`). An output that is already what the entry holds
  /// is left alone. The others are built in a fresh directory next to
  /// each (same file system), every file created new and its blob checked
  /// as it streams in; only when all are complete does each output change
  /// places with its restored version, by rename, and a failed rename puts
  /// back what was moved. The staging directories are removed on every
  /// path, and those killed runs left next to the outputs before.
  pub(in crate::execution::cache) fn restore(
    &self,
    found: Found,
    target: &Target<'_>,
    interrupted: &dyn Fn() -> bool,
  ) -> Result<Option<Restored>, Unwritten> {
    let restored = self.restore_found(found, target, interrupted);
    self.reported(restored)
  }

  /// `restore`, the warnings written as they come.
  fn restore_found(
    &self,
    found: Found,
    target: &Target<'_>,
    interrupted: &dyn Fn() -> bool,
  ) -> Option<Restored> {
    let Found { checked, name, staged } = found;
    if !self.fits(&name, &checked, target) {
      return None;
    }
    // A remote store's blobs were staged, checked, in a private directory.
    let staged_store = match &staged {
      Some(directory) => {
        let location = Location::Directory(directory.path().to_path_buf());
        Some(store::open(&location, std::time::Duration::from_secs(1)).ok()?.0)
      }
      None => None,
    };
    let source = staged_store.as_deref().or_else(|| self.store())?;
    self.remove_leftovers(target);
    let umask = mode::umask();
    let stale = stale_outputs(&checked, target, umask);
    let mut stagings: Vec<Staging> = Vec::new();
    let result = self.build(source, &checked, &stale, target, umask, &mut stagings, interrupted);
    self.remove_stagings(stagings);
    match result {
      Ok(restored) => restored,
      Err(Failure::Store(error)) => {
        self.fail("restoring an entry", &error);
        None
      }
      Err(Failure::Local(error)) => {
        self.warn(CacheWarning::RestoreFailed { entry: name, error });
        None
      }
    }
  }

  /// Whether the entry `name` may be restored here: no path longer than
  /// the system takes, no output below a symbolic link, no link leading to
  /// a protected path; refused with the reason otherwise.
  fn fits(&self, name: &str, checked: &entry::Checked, target: &Target<'_>) -> bool {
    if let Err(reason) = check_lengths(checked, target) {
      self.refuse(name, &reason);
      return false;
    }
    for output in target.outputs {
      if let Some(link) = linked_parent(target.working_directory, output) {
        self.refuse(
          name,
          &format!("output `{output}` is below the symbolic link `{}`", link.display()),
        );
        return false;
      }
    }
    if let Err(reason) = check_link_targets(checked, target) {
      self.refuse(name, &reason);
      return false;
    }
    true
  }

  /// Remove the staging directories killed runs left next to the outputs
  /// (those no live process holds the lock of); a failure is warned about.
  fn remove_leftovers(&self, target: &Target<'_>) {
    let mut seen = HashSet::new();
    for output in target.outputs {
      let parent = output.rsplit_once('/').map_or("", |(parent, _)| parent);
      if !seen.insert(parent) {
        continue;
      }
      let removed = match open_parent(target.working_directory, output, false) {
        Ok(Some(directory)) => remove_leftover_stagings(&directory),
        Ok(None) => Ok(()),
        Err(error) => Err(error),
      };
      if let Err(error) = removed {
        self.warn(CacheWarning::LeftoverStaging { output: output.clone(), error });
      }
    }
  }

  /// Fetch the captured output, build each stale output in its staging
  /// directory and swap them in: the output to replay, or `None` if a
  /// signal came.
  #[allow(clippy::too_many_arguments)]
  fn build(
    &self,
    source: &dyn Store,
    checked: &entry::Checked,
    stale: &[usize],
    target: &Target<'_>,
    umask: u32,
    stagings: &mut Vec<Staging>,
    interrupted: &dyn Fn() -> bool,
  ) -> Result<Option<Restored>, Failure> {
    let mut streams = Vec::new();
    for blob in [&checked.stdout, &checked.stderr] {
      let mut file = tempfile::tempfile()?;
      if !self.fetch(source, &blob.hex(), Bound::Exactly(blob.size), &mut file, interrupted)? {
        return Ok(None);
      }
      file.rewind()?;
      streams.push(file);
    }
    for &index in stale {
      let output = &target.outputs[index];
      let parent = open_parent(target.working_directory, output, true)?
        .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
      let shown = target.working_directory.join(output);
      let shown = shown.parent().unwrap_or(target.working_directory);
      let leaf = output.rsplit('/').next().unwrap_or(output);
      stagings.push(Staging::create(parent, shown, index, leaf)?);
    }
    for staging in stagings.iter() {
      if !self.build_output(source, checked, staging, umask, interrupted)? {
        return Ok(None);
      }
    }
    if interrupted() {
      return Ok(None);
    }
    swap(stagings)?;
    let stderr = streams.pop();
    let stdout = streams.pop();
    Ok(stdout.zip(stderr).map(|(stdout, stderr)| Restored { stdout, stderr }))
  }

  /// Build the items of the staging's output under `new` in it, in tree
  /// order; a directory's mode is set once what it holds is written. False
  /// if a signal came.
  fn build_output(
    &self,
    source: &dyn Store,
    checked: &entry::Checked,
    staging: &Staging,
    umask: u32,
    interrupted: &dyn Fn() -> bool,
  ) -> Result<bool, Failure> {
    let mut cursor = Cursor::new(&staging.directory);
    for item in checked.items_of(staging.output) {
      if interrupted() {
        return Ok(false);
      }
      let path =
        if item.relative.is_empty() { "new".to_string() } else { format!("new/{}", item.relative) };
      let (parent, leaf) = path.rsplit_once('/').unwrap_or(("", &path));
      cursor.reach(parent)?;
      let directory = cursor.here();
      match item.kind {
        entry::Kind::Directory { mode } => {
          directory.create_directory(leaf, 0o700)?;
          cursor.enter(leaf, mode & !umask)?;
        }
        entry::Kind::File { blob, mode } => {
          let mut file = directory.create_file(leaf, 0o600)?;
          if !self.fetch(source, &blob.hex(), Bound::Exactly(blob.size), &mut file, interrupted)? {
            return Ok(false);
          }
          mode::set_file(&file, mode & !umask)?;
        }
        entry::Kind::Symlink { target } => directory.symlink(target, leaf)?,
      }
    }
    cursor.reach("")?;
    Ok(true)
  }

  /// Remove the staging directories; those that remain are warned about.
  fn remove_stagings(&self, stagings: Vec<Staging>) {
    let mut remaining = Vec::new();
    for staging in stagings {
      let shown = staging.shown.clone();
      if let Err(error) = staging.remove() {
        remaining.push((shown, error));
      }
    }
    if !remaining.is_empty() {
      self.warn(CacheWarning::StagingsRemain { remaining });
    }
  }
}

/// The outputs that differ from what the entry holds.
fn stale_outputs(checked: &entry::Checked, target: &Target<'_>, umask: u32) -> Vec<usize> {
  let expected = entry::digests(checked, target.outputs.len(), umask);
  (0..target.outputs.len())
    .filter(|&index| {
      let current = digest::output(&target.working_directory.join(&target.outputs[index]));
      current.ok().flatten().as_deref() != Some(expected[index].as_str())
    })
    .collect()
}

/// Every path the entry makes is one the system takes: whole (from the
/// working directory, as it is read later), its new name, and a link's
/// target. A longer one could be made below a directory handle, and then
/// could not be read by its path.
fn check_lengths(checked: &entry::Checked, target: &Target<'_>) -> Result<(), String> {
  let length = |text: &str| fs::path_length(OsStr::new(text));
  let (mut path, mut name) = (0, 0);
  for (index, output) in target.outputs.iter().enumerate() {
    let base = fs::path_length(target.working_directory.join(output).as_os_str());
    for item in checked.items_of(index) {
      if !item.relative.is_empty() {
        path = path.max(base + 1 + length(item.relative));
        name = name.max(length(item.relative.rsplit('/').next().unwrap_or(item.relative)));
      }
      if let entry::Kind::Symlink { target } = item.kind {
        path = path.max(length(target));
      }
    }
  }
  if path > fs::LONGEST_PATH {
    return Err(format!(
      "a path is longer than this system allows ({path}, at most {})",
      fs::LONGEST_PATH
    ));
  }
  if name > fs::LONGEST_NAME {
    return Err(format!(
      "a name is longer than this system allows ({name}, at most {})",
      fs::LONGEST_NAME
    ));
  }
  Ok(())
}

/// No link of the entry leads to a protected path (the justfile, a file it
/// imports, `.justcache`, the store), as written or through what is on
/// disk where it points.
fn check_link_targets(checked: &entry::Checked, target: &Target<'_>) -> Result<(), String> {
  if target.protected.is_empty() {
    return Ok(());
  }
  let root = fs::physical_path(target.working_directory)
    .unwrap_or_else(|_| target.working_directory.to_path_buf());
  for item in checked.items() {
    let entry::Kind::Symlink { target: link_target } = item.kind else {
      continue;
    };
    let output = &target.outputs[item.output];
    let path =
      if item.relative.is_empty() { output.clone() } else { format!("{output}/{}", item.relative) };
    let link = root.join(&path);
    let written = link.parent().unwrap_or(&root).join(link_target).lexiclean();
    let physical = fs::physical_path(&written).ok();
    for resolved in std::iter::once(&written).chain(physical.as_ref()) {
      if let Some(protected) = target.protected.iter().find(|p| resolved.starts_with(p)) {
        return Err(format!("link `{path}` leads to `{}`", protected.display()));
      }
    }
  }
  Ok(())
}

/// The parent directory of `output`, reached from the working directory
/// one name at a time without following a link; missing directories are
/// created when `create` (else `None`).
fn open_parent(
  working_directory: &Path,
  output: &str,
  create: bool,
) -> io::Result<Option<Directory>> {
  let mut directory = Directory::open(working_directory)?;
  let mut parts: Vec<&str> = output.split('/').collect();
  parts.pop();
  for part in parts {
    directory = if create {
      directory.child_or_create(part, 0o777)?
    } else {
      match directory.child(part) {
        Ok(child) => child,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
      }
    };
  }
  Ok(Some(directory))
}

/// Remove the staging directories in `directory` whose lock no process
/// holds: their runs were killed.
fn remove_leftover_stagings(directory: &Directory) -> io::Result<()> {
  for name in directory.names()? {
    if !name.starts_with(STAGING) {
      continue;
    }
    let Ok(staging) = directory.child(&name) else {
      continue;
    };
    if staging.try_lock()? {
      directory.remove_locked_tree(&name, staging)?;
    }
  }
  Ok(())
}

/// A directory next to a declared output, on its file system, where its
/// restored version is built (`new`) and its previous version set aside
/// (`old`); locked while it exists.
struct Staging {
  /// The output's parent.
  parent: Directory,
  directory: Directory,
  /// The staging directory's name in `parent`.
  name: String,
  /// Its path, for messages.
  shown: PathBuf,
  output: usize,
  /// The output's name in `parent`.
  leaf: String,
}

impl Staging {
  /// A new, empty, locked staging directory in `parent` (at `shown`), for
  /// output `output`. Its path is registered to be removed if a signal ends
  /// `just` at once.
  fn create(parent: Directory, shown: &Path, output: usize, leaf: &str) -> io::Result<Staging> {
    loop {
      // Random, so no state of the process is needed to tell stagings
      // apart; the process id says whose it is to a reader.
      let unique = uuid::Uuid::new_v4().simple();
      let name = format!("{STAGING}{}-{unique}", std::process::id());
      let shown = shown.join(&name);
      crate::platform::signals::remove_at_exit(shown.clone());
      match parent.create_directory(&name, 0o700) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
        Err(error) => return Err(error),
      }
      let directory = parent.child(&name)?;
      // Another run may have taken it for a killed run's before it was
      // locked, and removes it: try another name.
      if directory.try_lock()? {
        let leaf = leaf.to_string();
        return Ok(Staging { parent, directory, name, shown, output, leaf });
      }
    }
  }

  /// Remove the staging directory and what it holds, holding its lock
  /// as long as the platform lets a locked directory be removed.
  fn remove(self) -> io::Result<()> {
    let Staging { parent, directory, name, .. } = self;
    parent.remove_locked_tree(&name, directory)
  }
}

/// Where a restore is in a staging tree: the directory it writes in,
/// reached from the root one name at a time, never through a link, and
/// the way back up, each directory above checked when it is opened again
/// through `..`. Items in tree order only ever enter the directory just
/// made or go back up, so one directory is open at a time however deep
/// the tree, and each directory costs one open down and one up.
struct Cursor<'a> {
  root: &'a Directory,
  /// The directory the cursor is in, when below the root.
  current: Option<Directory>,
  /// Its path below the root (`""`: the root).
  path: String,
  /// For each directory entered, outermost first: the identity of the one
  /// holding it and the mode it takes when left.
  entered: Vec<(dir::Identity, u32)>,
}

impl<'a> Cursor<'a> {
  fn new(root: &'a Directory) -> Cursor<'a> {
    Cursor { root, current: None, path: String::new(), entered: Vec::new() }
  }

  fn here(&self) -> &Directory {
    self.current.as_ref().unwrap_or(self.root)
  }

  /// Enter the directory `name`, just made here, which takes `mode` once
  /// left.
  fn enter(&mut self, name: &str, mode: u32) -> io::Result<()> {
    let above = self.here().identity()?;
    let directory = self.here().child(name)?;
    self.entered.push((above, mode));
    if !self.path.is_empty() {
      self.path.push('/');
    }
    self.path.push_str(name);
    self.current = Some(directory);
    Ok(())
  }

  /// Go up to `path`, a directory holding the cursor (or where it is),
  /// giving each directory left its mode.
  fn reach(&mut self, path: &str) -> io::Result<()> {
    while self.path != path {
      let holds =
        path.is_empty() || self.path.strip_prefix(path).is_some_and(|rest| rest.starts_with('/'));
      let (Some(current), Some((above, mode)), true) =
        (self.current.take(), self.entered.pop(), holds)
      else {
        return Err(io::Error::other(format!(
          "`{path}` is not on the way up from `{}`",
          self.path
        )));
      };
      let parent = if self.entered.is_empty() { None } else { Some(current.parent(above)?) };
      current.set_mode(mode)?;
      self.current = parent;
      self.path.truncate(self.path.rfind('/').unwrap_or(0));
    }
    Ok(())
  }
}

/// Put every staged output in place, setting aside what was there; on a
/// failure, put everything back as it was.
fn swap(stagings: &[Staging]) -> io::Result<()> {
  let mut done: Vec<(&Staging, bool)> = Vec::new();
  let mut failure = None;
  for staging in stagings {
    let present = match staging.parent.kind(&staging.leaf) {
      Ok(kind) => kind.is_some(),
      Err(error) => {
        failure = Some(error);
        break;
      }
    };
    if present {
      if let Err(error) = staging.parent.rename(&staging.leaf, &staging.directory, "old") {
        failure = Some(error);
        break;
      }
    }
    if let Err(error) = staging.directory.rename("new", &staging.parent, &staging.leaf) {
      // Best effort: the error reported is the one that stopped the swap.
      if present {
        let _ = staging.directory.rename("old", &staging.parent, &staging.leaf);
      }
      failure = Some(error);
      break;
    }
    done.push((staging, present));
  }
  let Some(error) = failure else {
    return Ok(());
  };
  for (staging, present) in done.into_iter().rev() {
    if staging.parent.rename(&staging.leaf, &staging.directory, "new").is_ok() && present {
      let _ = staging.directory.rename("old", &staging.parent, &staging.leaf);
    }
  }
  Err(error)
}

/// The first symbolic link between `working_directory` and `output`'s
/// parent, if any: an output is never restored through one.
fn linked_parent(working_directory: &Path, output: &str) -> Option<PathBuf> {
  let mut path = working_directory.to_path_buf();
  let mut parts: Vec<&str> = output.split('/').collect();
  parts.pop();
  for part in parts {
    path.push(part);
    match std::fs::symlink_metadata(&path) {
      Ok(metadata) if metadata.file_type().is_symlink() => return Some(path),
      Ok(_) => {}
      Err(_) => return None,
    }
  }
  None
}
