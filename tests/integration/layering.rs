//! The import rule of ARCHITECTURE.md: every `crate::…` path in `src/`
//! names the file's own stage or one below it in the pipeline order; the
//! files of the analysis stage import each other without a cycle, and so do
//! the modules of the command line, execution, syntax and language server
//! stages, and the files of the platform layer.

tests! {
  imports_point_down_the_pipeline,
  analysis_files_import_each_other_without_a_cycle,
  cli_modules_import_each_other_without_a_cycle,
  execution_modules_import_each_other_without_a_cycle,
  syntax_modules_import_each_other_without_a_cycle,
  lsp_modules_import_each_other_without_a_cycle,
  platform_files_import_each_other_without_a_cycle,
}

use std::collections::BTreeMap;
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
  // A driver like `cli`, on top of it, in its own executable (`just-language-server`).
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
  first_segments(code, "crate::")
}

/// The first path segment after every `prefix`, expanding `prefix{a::x, b}`.
fn first_segments(code: &str, prefix: &str) -> Vec<String> {
  let mut stages = Vec::new();
  let mut rest = code;
  while let Some(index) = rest.find(prefix) {
    rest = &rest[index + prefix.len()..];
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

/// The sibling files each file of `src/analysis/` names (`super::x`,
/// `crate::analysis::x`), its tests included, by file name.
fn analysis_imports() -> BTreeMap<String, Vec<String>> {
  let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/analysis");
  let mut files = Vec::new();
  rust_files(&dir, &mut files);
  let name = |path: &Path| path.file_stem().unwrap().to_string_lossy().into_owned();
  let names: Vec<String> = files.iter().map(|path| name(path)).collect();
  let mut imports = BTreeMap::new();
  for file in &files {
    let own = name(file);
    if own == "mod" {
      continue;
    }
    let code = code_only(&fs::read_to_string(file).unwrap());
    let mut targets = first_segments(&code, "super::");
    targets.extend(first_segments(&code, "crate::analysis::"));
    targets.retain(|target| *target != own && names.contains(target));
    targets.sort();
    targets.dedup();
    imports.insert(own, targets);
  }
  imports
}

/// A cycle through `file` (as the files on it), depth first from `file`;
/// `finished` holds the files known to lead to no cycle.
fn cycle_from(
  file: &str,
  imports: &BTreeMap<String, Vec<String>>,
  path: &mut Vec<String>,
  finished: &mut Vec<String>,
) -> Option<Vec<String>> {
  if let Some(start) = path.iter().position(|on_path| on_path == file) {
    let mut cycle = path[start..].to_vec();
    cycle.push(file.to_owned());
    return Some(cycle);
  }
  if finished.iter().any(|done| done == file) {
    return None;
  }
  path.push(file.to_owned());
  for target in imports.get(file).into_iter().flatten() {
    if let Some(cycle) = cycle_from(target, imports, path, finished) {
      return Some(cycle);
    }
  }
  path.pop();
  finished.push(file.to_owned());
  None
}

fn analysis_files_import_each_other_without_a_cycle() {
  let imports = analysis_imports();
  assert!(imports.get("analyzer").is_some_and(|targets| targets.contains(&"model".to_owned())));
  let mut finished = Vec::new();
  for file in imports.keys() {
    if let Some(cycle) = cycle_from(file, &imports, &mut Vec::new(), &mut finished) {
      panic!("files of src/analysis/ import each other in a cycle: {}", cycle.join(" → "));
    }
  }
}

/// The modules of `src/FOLDER/` (a file, or a folder of files, such as
/// `cli/flags/`) each one's files name (`crate::FOLDER::x`, `super::x` from
/// a module's own file, `super::super::x` from a file inside a module's
/// folder). Tests are left out: a module's tests may use what stands above
/// it (`quick.rs`'s compare it with clap through `config.rs`).
fn module_imports(folder: &str) -> BTreeMap<String, Vec<String>> {
  let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(folder);
  let mut files = Vec::new();
  rust_files(&dir, &mut files);
  let stem = |name: &std::ffi::OsStr| {
    let name = name.to_string_lossy();
    name.strip_suffix(".rs").unwrap_or(&name).to_owned()
  };
  let module = |path: &Path| stem(path.strip_prefix(&dir).unwrap().iter().next().unwrap());
  let modules: Vec<String> = files.iter().map(|path| module(path)).collect();
  let mut imports: BTreeMap<String, Vec<String>> = BTreeMap::new();
  for file in &files {
    let own = module(file);
    let name = stem(file.file_name().unwrap());
    // Tests, and the helpers only tests use (`testing.rs`).
    if own == "mod" || name == "tests" || name == "testing" || name.ends_with("_tests") {
      continue;
    }
    let inside = file.strip_prefix(&dir).unwrap().iter().count() - 1;
    // A folder's `mod.rs` is its module's own file.
    let depth = inside - usize::from(inside > 0 && file.ends_with("mod.rs"));
    let source = fs::read_to_string(file).unwrap();
    let code = code_only(source.split("#[cfg(test)]").next().unwrap());
    let mut targets = first_segments(&code, &format!("crate::{folder}::"));
    targets.extend(first_segments(&code, &format!("{}::", vec!["super"; depth + 1].join("::"))));
    targets.retain(|target| *target != own && modules.contains(target));
    let entry = imports.entry(own).or_default();
    entry.extend(targets);
    entry.sort();
    entry.dedup();
  }
  imports
}

/// Panics with the first cycle among the modules of `src/FOLDER/`.
fn assert_no_cycle(folder: &str, imports: &BTreeMap<String, Vec<String>>) {
  let mut finished = Vec::new();
  for module in imports.keys() {
    if let Some(cycle) = cycle_from(module, imports, &mut Vec::new(), &mut finished) {
      panic!("modules of src/{folder}/ import each other in a cycle: {}", cycle.join(" → "));
    }
  }
}

/// The flag table imports nothing of the command line; the driver stands
/// on top of everything else in it.
fn cli_modules_import_each_other_without_a_cycle() {
  let imports = module_imports("cli");
  assert_eq!(imports.get("flags"), Some(&Vec::new()));
  assert!(imports.get("run").is_some_and(|targets| targets.contains(&"watch".to_owned())));
  assert!(imports.get("watch").is_some_and(|targets| targets.contains(&"recipes".to_owned())));
  assert_no_cycle("cli", &imports);
}

/// Neither runner of a recipe's body imports the other or the cache.
fn execution_modules_import_each_other_without_a_cycle() {
  let imports = module_imports("execution");
  for runner in ["linewise", "script"] {
    assert!(imports.get(runner).is_some_and(|targets| targets.contains(&"body".to_owned())));
    let importers: Vec<&String> = imports
      .iter()
      .filter(|(_, targets)| targets.iter().any(|target| target == runner))
      .map(|(module, _)| module)
      .collect();
    assert_eq!(importers, ["runner"], "{runner}");
  }
  assert_no_cycle("execution", &imports);
}

fn syntax_modules_import_each_other_without_a_cycle() {
  let imports = module_imports("syntax");
  assert!(imports.get("trees").is_some_and(|targets| targets.contains(&"ast".to_owned())));
  assert_no_cycle("syntax", &imports);
}

/// The server loop hands requests to the features; the documents keep the
/// projects read from them, and a project knows nothing of the documents.
fn lsp_modules_import_each_other_without_a_cycle() {
  let imports = module_imports("lsp");
  assert!(imports.get("server").is_some_and(|targets| targets.contains(&"features".to_owned())));
  assert!(imports.get("documents").is_some_and(|targets| targets.contains(&"project".to_owned())));
  assert_no_cycle("lsp", &imports);
}

/// Every path that follows `prefix` in `code` (not as the tail of a longer
/// path), as its segments; a group (`a::{b, c::{d, e}}`) gives one path
/// per item.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
  let mut paths = Vec::new();
  let mut rest = code;
  while let Some(index) = rest.find(prefix) {
    let before = rest[..index].chars().next_back();
    rest = &rest[index + prefix.len()..];
    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
      continue;
    }
    paths.extend(path_tree(rest, Vec::new()).0);
  }
  paths
}

