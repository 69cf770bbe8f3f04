//! The shared part of the cache: looking an entry up in the store,
//! restoring its outputs and replaying its output, capturing a run's output
//! and publishing its entry.
//!
//! An entry is a JSON blob: the recipe path, its status, the blobs (hash
//! and size) of its captured standard output and error, and its outputs
//! (every file, directory and symbolic link below each declared output,
//! files as blobs with their size, with their permission bits). What a
//! store returns is hostile until `entry::read` has proven it harmless, as
//! it reads it; `restore` then writes nothing outside the declared outputs.
//! An entry is written to a temporary file as it is described or fetched,
//! and read from there item by item, so neither publishing nor looking one
//! up holds its text in memory. It is published last (`cas/<entry hash>`,
//! then `ac/<key>` naming it), after every blob it names, so a reader never
//! sees an entry whose blobs are missing. A store that fails is warned about
//! once and not used again in the run; a corrupt object is warned about and
//! the recipe runs. A warning that cannot be written does not stop the
//! store operation that meets it: the method of `Shared` the run called
//! returns it when that operation ends.

mod execute;
mod remote;
mod restore;

pub(in crate::execution) use execute::{print_streams, shown_server, Executed};

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lexiclean::Lexiclean;
use serde_json::{json, Value as Json};

pub(super) use restore::Target;

use super::entry;
use super::store::{self, Location, Store, StoreError};
use super::warning::{self, CacheWarning, Unwritten};
use crate::options::Options;
use crate::platform::{mode, stdio};

/// The layout of entries, in the shared key: entries of another layout
/// are never looked up.
pub(super) const FORMAT: u32 = 2;

/// Largest entry read, and published: room for `entry::LARGEST_ENTRY_ITEMS`
/// items of 256 bytes each (an item of a million-file entry takes about 130).
pub(super) const LARGEST_ENTRY: u64 = 256 << 20;

/// Largest `ac` record read (a hash, and a line end).
pub(super) const LARGEST_RECORD: u64 = 256;

/// The run's shared store.
pub(super) struct Shared {
  store: Option<Box<dyn Store>>,
  /// A Remote Execution API store (`remote.rs`), instead of `store`.
  remote: Option<store::RemoteStore>,
  shown: String,
  read_only: bool,
  quiet: bool,
  failed: AtomicBool,
  /// Objects found corrupt in this run: published again, not skipped.
  corrupted: Mutex<std::collections::HashSet<String>>,
  /// Whether `accepts_writes` has tried a write.
  probed: AtomicBool,
  /// The first warning that could not be written, for the caller.
  unwritten: Mutex<Option<Unwritten>>,
}

/// A store opened for one location, mode and timeout.
struct Opened {
  location: Location,
  read_only: bool,
  timeout: u64,
  shared: Arc<Shared>,
}

/// The shared stores one run opened, one per distinct location, mode and
/// timeout (modules may name different ones). Owned by the run: dropping it
/// closes them, which ends their helper processes.
#[derive(Default)]
pub(crate) struct Stores {
  opened: Mutex<Vec<Opened>>,
  /// `--remote-executor`: opened on the first `[cache]` recipe, or why not.
  executor: Mutex<Option<Result<Arc<Shared>, String>>>,
}

/// The `--cache-dir` store the options name, if any.
pub(crate) fn shared_directory(config: &Options) -> Option<PathBuf> {
  config.cache_dir.as_ref().map(|directory| config.invocation_directory.join(directory).lexiclean())
}

