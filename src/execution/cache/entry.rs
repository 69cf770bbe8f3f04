//! A shared store's entry, checked before anything of it is written.
//!
//! Whoever can write one object into a store can put any entry there, so an
//! entry is hostile until this module has proven it harmless: every item's
//! path is normalised (`/`-separated names, none empty, `.`, `..` or holding
//! `\` or NUL), unique, and at or strictly inside exactly one declared
//! output; every item but an output itself sits in a directory item of the
//! same entry (so nothing is ever restored at or under a symbolic link);
//! a symbolic link's target is relative, climbs (`..`) only at its start,
//! and stays inside the output (for an output that is itself a link:
//! inside the working directory, but neither it nor a directory holding the
//! output); modes keep only the permission bits; a
//! file names its blob by hash and size. The same check runs on an entry
//! before it is published, so a run never publishes what no reader would
//! restore.
//!
//! The digest each output will have once restored (`digest::output`'s
//! digest) is computed from the entry alone, so an output that already
//! matches is neither downloaded nor rewritten.

use std::collections::{BTreeMap, HashSet};

use serde_json::{json, Value as Json};

use crate::syntax::parser::cache_output_problem;

/// Largest number of items an entry may have.
const LARGEST_ENTRY_ITEMS: usize = 1 << 20;

/// A blob: its BLAKE3 hash (hex) and exact size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Blob {
  pub hex: String,
  pub size: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
  Directory { mode: u32 },
  File { blob: Blob, mode: u32 },
  Symlink { target: String },
}

/// One checked item: the declared output it belongs to, its path below it
/// (empty for the output itself) and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Item {
  pub output: usize,
  pub relative: String,
  pub kind: Kind,
}

/// An entry proven harmless for a recipe's declared outputs.
#[derive(Debug)]
pub(super) struct Checked {
  pub items: Vec<Item>,
  pub stdout: Blob,
  pub stderr: Blob,
}

/// The outputs as a recipe declares them, checked: non-empty, relative,
/// normalised and none inside another. The error names the first that is
/// not.
pub(crate) fn check_outputs(outputs: &[String]) -> Result<(), String> {
  for (index, output) in outputs.iter().enumerate() {
    if let Some(problem) = cache_output_problem(output) {
      return Err(format!("cache output `{output}` {problem}"));
    }
    for other in &outputs[..index] {
      if other == output {
        return Err(format!("cache output `{output}` is declared twice"));
      }
      if inside(output, other) || inside(other, output) {
        return Err(format!("cache outputs `{other}` and `{output}` overlap"));
      }
    }
  }
  Ok(())
}

/// Whether `path` is strictly inside `parent`.
fn inside(path: &str, parent: &str) -> bool {
  path.strip_prefix(parent).is_some_and(|rest| rest.starts_with('/'))
}

/// `/`-separated names, none empty, `.` or `..`, without `\` or NUL.
fn is_normal(path: &str) -> bool {
  path
    .split('/')
    .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains(['\\', '\0']))
}

