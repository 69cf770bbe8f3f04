//! ActionResults both ways. A result the server holds is hostile: it is
//! turned into a cache entry (`entry.rs`'s items, blobs named by SHA-256)
//! and checked whole by `entry::check` before any blob is fetched; its
//! blobs are then streamed into a private staging directory, each checked
//! against its digest, and the entry rewritten to name them by BLAKE3, so
//! that `just`'s restore (the same as for every store) reads them there.
//! A run's outputs become an ActionResult: files with their permission bits
//! (`unix_mode` node property) and executable bit, directories as Trees,
//! symbolic links, and the captured standard output and error.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use bazel_remote_apis::build::bazel::remote::execution::v2 as re;
use bazel_remote_apis::google::protobuf::UInt32Value;
use prost::Message;
use serde_json::{json, Value as Json};

use super::action::{digest_file, digest_of, Blob, Source};
use super::blobs::{self, download, download_bytes, Fetch};
use super::connection::Connection;
use crate::execution::cache::entry;
use crate::execution::cache::store::StoreError;

/// Largest Tree read (encoded).
const LARGEST_TREE: u64 = 64 << 20;

/// Most items an ActionResult may restore.
const LARGEST_ITEMS: usize = 1 << 20;

/// What became of an ActionResult.
pub(crate) enum Staged {
  /// The entry to restore, in the staging directory beside its blobs.
  Entry(PathBuf),
  /// Unusable here, and why.
  Refused(String),
}

fn mode_of(properties: Option<&re::NodeProperties>, default: u32) -> u32 {
  properties.and_then(|properties| properties.unix_mode).map_or(default, |mode| mode.value & 0o777)
}

fn file_item(
  path: &str,
  digest: Option<&re::Digest>,
  executable: bool,
  properties: Option<&re::NodeProperties>,
) -> Result<Json, String> {
  let digest = digest.ok_or_else(|| format!("output file `{path}` has no digest"))?;
  let size = u64::try_from(digest.size_bytes)
    .map_err(|_| format!("output file `{path}` has a negative size"))?;
  let mode = mode_of(properties, if executable { 0o755 } else { 0o644 });
  Ok(json!({"path": path, "type": "file", "blob": digest.hash, "size": size, "mode": mode}))
}

/// The items of the Tree of the output directory at `path`.
fn tree_items(path: &str, tree: re::Tree, items: &mut Vec<Json>) -> Result<(), String> {
  let mut children = HashMap::new();
  for child in tree.children {
    children.insert(digest_of(&child.encode_to_vec()).hash, child);
  }
  let root = tree.root.ok_or_else(|| format!("the Tree of `{path}` has no root"))?;
  let mut stack = vec![(path.to_string(), &root)];
  while let Some((path, directory)) = stack.pop() {
    if items.len() + directory.files.len() + directory.symlinks.len() >= LARGEST_ITEMS {
      return Err("too many outputs".into());
    }
    items.push(json!({"path": path, "type": "directory", "mode": mode_of(directory.node_properties.as_ref(), 0o755)}));
    for file in &directory.files {
      let child = format!("{path}/{}", file.name);
      items.push(file_item(
        &child,
        file.digest.as_ref(),
        file.is_executable,
        file.node_properties.as_ref(),
      )?);
    }
    for link in &directory.symlinks {
      items.push(
        json!({"path": format!("{path}/{}", link.name), "type": "symlink", "target": link.target}),
      );
    }
    for node in &directory.directories {
      let hash = node.digest.as_ref().map(|digest| digest.hash.as_str()).unwrap_or_default();
      let child =
        children.get(hash).ok_or_else(|| format!("the Tree of `{path}` lacks a directory"))?;
      stack.push((format!("{path}/{}", node.name), child));
    }
  }
  Ok(())
}

/// A stream's blob: its inline bytes, or its digest.
enum Stream {
  Inline(Vec<u8>),
  Stored(re::Digest),
}

