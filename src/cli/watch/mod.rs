//! `--watch`: run the invocation, wait for a burst of changes to what it
//! depends on, reload the justfile and run it again, until interrupted.

mod events;
mod targets;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lexiclean::Lexiclean;

use self::events::Burst;
use super::config::{Config, WatchConfig};
use super::recipes::RunRequest;
use crate::analysis::analyzer::Arenas;
use crate::cli::error::{Error, Report};
use crate::color::{Painter, Stream};
use crate::execution::cache;
use crate::execution::run::Run;
use crate::platform::exit::signal_status;
use crate::search::Search;
use crate::syntax::sources::Sources;
use crate::syntax::trees::Trees;
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

pub(crate) fn watch(
  config: &Config,
  watch: &WatchConfig,
  search: Search,
  arguments: &[String],
) -> Result {
  if matches!(config.search, crate::options::SearchConfig::Stdin { .. }) {
    return Err(Error::message(
      "`--watch` cannot watch a justfile read from standard input (`--justfile -`): name a file"
        .to_string(),
    ));
  }
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
  let mut changes = Burst::default();
  let mut first = true;
  loop {
    announce(config, watch, &changes)?;
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
    // Recipes the justfile does not have, or wrong arguments, fail at once,
    // as without `--watch`: no change to a file can mend the command line.
    let outcome = match outcome {
      Err(Error::Invocation(error)) if first => return Err(Error::Invocation(error)),
      outcome => outcome,
    };
    first = false;
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
    justfile_present(&search)?;
    if !config.quiet {
      status_line("[watch] waiting for changes\n")?;
    }
    let created = |directories| lock(&session).watcher.add_created(directories);
    changes = events.next_burst(created).map_err(Error::message)?;
    justfile_present(&search)?;
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
  let loaded = super::recipes::load(config, search, config.unstable, arenas);
  {
    let mut session = lock(session);
    session.add_sources(arenas.sources);
    session.rewatch().map_err(Error::message)?;
  }
  Ok(loaded.and_then(|justfile| super::recipes::run(run, search.clone(), justfile)))
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

/// A justfile renamed, removed or moved away with its directory leaves
/// nothing to watch: say so and end.
fn justfile_present(search: &Search) -> Result {
  if search.justfile.is_file() {
    return Ok(());
  }
  Err(Error::message(format!(
    "justfile `{}` was renamed, removed or moved away; stopped watching",
    crate::text::escape_control(&search.justfile.to_string_lossy())
  )))
}

/// Before each run: with `--clear`, clear a terminal (never a redirected
/// stream); after changes, one line naming them (the first path, how many
/// more), file names escaped, or saying that changes were lost.
fn announce(config: &Config, watch: &WatchConfig, changes: &Burst) -> Result {
  if watch.clear && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
    status_line("\x1b[H\x1b[2J\x1b[3J")?;
  }
  if config.quiet {
    return Ok(());
  }
  if changes.lost {
    return status_line("[watch] too many changes at once to tell which; running again\n");
  }
  let Some(first) = changes.paths.first() else {
    return Ok(());
  };
  let changes = &changes.paths;
  let first = first.strip_prefix(&config.invocation_directory).unwrap_or(first);
  let first = crate::text::escape_control(&first.to_string_lossy()).into_owned();
  match changes.len() - 1 {
    0 => status_line(&format!("[watch] {first} changed\n")),
    more => status_line(&format!("[watch] {first} and {more} more changed\n")),
  }
}
