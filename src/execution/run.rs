//! A run of recipes as a value: what one run of `just` (or one rerun of
//! `--watch`) owns besides its model — the process supervisor, the output
//! sink, the jobserver client, the shared cache stores it opened and the
//! `[cache]` observer. Two runs share nothing; dropping a run releases all
//! of it.

use super::cache::{Observer, Stores};
use super::jobserver::Jobserver;
use super::output_mode::OutputSink;
use crate::platform::supervisor::Supervisor;

pub(crate) struct Run {
  pub supervisor: Supervisor,
  pub output: OutputSink,
  pub jobserver: Jobserver,
  pub observer: Option<Observer>,
  pub stores: Stores,
}

impl Run {
  /// A run whose supervisor takes the process's signals; `verbose` notes
  /// each SIGTERM passed on to a child.
  pub(crate) fn new(verbose: bool, observer: Option<Observer>) -> Run {
    Run {
      supervisor: Supervisor::new(verbose),
      output: OutputSink::default(),
      jobserver: Jobserver::default(),
      observer,
      stores: Stores::default(),
    }
  }
}
