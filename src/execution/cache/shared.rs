//! The shared part of the cache: looking an entry up in the store,
//! restoring its outputs and replaying its output, capturing a run's output
//! and publishing its entry.
//!
//! An entry is a JSON blob: the recipe path, its status, the blobs of its
//! captured standard output and error, and its outputs (every file,
//! directory and symbolic link below each declared output, files as blobs,
//! with their permission bits). It is published last (`cas/<entry hash>`,
//! then `ac/<key>` naming it), after every blob it names, so a reader never
//! sees an entry whose blobs are missing. A store that fails is warned about
//! once and not used again in the run; a corrupt object is warned about and
//! the recipe runs.

use std::fs::{self, File};
use std::io::{self, Read, Seek, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use lexiclean::Lexiclean;
use serde_json::{json, Value as Json};

use super::store::{self, Location, Store, StoreError};
use crate::options::Options;
use crate::platform::{mode, stdio};

/// Seconds each network wait of a store may take, unless `--cache-timeout`.
const DEFAULT_TIMEOUT: u64 = 10;

/// Largest entry or `ac` record read.
const LARGEST_ENTRY: u64 = 64 << 20;

/// The run's shared store.
pub(super) struct Shared {
  store: Option<Box<dyn Store>>,
  shown: String,
  read_only: bool,
  quiet: bool,
  failed: AtomicBool,
}

type Opened = (Location, bool, u64, Arc<Shared>);

static OPENED: Mutex<Vec<Opened>> = Mutex::new(Vec::new());

/// The `--cache-dir` store the options name, if any.
pub(crate) fn shared_directory(config: &Options) -> Option<PathBuf> {
  config.cache_dir.as_ref().map(|directory| config.invocation_directory.join(directory).lexiclean())
}

/// The shared store the options name, opened once per distinct options.
pub(super) fn for_options(config: &Options) -> Option<Arc<Shared>> {
  let location = match (shared_directory(config), &config.cache_url) {
    (Some(directory), _) => Location::Directory(directory),
    (None, Some(url)) => Location::Url(url.clone()),
    (None, None) => return None,
  };
  let timeout = config.cache_timeout.unwrap_or(DEFAULT_TIMEOUT);
  let mut opened = OPENED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
  if let Some((.., shared)) = opened
    .iter()
    .find(|(l, r, t, _)| *l == location && *r == config.cache_read_only && *t == timeout)
  {
    return Some(shared.clone());
  }
  let shared = Arc::new(match store::open(&location, Duration::from_secs(timeout)) {
    Ok((store, shown)) => Shared {
      store: Some(store),
      shown,
      read_only: config.cache_read_only,
      quiet: config.quiet,
      failed: AtomicBool::new(false),
    },
    Err(error) => {
      let shared = Shared {
        store: None,
        shown: String::new(),
        read_only: true,
        quiet: config.quiet,
        failed: AtomicBool::new(true),
      };
      shared.warn(&format!("shared cache not used: {}", error.0));
      shared
    }
  });
  opened.push((location, config.cache_read_only, timeout, shared.clone()));
  Some(shared)
}

/// What a lookup found.
pub(super) struct Found {
  entry: Json,
}

/// A restored entry's captured output, ready to replay.
pub(super) struct Restored {
  stdout: File,
  stderr: File,
  _staging: tempfile::TempDir,
}

/// One stream of a running recipe, copied to ours and to a file.
struct Tee {
  thread: JoinHandle<io::Result<(File, Option<io::Error>)>>,
}

/// The recipe's standard output and error while it runs.
pub(crate) struct Capture {
  stdout: Tee,
  stderr: Tee,
}

/// What a finished recipe printed.
pub(crate) struct Captured {
  stdout: File,
  stderr: File,
}

impl Shared {
  /// The store as messages name it.
  pub(super) fn shown(&self) -> &str {
    &self.shown
  }

  pub(super) fn writable(&self) -> bool {
    !self.read_only && self.usable()
  }

  pub(super) fn usable(&self) -> bool {
    self.store.is_some() && !self.failed.load(Ordering::Relaxed)
  }

  fn warn(&self, text: &str) {
    if !self.quiet {
      let _ = stdio::stderr_line(&format!("warning: {text}"));
    }
  }

  /// The store failed: say so once, and leave it alone for the rest of the run.
  fn fail(&self, doing: &str, error: &StoreError) {
    if !self.failed.swap(true, Ordering::Relaxed) {
      self.warn(&format!(
        "shared cache `{}` failed while {doing} ({}); running without it",
        self.shown, error.0
      ));
    }
  }

  fn corrupt(&self, object: &str) {
    self.warn(&format!(
      "shared cache `{}`: object `{object}` is corrupt or incomplete; ignoring the entry",
      self.shown
    ));
  }

  fn store(&self) -> Option<&dyn Store> {
    self.store.as_deref().filter(|_| self.usable())
  }

  /// Read a blob into `sink`, checking it against its name. `Ok(false)`:
  /// missing or corrupt (warned).
  fn fetch(&self, hex: &str, sink: &mut dyn Write) -> Result<bool, StoreError> {
    let Some(store) = self.store() else {
      return Ok(false);
    };
    let name = format!("cas/{hex}");
    let Some(mut reader) = store.get(&name)? else {
      self.corrupt(&name);
      return Ok(false);
    };
    let mut hasher = blake3::Hasher::new();
    let mut buffer = vec![0; 64 << 10];
    loop {
      let count = match reader.read(&mut buffer) {
        Ok(0) => break,
        Ok(count) => count,
        Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
        Err(error) => return Err(StoreError::io(&error)),
      };
      hasher.update(&buffer[..count]);
      sink.write_all(&buffer[..count]).map_err(|error| StoreError::io(&error))?;
    }
    if hasher.finalize().to_hex().as_str() != hex {
      self.corrupt(&name);
      return Ok(false);
    }
    Ok(true)
  }

  /// The entry published for `key`, checked against its hash.
  pub(super) fn lookup(&self, key: &str) -> Option<Found> {
    let store = self.store()?;
    let result = (|| -> Result<Option<Found>, StoreError> {
      let record = format!("ac/{key}");
      let Some(reader) = store.get(&record)? else {
        return Ok(None);
      };
      let mut text = String::new();
      if reader.take(LARGEST_ENTRY).read_to_string(&mut text).is_err() {
        self.corrupt(&record);
        return Ok(None);
      }
      let hex = text.trim();
      if !is_hex(hex) {
        self.corrupt(&record);
        return Ok(None);
      }
      let mut bytes = Vec::new();
      if !self.fetch(hex, &mut bytes)? {
        return Ok(None);
      }
      match serde_json::from_slice::<Json>(&bytes) {
        Ok(entry) if entry.get("outputs").is_some_and(Json::is_array) => Ok(Some(Found { entry })),
        _ => {
          self.corrupt(&format!("cas/{hex}"));
          Ok(None)
        }
      }
    })();
    result.unwrap_or_else(|error| {
      self.fail("looking up an entry", &error);
      None
    })
  }

  /// Put the entry's outputs in place (replacing what is there) and keep
  /// its output for replay. `None` when the entry cannot be used (warned).
  pub(super) fn restore(
    &self,
    found: &Found,
    working_directory: &Path,
    outputs: &[String],
  ) -> Option<Restored> {
    let result = (|| -> Result<Option<Restored>, StoreError> {
      let io = |error: io::Error| StoreError::io(&error);
      let staging = tempfile::Builder::new()
        .prefix(".just-restore-")
        .tempdir_in(working_directory)
        .map_err(io)?;
      let items = found.entry["outputs"].as_array().map(Vec::as_slice).unwrap_or_default();
      let mut directories = Vec::new();
      let mut links: Vec<&str> = Vec::new();
      for item in items {
        let Some((index, relative)) = place(item, outputs) else {
          self.corrupt("entry outputs");
          return Ok(None);
        };
        // Nothing is written through a link the entry made.
        let path = item["path"].as_str().unwrap_or_default();
        if links
          .iter()
          .any(|link| path.strip_prefix(link).is_some_and(|rest| rest.starts_with('/')))
        {
          self.corrupt("entry outputs");
          return Ok(None);
        }
        let mut staged = staging.path().join(index.to_string());
        if !relative.is_empty() {
          staged.push(relative);
        }
        if let Some(parent) = staged.parent() {
          fs::create_dir_all(parent).map_err(io)?;
        }
        let item_mode = item["mode"].as_u64().and_then(|m| u32::try_from(m).ok()).unwrap_or(0o644);
        match item["type"].as_str() {
          Some("directory") => {
            fs::create_dir_all(&staged).map_err(io)?;
            directories.push((staged, item_mode));
          }
          Some("symlink") => {
            links.push(path);
            let target = item["target"].as_str().unwrap_or_default();
            mode::symlink(Path::new(target), &staged).map_err(io)?;
          }
          Some("file") => {
            let blob = item["blob"].as_str().unwrap_or_default();
            let mut file = File::create(&staged).map_err(io)?;
            if !is_hex(blob) || !self.fetch(blob, &mut file)? {
              return Ok(None);
            }
            mode::set(&staged, item_mode).map_err(io)?;
          }
          _ => {
            self.corrupt("entry outputs");
            return Ok(None);
          }
        }
      }
      for index in 0..outputs.len() {
        if fs::symlink_metadata(staging.path().join(index.to_string())).is_err() {
          self.corrupt("entry outputs");
          return Ok(None);
        }
      }
      let mut streams = Vec::new();
      for stream in ["stdout", "stderr"] {
        let blob = found.entry[stream].as_str().unwrap_or_default();
        let mut file = tempfile::tempfile_in(staging.path()).map_err(io)?;
        if !is_hex(blob) || !self.fetch(blob, &mut file)? {
          return Ok(None);
        }
        file.rewind().map_err(io)?;
        streams.push(file);
      }
      for (directory, directory_mode) in directories.iter().rev() {
        mode::set(directory, *directory_mode).map_err(io)?;
      }
      for (index, output) in outputs.iter().enumerate() {
        let target = working_directory.join(output);
        remove(&target).map_err(io)?;
        if let Some(parent) = target.parent() {
          fs::create_dir_all(parent).map_err(io)?;
        }
        fs::rename(staging.path().join(index.to_string()), &target).map_err(io)?;
      }
      let stderr = streams.pop();
      let stdout = streams.pop();
      Ok(stdout.zip(stderr).map(|(stdout, stderr)| Restored { stdout, stderr, _staging: staging }))
    })();
    result.unwrap_or_else(|error| {
      self.fail("restoring an entry", &error);
      None
    })
  }

  /// Publish a successful run: blobs first, then the entry, then its record.
  pub(super) fn publish(
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
    let result = (|| -> Result<(), StoreError> {
      let io = |error: io::Error| StoreError::io(&error);
      let mut items = Vec::new();
      for output in outputs {
        walk(working_directory, output, &mut items).map_err(io)?;
      }
      for item in &mut items {
        if item["type"] == "file" {
          let path = working_directory.join(item["path"].as_str().unwrap_or_default());
          let mut file = File::open(&path).map_err(io)?;
          item["blob"] = Json::from(self.upload(store, &mut file)?);
        }
      }
      let stdout = self.upload(store, &mut captured.stdout)?;
      let stderr = self.upload(store, &mut captured.stderr)?;
      let entry = json!({
        "recipe": recipe,
        "status": 0,
        "stdout": stdout,
        "stderr": stderr,
        "outputs": items,
      })
      .to_string();
      let hex = blake3::hash(entry.as_bytes()).to_hex().to_string();
      store.put(&format!("cas/{hex}"), &mut entry.as_bytes(), entry.len() as u64)?;
      store.put(&format!("ac/{key}"), &mut hex.as_bytes(), hex.len() as u64)
    })();
    if let Err(error) = result {
      self.fail("publishing an entry", &error);
    }
  }

  /// Store a file's bytes as a blob unless the store has it; its hash.
  fn upload(&self, store: &dyn Store, file: &mut File) -> Result<String, StoreError> {
    let io = |error: io::Error| StoreError::io(&error);
    file.rewind().map_err(io)?;
    let mut hasher = blake3::Hasher::new();
    let length = io::copy(file, &mut hasher).map_err(io)?;
    let hex = hasher.finalize().to_hex().to_string();
    let name = format!("cas/{hex}");
    if !store.contains(&name)? {
      file.rewind().map_err(io)?;
      store.put(&name, file, length)?;
    }
    Ok(hex)
  }
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

/// Where an entry's output item goes: the index of the declared output it
/// is under and its path below that. `None` for an item outside every
/// declared output, or a path that climbs.
fn place<'a>(item: &'a Json, outputs: &[String]) -> Option<(usize, &'a str)> {
  let path = item["path"].as_str()?;
  if Path::new(path)
    .components()
    .any(|component| !matches!(component, Component::Normal(_) | Component::CurDir))
  {
    return None;
  }
  outputs.iter().enumerate().find_map(|(index, output)| {
    if path == output {
      Some((index, ""))
    } else {
      path.strip_prefix(output.as_str())?.strip_prefix('/').map(|rest| (index, rest))
    }
  })
}

/// Describe `output` and everything below it, parents first.
fn walk(working_directory: &Path, output: &str, items: &mut Vec<Json>) -> io::Result<()> {
  let path = working_directory.join(output);
  let metadata = fs::symlink_metadata(&path)?;
  let file_type = metadata.file_type();
  if file_type.is_symlink() {
    let target = fs::read_link(&path)?;
    items.push(json!({"path": output, "type": "symlink", "target": target.to_string_lossy()}));
  } else if file_type.is_dir() {
    items.push(json!({"path": output, "type": "directory", "mode": mode::of(&metadata)}));
    let mut children = fs::read_dir(&path)?
      .map(|child| child.map(|child| child.file_name().to_string_lossy().into_owned()))
      .collect::<io::Result<Vec<_>>>()?;
    children.sort();
    for child in children {
      walk(working_directory, &format!("{output}/{child}"), items)?;
    }
  } else {
    items.push(json!({"path": output, "type": "file", "mode": mode::of(&metadata)}));
  }
  Ok(())
}

fn remove(path: &Path) -> io::Result<()> {
  match fs::symlink_metadata(path) {
    Ok(metadata) if metadata.is_dir() => fs::remove_dir_all(path),
    Ok(_) => fs::remove_file(path),
    Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
    Err(error) => Err(error),
  }
}

fn is_hex(text: &str) -> bool {
  text.len() == 64 && text.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

impl Capture {
  /// Send the recipe's standard output and error through pipes that copy
  /// them to ours and to files.
  pub(crate) fn start(process: &mut std::process::Command) -> io::Result<Capture> {
    let (stdout_reader, stdout_writer) = io::pipe()?;
    let (stderr_reader, stderr_writer) = io::pipe()?;
    process.stdout(stdout_writer).stderr(stderr_writer);
    Ok(Capture {
      stdout: Tee::start(stdout_reader, stdio::stdout_bytes)?,
      stderr: Tee::start(stderr_reader, stdio::stderr_bytes)?,
    })
  }

  /// Wait for both streams to close (the caller has dropped the command,
  /// which holds the pipes' write ends). A failure to pass the output on
  /// is returned with the stream it hit.
  pub(crate) fn finish(self) -> Result<Captured, (bool, io::Error)> {
    let stdout = self.stdout.finish().map_err(|error| (true, error))?;
    let stderr = self.stderr.finish().map_err(|error| (false, error))?;
    Ok(Captured { stdout, stderr })
  }
}

impl Tee {
  fn start(mut pipe: io::PipeReader, write: fn(&[u8]) -> io::Result<()>) -> io::Result<Tee> {
    let mut file = tempfile::tempfile()?;
    let thread = std::thread::spawn(move || {
      let mut buffer = vec![0; 64 << 10];
      let mut failure = None;
      loop {
        let count = match pipe.read(&mut buffer) {
          Ok(0) => break,
          Ok(count) => count,
          Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
          Err(error) => return Err(error),
        };
        if failure.is_none() {
          failure = write(&buffer[..count]).err();
        }
        file.write_all(&buffer[..count])?;
      }
      Ok((file, failure))
    });
    Ok(Tee { thread })
  }

  fn finish(self) -> io::Result<File> {
    let (file, failure) =
      self.thread.join().map_err(|_| io::Error::other("output thread panicked"))??;
    match failure {
      Some(error) => Err(error),
      None => Ok(file),
    }
  }
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
