//! The table of loaded source files. A token names its file by index
//! instead of carrying the file's text and path, which keeps every token —
//! and so the parse tree — small. Sources are leaked for the life of the
//! process, so entries are never removed and lookups need no lock.

use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;

/// A source file: its text and the path diagnostics show for it.
#[derive(Debug)]
pub struct Source {
  pub text: &'static str,
  pub path: &'static Path,
}

const CHUNK: usize = 1024;
const CHUNKS: usize = 1024;

type Chunk = [AtomicPtr<Source>; CHUNK];

static TABLE: [AtomicPtr<Chunk>; CHUNKS] = [const { AtomicPtr::new(ptr::null_mut()) }; CHUNKS];
static NEXT: Mutex<usize> = Mutex::new(0);

/// Index of a registered source.
pub type FileId = u32;

/// Add a source to the table. Registering more than a million files
/// returns `None`.
pub fn register(text: &'static str, path: &'static Path) -> Option<FileId> {
  let mut next = NEXT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
  let id = *next;
  let (chunk, slot) = (id / CHUNK, id % CHUNK);
  if chunk >= CHUNKS {
    return None;
  }
  let mut table = TABLE[chunk].load(Ordering::Acquire);
  if table.is_null() {
    let fresh: Box<Chunk> = Box::new([const { AtomicPtr::new(ptr::null_mut()) }; CHUNK]);
    table = Box::into_raw(fresh);
    TABLE[chunk].store(table, Ordering::Release);
  }
  let source = Box::into_raw(Box::new(Source { text, path }));
  // SAFETY: `table` points to a leaked chunk that is never freed.
  unsafe { (*table)[slot].store(source, Ordering::Release) };
  *next += 1;
  FileId::try_from(id).ok()
}

/// The source with this index, if registered.
pub fn get(id: FileId) -> Option<&'static Source> {
  let id = id as usize;
  let table = TABLE.get(id / CHUNK)?.load(Ordering::Acquire);
  if table.is_null() {
    return None;
  }
  // SAFETY: chunks and sources are leaked, never freed or moved.
  let source = unsafe { (*table)[id % CHUNK].load(Ordering::Acquire) };
  // SAFETY: as above; null means not registered.
  unsafe { source.as_ref() }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn registered_sources_are_found_by_index() {
    let a = register("a := 1", Path::new("a.just")).unwrap();
    let b = register("b", Path::new("b.just")).unwrap();
    assert_ne!(a, b);
    assert_eq!(get(a).unwrap().text, "a := 1");
    assert_eq!(get(b).unwrap().path, Path::new("b.just"));
    assert!(get(FileId::MAX).is_none());
  }
}
