//! The connection to a Remote Execution API server: its URL (`grpc://` or
//! `grpcs://HOST:PORT[/INSTANCE]`), the headers sent with every call
//! (credentials: never printed), TLS, the deadline of every call and what
//! the server's Capabilities allow.

use std::future::Future;
use std::path::Path;
use std::time::Duration;

use base64::Engine as _;
use bazel_remote_apis::build::bazel::remote::execution::v2 as re;
use bazel_remote_apis::google::bytestream::byte_stream_client::ByteStreamClient;
use re::action_cache_client::ActionCacheClient;
use re::capabilities_client::CapabilitiesClient;
use re::content_addressable_storage_client::ContentAddressableStorageClient;
use tonic::metadata::{AsciiMetadataKey, AsciiMetadataValue};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

use super::super::StoreError;

/// The SHA-256 digest function, the one this client speaks.
pub(crate) const SHA256: i32 = re::digest_function::Value::Sha256 as i32;

/// Largest gRPC message decoded (a batch of blobs, an ActionResult).
pub(crate) const LARGEST_MESSAGE: usize = 16 << 20;

/// A batch the server does not bound is kept under this size.
const DEFAULT_BATCH: u64 = 4 << 20;

pub(crate) struct Connection {
  pub(crate) channel: Channel,
  pub(crate) instance: String,
  headers: Vec<(AsciiMetadataKey, AsciiMetadataValue)>,
  pub(crate) timeout: Duration,
  /// The largest batch of blobs the server accepts, in bytes.
  pub(crate) max_batch: u64,
  /// Whether the server accepts UpdateActionResult.
  pub(crate) updates: bool,
  /// `HOST:PORT`, as messages name the server.
  pub(crate) shown: String,
}

fn error(text: impl Into<String>) -> StoreError {
  StoreError(text.into())
}

/// The words for a failed call: its status code and message, never a URL.
pub(crate) fn status(status: &tonic::Status) -> StoreError {
  let message = status.message();
  let message = if message.contains("://") { "" } else { message };
  if message.is_empty() {
    error(format!("{:?}", status.code()))
  } else {
    error(format!("{:?}: {}", status.code(), message.lines().next().unwrap_or_default()))
  }
}

/// Request headers from `JUST_CACHE_HEADERS` (lines `NAME: VALUE`) and the
/// file `JUST_CACHE_HEADERS_FILE` (the same lines).
fn configured_headers() -> Result<Vec<(String, String)>, StoreError> {
  let mut text = std::env::var("JUST_CACHE_HEADERS").unwrap_or_default();
  if let Some(file) = std::env::var_os("JUST_CACHE_HEADERS_FILE").filter(|file| !file.is_empty()) {
    let contents = std::fs::read_to_string(&file).map_err(|source| {
      error(format!(
        "cannot read the headers file `{}` (JUST_CACHE_HEADERS_FILE): {source}",
        Path::new(&file).display()
      ))
    })?;
    text.push('\n');
    text.push_str(&contents);
  }
  let mut headers = Vec::new();
  for line in text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'))
  {
    let Some((name, value)) = line.split_once(':') else {
      return Err(error("a cache header is not `NAME: VALUE`"));
    };
    headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
  }
  Ok(headers)
}

