//! BLAKE3 digests of cache inputs and outputs.
//!
//! A file is hashed a window at a time: each window of the file is mapped,
//! hashed by all cores (`Hasher::update_rayon`) and unmapped before the next,
//! so hashing costs no copy and its memory stays at one window whatever the
//! file's size. A directory is hashed as a tree: every entry below it, in
//! name order, with its kind, permission bits and contents (a symbolic link
//! by its target, never followed).

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use crate::platform::mode;

/// Bytes mapped and hashed at a time.
const WINDOW: u64 = 16 << 20;

/// Below this size a file is read rather than mapped.
const SMALL: u64 = 256 << 10;

/// The BLAKE3 hash of a file's contents.
pub(super) fn file(path: &Path) -> io::Result<blake3::Hash> {
  let mut file = File::open(path)?;
  let length = file.metadata()?.len();
  let mut hasher = blake3::Hasher::new();
  if length < SMALL {
    let mut contents = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
    file.read_to_end(&mut contents)?;
    hasher.update(&contents);
    return Ok(hasher.finalize());
  }
  let mut offset = 0;
  while offset < length {
    let size = WINDOW.min(length - offset);
    // SAFETY: the map is read only and dropped before the next window; a file
    // truncated by another process while it is hashed is the one case the
    // mapping cannot guard against, as with any mapped read.
    let window = unsafe {
      memmap2::MmapOptions::new()
        .offset(offset)
        .len(usize::try_from(size).map_err(io::Error::other)?)
        .map(&file)?
    };
    hasher.update_rayon(&window);
    offset += size;
  }
  Ok(hasher.finalize())
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
  } else {
    hasher.update(b"f");
    hasher.update(&mode::of(metadata).to_le_bytes());
    hasher.update(file(path)?.as_bytes());
  }
  Ok(())
}

/// A length-prefixed field, so that no two different trees hash alike.
fn field(hasher: &mut blake3::Hasher, bytes: &[u8]) {
  hasher.update(&(bytes.len() as u64).to_le_bytes());
  hasher.update(bytes);
}
