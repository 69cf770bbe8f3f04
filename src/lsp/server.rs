//! The server loop: messages in, one at a time, answers and notifications
//! out. Every request gets an answer (an error for one it does not know, or
//! whose parameters it cannot read), a panic in a handler becomes an
//! internal error rather than the end of the server, and a client that
//! goes away (its end of the connection closed) ends the loop.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as notifications, Notification as _};
use lsp_types::request::{self as requests, Request as _};
use lsp_types::{Diagnostic, PublishDiagnosticsParams, Uri};
use serde_json::Value;

use super::diagnostics::{self, Rules};
use super::documents::{self, Documents};
use super::failure::{parameters, Failure};
use super::{capabilities, features};

/// How the session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ending {
  /// `exit` after `shutdown`: status 0.
  Orderly,
  /// `exit` without `shutdown`, or the client went away: status 1.
  Abrupt,
}

pub(super) struct Server<'c> {
  connection: &'c Connection,
  documents: Documents,
  rules: Rules,
  initialized: bool,
  shut_down: bool,
  /// The client registers file watchers when asked
  /// (`client/registerCapability`).
  registers_watchers: bool,
  /// What was last published for each file.
  published: HashMap<PathBuf, Vec<Diagnostic>>,
}

/// The client is gone: nothing more can be sent.
pub(super) struct Gone;

impl<'c> Server<'c> {
  pub(super) fn new(connection: &'c Connection) -> Self {
    Server {
      connection,
      documents: Documents::default(),
      rules: Rules::default(),
      initialized: false,
      shut_down: false,
      registers_watchers: false,
      published: HashMap::new(),
    }
  }

  /// Serve until `exit` or until the client goes away.
  pub(super) fn run(mut self) -> Ending {
    while let Ok(message) = self.connection.receiver.recv() {
      let outcome = match message {
        Message::Request(request) => self.request(request),
        Message::Notification(notification) => {
          if notification.method == notifications::Exit::METHOD {
            return if self.shut_down { Ending::Orderly } else { Ending::Abrupt };
          }
          self.notification(notification)
        }
        // The server sends no requests, so expects no responses.
        Message::Response(_) => Ok(()),
      };
      if outcome.is_err() {
        break;
      }
    }
    Ending::Abrupt
  }

  fn send(&self, message: impl Into<Message>) -> Result<(), Gone> {
    self.connection.sender.send(message.into()).map_err(|_| Gone)
  }

  fn request(&mut self, request: Request) -> Result<(), Gone> {
    let id = request.id.clone();
    let method = request.method.clone();
    if !self.initialized && method != requests::Initialize::METHOD {
      return self.send(Response::new_err(
        id,
        ErrorCode::ServerNotInitialized as i32,
        format!("`{method}` before `initialize`"),
      ));
    }
    if self.shut_down {
      return self.send(Response::new_err(
        id,
        ErrorCode::InvalidRequest as i32,
        format!("`{method}` after `shutdown`"),
      ));
    }
    if method == requests::ExecuteCommand::METHOD {
      return self.execute(id, request.params);
    }
    let answer = catch_unwind(AssertUnwindSafe(|| self.answer(&method, request.params)));
    let response = match answer {
      Ok(Ok(value)) => Response::new_ok(id, value),
      Ok(Err(Failure { code, message })) => Response::new_err(id, code as i32, message),
      Err(_) => Response::new_err(
        id,
        ErrorCode::InternalError as i32,
        format!("internal error answering `{method}`"),
      ),
    };
    self.send(response)
  }

  /// `workspace/executeCommand`: `just.run` answers when the recipe ends,
  /// from the thread that runs it.
  fn execute(&mut self, id: lsp_server::RequestId, params: Value) -> Result<(), Gone> {
    let params: lsp_types::ExecuteCommandParams = match parameters(params) {
      Ok(params) => params,
      Err(Failure { code, message }) => {
        return self.send(Response::new_err(id, code as i32, message))
      }
    };
    if params.command != super::run::RUN {
      let message = format!("unknown command `{}`", params.command);
      return self.send(Response::new_err(id, ErrorCode::InvalidParams as i32, message));
    }
    let sender = self.connection.sender.clone();
    let respond = move |response: Response| {
      let _ = sender.send(response.into());
    };
    match super::run::start(&params.arguments, respond, id.clone()) {
      Ok(()) => Ok(()),
      Err(message) => self.send(Response::new_err(id, ErrorCode::InvalidParams as i32, message)),
    }
  }