/// The paths `text` starts with, each after the segments `head`, and what
/// follows them.
fn path_tree(text: &str, mut head: Vec<String>) -> (Vec<Vec<String>>, &str) {
  let mut rest = text;
  loop {
    rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
      let mut paths = Vec::new();
      let mut item = group;
      loop {
        let (found, after) = path_tree(item, head.clone());
        paths.extend(found);
        // Past a renaming (`self as os`) to the end of the item.
        let after = &after[after.find([',', '}']).unwrap_or(after.len())..];
        match after.chars().next() {
          Some(',') => item = &after[1..],
          Some('}') => return (paths, &after[1..]),
          _ => return (paths, after),
        }
      }
    }
    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if name.is_empty() {
      return (vec![head], rest);
    }
    rest = &rest[name.len()..];
    head.push(name);
    match rest.strip_prefix("::") {
      Some(after) => rest = after,
      None => return (vec![head], rest),
    }
  }
}

/// `source` up to its test module (`#[cfg(test)] mod …`), whose imports
/// may reach anywhere.
fn without_test_module(source: &str) -> &str {
  let attribute = "#[cfg(test)]";
  let mut searched = 0;
  while let Some(index) = source[searched..].find(attribute) {
    let at = searched + index;
    if source[at + attribute.len()..].trim_start().starts_with("mod ") {
      return &source[..at];
    }
    searched = at + attribute.len();
  }
  source
}