fn stream(raw: Vec<u8>, digest: Option<re::Digest>) -> Stream {
  match digest {
    Some(digest) if raw.is_empty() => Stream::Stored(digest),
    _ => Stream::Inline(raw),
  }
}

/// Turn `result` into an entry for `outputs`, checked, and fetch its blobs
/// into `staging` (a private directory `just` made and removes).
pub(crate) async fn stage(
  connection: &Connection,
  result: re::ActionResult,
  outputs: &[String],
  staging: &Path,
) -> Result<Staged, StoreError> {
  let cas = staging.join("cas");
  // Not `create_dir_all`: a staging directory `just` removed (at Ctrl-C)
  // is never made again.
  std::fs::create_dir(&cas).map_err(|error| StoreError(error.to_string()))?;
  let mut counter = 0usize;
  let mut scratch = || {
    counter += 1;
    staging.join(format!("partial-{counter}"))
  };
  if result.exit_code != 0 {
    return Ok(Staged::Refused(format!("the action exited with {}", result.exit_code)));
  }
  let mut items = Vec::new();
  // Older servers and clients write links in the deprecated fields.
  #[allow(deprecated)]
  let described = (|| -> Result<(), String> {
    for file in &result.output_files {
      items.push(file_item(
        &file.path,
        file.digest.as_ref(),
        file.is_executable,
        file.node_properties.as_ref(),
      )?);
    }
    for link in result
      .output_symlinks
      .iter()
      .chain(&result.output_file_symlinks)
      .chain(&result.output_directory_symlinks)
    {
      items.push(json!({"path": link.path, "type": "symlink", "target": link.target}));
    }
    if items.len() > LARGEST_ITEMS {
      return Err("too many outputs".into());
    }
    Ok(())
  })();
  if let Err(reason) = described {
    return Ok(Staged::Refused(reason));
  }
  for directory in &result.output_directories {
    let Some(digest) = directory.tree_digest.as_ref() else {
      return Ok(Staged::Refused(format!("output directory `{}` has no Tree", directory.path)));
    };
    let bytes = match download_bytes(connection, digest, LARGEST_TREE, &scratch()).await {
      Ok(bytes) => bytes,
      Err(Fetch::Refused(reason)) => return Ok(Staged::Refused(reason)),
      Err(Fetch::Failed(error)) => return Err(error),
    };
    let Ok(tree) = re::Tree::decode(&bytes[..]) else {
      return Ok(Staged::Refused(format!("the Tree of `{}` is not a Tree", directory.path)));
    };
    drop(bytes);
    if let Err(reason) = tree_items(&directory.path, tree, &mut items) {
      return Ok(Staged::Refused(reason));
    }
  }
  items.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
  let stdout = stream(result.stdout_raw, result.stdout_digest);
  let stderr = stream(result.stderr_raw, result.stderr_digest);
  let placeholder = |stream: &Stream| match stream {
    Stream::Inline(bytes) => json!({"blob": digest_of(bytes).hash, "size": bytes.len()}),
    Stream::Stored(digest) => json!({"blob": digest.hash, "size": digest.size_bytes.max(0)}),
  };
  let mut entry = json!({"status": 0, "stdout": placeholder(&stdout), "stderr": placeholder(&stderr), "outputs": items});
  if let Err(reason) = check(&entry, outputs) {
    return Ok(Staged::Refused(reason));
  }
  // Each distinct blob, fetched once: SHA-256 hash to BLAKE3 hash.
  let mut renamed: HashMap<String, String> = HashMap::new();
  let mut wanted: Vec<re::Digest> = Vec::new();
  for item in entry["outputs"].as_array().into_iter().flatten() {
    if item["type"] == "file" {
      let hash = item["blob"].as_str().unwrap_or_default().to_string();
      let size = item["size"].as_u64().unwrap_or_default() as i64;
      wanted.push(re::Digest { hash, size_bytes: size });
    }
  }
  for (name, stream) in [("stdout", stdout), ("stderr", stderr)] {
    match stream {
      Stream::Stored(digest) => wanted.push(digest),
      Stream::Inline(bytes) => {
        let blake3 = blake3::hash(&bytes).to_hex().to_string();
        std::fs::write(cas.join(&blake3), &bytes).map_err(|error| StoreError(error.to_string()))?;
        entry[name]["blob"] = Json::from(blake3);
      }
    }
  }
  let mut seen = std::collections::HashSet::new();
  wanted.retain(|digest| seen.insert(digest.hash.clone()));
  // Small blobs in batches, the others one by one through ByteStream.
  let (small, large): (Vec<re::Digest>, Vec<re::Digest>) =
    wanted.into_iter().partition(|digest| blobs::batched(connection, digest));
  match blobs::download_batches(connection, &small, &cas).await {
    Ok(fetched) => renamed.extend(fetched),
    Err(Fetch::Refused(reason)) => return Ok(Staged::Refused(reason)),
    Err(Fetch::Failed(error)) => return Err(error),
  }
  for digest in large {
    let partial = scratch();
    let fetched = match download(connection, &digest, &partial).await {
      Ok(fetched) => fetched,
      Err(Fetch::Refused(reason)) => return Ok(Staged::Refused(reason)),
      Err(Fetch::Failed(error)) => return Err(error),
    };
    std::fs::rename(&partial, cas.join(&fetched.blake3))
      .map_err(|error| StoreError(error.to_string()))?;
    renamed.insert(digest.hash, fetched.blake3);
  }
  let rename = |value: &mut Json| {
    if let Some(blake3) = value["blob"].as_str().and_then(|hash| renamed.get(hash)) {
      value["blob"] = Json::from(blake3.clone());
    }
  };
  for item in entry["outputs"].as_array_mut().into_iter().flatten() {
    if item["type"] == "file" {
      rename(item);
    }
  }
  rename(&mut entry["stdout"]);
  rename(&mut entry["stderr"]);
  let path = staging.join("entry.json");
  std::fs::write(&path, entry.to_string()).map_err(|error| StoreError(error.to_string()))?;
  Ok(Staged::Entry(path))
}

