//! `--clean [PATH…]`: delete the entries of `.justcache` (all, or those
//! whose recipe path starts with the given components), and with a
//! `--cache-dir` store the same entries there, with the blobs no remaining
//! entry uses. A network store is never cleaned.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use super::shared::{LARGEST_ENTRY, LARGEST_RECORD};
use super::{DIRECTORY, MARKERS};
use crate::platform::dir::{Directory, Kind};

type Result<T = String> = std::result::Result<T, String>;

/// Clean `.justcache` next to the root justfile. Returns the message for
/// stderr.
pub(crate) fn local(justfile_directory: &Path, words: &[String]) -> Result {
  let directory = justfile_directory.join(DIRECTORY);
  let Ok(entries) = fs::read_dir(&directory) else {
    return Ok("recipe cache not found".into());
  };
  let prefix = prefix(words);
  let mut removed = 0usize;
  let mut names: Vec<PathBuf> = entries.filter_map(|entry| entry.ok().map(|e| e.path())).collect();
  names.sort();
  for path in names {
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
      continue;
    };
    if !is_entry_name(name) {
      continue;
    }
    if !prefix.is_empty() {
      let contents = fs::read_to_string(&path)
        .map_err(|error| format!("failed to read cache entry at `{}`: {error}", path.display()))?;
      if !contents.is_empty() && !recipe_is_under(recipe_of(&contents).as_deref(), &prefix) {
        continue;
      }
    }
    fs::remove_file(&path)
      .map_err(|error| format!("failed to remove cache entry `{}`: {error}", path.display()))?;
    removed += 1;
  }
  remove_if_only_markers(&directory)?;
  Ok(count(removed, "cache entry", "cache entries", ""))
}

/// A directory left with nothing but the markers `just` wrote is removed
/// whole, as just 1.58 removes an emptied `.justcache`.
fn remove_if_only_markers(directory: &Path) -> Result<()> {
  let Ok(entries) = fs::read_dir(directory) else {
    return Ok(());
  };
  let mut markers = Vec::new();
  for entry in entries.flatten() {
    let name = entry.file_name();
    if !MARKERS.iter().any(|(marker, _)| name == *marker) {
      return Ok(());
    }
    markers.push(entry.path());
  }
  for marker in markers {
    fs::remove_file(&marker)
      .map_err(|error| format!("failed to remove `{}`: {error}", marker.display()))?;
  }
  let _ = fs::remove_dir(directory);
  Ok(())
}

/// Clean a `--cache-dir` store: remove the `ac/` records of the selected
/// recipes, then every `cas/` blob no remaining entry names. Whoever can
/// write the store may have put anything there: `ac` and `cas` must be
/// directories (never followed as links), only objects are read (regular
/// files, opened without blocking) and removed (by name: a link is removed,
/// never what it points to), and anything else is left alone.
pub(crate) fn shared(store: &Path, words: &[String]) -> Result {
  let shown = store.display();
  if !store.is_dir() {
    return Ok(format!("shared cache `{shown}` not found"));
  }
  let failed = |doing: &str, path: &Path, error: io::Error| {
    format!("failed to {doing} `{}`: {error}", path.display())
  };
  let root = Directory::open(store).map_err(|error| failed("read", store, error))?;
  let records = prefix_directory(&root, store, "ac")?;
  let blobs = prefix_directory(&root, store, "cas")?;
  let prefix = prefix(words);
  let mut removed = 0usize;
  let mut live = HashSet::new();
  if let Some(records) = &records {
    let path = store.join("ac");
    for record in objects(records).map_err(|error| failed("read", &path, error))? {
      let entry = blobs.as_ref().and_then(|blobs| read_entry(records, &record, blobs));
      let selected = prefix.is_empty()
        || entry.as_ref().is_some_and(|(_, entry)| {
          recipe_is_under(entry.get("recipe").and_then(Json::as_str), &prefix)
        });
      if selected {
        records
          .remove_file(&record)
          .map_err(|error| failed("remove", &path.join(&record), error))?;
        removed += 1;
      } else if let Some((hex, entry)) = entry {
        live.insert(hex);
        live.extend(blobs_of(&entry));
      }
    }
  }
  if let Some(blobs) = &blobs {
    let path = store.join("cas");
    for blob in objects(blobs).map_err(|error| failed("read", &path, error))? {
      // Anything else there, such as a blob still being written, is left.
      if is_blob_name(&blob) && !live.contains(&blob) {
        blobs.remove_file(&blob).map_err(|error| failed("remove", &path.join(&blob), error))?;
      }
    }
  }
  for (name, directory) in [("ac", records), ("cas", blobs)] {
    if let Some(directory) = directory {
      drop(directory);
      root
        .remove_empty_directory(name)
        .map_err(|error| failed("remove", &store.join(name), error))?;
    }
  }
  Ok(count(removed, "shared cache entry", "shared cache entries", &format!(" from `{shown}`")))
}