impl Stores {
  /// The shared store the options name, opened on first use in the run
  /// (one that cannot be opened is warned about).
  pub(super) fn for_options(&self, config: &Options) -> Result<Option<Arc<Shared>>, Unwritten> {
    let location = match (shared_directory(config), &config.cache_url) {
      (Some(directory), _) => Location::Directory(directory),
      (None, Some(url)) => Location::Url(url.clone()),
      // The executor's server is the cache when no other is named.
      (None, None) => return Ok(self.for_executor(config).and_then(Result::ok)),
    };
    let timeout = config.cache_timeout;
    let read_only = config.cache_read_only;
    let mut opened = self.opened.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let same =
      |o: &&Opened| o.location == location && o.read_only == read_only && o.timeout == timeout;
    if let Some(found) = opened.iter().find(same) {
      return Ok(Some(Arc::clone(&found.shared)));
    }
    let shared = Arc::new(Shared::open(&location, timeout, config));
    opened.push(Opened { location, read_only, timeout, shared: Arc::clone(&shared) });
    shared.reported(())?;
    Ok(Some(shared))
  }
}

impl Stores {
  /// The `--remote-executor`, started on first use in the run, or why it
  /// cannot be used.
  pub(super) fn for_executor(&self, config: &Options) -> Option<Result<Arc<Shared>, String>> {
    let url = config.remote_executor.as_ref()?;
    let mut executor = self.executor.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let opened = executor.get_or_insert_with(|| {
      Shared::open_executor(url, config.cache_timeout, config).map(Arc::new)
    });
    Some(opened.clone())
  }
}

/// What a lookup found: an entry proven harmless for the outputs.
pub(in crate::execution) struct Found {
  checked: entry::Checked,
  /// The entry's object, as messages name it.
  name: String,
  /// A remote store's entry: the private directory its blobs were
  /// fetched into, removed with it.
  staged: Option<tempfile::TempDir>,
}

impl Found {
  /// The entry the cache store helper staged at `path`, with its blobs in
  /// `staging`, checked for `outputs`: `Ok(None)` when it is refused (the
  /// reason is warned about), an error when it is no entry at all.
  fn staged(
    shared: &Shared,
    path: &Path,
    outputs: &[String],
    name: String,
    staging: tempfile::TempDir,
  ) -> Result<Option<Found>, StoreError> {
    let file = File::open(path).map_err(|error| StoreError::io(&error))?;
    match entry::read(io::BufReader::new(file.take(LARGEST_ENTRY + 1)), outputs) {
      Ok(checked) => Ok(Some(Found { checked, name, staged: Some(staging) })),
      Err(entry::Unusable::Refused(reason)) => {
        shared.refuse(&name, &reason);
        Ok(None)
      }
      Err(entry::Unusable::Corrupt) => {
        Err(StoreError("the cache store helper staged an unreadable entry".into()))
      }
    }
  }
}

/// A restored entry's captured output, ready to replay.
pub(super) struct Restored {
  stdout: File,
  stderr: File,
}

/// One stream of a running recipe, copied to ours and to a file.
struct Tee {
  state: Arc<(Mutex<TeeState>, std::sync::Condvar)>,
}

/// The recipe's standard output and error while it runs.
pub(crate) struct Capture {
  stdout: Tee,
  stderr: Tee,
  /// The pipes' write ends, each process of the recipe given a copy
  /// (a recipe of shell lines runs several); dropped by `finish`.
  writers: (io::PipeWriter, io::PipeWriter),
}

/// What a finished recipe printed.
pub(crate) struct Captured {
  stdout: File,
  stderr: File,
}

impl Shared {
  /// Open the store at `location`; one that cannot be opened is warned
  /// about and stands for a failed store, so the run goes on without it.
  fn open(location: &Location, timeout: u64, config: &Options) -> Shared {
    let shared = |store: Option<Box<dyn Store>>, shown, read_only| Shared {
      failed: AtomicBool::new(store.is_none()),
      store,
      remote: None,
      shown,
      read_only,
      quiet: config.quiet,
      corrupted: Mutex::default(),
      probed: AtomicBool::new(false),
      unwritten: Mutex::default(),
    };
    if let Location::Url(url) = location {
      if url.starts_with("grpc://") || url.starts_with("grpcs://") {
        return Self::open_remote(url, timeout, config);
      }
    }
    match store::open(location, Duration::from_secs(timeout)) {
      Ok((store, shown)) => shared(Some(store), shown, config.cache_read_only),
      Err(error) => {
        let failed = shared(None, String::new(), true);
        failed.warn(CacheWarning::StoreNotUsed { why: error.0 });
        failed
      }
    }
  }

