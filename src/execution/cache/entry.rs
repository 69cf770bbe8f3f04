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
//! An entry is read as it streams in, straight into compact records (no
//! document of untyped values, whose size is many times the text's), its
//! items counted as they come and every string bounded, so checking an
//! entry costs memory in proportion to its text: 64 bytes an item and its
//! paths, at most about one and a half times the text of the shortest
//! items a forger can write. The
//! records are kept in tree order (by output, then each directory before
//! what it holds, names in byte order), in which both the restore and the
//! digests below walk them once.
//!
//! The digest each output will have once restored (`digest::output`'s
//! digest) is computed from the entry alone, so an output that already
//! matches is neither downloaded nor rewritten.

mod json;

use std::cmp::Ordering;

pub(super) use json::{parse, read, Unusable, Writer};

use crate::syntax::parser::cache_output_problem;

/// Largest number of items an entry may have.
pub(super) const LARGEST_ENTRY_ITEMS: usize = 1 << 20;

/// Longest path or link target an item may have, in bytes: more than any
/// system takes (Windows' 32,767 UTF-16 units).
pub(super) const LONGEST_ITEM_PATH: usize = 128 << 10;

/// A blob: its BLAKE3 hash and exact size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Blob {
  pub hash: [u8; 32],
  pub size: u64,
}

impl Blob {
  /// The hash in hexadecimal, as the store names the blob.
  pub(super) fn hex(&self) -> String {
    blake3::Hash::from_bytes(self.hash).to_hex().to_string()
  }
}

/// What an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind<'a> {
  Directory { mode: u32 },
  File { blob: Blob, mode: u32 },
  Symlink { target: &'a str },
}

/// One checked item: the declared output it belongs to, its path below it
/// (empty for the output itself) and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Item<'a> {
  pub output: usize,
  pub relative: &'a str,
  pub kind: Kind<'a>,
}

/// A string of a `Checked`'s text.
#[derive(Clone, Copy)]
struct Span {
  start: u32,
  end: u32,
}

#[derive(Clone, Copy)]
enum Stored {
  Directory { mode: u32 },
  File { blob: Blob, mode: u32 },
  Symlink { target: Span },
}

/// An item as kept: 64 bytes, its strings in the text.
#[derive(Clone, Copy)]
struct Record {
  output: u32,
  /// Items directly inside it (a directory), for its digest.
  children: u32,
  relative: Span,
  kind: Stored,
}

/// An entry proven harmless for a recipe's declared outputs.
pub(super) struct Checked {
  /// In tree order.
  records: Vec<Record>,
  /// The items' paths and link targets.
  text: String,
  pub stdout: Blob,
  pub stderr: Blob,
}

impl Checked {
  fn text(&self, span: Span) -> &str {
    &self.text[span.start as usize..span.end as usize]
  }

  fn item(&self, record: &Record) -> Item<'_> {
    let kind = match record.kind {
      Stored::Directory { mode } => Kind::Directory { mode },
      Stored::File { blob, mode } => Kind::File { blob, mode },
      Stored::Symlink { target } => Kind::Symlink { target: self.text(target) },
    };
    Item { output: record.output as usize, relative: self.text(record.relative), kind }
  }

  /// Every item, in tree order: by output, each directory before what it
  /// holds, the names in a directory in byte order.
  pub(super) fn items(&self) -> impl Iterator<Item = Item<'_>> + '_ {
    self.records.iter().map(|record| self.item(record))
  }

  /// The items of output `output`, in tree order (the output itself first).
  pub(super) fn items_of(&self, output: usize) -> impl Iterator<Item = Item<'_>> + '_ {
    self.records_of(output).iter().map(|record| self.item(record))
  }

  fn records_of(&self, output: usize) -> &[Record] {
    let start = self.records.partition_point(|record| (record.output as usize) < output);
    let end = self.records.partition_point(|record| record.output as usize <= output);
    &self.records[start..end]
  }

  /// How many items the entry has.
  #[cfg(test)]
  fn len(&self) -> usize {
    self.records.len()
  }
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

/// Whether `ancestor` (a path below an output, `""` for the output itself)
/// holds `path`.
fn holds(ancestor: &str, path: &str) -> bool {
  ancestor.is_empty() || inside(path, ancestor)
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

/// Tree order of two paths below one output: names compared one by one,
/// so a directory comes right before what it holds (`a`, `a/b`, `a.c`).
fn tree_order(a: &str, b: &str) -> Ordering {
  let key = |byte: u8| if byte == b'/' { 0 } else { byte };
  a.bytes().map(key).cmp(b.bytes().map(key))
}

/// Builds a `Checked` entry item by item, checking each as it comes and
/// the whole at the end: what reading an entry's text does, and what any
/// other description of outputs can do.
pub(super) struct Builder<'o> {
  outputs: &'o [String],
  records: Vec<Record>,
  text: String,
}

