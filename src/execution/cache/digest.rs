//! BLAKE3 digests of cache inputs and outputs.
//!
//! A large file is hashed by all cores at once, each mapping a window of
//! its pieces at a time (see `file`), so memory stays at a window per core
//! whatever the file's size. A directory is hashed as a tree: every entry below it, in
//! name order, with its kind, permission bits and contents (a symbolic link
//! by its target, never followed).

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use blake3::hazmat::{
  merge_subtrees_non_root, merge_subtrees_root, ChainingValue, HasherExt, Mode,
};

use crate::platform::mode;

/// The smallest piece of a large file one thread hashes on its own.
const SMALLEST_PIECE: u64 = 1 << 20;

/// Bytes of a file mapped at a time by one thread.
const WINDOW: u64 = 8 << 20;

/// Below this size a file is read rather than mapped.
const SMALL: u64 = 256 << 10;

/// Below this size a file is hashed by the calling thread alone.
const PARALLEL: u64 = 4 << 20;

/// The largest piece of a file one thread hashes on its own, so that a
/// file's pieces (and their chaining values, kept until the end) stay few.
const LARGEST_PIECE: u64 = 64 << 20;

/// The BLAKE3 hash of a file's contents.
///
/// A large file is cut into pieces that are complete subtrees of BLAKE3's
/// tree (a power-of-two size, at a multiple of it), which the cores hash
/// at once, each mapping a window of its piece at a time (mapped, the pages
/// are not copied, and reading is a fraction of the cost of `read` on a
/// virtual machine); the pieces' chaining values
/// are then merged as the tree joins them. So the hash is the same as a
/// single hasher's, memory stays at a window per core, and no core waits for
/// another until the end.
pub(super) fn file(path: &Path) -> io::Result<blake3::Hash> {
  // Looked up once: on Linux it reads cgroup files, which costs more than
  // hashing a small input.
  static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
  let cores =
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
  file_on(path, cores)
}

/// The BLAKE3 hash of a file's contents, by `cores` threads.
fn file_on(path: &Path, cores: usize) -> io::Result<blake3::Hash> {
  let mut file = File::open(path)?;
  let length = file.metadata()?.len();
  let mut hasher = blake3::Hasher::new();
  if length < SMALL {
    let mut contents = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
    file.read_to_end(&mut contents)?;
    hasher.update(&contents);
    return Ok(hasher.finalize());
  }
  if length < PARALLEL || cores == 1 {
    hash_mapped(&file, 0, length, &mut hasher)?;
    return Ok(hasher.finalize());
  }
  let piece = piece_size(length, cores);
  let pieces = usize::try_from(length.div_ceil(piece)).map_err(io::Error::other)?;
  let values = hash_pieces(&file, length, piece, pieces, cores.min(pieces))?;
  Ok(root(&values, piece, length))
}

/// A power of two between `SMALLEST_PIECE` and `LARGEST_PIECE`, giving each core
/// several pieces so that they finish together.
fn piece_size(length: u64, cores: usize) -> u64 {
  let target = length / (cores as u64 * 4);
  let power = if target.is_power_of_two() { target } else { target.next_power_of_two() / 2 };
  power.clamp(SMALLEST_PIECE, LARGEST_PIECE)
}

/// The chaining value of every piece, in order, hashed by `workers` threads
/// that share the open file and take the next piece as they finish one.
fn hash_pieces(
  file: &File,
  length: u64,
  piece: u64,
  pieces: usize,
  workers: usize,
) -> io::Result<Vec<ChainingValue>> {
  let next = AtomicUsize::new(0);
  let worker = || -> io::Result<Vec<(usize, ChainingValue)>> {
    let mut hashed = Vec::new();
    loop {
      let index = next.fetch_add(1, Ordering::Relaxed);
      if index >= pieces {
        return Ok(hashed);
      }
      let start = index as u64 * piece;
      let mut hasher = blake3::Hasher::new();
      hasher.set_input_offset(start);
      hash_mapped(file, start, piece.min(length - start), &mut hasher)?;
      hashed.push((index, hasher.finalize_non_root()));
    }
  };
  let mut values = vec![[0; 32]; pieces];
  std::thread::scope(|scope| {
    let threads = (0..workers).map(|_| scope.spawn(worker)).collect::<Vec<_>>();
    for thread in threads {
      let hashed = thread.join().map_err(|_| io::Error::other("a hashing thread failed"))??;
      for (index, value) in hashed {
        values[index] = value;
      }
    }
    Ok(values)
  })
}

