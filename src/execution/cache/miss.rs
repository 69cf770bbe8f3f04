//! Why a `[cache]` recipe runs, as `-v` says it: no entry, which inputs
//! changed since the recipe's last recorded run, or which output is not
//! what its entry recorded.

use std::fs;
use std::path::Path;
use std::time::SystemTime;

use serde_json::{Map, Value as Json};

use super::clean::is_entry_name;
use super::digest;

/// The first output that is not what the entry recorded, as a reason, or
/// `None` when every output is (a hit). An entry without digests (written
/// by just 1.58) cannot tell, so it only hits when the recipe declares no
/// outputs.
pub(super) fn stale_output(
  contents: &str,
  outputs: &[String],
  working_directory: &Path,
) -> Option<String> {
  let recorded = serde_json::from_str::<Json>(contents)
    .ok()
    .and_then(|entry| entry.get("outputs").and_then(Json::as_object).cloned())
    .unwrap_or_default();
  outputs.iter().find_map(|output| {
    let Some(expected) = recorded.get(output).and_then(Json::as_str) else {
      return Some(format!("output `{output}` not recorded"));
    };
    let path = working_directory.join(output);
    // A symbolic link to nothing is missing, as for just 1.58.
    if fs::symlink_metadata(&path).is_ok() && fs::metadata(&path).is_err() {
      return Some(format!("output `{output}` missing"));
    }
    match digest::output(&path) {
      Ok(Some(digest)) if digest == expected => None,
      Ok(None) => Some(format!("output `{output}` missing")),
      _ => Some(format!("output `{output}` changed")),
    }
  })
}

/// Why a key has no entry: the inputs that differ from those of the
/// recipe's latest entry in `directory`, or plainly no entry.
pub(super) fn without_entry(directory: &Path, recipe: &str, inputs: &[(String, String)]) -> String {
  let Some(previous) = latest_inputs(directory, recipe) else {
    return "no entry".into();
  };
  let mut changes = Vec::new();
  for (name, digest) in inputs {
    match previous.get(name).and_then(Json::as_str) {
      Some(recorded) if recorded == digest => {}
      Some(_) => changes.push(format!("input `{name}` changed")),
      None => changes.push(format!("input `{name}` added")),
    }
  }
  for name in previous.keys() {
    if !inputs.iter().any(|(input, _)| input == name) {
      changes.push(format!("input `{name}` removed"));
    }
  }
  if changes.is_empty() {
    "no entry".into()
  } else {
    changes.join(", ")
  }
}

/// The inputs recorded by the most recently written entry of `recipe`.
fn latest_inputs(directory: &Path, recipe: &str) -> Option<Map<String, Json>> {
  let mut latest: Option<(SystemTime, Map<String, Json>)> = None;
  for entry in fs::read_dir(directory).ok()?.flatten() {
    if !entry.file_name().to_str().is_some_and(is_entry_name) {
      continue;
    }
    let Ok(modified) = entry.metadata().and_then(|metadata| metadata.modified()) else {
      continue;
    };
    if latest.as_ref().is_some_and(|(time, _)| *time >= modified) {
      continue;
    }
    let Ok(contents) = fs::read_to_string(entry.path()) else {
      continue;
    };
    let Ok(Json::Object(mut fields)) = serde_json::from_str::<Json>(&contents) else {
      continue;
    };
    if fields.get("recipe").and_then(Json::as_str) != Some(recipe) {
      continue;
    }
    if let Some(Json::Object(inputs)) = fields.remove("inputs") {
      latest = Some((modified, inputs));
    }
  }
  latest.map(|(_, inputs)| inputs)
}
