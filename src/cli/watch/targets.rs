//! What `--watch` watches, and which changes count.
//!
//! Everything is watched through directories, non-recursively: a file
//! through its parent (editors replace files on save, which a watch on the
//! file itself would lose), a tree through each of its directories that git
//! does not ignore (so build output such as `target/` costs nothing).

use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;
use lexiclean::Lexiclean;

/// The watched paths of one round, and the rules that filter its events.
#[derive(Default)]
pub(super) struct Targets {
  /// Directories to watch (non-recursively); hashed, as tens of thousands
  /// of paths compare slowly.
  pub directories: HashSet<PathBuf>,
  /// Justfiles, imports and modules: always relevant.
  sources: BTreeSet<PathBuf>,
  /// Named files (`[cache]` inputs, `--watch-path FILE`): relevant even if ignored.
  files: BTreeSet<PathBuf>,
  /// Directory trees whose contents are relevant unless ignored.
  trees: Vec<PathBuf>,
  /// `--watch-path` globs, as absolute patterns.
  globs: GlobSet,
  /// The directories the globs' matches are all under.
  glob_bases: Vec<PathBuf>,
  /// `[cache]` outputs: never relevant, nor anything below them.
  outputs: Vec<PathBuf>,
  ignores: Ignores,
}

/// Where the paths to watch come from.
pub(super) struct Request<'a> {
  pub invocation_directory: &'a Path,
  pub justfile_directory: &'a Path,
  pub watch_paths: &'a [String],
  pub sources: &'a BTreeSet<PathBuf>,
  pub inputs: &'a BTreeSet<PathBuf>,
  pub outputs: &'a BTreeSet<PathBuf>,
}

impl Targets {
  pub(super) fn new(request: &Request) -> Result<Targets, String> {
    let mut targets = Targets {
      sources: request.sources.clone(),
      files: request.inputs.clone(),
      // The cache's own entries are outputs too.
      outputs: request
        .outputs
        .iter()
        .cloned()
        .chain([request.justfile_directory.join(crate::execution::cache::DIRECTORY)])
        .collect(),
      ..Targets::default()
    };
    let mut globs = GlobSetBuilder::new();
    let mut glob_bases = Vec::new();
    for written in request.watch_paths {
      let path = request.invocation_directory.join(written).lexiclean();
      if path.is_dir() {
        targets.trees.push(path);
      } else if !path.exists() && is_glob(written) {
        let glob = GlobBuilder::new(&path.to_string_lossy())
          .literal_separator(true)
          .build()
          .map_err(|error| format!("invalid `--watch-path` glob `{written}`: {error}"))?;
        globs.add(glob);
        glob_bases.push(glob_base(&path));
      } else if path.parent().is_some_and(Path::is_dir) {
        targets.files.insert(path);
      } else {
        return Err(format!("`--watch-path` `{written}` does not exist"));
      }
    }
    targets.globs =
      globs.build().map_err(|error| format!("invalid `--watch-path` glob: {error}"))?;
    if targets.files.is_empty() && targets.trees.is_empty() && glob_bases.is_empty() {
      targets.trees.push(request.justfile_directory.to_path_buf());
    }
    targets.glob_bases.clone_from(&glob_bases);
    let walked: Vec<PathBuf> = targets.trees.iter().cloned().chain(glob_bases).collect();
    for root in &walked {
      targets.ignores.add_ancestors(root);
    }
    for root in &walked {
      targets.walk(root);
    }
    let parents: Vec<PathBuf> = (targets.sources.iter().chain(&targets.files))
      .filter_map(|file| file.parent().map(Path::to_path_buf))
      .collect();
    targets.directories.extend(parents);
    Ok(targets)
  }

  /// Add every directory below `root` that git does not ignore, reading the
  /// `.gitignore` files met on the way. One `read_dir` per directory, a
  /// level of the tree at a time, the directories of a large level read on
  /// every core (the ignore rules are then applied in order): the listing
  /// shows which directories have a `.gitignore` or are a repository's top,
  /// and the kind of each entry (a symbolic link is not followed). A
  /// directory that cannot be read is listed all the same: watching it
  /// fails and is reported then, once.
  fn walk(&mut self, root: &Path) {
    self.directories.insert(root.to_path_buf());
    let mut level = vec![root.to_path_buf()];
    while !level.is_empty() {
      let mut next = Vec::new();
      for listing in list_all(level) {
        if listing.repository {
          self.ignores.add_file(&listing.directory, &listing.directory.join(".git/info/exclude"));
        }
        if listing.gitignore {
          self.ignores.add_file(&listing.directory, &listing.directory.join(".gitignore"));
        }
        for child in listing.children {
          let skipped = self.outputs.contains(&child) || self.ignores.is_ignored(&child, true);
          if !skipped && self.directories.insert(child.clone()) {
            next.push(child);
          }
        }
      }
      level = next;
    }
  }

  /// The ignore files that could not be read whole, with why.
  pub(super) fn ignore_problems(&self) -> &[(PathBuf, String)] {
    &self.ignores.problems
  }

