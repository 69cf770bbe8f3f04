//! Cached recipes (`[cache]`, unstable) and `--clean`.
//!
//! The key is a JSON object describing everything that determines a
//! recipe's run (a script's text and interpreter, or the evaluated lines of
//! a recipe of shell lines and the shell; `KeyParts`); its BLAKE3 hash names the entry file
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

mod clean;
mod digest;
mod entry;
mod inputs;
mod miss;
mod remote;
mod shared;
mod store;
mod warning;

pub(crate) use clean::{local as clean, shared as clean_shared};
pub(crate) use remote::executor_shown;
pub(crate) use shared::{restore_for_fuzzing, shared_directory, Capture, Captured, Stores};
pub(crate) use store::serve as serve_store;

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value as Json};

use super::error::{stderr_line, ExecutionError};
use crate::evaluation::evaluator::{Evaluator, RecipeScope, RunContext};
use crate::syntax::ast::CacheAttribute;
use warning::{warn, CacheWarning};

type Result<'src, T = ()> = std::result::Result<T, ExecutionError<'src>>;

pub(crate) const DIRECTORY: &str = ".justcache";

/// Files written into a new `.justcache`, as build tools do: git ignores
/// the directory, and backup tools that follow the Cache Directory Tagging
/// specification skip it.
const MARKERS: [(&str, &str); 2] = [
  (".gitignore", "# Created by just: the recipe cache stays out of git.\n*\n"),
  (
    "CACHEDIR.TAG",
    "Signature: 8a477f597d28d172789f06886806bc55\n\
     # This file is a cache directory tag created by just.\n\
     # For information about cache directory tags, see:\n\
     #\thttps://bford.info/cachedir/\n",
  ),
];

/// How the body is run, as recorded in the key.
pub(crate) enum KeyExecutor<'e> {
  Shebang {
    interpreter: &'e str,
    argument: Option<&'e str>,
  },
  Command {
    command: &'e str,
    arguments: &'e [String],
  },
  /// A recipe of shell lines: each line of the body run by `shell` with
  /// `arguments`, its sigils (`-`, `?`) deciding what its failure means.
  Shell {
    shell: &'e str,
    arguments: &'e [String],
    sigils: &'e [&'e str],
  },
}

impl KeyExecutor<'_> {
  /// The key's `executor` field. For a script it is what just 1.58 writes
  /// (so `.justcache` entries are shared with it); a recipe of shell lines
  /// has `"type": "shell"`.
  fn json(&self) -> Json {
    match self {
      KeyExecutor::Shebang { interpreter, argument } => {
        json!({"type": "shebang", "argument": argument, "interpreter": interpreter})
      }
      KeyExecutor::Command { command, arguments } => {
        json!({"type": "command", "command": command, "arguments": arguments})
      }
      KeyExecutor::Shell { shell, arguments, sigils } => {
        json!({"type": "shell", "shell": shell, "arguments": arguments, "sigils": sigils})
      }
    }
  }
}

/// What a recipe contributes to its cache key: a script's text and how it
/// is run, or a recipe's evaluated shell lines and the shell.
pub(crate) struct KeyParts<'e> {
  pub body: &'e [String],
  pub executor: KeyExecutor<'e>,
  pub positional: Option<Vec<String>>,
  pub working_directory: &'e Path,
  /// The script file's name and text, for a Remote Execution API action.
  pub script: (&'e str, &'e str),
}

/// A locked cache entry for one run of a recipe.
pub(crate) struct Entry {
  file: File,
  /// Each input's name and digest, recorded for `-v` to compare with.
  inputs: Vec<(String, String)>,
  /// Each input's path, size and modification time before it was hashed:
  /// an input that changes while the recipe runs leaves the run unrecorded.
  stamps: Vec<(String, Option<Stamp>)>,
  quiet: bool,
  outputs: Vec<String>,
  path: PathBuf,
  working_directory: PathBuf,
  pub hit: bool,
  /// A hit restored from the shared store: its output, to replay.
  restored: Option<shared::Restored>,
  /// The shared store to publish a run to, and the run's key there.
  publish: Option<(std::sync::Arc<shared::Shared>, String)>,
  /// `--remote-executor`: the executor to run the recipe on, and its
  /// action there.
  execute: Option<(std::sync::Arc<shared::Shared>, String)>,
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
  scope.recipe.effects.values().cache
}

