//! Moving blobs to and from the CAS: uploads ask FindMissingBlobs first and
//! send only what is missing, small blobs batched within the server's batch
//! limit, larger ones streamed through ByteStream; downloads are streamed to
//! files, bounded by the size the digest declares, and checked against the
//! digest (SHA-256) as they come. Memory stays bounded by the batch size.

use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::path::Path;

use bazel_remote_apis::build::bazel::remote::execution::v2 as re;
use bazel_remote_apis::google::bytestream::{ReadRequest, WriteRequest};
use sha2::Digest as _;

use super::action::{hex, Blob, Source};
use super::connection::{status, Connection, SHA256};
use crate::execution::cache::store::StoreError;

/// Blobs up to this size go in batches (within the server's limit).
const SMALL: u64 = 1 << 20;

/// Bytes per ByteStream message.
const CHUNK: usize = 64 << 10;

/// Room a blob takes in a batch beside its bytes (digest, framing).
const OVERHEAD: u64 = 256;

fn io_failure(error: &io::Error) -> StoreError {
  StoreError(error.to_string())
}

/// Upload the blobs the server is missing.
pub(crate) async fn upload(connection: &Connection, blobs: &[Blob]) -> Result<(), StoreError> {
  let mut seen = HashSet::new();
  let blobs: Vec<&Blob> =
    blobs.iter().filter(|blob| seen.insert(blob.digest.hash.clone())).collect();
  let mut missing = HashSet::new();
  for chunk in blobs.chunks(4096) {
    let request = re::FindMissingBlobsRequest {
      instance_name: connection.instance.clone(),
      blob_digests: chunk.iter().map(|blob| blob.digest.clone()).collect(),
      digest_function: SHA256,
    };
    let mut client = connection.cas();
    let answer = connection.call(client.find_missing_blobs(connection.request(request))).await?;
    missing.extend(answer.missing_blob_digests.into_iter().map(|digest| digest.hash));
  }
  let limit = connection.max_batch.min(super::connection::LARGEST_MESSAGE as u64);
  let mut batch: Vec<re::batch_update_blobs_request::Request> = Vec::new();
  let mut batched = 0u64;
  for blob in blobs.into_iter().filter(|blob| missing.contains(&blob.digest.hash)) {
    let size = blob.digest.size_bytes as u64;
    if size > SMALL || size + OVERHEAD > limit {
      write(connection, blob).await?;
      continue;
    }
    if batched + size + OVERHEAD > limit {
      send_batch(connection, std::mem::take(&mut batch)).await?;
      batched = 0;
    }
    let data = read_small(&blob.source, size).map_err(|error| io_failure(&error))?;
    batched += size + OVERHEAD;
    batch.push(re::batch_update_blobs_request::Request {
      digest: Some(blob.digest.clone()),
      data,
      compressor: 0,
    });
  }
  if !batch.is_empty() {
    send_batch(connection, batch).await?;
  }
  Ok(())
}

/// The bytes of a small blob.
fn read_small(source: &Source, size: u64) -> io::Result<Vec<u8>> {
  match source {
    Source::Bytes(bytes) => Ok(bytes.clone()),
    Source::File(path) => {
      let mut bytes = Vec::with_capacity(size as usize);
      std::fs::File::open(path)?.take(size + 1).read_to_end(&mut bytes)?;
      Ok(bytes)
    }
  }
}

async fn send_batch(
  connection: &Connection,
  requests: Vec<re::batch_update_blobs_request::Request>,
) -> Result<(), StoreError> {
  let request = re::BatchUpdateBlobsRequest {
    instance_name: connection.instance.clone(),
    requests,
    digest_function: SHA256,
  };
  let mut client = connection.cas();
  let answer = connection.call(client.batch_update_blobs(connection.request(request))).await?;
  for response in answer.responses {
    if let Some(failed) = response.status.filter(|status| status.code != 0) {
      return Err(StoreError(format!(
        "a blob upload was refused (code {}: {})",
        failed.code, failed.message
      )));
    }
  }
  Ok(())
}

