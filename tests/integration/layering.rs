//! The import rule of ARCHITECTURE.md: every `crate::…` path in `src/`
//! names the file's own stage or one below it in the pipeline order.

tests! {
  imports_point_down_the_pipeline,
}

use std::{fs, path::Path};

/// Stages from the bottom up. A stage may use its own modules and those of
/// any stage with a lower rank; stages of equal rank do not use each other.
const STAGES: &[(&str, u8)] = &[
  ("text", 0),
  ("color", 0),
  ("platform", 0),
  ("options", 1),
  ("syntax", 2),
  ("search", 2),
  ("builtins", 3),
  ("analysis", 4),
  ("evaluation", 5),
  ("execution", 6),
  ("output", 7),
  ("cli", 8),
  // A driver like `cli`, on top of it, in its own executable (`just-lsp`).
  ("lsp", 9),
];

fn rank(stage: &str) -> Option<u8> {
  STAGES.iter().find(|(name, _)| *name == stage).map(|(_, rank)| *rank)
}

/// The stage a source file belongs to: its first path component under `src/`.
fn stage_of(relative: &Path) -> String {
  let first = relative.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
  first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

/// Drops `//` comments (including doc comments), so prose may mention paths.
fn code_only(source: &str) -> String {
  source
    .lines()
    .map(|line| match line.find("//") {
      Some(index) if !line[..index].contains('"') => &line[..index],
      _ => line,
    })
    .collect::<Vec<_>>()
    .join("\n")
}

/// The first path segment after every `crate::`, expanding `crate::{a::x, b}`.
fn imported_stages(code: &str) -> Vec<String> {
  let mut stages = Vec::new();
  let mut rest = code;
  while let Some(index) = rest.find("crate::") {
    rest = &rest[index + "crate::".len()..];
    if let Some(group) = rest.strip_prefix('{') {
      let mut depth = 1;
      let mut item_start = true;
      for (offset, character) in group.char_indices() {
        match character {
          '{' => depth += 1,
          '}' => {
            depth -= 1;
            if depth == 0 {
              rest = &group[offset..];
              break;
            }
          }
          ',' if depth == 1 => item_start = true,
          c if item_start && depth == 1 && (c.is_alphanumeric() || c == '_') => {
            let name: String =
              group[offset..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            stages.push(name);
            item_start = false;
          }
          _ => {}
        }
      }
    } else {
      let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
      stages.push(name);
    }
  }
  stages
}

fn rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
  for entry in fs::read_dir(dir).unwrap() {
    let path = entry.unwrap().path();
    if path.is_dir() {
      rust_files(&path, files);
    } else if path.extension().is_some_and(|extension| extension == "rs") {
      files.push(path);
    }
  }
}

fn imports_point_down_the_pipeline() {
  let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
  let mut files = Vec::new();
  rust_files(&src, &mut files);
  let mut violations = Vec::new();
  for file in files {
    let relative = file.strip_prefix(&src).unwrap();
    let stage = stage_of(relative);
    // Entry points: the library root and the executables that call it.
    if stage == "lib" || stage == "main" || stage == "bin" {
      continue;
    }
    let own =
      rank(&stage).unwrap_or_else(|| panic!("{} is in no stage of STAGES", relative.display()));
    let code = code_only(&fs::read_to_string(&file).unwrap());
    for target in imported_stages(&code) {
      let allowed = target == stage
        || target == "self"
        || rank(&target).is_some_and(|target_rank| target_rank < own);
      if !allowed {
        violations.push(format!("{} ({stage}) uses crate::{target}", relative.display()));
      }
    }
  }
  violations.sort();
  violations.dedup();
  assert!(violations.is_empty(), "imports that point up the pipeline:\n{}", violations.join("\n"));
}