/// A directory of an output while its Tree is built.
#[derive(Default)]
struct Folder {
  mode: u32,
  files: BTreeMap<String, re::FileNode>,
  directories: BTreeMap<String, Folder>,
  symlinks: BTreeMap<String, String>,
}

fn properties(mode: u32) -> Option<re::NodeProperties> {
  Some(re::NodeProperties {
    unix_mode: Some(UInt32Value { value: mode & 0o7777 }),
    ..Default::default()
  })
}

impl Folder {
  fn reach(&mut self, parts: &[&str]) -> Option<&mut Folder> {
    let mut folder = self;
    for part in parts {
      folder = folder.directories.get_mut(*part)?;
    }
    Some(folder)
  }

  /// This folder's Directory, and its descendants' into `children`.
  fn seal(self, children: &mut BTreeMap<String, re::Directory>) -> re::Directory {
    let directories = self
      .directories
      .into_iter()
      .map(|(name, folder)| {
        let directory = folder.seal(children);
        let digest = digest_of(&directory.encode_to_vec());
        children.insert(digest.hash.clone(), directory);
        re::DirectoryNode { name, digest: Some(digest) }
      })
      .collect();
    re::Directory {
      files: self.files.into_values().collect(),
      directories,
      symlinks: self
        .symlinks
        .into_iter()
        .map(|(name, target)| re::SymlinkNode { name, target, node_properties: None })
        .collect(),
      node_properties: properties(self.mode),
    }
  }
}