impl<'o> Builder<'o> {
  /// For the declared `outputs` (already checked by `check_outputs`).
  pub(super) fn new(outputs: &'o [String]) -> Builder<'o> {
    Builder { outputs, records: Vec::new(), text: String::new() }
  }

  fn push(&mut self, text: &str) -> Result<Span, String> {
    let start = u32::try_from(self.text.len()).map_err(|_| "the entry is too large")?;
    let end = u32::try_from(self.text.len() + text.len()).map_err(|_| "the entry is too large")?;
    self.text.push_str(text);
    Ok(Span { start, end })
  }

  /// Add the item at `path`; why the entry is refused, if this item is
  /// reason enough.
  pub(super) fn add(&mut self, path: &str, kind: Kind<'_>) -> Result<(), String> {
    if self.records.len() >= LARGEST_ENTRY_ITEMS {
      return Err("too many outputs".into());
    }
    if path.len() > LONGEST_ITEM_PATH {
      return Err(format!("a path is {} bytes long", path.len()));
    }
    if !is_normal(path) {
      return Err(format!("path `{}` is not normalised", path.escape_debug()));
    }
    let Some((output, relative)) = self.outputs.iter().enumerate().find_map(|(index, output)| {
      if path == output {
        Some((index, ""))
      } else {
        path.strip_prefix(output.as_str())?.strip_prefix('/').map(|rest| (index, rest))
      }
    }) else {
      return Err(format!("path `{path}` is outside the declared outputs"));
    };
    let kind = match kind {
      Kind::Directory { mode } => Stored::Directory { mode: mode & 0o777 },
      Kind::File { blob, mode } => Stored::File { blob, mode: mode & 0o777 },
      Kind::Symlink { target } => {
        if target.len() > LONGEST_ITEM_PATH {
          return Err(format!("a link target is {} bytes long", target.len()));
        }
        check_target(&self.outputs[output], relative, target)?;
        Stored::Symlink { target: self.push(target)? }
      }
    };
    let relative = self.push(relative)?;
    let output = u32::try_from(output).map_err(|_| "too many outputs")?;
    self.records.push(Record { output, children: 0, relative, kind });
    Ok(())
  }

  /// The entry, once every item is added: unique paths, each in a
  /// directory of the entry, every output there.
  pub(super) fn finish(self, stdout: Blob, stderr: Blob) -> Result<Checked, String> {
    let Builder { outputs, mut records, text } = self;
    let span = |span: Span| &text[span.start as usize..span.end as usize];
    records.sort_unstable_by(|a, b| {
      a.output.cmp(&b.output).then_with(|| tree_order(span(a.relative), span(b.relative)))
    });
    let shown = |record: &Record| {
      let output = &outputs[record.output as usize];
      match span(record.relative) {
        "" => output.clone(),
        relative => format!("{output}/{relative}"),
      }
    };
    let mut present = vec![false; outputs.len()];
    // The directories holding the current item, outermost first.
    let mut open: Vec<usize> = Vec::new();
    for index in 0..records.len() {
      let record = records[index];
      let relative = span(record.relative);
      if index > 0
        && records[index - 1].output == record.output
        && span(records[index - 1].relative) == relative
      {
        return Err(format!("path `{}` appears twice", shown(&record)));
      }
      if relative.is_empty() {
        present[record.output as usize] = true;
        open.clear();
      } else {
        while let Some(&top) = open.last() {
          if records[top].output == record.output && holds(span(records[top].relative), relative) {
            break;
          }
          open.pop();
        }
        let parent = relative.rsplit_once('/').map_or("", |(parent, _)| parent);
        match open.last() {
          Some(&top) if span(records[top].relative) == parent => records[top].children += 1,
          _ => return Err(format!("path `{}` is not in a directory of the entry", shown(&record))),
        }
      }
      if matches!(record.kind, Stored::Directory { .. }) {
        open.push(index);
      }
    }
    if let Some(missing) = present.iter().position(|present| !present) {
      return Err(format!("output `{}` is missing", outputs[missing]));
    }
    Ok(Checked { records, text, stdout, stderr })
  }
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

/// The digest each output will have once restored with `umask`, as
/// `digest::output` computes it: the items in tree order are the order in
/// which it hashes a tree, so one pass over them, each directory's count of
/// items taken from its record, gives the same hash.
pub(super) fn digests(checked: &Checked, outputs: usize, umask: u32) -> Vec<String> {
  (0..outputs)
    .map(|output| {
      let mut hasher = blake3::Hasher::new();
      for record in checked.records_of(output) {
        let relative = checked.text(record.relative);
        if !relative.is_empty() {
          let name = relative.rsplit('/').next().unwrap_or(relative);
          field(&mut hasher, name.as_bytes());
        }
        match record.kind {
          Stored::Symlink { target } => {
            hasher.update(b"l");
            field(&mut hasher, checked.text(target).as_bytes());
          }
          Stored::Directory { mode } => {
            hasher.update(b"d");
            hasher.update(&(mode & !umask).to_le_bytes());
            hasher.update(&u64::from(record.children).to_le_bytes());
          }
          Stored::File { blob, mode } => {
            hasher.update(b"f");
            hasher.update(&(mode & !umask).to_le_bytes());
            hasher.update(&blob.hash);
          }
        }
      }
      hasher.finalize().to_hex().to_string()
    })
    .collect()
}

fn field(hasher: &mut blake3::Hasher, bytes: &[u8]) {
  hasher.update(&(bytes.len() as u64).to_le_bytes());
  hasher.update(bytes);
}

#[cfg(test)]
mod tests {
  use serde_json::{json, Value as Json};

  use super::*;

  const HEX: &str = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";

  fn entry(items: Json) -> Json {
    let blob = json!({"blob": HEX, "size": 0});
    json!({"stdout": blob, "stderr": blob, "outputs": items})
  }

  fn check(entry: &Json, outputs: &[String]) -> Result<Checked, Unusable> {
    parse(entry.to_string().as_bytes(), outputs)
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

  fn refusal(entry: &Json, outputs: &[String]) -> String {
    match check(entry, outputs) {
      Err(Unusable::Refused(reason)) => reason,
      Err(Unusable::Corrupt) => panic!("corrupt: {entry}"),
      Ok(_) => panic!("accepted: {entry}"),
    }
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
      json!([directory("out"), file("out/a"), directory("out/a"), file("bin")]),
      json!([directory("out"), file("out/a"), file("out/a/b"), file("bin")]),
    ] {
      refusal(&entry(items), &declared);
    }
  }

  #[test]
  fn refusals_say_why() {
    let declared = outputs(&["out", "bin"]);
    let cases = [
      (
        json!([directory("out"), file("out/a"), file("out/a"), file("bin")]),
        "path `out/a` appears twice",
      ),
      (
        json!([directory("out"), file("out/sub/x"), file("bin")]),
        "path `out/sub/x` is not in a directory of the entry",
      ),
      (json!([directory("out")]), "output `bin` is missing"),
      (
        json!([directory("out"), file("out/../x"), file("bin")]),
        "path `out/../x` is not normalised",
      ),
      (
        json!([file("bin"), json!({"path": "out", "type": "fifo"})]),
        "path `out` has an unknown type",
      ),
      (json!([file("bin"), json!({"type": "directory", "mode": 0})]), "an item has no path"),
    ];
    for (items, reason) in cases {
      assert_eq!(refusal(&entry(items), &declared), reason);
    }
    assert_eq!(refusal(&json!({"recipe": "x"}), &declared), "no outputs");
    let mut twice = entry(json!([]));
    twice["stdout"] = json!({"blob": "x", "size": 0});
    assert_eq!(refusal(&twice, &declared), "a blob is not a hash");
    let long = format!("out/{}", "x".repeat(LONGEST_ITEM_PATH));
    assert_eq!(
      refusal(&entry(json!([directory("out"), file(&long)])), &declared),
      "a path is too long"
    );
  }

  #[test]
  fn texts_that_are_no_entry_are_corrupt() {
    let declared = outputs(&["out"]);
    for text in ["", "{", "[\"out\"]", "null", "{\"outputs\": []} x", "\"out\""] {
      assert_eq!(parse(text.as_bytes(), &declared).err(), Some(Unusable::Corrupt), "{text}");
    }
  }

  #[test]
  fn items_beyond_the_largest_count_are_refused_as_they_come() {
    let declared = outputs(&["out"]);
    let mut builder = Builder::new(&declared);
    builder.add("out", Kind::Directory { mode: 0o755 }).unwrap();
    for index in 1..LARGEST_ENTRY_ITEMS {
      builder.add(&format!("out/{index}"), Kind::Directory { mode: 0o755 }).unwrap();
    }
    assert_eq!(
      builder.add("out/x", Kind::Directory { mode: 0o755 }),
      Err("too many outputs".into())
    );
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
    assert_eq!(checked.len(), 6);
    let hash = *blake3::Hash::from_hex(HEX).unwrap().as_bytes();
    assert_eq!(
      checked.items().last().unwrap(),
      Item {
        output: 1,
        relative: "",
        kind: Kind::File { blob: Blob { hash, size: 0 }, mode: 0o755 }
      }
    );
    let declared = outputs(&["lib/bin"]);
    assert!(check(&entry(json!([link("lib/bin", "../x")])), &declared).is_ok());
    assert!(check(&entry(json!([link("lib/bin", "x")])), &declared).is_ok());
    assert!(check(&entry(json!([link("lib/bin", "../../x")])), &declared).is_err());
    assert!(check(&entry(json!([link("lib/bin", "..")])), &declared).is_err());
    assert!(check(&entry(json!([link("lib/bin", "../lib")])), &declared).is_err());
    assert!(check(&entry(json!([link("lib/bin", "bin")])), &declared).is_err());
  }

  /// Items in any order come out in tree order: each directory before
  /// what it holds, names compared one by one (`a`, `a/b`, `a.c`).
  #[test]
  fn items_are_kept_in_tree_order() {
    let declared = outputs(&["out", "bin"]);
    let items = json!([
      file("out/a.c"),
      file("bin"),
      file("out/a/b"),
      directory("out/a"),
      directory("out"),
      file("out/A"),
    ]);
    let checked = check(&entry(items), &declared).unwrap();
    let order: Vec<(usize, &str)> =
      checked.items().map(|item| (item.output, item.relative)).collect();
    assert_eq!(order, [(0, ""), (0, "A"), (0, "a"), (0, "a/b"), (0, "a.c"), (1, "")]);
    let of_out: Vec<&str> = checked.items_of(0).map(|item| item.relative).collect();
    assert_eq!(of_out, ["", "A", "a", "a/b", "a.c"]);
  }

  #[test]
  fn written_entries_read_back() {
    let declared = outputs(&["out"]);
    let blob = Blob { hash: [7; 32], size: 12 };
    let mut writer = Writer::start(Vec::new(), "build \"x\"", &blob, &blob).unwrap();
    writer.item("out", Kind::Directory { mode: 0o755 }).unwrap();
    writer.item("out/f \"q\"", Kind::File { blob, mode: 0o644 }).unwrap();
    writer.item("out/l", Kind::Symlink { target: "f \"q\"" }).unwrap();
    let text = writer.finish().unwrap();
    let value: Json = serde_json::from_slice(&text).unwrap();
    assert_eq!(value["recipe"], "build \"x\"");
    let checked = parse(&text, &declared).unwrap();
    assert_eq!(checked.stdout, blob);
    let items: Vec<Item> = checked.items().collect();
    assert_eq!(items[1].kind, Kind::File { blob, mode: 0o644 });
    assert_eq!(items[2].kind, Kind::Symlink { target: "f \"q\"" });
  }

  /// The digest computed from an entry is the one `digest::output` finds
  /// on disk for the same tree.
  #[cfg(unix)]
  #[test]
  fn digests_match_the_tree_on_disk() {
    use std::os::unix::fs::PermissionsExt;
    let directory = tempfile::tempdir().unwrap();
    let out = directory.path().join("out");
    for sub in ["a", "a/b", "a.c", "z"] {
      std::fs::create_dir_all(out.join(sub)).unwrap();
    }
    let files = [("a/b/f", "one"), ("a.c/g", "two"), ("A", "three"), ("a/h", "")];
    for (path, contents) in files {
      std::fs::write(out.join(path), contents).unwrap();
    }
    std::os::unix::fs::symlink("a/h", out.join("l")).unwrap();
    let declared = outputs(&["out"]);
    let mut builder = Builder::new(&declared);
    let mode = |path: &std::path::Path| {
      std::fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
    };
    for sub in ["", "/a", "/a/b", "/a.c", "/z"] {
      let path = out.join(sub.trim_start_matches('/'));
      builder.add(&format!("out{sub}"), Kind::Directory { mode: mode(&path) }).unwrap();
    }
    for (path, contents) in files {
      let blob = Blob { hash: *blake3::hash(contents.as_bytes()).as_bytes(), size: 0 };
      let mode = mode(&out.join(path));
      builder.add(&format!("out/{path}"), Kind::File { blob, mode }).unwrap();
    }
    builder.add("out/l", Kind::Symlink { target: "a/h" }).unwrap();
    let blob = Blob { hash: [0; 32], size: 0 };
    let checked = builder.finish(blob, blob).unwrap();
    let on_disk = super::super::digest::output(&out).unwrap().unwrap();
    assert_eq!(digests(&checked, 1, 0), [on_disk]);
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
