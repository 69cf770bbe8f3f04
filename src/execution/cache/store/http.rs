//! A store behind plain HTTP: `GET`, `HEAD` and `PUT` of `BASE/cas/<hex>`
//! and `BASE/ac/<hex>`, as nginx with `WebDAV` or a bucket
//! behind HTTP serve them. User name and password in the URL become a basic
//! `Authorization` header and never appear in messages.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
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
pub(super) fn agent(timeout: Duration) -> StoreResult<ureq::Agent> {
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

/// The words for a failed request: its status or the kind of transport
/// failure, never its URL.
pub(super) fn describe_error(error: &ureq::Error) -> StoreError {
  match error {
    ureq::Error::Status(status, _) => StoreError(format!("HTTP status {status}")),
    ureq::Error::Transport(transport) => StoreError(match transport.kind() {
      ureq::ErrorKind::Io => "network error (timed out or connection lost)".to_string(),
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
    Ok(HttpStore { agent: agent(timeout)?, shown: base.clone(), base, authorization })
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