  /// Whether `path` is under a watched tree or glob base and not ignored:
  /// a directory created there is watched too.
  pub(super) fn covers(&self, path: &Path) -> bool {
    let under = self.trees.iter().chain(&self.glob_bases).any(|root| path.starts_with(root));
    under
      && !self.outputs.iter().any(|output| path.starts_with(output))
      && !self.ignores.is_ignored(path, true)
  }

  /// `directory` and the directories below it that git does not ignore,
  /// when the targets cover it.
  pub(super) fn directories_below(&self, directory: &Path) -> Vec<PathBuf> {
    if !self.covers(directory) {
      return Vec::new();
    }
    let mut below = Targets { outputs: self.outputs.clone(), ..Targets::default() };
    below.walk(directory);
    below.directories.into_iter().filter(|path| !self.ignores.is_ignored(path, true)).collect()
  }

  /// Whether a change of `path` calls for a new run.
  pub(super) fn is_relevant(&self, path: &Path) -> bool {
    if self.sources.contains(path) {
      return true;
    }
    if self.outputs.iter().any(|output| path.starts_with(output)) {
      return false;
    }
    if self.files.contains(path) {
      return true;
    }
    let watched = self.trees.iter().any(|tree| path.starts_with(tree)) || self.globs.is_match(path);
    watched && !self.ignores.is_ignored(path, path.is_dir())
  }
}

/// What a directory's listing tells the walk.
struct Listing {
  directory: PathBuf,
  /// Its subdirectories, `.git` aside.
  children: Vec<PathBuf>,
  gitignore: bool,
  /// It has a `.git` directory.
  repository: bool,
}

fn list(directory: PathBuf) -> Listing {
  let mut listing =
    Listing { directory, children: Vec::new(), gitignore: false, repository: false };
  let Ok(entries) = fs::read_dir(&listing.directory) else {
    return listing;
  };
  for entry in entries.flatten() {
    let Ok(kind) = entry.file_type() else {
      continue;
    };
    let name = entry.file_name();
    if kind.is_dir() {
      if name == ".git" {
        listing.repository = true;
      } else {
        listing.children.push(entry.path());
      }
    } else if name == ".gitignore" {
      listing.gitignore = true;
    }
  }
  listing
}

/// Below this many directories a level is listed on one thread.
const PARALLEL_LEVEL: usize = 256;