impl Connection {
  /// Connect to the server `url` names and ask its Capabilities.
  pub(crate) async fn open(url: &str, timeout: Duration) -> Result<Connection, StoreError> {
    let parsed = url::Url::parse(url).map_err(|e| error(format!("invalid cache URL: {e}")))?;
    let tls = match parsed.scheme() {
      "grpc" => false,
      "grpcs" => true,
      _ => return Err(error("a remote cache URL starts with grpc:// or grpcs://")),
    };
    let host = parsed
      .host_str()
      .filter(|host| !host.is_empty())
      .ok_or_else(|| error("the cache URL has no host"))?;
    let port = parsed.port().unwrap_or(if tls { 443 } else { 80 });
    let authority = if host.contains(':') && !host.starts_with('[') {
      format!("[{host}]:{port}")
    } else {
      format!("{host}:{port}")
    };
    let instance = parsed.path().trim_matches('/').to_string();
    let mut headers = Vec::new();
    if !parsed.username().is_empty() {
      let credentials = format!("{}:{}", parsed.username(), parsed.password().unwrap_or_default());
      let basic = base64::engine::general_purpose::STANDARD.encode(credentials);
      headers.push(("authorization".to_string(), format!("Basic {basic}")));
    }
    headers.extend(configured_headers()?);
    let headers = headers
      .into_iter()
      .map(|(name, value)| {
        let key = name
          .parse::<AsciiMetadataKey>()
          .map_err(|_| error(format!("invalid cache header name `{name}`")))?;
        let value = value
          .parse::<AsciiMetadataValue>()
          .map_err(|_| error(format!("the value of cache header `{name}` is not visible ASCII")))?;
        Ok((key, value))
      })
      .collect::<Result<Vec<_>, StoreError>>()?;
    let scheme = if tls { "https" } else { "http" };
    let mut endpoint = Endpoint::from_shared(format!("{scheme}://{authority}"))
      .map_err(|_| error("invalid cache URL"))?
      .connect_timeout(timeout)
      .http2_keep_alive_interval(timeout)
      .keep_alive_timeout(timeout);
    if tls {
      endpoint = endpoint.tls_config(tls_config(host)?).map_err(|e| error(format!("TLS: {e}")))?;
    }
    let shown = authority.clone();
    let channel = match tokio::time::timeout(timeout, endpoint.connect()).await {
      Ok(Ok(channel)) => channel,
      Ok(Err(e)) => return Err(error(connect_failure(&e))),
      Err(_) => return Err(error(format!("timed out after {} s", timeout.as_secs()))),
    };
    let mut connection = Connection {
      channel,
      instance,
      headers,
      timeout,
      max_batch: DEFAULT_BATCH,
      updates: false,
      shown,
    };
    connection.capabilities().await?;
    Ok(connection)
  }

  /// Ask the server's Capabilities: SHA-256, the batch limit, updates.
  async fn capabilities(&mut self) -> Result<(), StoreError> {
    let request = re::GetCapabilitiesRequest { instance_name: self.instance.clone() };
    let mut client = CapabilitiesClient::new(self.channel.clone());
    let answer = self.call(client.get_capabilities(self.request(request))).await?;
    let cache = answer.cache_capabilities.ok_or_else(|| error("the server has no cache"))?;
    if !cache.digest_functions.is_empty() && !cache.digest_functions.contains(&SHA256) {
      return Err(error("the server does not offer the SHA-256 digest function"));
    }
    self.max_batch = match u64::try_from(cache.max_batch_total_size_bytes) {
      Ok(0) | Err(_) => DEFAULT_BATCH,
      Ok(size) => size,
    };
    self.updates =
      cache.action_cache_update_capabilities.is_some_and(|update| update.update_enabled);
    Ok(())
  }

  /// `message` as a request carrying the headers, with the deadline of
  /// one call.
  pub(crate) fn request<T>(&self, message: T) -> tonic::Request<T> {
    self.request_within(message, self.timeout)
  }

  /// The deadline of a transfer of `size` bytes: one call's, plus a second
  /// for each MiB (so that a large blob on a working link is not cut off).
  pub(crate) fn transfer_deadline(&self, size: u64) -> Duration {
    self.timeout.saturating_add(Duration::from_secs(size >> 20))
  }

