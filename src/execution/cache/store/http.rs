//! A store behind plain HTTP: `GET`, `HEAD` and `PUT` of `BASE/cas/<hex>`
//! and `BASE/ac/<hex>`, as nginx with `WebDAV` or a bucket
//! behind HTTP serve them. User name and password in the URL become a basic
//! `Authorization` header and never appear in messages.
//!
//! Both this store and the S3 store talk through a `Client`: only a `2xx`
//! answer is a success (a redirect is never followed: it could send the
//! credentials elsewhere), `403` and `404` to `GET` and `HEAD` are a
//! missing object, anything else fails the request.

use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;

use super::{Store, StoreError, StoreResult};

pub(super) struct HttpStore {
  client: Client,
  base: String,
  authorization: Option<String>,
  shown: String,
}

/// An agent whose every wait (connecting, each read, each write) ends
/// after `timeout` (the helper's `Deadline` bounds the whole request).
/// Connections are not kept for reuse: a reused one kept the timeouts of
/// no request, and a request on it could hang for minutes.
fn agent(timeout: Duration) -> StoreResult<ureq::Agent> {
  let builder = ureq::AgentBuilder::new()
    .max_idle_connections(0)
    .timeout_connect(timeout)
    .timeout_read(timeout)
    .timeout_write(timeout)
    .redirects(0);
  let builder = match std::env::var_os("SSL_CERT_FILE") {
    Some(file) if !file.is_empty() => builder.tls_config(tls_config(Path::new(&file))?),
    _ => builder,
  };
  Ok(builder.build())
}

/// TLS trusting the built-in roots and the certificates of the PEM file
/// `file` (`SSL_CERT_FILE`: a private CA).
fn tls_config(file: &Path) -> StoreResult<Arc<rustls::ClientConfig>> {
  use rustls_pki_types::pem::PemObject;
  let failed = |error: &dyn std::fmt::Display| {
    StoreError(format!(
      "cannot use the certificates of `{}` (SSL_CERT_FILE): {error}",
      file.display()
    ))
  };
  let mut roots = rustls::RootCertStore::empty();
  roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
  let mut added = 0;
  for certificate in
    rustls_pki_types::CertificateDer::pem_file_iter(file).map_err(|e| failed(&e))?
  {
    roots.add(certificate.map_err(|e| failed(&e))?).map_err(|e| failed(&e))?;
    added += 1;
  }
  if added == 0 {
    return Err(failed(&"no certificate in it"));
  }
  let provider = Arc::new(rustls::crypto::ring::default_provider());
  let config = rustls::ClientConfig::builder_with_provider(provider)
    .with_safe_default_protocol_versions()
    .map_err(|e| failed(&e))?
    .with_root_certificates(roots)
    .with_no_client_auth();
  Ok(Arc::new(config))
}

/// The HTTP client of the network stores.
pub(super) struct Client {
  agent: ureq::Agent,
  timeout: Duration,
}

impl Client {
  pub(super) fn new(timeout: Duration) -> StoreResult<Self> {
    Ok(Client { agent: agent(timeout)?, timeout })
  }

  pub(super) fn request(&self, method: &str, url: &str) -> ureq::Request {
    self.agent.request(method, url)
  }

  /// The body `request` answers with, or `None` for a missing object.
  pub(super) fn get(&self, request: ureq::Request) -> StoreResult<Option<Box<dyn Read + Send>>> {
    match request.call() {
      Ok(response) => {
        successful(&response)?;
        let body = Body { reader: response.into_reader(), timeout: self.timeout };
        Ok(Some(Box::new(body)))
      }
      // S3 without `ListBucket` answers 403 for a missing object.
      Err(ureq::Error::Status(403 | 404, _)) => Ok(None),
      Err(error) => Err(self.describe(&error)),
    }
  }

  /// Whether `request` (a `HEAD`) finds the object.
  pub(super) fn contains(&self, request: ureq::Request) -> StoreResult<bool> {
    match request.call() {
      Ok(response) => successful(&response).map(|()| true),
      Err(ureq::Error::Status(403 | 404, _)) => Ok(false),
      Err(error) => Err(self.describe(&error)),
    }
  }