/// Stream one blob through ByteStream Write.
async fn write(connection: &Connection, blob: &Blob) -> Result<(), StoreError> {
  let resource = connection.write_resource(&blob.digest);
  let size = blob.digest.size_bytes;
  let (sender, receiver) = tokio::sync::mpsc::channel::<WriteRequest>(4);
  let source = blob.source.clone();
  // The file is read on a thread of its own, a chunk at a time.
  let reader = tokio::task::spawn_blocking(move || -> io::Result<()> {
    let mut reader: Box<dyn Read> = match source {
      Source::Bytes(bytes) => Box::new(io::Cursor::new(bytes)),
      Source::File(path) => Box::new(std::fs::File::open(path)?),
    };
    let mut offset = 0i64;
    let mut first = true;
    loop {
      let mut data = vec![0; CHUNK];
      let count = read_full(&mut reader, &mut data)?;
      data.truncate(count);
      let finish = count < CHUNK || offset + count as i64 >= size;
      let message = WriteRequest {
        resource_name: if first { resource.clone() } else { String::new() },
        write_offset: offset,
        finish_write: finish,
        data,
      };
      first = false;
      offset += count as i64;
      if sender.blocking_send(message).is_err() || finish {
        return Ok(());
      }
    }
  });
  let stream = tokio_stream::wrappers::ReceiverStream::new(receiver);
  let mut client = connection.byte_stream();
  let deadline = connection.transfer_deadline(size as u64);
  let written =
    tokio::time::timeout(deadline, client.write(connection.request_within(stream, deadline))).await;
  let read = reader.await.map_err(|error| StoreError(error.to_string()))?;
  read.map_err(|error| io_failure(&error))?;
  let answer = match written {
    Ok(Ok(answer)) => answer.into_inner(),
    Ok(Err(failure)) => return Err(status(&failure)),
    Err(_) => return Err(connection.timed_out()),
  };
  if answer.committed_size != size && answer.committed_size != -1 {
    return Err(StoreError(format!(
      "the server kept {} of {size} bytes of a blob",
      answer.committed_size
    )));
  }
  Ok(())
}

fn read_full(reader: &mut dyn Read, buffer: &mut [u8]) -> io::Result<usize> {
  let mut filled = 0;
  while filled < buffer.len() {
    match reader.read(&mut buffer[filled..]) {
      Ok(0) => break,
      Ok(count) => filled += count,
      Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
      Err(error) => return Err(error),
    }
  }
  Ok(filled)
}

/// Why a blob could not be used: the store failed, or it sent something
/// else than the digest names.
pub(crate) enum Fetch {
  Failed(StoreError),
  Refused(String),
}

impl From<StoreError> for Fetch {
  fn from(error: StoreError) -> Self {
    Fetch::Failed(error)
  }
}

/// A downloaded blob's BLAKE3 hash (the name `just`'s restore reads it by).
pub(crate) struct Fetched {
  pub blake3: String,
}

/// Checks the bytes of one blob as they come.
struct Checker<'a> {
  expected: &'a re::Digest,
  sha: sha2::Sha256,
  blake3: blake3::Hasher,
  size: u64,
}

impl Checker<'_> {
  fn add(&mut self, data: &[u8]) -> Result<(), Fetch> {
    self.size += data.len() as u64;
    if self.size > self.expected.size_bytes as u64 {
      return Err(Fetch::Refused(format!(
        "blob `{}` is larger than its digest says",
        self.expected.hash
      )));
    }
    self.sha.update(data);
    self.blake3.update(data);
    Ok(())
  }

  fn finish(self) -> Result<Fetched, Fetch> {
    if self.size != self.expected.size_bytes as u64
      || hex(&self.sha.finalize()) != self.expected.hash
    {
      return Err(Fetch::Refused(format!(
        "blob `{}` does not match its digest",
        self.expected.hash
      )));
    }
    Ok(Fetched { blake3: self.blake3.finalize().to_hex().to_string() })
  }
}

