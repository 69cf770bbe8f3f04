//! A store in an S3 bucket (`s3://bucket/prefix`): requests signed with
//! `rusty-s3` (presigned URLs, valid for a few minutes) and sent with the
//! same HTTP agent as the HTTP store.
//!
//! Credentials come from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
//! `AWS_SESSION_TOKEN`, else from the profile `AWS_PROFILE` (or `default`)
//! of the credentials file (`AWS_SHARED_CREDENTIALS_FILE`, else
//! `~/.aws/credentials`); with none the requests go unsigned. The region is
//! `AWS_REGION` or `AWS_DEFAULT_REGION` (else `us-east-1`), the endpoint
//! `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (path-style requests, for
//! S3-compatible servers) else AWS's own.

use std::io::Read;
use std::time::Duration;

use rusty_s3::{Bucket, Credentials, S3Action, UrlStyle};

use super::http::Client;
use super::{Store, StoreError, StoreResult};

/// How long a signed request stays valid.
const SIGNED_FOR: Duration = Duration::from_secs(600);

pub(super) struct S3Store {
  client: Client,
  bucket: Bucket,
  credentials: Option<Credentials>,
  prefix: String,
  shown: String,
}

fn variable(name: &str) -> Option<String> {
  std::env::var(name).ok().filter(|value| !value.is_empty())
}

impl S3Store {
  pub(super) fn new(url: &str, timeout: Duration) -> StoreResult<Self> {
    let rest = url.trim_start_matches("s3://");
    let (name, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if name.is_empty() {
      return Err(StoreError("cache URL `s3://` names no bucket".into()));
    }
    let prefix = prefix.trim_matches('/');
    let region = variable("AWS_REGION")
      .or_else(|| variable("AWS_DEFAULT_REGION"))
      .unwrap_or_else(|| "us-east-1".into());
    let (endpoint, style) =
      match variable("AWS_ENDPOINT_URL_S3").or_else(|| variable("AWS_ENDPOINT_URL")) {
        Some(endpoint) => (endpoint, UrlStyle::Path),
        None => (format!("https://s3.{region}.amazonaws.com"), UrlStyle::VirtualHost),
      };
    let endpoint =
      endpoint.parse().map_err(|error| StoreError(format!("invalid S3 endpoint URL: {error}")))?;
    let bucket = Bucket::new(endpoint, style, name.to_string(), region)
      .map_err(|error| StoreError(format!("invalid S3 bucket `{name}`: {error}")))?;
    let shown =
      if prefix.is_empty() { format!("s3://{name}") } else { format!("s3://{name}/{prefix}") };
    Ok(S3Store {
      client: Client::new(timeout)?,
      bucket,
      credentials: credentials(),
      prefix: if prefix.is_empty() { String::new() } else { format!("{prefix}/") },
      shown,
    })
  }

  pub(super) fn describe(&self) -> String {
    self.shown.clone()
  }

  fn key(&self, name: &str) -> String {
    format!("{}{name}", self.prefix)
  }
}

fn credentials() -> Option<Credentials> {
  if let (Some(key), Some(secret)) =
    (variable("AWS_ACCESS_KEY_ID"), variable("AWS_SECRET_ACCESS_KEY"))
  {
    return Some(match variable("AWS_SESSION_TOKEN") {
      Some(token) => Credentials::new_with_token(key, secret, token),
      None => Credentials::new(key, secret),
    });
  }
  let file = variable("AWS_SHARED_CREDENTIALS_FILE")
    .map(std::path::PathBuf::from)
    .or_else(|| dirs::home_dir().map(|home| home.join(".aws").join("credentials")))?;
  let text = std::fs::read_to_string(file).ok()?;
  let profile = variable("AWS_PROFILE").unwrap_or_else(|| "default".into());
  profile_credentials(&text, &profile)
}

/// The credentials of `[profile]` in an AWS credentials file.
fn profile_credentials(text: &str, profile: &str) -> Option<Credentials> {
  let (mut key, mut secret, mut token) = (None, None, None);
  let mut inside = false;
  for line in text.lines().map(str::trim) {
    if let Some(section) = line.strip_prefix('[').and_then(|line| line.strip_suffix(']')) {
      inside = section.trim() == profile;
      continue;
    }
    let Some((name, value)) = line.split_once('=').filter(|_| inside) else {
      continue;
    };
    let value = Some(value.trim().to_string());
    match name.trim() {
      "aws_access_key_id" => key = value,
      "aws_secret_access_key" => secret = value,
      "aws_session_token" => token = value,
      _ => {}
    }
  }
  let (key, secret) = (key?, secret?);
  Some(match token {
    Some(token) => Credentials::new_with_token(key, secret, token),
    None => Credentials::new(key, secret),
  })
}

impl Store for S3Store {
  fn get(&self, name: &str, _limit: u64) -> StoreResult<Option<Box<dyn Read + Send>>> {
    let url = self.bucket.get_object(self.credentials.as_ref(), &self.key(name)).sign(SIGNED_FOR);
    self.client.get(self.client.request("GET", url.as_str()))
  }

  fn contains(&self, name: &str) -> StoreResult<bool> {
    let url = self.bucket.head_object(self.credentials.as_ref(), &self.key(name)).sign(SIGNED_FOR);
    self.client.contains(self.client.request("HEAD", url.as_str()))
  }

  fn put(&self, name: &str, body: &mut dyn Read, length: u64) -> StoreResult<()> {
    let url = self.bucket.put_object(self.credentials.as_ref(), &self.key(name)).sign(SIGNED_FOR);
    self.client.put(self.client.request("PUT", url.as_str()), body, length)
  }
}