/// What a recipe's run is keyed by, before hashing.
struct Key {
  json: KeyJson,
  /// Each input's name and digest.
  digests: Vec<(String, String)>,
  stamps: Vec<(String, Option<Stamp>)>,
  /// The declared outputs, checked.
  outputs: Vec<String>,
}

/// The key's JSON: the fields in this order, as the text hashed for the
/// entry's name (so `.justcache` entries are shared with just 1.58).
/// Typed rather than a `serde_json::Value`, so that an input's digest, an
/// array of 32 numbers, is written straight from its bytes: as values, 10,000
/// inputs cost 23 MB and a fifth of the run.
#[derive(serde::Serialize)]
struct KeyJson {
  body: Json,
  environment: Json,
  executor: Json,
  extension: Json,
  extra: Json,
  inputs: Option<InputDigests>,
  positional: Json,
  recipe: String,
  working_directory: String,
  /// The shared store's key only: an entry holds exactly the declared
  /// outputs, so an entry for other outputs is never looked up.
  #[serde(skip_serializing_if = "Option::is_none")]
  outputs: Option<Vec<String>>,
  /// The shared store's key only.
  #[serde(skip_serializing_if = "Option::is_none")]
  platform: Option<Json>,
}

impl KeyJson {
  /// The compact text, hashed to name the entry. Writing it cannot fail:
  /// every map key is a string and every value a plain JSON one.
  fn compact(&self) -> String {
    serde_json::to_string(self).unwrap_or_default()
  }

  /// The shared store's key: the working directory relative to the
  /// justfile's (the same in every checkout), the declared outputs and the
  /// platform.
  fn for_shared_store(
    mut self,
    root: &Path,
    working_directory: &Path,
    outputs: &[String],
  ) -> KeyJson {
    self.working_directory = shared::relative_directory(root, working_directory);
    self.outputs = Some(outputs.to_vec());
    self.platform = Some(shared::platform());
    self
  }
}

/// Each input's name and the BLAKE3 hash of its contents, in name order,
/// written as an object of arrays of numbers.
struct InputDigests(Vec<(String, [u8; 32])>);

impl serde::Serialize for InputDigests {
  fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(Some(self.0.len()))?;
    for (name, hash) in &self.0 {
      map.serialize_entry(name, hash)?;
    }
    map.end()
  }
}

