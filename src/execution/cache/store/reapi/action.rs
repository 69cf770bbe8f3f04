//! A cached recipe as a standard Action: its Command, the Merkle tree of
//! its declared inputs (the input root) and the Action naming both, built
//! from the plain description `just` sends (`Spec`). The blobs they need in
//! the CAS are listed, files by path (read again when uploaded).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use bazel_remote_apis::build::bazel::remote::execution::v2 as re;
use prost::Message;
use serde::Deserialize;
use sha2::Digest as _;

/// A cached recipe's run, as `just` describes it (README: "Remote caches").
#[derive(Debug, Deserialize)]
pub(crate) struct Spec {
  pub arguments: Vec<String>,
  /// Name and value, in name order.
  pub environment: Vec<(String, String)>,
  /// Relative to the input root (the justfile's directory); `""` for it.
  pub working_directory: String,
  /// Relative to the working directory.
  pub outputs: Vec<String>,
  pub platform: Vec<(String, String)>,
  pub salt: String,
  /// Each input's path below the input root and where it is here.
  pub inputs: Vec<(String, PathBuf)>,
  /// Files made up for the run (the script): path below the input root,
  /// contents, and whether executable.
  pub files: Vec<(String, String, bool)>,
  /// `--remote-timeout`: the Action's timeout, in seconds.
  #[serde(default)]
  pub timeout: Option<u64>,
}

/// Where a blob's bytes are.
#[derive(Clone, Debug)]
pub(crate) enum Source {
  Bytes(Vec<u8>),
  File(PathBuf),
}

#[derive(Clone, Debug)]
pub(crate) struct Blob {
  pub digest: re::Digest,
  pub source: Source,
}

/// An Action ready to look up, and the blobs it names.
#[derive(Debug)]
pub(crate) struct Prepared {
  pub digest: re::Digest,
  /// The Action, the Command, the input root's directories and files.
  pub blobs: Vec<Blob>,
  pub outputs: Vec<String>,
}