  /// The store as messages name it.
  pub(super) fn shown(&self) -> &str {
    &self.shown
  }

  pub(super) fn writable(&self) -> bool {
    !self.read_only && self.usable()
  }

  /// Whether a write to the store succeeds, tried once per run with the
  /// empty blob (harmless to write again): a store that cannot be written
  /// (a read-only mount, a full disk, a refused `PUT`) fails here, warned
  /// about, so that a valid local entry is used rather than the recipe run
  /// again for nothing on every run.
  pub(super) fn accepts_writes(&self) -> Result<bool, Unwritten> {
    if self.remote.is_some() {
      return Ok(self.writable());
    }
    let Some(store) = self.store().filter(|_| !self.read_only) else {
      return Ok(false);
    };
    if self.probed.swap(true, Ordering::Relaxed) {
      return Ok(self.writable());
    }
    let empty = blake3::hash(b"").to_hex();
    match store.put(&format!("cas/{empty}"), &mut io::empty(), 0) {
      Ok(()) => Ok(true),
      Err(error) => {
        self.fail("writing", &error);
        self.reported(false)
      }
    }
  }

  pub(super) fn usable(&self) -> bool {
    (self.store.is_some() || self.remote.is_some()) && !self.failed.load(Ordering::Relaxed)
  }

  /// Print `warning` now. A failed write is kept for the caller: the
  /// store operation that warns goes on, and the method of `Shared` the
  /// run called returns the failure through `reported` when it ends.
  fn warn(&self, warning: CacheWarning) {
    if let Err(failure) = warning::warn(&warning, self.quiet) {
      self
        .unwritten
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get_or_insert(failure);
    }
  }

