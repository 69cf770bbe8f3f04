//! `workspace/symbol`: the recipes, variables, functions, aliases and
//! modules of the open documents and of the files they import or load as
//! modules (found as `just` finds them), whose names contain the query.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use lsp_types::{Location, Range, SymbolInformation, SymbolKind, Uri};

use super::documents::{self, Documents};
use super::outline::{self, Kind};
use super::positions;

#[allow(deprecated)] // `SymbolInformation::deprecated` must still be given.
pub(super) fn symbols(query: &str, documents: &Documents) -> Vec<SymbolInformation> {
  let query = query.to_lowercase();
  let mut files: Vec<PathBuf> = documents.paths().cloned().collect();
  files.sort();
  let mut seen: HashSet<PathBuf> = HashSet::new();
  let mut found = Vec::new();
  while let Some(file) = files.pop() {
    if !seen.insert(file.clone()) || seen.len() > 1000 {
      continue;
    }
    let Some(text) = documents.justfile_text(&file) else { continue };
    let Ok(uri) = documents::path_uri(&file).parse::<Uri>() else { continue };
    let directory = file.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut cursor = positions::Cursor::new(&text);
    for definition in outline::definitions(&text) {
      let kind = match &definition.kind {
        Kind::Recipe { .. } => SymbolKind::FUNCTION,
        Kind::Variable { .. } => SymbolKind::VARIABLE,
        Kind::Function { .. } => SymbolKind::FUNCTION,
        Kind::Alias { .. } => SymbolKind::CONSTANT,
        Kind::Module { path, .. } => {
          files.extend(module_files(&directory, &definition.name, path.as_deref()));
          SymbolKind::MODULE
        }
        Kind::Import { path } => {
          files.push(directory.join(path));
          continue;
        }
      };
      if !definition.name.to_lowercase().contains(&query) {
        continue;
      }
      found.push(SymbolInformation {
        name: definition.name.clone(),
        kind,
        tags: None,
        deprecated: None,
        location: Location {
          uri: uri.clone(),
          range: Range {
            start: cursor.position(definition.start),
            end: cursor.position(definition.end),
          },
        },
        container_name: file.file_name().map(|name| name.to_string_lossy().into_owned()),
      });
    }
  }
  found.sort_by(|a, b| a.name.cmp(&b.name));
  found
}

/// The files of module `name` declared in `directory` (with its written
/// `path`), found as `just` finds them.
pub(super) fn module_files(directory: &Path, name: &str, path: Option<&str>) -> Vec<PathBuf> {
  let base = if let Some(path) = path {
    directory.join(path)
  } else {
    let file = directory.join(format!("{name}.just"));
    if file.is_file() {
      return vec![file];
    }
    directory.join(name)
  };
  if base.is_file() {
    return vec![base];
  }
  ["mod.just", "justfile", ".justfile", "Justfile"]
    .into_iter()
    .map(|file| base.join(file))
    .filter(|file| file.is_file())
    .collect()
}
