//! The files a `[cache]` recipe's `inputs` name: plain paths as written, and
//! glob patterns expanded to the files they match, in one fixed order (by
//! path), so the key is the same wherever the recipe runs.

use std::path::{Path, PathBuf};

/// Whether `path` is read as a pattern: it has a glob character and no file
/// of that very name exists.
fn is_pattern(working_directory: &Path, path: &str) -> bool {
  path.contains(['*', '?', '[']) && !working_directory.join(path).exists()
}

/// An input file: the path as the key names it, and where it is.
pub(super) struct Input {
  pub name: String,
  pub path: PathBuf,
}

/// Expand `paths` against `working_directory`: the inputs sorted by name,
/// each once. A pattern that matches no file is an error naming it.
pub(super) fn expand(working_directory: &Path, paths: &[String]) -> Result<Vec<Input>, String> {
  let mut inputs = Vec::new();
  for path in paths {
    if is_pattern(working_directory, path) {
      let before = inputs.len();
      matches(working_directory, path, &mut inputs)?;
      if inputs.len() == before {
        return Err(format!("cache input pattern `{path}` matches no file"));
      }
    } else {
      inputs.push(Input { name: path.clone(), path: working_directory.join(path) });
    }
  }
  inputs.sort_by(|a, b| a.name.cmp(&b.name));
  inputs.dedup_by(|a, b| a.name == b.name);
  Ok(inputs)
}

fn matches(working_directory: &Path, pattern: &str, inputs: &mut Vec<Input>) -> Result<(), String> {
  if pattern.contains("**") {
    return deep_matches(working_directory, pattern, inputs);
  }
  let base = glob::Pattern::escape(&working_directory.to_string_lossy());
  let full = format!("{base}/{pattern}");
  let options = glob::MatchOptions { require_literal_separator: true, ..Default::default() };
  let paths = glob::glob_with(&full, options)
    .map_err(|error| format!("invalid cache input pattern `{pattern}`: {}", error.msg))?;
  for path in paths {
    let path = path.map_err(|error| {
      format!("failed to read cache input pattern `{pattern}`: {}", error.error())
    })?;
    if !path.is_file() {
      continue;
    }
    let Ok(relative) = path.strip_prefix(working_directory) else {
      continue;
    };
    let name = relative
      .components()
      .map(|component| component.as_os_str().to_string_lossy())
      .collect::<Vec<_>>()
      .join("/");
    inputs.push(Input { name, path });
  }
  Ok(())
}

/// A `**` pattern: the files below the pattern's literal leading directories
/// that match it, each directory visited once however many symbolic links
/// lead to it (a walk through a link loop ends).
fn deep_matches(
  working_directory: &Path,
  pattern: &str,
  inputs: &mut Vec<Input>,
) -> Result<(), String> {
  let compiled = glob::Pattern::new(pattern)
    .map_err(|error| format!("invalid cache input pattern `{pattern}`: {}", error.msg))?;
  let options = glob::MatchOptions { require_literal_separator: true, ..Default::default() };
  let literal: Vec<&str> =
    pattern.split('/').take_while(|part| !part.contains(['*', '?', '['])).collect();
  let literal = &literal[..literal.len().min(pattern.split('/').count() - 1)];
  let start = literal.join("/");
  let mut visited = std::collections::HashSet::new();
  // Breadth first, in name order: a directory reached by several paths is
  // named by the shortest, first in order, wherever the recipe runs.
  let mut pending = std::collections::VecDeque::from([start]);
  while let Some(relative) = pending.pop_front() {
    let directory = working_directory.join(&relative);
    let Ok(canonical) = std::fs::canonicalize(&directory) else {
      continue;
    };
    if !visited.insert(canonical) {
      continue;
    }
    let Ok(entries) = std::fs::read_dir(&directory) else {
      continue;
    };
    let mut names = Vec::new();
    for entry in entries {
      let entry = entry
        .map_err(|error| format!("failed to read cache input pattern `{pattern}`: {error}"))?;
      names.push(entry.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    for name in names {
      let path = directory.join(&name);
      let child = if relative.is_empty() { name } else { format!("{relative}/{name}") };
      if path.is_dir() {
        pending.push_back(child);
      } else if path.is_file() && compiled.matches_with(&child, options) {
        inputs.push(Input { name: child, path });
      }
    }
  }
  Ok(())
}
