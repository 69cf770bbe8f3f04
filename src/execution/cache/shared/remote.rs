//! The shared cache over a Remote Execution API server: a cached recipe is
//! an Action (`store/reapi/action.rs` builds it in the helper), a hit its
//! ActionResult, staged by the helper in a private directory and restored
//! by `restore.rs` as any entry, a miss published as an ActionResult.

use std::io::{self, Seek};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{json, Value as Json};

use super::{walk, Captured, Found, Shared};
use crate::execution::cache::entry;
use crate::execution::cache::store::{RemoteStore, StoreError};
use crate::execution::cache::warning::{CacheWarning, Unwritten};
use crate::options::Options;

impl Shared {
  /// Start the helper for the REAPI server at `url`; a server that takes
  /// no action results is read only.
  pub(super) fn open_remote(url: &str, timeout: u64, config: &Options) -> Shared {
    let started = RemoteStore::start(url, Duration::from_secs(timeout));
    let mut shared = Shared {
      failed: AtomicBool::new(started.is_err()),
      store: None,
      remote: None,
      shown: String::new(),
      read_only: config.cache_read_only,
      quiet: config.quiet,
      corrupted: Mutex::default(),
      probed: AtomicBool::new(false),
      unwritten: Mutex::default(),
    };
    match started {
      Ok(remote) => {
        shared.shown.clone_from(&remote.shown);
        shared.read_only |= !remote.updates;
        shared.remote = Some(remote);
      }
      Err(error) => shared.warn(CacheWarning::StoreNotUsed { why: error.0 }),
    }
    shared
  }

  /// Whether the store is a REAPI server.
  pub(in crate::execution::cache) fn is_remote(&self) -> bool {
    self.remote.is_some()
  }

  fn remote(&self) -> Option<&RemoteStore> {
    self.remote.as_ref().filter(|_| self.usable())
  }

  /// The Action `spec` describes, as `HASH/SIZE`; `None` when the store
  /// failed (warned).
  pub(in crate::execution::cache) fn prepare_action(
    &self,
    spec: Json,
  ) -> Result<Option<String>, Unwritten> {
    let Some(remote) = self.remote() else {
      return Ok(None);
    };
    match remote.ask(&json!({"op": "action", "spec": spec})) {
      Ok(reply) => Ok(reply["digest"].as_str().map(str::to_string)),
      Err(error) => {
        self.fail("describing an action", &error);
        self.reported(None)
      }
    }
  }

  /// The ActionResult of `action`, staged for `outputs`.
  pub(in crate::execution::cache) fn lookup_action(
    &self,
    action: &str,
    outputs: &[String],
  ) -> Result<Option<Found>, Unwritten> {
    let Some(remote) = self.remote() else {
      return Ok(None);
    };
    let name = format!("action {action}");
    let result = (|| -> Result<Option<Found>, StoreError> {
      let staging = private_staging()?;
      let request =
        json!({"op": "lookup", "action": action, "outputs": outputs, "staging": staging.path()});
      let reply = remote.ask(&request)?;
      if let Some(reason) = reply["refused"].as_str() {
        self.refuse(&name, reason);
        return Ok(None);
      }
      let Some(path) = reply["entry"].as_str().filter(|_| reply["found"] == true) else {
        return Ok(None);
      };
      Found::staged(self, std::path::Path::new(path), outputs, name.clone(), staging)
    })();
    let found = result.unwrap_or_else(|error| {
      self.fail("looking up an action", &error);
      None
    });
    self.reported(found)
  }

  /// Publish a successful run of `action` as its ActionResult.
  pub(super) fn publish_action(
    &self,
    action: &str,
    working_directory: &std::path::Path,
    outputs: &[String],
    captured: &mut Captured,
  ) {
    let Some(remote) = self.remote() else {
      return;
    };
    let described = (|| -> io::Result<(Vec<Json>, tempfile::TempDir)> {
      // The outputs as the entry of a `--cache-dir` store describes them
      // (its streams are the helper's to hash).
      let nothing = entry::Blob { hash: [0; 32], size: 0 };
      let mut writer = entry::Writer::start(Vec::new(), "", &nothing, &nothing)?;
      for output in outputs {
        walk(working_directory, output, &mut writer)?;
      }
      let text = writer.finish()?;
      let mut described: Json = serde_json::from_slice(&text).map_err(io::Error::other)?;
      let items = match described["outputs"].take() {
        Json::Array(items) => items,
        _ => Vec::new(),
      };
      // The helper reads the captured streams by path.
      let streams = tempfile::Builder::new().prefix(".just-reapi-").tempdir()?;
      for (file, name) in [(&mut captured.stdout, "stdout"), (&mut captured.stderr, "stderr")] {
        file.rewind()?;
        io::copy(file, &mut std::fs::File::create(streams.path().join(name))?)?;
      }
      Ok((items, streams))
    })();
    let (items, streams) = match described {
      Ok(described) => described,
      Err(error) => {
        self.not_published(error.to_string());
        return;
      }
    };
    let request = json!({
      "op": "publish",
      "action": action,
      "working_directory": working_directory,
      "items": items,
      "stdout": streams.path().join("stdout"),
      "stderr": streams.path().join("stderr"),
    });
    match remote.ask(&request) {
      Ok(reply) => {
        if let Some(reason) = reply["refused"].as_str() {
          self.not_published(reason.to_string());
        }
      }
      Err(error) => self.fail("publishing an action result", &error),
    }
  }
}

/// A private directory the cache store helper fetches an entry's blobs
/// into, removed with it, and by `just` if a signal ends it first.
pub(super) fn private_staging() -> Result<tempfile::TempDir, StoreError> {
  let staging = tempfile::Builder::new()
    .prefix(".just-reapi-")
    .tempdir()
    .map_err(|error| StoreError::io(&error))?;
  crate::platform::signals::remove_at_exit(staging.path().to_path_buf());
  Ok(staging)
}
