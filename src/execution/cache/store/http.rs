//! A store behind plain HTTP: `GET`, `HEAD` and `PUT` of `BASE/cas/<hex>`
//! and `BASE/ac/<hex>`, as nginx with `WebDAV` or a bucket
//! behind HTTP serve them. User name and password in the URL become a basic
//! `Authorization` header and never appear in messages.

use std::io::Read;
use std::time::Duration;

use base64::Engine as _;

use super::{Store, StoreError, StoreResult};

pub(super) struct HttpStore {
  agent: ureq::Agent,
  base: String,
  authorization: Option<String>,
  shown: String,
}

/// An agent whose every wait (connecting, each read, each write) ends
/// after `timeout`. Connections are not kept for reuse: a reused one kept
/// the timeouts of no request, and a request on it could hang for minutes.
pub(super) fn agent(timeout: Duration) -> ureq::Agent {
  ureq::AgentBuilder::new()
    .max_idle_connections(0)
    .timeout_connect(timeout)
    .timeout_read(timeout)
    .timeout_write(timeout)
    .redirects(0)
    .build()
}

/// The words for a failed request: its status or the kind of transport
/// failure, never its URL.
pub(super) fn describe_error(error: &ureq::Error) -> StoreError {
  match error {
    ureq::Error::Status(status, _) => StoreError(format!("HTTP status {status}")),
    ureq::Error::Transport(transport) => StoreError(match transport.kind() {
      ureq::ErrorKind::Io => "network error (timed out or connection lost)".to_string(),
      kind => kind.to_string().to_lowercase(),
    }),
  }
}

impl HttpStore {
  pub(super) fn new(url: &str, timeout: Duration) -> StoreResult<Self> {
    let parsed =
      url::Url::parse(url).map_err(|error| StoreError(format!("invalid cache URL: {error}")))?;
    let authorization = (!parsed.username().is_empty()).then(|| {
      let credentials = format!("{}:{}", parsed.username(), parsed.password().unwrap_or_default());
      format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(credentials))
    });
    let mut bare = parsed.clone();
    let _ = bare.set_username("");
    let _ = bare.set_password(None);
    bare.set_query(None);
    bare.set_fragment(None);
    let base = bare.as_str().trim_end_matches('/').to_string();
    Ok(HttpStore { agent: agent(timeout), shown: base.clone(), base, authorization })
  }

  pub(super) fn describe(&self) -> String {
    self.shown.clone()
  }

  fn request(&self, method: &str, name: &str) -> ureq::Request {
    let request = self.agent.request(method, &format!("{}/{name}", self.base));
    match &self.authorization {
      Some(value) => request.set("Authorization", value),
      None => request,
    }
  }
}

impl Store for HttpStore {
  fn get(&self, name: &str, _limit: u64) -> StoreResult<Option<Box<dyn Read + Send>>> {
    match self.request("GET", name).call() {
      Ok(response) => Ok(Some(Box::new(response.into_reader()))),
      // S3 without `ListBucket` answers 403 for a missing object.
      Err(ureq::Error::Status(403 | 404, _)) => Ok(None),
      Err(error) => Err(describe_error(&error)),
    }
  }

  fn contains(&self, name: &str) -> StoreResult<bool> {
    match self.request("HEAD", name).call() {
      Ok(_) => Ok(true),
      Err(ureq::Error::Status(403 | 404, _)) => Ok(false),
      Err(error) => Err(describe_error(&error)),
    }
  }

  fn put(&self, name: &str, body: &mut dyn Read, length: u64) -> StoreResult<()> {
    self
      .request("PUT", name)
      .set("Content-Length", &length.to_string())
      .send(body)
      .map(drop)
      .map_err(|error| describe_error(&error))
  }
}
