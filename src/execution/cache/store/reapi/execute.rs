//! Remote execution (`--remote-executor`): an Action prepared by `action`
//! is run by the server's Execution service. Its missing blobs are uploaded,
//! `Execute` is called and its operation awaited (on the stream, then with
//! `WaitExecution` when the stream breaks off), and the ActionResult staged
//! as a lookup's is (`result::stage`), or, for a non-zero exit, only its
//! standard output and error. Operations in flight are kept by the key
//! `just` gave them, so that a `cancel` request, or the end of `just`'s
//! input (an interrupted run), cancels them (`CancelOperation`).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use bazel_remote_apis::build::bazel::remote::execution::v2 as re;
use bazel_remote_apis::google::longrunning::operation::Result as Outcome;
use bazel_remote_apis::google::longrunning::operations_client::OperationsClient;
use bazel_remote_apis::google::longrunning::{CancelOperationRequest, Operation};
use prost::Message;
use re::execution_client::ExecutionClient;
use serde_json::{json, Value as Json};
use tokio::sync::watch;

use super::action::Prepared;
use super::blobs::{download, Fetch};
use super::connection::{status, Connection, LARGEST_MESSAGE, SHA256};
use super::result::{stage, Staged};
use crate::execution::cache::store::StoreError;

/// How often a broken-off operation stream is resumed with `WaitExecution`
/// before the action is given up.
const RESUMPTIONS: usize = 30;

/// An execution in flight: its operation, once the server named it, and
/// the switch that stops waiting for it.
struct InFlight {
  operation: Option<String>,
  cancel: watch::Sender<bool>,
}

fn in_flight() -> MutexGuard<'static, HashMap<String, InFlight>> {
  static IN_FLIGHT: OnceLock<Mutex<HashMap<String, InFlight>>> = OnceLock::new();
  IN_FLIGHT.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner)
}

fn error(text: impl Into<String>) -> StoreError {
  StoreError(text.into())
}

/// A request of a call that may last as long as the action: the headers,
/// without the deadline of the other calls.
fn unbounded<T>(connection: &Connection, message: T) -> tonic::Request<T> {
  let mut request = connection.request(message);
  request.metadata_mut().remove("grpc-timeout");
  request
}

/// Run `prepared` on the server; `key` names the execution for `cancel`.
/// `{"exit": 0, "entry": PATH}` (staged in `staging`), `{"exit": N,
/// "stdout": PATH, "stderr": PATH}`, `{"refused": REASON}` or
/// `{"cancelled": true}`.
pub(crate) async fn execute(
  connection: &Connection,
  prepared: &Prepared,
  key: &str,
  staging: &Path,
) -> Result<Json, StoreError> {
  let (sender, mut cancelled) = watch::channel(false);
  in_flight().insert(key.to_string(), InFlight { operation: None, cancel: sender });
  let mut stop = cancelled.clone();
  let outcome = async {
    super::blobs::upload(connection, &prepared.blobs).await?;
    run(connection, prepared, key, &mut cancelled).await
  };
  let outcome = tokio::select! {
    outcome = outcome => outcome,
    _ = stop.wait_for(|cancelled| *cancelled) => Ok(None),
  };
  let operation = in_flight().remove(key).and_then(|execution| execution.operation);
  if let Some(finished) = outcome? {
    return finish(connection, finished, &prepared.outputs, staging).await;
  }
  if let Some(operation) = operation {
    cancel_operation(connection, &operation).await;
  }
  Ok(json!({"cancelled": true}))
}