/// The listings of `directories`, in their order. A large level is
/// listed by a thread per core, taking chunks from a shared queue (the
/// calling thread too, so the work gets done even where no thread starts).
fn list_all(directories: Vec<PathBuf>) -> Vec<Listing> {
  let threads = std::thread::available_parallelism().map_or(1, usize::from).min(8);
  if threads < 2 || directories.len() < PARALLEL_LEVEL {
    return directories.into_iter().map(list).collect();
  }
  let size = directories.len().div_ceil(threads * 4);
  let mut chunks = Vec::new();
  let mut rest = directories;
  while !rest.is_empty() {
    let tail = rest.split_off(size.min(rest.len()));
    chunks.push((chunks.len(), rest));
    rest = tail;
  }
  let queue = Mutex::new(chunks);
  let done = Mutex::new(Vec::new());
  let work = || loop {
    let Some((index, chunk)) = lock(&queue).pop() else {
      break;
    };
    let listings: Vec<Listing> = chunk.into_iter().map(list).collect();
    lock(&done).push((index, listings));
  };
  std::thread::scope(|scope| {
    let work = &work;
    for _ in 1..threads {
      // A thread that cannot start leaves its share to the others.
      let _ = std::thread::Builder::new().spawn_scoped(scope, work);
    }
    work();
  });
  let mut done = done.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
  done.sort_by_key(|(index, _)| *index);
  done.into_iter().flat_map(|(_, listings)| listings).collect()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
  mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn is_glob(text: &str) -> bool {
  text.contains(['*', '?', '[', '{'])
}

/// The directory a glob's matches are all under: its leading literal components.
fn glob_base(pattern: &Path) -> PathBuf {
  pattern
    .components()
    .take_while(|component| !is_glob(&component.as_os_str().to_string_lossy()))
    .collect()
}

/// Git's ignore rules: `.gitignore` files (each applying below its
/// directory), `.git/info/exclude` and the global excludes file.
#[derive(Default)]
struct Ignores {
  /// (directory, its rules), in the order added.
  local: Vec<(PathBuf, Gitignore)>,
  /// Repository tops (or walked roots outside a repository): the global
  /// excludes apply relative to them.
  tops: Vec<PathBuf>,
  global: Option<Gitignore>,
  seen: BTreeSet<PathBuf>,
  /// Ignore files not read whole (unreadable, or with lines that are no
  /// pattern), with why: the watcher warns of each once.
  problems: Vec<(PathBuf, String)>,
}

impl Ignores {
  /// The `.gitignore` files above `root` up to its repository's top, and
  /// that repository's exclude file.
  fn add_ancestors(&mut self, root: &Path) {
    if self.global.is_none() {
      let (global, error) = Gitignore::global();
      if let Some(error) = error {
        let file = file_of(&error).unwrap_or_else(|| PathBuf::from("core.excludesFile"));
        self.problems.push((file, reason(error)));
      }
      self.global = Some(global);
    }
    let mut top = root.to_path_buf();
    for directory in root.ancestors() {
      self.add_file(directory, &directory.join(".gitignore"));
      if directory.join(".git").exists() {
        self.add_file(directory, &directory.join(".git/info/exclude"));
        top = directory.to_path_buf();
        break;
      }
    }
    self.tops.push(top);
  }

  fn add_file(&mut self, directory: &Path, file: &Path) {
    if !file.is_file() || !self.seen.insert(file.to_path_buf()) {
      return;
    }
    let mut builder = GitignoreBuilder::new(directory);
    // A file with bad lines still applies its good ones, as git does.
    if let Some(error) = builder.add(file) {
      self.problems.push((file.to_path_buf(), reason(error)));
    }
    match builder.build() {
      Ok(rules) => self.local.push((directory.to_path_buf(), rules)),
      Err(error) => self.problems.push((file.to_path_buf(), reason(error))),
    }
  }

  fn is_ignored(&self, path: &Path, is_dir: bool) -> bool {
    if path.components().any(|component| component.as_os_str() == ".git") {
      return true;
    }
    let mut applicable: Vec<&(PathBuf, Gitignore)> =
      self.local.iter().filter(|(directory, _)| path.starts_with(directory)).collect();
    // The deepest file decides, as in git.
    applicable.sort_by_key(|(directory, _)| std::cmp::Reverse(directory.components().count()));
    for (directory, rules) in applicable {
      match matched(rules, directory, path, is_dir) {
        Match::Ignore(()) => return true,
        Match::Whitelist(()) => return false,
        Match::None => {}
      }
    }
    let top =
      self.tops.iter().filter(|top| path.starts_with(top)).max_by_key(|top| top.as_os_str().len());
    match (top, &self.global) {
      (Some(top), Some(global)) => matched(global, top, path, is_dir).is_ignore(),
      _ => false,
    }
  }
}

/// Why an ignore file was not read whole, without its path (the warning
/// names the file).
fn reason(error: ignore::Error) -> String {
  match error {
    ignore::Error::WithPath { err, .. } => reason(*err),
    ignore::Error::Partial(errors) => {
      errors.into_iter().map(reason).collect::<Vec<String>>().join("; ")
    }
    other => other.to_string(),
  }
}

/// The file an error of ignore rules names, if any.
fn file_of(error: &ignore::Error) -> Option<PathBuf> {
  match error {
    ignore::Error::WithPath { path, .. } => Some(path.clone()),
    ignore::Error::Partial(errors) => errors.iter().find_map(file_of),
    ignore::Error::WithLineNumber { err, .. } | ignore::Error::WithDepth { err, .. } => {
      file_of(err)
    }
    _ => None,
  }
}

/// Match `path` (below `directory`) against rules relative to `directory`.
fn matched(rules: &Gitignore, directory: &Path, path: &Path, is_dir: bool) -> Match<()> {
  let Ok(relative) = path.strip_prefix(directory) else {
    return Match::None;
  };
  if relative.as_os_str().is_empty() {
    return Match::None;
  }
  match rules.matched_path_or_any_parents(relative, is_dir) {
    Match::Ignore(_) => Match::Ignore(()),
    Match::Whitelist(_) => Match::Whitelist(()),
    Match::None => Match::None,
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn glob_base_is_the_literal_prefix() {
    assert_eq!(glob_base(Path::new("/a/b/**/*.rs")), PathBuf::from("/a/b"));
    assert_eq!(glob_base(Path::new("/a/src*/x")), PathBuf::from("/a"));
  }

  #[test]
  fn deepest_gitignore_decides() {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path();
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join(".gitignore"), "*.log\nbuild/\n").unwrap();
    std::fs::write(root.join("sub/.gitignore"), "!keep.log\n").unwrap();
    let mut ignores = Ignores::default();
    ignores.add_file(root, &root.join(".gitignore"));
    ignores.add_file(&root.join("sub"), &root.join("sub/.gitignore"));
    assert!(ignores.is_ignored(&root.join("a.log"), false));
    assert!(ignores.is_ignored(&root.join("build/x/y.c"), false));
    assert!(ignores.is_ignored(&root.join(".git/index"), false));
    assert!(!ignores.is_ignored(&root.join("sub/keep.log"), false));
    assert!(!ignores.is_ignored(&root.join("a.c"), false));
  }

  #[test]
  fn unreadable_gitignore_is_a_problem_and_its_neighbours_still_apply() {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path();
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join(".gitignore"), "*.log\n").unwrap();
    // Not UTF-8: not readable as lines, even by root.
    std::fs::write(root.join("sub/.gitignore"), b"*.tmp\n\xff\xfe\n").unwrap();
    let mut ignores = Ignores::default();
    ignores.add_file(root, &root.join(".gitignore"));
    ignores.add_file(&root.join("sub"), &root.join("sub/.gitignore"));
    let problem =
      (root.join("sub/.gitignore"), "line 2: stream did not contain valid UTF-8".into());
    assert_eq!(ignores.problems, [problem]);
    assert!(ignores.is_ignored(&root.join("sub/a.log"), false));
  }
}