/// A run's outputs (`items` as the cache's `walk` describes them, paths
/// relative to `working_directory`) and captured streams as an
/// ActionResult, with the blobs it names; refused (the reason) when no
/// reader would restore it.
pub(crate) fn result_of(
  working_directory: &Path,
  items: &[Json],
  outputs: &[String],
  stdout: &Path,
  stderr: &Path,
) -> Result<Result<(re::ActionResult, Vec<Blob>), String>, StoreError> {
  let failed = |error: std::io::Error| StoreError(error.to_string());
  let mut blobs = Vec::new();
  let mut checked = Vec::with_capacity(items.len());
  let mut digests = Vec::with_capacity(items.len());
  for item in items {
    let mut item = item.clone();
    if item["type"] == "file" {
      let path = working_directory.join(item["path"].as_str().unwrap_or_default());
      let digest = digest_file(&path).map_err(failed)?;
      item["blob"] = Json::from(digest.hash.clone());
      item["size"] = Json::from(digest.size_bytes);
      blobs.push(Blob { digest: digest.clone(), source: Source::File(path) });
      digests.push(Some(digest));
    } else {
      digests.push(None);
    }
    checked.push(item);
  }
  let stdout_digest = digest_file(stdout).map_err(failed)?;
  let stderr_digest = digest_file(stderr).map_err(failed)?;
  let blob = |digest: &re::Digest| json!({"blob": digest.hash, "size": digest.size_bytes});
  let rendered = json!({
    "recipe": "",
    "status": 0,
    "stdout": blob(&stdout_digest),
    "stderr": blob(&stderr_digest),
    "outputs": checked,
  });
  if let Err(reason) = check(&rendered, outputs) {
    return Ok(Err(reason));
  }
  blobs.push(Blob { digest: stdout_digest.clone(), source: Source::File(stdout.to_path_buf()) });
  blobs.push(Blob { digest: stderr_digest.clone(), source: Source::File(stderr.to_path_buf()) });
  let mut result = re::ActionResult {
    stdout_digest: Some(stdout_digest),
    stderr_digest: Some(stderr_digest),
    ..re::ActionResult::default()
  };
  let mut folders: Vec<(String, Folder)> = Vec::new();
  for (item, digest) in rendered["outputs"].as_array().into_iter().flatten().zip(digests) {
    let path = item["path"].as_str().unwrap_or_default();
    let mode = item["mode"].as_u64().unwrap_or(0o644) as u32;
    let top = outputs.iter().any(|output| output == path);
    if top {
      match item["type"].as_str() {
        Some("file") => result.output_files.push(re::OutputFile {
          path: path.into(),
          digest,
          is_executable: mode & 0o111 != 0,
          contents: Vec::new(),
          node_properties: properties(mode),
        }),
        Some("symlink") => result.output_symlinks.push(re::OutputSymlink {
          path: path.into(),
          target: item["target"].as_str().unwrap_or_default().into(),
          node_properties: None,
        }),
        _ => folders.push((path.into(), Folder { mode, ..Folder::default() })),
      }
      continue;
    }
    // Inside the last output directory: items come parents first.
    let Some((output, folder)) = folders.last_mut() else {
      continue;
    };
    let relative =
      path.strip_prefix(output.as_str()).and_then(|rest| rest.strip_prefix('/')).unwrap_or(path);
    let parts: Vec<&str> = relative.split('/').collect();
    let (leaf, parents) = parts.split_last().unwrap_or((&"", &[]));
    let Some(parent) = folder.reach(parents) else {
      continue;
    };
    match item["type"].as_str() {
      Some("file") => {
        let node = re::FileNode {
          name: (*leaf).into(),
          digest,
          is_executable: mode & 0o111 != 0,
          node_properties: properties(mode),
        };
        parent.files.insert((*leaf).into(), node);
      }
      Some("symlink") => {
        parent.symlinks.insert((*leaf).into(), item["target"].as_str().unwrap_or_default().into());
      }
      _ => {
        parent.directories.insert((*leaf).into(), Folder { mode, ..Folder::default() });
      }
    }
  }
  for (path, folder) in folders {
    let mut children = BTreeMap::new();
    let root = folder.seal(&mut children);
    let root_digest = digest_of(&root.encode_to_vec());
    let tree = re::Tree { root: Some(root), children: children.into_values().collect() };
    let bytes = tree.encode_to_vec();
    let tree_digest = digest_of(&bytes);
    blobs.push(Blob { digest: tree_digest.clone(), source: Source::Bytes(bytes) });
    result.output_directories.push(re::OutputDirectory {
      path,
      tree_digest: Some(tree_digest),
      is_topologically_sorted: false,
      root_directory_digest: Some(root_digest),
    });
  }
  Ok(Ok((result, blobs)))
}