/// Build the key, print it with `-vv`, create and lock the entry file and
/// decide whether it is a hit: locally, then in the shared store (of the
/// run's `stores`), if any. The run's `observer` learns the inputs and outputs.
pub(crate) fn open<'src>(
  context: &RunContext<'_, 'src>,
  stores: &Stores,
  observer: Option<&Observer>,
  evaluator: &Evaluator<'_, '_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  cache: &CacheAttribute<'src>,
  parts: &KeyParts<'_>,
) -> Result<'src, Entry> {
  let recipe = scope.recipe;
  let (key, hex) = printed_key(context, observer, evaluator, scope, cache, parts)?;
  let config = context.config;
  let directory = context.root_directory().join(DIRECTORY);
  create_directory(&directory)?;
  let (mut entry, stale) =
    open_local(&directory, &hex, key.digests, key.stamps, key.outputs, parts, config.quiet)?;
  let verbose = config.verbosity >= 1 && !config.quiet;
  let mut reason = if entry.hit || !verbose {
    None
  } else {
    Some(stale.unwrap_or_else(|| miss::without_entry(&directory, recipe.namepath, &entry.inputs)))
  };
  let executor = remote::executor(stores, config)?;
  let executor_spec =
    executor.as_ref().map(|_| action_spec(context.root_directory(), parts, &key.json, &entry));
  let shared = stores.for_options(config)?;
  if let Some(shared) = shared.as_ref().filter(|shared| shared.is_remote()) {
    let shared = std::sync::Arc::clone(shared);
    let spec = action_spec(context.root_directory(), parts, &key.json, &entry)
      .map(|spec| remote::with_platform(spec, config));
    let action = match spec {
      Ok(spec) => shared.prepare_action(spec)?,
      // The executor's error, for the same reason, follows.
      Err(_) if executor.is_some() && !entry.hit => None,
      Err(why) => {
        warn(&CacheWarning::NotShared { recipe: recipe.namepath.into(), why }, config.quiet)?;
        None
      }
    };
    if let Some(action) = action {
      if config.verbosity >= 2 && !config.quiet {
        stderr_line(&context.stderr_painter().banner(&format!("===> cache action {action}")))?;
      }
      let found = shared.lookup_action(&action, &entry.outputs)?;
      if restore_shared(context, recipe, &shared, found, &mut entry)? {
        return Ok(entry);
      }
      if shared.writable() {
        if entry.hit && verbose {
          reason = Some(format!("no entry in shared cache `{}`", shared.shown()));
        }
        entry.hit = false;
        entry.publish = Some((shared, action));
      }
    }
  } else if let Some(shared) = shared {
    let key =
      key.json.for_shared_store(context.root_directory(), parts.working_directory, &entry.outputs);
    let shared_hex = blake3::hash(key.compact().as_bytes()).to_hex().to_string();
    let found = shared.lookup(&shared_hex, &entry.outputs)?;
    if restore_shared(context, recipe, &shared, found, &mut entry)? {
      return Ok(entry);
    }
    // A valid local entry stands when the store cannot take the run.
    if shared.writable() && (!entry.hit || shared.accepts_writes()?) {
      if entry.hit && verbose {
        reason = Some(format!("no entry in shared cache `{}`", shared.shown()));
      }
      entry.hit = false;
      entry.publish = Some((shared, shared_hex));
    }
  }
  if let Some(reason) = reason.filter(|_| !entry.hit) {
    let painter = context.stderr_painter();
    stderr_line(&painter.banner(&format!("===> cache miss, {reason}")))?;
  }
  if let (Some(executor), Some(spec)) = (executor.filter(|_| !entry.hit), executor_spec) {
    remote::plan(context, recipe.namepath, spec, executor, &mut entry)?;
  }
  Ok(entry)
}

/// `--up-to-date`: whether the run would be skipped, decided as `open`
/// decides it but writing nothing (no `.justcache`, no entry, no lock, no
/// restore): `None` for a hit (a valid local entry, else an entry in the
/// shared store), else why the recipe would run, as `-v` words it.
pub(crate) fn probe<'src>(
  context: &RunContext<'_, 'src>,
  stores: &Stores,
  observer: Option<&Observer>,
  evaluator: &Evaluator<'_, '_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  cache: &CacheAttribute<'src>,
  parts: &KeyParts<'_>,
) -> Result<'src, Option<String>> {
  let (key, hex) = printed_key(context, observer, evaluator, scope, cache, parts)?;
  let config = context.config;
  let directory = context.root_directory().join(DIRECTORY);
  let path = directory.join(format!("{hex}.json"));
  let contents = match fs::read_to_string(&path) {
    Ok(contents) => contents,
    Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
    Err(error) => {
      return Err(message(format!("failed to read cache entry at `{}`: {error}", path.display())))
    }
  };
  let reason = if contents.is_empty() {
    Some(miss::without_entry(&directory, scope.recipe.namepath, &key.digests))
  } else {
    miss::stale_output(&contents, &key.outputs, parts.working_directory)
  };
  if reason.is_none() {
    return Ok(None);
  }
  if let Some(shared) = stores.for_options(config)? {
    let outputs = key.outputs.clone();
    let key =
      key.json.for_shared_store(context.root_directory(), parts.working_directory, &outputs);
    let shared_hex = blake3::hash(key.compact().as_bytes()).to_hex().to_string();
    if shared.lookup(&shared_hex, &outputs)?.is_some() {
      return Ok(None);
    }
  }
  Ok(reason)
}

