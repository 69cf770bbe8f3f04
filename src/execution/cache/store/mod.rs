//! Shared stores of cache entries: a directory several checkouts share
//! (`--cache-dir`), an HTTP server answering GET/PUT/HEAD (`--cache-url
//! http(s)://…`) or an S3 bucket
//! (`--cache-url s3://bucket/prefix`).
//!
//! A Remote Execution API server (`--cache-url grpc://…`) is not a `Store`:
//! it speaks Actions and ActionResults (`reapi/`, in the helper;
//! `remote.rs`, `just`'s side).
//!
//! A store holds objects under two prefixes: `cas/<hex>`, content-addressed
//! blobs named by the BLAKE3 hash of their bytes, and `ac/<hex>`, one per
//! cache key, holding the hash of the key's entry blob. Every object is
//! checked against its name when read, so a corrupt or partial object is
//! never used. The network stores run in a helper process (`helper.rs`).

mod deadline;
mod directory;
mod helper;
#[cfg(feature = "network-stores")]
mod http;
#[cfg(feature = "network-stores")]
mod reapi;
mod remote;
#[cfg(feature = "network-stores")]
mod s3;

pub(crate) use helper::serve;
pub(super) use remote::RemoteStore;

use std::io::{self, Read};
use std::path::PathBuf;
use std::time::Duration;

/// Why a store operation failed, in words that never include credentials
/// or signed URLs.
#[derive(Debug)]
pub(super) struct StoreError(pub String);

impl StoreError {
  pub(super) fn io(error: &io::Error) -> Self {
    StoreError(error.to_string())
  }
}

pub(super) type StoreResult<T> = Result<T, StoreError>;

/// A place objects are read from and written to.
pub(super) trait Store: Send + Sync {
  /// The object's bytes, or `None` when the store has no such object. A
  /// store may stop after `limit` bytes and one more (the reader checks
  /// the size).
  fn get(&self, name: &str, limit: u64) -> StoreResult<Option<Box<dyn Read + Send>>>;
  /// Whether the store has the object.
  fn contains(&self, name: &str) -> StoreResult<bool>;
  /// Write the object, whole or not at all.
  fn put(&self, name: &str, body: &mut dyn Read, length: u64) -> StoreResult<()>;
}

/// Where the shared store is, from the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Location {
  Directory(PathBuf),
  Url(String),
}

/// Open the store at `location`; `timeout` bounds each network wait.
pub(super) fn open(
  location: &Location,
  timeout: Duration,
) -> StoreResult<(Box<dyn Store>, String)> {
  match location {
    Location::Directory(path) => {
      Ok((Box::new(directory::DirectoryStore::new(path.clone())), path.display().to_string()))
    }
    Location::Url(url)
      if ["s3://", "http://", "https://"].iter().any(|scheme| url.starts_with(scheme)) =>
    {
      let (store, shown) = helper::HelperStore::start(url, timeout)?;
      Ok((Box::new(store), shown))
    }
    // Only the scheme is named: the rest of the URL may hold a password.
    Location::Url(url) => Err(StoreError(match url.split_once("://") {
      Some((scheme, _)) if scheme.bytes().all(|byte| byte.is_ascii_alphanumeric()) => {
        format!("unsupported cache URL scheme `{scheme}` (use http://, https://, s3://, grpc:// or grpcs://)")
      }
      _ => "the cache URL has no scheme (use http://, https://, s3://, grpc:// or grpcs://)".into(),
    })),
  }
}
