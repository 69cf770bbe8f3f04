//! Every warning the cache prints, in one enum: each says what went wrong,
//! then what the run does about it (runs the recipe, goes on without the
//! store, leaves something out). `warn` prints them all, as
//! `warning: TEXT` on standard error, silenced by `--quiet`.

use std::io;
use std::path::PathBuf;

use snafu::Snafu;

use crate::execution::error::ExecutionError;
use crate::platform::stdio;

#[derive(Debug, Snafu)]
pub(in crate::execution) enum CacheWarning {
  /// The shared store could not be opened: the run goes on without it.
  #[snafu(display("shared cache not used: {why}"))]
  StoreNotUsed { why: String },
  /// The shared store failed: the run goes on without it, said once.
  #[snafu(display("shared cache `{store}` failed while {doing} ({why}); running without it"))]
  StoreFailed { store: String, doing: &'static str, why: String },
  /// A blob or record the entry needs is missing, truncated or does not
  /// match its hash.
  #[snafu(display(
    "shared cache `{store}`: object `{object}` is corrupt or incomplete; ignoring the entry"
  ))]
  ObjectCorrupt { store: String, object: String },
  /// The store refused to hand an object over whole.
  #[snafu(display(
    "shared cache `{store}`: object `{object}` is refused ({why}); ignoring the entry"
  ))]
  ObjectRefused { store: String, object: String, why: String },
  /// An entry that is whole but unsafe or unusable here.
  #[snafu(display(
    "shared cache `{store}`: entry `{entry}` refused ({reason}); running the recipe"
  ))]
  EntryRefused { store: String, entry: String, reason: String },
  /// A run the store cannot hold.
  #[snafu(display("not published to shared cache `{store}`: {reason}"))]
  NotPublished { store: String, reason: String },
  /// This machine's files stopped a restore.
  #[snafu(display(
    "failed to restore the outputs of shared cache entry `{entry}` ({error}); running the recipe"
  ))]
  RestoreFailed { entry: String, error: io::Error },
  #[snafu(display(
    "failed to remove a staging directory a killed run left next to `{output}`: {error}"
  ))]
  LeftoverStaging { output: String, error: io::Error },
  /// The staging directories of this run that could not be removed.
  #[snafu(display("failed to remove {}", list_failures(remaining)))]
  StagingsRemain { remaining: Vec<(PathBuf, io::Error)> },
  /// A recipe that is no Remote Execution API action: it runs, unshared.
  #[snafu(display("recipe `{recipe}` is not shared: {why}"))]
  NotShared { recipe: String, why: String },
  /// `--remote-fallback`: the executor cannot be used.
  #[snafu(display("{why}; running the recipe here (`--remote-fallback`)"))]
  RemoteFallback { why: String },
  #[snafu(display(
    "cache input `{input}` changed while recipe `{recipe}` ran; its outputs are not cached"
  ))]
  InputChanged { input: String, recipe: String },
  #[snafu(display("failed to read cache output `{}`: {error}; it is not recorded", path.display()))]
  OutputUnreadable { path: PathBuf, error: io::Error },
}

/// `` `PATH`: ERROR`` for each path, separated by commas.
fn list_failures(failures: &[(PathBuf, io::Error)]) -> String {
  let listed: Vec<String> =
    failures.iter().map(|(path, error)| format!("`{}`: {error}", path.display())).collect();
  listed.join(", ")
}

/// A warning that could not be written to standard error: the run ends
/// with `failed to write to standard error`.
#[derive(Debug)]
pub(in crate::execution) struct Unwritten(pub io::Error);

impl From<Unwritten> for ExecutionError<'_> {
  fn from(Unwritten(source): Unwritten) -> Self {
    ExecutionError::Stderr { source }
  }
}

/// Print `warning` on standard error, unless `quiet`. A broken pipe is not
/// an error (the reader has gone); any other failed write is.
pub(in crate::execution) fn warn(warning: &CacheWarning, quiet: bool) -> Result<(), Unwritten> {
  if quiet {
    return Ok(());
  }
  stdio::stderr_line(&format!("warning: {warning}")).map_err(Unwritten)
}

#[cfg(test)]
mod tests {
  use super::*;
  use CacheWarning::*;

  fn error(text: &str) -> io::Error {
    io::Error::other(text.to_string())
  }

  macro_rules! cases {
    ($($name:ident: $warning:expr => $text:expr,)*) => {
      $(
        #[test]
        fn $name() {
          assert_eq!($warning.to_string(), $text);
        }
      )*
    };
  }

  cases! {
    store_not_used:
      StoreNotUsed { why: "a cache header is not `NAME: VALUE`".into() }
      => "shared cache not used: a cache header is not `NAME: VALUE`",
    store_failed:
      StoreFailed { store: "/cache".into(), doing: "looking up an entry", why: "timed out".into() }
      => "shared cache `/cache` failed while looking up an entry (timed out); running without it",
    object_corrupt:
      ObjectCorrupt { store: "/cache".into(), object: "cas/ab".into() }
      => "shared cache `/cache`: object `cas/ab` is corrupt or incomplete; ignoring the entry",
    object_refused:
      ObjectRefused { store: "/cache".into(), object: "ac/cd".into(), why: "too large".into() }
      => "shared cache `/cache`: object `ac/cd` is refused (too large); ignoring the entry",
    entry_refused:
      EntryRefused { store: "/cache".into(), entry: "cas/ef".into(), reason: "a link".into() }
      => "shared cache `/cache`: entry `cas/ef` refused (a link); running the recipe",
    not_published:
      NotPublished { store: "/cache".into(), reason: "`out` is a FIFO".into() }
      => "not published to shared cache `/cache`: `out` is a FIFO",
    restore_failed:
      RestoreFailed { entry: "cas/ef".into(), error: error("disk full") }
      => "failed to restore the outputs of shared cache entry `cas/ef` (disk full); running the recipe",
    leftover_staging:
      LeftoverStaging { output: "out/a".into(), error: error("denied") }
      => "failed to remove a staging directory a killed run left next to `out/a`: denied",
    one_staging_remains:
      StagingsRemain { remaining: vec![("/p/.just-restore-1".into(), error("busy"))] }
      => "failed to remove `/p/.just-restore-1`: busy",
    stagings_remain:
      StagingsRemain {
        remaining: vec![("/p/a".into(), error("busy")), ("/p/b".into(), error("denied"))],
      }
      => "failed to remove `/p/a`: busy, `/p/b`: denied",
    not_shared:
      NotShared { recipe: "web::build".into(), why: "its body is shell lines".into() }
      => "recipe `web::build` is not shared: its body is shell lines",
    remote_fallback:
      RemoteFallback { why: "cannot use remote executor `h:1`: refused".into() }
      => "cannot use remote executor `h:1`: refused; running the recipe here (`--remote-fallback`)",
    input_changed:
      InputChanged { input: "src/a.c".into(), recipe: "build".into() }
      => "cache input `src/a.c` changed while recipe `build` ran; its outputs are not cached",
    output_unreadable:
      OutputUnreadable { path: "/p/out".into(), error: error("denied") }
      => "failed to read cache output `/p/out`: denied; it is not recorded",
  }
}