/// The store's directory `name`, if it has one: never a link.
fn prefix_directory(root: &Directory, store: &Path, name: &str) -> Result<Option<Directory>> {
  match root.child(name) {
    Ok(directory) => Ok(Some(directory)),
    Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
    Err(error) => Err(format!("failed to read `{}`: {error}", store.join(name).display())),
  }
}

/// The names of a store directory that may be objects (anything but a
/// directory), by name.
fn objects(directory: &Directory) -> io::Result<Vec<String>> {
  let mut names = Vec::new();
  for name in directory.names()? {
    if !matches!(directory.kind(&name)?, None | Some(Kind::Directory)) {
      names.push(name);
    }
  }
  names.sort();
  Ok(names)
}

/// The entry an `ac/` record names: its blob's name and contents. Only
/// regular files are read, and no more than an entry may hold.
fn read_entry(records: &Directory, record: &str, blobs: &Directory) -> Option<(String, Json)> {
  let read = |directory: &Directory, name: &str, limit: u64| -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    directory.open_regular(name).ok()?.take(limit).read_to_end(&mut bytes).ok()?;
    Some(bytes)
  };
  let hex = String::from_utf8(read(records, record, LARGEST_RECORD)?).ok()?.trim().to_string();
  if !is_blob_name(&hex) {
    return None;
  }
  let entry = serde_json::from_slice(&read(blobs, &hex, LARGEST_ENTRY)?).ok()?;
  Some((hex, entry))
}

/// The blobs an entry names: its captured output and its output files.
fn blobs_of(entry: &Json) -> Vec<String> {
  let mut blobs: Vec<String> = ["stdout", "stderr"]
    .iter()
    .filter_map(|stream| entry[stream]["blob"].as_str().map(str::to_string))
    .collect();
  if let Some(outputs) = entry["outputs"].as_array() {
    blobs.extend(outputs.iter().filter_map(|item| item["blob"].as_str().map(str::to_string)));
  }
  blobs
}

fn prefix(words: &[String]) -> Vec<&str> {
  words.iter().flat_map(|word| word.split("::")).collect()
}

fn recipe_of(contents: &str) -> Option<String> {
  serde_json::from_str::<Json>(contents)
    .ok()
    .and_then(|value| value.get("recipe").and_then(Json::as_str).map(str::to_string))
}

fn recipe_is_under(recipe: Option<&str>, prefix: &[&str]) -> bool {
  recipe.is_some_and(|recipe| recipe.split("::").collect::<Vec<_>>().starts_with(prefix))
}

fn count(removed: usize, one: &str, many: &str, suffix: &str) -> String {
  if removed == 1 {
    format!("removed 1 {one}{suffix}")
  } else {
    format!("removed {removed} {many}{suffix}")
  }
}

fn is_blob_name(name: &str) -> bool {
  name.len() == 64 && name.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

pub(super) fn is_entry_name(name: &str) -> bool {
  name.strip_suffix(".json").is_some_and(is_blob_name)
}