/// Where the script goes in an action's input root.
const SCRIPTS: &str = ".just-scripts";

/// The run as a Remote Execution API action (README: "Remote caches"), for
/// the helper to build: why not, when an input or the working directory is
/// outside the justfile's directory.
fn action_spec(
  root: &Path,
  parts: &KeyParts<'_>,
  key: &KeyJson,
  entry: &Entry,
) -> std::result::Result<Json, String> {
  use lexiclean::Lexiclean;
  let relative = shared::relative_directory(root, parts.working_directory);
  if Path::new(&relative).is_absolute() {
    return Err("its working directory is outside the justfile's directory".into());
  }
  let working_directory = if relative == "." { String::new() } else { relative };
  let inside = |name: &str| -> std::result::Result<String, String> {
    let path = Path::new(&working_directory).join(name).lexiclean();
    let text = path.to_string_lossy().replace('\\', "/");
    if path.is_absolute()
      || text == ".."
      || text.starts_with("../")
      || text.is_empty()
      || text == "."
    {
      return Err(format!("input `{name}` is outside the justfile's directory"));
    }
    Ok(text)
  };
  let mut inputs = Vec::new();
  for (name, _) in &entry.inputs {
    inputs.push(json!([inside(name)?, parts.working_directory.join(name)]));
  }
  let (script_name, script_text) = parts.script;
  let depth = if working_directory.is_empty() { 0 } else { working_directory.split('/').count() };
  let script = format!("{}{SCRIPTS}/{script_name}", "../".repeat(depth));
  let mut arguments: Vec<String> = match &parts.executor {
    KeyExecutor::Shell { .. } => {
      return Err(
        "its body is shell lines (only script recipes are Remote Execution API actions)".into(),
      )
    }
    KeyExecutor::Shebang { interpreter, argument } => {
      std::iter::once(interpreter.to_string()).chain(argument.map(str::to_string)).collect()
    }
    KeyExecutor::Command { command, arguments } => {
      std::iter::once(command.to_string()).chain(arguments.iter().cloned()).collect()
    }
  };
  arguments.push(script);
  arguments.extend(parts.positional.iter().flatten().cloned());
  let environment: Vec<Json> = key
    .environment
    .as_object()
    .into_iter()
    .flatten()
    .filter_map(|(name, value)| value.as_str().map(|value| json!([name, value])))
    .collect();
  let salt = if key.extra.is_null() { String::new() } else { key.extra.to_string() };
  let shebang = matches!(parts.executor, KeyExecutor::Shebang { .. });
  Ok(json!({
    "arguments": arguments,
    "environment": environment,
    "working_directory": working_directory,
    "outputs": entry.outputs,
    "platform": [["ISA", std::env::consts::ARCH], ["OSFamily", std::env::consts::OS]],
    "salt": salt,
    "inputs": inputs,
    "files": [[format!("{SCRIPTS}/{script_name}"), script_text, shebang]],
  }))
}

/// The key of the recipe's run and its hash, the key printed with `-vv`.
fn printed_key<'src>(
  context: &RunContext<'_, 'src>,
  observer: Option<&Observer>,
  evaluator: &Evaluator<'_, '_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  cache: &CacheAttribute<'src>,
  parts: &KeyParts<'_>,
) -> Result<'src, (Key, String)> {
  let key = key(observer, evaluator, scope, cache, parts)?;
  let compact = key.json.compact();
  let hex = blake3::hash(compact.as_bytes()).to_hex().to_string();
  let config = context.config;
  if config.verbosity >= 2 && !config.quiet {
    print_key(context, &hex, &key.json, compact)?;
  }
  Ok((key, hex))
}