  /// Send `body`, of `length` bytes, with `request` (a `PUT`).
  pub(super) fn put(
    &self,
    request: ureq::Request,
    body: &mut dyn Read,
    length: u64,
  ) -> StoreResult<()> {
    match request.set("Content-Length", &length.to_string()).send(body) {
      Ok(response) => successful(&response),
      Err(error) => Err(self.describe(&error)),
    }
  }

  /// The words for a failed request: its status or the kind of transport
  /// failure, never its URL.
  fn describe(&self, error: &ureq::Error) -> StoreError {
    match error {
      ureq::Error::Status(status, _) => StoreError(format!("HTTP status {status}")),
      ureq::Error::Transport(transport) => StoreError(match transport.kind() {
        ureq::ErrorKind::Io => lost(io_error(transport), self.timeout),
        kind => {
          let kind = kind.to_string().to_lowercase();
          // The message says why (an unknown certificate issuer, …); never
          // one naming a URL, which may hold credentials.
          let mut reasons: Vec<String> =
            transport.message().map(str::to_string).into_iter().collect();
          let mut source = std::error::Error::source(transport);
          while let Some(error) = source {
            reasons.push(error.to_string());
            source = error.source();
          }
          reasons.dedup();
          reasons.retain(|reason| !reason.contains("://"));
          if reasons.is_empty() {
            kind
          } else {
            format!("{kind}: {}", reasons.join(": "))
          }
        }
      }),
    }
  }
}

/// Only a `2xx` answer is a success; a redirect is a failure, never followed.
fn successful(response: &ureq::Response) -> StoreResult<()> {
  match response.status() {
    200..=299 => Ok(()),
    status @ 300..=399 => {
      Err(StoreError(format!("HTTP status {status}: redirects are not followed")))
    }
    status => Err(StoreError(format!("HTTP status {status}"))),
  }
}

/// The innermost input or output error under a transport error (the
/// outer ones repeat it with more words).
fn io_error(transport: &ureq::Transport) -> Option<&io::Error> {
  let mut innermost = None;
  let mut source = std::error::Error::source(transport);
  while let Some(error) = source {
    innermost = error.downcast_ref::<io::Error>().or(innermost);
    source = error.source();
  }
  innermost
}

/// The words for a connection that failed with `error`.
fn lost(error: Option<&io::Error>, timeout: Duration) -> String {
  match error {
    Some(error) if matches!(error.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock) => {
      format!("timed out after {} s", timeout.as_secs())
    }
    // Never words naming a URL, which may hold credentials.
    Some(error) if error.to_string().contains("://") => {
      format!("connection lost ({})", error.kind())
    }
    Some(error) => format!("connection lost ({error})"),
    None => "connection lost".into(),
  }
}

/// A response's body, whose read errors say what happened in the words of
/// a failed request.
struct Body {
  reader: Box<dyn Read + Send + Sync>,
  timeout: Duration,
}

impl Read for Body {
  fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
    self
      .reader
      .read(buffer)
      .map_err(|error| io::Error::new(error.kind(), lost(Some(&error), self.timeout)))
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
    Ok(HttpStore { client: Client::new(timeout)?, shown: base.clone(), base, authorization })
  }

  pub(super) fn describe(&self) -> String {
    self.shown.clone()
  }

  fn request(&self, method: &str, name: &str) -> ureq::Request {
    let request = self.client.request(method, &format!("{}/{name}", self.base));
    match &self.authorization {
      Some(value) => request.set("Authorization", value),
      None => request,
    }
  }
}

impl Store for HttpStore {
  fn get(&self, name: &str, _limit: u64) -> StoreResult<Option<Box<dyn Read + Send>>> {
    self.client.get(self.request("GET", name))
  }

  fn contains(&self, name: &str) -> StoreResult<bool> {
    self.client.contains(self.request("HEAD", name))
  }

  fn put(&self, name: &str, body: &mut dyn Read, length: u64) -> StoreResult<()> {
    self.client.put(self.request("PUT", name), body, length)
  }
}