  /// `value`, or the first warning this store could not write.
  fn reported<T>(&self, value: T) -> Result<T, Unwritten> {
    match self.unwritten.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
      Some(failure) => Err(failure),
      None => Ok(value),
    }
  }

  /// The store failed: say so once, and leave it alone for the rest of the run.
  fn fail(&self, doing: &'static str, error: &StoreError) {
    if !self.failed.swap(true, Ordering::Relaxed) {
      self.warn(CacheWarning::StoreFailed {
        store: self.shown.clone(),
        doing,
        why: error.0.clone(),
      });
    }
  }

  /// An object that is missing, truncated or does not match its hash.
  fn corrupt(&self, object: &str) {
    self.mark_corrupted(object);
    self.warn(CacheWarning::ObjectCorrupt { store: self.shown.clone(), object: object.into() });
  }

  /// An object the store refused to hand over whole (`why`).
  fn refused_object(&self, object: &str, why: &io::Error) {
    self.mark_corrupted(object);
    self.warn(CacheWarning::ObjectRefused {
      store: self.shown.clone(),
      object: object.into(),
      why: why.to_string(),
    });
  }

  /// An object that cannot be used is published again in this run
  /// (replacing it) rather than skipped as present.
  fn mark_corrupted(&self, object: &str) {
    self.corrupted.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(object.into());
  }

  /// An entry that is whole but unsafe or unusable here: say why, once.
  fn refuse(&self, entry: &str, reason: &str) {
    self.warn(CacheWarning::EntryRefused {
      store: self.shown.clone(),
      entry: entry.into(),
      reason: reason.into(),
    });
  }

  /// A run the store cannot hold: say why.
  fn not_published(&self, reason: String) {
    self.warn(CacheWarning::NotPublished { store: self.shown.clone(), reason });
  }

  fn store(&self) -> Option<&dyn Store> {
    self.store.as_deref().filter(|_| self.usable())
  }

  /// Stream a blob into `sink`, checking its size against `bound` as it
  /// comes (reading at most one byte past it) and its hash at the end.
  /// `Ok(false)`: missing, corrupt (warned) or interrupted.
  fn fetch(
    &self,
    store: &dyn Store,
    hex: &str,
    bound: Bound,
    sink: &mut dyn Write,
    interrupted: &dyn Fn() -> bool,
  ) -> Result<bool, StoreError> {
    let name = format!("cas/{hex}");
    let limit = match bound {
      Bound::Exactly(size) | Bound::AtMost(size) => size,
    };
    let Some(reader) = store.get(&name, limit)? else {
      self.corrupt(&name);
      return Ok(false);
    };
    let mut reader = reader.take(limit.saturating_add(1));
    let mut hasher = blake3::Hasher::new();
    let mut buffer = vec![0; 64 << 10];
    let mut total = 0u64;
    loop {
      if interrupted() {
        return Ok(false);
      }
      let count = match reader.read(&mut buffer) {
        Ok(0) => break,
        Ok(count) => count,
        Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
        Err(error) if error.kind() == io::ErrorKind::InvalidData => {
          self.refused_object(&name, &error);
          return Ok(false);
        }
        Err(error) => return Err(StoreError::io(&error)),
      };
      total += count as u64;
      if total > limit {
        self.corrupt(&name);
        return Ok(false);
      }
      hasher.update(&buffer[..count]);
      sink.write_all(&buffer[..count]).map_err(|error| StoreError::io(&error))?;
    }
    if matches!(bound, Bound::Exactly(size) if size != total)
      || hasher.finalize().to_hex().as_str() != hex
    {
      self.corrupt(&name);
      return Ok(false);
    }
    Ok(true)
  }

  /// The entry published for `key`, checked against its hash and, as it
  /// is read, for the declared `outputs` (refused with a warning if it is
  /// not harmless for them).
  pub(super) fn lookup(&self, key: &str, outputs: &[String]) -> Result<Option<Found>, Unwritten> {
    let Some(store) = self.store() else {
      return Ok(None);
    };
    let result = (|| -> Result<Option<Found>, StoreError> {
      let record = format!("ac/{key}");
      let Some(reader) = store.get(&record, LARGEST_RECORD)? else {
        return Ok(None);
      };
      let mut bytes = Vec::new();
      match reader.take(LARGEST_RECORD).read_to_end(&mut bytes) {
        Ok(_) => {}
        Err(error) if error.kind() == io::ErrorKind::InvalidData => {
          self.refused_object(&record, &error);
          return Ok(None);
        }
        Err(_) => {
          self.corrupt(&record);
          return Ok(None);
        }
      }
      let text = String::from_utf8_lossy(&bytes);
      let hex = text.trim();
      if !entry::is_hex(hex) {
        self.corrupt(&record);
        return Ok(None);
      }
      let mut file = tempfile::tempfile().map_err(|error| StoreError::io(&error))?;
      if !self.fetch(store, hex, Bound::AtMost(LARGEST_ENTRY), &mut file, &|| false)? {
        return Ok(None);
      }
      file.rewind().map_err(|error| StoreError::io(&error))?;
      let name = format!("cas/{hex}");
      match entry::read(BufReader::new(file), outputs) {
        Ok(checked) => Ok(Some(Found { checked, name, staged: None })),
        Err(entry::Unusable::Corrupt) => {
          self.corrupt(&name);
          Ok(None)
        }
        Err(entry::Unusable::Refused(reason)) => {
          self.refuse(&name, &reason);
          Ok(None)
        }
      }
    })();
    let found = result.unwrap_or_else(|error| {
      self.fail("looking up an entry", &error);
      None
    });
    self.reported(found)
  }

  /// Publish a successful run, as an entry or, to a REAPI server, as an
  /// ActionResult. A run the store cannot hold is warned about.
  pub(super) fn publish(
    &self,
    key: &str,
    recipe: &str,
    working_directory: &Path,
    outputs: &[String],
    captured: &mut Captured,
  ) -> Result<(), Unwritten> {
    if self.remote.is_some() {
      self.publish_action(key, working_directory, outputs, captured);
    } else {
      self.publish_entry(key, recipe, working_directory, outputs, captured);
    }
    self.reported(())
  }

  /// Publish a successful run: blobs first, then the entry, then its record.
  /// Outputs the store cannot hold (a FIFO, a socket, a name that is not
  /// UTF-8, a link leaving its output) are warned about and not published.
  ///
  /// The entry is written to a temporary file as the outputs are walked
  /// (at most `LARGEST_ENTRY` of it, the rest only counted), then read back
  /// and checked as a reader would, which gives the files to upload.
  fn publish_entry(
    &self,
    key: &str,
    recipe: &str,
    working_directory: &Path,
    outputs: &[String],
    captured: &mut Captured,
  ) {
    let Some(store) = self.store() else {
      return;
    };
    let described = (|| -> Result<(EntryText, entry::Checked), String> {
      let mut text = describe(recipe, working_directory, outputs, captured)
        .map_err(|error| error.to_string())?;
      shareable(text.size)?;
      text.file.rewind().map_err(|error| error.to_string())?;
      match entry::read(BufReader::new(&text.file), outputs) {
        Ok(checked) => Ok((text, checked)),
        Err(entry::Unusable::Refused(reason)) => Err(reason),
        Err(entry::Unusable::Corrupt) => Err("the entry does not read back".into()),
      }
    })();
    let (mut text, checked) = match described {
      Ok(described) => described,
      Err(reason) => {
        self.not_published(reason);
        return;
      }
    };
    let result = (|| -> Result<(), StoreError> {
      for item in checked.items() {
        let entry::Kind::File { blob, .. } = item.kind else {
          continue;
        };
        let output = &outputs[item.output];
        let path = if item.relative.is_empty() {
          working_directory.join(output)
        } else {
          working_directory.join(output).join(item.relative)
        };
        let mut file = File::open(path).map_err(|error| StoreError::io(&error))?;
        self.upload(store, &mut file, &blob)?;
      }
      for (file, blob) in
        [(&mut captured.stdout, checked.stdout), (&mut captured.stderr, checked.stderr)]
      {
        self.upload(store, file, &blob)?;
      }
      drop(checked);
      let hex = text.hex.clone();
      text.file.rewind().map_err(|error| StoreError::io(&error))?;
      store.put(&format!("cas/{hex}"), &mut (&text.file).take(text.size), text.size)?;
      store.put(&format!("ac/{key}"), &mut hex.as_bytes(), hex.len() as u64)
    })();
    if let Err(error) = result {
      self.fail("publishing an entry", &error);
    }
  }

  /// Store a blob unless the store has it whole: one this run found
  /// corrupt is written again, replacing the broken copy.
  fn upload(
    &self,
    store: &dyn Store,
    file: &mut File,
    blob: &entry::Blob,
  ) -> Result<(), StoreError> {
    let name = format!("cas/{}", blob.hex());
    let broken =
      self.corrupted.lock().unwrap_or_else(std::sync::PoisonError::into_inner).contains(&name);
    if broken || !store.contains(&name)? {
      file.rewind().map_err(|error| StoreError::io(&error))?;
      store.put(&name, &mut file.take(blob.size), blob.size)?;
    }
    Ok(())
  }
}