/// The key of the recipe's run: its body, executor, environment changes,
/// extra values, inputs' digests, positional arguments, path and working
/// directory. Declares the inputs and outputs to the run's observer.
fn key<'src>(
  observer: Option<&Observer>,
  evaluator: &Evaluator<'_, '_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  cache: &CacheAttribute<'src>,
  parts: &KeyParts<'_>,
) -> Result<'src, Key> {
  let recipe = scope.recipe;
  let extra = match &cache.extra {
    Some(extra) => Json::from(evaluator.evaluate(&extra.value)?.elements().to_vec()),
    None => Json::Null,
  };
  let mut digests = Vec::new();
  let mut stamps = Vec::new();
  let inputs = match &cache.inputs {
    Some(inputs) => {
      let value = evaluator.evaluate(&inputs.value)?;
      let files = inputs::expand(parts.working_directory, value.elements()).map_err(message)?;
      let names: Vec<String> = files.iter().map(|input| input.name.clone()).collect();
      declare(observer, parts, &names, false);
      Some(hash_inputs(files, &mut digests, &mut stamps)?)
    }
    None => None,
  };
  let outputs = match &cache.outputs {
    Some(outputs) => evaluator.evaluate(&outputs.value)?.elements().to_vec(),
    None => Vec::new(),
  };
  entry::check_outputs(&outputs)
    .map_err(|problem| message(format!("recipe `{}`: {problem}", recipe.namepath)))?;
  declare(observer, parts, &outputs, true);
  let executor = parts.executor.json();
  let extension = recipe.effects.values().extension.map_or(Json::Null, Json::from);
  let json = KeyJson {
    body: json!(parts.body),
    environment: environment_changes(evaluator),
    executor,
    extension,
    extra,
    inputs,
    positional: json!(parts.positional),
    recipe: recipe.namepath.to_string(),
    working_directory: parts.working_directory.to_string_lossy().into_owned(),
    outputs: None,
    platform: None,
  };
  Ok(Key { json, digests, stamps, outputs })
}

/// Hash each input, recording its digest and its stamp; the inputs' part of
/// the key.
fn hash_inputs<'src>(
  files: Vec<inputs::Input>,
  digests: &mut Vec<(String, String)>,
  stamps: &mut Vec<(String, Option<Stamp>)>,
) -> Result<'src, InputDigests> {
  let mut hashes = Vec::with_capacity(files.len());
  for input in files {
    let (hash, stamp) = hash_input(&input.path)?;
    stamps.push((input.name.clone(), Some(stamp)));
    digests.push((input.name.clone(), blake3::Hash::from(hash).to_hex().to_string()));
    hashes.push((input.name, hash));
  }
  Ok(InputDigests(hashes))
}

/// The variables the recipe's environment sets (their values) or removes
/// (null), by name.
fn environment_changes(evaluator: &Evaluator<'_, '_, '_>) -> Json {
  let mut environment = Map::new();
  let changes = evaluator.environment();
  let mut names: Vec<&String> = changes.set.keys().chain(changes.remove.iter()).collect();
  names.sort();
  names.dedup();
  for name in names {
    let value = changes.set.get(name).map_or(Json::Null, |value| Json::from(value.clone()));
    environment.insert(name.clone(), value);
  }
  Json::Object(environment)
}

/// `-vv`: the key's hash and the key.
fn print_key<'src>(
  context: &RunContext<'_, 'src>,
  hex: &str,
  key: &KeyJson,
  compact: String,
) -> Result<'src> {
  let painter = context.stderr_painter();
  stderr_line(&painter.banner(&format!("===> cache key {hex}:")))?;
  let pretty = serde_json::to_string_pretty(key).unwrap_or(compact);
  stderr_line(&painter.doc(&pretty))
}

/// Create (if need be), lock and read the local entry `hex`: the entry,
/// a hit if a run recorded it and its outputs are as that run left them,
/// and otherwise why they are not, if it says.
fn open_local<'src>(
  directory: &Path,
  hex: &str,
  inputs: Vec<(String, String)>,
  stamps: Vec<(String, Option<Stamp>)>,
  outputs: Vec<String>,
  parts: &KeyParts<'_>,
  quiet: bool,
) -> Result<'src, (Entry, Option<String>)> {
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
  let stale = if contents.is_empty() {
    None
  } else {
    miss::stale_output(&contents, &outputs, &working_directory)
  };
  let hit = !contents.is_empty() && stale.is_none();
  let entry = Entry {
    file,
    inputs,
    stamps,
    quiet,
    outputs,
    path,
    working_directory,
    hit,
    restored: None,
    publish: None,
    execute: None,
  };
  Ok((entry, stale))
}