/// The digest of `bytes`.
pub(crate) fn digest_of(bytes: &[u8]) -> re::Digest {
  re::Digest { hash: hex(&sha2::Sha256::digest(bytes)), size_bytes: bytes.len() as i64 }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
  bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A digest as `HASH/SIZE`.
pub(crate) fn shown(digest: &re::Digest) -> String {
  format!("{}/{}", digest.hash, digest.size_bytes)
}

/// `HASH/SIZE` as a digest, if it is one.
pub(crate) fn parse(text: &str) -> Option<re::Digest> {
  let (hash, size) = text.split_once('/')?;
  let size = size.parse::<i64>().ok().filter(|size| *size >= 0)?;
  (hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
    .then(|| re::Digest { hash: hash.into(), size_bytes: size })
}

/// The digest of the file at `path`, read once.
pub(crate) fn digest_file(path: &std::path::Path) -> io::Result<re::Digest> {
  let mut file = File::open(path)?;
  let mut hasher = sha2::Sha256::new();
  let mut buffer = vec![0; 64 << 10];
  let mut size = 0u64;
  loop {
    match file.read(&mut buffer) {
      Ok(0) => break,
      Ok(count) => {
        hasher.update(&buffer[..count]);
        size += count as u64;
      }
      Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
      Err(error) => return Err(error),
    }
  }
  Ok(re::Digest { hash: hex(&hasher.finalize()), size_bytes: size as i64 })
}

/// A directory of the input root while it is built.
#[derive(Default)]
struct Node {
  files: BTreeMap<String, re::FileNode>,
  directories: BTreeMap<String, Node>,
}

impl Node {
  fn insert(&mut self, path: &str, file: re::FileNode) -> io::Result<()> {
    let invalid = || io::Error::other(format!("input `{path}` cannot be in an input root"));
    let mut node = self;
    let mut parts: Vec<&str> = path.split('/').collect();
    let leaf = parts.pop().ok_or_else(invalid)?;
    for part in parts {
      if part.is_empty() || part == "." || part == ".." || node.files.contains_key(part) {
        return Err(invalid());
      }
      node = node.directories.entry(part.to_string()).or_default();
    }
    if leaf.is_empty() || leaf == "." || leaf == ".." || node.directories.contains_key(leaf) {
      return Err(invalid());
    }
    node.files.insert(leaf.to_string(), re::FileNode { name: leaf.to_string(), ..file });
    Ok(())
  }

  /// The Directory messages of this tree, children first, into `blobs`:
  /// the digest of this one.
  fn seal(self, blobs: &mut Vec<Blob>) -> re::Digest {
    let mut directories = Vec::new();
    for (name, child) in self.directories {
      directories.push(re::DirectoryNode { name, digest: Some(child.seal(blobs)) });
    }
    let directory = re::Directory {
      files: self.files.into_values().collect(),
      directories,
      ..re::Directory::default()
    };
    let bytes = directory.encode_to_vec();
    let digest = digest_of(&bytes);
    blobs.push(Blob { digest: digest.clone(), source: Source::Bytes(bytes) });
    digest
  }
}

fn platform(spec: &Spec) -> Option<re::Platform> {
  let mut properties: Vec<re::platform::Property> = spec
    .platform
    .iter()
    .map(|(name, value)| re::platform::Property { name: name.clone(), value: value.clone() })
    .collect();
  properties.sort_by(|a, b| (&a.name, &a.value).cmp(&(&b.name, &b.value)));
  (!properties.is_empty()).then_some(re::Platform { properties })
}

/// Build the Action `spec` describes: every input file is read once, for
/// its digest.
pub(crate) fn prepare(spec: &Spec) -> io::Result<Prepared> {
  let mut blobs = Vec::new();
  let mut root = Node::default();
  for (path, local) in &spec.inputs {
    let metadata = std::fs::metadata(local)?;
    let executable = crate::platform::mode::of(&metadata) & 0o111 != 0;
    let digest = digest_file(local)?;
    let node = re::FileNode {
      digest: Some(digest.clone()),
      is_executable: executable,
      ..Default::default()
    };
    root.insert(path, node)?;
    blobs.push(Blob { digest, source: Source::File(local.clone()) });
  }
  for (path, contents, executable) in &spec.files {
    let digest = digest_of(contents.as_bytes());
    let node = re::FileNode {
      digest: Some(digest.clone()),
      is_executable: *executable,
      ..Default::default()
    };
    root.insert(path, node)?;
    blobs.push(Blob { digest, source: Source::Bytes(contents.as_bytes().to_vec()) });
  }
  let input_root = root.seal(&mut blobs);
  let mut environment: Vec<re::command::EnvironmentVariable> = spec
    .environment
    .iter()
    .map(|(name, value)| re::command::EnvironmentVariable {
      name: name.clone(),
      value: value.clone(),
    })
    .collect();
  environment.sort_by(|a, b| a.name.cmp(&b.name));
  let mut outputs = spec.outputs.clone();
  outputs.sort();
  // The Command's platform too: servers of API versions before 2.2 read it there.
  #[allow(deprecated)]
  let command = re::Command {
    arguments: spec.arguments.clone(),
    environment_variables: environment,
    output_paths: outputs,
    // Without it a worker reports only the executable bit of each output.
    output_node_properties: vec!["unix_mode".to_owned()],
    platform: platform(spec),
    working_directory: spec.working_directory.clone(),
    ..re::Command::default()
  };
  let command = command.encode_to_vec();
  let command_digest = digest_of(&command);
  blobs.push(Blob { digest: command_digest.clone(), source: Source::Bytes(command) });
  let action = re::Action {
    command_digest: Some(command_digest),
    input_root_digest: Some(input_root),
    salt: spec.salt.as_bytes().to_vec(),
    platform: platform(spec),
    timeout: spec.timeout.map(|seconds| bazel_remote_apis::google::protobuf::Duration {
      seconds: i64::try_from(seconds).unwrap_or(i64::MAX),
      nanos: 0,
    }),
    ..re::Action::default()
  };
  let action = action.encode_to_vec();
  let digest = digest_of(&action);
  blobs.push(Blob { digest: digest.clone(), source: Source::Bytes(action) });
  Ok(Prepared { digest, blobs, outputs: spec.outputs.clone() })
}

#[cfg(test)]
mod tests {
  use super::*;

  fn spec(inputs: Vec<(String, PathBuf)>) -> Spec {
    Spec {
      arguments: vec!["sh".into(), ".just/script".into()],
      environment: vec![("B".into(), "2".into()), ("A".into(), "1".into())],
      working_directory: String::new(),
      outputs: vec!["out".into()],
      platform: vec![("OSFamily".into(), "linux".into())],
      salt: String::new(),
      inputs,
      files: vec![(".just/script".into(), "echo hi\n".into(), false)],
      timeout: None,
    }
  }

  #[test]
  fn the_input_root_is_a_merkle_tree_of_the_inputs() {
    let directory = tempfile::tempdir().unwrap();
    std::fs::create_dir(directory.path().join("src")).unwrap();
    std::fs::write(directory.path().join("src/a.txt"), "A").unwrap();
    let prepared =
      prepare(&spec(vec![("src/a.txt".into(), directory.path().join("src/a.txt"))])).unwrap();
    let decode = |digest: &re::Digest| {
      prepared.blobs.iter().find(|blob| blob.digest == *digest).map(|blob| match &blob.source {
        Source::Bytes(bytes) => bytes.clone(),
        Source::File(path) => std::fs::read(path).unwrap(),
      })
    };
    let action = re::Action::decode(&decode(&prepared.digest).unwrap()[..]).unwrap();
    let command =
      re::Command::decode(&decode(action.command_digest.as_ref().unwrap()).unwrap()[..]).unwrap();
    assert_eq!(command.environment_variables[0].name, "A");
    assert_eq!(command.output_node_properties, ["unix_mode"]);
    let root =
      re::Directory::decode(&decode(action.input_root_digest.as_ref().unwrap()).unwrap()[..])
        .unwrap();
    let names: Vec<&str> = root.directories.iter().map(|node| node.name.as_str()).collect();
    assert_eq!(names, [".just", "src"]);
    let src =
      re::Directory::decode(&decode(root.directories[1].digest.as_ref().unwrap()).unwrap()[..])
        .unwrap();
    assert_eq!(src.files[0].name, "a.txt");
    assert_eq!(src.files[0].digest, Some(digest_of(b"A")));
  }

  #[test]
  fn inputs_that_climb_are_refused() {
    assert!(prepare(&spec(vec![("../x".into(), PathBuf::from("/etc/hostname"))])).is_err());
  }
}
