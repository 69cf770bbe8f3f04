//! `just`'s side of a Remote Execution API store: the helper process
//! (`reapi/mod.rs` describes its protocol), asked by several threads at
//! once. Each request carries an id; a reader thread hands each reply to
//! the thread waiting for that id. When the helper ends, every waiting and
//! later request fails with the last error it reported.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::process::{Child, ChildStdin};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::Value as Json;

use super::helper::{reap, spawn};
use super::{StoreError, StoreResult};

/// The replies awaited, by request id; `None` once the helper ended.
type Waiting = Arc<Mutex<Option<HashMap<u64, Sender<Json>>>>>;

pub(in crate::execution::cache) struct RemoteStore {
  input: Mutex<Option<ChildStdin>>,
  waiting: Waiting,
  next: AtomicU64,
  child: Mutex<Child>,
  /// `HOST:PORT`.
  pub shown: String,
  /// Whether the server accepts action results.
  pub updates: bool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
  mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn lost() -> StoreError {
  StoreError("the cache store helper stopped".into())
}

impl RemoteStore {
  /// Start the helper for the `grpc://` or `grpcs://` URL `url`.
  pub(in crate::execution::cache) fn start(
    url: &str,
    timeout: Duration,
  ) -> StoreResult<RemoteStore> {
    let (mut child, input, mut output, first) = spawn(url, timeout)?;
    let ready = match first.split_once(' ') {
      Some(("ready", ready)) => serde_json::from_str::<Json>(ready).unwrap_or(Json::Null),
      Some(("error", message)) => {
        reap(&mut child);
        return Err(StoreError(message.to_string()));
      }
      _ => {
        reap(&mut child);
        return Err(StoreError("the cache store helper did not start".into()));
      }
    };
    let waiting: Waiting = Arc::new(Mutex::new(Some(HashMap::new())));
    let replies = Arc::clone(&waiting);
    std::thread::Builder::new()
      .name("cache-store".into())
      .spawn(move || {
        let mut line = String::new();
        loop {
          line.clear();
          match output.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
          }
          let (id, reply) = line.trim_end().split_once(' ').unwrap_or(("", ""));
          let (Ok(id), Ok(reply)) = (id.parse::<u64>(), serde_json::from_str::<Json>(reply)) else {
            continue;
          };
          if let Some(sender) = lock(&replies).as_mut().and_then(|waiting| waiting.remove(&id)) {
            let _ = sender.send(reply);
          }
        }
        // Dropping the senders fails every request still waiting.
        lock(&replies).take();
      })
      .map_err(|error| StoreError::io(&error))?;
    Ok(RemoteStore {
      input: Mutex::new(Some(input)),
      waiting,
      next: AtomicU64::new(0),
      child: Mutex::new(child),
      shown: ready["shown"].as_str().unwrap_or(url).to_string(),
      updates: ready["updates"].as_bool().unwrap_or(false),
    })
  }

  /// Send `request` and wait for its reply; a reply `{"error": …}` is a
  /// failure of the store.
  pub(in crate::execution::cache) fn ask(&self, request: &Json) -> StoreResult<Json> {
    let id = self.next.fetch_add(1, Ordering::Relaxed);
    let (sender, receiver) = channel();
    lock(&self.waiting).as_mut().ok_or_else(lost)?.insert(id, sender);
    {
      let mut input = lock(&self.input);
      let input = input.as_mut().ok_or_else(lost)?;
      writeln!(input, "{id} {request}").and_then(|()| input.flush()).map_err(|_| lost())?;
    }
    let reply = receiver.recv().map_err(|_| lost())?;
    match reply["error"].as_str() {
      Some(message) => Err(StoreError(message.to_string())),
      None => Ok(reply),
    }
  }
}

impl RemoteStore {
  /// `ask`, watching `interrupted` while the reply is awaited: once it
  /// holds, `cancel` is sent (once), and the reply still awaited.
  pub(in crate::execution::cache) fn ask_or_cancel(
    &self,
    request: &Json,
    interrupted: &dyn Fn() -> bool,
    cancel: &Json,
  ) -> StoreResult<Json> {
    let id = self.next.fetch_add(1, Ordering::Relaxed);
    let (sender, receiver) = channel();
    lock(&self.waiting).as_mut().ok_or_else(lost)?.insert(id, sender);
    self.send(id, request)?;
    let mut cancelled = false;
    let reply = loop {
      match receiver.recv_timeout(Duration::from_millis(50)) {
        Ok(reply) => break reply,
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Err(lost()),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
      }
      if !cancelled && interrupted() {
        cancelled = true;
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.send(id, cancel)?;
      }
    };
    match reply["error"].as_str() {
      Some(message) => Err(StoreError(message.to_string())),
      None => Ok(reply),
    }
  }

  fn send(&self, id: u64, request: &Json) -> StoreResult<()> {
    let mut input = lock(&self.input);
    let input = input.as_mut().ok_or_else(lost)?;
    writeln!(input, "{id} {request}").and_then(|()| input.flush()).map_err(|_| lost())
  }
}

impl Drop for RemoteStore {
  /// The run is over: the helper, told so by the end of its input, exits.
  fn drop(&mut self) {
    lock(&self.input).take();
    reap(&mut lock(&self.child));
  }
}