/// Look the run up in the shared store and restore what it holds: whether
/// `entry` is now a hit restored from it. A signal during the restore is
/// recorded, ends it early and stops the run once the staging directories
/// are gone.
fn restore_shared<'src>(
  context: &RunContext<'_, 'src>,
  recipe: &crate::analysis::model::Recipe<'src>,
  shared: &shared::Shared,
  found: Option<shared::Found>,
  entry: &mut Entry,
) -> Result<'src, bool> {
  let Some(found) = found else {
    return Ok(false);
  };
  let busy = context.supervisor.busy().map_err(super::error::refused)?;
  let interrupted = || context.supervisor.pending().is_some();
  let protected = protected_paths(context);
  let target = shared::Target {
    working_directory: &entry.working_directory,
    outputs: &entry.outputs,
    protected: &protected,
  };
  let restored = shared.restore(found, &target, &interrupted);
  drop(busy);
  let restored = restored?;
  let Some(restored) = restored else {
    // A signal stopped the restore: the run stops, hit or not.
    super::body::check_interrupted(context, recipe, false)?;
    return Ok(false);
  };
  entry.hit = true;
  entry.restored = Some(restored);
  entry.record(recipe.namepath)?;
  Ok(true)
}

/// What no restored link may lead to, as physical paths: every file the
/// loader read (the root justfile, its modules and the files they import,
/// whatever they define), the run's `.justcache` and its `--cache-dir`
/// store.
fn protected_paths(context: &RunContext<'_, '_>) -> Vec<PathBuf> {
  let mut paths = vec![context.justfile_path.clone(), context.root_directory().join(DIRECTORY)];
  paths.extend(shared_directory(context.config));
  paths.extend(context.justfile.files.iter().cloned());
  paths.sort();
  paths.dedup();
  paths.into_iter().map(|path| crate::platform::fs::physical_path(&path).unwrap_or(path)).collect()
}

