//! Cached recipes (`[cache]`, unstable) and `--clean`.
//!
//! The key is a JSON object describing everything that determines a script
//! recipe's run; its BLAKE3 hash names the entry file
//! `<root justfile dir>/.justcache/<hex>.json`. An entry is empty while the
//! recipe has not yet succeeded and `{"recipe":"PATH"}` afterwards, with
//! `"outputs"`, the digest of each declared output, when it has any. A hit
//! needs every output to be what that run left: an output changed since
//! (an undo of the inputs, an edit) makes the recipe run again.
//!
//! With a shared store (`--cache-dir`, `--cache-url`, see `shared.rs`) the
//! store decides first: its entry for the key, with the working directory
//! taken relative to the justfile's, is restored and replayed; without one
//! a writable store gets the run published, and a read-only or failing
//! store leaves the decision to the local entry, which also serves as the
//! lock for concurrent runs of the recipe in one checkout.

mod digest;
mod inputs;
mod shared;
mod store;

pub(crate) use shared::{Capture, Captured};
pub(crate) use store::serve as serve_store;

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value as Json};

use super::error::{stderr_line, ExecutionError};
use crate::evaluation::evaluator::{Evaluator, RecipeScope, RunContext};
use crate::syntax::ast::{Attribute, CacheAttribute};
use crate::syntax::attributes::AttributeKind;

type Result<'src, T = ()> = std::result::Result<T, ExecutionError<'src>>;

pub(crate) const DIRECTORY: &str = ".justcache";

/// How the script is run, as recorded in the key.
pub(crate) enum KeyExecutor<'e> {
  Shebang { interpreter: &'e str, argument: Option<&'e str> },
  Command { command: &'e str, arguments: &'e [String] },
}

/// What a script recipe contributes to its cache key.
pub(crate) struct KeyParts<'e> {
  pub body: &'e [String],
  pub executor: KeyExecutor<'e>,
  pub positional: Option<Vec<String>>,
  pub working_directory: &'e Path,
}

/// A locked cache entry for one run of a recipe.
pub(crate) struct Entry {
  file: File,
  outputs: Vec<String>,
  path: PathBuf,
  working_directory: PathBuf,
  pub hit: bool,
  /// A hit restored from the shared store: its output, to replay.
  restored: Option<shared::Restored>,
  /// The shared store to publish a run to, and the run's key there.
  publish: Option<(std::sync::Arc<shared::Shared>, String)>,
}

/// Paths a `[cache]` recipe declared, resolved against its working
/// directory: what `--watch` watches (inputs) and ignores (outputs).
#[derive(Debug, Default)]
pub(crate) struct Declared {
  pub inputs: Vec<PathBuf>,
  pub outputs: Vec<PathBuf>,
}

/// Called with each recipe's paths as soon as they are known, before the
/// recipe runs (`--watch`); part of the run.
pub(crate) type Observer = std::sync::Arc<dyn Fn(Declared) + Send + Sync>;

fn declare(observer: Option<&Observer>, parts: &KeyParts<'_>, paths: &[String], as_output: bool) {
  let Some(observer) = observer else {
    return;
  };
  let paths = paths.iter().map(|path| parts.working_directory.join(path)).collect();
  observer(if as_output {
    Declared { inputs: Vec::new(), outputs: paths }
  } else {
    Declared { inputs: paths, outputs: Vec::new() }
  });
}

fn message<'src>(message: String) -> ExecutionError<'src> {
  ExecutionError::Message { message }
}

/// The `[cache]` attribute of a recipe, if any.
pub(crate) fn attribute<'a, 'src>(
  scope: &RecipeScope<'a, 'src>,
) -> Option<&'a CacheAttribute<'src>> {
  match scope.recipe.attribute(AttributeKind::Cache) {
    Some(Attribute::Cache(cache)) => Some(cache),
    _ => None,
  }
}