/// Whether readers accept an entry of `size` bytes: larger than
/// `LARGEST_ENTRY`, it is refused with its size and the limit.
fn shareable(size: u64) -> Result<(), String> {
  if size > LARGEST_ENTRY {
    return Err(format!(
      "the entry takes {} MiB, more than the {} MiB a reader accepts",
      size.div_ceil(1 << 20),
      LARGEST_ENTRY >> 20
    ));
  }
  Ok(())
}

/// An entry's text in a temporary file: its size (past `LARGEST_ENTRY`,
/// only counted) and hash.
struct EntryText {
  file: File,
  size: u64,
  hex: String,
}

/// Where an entry's text is written: a file, up to `LARGEST_ENTRY`.
struct Counted {
  file: BufWriter<File>,
  hasher: blake3::Hasher,
  size: u64,
}

impl Write for Counted {
  fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
    self.size += bytes.len() as u64;
    if self.size <= LARGEST_ENTRY {
      self.hasher.update(bytes);
      self.file.write_all(bytes)?;
    }
    Ok(bytes.len())
  }

  fn flush(&mut self) -> io::Result<()> {
    self.file.flush()
  }
}

/// Write the entry of the run: the captured streams' blobs, and every item
/// below each output as `walk` finds it.
fn describe(
  recipe: &str,
  working_directory: &Path,
  outputs: &[String],
  captured: &mut Captured,
) -> io::Result<EntryText> {
  let stdout = blob_of(&mut captured.stdout)?;
  let stderr = blob_of(&mut captured.stderr)?;
  let sink =
    Counted { file: BufWriter::new(tempfile::tempfile()?), hasher: blake3::Hasher::new(), size: 0 };
  let mut writer = entry::Writer::start(sink, recipe, &stdout, &stderr)?;
  for output in outputs {
    walk(working_directory, output, &mut writer)?;
  }
  let Counted { file, hasher, size } = writer.finish()?;
  let file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
  Ok(EntryText { file, size, hex: hasher.finalize().to_hex().to_string() })
}