/// Create `.justcache` and the markers in it that are missing.
fn create_directory<'src>(directory: &Path) -> Result<'src> {
  fs::create_dir_all(directory).map_err(|error| {
    message(format!("failed to create cache directory `{}`: {error}", directory.display()))
  })?;
  for (name, contents) in MARKERS {
    let path = directory.join(name);
    let written = OpenOptions::new()
      .write(true)
      .create_new(true)
      .open(&path)
      .and_then(|mut file| file.write_all(contents.as_bytes()));
    match written {
      Err(error) if error.kind() != std::io::ErrorKind::AlreadyExists => {
        return Err(message(format!("failed to write `{}`: {error}", path.display())));
      }
      _ => {}
    }
  }
  Ok(())
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
    // Outputs made from an input that changed as they were made belong to
    // no key: neither recorded nor published (as Bazel does).
    let changed = self.stamps.iter().find(|(name, before)| {
      before.is_none() || stamp(&self.working_directory.join(name)) != *before
    });
    if let Some((name, _)) = changed {
      let warning = CacheWarning::InputChanged { input: name.clone(), recipe: recipe.into() };
      warn(&warning, self.quiet)?;
      return Ok(());
    }
    self.record(namepath)?;
    if let (Some((shared, key)), Some(mut captured)) = (self.publish.take(), captured) {
      shared.publish(&key, namepath, &self.working_directory, &self.outputs, &mut captured)?;
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

  /// A recipe of shell lines: like `capture`, the capture each line's
  /// shell is then attached to.
  pub(crate) fn capture_lines<'src>(&self) -> Result<'src, Option<Capture>> {
    if self.publish.is_none() {
      return Ok(None);
    }
    Capture::new()
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

  /// Write the entry: the recipe and the digest of each output. An output
  /// that cannot be read (a path longer than the system takes, a directory
  /// without permission) is warned about and left out, so the next run is
  /// a miss rather than an error on every run.
  fn record<'src>(&mut self, namepath: &str) -> Result<'src> {
    let mut digests = Map::new();
    for output in &self.outputs {
      let path = self.working_directory.join(output);
      let digest = match digest::output(&path) {
        Ok(Some(digest)) => digest,
        Ok(None) => continue,
        Err(error) => {
          warn(&CacheWarning::OutputUnreadable { path, error }, self.quiet)?;
          continue;
        }
      };
      digests.insert(output.clone(), Json::from(digest));
    }
    let mut entry = Map::new();
    entry.insert("recipe".into(), Json::from(namepath));
    if !self.inputs.is_empty() {
      let inputs =
        self.inputs.iter().map(|(name, digest)| (name.clone(), Json::from(digest.clone())));
      entry.insert("inputs".into(), Json::Object(inputs.collect()));
    }
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

/// What tells that a file changed: its size and modification time.
type Stamp = (u64, Option<std::time::SystemTime>);

fn stamp(path: &Path) -> Option<Stamp> {
  let metadata = fs::metadata(path).ok()?;
  Some((metadata.len(), metadata.modified().ok()))
}

/// An input's hash, and its stamp from before it was hashed.
fn hash_input<'src>(path: &Path) -> Result<'src, ([u8; 32], Stamp)> {
  let metadata = fs::metadata(path)
    .map_err(|_| message(format!("cache input does not exist: `{}`", path.display())))?;
  if metadata.is_dir() {
    return Err(message(format!("cache input is directory: `{}`", path.display())));
  }
  let hash = digest::file(path).map_err(|error| {
    message(format!("failed to read cache input `{}`: {error}", path.display()))
  })?;
  Ok((*hash.as_bytes(), (metadata.len(), metadata.modified().ok())))
}

#[cfg(test)]
mod tests {
  use super::*;

  fn key(working_directory: &str) -> KeyJson {
    KeyJson {
      body: json!(["x"]),
      environment: json!({}),
      executor: Json::Null,
      extension: Json::Null,
      extra: Json::Null,
      inputs: Some(InputDigests(vec![("a".into(), [7; 32]), ("b/c".into(), [255; 32])])),
      positional: Json::Null,
      recipe: "r".into(),
      working_directory: working_directory.into(),
      outputs: None,
      platform: None,
    }
  }

  #[test]
  fn key_is_written_as_its_value_would_be() {
    let typed = key("/home/a/project/sub");
    let value = json!({
      "body": ["x"],
      "environment": {},
      "executor": null,
      "extension": null,
      "extra": null,
      "inputs": {"a": ([7u8; 32].to_vec()), "b/c": ([255u8; 32].to_vec())},
      "positional": null,
      "recipe": "r",
      "working_directory": "/home/a/project/sub",
    });
    assert_eq!(typed.compact(), value.to_string());
    assert_eq!(
      serde_json::to_string_pretty(&typed).unwrap(),
      serde_json::to_string_pretty(&value).unwrap()
    );
  }

  #[test]
  fn shared_key_names_the_platform_and_not_the_checkout() {
    let shared = key("/home/a/project/sub").for_shared_store(
      Path::new("/home/a/project"),
      Path::new("/home/a/project/sub"),
      &["out".into(), "bin/app".into()],
    );
    let value: Json = serde_json::from_str(&shared.compact()).unwrap();
    assert_eq!(value["working_directory"], "sub");
    assert_eq!(value["outputs"], json!(["out", "bin/app"]));
    assert_eq!(value["platform"]["os"], std::env::consts::OS);
    assert_eq!(value["platform"]["arch"], std::env::consts::ARCH);
    assert_eq!(value["platform"]["format"], shared::FORMAT);
    let fields: Vec<&String> = value.as_object().unwrap().keys().collect();
    assert_eq!(fields.last().map(|name| name.as_str()), Some("platform"));
  }
}
