//! Restore arbitrary shared cache entries into a project from a directory
//! store: nothing may panic, and nothing outside the declared outputs may
//! change, whatever the entry says (`..`, `//`, absolute paths, links and
//! files through them, modes, missing or short blobs).
//!
//! The input is read as lines, each an item: `TYPE PATH [EXTRA]`, where TYPE
//! is `d` (directory, EXTRA its mode in octal), `f` (file, EXTRA `e` for the
//! empty blob, `m` for a missing one, `s` for the empty blob with size 1;
//! then its mode), `l` (link, EXTRA its target) or anything else (raw: the
//! whole input is the entry, as bytes).
//!
//! Run (nightly): `cd fuzz && cargo +nightly fuzz run cache_restore -- -max_total_time=60`

#![no_main]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// The BLAKE3 hash of no bytes.
const EMPTY: &str = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";

const OUTPUTS: [&str; 3] = ["out", "bin", "lib/deep"];

fn root() -> &'static PathBuf {
  static ROOT: OnceLock<PathBuf> = OnceLock::new();
  ROOT.get_or_init(|| {
    let root = std::env::temp_dir().join(format!("just-fuzz-restore-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    for directory in ["store/cas", "project/keep", "project/lib", "outside"] {
      fs::create_dir_all(root.join(directory)).expect("fuzz directories");
    }
    fs::write(root.join("store/cas").join(EMPTY), "").expect("blob");
    fs::write(root.join("project/justfile"), "build:\n").expect("justfile");
    fs::write(root.join("project/keep/file"), "keep\n").expect("file");
    fs::write(root.join("outside/victim"), "precious\n").expect("victim");
    root
  })
}

/// Everything below `root` but the declared outputs: kind, mode, contents.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
  let skip: Vec<PathBuf> = OUTPUTS.iter().map(|output| root.join("project").join(output)).collect();
  let mut found = BTreeMap::new();
  let mut pending = vec![root.to_path_buf()];
  while let Some(path) = pending.pop() {
    if skip.contains(&path) {
      continue;
    }
    let Ok(metadata) = fs::symlink_metadata(&path) else {
      continue;
    };
    let description = if metadata.file_type().is_symlink() {
      format!("link {:?}", fs::read_link(&path).ok())
    } else if metadata.is_dir() {
      for child in fs::read_dir(&path).expect("read_dir").flatten() {
        pending.push(child.path());
      }
      format!("dir {:?}", metadata.permissions())
    } else {
      format!("file {:?} {:?}", metadata.permissions(), fs::read(&path).ok())
    };
    found.insert(path, description);
  }
  found
}

fn quote(text: &str) -> String {
  let mut quoted = String::from("\"");
  for character in text.chars() {
    match character {
      '"' => quoted.push_str("\\\""),
      '\\' => quoted.push_str("\\\\"),
      c if (c as u32) < 0x20 => quoted.push_str(&format!("\\u{:04x}", c as u32)),
      c => quoted.push(c),
    }
  }
  quoted.push('"');
  quoted
}

/// The entry the input describes.
fn entry(data: &[u8]) -> Vec<u8> {
  let Ok(text) = std::str::from_utf8(data) else {
    return data.to_vec();
  };
  let mut items = Vec::new();
  for line in text.lines() {
    let mut words = line.splitn(3, ' ');
    let (kind, path, extra) = (words.next(), words.next().unwrap_or(""), words.next());
    let mode = |text: Option<&str>| {
      text.and_then(|text| u32::from_str_radix(text.trim(), 8).ok()).unwrap_or(0o644)
    };
    let path = quote(path);
    items.push(match kind {
      Some("d") => format!(r#"{{"path":{path},"type":"directory","mode":{}}}"#, mode(extra)),
      Some("f") => {
        let (blob, rest) = extra.map_or(("e", None), |extra| match extra.split_once(' ') {
          Some((blob, rest)) => (blob, Some(rest)),
          None => (extra, None),
        });
        let (hex, size) = match blob {
          "m" => ("0".repeat(64), 0),
          "s" => (EMPTY.to_string(), 1),
          _ => (EMPTY.to_string(), 0),
        };
        format!(
          r#"{{"path":{path},"type":"file","blob":"{hex}","size":{size},"mode":{}}}"#,
          mode(rest)
        )
      }
      Some("l") => {
        format!(r#"{{"path":{path},"type":"symlink","target":{}}}"#, quote(extra.unwrap_or("")))
      }
      _ => return data.to_vec(),
    });
  }
  let blob = format!(r#"{{"blob":"{EMPTY}","size":0}}"#);
  format!(r#"{{"stdout":{blob},"stderr":{blob},"outputs":[{}]}}"#, items.join(",")).into_bytes()
}

fn remove(path: &Path) {
  match fs::symlink_metadata(path) {
    Ok(metadata) if metadata.is_dir() => {
      // A restored directory may lack write permission for its owner.
      let _ = std::process::Command::new("chmod").arg("-R").arg("u+rwx").arg(path).status();
      let _ = fs::remove_dir_all(path);
    }
    Ok(_) => {
      let _ = fs::remove_file(path);
    }
    Err(_) => {}
  }
}

fuzz_target!(|data: &[u8]| {
  let root = root();
  let project = root.join("project");
  let before = snapshot(root);
  let outputs: Vec<String> = OUTPUTS.iter().map(ToString::to_string).collect();
  let _ = just::restore_cache_entry(&root.join("store"), &project, &outputs, &entry(data));
  let after = snapshot(root);
  assert_eq!(before, after, "something outside the declared outputs changed");
  for output in OUTPUTS {
    remove(&project.join(output));
  }
});
