//! The Remote Execution API store (`--cache-url grpc://HOST:PORT[/INSTANCE]`,
//! `grpcs://…`), served by the helper `just-cache-store` (the gRPC stack is
//! linked into it only).
//!
//! Protocol, after the URL line every helper reads: the helper connects,
//! asks the server's Capabilities and prints `ready {"shown": "HOST:PORT",
//! "updates": BOOL}` (or `error MESSAGE`). Then each request is one line
//! `ID JSON` and is answered, in any order, by one line `ID JSON`: requests
//! run concurrently. Requests (`"op"`):
//!
//! * `action` with `"spec"` (`action::Spec`): builds the Command, the input
//!   root and the Action; answers `{"digest": "HASH/SIZE"}`.
//! * `lookup` with `"action"` (`HASH/SIZE`), `"outputs"` and `"staging"` (an
//!   empty private directory): GetActionResult; `{"found": false}`, or the
//!   result staged (`result::stage`): `{"found": true, "entry": PATH}`, or
//!   `{"refused": REASON}` for a result unusable here.
//! * `publish` with `"action"`, `"working_directory"`, `"outputs"`,
//!   `"items"` (the outputs as walked), `"stdout"` and `"stderr"` (files):
//!   uploads the missing blobs (the Action's too) and calls
//!   UpdateActionResult; `{"ok": true}` or `{"refused": REASON}`.
//!
//! * `execute` with `"action"`, `"key"` and `"staging"`: runs the Action on
//!   the server (`execute.rs`): `{"exit": 0, "entry": PATH}`, `{"exit": N,
//!   "stdout": PATH, "stderr": PATH}`, `{"refused": REASON}` or
//!   `{"cancelled": true}`.
//! * `cancel` with `"key"`: cancels that execution; `{"ok": true}`.
//!
//! Any failure of the server is `{"error": MESSAGE}`. Every call has the
//! deadline `SECONDS` (the helper's argument).

pub(crate) mod action;
pub(crate) mod blobs;
pub(crate) mod connection;
pub(crate) mod execute;
pub(crate) mod result;

use std::collections::HashMap;
use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bazel_remote_apis::build::bazel::remote::execution::v2 as re;
use serde_json::{json, Value as Json};

use super::deadline::write_line;
use super::StoreError;
use connection::{Connection, SHA256};

/// What the helper keeps between requests.
struct State {
  connection: Connection,
  /// The Actions built, by `HASH/SIZE`, until published.
  prepared: Mutex<HashMap<String, Arc<action::Prepared>>>,
}

/// Serve the REAPI store at `url` to the requests on `lines`.
pub(crate) fn serve(
  url: &str,
  timeout: Duration,
  lines: impl Iterator<Item = io::Result<String>>,
) -> i32 {
  let runtime =
    match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
      Ok(runtime) => runtime,
      Err(error) => {
        let _ = write_line(&format!("error {error}"));
        return 1;
      }
    };
  let connection = match runtime.block_on(Connection::open(url, timeout)) {
    Ok(connection) => connection,
    Err(error) => {
      let _ = write_line(&format!("error {}", error.0));
      return 1;
    }
  };
  let ready = json!({"shown": connection.shown, "updates": connection.updates});
  if write_line(&format!("ready {ready}")).is_err() {
    return 1;
  }
  let state = Arc::new(State { connection, prepared: Mutex::default() });
  // An interrupted `just` closes its end; the executions it leaves are
  // cancelled then (`answer_lines`).
  crate::platform::ignore_interrupts();
  let status = answer_lines(&runtime, &state, lines);
  // `just` is done with the store (or gone): requests still running are
  // dropped, a file being hashed included, rather than waited for.
  runtime.shutdown_background();
  status
}

/// Answer each request line, each in a task of its own; once the input
/// ends, cancel the executions in flight: the status to exit with.
fn answer_lines(
  runtime: &tokio::runtime::Runtime,
  state: &Arc<State>,
  lines: impl Iterator<Item = io::Result<String>>,
) -> i32 {
  for line in lines {
    let Ok(line) = line else {
      break;
    };
    let (id, request) = line.split_once(' ').unwrap_or((&line, ""));
    let id = id.to_string();
    let request: Json = serde_json::from_str(request).unwrap_or(Json::Null);
    let state = Arc::clone(state);
    runtime.spawn(async move {
      let reply = answer(&state, &request).await.unwrap_or_else(|error| json!({"error": error.0}));
      let _ = write_line(&format!("{id} {reply}"));
    });
  }
  let _ = runtime.block_on(tokio::time::timeout(
    state.connection.timeout,
    execute::cancel_all(&state.connection),
  ));
  0
}

fn text(request: &Json, field: &str) -> Result<String, StoreError> {
  request[field]
    .as_str()
    .map(str::to_string)
    .ok_or_else(|| StoreError(format!("a request lacks `{field}`")))
}