  /// `message` as a request carrying the headers, which the server is told
  /// to give up after `deadline`.
  pub(crate) fn request_within<T>(&self, message: T, deadline: Duration) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.set_timeout(deadline);
    for (key, value) in &self.headers {
      request.metadata_mut().insert(key.clone(), value.clone());
    }
    request
  }

  /// The answer to a unary call, within the deadline.
  pub(crate) async fn call<T>(
    &self,
    call: impl Future<Output = Result<tonic::Response<T>, tonic::Status>>,
  ) -> Result<T, StoreError> {
    match tokio::time::timeout(self.timeout, call).await {
      Ok(Ok(response)) => Ok(response.into_inner()),
      Ok(Err(failure)) => Err(status(&failure)),
      Err(_) => Err(self.timed_out()),
    }
  }

  pub(crate) fn timed_out(&self) -> StoreError {
    error(format!("timed out after {} s", self.timeout.as_secs()))
  }

  pub(crate) fn cas(&self) -> ContentAddressableStorageClient<Channel> {
    ContentAddressableStorageClient::new(self.channel.clone())
      .max_decoding_message_size(LARGEST_MESSAGE)
      .max_encoding_message_size(LARGEST_MESSAGE)
  }

  pub(crate) fn action_cache(&self) -> ActionCacheClient<Channel> {
    ActionCacheClient::new(self.channel.clone())
      .max_decoding_message_size(LARGEST_MESSAGE)
      .max_encoding_message_size(LARGEST_MESSAGE)
  }

  pub(crate) fn byte_stream(&self) -> ByteStreamClient<Channel> {
    ByteStreamClient::new(self.channel.clone()).max_decoding_message_size(LARGEST_MESSAGE)
  }

  /// The ByteStream resource name of a blob to read.
  pub(crate) fn read_resource(&self, digest: &re::Digest) -> String {
    self.resource(&format!("blobs/{}/{}", digest.hash, digest.size_bytes))
  }

  /// The ByteStream resource name of a blob to write.
  pub(crate) fn write_resource(&self, digest: &re::Digest) -> String {
    let upload = uuid::Uuid::new_v4();
    self.resource(&format!("uploads/{upload}/blobs/{}/{}", digest.hash, digest.size_bytes))
  }

  fn resource(&self, rest: &str) -> String {
    if self.instance.is_empty() {
      rest.to_string()
    } else {
      format!("{}/{rest}", self.instance)
    }
  }
}

/// Why connecting failed, in words without the URL.
fn connect_failure(failure: &tonic::transport::Error) -> String {
  let mut reasons = Vec::new();
  let mut source: Option<&dyn std::error::Error> = Some(failure);
  while let Some(error) = source {
    let text = error.to_string();
    if !text.contains("://") {
      reasons.push(text);
    }
    source = error.source();
  }
  reasons.dedup();
  if reasons.is_empty() {
    "cannot connect".into()
  } else {
    format!("cannot connect: {}", reasons.join(": "))
  }
}

/// TLS trusting the built-in roots and those of `SSL_CERT_FILE`, with a
/// client certificate from `JUST_CACHE_CLIENT_CERT` and
/// `JUST_CACHE_CLIENT_KEY` (PEM files) for a server that asks for one.
fn tls_config(host: &str) -> Result<ClientTlsConfig, StoreError> {
  let read = |variable: &str| -> Result<Option<Vec<u8>>, StoreError> {
    match std::env::var_os(variable).filter(|file| !file.is_empty()) {
      None => Ok(None),
      Some(file) => std::fs::read(&file).map(Some).map_err(|source| {
        error(format!("cannot read `{}` ({variable}): {source}", Path::new(&file).display()))
      }),
    }
  };
  let mut config =
    ClientTlsConfig::new().with_webpki_roots().domain_name(host.trim_matches(['[', ']']));
  if let Some(pem) = read("SSL_CERT_FILE")? {
    config = config.ca_certificate(Certificate::from_pem(pem));
  }
  match (read("JUST_CACHE_CLIENT_CERT")?, read("JUST_CACHE_CLIENT_KEY")?) {
    (Some(certificate), Some(key)) => {
      config = config.identity(Identity::from_pem(certificate, key));
    }
    (None, None) => {}
    _ => return Err(error("JUST_CACHE_CLIENT_CERT and JUST_CACHE_CLIENT_KEY go together")),
  }
  Ok(config)
}