/// Whether `digest` is read in a batch: a small blob that fits one.
pub(crate) fn batched(connection: &Connection, digest: &re::Digest) -> bool {
  u64::try_from(digest.size_bytes)
    .is_ok_and(|size| size <= SMALL && size + OVERHEAD <= batch_limit(connection))
}

fn batch_limit(connection: &Connection) -> u64 {
  connection.max_batch.min(super::connection::LARGEST_MESSAGE as u64 / 2)
}

/// Download the small blobs `digests` (distinct, each `batched`) in
/// batches into `directory`, each checked and named by its BLAKE3 hash: a
/// map from SHA-256 to BLAKE3 hash.
pub(crate) async fn download_batches(
  connection: &Connection,
  digests: &[re::Digest],
  directory: &Path,
) -> Result<Vec<(String, String)>, Fetch> {
  let limit = batch_limit(connection);
  let mut fetched = Vec::with_capacity(digests.len());
  // The empty blob is never asked for (not every server stores it).
  let (empty, digests): (Vec<&re::Digest>, Vec<&re::Digest>) =
    digests.iter().partition(|digest| digest.size_bytes == 0);
  for digest in empty {
    let checker = Checker {
      expected: digest,
      sha: sha2::Sha256::new(),
      blake3: blake3::Hasher::new(),
      size: 0,
    };
    let blake3 = checker.finish()?.blake3;
    std::fs::write(directory.join(&blake3), b"")
      .map_err(|error| Fetch::Failed(io_failure(&error)))?;
    fetched.push((digest.hash.clone(), blake3));
  }
  let mut start = 0;
  while start < digests.len() {
    let mut end = start;
    let mut total = 0;
    while end < digests.len() {
      let size = digests[end].size_bytes as u64 + OVERHEAD;
      if end > start && total + size > limit {
        break;
      }
      total += size;
      end += 1;
    }
    let batch = &digests[start..end];
    start = end;
    let request = re::BatchReadBlobsRequest {
      instance_name: connection.instance.clone(),
      digests: batch.iter().map(|digest| (*digest).clone()).collect(),
      acceptable_compressors: Vec::new(),
      digest_function: SHA256,
    };
    let mut client = connection.cas();
    let answer = connection.call(client.batch_read_blobs(connection.request(request))).await?;
    let mut responses: std::collections::HashMap<String, re::batch_read_blobs_response::Response> =
      std::collections::HashMap::new();
    for response in answer.responses {
      if let Some(digest) = &response.digest {
        responses.insert(digest.hash.clone(), response);
      }
    }
    for digest in batch {
      let Some(response) = responses.remove(&digest.hash) else {
        return Err(Fetch::Refused(format!("blob `{}` is missing", digest.hash)));
      };
      if let Some(failed) = response.status.filter(|status| status.code != 0) {
        return Err(Fetch::Refused(format!(
          "blob `{}` is missing (code {})",
          digest.hash, failed.code
        )));
      }
      let mut checker = Checker {
        expected: digest,
        sha: sha2::Sha256::new(),
        blake3: blake3::Hasher::new(),
        size: 0,
      };
      checker.add(&response.data)?;
      let blake3 = checker.finish()?.blake3;
      let write = |path: &Path| -> io::Result<()> {
        let mut file = std::fs::File::create_new(path)?;
        file.write_all(&response.data)
      };
      match write(&directory.join(&blake3)) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
        Err(error) => return Err(Fetch::Failed(io_failure(&error))),
      }
      fetched.push((digest.hash.clone(), blake3));
    }
  }
  Ok(fetched)
}