/// How large a blob must be.
#[derive(Clone, Copy)]
enum Bound {
  Exactly(u64),
  AtMost(u64),
}

/// A file's blob: its hash and size.
fn blob_of(file: &mut File) -> io::Result<entry::Blob> {
  file.rewind()?;
  let mut hasher = blake3::Hasher::new();
  let size = io::copy(file, &mut hasher)?;
  Ok(entry::Blob { hash: *hasher.finalize().as_bytes(), size })
}

impl Restored {
  /// Print what the recipe printed when it ran.
  pub(super) fn replay(mut self) -> (io::Result<()>, io::Result<()>) {
    (
      copy_out(&mut self.stdout, stdio::stdout_bytes),
      copy_out(&mut self.stderr, stdio::stderr_bytes),
    )
  }
}

fn copy_out(file: &mut File, write: fn(&[u8]) -> io::Result<()>) -> io::Result<()> {
  let mut buffer = vec![0; 64 << 10];
  loop {
    match file.read(&mut buffer) {
      Ok(0) => return Ok(()),
      Ok(count) => write(&buffer[..count])?,
      Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
      Err(error) => return Err(error),
    }
  }
}

/// Describe `output` and everything below it, parents first; anything but
/// a regular file, a directory or a symbolic link, or a name that is not
/// UTF-8, is an error (a FIFO is never opened).
fn walk<W: Write>(
  working_directory: &Path,
  output: &str,
  writer: &mut entry::Writer<W>,
) -> io::Result<()> {
  let path = working_directory.join(output);
  let metadata = fs::symlink_metadata(&path)?;
  let file_type = metadata.file_type();
  if file_type.is_symlink() {
    let target = fs::read_link(&path)?;
    let target = target
      .to_str()
      .ok_or_else(|| io::Error::other(format!("the target of link `{output}` is not UTF-8")))?;
    writer.item(output, entry::Kind::Symlink { target })?;
  } else if file_type.is_dir() {
    writer.item(output, entry::Kind::Directory { mode: mode::of(&metadata) })?;
    let mut children = Vec::new();
    for child in fs::read_dir(&path)? {
      let name = child?.file_name();
      let name = name.into_string().map_err(|name| {
        io::Error::other(format!("`{output}/{}` is not a UTF-8 name", name.to_string_lossy()))
      })?;
      children.push(name);
    }
    children.sort();
    for child in children {
      walk(working_directory, &format!("{output}/{child}"), writer)?;
    }
  } else if file_type.is_file() {
    let blob = blob_of(&mut File::open(&path)?)?;
    writer.item(output, entry::Kind::File { blob, mode: mode::of(&metadata) })?;
  } else {
    return Err(io::Error::other(format!("`{output}` is not a file, directory or symbolic link")));
  }
  Ok(())
}