  fn answer(&mut self, method: &str, params: Value) -> Result<Value, Failure> {
    match method {
      requests::Initialize::METHOD => {
        if self.initialized {
          return Err(Failure::new(ErrorCode::InvalidRequest, "`initialize` was already sent"));
        }
        if let Some(options) = params.get("initializationOptions") {
          self.rules.configure(options);
        }
        self.initialized = true;
        self.registers_watchers = params
          .pointer("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration")
          .and_then(Value::as_bool)
          .unwrap_or(false);
        Ok(capabilities::initialize_result())
      }
      requests::Shutdown::METHOD => {
        self.shut_down = true;
        Ok(Value::Null)
      }
      _ => features::answer(&self.documents, method, params),
    }
  }

  fn notification(&mut self, notification: Notification) -> Result<(), Gone> {
    if !self.initialized {
      return Ok(());
    }
    let params = notification.params;
    let handled = catch_unwind(AssertUnwindSafe(|| self.notified(&notification.method, params)));
    match handled {
      Ok(result) => result,
      Err(_) => Ok(()),
    }
  }

  fn notified(&mut self, method: &str, params: Value) -> Result<(), Gone> {
    match method {
      notifications::DidOpenTextDocument::METHOD => {
        let Ok(params) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(params)
        else {
          return Ok(());
        };
        let uri = params.text_document.uri.as_str().to_string();
        let Some(path) = documents::uri_path(&uri) else { return Ok(()) };
        self.documents.open(
          path.clone(),
          uri,
          params.text_document.text,
          params.text_document.version,
        );
        self.publish(Some(&path))
      }
      notifications::DidChangeTextDocument::METHOD => {
        let Ok(params) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(params)
        else {
          return Ok(());
        };
        let Some(path) = documents::uri_path(params.text_document.uri.as_str()) else {
          return Ok(());
        };
        self.documents.change(&path, params.text_document.version, params.content_changes);
        self.publish(Some(&path))
      }
      notifications::DidCloseTextDocument::METHOD => {
        let Ok(params) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(params)
        else {
          return Ok(());
        };
        if let Some(path) = documents::uri_path(params.text_document.uri.as_str()) {
          self.documents.close(&path);
        }
        self.publish(None)
      }
      notifications::Initialized::METHOD if self.registers_watchers => {
        self.send(capabilities::watch_registration())
      }
      // An imported file or module changed on disk: check again.
      notifications::DidChangeWatchedFiles::METHOD => {
        self.documents.forget();
        self.publish(None)
      }
      notifications::DidSaveTextDocument::METHOD => {
        // Files on disk may have changed with the save: read them again.
        self.documents.forget();
        self.publish(None)
      }
      notifications::DidChangeConfiguration::METHOD => {
        if let Some(settings) = params.get("settings") {
          self.rules.configure(settings.get("just").unwrap_or(settings));
        }
        self.publish(None)
      }
      _ => Ok(()),
    }
  }

  /// Publish the diagnostics that changed, and always those of `changed`
  /// (the document just opened or edited, with its version).
  fn publish(&mut self, changed: Option<&Path>) -> Result<(), Gone> {
    let mut current = diagnostics::compute(&self.documents, &self.rules);
    // Files that had diagnostics and now have none get an empty list.
    for path in self.published.keys() {
      current.entry(path.clone()).or_default();
    }
    let mut paths: Vec<PathBuf> = current.keys().cloned().collect();
    paths.sort();
    for path in paths {
      let diagnostics = current.remove(&path).unwrap_or_default();
      let unchanged =
        self.published.get(&path).map_or(diagnostics.is_empty(), |old| *old == diagnostics);
      if unchanged && changed != Some(path.as_path()) {
        continue;
      }
      let document = self.documents.get(&path);
      let uri =
        document.map_or_else(|| documents::path_uri(&path), |document| document.uri.clone());
      let Ok(uri) = uri.parse::<Uri>() else { continue };
      let params = PublishDiagnosticsParams {
        uri,
        diagnostics: diagnostics.clone(),
        version: document.map(|document| document.version),
      };
      self.send(Notification::new(notifications::PublishDiagnostics::METHOD.into(), params))?;
      if diagnostics.is_empty() {
        self.published.remove(&path);
      } else {
        self.published.insert(path, diagnostics);
      }
    }
    Ok(())
  }
}