/// Build the key, print it with `-vv`, create and lock the entry file and
/// decide whether it is a hit.
pub(crate) fn open<'src>(
  context: &RunContext<'_, 'src>,
  observer: Option<&Observer>,
  evaluator: &Evaluator<'_, '_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  cache: &CacheAttribute<'src>,
  parts: &KeyParts<'_>,
) -> Result<'src, Entry> {
  let recipe = scope.recipe;
  let extra = match &cache.extra {
    Some(extra) => Json::from(evaluator.evaluate(&extra.value)?.elements().to_vec()),
    None => Json::Null,
  };
  let inputs = match &cache.inputs {
    Some(inputs) => {
      let mut map = Map::new();
      let value = evaluator.evaluate(&inputs.value)?;
      let files = inputs::expand(parts.working_directory, value.elements()).map_err(message)?;
      let names: Vec<String> = files.iter().map(|input| input.name.clone()).collect();
      declare(observer, parts, &names, false);
      for input in files {
        let hash = hash_input(&input.path)?;
        map.insert(input.name, Json::from(hash.to_vec()));
      }
      Json::Object(map)
    }
    None => Json::Null,
  };
  let outputs = match &cache.outputs {
    Some(outputs) => evaluator.evaluate(&outputs.value)?.elements().to_vec(),
    None => Vec::new(),
  };
  declare(observer, parts, &outputs, true);

  let mut environment = Map::new();
  let changes = evaluator.environment();
  let mut names: Vec<&String> = changes.set.keys().chain(changes.remove.iter()).collect();
  names.sort();
  names.dedup();
  for name in names {
    let value = changes.set.get(name).map_or(Json::Null, |value| Json::from(value.clone()));
    environment.insert(name.clone(), value);
  }
  let executor = match &parts.executor {
    KeyExecutor::Shebang { interpreter, argument } => {
      json!({"type": "shebang", "argument": argument, "interpreter": interpreter})
    }
    KeyExecutor::Command { command, arguments } => {
      json!({"type": "command", "command": command, "arguments": arguments})
    }
  };
  let extension = match recipe.attribute(AttributeKind::Extension) {
    Some(Attribute::Extension(extension)) => Json::from(extension.cooked),
    _ => Json::Null,
  };
  let key = json!({
    "body": parts.body,
    "environment": environment,
    "executor": executor,
    "extension": extension,
    "extra": extra,
    "inputs": inputs,
    "positional": parts.positional,
    "recipe": recipe.namepath,
    "working_directory": parts.working_directory.to_string_lossy(),
  });
  let compact = key.to_string();
  let hex = blake3::hash(compact.as_bytes()).to_hex().to_string();

  let config = context.config;
  if config.verbosity >= 2 && !config.quiet {
    let painter = context.stderr_painter();
    stderr_line(&painter.banner(&format!("===> cache key {hex}:")))?;
    let pretty = serde_json::to_string_pretty(&key).unwrap_or(compact);
    stderr_line(&painter.doc(&pretty))?;
  }

  let directory = context.root_directory().join(DIRECTORY);
  fs::create_dir_all(&directory).map_err(|error| {
    message(format!("failed to create cache directory `{}`: {error}", directory.display()))
  })?;
  let path = directory.join(format!("{hex}.json"));
  let open_error = |error: std::io::Error| {
    message(format!("failed to open cache entry `{}`: {error}", path.display()))
  };
  let mut file = OpenOptions::new()
    .read(true)
    .write(true)
    .create(true)
    .truncate(false)
    .open(&path)
    .map_err(open_error)?;
  crate::platform::fs::lock_exclusive(&file).map_err(open_error)?;
  let mut contents = String::new();
  file.read_to_string(&mut contents).map_err(|error| {
    message(format!("failed to read cache entry at `{}`: {error}", path.display()))
  })?;
  let working_directory = parts.working_directory.to_path_buf();
  let hit = !contents.is_empty() && outputs_unchanged(&contents, &outputs, &working_directory);
  let mut entry =
    Entry { file, outputs, path, working_directory, hit, restored: None, publish: None };
  if let Some(shared) = shared::for_options(config) {
    let mut key = key;
    key["working_directory"] =
      Json::from(shared::relative_directory(context.root_directory(), parts.working_directory));
    let shared_hex = blake3::hash(key.to_string().as_bytes()).to_hex().to_string();
    if let Some(found) = shared.lookup(&shared_hex) {
      if let Some(restored) = shared.restore(&found, &entry.working_directory, &entry.outputs) {
        entry.hit = true;
        entry.restored = Some(restored);
        entry.record(recipe.namepath)?;
        return Ok(entry);
      }
    }
    if shared.writable() {
      entry.hit = false;
      entry.publish = Some((shared, shared_hex));
    }
  }
  Ok(entry)
}

/// Whether every output is what the entry recorded. An entry without
/// digests (written by just 1.58) cannot tell, so it only hits when the
/// recipe declares no outputs.
fn outputs_unchanged(contents: &str, outputs: &[String], working_directory: &Path) -> bool {
  if outputs.is_empty() {
    return true;
  }
  let Ok(entry) = serde_json::from_str::<Json>(contents) else {
    return false;
  };
  let Some(recorded) = entry.get("outputs").and_then(Json::as_object) else {
    return false;
  };
  outputs.iter().all(|output| {
    let Some(expected) = recorded.get(output).and_then(Json::as_str) else {
      return false;
    };
    digest::output(&working_directory.join(output))
      .is_ok_and(|digest| digest.as_deref() == Some(expected))
  })
}