/// Whether `entry`, an entry in the layout of the shared store, is one
/// `just` would restore for `outputs`: the reason when not.
fn check(entry: &Json, outputs: &[String]) -> Result<(), String> {
  let text = serde_json::to_vec(entry).map_err(|error| error.to_string())?;
  match entry::parse(&text, outputs) {
    Ok(_) => Ok(()),
    Err(entry::Unusable::Refused(reason)) => Err(reason),
    Err(entry::Unusable::Corrupt) => Err("it is not an entry".into()),
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  /// What `result_of` publishes for a directory output reads back, through
  /// `tree_items`, as the items it was made of.
  #[test]
  fn an_output_directory_round_trips_through_its_tree() {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path();
    std::fs::create_dir_all(root.join("out/sub")).unwrap();
    std::fs::write(root.join("out/sub/file"), "A").unwrap();
    std::fs::write(root.join("bin"), "B").unwrap();
    std::fs::write(root.join("stdout"), "printed").unwrap();
    std::fs::write(root.join("stderr"), "").unwrap();
    let items = vec![
      json!({"path": "out", "type": "directory", "mode": 0o755}),
      json!({"path": "out/link", "type": "symlink", "target": "sub/file"}),
      json!({"path": "out/sub", "type": "directory", "mode": 0o700}),
      json!({"path": "out/sub/file", "type": "file", "mode": 0o640}),
      json!({"path": "bin", "type": "file", "mode": 0o750}),
    ];
    let outputs = vec!["out".to_string(), "bin".to_string()];
    let (result, blobs) =
      result_of(root, &items, &outputs, &root.join("stdout"), &root.join("stderr"))
        .unwrap()
        .unwrap();
    assert_eq!(result.output_files.len(), 1);
    assert_eq!(result.output_files[0].path, "bin");
    assert!(result.output_files[0].is_executable);
    assert_eq!(result.output_files[0].digest, Some(digest_of(b"B")));
    assert_eq!(result.stdout_digest, Some(digest_of(b"printed")));
    let tree_digest = result.output_directories[0].tree_digest.clone().unwrap();
    let Some(Source::Bytes(bytes)) =
      blobs.iter().find(|blob| blob.digest == tree_digest).map(|blob| blob.source.clone())
    else {
      panic!("no Tree blob");
    };
    let mut read = Vec::new();
    tree_items("out", re::Tree::decode(&bytes[..]).unwrap(), &mut read).unwrap();
    read.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    let summary: Vec<(String, String, Json)> = read
      .iter()
      .map(|item| {
        let detail =
          if item["type"] == "symlink" { item["target"].clone() } else { item["mode"].clone() };
        (item["path"].as_str().unwrap().into(), item["type"].as_str().unwrap().into(), detail)
      })
      .collect();
    assert_eq!(
      summary,
      vec![
        ("out".into(), "directory".into(), json!(0o755)),
        ("out/link".into(), "symlink".into(), json!("sub/file")),
        ("out/sub".into(), "directory".into(), json!(0o700)),
        ("out/sub/file".into(), "file".into(), json!(0o640)),
      ]
    );
    assert_eq!(read[3]["blob"], digest_of(b"A").hash);
  }

  #[test]
  fn a_tree_naming_a_directory_it_lacks_is_refused() {
    let missing = re::DirectoryNode { name: "sub".into(), digest: Some(digest_of(b"nothing")) };
    let tree = re::Tree {
      root: Some(re::Directory { directories: vec![missing], ..Default::default() }),
      children: Vec::new(),
    };
    assert_eq!(
      tree_items("out", tree, &mut Vec::new()),
      Err("the Tree of `out` lacks a directory".into())
    );
  }
}