impl Capture {
  /// Send the recipe's standard output and error through pipes that copy
  /// them to ours and to files.
  pub(crate) fn start(process: &mut std::process::Command) -> io::Result<Capture> {
    let capture = Capture::new()?;
    capture.attach(process)?;
    Ok(capture)
  }

  /// The pipes and their tees, before any process is attached.
  pub(crate) fn new() -> io::Result<Capture> {
    let (stdout_reader, stdout_writer) = io::pipe()?;
    let (stderr_reader, stderr_writer) = io::pipe()?;
    Ok(Capture {
      stdout: Tee::start(stdout_reader, stdio::stdout_bytes)?,
      stderr: Tee::start(stderr_reader, stdio::stderr_bytes)?,
      writers: (stdout_writer, stderr_writer),
    })
  }

  /// Send another process's standard output and error into the capture.
  pub(crate) fn attach(&self, process: &mut std::process::Command) -> io::Result<()> {
    process.stdout(self.writers.0.try_clone()?).stderr(self.writers.1.try_clone()?);
    Ok(())
  }

  /// Wait for both streams to close (the caller has dropped the commands,
  /// which hold copies of the pipes' write ends). A failure to pass the
  /// output on is returned with the stream it hit.
  pub(crate) fn finish(self) -> Result<Captured, (bool, io::Error)> {
    drop(self.writers);
    let stdout = self.stdout.finish().map_err(|error| (true, error))?;
    let stderr = self.stderr.finish().map_err(|error| (false, error))?;
    Ok(Captured { stdout, stderr })
  }
}

/// How long the output of a finished recipe may stay silent before what
/// was captured is taken: a background process still holding the pipe does
/// not hold the run.
const QUIET: Duration = Duration::from_millis(100);

/// The longest wait for a finished recipe's output to end.
const LONGEST_DRAIN: Duration = Duration::from_secs(1);

/// What a tee's thread shares with `finish`.
#[derive(Default)]
struct TeeState {
  /// The capture, until `finish` takes it.
  file: Option<File>,
  /// The first failure to pass the output on.
  failure: Option<io::Error>,
  /// A failure to read the pipe.
  broken: Option<io::Error>,
  done: bool,
  last: Option<std::time::Instant>,
}

impl Tee {
  fn start(mut pipe: io::PipeReader, write: fn(&[u8]) -> io::Result<()>) -> io::Result<Tee> {
    let state = Arc::new((
      Mutex::new(TeeState { file: Some(tempfile::tempfile()?), ..TeeState::default() }),
      std::sync::Condvar::new(),
    ));
    let shared = state.clone();
    std::thread::spawn(move || {
      let (lock, changed) = &*shared;
      let mut buffer = vec![0; 64 << 10];
      let mut failed = false;
      loop {
        let count = match pipe.read(&mut buffer) {
          Ok(0) => break,
          Ok(count) => count,
          Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
          Err(error) => {
            lock_state(lock).broken = Some(error);
            break;
          }
        };
        let passed = if failed { Ok(()) } else { write(&buffer[..count]) };
        let mut state = lock_state(lock);
        if let Err(error) = passed {
          failed = true;
          state.failure.get_or_insert(error);
        }
        if let Some(file) = &mut state.file {
          if let Err(error) = file.write_all(&buffer[..count]) {
            state.broken = Some(error);
          }
        }
        state.last = Some(std::time::Instant::now());
        changed.notify_all();
      }
      lock_state(lock).done = true;
      changed.notify_all();
    });
    Ok(Tee { state })
  }

