//! `--watch`: run the invocation, wait for a burst of changes to what it
//! depends on, reload the justfile and run it again, until interrupted.

mod events;
mod targets;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lexiclean::Lexiclean;

use super::config::{Config, WatchConfig};
use super::run::RunRequest;
use crate::analysis::analyzer::Arenas;
use crate::cli::error::{Error, Report};
use crate::color::{Painter, Stream};
use crate::execution::cache;
use crate::execution::run::Run;
use crate::platform::exit::signal_status;
use crate::search::Search;
use crate::syntax::sources::{Sources, Trees};
use events::Watcher;
use targets::{Request, Targets};

type Result<T = ()> = std::result::Result<T, Error<'static>>;

/// What is watched, kept up to date as runs reveal what they depend on.
struct Session {
  watcher: Watcher,
  invocation_directory: PathBuf,
  justfile_directory: PathBuf,
  watch_paths: Vec<String>,
  /// Justfiles, imports and modules loaded by any run.
  sources: BTreeSet<PathBuf>,
  /// `[cache]` inputs and outputs declared by any run.
  inputs: BTreeSet<PathBuf>,
  outputs: BTreeSet<PathBuf>,
}

pub fn watch(config: &Config, watch: &WatchConfig, search: Search, arguments: &[String]) -> Result {
  let debounce = Duration::from_millis(watch.debounce_ms);
  let (events, watcher) = events::start(debounce, watch.restart).map_err(Error::message)?;
  let session = Arc::new(Mutex::new(Session {
    watcher,
    invocation_directory: config.invocation_directory.clone(),
    justfile_directory: search.justfile.parent().unwrap_or(Path::new("/")).to_path_buf(),
    watch_paths: watch.paths.clone(),
    sources: BTreeSet::new(),
    inputs: BTreeSet::new(),
    outputs: BTreeSet::new(),
  }));
  let observed = Arc::clone(&session);
  let observer: cache::Observer = Arc::new(move |declared| lock(&observed).declare(declared));
  let mut changes = Vec::new();
  loop {
    if !changes.is_empty() {
      announce(config, watch, &changes)?;
    }
    // Each run reads the justfiles afresh into arenas of its own.
    let sources = Sources::new();
    let trees = Trees::new();
    let arenas = Arenas { sources: &sources, trees: &trees };
    // A fresh run each time: nothing of the last one carries over.
    let run = Run::new(config.verbosity >= 1, Some(Arc::clone(&observer)));
    let request = RunRequest { config, arguments, arenas, run: &run, keep_model: false };
    events.set_running(true);
    let ran = run_once(&request, &search, &session);
    events.set_running(false);
    let outcome = ran?;
    let delivered = run.supervisor.delivered();
    drop(run);
    if let Some(signal) = delivered {
      report(config, outcome)?;
      return Err(silent(signal_status(signal)));
    }
    if !events.was_stopped() {
      report(config, outcome)?;
    }
    {
      // A `set fallback` run may have loaded more justfiles.
      let mut session = lock(&session);
      if session.add_sources(&sources) {
        session.rewatch().map_err(Error::message)?;
      }
    }
    if !config.quiet {
      status_line("[watch] waiting for changes\n")?;
    }
    changes = events.next_burst().map_err(Error::message)?;
  }
}

fn lock(session: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
  session.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Load the justfile, watch it and what is known to matter, and run.
/// Returns the run's outcome; fails only when watching fails.
fn run_once<'src>(
  run: &RunRequest<'_, 'src>,
  search: &Search,
  session: &Mutex<Session>,
) -> Result<std::result::Result<(), Error<'src>>> {
  let (config, arenas) = (run.config, run.arenas);
  let loaded = super::run::load(config, search, config.unstable, arenas);
  {
    let mut session = lock(session);
    session.add_sources(arenas.sources);
    session.rewatch().map_err(Error::message)?;
  }
  Ok(loaded.and_then(|justfile| super::run::run(run, search.clone(), justfile)))
}

impl Session {
  /// Add the source files a run loaded; whether any is new.
  fn add_sources(&mut self, sources: &Sources) -> bool {
    let before = self.sources.len();
    // Diagnostics name sources relative to the root justfile's directory.
    let directory = &self.justfile_directory;
    self.sources.extend(sources.iter().map(|source| directory.join(&source.path).lexiclean()));
    self.sources.len() != before
  }

  /// A `[cache]` recipe is about to run: watch its inputs, ignore its outputs.
  fn declare(&mut self, declared: cache::Declared) {
    let before = self.inputs.len() + self.outputs.len();
    self.inputs.extend(declared.inputs.into_iter().map(|path| path.lexiclean()));
    self.outputs.extend(declared.outputs.into_iter().map(|path| path.lexiclean()));
    if self.inputs.len() + self.outputs.len() != before {
      if let Err(error) = self.rewatch() {
        self.watcher.fail(error);
      }
    }
  }

  fn rewatch(&mut self) -> std::result::Result<(), String> {
    let request = Request {
      invocation_directory: &self.invocation_directory,
      justfile_directory: &self.justfile_directory,
      watch_paths: &self.watch_paths,
      sources: &self.sources,
      inputs: &self.inputs,
      outputs: &self.outputs,
    };
    let targets = Targets::new(&request)?;
    self.watcher.watch(targets)
  }
}

/// Print a run's error as `just` would, and carry on.
fn report(config: &Config, outcome: std::result::Result<(), Error>) -> Result {
  match outcome {
    Err(error) if !config.quiet => {
      let painter = Painter::new(config.color, Stream::Stderr);
      status_line(&error.render(&painter))
    }
    _ => Ok(()),
  }
}

/// Watch mode's own output on standard error; failing to write it ends
/// watch mode.
fn status_line(text: &str) -> Result {
  crate::platform::stdio::stderr(text)
    .map_err(|error| Error::message(format!("failed to write to standard error: {error}")))
}

fn silent(status: i32) -> Error<'static> {
  Error::Other(Box::new(Report { status, silent: true, ..Report::default() }))
}

/// One line before a new run: what changed (the first path, how many more).
fn announce(config: &Config, watch: &WatchConfig, changes: &[PathBuf]) -> Result {
  if watch.clear {
    status_line("\x1b[H\x1b[2J\x1b[3J")?;
  }
  let Some(first) = changes.first() else {
    return Ok(());
  };
  if config.quiet {
    return Ok(());
  }
  let first = first.strip_prefix(&config.invocation_directory).unwrap_or(first);
  match changes.len() - 1 {
    0 => status_line(&format!("[watch] {} changed\n", first.display())),
    more => status_line(&format!("[watch] {} and {more} more changed\n", first.display())),
  }
}