/// The files of `src/platform/` each file names (`super::…`,
/// `crate::platform::…`), by path under it without `.rs` (`supervisor`,
/// `unix/dir`): each path is resolved to the file of the module it reaches.
/// `os`, the operating system's module, is `unix/` and `windows/` both, and
/// a name `mod.rs` re-exports from it (`platform::dir`) is theirs. The root
/// `mod.rs`, which declares the files, and tests are left out.
fn platform_file_imports() -> BTreeMap<String, Vec<String>> {
  let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/platform");
  let mut files = Vec::new();
  rust_files(&dir, &mut files);
  let key = |path: &Path| {
    path.strip_prefix(&dir).unwrap().with_extension("").to_string_lossy().replace('\\', "/")
  };
  // The module path of a file: its folders (either system's is `os`), then
  // its name unless it is its folder's `mod.rs`.
  let module_of = |key: &str| {
    let mut segments: Vec<String> = key
      .split('/')
      .map(|segment| if segment == "unix" || segment == "windows" { "os" } else { segment })
      .map(str::to_owned)
      .collect();
    if segments.last().is_some_and(|last| last == "mod") {
      segments.pop();
    }
    segments
  };
  let mut modules: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
  for file in &files {
    let key = key(file);
    modules.entry(module_of(&key)).or_default().push(key);
  }
  let root = code_only(&fs::read_to_string(dir.join("mod.rs")).unwrap());
  for reexported in paths_after(&root, "use os::") {
    let mut original = vec!["os".to_owned()];
    original.extend(reexported.iter().cloned());
    if let Some(found) = modules.get(&original).cloned() {
      modules.insert(reexported, found);
    }
  }
  let mut imports = BTreeMap::new();
  for file in &files {
    let own = key(file);
    let module = module_of(&own);
    if module.is_empty() {
      continue;
    }
    let code = code_only(without_test_module(&fs::read_to_string(file).unwrap()));
    let parent = &module[..module.len() - 1];
    let mut paths: Vec<Vec<String>> = paths_after(&code, "super::")
      .into_iter()
      .map(|mut path| {
        let mut base = parent.to_vec();
        while path.first().is_some_and(|segment| segment == "super") {
          path.remove(0);
          base.pop();
        }
        base.extend(path);
        base
      })
      .collect();
    paths.extend(paths_after(&code, "crate::platform::"));
    let mut targets = Vec::new();
    for path in paths {
      let reached = (1..=path.len()).rev().find_map(|length| modules.get(&path[..length]));
      targets.extend(reached.into_iter().flatten().filter(|target| **target != own).cloned());
    }
    targets.sort();
    targets.dedup();
    imports.insert(own, targets);
  }
  imports
}

/// The supervisor attaches itself to the signal wiring, never the other
/// way round; the standard streams stand on either system's writers.
fn platform_files_import_each_other_without_a_cycle() {
  let imports = platform_file_imports();
  let imports_of = |file: &str, target: &str| {
    imports.get(file).is_some_and(|targets| targets.iter().any(|name| name == target))
  };
  assert!(imports_of("supervisor", "signals"));
  assert!(imports_of("stdio", "unix/streams") && imports_of("stdio", "windows/streams"));
  assert!(imports_of("unix/process", "unix/descendants"));
  let mut finished = Vec::new();
  for file in imports.keys() {
    if let Some(cycle) = cycle_from(file, &imports, &mut Vec::new(), &mut finished) {
      panic!("files of src/platform/ import each other in a cycle: {}", cycle.join(" → "));
    }
  }
}
