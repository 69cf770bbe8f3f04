//! The project stands on its own: its code and design documents explain
//! themselves, or point to the repository's own documents, never to files
//! kept elsewhere.

use std::fs;
use std::path::{Path, PathBuf};

tests! {
  sources_and_design_documents_cite_nothing_outside_the_repository,
}

/// Mentions that point outside the repository: the working notes the
/// implementation was written from, and section numbers into them.
const FOREIGN_REFERENCES: &[&str] =
  &["language.md", "cli-and-execution.md", "reference.md", "formatting.md", "shared/spec", "§"];

fn sources(directory: &Path, found: &mut Vec<PathBuf>) {
  let mut entries: Vec<PathBuf> = fs::read_dir(directory)
    .unwrap_or_else(|error| panic!("reading {}: {error}", directory.display()))
    .map(|entry| entry.expect("directory entry").path())
    .collect();
  entries.sort();
  for path in entries {
    if path.is_dir() {
      sources(&path, found);
    } else {
      found.push(path);
    }
  }
}

/// `path:line: text` for every line of `path` that mentions a foreign reference.
fn foreign_references(root: &Path, path: &Path) -> Vec<String> {
  let text =
    fs::read_to_string(path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
  let relative = path.strip_prefix(root).unwrap_or(path).display().to_string();
  text
    .lines()
    .enumerate()
    .filter(|(_, line)| FOREIGN_REFERENCES.iter().any(|reference| line.contains(reference)))
    .map(|(index, line)| format!("{relative}:{}: {}", index + 1, line.trim()))
    .collect()
}

fn sources_and_design_documents_cite_nothing_outside_the_repository() {
  let root = Path::new(env!("CARGO_MANIFEST_DIR"));
  let mut files = vec![root.join("GRAMMAR.md"), root.join("ARCHITECTURE.md")];
  sources(&root.join("src"), &mut files);
  assert!(files.len() > 2, "no sources found under {}", root.join("src").display());
  let offending: Vec<String> =
    files.iter().flat_map(|path| foreign_references(root, path)).collect();
  assert!(
    offending.is_empty(),
    "state the rule in place or point to README.md, GRAMMAR.md or ARCHITECTURE.md:\n{}",
    offending.join("\n")
  );
}
