//! `--remote-executor`: the Remote Execution API server that runs `[cache]`
//! recipes, through the same helper as a `grpc://` cache. An executor that
//! cannot be reached is an error of the run (or, with `--remote-fallback`,
//! a warning and local runs), never a silent fall-back.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::json;

use super::remote::private_staging;
use super::{Found, Shared};
use crate::execution::cache::store::{RemoteStore, StoreError};
use crate::execution::cache::warning::Unwritten;
use crate::options::Options;

/// What became of a remote run.
pub(in crate::execution) enum Executed {
  /// It succeeded: its result, staged, to restore as a hit.
  Succeeded(Found),
  /// It exited with `code`: what it printed, in `staging`.
  Failed { code: i32, stdout: PathBuf, stderr: PathBuf, _staging: tempfile::TempDir },
  /// The run was interrupted, and the operation cancelled.
  Cancelled,
  /// It could not run there, and why.
  Error(String),
}

/// `HOST:PORT` of a `grpc(s)://` URL, without credentials or instance.
pub(crate) fn shown_server(url: &str) -> String {
  let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
  let authority = rest.split('/').next().unwrap_or_default();
  authority.rsplit_once('@').map_or(authority, |(_, host)| host).to_string()
}

impl Shared {
  /// Start the helper for the executor at `url`: an error, naming it, when
  /// it cannot be reached.
  pub(in crate::execution::cache) fn open_executor(
    url: &str,
    timeout: u64,
    config: &Options,
  ) -> Result<Shared, String> {
    if !(url.starts_with("grpc://") || url.starts_with("grpcs://")) {
      return Err(format!(
        "remote executor `{}` is not a grpc:// or grpcs:// URL",
        shown_server(url)
      ));
    }
    let remote = RemoteStore::start(url, Duration::from_secs(timeout)).map_err(|error| {
      format!("cannot use remote executor `{}`: {}", shown_server(url), error.0)
    })?;
    Ok(Shared {
      failed: AtomicBool::new(false),
      store: None,
      shown: remote.shown.clone(),
      read_only: config.cache_read_only || !remote.updates,
      remote: Some(remote),
      quiet: config.quiet,
      corrupted: Mutex::default(),
      probed: AtomicBool::new(false),
      unwritten: Mutex::default(),
    })
  }

  /// Run `action` (prepared in this helper) on the executor; `interrupted`
  /// is watched meanwhile, and the operation cancelled once it holds.
  pub(in crate::execution::cache) fn execute_action(
    &self,
    action: &str,
    outputs: &[String],
    interrupted: &dyn Fn() -> bool,
  ) -> Result<Executed, Unwritten> {
    let Some(remote) = self.remote.as_ref() else {
      return Ok(Executed::Error("the executor is not available".into()));
    };
    let name = format!("action {action}");
    // Names the operation to cancel; unique among the helper's requests.
    let key = uuid::Uuid::new_v4().to_string();
    let outcome = (|| -> Result<Executed, StoreError> {
      let staging = private_staging()?;
      let request =
        json!({"op": "execute", "action": action, "key": key, "staging": staging.path()});
      let cancel = json!({"op": "cancel", "key": key});
      let reply = remote.ask_or_cancel(&request, interrupted, &cancel)?;
      if reply["cancelled"] == true {
        return Ok(Executed::Cancelled);
      }
      if let Some(reason) = reply["refused"].as_str() {
        return Ok(Executed::Error(format!("its result is unusable: {reason}")));
      }
      let code = reply["exit"].as_i64().unwrap_or(-1);
      if code != 0 {
        let path = |name: &str| PathBuf::from(reply[name].as_str().unwrap_or_default());
        return Ok(Executed::Failed {
          code: i32::try_from(code).unwrap_or(i32::MAX),
          stdout: path("stdout"),
          stderr: path("stderr"),
          _staging: staging,
        });
      }
      let path = reply["entry"].as_str().unwrap_or_default();
      match Found::staged(self, std::path::Path::new(path), outputs, name, staging)? {
        Some(found) => Ok(Executed::Succeeded(found)),
        None => Ok(Executed::Error("its result is unusable".into())),
      }
    })();
    self.reported(outcome.unwrap_or_else(|error| Executed::Error(error.0)))
  }
}

/// Print what a failed remote run printed, as a local run would have.
pub(in crate::execution) fn print_streams(
  stdout: &std::path::Path,
  stderr: &std::path::Path,
) -> (std::io::Result<()>, std::io::Result<()>) {
  let print = |path: &std::path::Path, write| {
    std::fs::File::open(path).and_then(|mut file| super::copy_out(&mut file, write))
  };
  (
    print(stdout, crate::platform::stdio::stdout_bytes),
    print(stderr, crate::platform::stdio::stderr_bytes),
  )
}