  /// What was captured once the pipe closed, or stayed quiet for `QUIET`
  /// after the recipe ended (at most `LONGEST_DRAIN`); a thread still
  /// reading goes on passing the output on, not capturing it.
  fn finish(self) -> io::Result<File> {
    let (lock, changed) = &*self.state;
    let started = std::time::Instant::now();
    let mut state = lock_state(lock);
    loop {
      if state.done {
        break;
      }
      let now = std::time::Instant::now();
      let quiet_until = state.last.map_or(started, |last| last.max(started)) + QUIET;
      let until = quiet_until.min(started + LONGEST_DRAIN);
      if now >= until {
        break;
      }
      state = changed
        .wait_timeout(state, until - now)
        .map_or_else(|poisoned| poisoned.into_inner().0, |(state, _)| state);
    }
    if let Some(error) = state.broken.take() {
      return Err(error);
    }
    if let Some(error) = state.failure.take() {
      return Err(error);
    }
    state.file.take().ok_or_else(|| io::Error::other("output capture already taken"))
  }
}

fn lock_state(lock: &Mutex<TeeState>) -> std::sync::MutexGuard<'_, TeeState> {
  lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The platform, in a shared store's key: what runs on one operating system
/// or architecture is not reused on another, and entries of another layout
/// are not looked up.
pub(super) fn platform() -> Json {
  json!({
    "format": FORMAT,
    "os": std::env::consts::OS,
    "arch": std::env::consts::ARCH,
  })
}

/// The working directory relative to the justfile's, with `/` between
/// components, for a key that is the same in every checkout.
pub(super) fn relative_directory(root: &Path, working_directory: &Path) -> String {
  match working_directory.strip_prefix(root) {
    Ok(relative) => {
      let parts: Vec<_> =
        relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
      if parts.is_empty() {
        ".".into()
      } else {
        parts.join("/")
      }
    }
    Err(_) => PathBuf::from(working_directory).to_string_lossy().into_owned(),
  }
}

/// Restore `entry` (arbitrary bytes, as a hostile store could hold) for
/// the declared `outputs` into `working_directory` from the directory
/// store `store`, quietly: whether it was restored. For the fuzz target
/// `cache_restore`, which checks that nothing outside the outputs changes.
pub(crate) fn restore_for_fuzzing(
  store: &Path,
  working_directory: &Path,
  outputs: &[String],
  entry: &[u8],
) -> bool {
  if entry::check_outputs(outputs).is_err() {
    return false;
  }
  let Ok(checked) = entry::parse(entry, outputs) else {
    return false;
  };
  let shared = Shared {
    store: store::open(&Location::Directory(store.to_path_buf()), Duration::from_secs(1))
      .ok()
      .map(|(store, _)| store),
    remote: None,
    shown: String::new(),
    read_only: true,
    quiet: true,
    failed: AtomicBool::new(false),
    corrupted: Mutex::default(),
    probed: AtomicBool::new(false),
    unwritten: Mutex::default(),
  };
  let found = Found { checked, name: "cas/fuzz".into(), staged: None };
  let target = Target { working_directory, outputs, protected: &[] };
  matches!(shared.restore(found, &target, &|| false), Ok(Some(_)))
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn an_entry_of_the_largest_size_a_reader_accepts_is_shareable() {
    assert_eq!(shareable(LARGEST_ENTRY), Ok(()));
  }

  #[test]
  fn an_entry_one_byte_larger_is_not() {
    assert_eq!(
      shareable(LARGEST_ENTRY + 1),
      Err("the entry takes 257 MiB, more than the 256 MiB a reader accepts".into())
    );
  }
}