pub(super) fn is_hex(text: &str) -> bool {
  text.len() == 64 && text.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

fn blob(value: &Json) -> Result<Blob, String> {
  let hex = value["blob"].as_str().filter(|hex| is_hex(hex)).ok_or("a blob is not a hash")?;
  let size = value["size"].as_u64().ok_or("a blob has no size")?;
  Ok(Blob { hex: hex.to_string(), size })
}

/// Only the permission bits of a recorded mode.
fn mode(value: &Json) -> Result<u32, String> {
  let mode = value["mode"].as_u64().ok_or("an item has no mode")?;
  Ok(u32::try_from(mode & 0o777).unwrap_or(0o644))
}

/// Check `entry` against the declared `outputs` (already checked by
/// `check_outputs`); why it is refused, otherwise.
pub(super) fn check(entry: &Json, outputs: &[String]) -> Result<Checked, String> {
  let items = entry["outputs"].as_array().ok_or("no outputs")?;
  if items.len() > LARGEST_ENTRY_ITEMS {
    return Err("too many outputs".into());
  }
  let stdout = blob(&entry["stdout"])?;
  let stderr = blob(&entry["stderr"])?;
  let mut seen = HashSet::new();
  let mut directories = HashSet::new();
  let mut checked = Vec::with_capacity(items.len());
  for item in items {
    let path = item["path"].as_str().ok_or("an item has no path")?;
    if !is_normal(path) {
      return Err(format!("path `{}` is not normalised", path.escape_debug()));
    }
    if !seen.insert(path) {
      return Err(format!("path `{path}` appears twice"));
    }
    let Some((output, relative)) = outputs.iter().enumerate().find_map(|(index, output)| {
      if path == output {
        Some((index, ""))
      } else {
        path.strip_prefix(output.as_str())?.strip_prefix('/').map(|rest| (index, rest))
      }
    }) else {
      return Err(format!("path `{path}` is outside the declared outputs"));
    };
    if !relative.is_empty() {
      let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
      if !directories.contains(parent) {
        return Err(format!("path `{path}` is not in a directory of the entry"));
      }
    }
    let kind = match item["type"].as_str() {
      Some("directory") => {
        directories.insert(path);
        Kind::Directory { mode: mode(item)? }
      }
      Some("file") => Kind::File { blob: blob(item)?, mode: mode(item)? },
      Some("symlink") => {
        let target = item["target"].as_str().ok_or("a link has no target")?;
        check_target(&outputs[output], relative, target)?;
        Kind::Symlink { target: target.to_string() }
      }
      _ => return Err(format!("path `{path}` has an unknown type")),
    };
    checked.push(Item { output, relative: relative.to_string(), kind });
  }
  for (index, output) in outputs.iter().enumerate() {
    if !checked.iter().any(|item| item.output == index && item.relative.is_empty()) {
      return Err(format!("output `{output}` is missing"));
    }
  }
  Ok(Checked { items: checked, stdout, stderr })
}

/// A link at `relative` below `output` may point to `target`: relative,
/// climbing only at its start, and inside the output (inside the working
/// directory for the output itself). Each link is checked alone, and none
/// can lead outside through another: a link's path below its leading `..`
/// only descends, and every directory it climbs through is a real one.
fn check_target(output: &str, relative: &str, target: &str) -> Result<(), String> {
  let refuse = || Err(format!("link target `{}` leaves the output", target.escape_debug()));
  if target.is_empty() || target.starts_with('/') || target.contains(['\\', '\0', ':']) {
    return refuse();
  }
  let mut climbs = 0;
  let mut descended = false;
  for part in target.split('/') {
    match part {
      "" | "." => {}
      ".." if descended => return refuse(),
      ".." => climbs += 1,
      _ => descended = true,
    }
  }
  // Directories above the link that it may climb through.
  let room =
    if relative.is_empty() { output.matches('/').count() } else { relative.matches('/').count() };
  if climbs > room {
    return refuse();
  }
  if relative.is_empty() {
    // An output that is a link names a path of the working directory, never
    // the working directory itself or a directory holding the output.
    let mut resolved: Vec<&str> = output.split('/').collect();
    resolved.pop();
    for part in target.split('/') {
      match part {
        "" | "." => {}
        ".." => {
          resolved.pop();
        }
        name => resolved.push(name),
      }
    }
    let output: Vec<&str> = output.split('/').collect();
    if resolved.is_empty() || output.starts_with(&resolved) {
      return refuse();
    }
  }
  Ok(())
}

/// An item of a tree, for digests.
enum Node<'a> {
  Directory(u32, BTreeMap<&'a str, Node<'a>>),
  File(u32, &'a str),
  Symlink(&'a str),
}

/// The digest each output will have once restored with `umask`, as
/// `digest::output` computes it.
pub(super) fn digests(checked: &Checked, outputs: usize, umask: u32) -> Vec<String> {
  let mut roots: Vec<Option<Node>> = (0..outputs).map(|_| None).collect();
  for item in &checked.items {
    let node = match &item.kind {
      Kind::Directory { mode } => Node::Directory(mode & !umask, BTreeMap::new()),
      Kind::File { blob, mode } => Node::File(mode & !umask, &blob.hex),
      Kind::Symlink { target } => Node::Symlink(target),
    };
    let Some(root) = roots.get_mut(item.output) else {
      continue;
    };
    if item.relative.is_empty() {
      *root = Some(node);
      continue;
    }
    let mut current = root.as_mut();
    let mut parts = item.relative.split('/').peekable();
    while let Some(part) = parts.next() {
      let Some(Node::Directory(_, children)) = current else {
        break;
      };
      if parts.peek().is_none() {
        children.insert(part, node);
        break;
      }
      current = children.get_mut(part);
    }
  }
  roots
    .iter()
    .map(|root| {
      let mut hasher = blake3::Hasher::new();
      if let Some(root) = root {
        hash(root, &mut hasher);
      }
      hasher.finalize().to_hex().to_string()
    })
    .collect()
}

fn hash(node: &Node, hasher: &mut blake3::Hasher) {
  match node {
    Node::Symlink(target) => {
      hasher.update(b"l");
      field(hasher, target.as_bytes());
    }
    Node::Directory(mode, children) => {
      hasher.update(b"d");
      hasher.update(&mode.to_le_bytes());
      hasher.update(&(children.len() as u64).to_le_bytes());
      for (name, child) in children {
        field(hasher, name.as_bytes());
        hash(child, hasher);
      }
    }
    Node::File(mode, hex) => {
      hasher.update(b"f");
      hasher.update(&mode.to_le_bytes());
      if let Ok(hash) = blake3::Hash::from_hex(hex) {
        hasher.update(hash.as_bytes());
      }
    }
  }
}

fn field(hasher: &mut blake3::Hasher, bytes: &[u8]) {
  hasher.update(&(bytes.len() as u64).to_le_bytes());
  hasher.update(bytes);
}

/// An entry as published: `items` as `walk` describes them.
pub(super) fn render(recipe: &str, stdout: &Blob, stderr: &Blob, items: Vec<Json>) -> Json {
  json!({
    "recipe": recipe,
    "status": 0,
    "stdout": {"blob": stdout.hex, "size": stdout.size},
    "stderr": {"blob": stderr.hex, "size": stderr.size},
    "outputs": items,
  })
}

#[cfg(test)]
mod tests {
  use super::*;

  const HEX: &str = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";

  fn entry(items: Json) -> Json {
    let blob = json!({"blob": HEX, "size": 0});
    json!({"stdout": blob, "stderr": blob, "outputs": items})
  }

  fn outputs(names: &[&str]) -> Vec<String> {
    names.iter().map(ToString::to_string).collect()
  }

  fn file(path: &str) -> Json {
    json!({"path": path, "type": "file", "blob": HEX, "size": 0, "mode": 0o644})
  }

  fn directory(path: &str) -> Json {
    json!({"path": path, "type": "directory", "mode": 0o755})
  }

  fn link(path: &str, target: &str) -> Json {
    json!({"path": path, "type": "symlink", "target": target})
  }

  #[test]
  fn forged_paths_are_refused() {
    let declared = outputs(&["out", "bin"]);
    for items in [
      json!([directory("out"), file("out//home/u/.bashrc"), file("bin")]),
      json!([directory("out"), file("out/../justfile"), file("bin")]),
      json!([directory("out"), file("out/./x"), file("bin")]),
      json!([directory("out"), file("out/"), file("bin")]),
      json!([directory("out"), file("/etc/passwd"), file("bin")]),
      json!([directory("out"), file("justfile"), file("bin")]),
      json!([directory("out"), file("outside"), file("bin")]),
      json!([directory("out"), file("out/a\\..\\..\\x"), file("bin")]),
      json!([directory("out"), file("out/a"), file("out/a"), file("bin")]),
      json!([directory("out"), file("out/sub/x"), file("bin")]),
      json!([link("out", "."), file("out/x"), file("bin")]),
      json!([directory("out"), link("out/l", "/etc"), file("bin")]),
      json!([directory("out"), link("out/l", "../x"), file("bin")]),
      json!([directory("out"), link("out/l", "a/../../x"), file("bin")]),
      json!([directory("out"), link("out/l", "a/.."), file("bin")]),
      json!([directory("out"), file("bin"), link("bin", "../x")]),
      json!([directory("out"), link("bin", "../x")]),
      json!([link("out", "."), file("bin")]),
      json!([link("out", "./"), file("bin")]),
      json!([directory("out"), link("bin", "out/..")]),
      json!([directory("out")]),
      json!([directory("out"), json!({"path": "bin", "type": "fifo"})]),
      json!([directory("out"), json!({"path": "bin", "type": "file", "blob": HEX, "mode": 0})]),
      json!([directory("out"), json!({"path": "bin", "type": "file", "blob": "x", "size": 0})]),
    ] {
      assert!(check(&entry(items.clone()), &declared).is_err(), "accepted {items}");
    }
  }

  #[test]
  fn sound_entries_are_accepted_with_permission_bits_only() {
    let declared = outputs(&["out", "lib/bin"]);
    let mut setuid = file("lib/bin");
    setuid["mode"] = json!(0o4755);
    let items = json!([
      directory("out"),
      directory("out/sub"),
      file("out/sub/file"),
      link("out/link", "sub/file"),
      link("out/sub/up", "../link"),
      setuid,
    ]);
    let checked = check(&entry(items), &declared).unwrap();
    assert_eq!(checked.items.len(), 6);
    assert_eq!(
      checked.items[5].kind,
      Kind::File { blob: Blob { hex: HEX.into(), size: 0 }, mode: 0o755 }
    );
    let declared = outputs(&["lib/bin"]);
    assert!(check(&entry(json!([link("lib/bin", "../x")])), &declared).is_ok());
    assert!(check(&entry(json!([link("lib/bin", "x")])), &declared).is_ok());
    assert!(check(&entry(json!([link("lib/bin", "../../x")])), &declared).is_err());
    assert!(check(&entry(json!([link("lib/bin", "..")])), &declared).is_err());
    assert!(check(&entry(json!([link("lib/bin", "../lib")])), &declared).is_err());
    assert!(check(&entry(json!([link("lib/bin", "bin")])), &declared).is_err());
  }

  #[test]
  fn declared_outputs_are_checked() {
    for bad in [".", "", "/abs", "../x", "a/../b", "a//b", "a/", "./a", "c:x"] {
      assert!(check_outputs(&outputs(&[bad])).is_err(), "accepted {bad:?}");
    }
    assert!(check_outputs(&outputs(&["a", "a/b"])).is_err());
    assert!(check_outputs(&outputs(&["a", "a"])).is_err());
    assert!(check_outputs(&outputs(&["a", "ab", "b/c"])).is_ok());
  }
}