/// Download `digest` into the new file `path`, checked.
pub(crate) async fn download(
  connection: &Connection,
  digest: &re::Digest,
  path: &Path,
) -> Result<Fetched, Fetch> {
  if digest.size_bytes < 0 {
    return Err(Fetch::Refused("a digest has a negative size".into()));
  }
  let size = digest.size_bytes as u64;
  let mut file =
    std::fs::File::create_new(path).map_err(|error| Fetch::Failed(io_failure(&error)))?;
  let mut checker =
    Checker { expected: digest, sha: sha2::Sha256::new(), blake3: blake3::Hasher::new(), size: 0 };
  if size == 0 {
    return checker.finish();
  }
  if size <= SMALL {
    let request = re::BatchReadBlobsRequest {
      instance_name: connection.instance.clone(),
      digests: vec![digest.clone()],
      acceptable_compressors: Vec::new(),
      digest_function: SHA256,
    };
    let mut client = connection.cas();
    let answer = connection.call(client.batch_read_blobs(connection.request(request))).await?;
    let Some(response) =
      answer.responses.into_iter().find(|response| response.digest.as_ref() == Some(digest))
    else {
      return Err(Fetch::Refused(format!("blob `{}` is missing", digest.hash)));
    };
    if let Some(failed) = response.status.filter(|status| status.code != 0) {
      return Err(Fetch::Refused(format!(
        "blob `{}` is missing (code {})",
        digest.hash, failed.code
      )));
    }
    checker.add(&response.data)?;
    file.write_all(&response.data).map_err(|error| Fetch::Failed(io_failure(&error)))?;
    return checker.finish();
  }
  let request =
    ReadRequest { resource_name: connection.read_resource(digest), read_offset: 0, read_limit: 0 };
  let mut client = connection.byte_stream();
  let deadline = connection.transfer_deadline(size);
  let expiry = tokio::time::Instant::now() + deadline;
  let read = client.read(connection.request_within(request, deadline));
  let mut stream = connection.call(read).await.map_err(|error| {
    if error.0.starts_with("NotFound") {
      Fetch::Refused(format!("blob `{}` is missing", digest.hash))
    } else {
      Fetch::Failed(error)
    }
  })?;
  loop {
    // Each message within the deadline of a call, the whole within the
    // transfer's.
    let wait =
      connection.timeout.min(expiry.saturating_duration_since(tokio::time::Instant::now()));
    let message = match tokio::time::timeout(wait, stream.message()).await {
      Ok(Ok(Some(message))) => message,
      Ok(Ok(None)) => break,
      // The server says the blob is missing or not whole.
      Ok(Err(failure))
        if matches!(
          failure.code(),
          tonic::Code::NotFound | tonic::Code::DataLoss | tonic::Code::OutOfRange
        ) =>
      {
        return Err(Fetch::Refused(format!(
          "blob `{}` is unreadable ({})",
          digest.hash,
          status(&failure).0
        )));
      }
      Ok(Err(failure)) => return Err(Fetch::Failed(status(&failure))),
      Err(_) => return Err(Fetch::Failed(connection.timed_out())),
    };
    checker.add(&message.data)?;
    file.write_all(&message.data).map_err(|error| Fetch::Failed(io_failure(&error)))?;
  }
  checker.finish()
}

/// Download a blob into memory, at most `limit` bytes, checked.
pub(crate) async fn download_bytes(
  connection: &Connection,
  digest: &re::Digest,
  limit: u64,
  scratch: &Path,
) -> Result<Vec<u8>, Fetch> {
  if digest.size_bytes < 0 || digest.size_bytes as u64 > limit {
    return Err(Fetch::Refused(format!(
      "blob `{}` is larger than {} MiB",
      digest.hash,
      limit >> 20
    )));
  }
  download(connection, digest, scratch).await?;
  let bytes = std::fs::read(scratch).map_err(|error| Fetch::Failed(io_failure(&error)))?;
  let _ = std::fs::remove_file(scratch);
  Ok(bytes)
}