impl Entry {
  /// After a successful run: every output must exist, then record the recipe.
  pub(crate) fn complete<'src>(
    mut self,
    recipe: &str,
    namepath: &str,
    captured: Option<Captured>,
  ) -> Result<'src> {
    for output in &self.outputs {
      if !self.working_directory.join(output).exists() {
        return Err(message(format!("recipe `{recipe}` failed to create cache output `{output}`")));
      }
    }
    self.record(namepath)?;
    if let (Some((shared, key)), Some(mut captured)) = (self.publish.take(), captured) {
      shared.publish(&key, namepath, &self.working_directory, &self.outputs, &mut captured);
    }
    Ok(())
  }

  /// Whether the run is captured for the shared store: then its standard
  /// output and error go through `capture` while it runs.
  pub(crate) fn capture<'src>(
    &self,
    process: &mut std::process::Command,
  ) -> Result<'src, Option<Capture>> {
    if self.publish.is_none() {
      return Ok(None);
    }
    Capture::start(process)
      .map(Some)
      .map_err(|error| message(format!("failed to capture recipe output: {error}")))
  }

  /// After a hit: say so with `-v`, and replay what a restored run printed.
  pub(crate) fn skip<'src>(self, context: &RunContext<'_, 'src>) -> Result<'src> {
    let config = context.config;
    if config.verbosity >= 1 && !config.quiet {
      let painter = context.stderr_painter();
      stderr_line(&painter.banner("===> cache hit, skipping invocation"))?;
    }
    if let Some(restored) = self.restored {
      let (stdout, stderr) = restored.replay();
      stdout.map_err(|source| ExecutionError::Stdout { source })?;
      stderr.map_err(|source| ExecutionError::Stderr { source })?;
    }
    Ok(())
  }

  /// Write the entry: the recipe and the digest of each output.
  fn record<'src>(&mut self, namepath: &str) -> Result<'src> {
    let mut digests = Map::new();
    for output in &self.outputs {
      let path = self.working_directory.join(output);
      let digest = digest::output(&path).map_err(|error| {
        message(format!("failed to read cache output `{}`: {error}", path.display()))
      })?;
      let Some(digest) = digest else {
        continue;
      };
      digests.insert(output.clone(), Json::from(digest));
    }
    let mut entry = Map::new();
    entry.insert("recipe".into(), Json::from(namepath));
    if !digests.is_empty() {
      entry.insert("outputs".into(), Json::Object(digests));
    }
    let text = Json::Object(entry).to_string();
    let write = |file: &mut File| -> std::io::Result<()> {
      file.set_len(0)?;
      file.rewind()?;
      file.write_all(text.as_bytes())
    };
    write(&mut self.file).map_err(|error| {
      message(format!("failed to write cache entry `{}`: {error}", self.path.display()))
    })
  }
}

fn hash_input<'src>(path: &Path) -> Result<'src, [u8; 32]> {
  let metadata = fs::metadata(path)
    .map_err(|_| message(format!("cache input does not exist: `{}`", path.display())))?;
  if metadata.is_dir() {
    return Err(message(format!("cache input is directory: `{}`", path.display())));
  }
  let hash = digest::file(path).map_err(|error| {
    message(format!("failed to read cache input `{}`: {error}", path.display()))
  })?;
  Ok(*hash.as_bytes())
}

/// `--clean [PATH…]`: delete entries (all, or those whose recipe path starts
/// with the given components). Returns the message for stderr.
pub(crate) fn clean(
  justfile_directory: &Path,
  words: &[String],
) -> std::result::Result<String, String> {
  let directory = justfile_directory.join(DIRECTORY);
  let Ok(entries) = fs::read_dir(&directory) else {
    return Ok("recipe cache not found".into());
  };
  let prefix: Vec<&str> = words.iter().flat_map(|word| word.split("::")).collect();
  let mut removed = 0usize;
  let mut names: Vec<PathBuf> = entries.filter_map(|entry| entry.ok().map(|e| e.path())).collect();
  names.sort();
  for path in names {
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
      continue;
    };
    if !is_entry_name(name) {
      continue;
    }
    if !prefix.is_empty() {
      let contents = fs::read_to_string(&path)
        .map_err(|error| format!("failed to read cache entry at `{}`: {error}", path.display()))?;
      if !contents.is_empty() {
        let recipe = serde_json::from_str::<Json>(&contents)
          .ok()
          .and_then(|value| value.get("recipe").and_then(Json::as_str).map(str::to_string));
        let Some(recipe) = recipe else {
          continue;
        };
        let components: Vec<&str> = recipe.split("::").collect();
        if !components.starts_with(&prefix) {
          continue;
        }
      }
    }
    fs::remove_file(&path)
      .map_err(|error| format!("failed to remove cache entry `{}`: {error}", path.display()))?;
    removed += 1;
  }
  if fs::read_dir(&directory).is_ok_and(|mut entries| entries.next().is_none()) {
    let _ = fs::remove_dir(&directory);
  }
  Ok(if removed == 1 {
    "removed 1 cache entry".into()
  } else {
    format!("removed {removed} cache entries")
  })
}

fn is_entry_name(name: &str) -> bool {
  name.strip_suffix(".json").is_some_and(|stem| {
    stem.len() == 64
      && stem.bytes().all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte))
  })
}
