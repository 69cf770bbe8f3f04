//! The open documents: their text as the editor has it (unsaved), edits
//! applied to it (at positions as `positions` reads them), what is read
//! from them until they change, and the `file:` URIs that name them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use lsp_types::TextDocumentContentChangeEvent;

use super::outline::Definition;
use super::positions::offset;
use super::project::Project;
use crate::analysis::loader::Overlays;

/// One open document.
pub(super) struct Document {
  pub(super) uri: String,
  pub(super) text: String,
  pub(super) version: i32,
}

/// The open documents by absolute path, and their texts as the loader's
/// overlays (kept in step, so a compile borrows them without copying the map).
#[derive(Default)]
pub(super) struct Documents {
  open: HashMap<PathBuf, Document>,
  overlays: Overlays,
  /// What the open documents (with their imports) define, read once per
  /// state of the documents: any open, edit or close forgets it all.
  definitions: RefCell<HashMap<PathBuf, Rc<Vec<Definition>>>>,
  /// The files loaded with each open document, kept the same way (so
  /// moving the cursor, which asks for highlights, loads nothing).
  projects: RefCell<HashMap<PathBuf, Rc<Project>>>,
}

impl Documents {
  /// The definitions of the open document at `path`, made by `make` the
  /// first time after a change.
  pub(super) fn definitions(
    &self,
    path: &Path,
    make: impl FnOnce() -> Vec<Definition>,
  ) -> Rc<Vec<Definition>> {
    self.cached(&self.definitions, path, make)
  }

  /// The files loaded with the document at `path` (whose text is `text`),
  /// with the editor's texts; read once after a change if it is open.
  pub(super) fn project(&self, path: &Path, text: &str) -> Rc<Project> {
    self.cached(&self.projects, path, || Project::read(path, text, &self.overlays))
  }

  fn cached<T>(
    &self,
    cache: &RefCell<HashMap<PathBuf, Rc<T>>>,
    path: &Path,
    make: impl FnOnce() -> T,
  ) -> Rc<T> {
    if !self.open.contains_key(path) {
      return Rc::new(make());
    }
    if let Some(found) = cache.borrow().get(path) {
      return Rc::clone(found);
    }
    let made = Rc::new(make());
    cache.borrow_mut().insert(path.to_path_buf(), Rc::clone(&made));
    made
  }

  /// Forget what was read from the documents (and the files they load) as
  /// they were.
  pub(super) fn forget(&mut self) {
    self.definitions.get_mut().clear();
    self.projects.get_mut().clear();
  }

  pub(super) fn open(&mut self, path: PathBuf, uri: String, text: String, version: i32) {
    self.forget();
    self.overlays.insert(path.clone(), text.clone());
    self.open.insert(path, Document { uri, text, version });
  }

  pub(super) fn close(&mut self, path: &Path) {
    self.forget();
    self.open.remove(path);
    self.overlays.remove(path);
  }

  pub(super) fn get(&self, path: &Path) -> Option<&Document> {
    self.open.get(path)
  }

  pub(super) fn paths(&self) -> impl Iterator<Item = &PathBuf> {
    self.open.keys()
  }

  pub(super) fn overlays(&self) -> &Overlays {
    &self.overlays
  }

  /// Apply the edits of a `didChange` in order. A document that is not open
  /// is ignored (the client is out of step; its next `didOpen` fixes that).
  pub(super) fn change(
    &mut self,
    path: &Path,
    version: i32,
    changes: Vec<TextDocumentContentChangeEvent>,
  ) {
    self.forget();
    let Some(document) = self.open.get_mut(path) else {
      return;
    };
    for change in changes {
      match change.range {
        None => document.text = change.text,
        Some(range) => {
          let start = offset(&document.text, range.start);
          let end = offset(&document.text, range.end);
          let (start, end) = (start.min(end), start.max(end));
          document.text.replace_range(start..end, &change.text);
        }
      }
    }
    document.version = version;
    self.overlays.insert(path.to_path_buf(), document.text.clone());
  }

  /// The text of a file a justfile names, as its names are shown: the open
  /// document's whatever it holds, else the disk's if it parses as a
  /// justfile (`import? '/etc/passwd'` defines no recipes, whatever its
  /// lines look like: `just` reports it as a syntax error).
  pub(super) fn justfile_text(&self, path: &Path) -> Option<String> {
    if let Some(document) = self.open.get(path) {
      return Some(document.text.clone());
    }
    let text = self.text(path)?;
    let sources = crate::syntax::sources::Sources::new();
    let trees = crate::syntax::trees::Trees::new();
    let source = sources.add(text.as_str(), path);
    crate::syntax::parser::parse_source(source, &trees).is_ok().then_some(text)
  }

  /// The text of the file at `path`: the open document's, else the disk's
  /// if it is a regular file (as the loader reads only those: a FIFO with
  /// no writer, or `/dev/stdin`, the server's own input, would block).
  pub(super) fn text(&self, path: &Path) -> Option<String> {
    match self.open.get(path) {
      Some(document) => Some(document.text.clone()),
      None if path.is_file() => std::fs::read_to_string(path).ok(),
      None => None,
    }
  }
}

/// The absolute path of a `file:` URI (percent-decoded), or `None` for any
/// other URI.
pub(super) fn uri_path(uri: &str) -> Option<PathBuf> {
  let rest = uri.strip_prefix("file://")?;
  // `file:///C:/x` on Windows; `file://host/x` names another host.
  let rest = rest.strip_prefix("localhost").unwrap_or(rest);
  if !rest.starts_with('/') {
    return None;
  }
  let bytes = rest.as_bytes();
  let mut decoded = Vec::with_capacity(bytes.len());
  let mut index = 0;
  while index < bytes.len() {
    if bytes[index] == b'%' && index + 2 < bytes.len() {
      let hex = std::str::from_utf8(&bytes[index + 1..index + 3]).ok();
      if let Some(byte) = hex.and_then(|hex| u8::from_str_radix(hex, 16).ok()) {
        decoded.push(byte);
        index += 3;
        continue;
      }
    }
    decoded.push(bytes[index]);
    index += 1;
  }
  let text = String::from_utf8(decoded).ok()?;
  let path = if windows_drive(&text) { PathBuf::from(&text[1..]) } else { PathBuf::from(text) };
  Some(path)
}

/// `/C:/…`: a Windows drive path in a URI.
fn windows_drive(text: &str) -> bool {
  let bytes = text.as_bytes();
  bytes.len() >= 3 && bytes[0] == b'/' && bytes[1].is_ascii_alphabetic() && bytes[2] == b':'
}

/// The `file:` URI of an absolute path, percent-encoding what a URI path
/// may not hold.
pub(super) fn path_uri(path: &Path) -> String {
  let text = path.to_string_lossy().replace('\\', "/");
  let mut uri = String::from("file://");
  if !text.starts_with('/') {
    uri.push('/');
  }
  for byte in text.bytes() {
    if byte.is_ascii_alphanumeric() || b"-._~/:@!$&'()*+,;=".contains(&byte) {
      uri.push(byte as char);
    } else {
      uri.push_str(&format!("%{byte:02X}"));
    }
  }
  uri
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn uris_and_paths_round_trip() {
    let path = Path::new("/tmp/a b/just%file");
    let uri = path_uri(path);
    assert_eq!(uri, "file:///tmp/a%20b/just%25file");
    assert_eq!(uri_path(&uri).as_deref(), Some(path));
    assert_eq!(uri_path("untitled:1"), None);
    assert_eq!(uri_path("file:///x%"), Some(PathBuf::from("/x%")));
  }
}
