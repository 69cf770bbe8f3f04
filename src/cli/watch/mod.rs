//! `--watch`: run the invocation, wait for a burst of changes to what it
//! depends on, reload the justfile and run it again, until interrupted.

mod events;
mod targets;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lexiclean::Lexiclean;

use super::config::{Config, WatchConfig};
use crate::error::{Error, Report};
use crate::execution::{cache, signals};
use crate::output::color::{Painter, Stream};
use crate::search::Search;
use events::Events;
use targets::{Request, Targets};

type Result<T = ()> = std::result::Result<T, Error<'static>>;

/// What the runs so far showed the invocation depends on.
#[derive(Default)]
struct Dependencies {
  /// Justfiles, imports and modules loaded by any run.
  sources: BTreeSet<PathBuf>,
  inputs: BTreeSet<PathBuf>,
  outputs: BTreeSet<PathBuf>,
}

pub fn watch(config: &Config, watch: &WatchConfig, search: Search, arguments: &[String]) -> Result {
  let debounce = Duration::from_millis(watch.debounce_ms);
  let mut events = Events::start(debounce, watch.restart).map_err(Error::message)?;
  let mut dependencies = Dependencies::default();
  let justfile_directory = search.justfile.parent().unwrap_or(Path::new("/")).to_path_buf();
  let mut changes = Vec::new();
  loop {
    if !changes.is_empty() {
      announce(config, watch, &changes);
    }
    let first_source = next_source_id();
    events.set_running(true);
    let outcome = super::run::load(config, &search, config.unstable)
      .and_then(|justfile| super::run::run(config, search.clone(), justfile, arguments));
    events.set_running(false);
    let stopped = events.was_stopped();
    if let Some(signal) = signals::take_delivered() {
      report(config, outcome);
      return Err(silent(128 + signal));
    }
    // A restart's stop request, if the run did not consume it.
    signals::take();
    if !stopped {
      report(config, outcome);
    }
    dependencies.record(&justfile_directory, first_source);
    let request = Request {
      invocation_directory: &config.invocation_directory,
      justfile_directory: &justfile_directory,
      watch_paths: &watch.paths,
      sources: &dependencies.sources,
      inputs: &dependencies.inputs,
      outputs: &dependencies.outputs,
    };
    let targets = Targets::new(&request).map_err(Error::message)?;
    events.watch(targets).map_err(Error::message)?;
    if config.verbosity >= 1 && !config.quiet {
      eprintln!("[watch] waiting for changes");
    }
    changes = events.next_burst().map_err(Error::message)?;
  }
}

impl Dependencies {
  /// Add the sources loaded since `first_source` and the `[cache]` paths
  /// declared by the run.
  fn record(&mut self, justfile_directory: &Path, first_source: u32) {
    let loaded = (first_source..).map_while(crate::syntax::sources::get);
    // Diagnostics name sources relative to the root justfile's directory.
    self.sources.extend(loaded.map(|source| justfile_directory.join(source.path).lexiclean()));
    let declared = cache::take_declared();
    self.inputs.extend(declared.inputs.into_iter().map(|path| path.lexiclean()));
    self.outputs.extend(declared.outputs.into_iter().map(|path| path.lexiclean()));
  }
}

/// The index the next registered source file will get.
fn next_source_id() -> u32 {
  (0..).find(|id| crate::syntax::sources::get(*id).is_none()).unwrap_or(u32::MAX)
}

/// Print a run's error as `just` would, and carry on.
fn report(config: &Config, outcome: Result) {
  if let Err(error) = outcome {
    if !config.quiet {
      let painter = Painter::new(config.color, Stream::Stderr);
      eprint!("{}", error.render(&painter));
    }
  }
}

fn silent(status: i32) -> Error<'static> {
  Error::Other(Box::new(Report { status, silent: true, ..Report::default() }))
}

/// One line before a new run: what changed (the first path, how many more).
fn announce(config: &Config, watch: &WatchConfig, changes: &[PathBuf]) {
  if watch.clear {
    eprint!("\x1b[H\x1b[2J\x1b[3J");
  }
  if config.quiet {
    return;
  }
  let first = changes[0].strip_prefix(&config.invocation_directory).unwrap_or(&changes[0]);
  match changes.len() - 1 {
    0 => eprintln!("[watch] {} changed", first.display()),
    more => eprintln!("[watch] {} and {more} more changed", first.display()),
  }
}