fn strings(request: &Json, field: &str) -> Vec<String> {
  request[field]
    .as_array()
    .into_iter()
    .flatten()
    .filter_map(|value| value.as_str().map(str::to_string))
    .collect()
}

async fn answer(state: &State, request: &Json) -> Result<Json, StoreError> {
  match request["op"].as_str() {
    Some("action") => {
      let spec: action::Spec = serde_json::from_value(request["spec"].clone())
        .map_err(|error| StoreError(format!("invalid action: {error}")))?;
      let prepared = tokio::task::spawn_blocking(move || action::prepare(&spec))
        .await
        .map_err(|error| StoreError(error.to_string()))?
        .map_err(|error| StoreError(error.to_string()))?;
      let shown = action::shown(&prepared.digest);
      lock(&state.prepared).insert(shown.clone(), Arc::new(prepared));
      Ok(json!({"digest": shown}))
    }
    Some("lookup") => {
      let digest = digest(request)?;
      let outputs = strings(request, "outputs");
      let staging = PathBuf::from(text(request, "staging")?);
      lookup(&state.connection, &digest, &outputs, &staging).await
    }
    Some("publish") => {
      let shown = text(request, "action")?;
      let prepared = lock(&state.prepared)
        .get(&shown)
        .cloned()
        .ok_or_else(|| StoreError(format!("unknown action {shown}")))?;
      publish(&state.connection, &prepared, request).await
    }
    Some("execute") => {
      let shown = text(request, "action")?;
      let prepared = lock(&state.prepared)
        .get(&shown)
        .cloned()
        .ok_or_else(|| StoreError(format!("unknown action {shown}")))?;
      let staging = PathBuf::from(text(request, "staging")?);
      execute::execute(&state.connection, &prepared, &text(request, "key")?, &staging).await
    }
    Some("cancel") => {
      execute::cancel(&text(request, "key")?);
      Ok(json!({"ok": true}))
    }
    _ => Err(StoreError("unknown request".into())),
  }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
  mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn digest(request: &Json) -> Result<re::Digest, StoreError> {
  let shown = text(request, "action")?;
  action::parse(&shown).ok_or_else(|| StoreError(format!("invalid digest `{shown}`")))
}

/// The ActionResult for `digest`, staged for the declared `outputs`.
pub(crate) async fn lookup(
  connection: &Connection,
  digest: &re::Digest,
  outputs: &[String],
  staging: &std::path::Path,
) -> Result<Json, StoreError> {
  let request = re::GetActionResultRequest {
    instance_name: connection.instance.clone(),
    action_digest: Some(digest.clone()),
    inline_stdout: false,
    inline_stderr: false,
    inline_output_files: Vec::new(),
    digest_function: SHA256,
  };
  let mut client = connection.action_cache();
  let result = match tokio::time::timeout(
    connection.timeout,
    client.get_action_result(connection.request(request)),
  )
  .await
  {
    Ok(Ok(result)) => result.into_inner(),
    Ok(Err(failure)) if failure.code() == tonic::Code::NotFound => {
      return Ok(json!({"found": false}))
    }
    Ok(Err(failure)) => return Err(connection::status(&failure)),
    Err(_) => return Err(connection.timed_out()),
  };
  Ok(match result::stage(connection, result, outputs, staging).await? {
    result::Staged::Entry(path) => json!({"found": true, "entry": path}),
    result::Staged::Refused(reason) => json!({"refused": reason}),
  })
}

/// Publish a run of `prepared`: its blobs, its outputs, then its result.
async fn publish(
  connection: &Connection,
  prepared: &action::Prepared,
  request: &Json,
) -> Result<Json, StoreError> {
  if !connection.updates {
    return Err(StoreError("the server does not accept action results".into()));
  }
  let working_directory = PathBuf::from(text(request, "working_directory")?);
  let items: Vec<Json> = request["items"].as_array().cloned().unwrap_or_default();
  let stdout = PathBuf::from(text(request, "stdout")?);
  let stderr = PathBuf::from(text(request, "stderr")?);
  let outputs = prepared.outputs.clone();
  let built = tokio::task::spawn_blocking(move || {
    result::result_of(&working_directory, &items, &outputs, &stdout, &stderr)
  })
  .await
  .map_err(|error| StoreError(error.to_string()))??;
  let (result, mut blobs) = match built {
    Ok(built) => built,
    Err(reason) => return Ok(json!({"refused": reason})),
  };
  blobs.extend(prepared.blobs.iter().cloned());
  blobs::upload(connection, &blobs).await?;
  let request = re::UpdateActionResultRequest {
    instance_name: connection.instance.clone(),
    action_digest: Some(prepared.digest.clone()),
    action_result: Some(result),
    results_cache_policy: None,
    digest_function: SHA256,
  };
  let mut client = connection.action_cache();
  connection.call(client.update_action_result(connection.request(request))).await?;
  Ok(json!({"ok": true}))
}