/// Call `Execute` and follow the operation to its end; `None` when
/// cancelled.
async fn run(
  connection: &Connection,
  prepared: &Prepared,
  key: &str,
  cancelled: &mut watch::Receiver<bool>,
) -> Result<Option<Operation>, StoreError> {
  let mut client = ExecutionClient::new(connection.channel.clone())
    .max_decoding_message_size(LARGEST_MESSAGE)
    .max_encoding_message_size(LARGEST_MESSAGE);
  let request = re::ExecuteRequest {
    instance_name: connection.instance.clone(),
    skip_cache_lookup: false,
    action_digest: Some(prepared.digest.clone()),
    digest_function: SHA256,
    ..re::ExecuteRequest::default()
  };
  let mut stream = connection.call(client.execute(unbounded(connection, request))).await?;
  let mut name = String::new();
  let mut resumptions = 0;
  loop {
    let message = tokio::select! {
      message = stream.message() => message,
      _ = cancelled.wait_for(|cancelled| *cancelled) => return Ok(None),
    };
    match message {
      Ok(Some(operation)) => {
        if name.is_empty() && !operation.name.is_empty() {
          name.clone_from(&operation.name);
          if let Some(execution) = in_flight().get_mut(key) {
            execution.operation = Some(name.clone());
          }
        }
        if operation.done {
          return Ok(Some(operation));
        }
        continue;
      }
      // The stream ended or broke off before the operation did.
      Ok(None) | Err(_) if !name.is_empty() && resumptions < RESUMPTIONS => {}
      Ok(None) => return Err(error("the server ended the operation's stream before its end")),
      Err(failure) => return Err(status(&failure)),
    }
    resumptions += 1;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let request = re::WaitExecutionRequest { name: name.clone() };
    match client.wait_execution(unbounded(connection, request)).await {
      Ok(resumed) => stream = resumed.into_inner(),
      Err(failure) if resumptions >= RESUMPTIONS => return Err(status(&failure)),
      Err(_) => {}
    }
  }
}

/// What the finished `operation` says: the result staged, or why not.
async fn finish(
  connection: &Connection,
  operation: Operation,
  outputs: &[String],
  staging: &Path,
) -> Result<Json, StoreError> {
  let response = match operation.result {
    Some(Outcome::Response(any)) => re::ExecuteResponse::decode(&any.value[..])
      .map_err(|_| error("the server answered the execution with something else"))?,
    Some(Outcome::Error(failed)) => return Err(rpc_failure(&failed)),
    None => return Err(error("the operation ended without a result")),
  };
  if let Some(failed) = response.status.as_ref().filter(|failed| failed.code != 0) {
    return Err(rpc_failure(failed));
  }
  let Some(result) = response.result else {
    return Err(error("the execution has no result"));
  };
  let cached = response.cached_result;
  if result.exit_code == 0 {
    return Ok(match stage(connection, result, outputs, staging).await? {
      Staged::Entry(path) => json!({"exit": 0, "entry": path, "cached": cached}),
      Staged::Refused(reason) => json!({"refused": reason}),
    });
  }
  let mut reply = json!({"exit": result.exit_code, "cached": cached});
  for (name, raw, digest) in [
    ("stdout", result.stdout_raw, result.stdout_digest),
    ("stderr", result.stderr_raw, result.stderr_digest),
  ] {
    let path = staging.join(name);
    match digest.filter(|_| raw.is_empty()) {
      Some(digest) => match download(connection, &digest, &path).await {
        Ok(_) => {}
        Err(Fetch::Refused(reason)) => return Ok(json!({"refused": reason})),
        Err(Fetch::Failed(failed)) => return Err(failed),
      },
      None => std::fs::write(&path, raw).map_err(|failed| error(failed.to_string()))?,
    }
    reply[name] = json!(path);
  }
  Ok(reply)
}

/// A failed execution's status, in words (`DEADLINE_EXCEEDED`: the action
/// ran past its timeout).
fn rpc_failure(failed: &bazel_remote_apis::google::rpc::Status) -> StoreError {
  let code = tonic::Code::from_i32(failed.code);
  let message = failed.message.lines().next().unwrap_or_default();
  let message = if message.contains("://") { "" } else { message };
  match (code, message) {
    (tonic::Code::DeadlineExceeded, _) => error("the action ran past its timeout"),
    (code, "") => error(format!("the server failed the action: {code:?}")),
    (code, message) => error(format!("the server failed the action: {code:?}: {message}")),
  }
}

/// Stop waiting for the execution `key` and cancel its operation.
pub(crate) fn cancel(key: &str) {
  if let Some(execution) = in_flight().get(key) {
    let _ = execution.cancel.send(true);
  }
}

/// `just` ended with executions in flight (it was interrupted or killed):
/// cancel their operations.
pub(crate) async fn cancel_all(connection: &Connection) {
  let operations: Vec<String> =
    in_flight().drain().filter_map(|(_, execution)| execution.operation).collect();
  for operation in operations {
    cancel_operation(connection, &operation).await;
  }
}

async fn cancel_operation(connection: &Connection, operation: &str) {
  let mut client = OperationsClient::new(connection.channel.clone());
  let request = CancelOperationRequest { name: operation.to_string() };
  let _ = connection.call(client.cancel_operation(connection.request(request))).await;
}