/// Hash `size` bytes of `file` from `start`, a mapped window at a time.
fn hash_mapped(file: &File, start: u64, size: u64, hasher: &mut blake3::Hasher) -> io::Result<()> {
  let end = start + size;
  let mut offset = start;
  while offset < end {
    let window = WINDOW.min(end - offset);
    // SAFETY: the map is read only and dropped before the next window; a file
    // truncated by another process while it is hashed is the one case the
    // mapping cannot guard against, as with any mapped read.
    let map = unsafe {
      memmap2::MmapOptions::new()
        .offset(offset)
        .len(usize::try_from(window).map_err(io::Error::other)?)
        .map(file)?
    };
    hasher.update(&map);
    offset += window;
  }
  Ok(())
}

/// The root hash of a file of `length` bytes from its pieces' chaining
/// values (at least two).
fn root(values: &[ChainingValue], piece: u64, length: u64) -> blake3::Hash {
  let (left, right) = children(values, piece, length);
  merge_subtrees_root(&left, &right, Mode::Hash)
}

/// The chaining value of the subtree over `values`' pieces, `length` bytes.
fn subtree(values: &[ChainingValue], piece: u64, length: u64) -> ChainingValue {
  if let [value] = values {
    return *value;
  }
  let (left, right) = children(values, piece, length);
  merge_subtrees_non_root(&left, &right, Mode::Hash)
}

/// The chaining values of the two subtrees BLAKE3's tree joins into one of
/// `length` bytes: the left one is the largest power of two of chunks
/// shorter than the whole.
fn children(values: &[ChainingValue], piece: u64, length: u64) -> (ChainingValue, ChainingValue) {
  let left = blake3::hazmat::left_subtree_len(length);
  let split = usize::try_from(left / piece).unwrap_or(values.len());
  let (left_values, right_values) = values.split_at(split);
  (subtree(left_values, piece, left), subtree(right_values, piece, length - left))
}

/// The digest of an output: what is at `path` (file, directory tree or
/// symbolic link) with its permission bits, or `None` when nothing is there.
pub(super) fn output(path: &Path) -> io::Result<Option<String>> {
  let metadata = match fs::symlink_metadata(path) {
    Ok(metadata) => metadata,
    Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
    Err(error) => return Err(error),
  };
  let mut hasher = blake3::Hasher::new();
  entry(path, &metadata, &mut hasher)?;
  Ok(Some(hasher.finalize().to_hex().to_string()))
}

fn entry(path: &Path, metadata: &fs::Metadata, hasher: &mut blake3::Hasher) -> io::Result<()> {
  let file_type = metadata.file_type();
  if file_type.is_symlink() {
    let target = fs::read_link(path)?;
    hasher.update(b"l");
    field(hasher, &crate::platform::fs::os_str_bytes(target.as_os_str()));
  } else if file_type.is_dir() {
    hasher.update(b"d");
    hasher.update(&mode::of(metadata).to_le_bytes());
    let mut children = fs::read_dir(path)?
      .map(|child| child.map(|child| child.file_name()))
      .collect::<io::Result<Vec<_>>>()?;
    children.sort();
    hasher.update(&(children.len() as u64).to_le_bytes());
    for name in children {
      let child = path.join(&name);
      field(hasher, &crate::platform::fs::os_str_bytes(&name));
      entry(&child, &fs::symlink_metadata(&child)?, hasher)?;
    }
  } else if file_type.is_file() {
    hasher.update(b"f");
    hasher.update(&mode::of(metadata).to_le_bytes());
    hasher.update(file(path)?.as_bytes());
  } else {
    // A FIFO, socket or device: its kind and mode, never opened (opening
    // a FIFO waits for a writer).
    hasher.update(b"s");
    hasher.update(&mode::of(metadata).to_le_bytes());
  }
  Ok(())
}

/// A length-prefixed field, so that no two different trees hash alike.
fn field(hasher: &mut blake3::Hasher, bytes: &[u8]) {
  hasher.update(&(bytes.len() as u64).to_le_bytes());
  hasher.update(bytes);
}

#[cfg(test)]
mod tests {
  use super::*;

  /// Pieces hashed apart and merged give the hash of the whole, for
  /// lengths that are and are not multiples of a piece, on 2 and 3 cores.
  #[test]
  fn pieces_merge_to_the_hash_of_the_whole() {
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("input");
    let mib = 1 << 20;
    for length in
      [SMALL as usize + 5, PARALLEL as usize, 5 * mib + 1, 7 * mib + 1000, 33 * mib + 17]
    {
      let contents = (0..length).map(|i| (i * 7 + i / 4093) as u8).collect::<Vec<u8>>();
      fs::write(&path, &contents).unwrap();
      for cores in [1, 2, 3] {
        assert_eq!(file_on(&path, cores).unwrap(), blake3::hash(&contents), "{length} on {cores}");
      }
    }
  }
}
