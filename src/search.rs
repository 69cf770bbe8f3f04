//! Finding the justfile.

use std::{
  fs,
  io::{self, Read},
  path::{Path, PathBuf},
  sync::Arc,
};

use snafu::{ResultExt, Snafu};
use tempfile::TempDir;

use crate::options::{Options, SearchConfig};

/// The default names of a justfile, matched ASCII-case-insensitively.
pub(crate) const DEFAULT_NAMES: &[&str] = &["justfile", ".justfile"];

/// Directory entries that mark a project root.
const PROJECT_ROOT_MARKERS: &[&str] = &[".bzr", ".git", ".hg", ".svn", "_darcs"];

/// The located justfile.
#[derive(Debug, Clone)]
pub(crate) struct Search {
  /// Absolute path of the justfile as `justfile()` shows it (for stdin and
  /// Markdown justfiles: the `justfile` written to a temporary directory).
  pub justfile: PathBuf,
  /// Working directory of the root module.
  pub working_directory: PathBuf,
  /// Text to compile when it is not the file's own (stdin, tangled Markdown).
  pub source: Option<String>,
  /// Found by upward search (so `set fallback` applies).
  pub searched: bool,
  /// Keeps the temporary directory of a stdin or Markdown justfile alive.
  pub _temporary_directory: Option<Arc<TempDir>>,
}

#[derive(Debug, Snafu)]
pub(crate) enum SearchError {
  #[snafu(display("I/O error at `{}`: {source}", directory.display()))]
  Io { directory: PathBuf, source: io::Error },
  #[snafu(display(
    "multiple candidate justfiles found in `{}`: {}",
    directory.display(),
    crate::text::ticked(candidates, "and")
  ))]
  MultipleCandidates { directory: PathBuf, candidates: Vec<String> },
  #[snafu(display("no justfile found"))]
  NotFound,
  #[snafu(display("global justfile not found"))]
  GlobalNotFound,
  #[snafu(display("justfile path had no parent: {}", path.display()))]
  NoParent { path: PathBuf },
  #[snafu(display("failed to read justfile at `{}`: {source}", path.display()))]
  ReadJustfile { path: PathBuf, source: io::Error },
  #[snafu(display("error reading from standard input: {source}"))]
  Stdin { source: io::Error },
  #[snafu(display("failed to write temporary justfile: {source}"))]
  TemporaryJustfile { source: io::Error },
}

/// Locate the justfile the configuration asks for.
pub(crate) fn find(config: &Options) -> Result<Search, SearchError> {
  match &config.search {
    SearchConfig::FromInvocationDirectory => {
      search_upward_from(&config.invocation_directory, config)
    }
    SearchConfig::FromSearchDirectory { search_directory } => {
      search_upward_from(search_directory, config)
    }
    SearchConfig::WithJustfile { justfile, working_directory } => {
      let parent = parent_of(justfile)?;
      let working_directory = working_directory.clone().unwrap_or(parent);
      located(justfile.clone(), working_directory, false, config)
    }
    SearchConfig::Stdin { working_directory } => {
      let mut source = String::new();
      io::stdin().read_to_string(&mut source).context(StdinSnafu)?;
      let working_directory =
        working_directory.clone().unwrap_or_else(|| config.invocation_directory.clone());
      with_temporary_justfile(source, working_directory, config)
    }
    SearchConfig::Global => {
      let justfile = global_justfile().ok_or(SearchError::GlobalNotFound)?;
      let working_directory = project_root(&config.invocation_directory, config.ceiling.as_deref());
      located(justfile, working_directory, false, config)
    }
  }
}

fn parent_of(justfile: &Path) -> Result<PathBuf, SearchError> {
  justfile
    .parent()
    .map(Path::to_path_buf)
    .ok_or_else(|| SearchError::NoParent { path: justfile.to_path_buf() })
}

fn search_upward_from(start: &Path, config: &Options) -> Result<Search, SearchError> {
  let justfile = find_upward(start, config)?.ok_or(SearchError::NotFound)?;
  let working_directory = parent_of(&justfile)?;
  located(justfile, working_directory, true, config)
}

/// Finish a search result, tangling Markdown justfiles.
fn located(
  justfile: PathBuf,
  working_directory: PathBuf,
  searched: bool,
  config: &Options,
) -> Result<Search, SearchError> {
  if is_markdown(&justfile) {
    let text =
      fs::read_to_string(&justfile).context(ReadJustfileSnafu { path: justfile.clone() })?;
    let mut search = with_temporary_justfile(tangle(&text), working_directory, config)?;
    search.searched = searched;
    return Ok(search);
  }
  Ok(Search { justfile, working_directory, source: None, searched, _temporary_directory: None })
}

fn is_markdown(path: &Path) -> bool {
  path
    .extension()
    .and_then(|extension| extension.to_str())
    .is_some_and(|extension| extension.eq_ignore_ascii_case("md"))
}

/// Write `source` as `justfile` into a fresh `just-` temporary directory.
fn with_temporary_justfile(
  source: String,
  working_directory: PathBuf,
  config: &Options,
) -> Result<Search, SearchError> {
  let mut builder = tempfile::Builder::new();
  builder.prefix("just-");
  let directory = match &config.tempdir {
    Some(parent) => builder.tempdir_in(parent),
    None => builder.tempdir(),
  }
  .context(TemporaryJustfileSnafu)?;
  let justfile = directory.path().join("justfile");
  fs::write(&justfile, &source).context(TemporaryJustfileSnafu)?;
  Ok(Search {
    justfile,
    working_directory,
    source: Some(source),
    searched: false,
    _temporary_directory: Some(Arc::new(directory)),
  })
}

/// The justfile in `from` or its nearest ancestor (stopping after the
/// ceiling), or None. Used for the initial search and for `set fallback`.
pub(crate) fn find_upward(from: &Path, config: &Options) -> Result<Option<PathBuf>, SearchError> {
  let names = justfile_names(config);
  for directory in from.ancestors() {
    if let Some(justfile) = candidate_in(directory, &names)? {
      return Ok(Some(justfile));
    }
    if is_ceiling(directory, config.ceiling.as_deref()) {
      break;
    }
  }
  Ok(None)
}

fn justfile_names(config: &Options) -> Vec<String> {
  match &config.justfile_names {
    Some(names) => names.clone(),
    None => DEFAULT_NAMES.iter().map(|name| name.to_string()).collect(),
  }
}

fn is_ceiling(directory: &Path, ceiling: Option<&Path>) -> bool {
  ceiling.is_some_and(|ceiling| ceiling == directory)
}

/// The single entry of `directory` matching one of `names`.
fn candidate_in(directory: &Path, names: &[String]) -> Result<Option<PathBuf>, SearchError> {
  let io_error = |source| SearchError::Io { directory: directory.to_path_buf(), source };
  let mut candidates = Vec::new();
  for entry in fs::read_dir(directory).map_err(io_error)? {
    let entry = entry.map_err(io_error)?;
    let Ok(file_name) = entry.file_name().into_string() else {
      continue;
    };
    if names.iter().any(|name| name.eq_ignore_ascii_case(&file_name)) {
      candidates.push(file_name);
    }
  }
  candidates.sort();
  match candidates.as_slice() {
    [] => Ok(None),
    [name] => Ok(Some(directory.join(name))),
    _ => Err(SearchError::MultipleCandidates { directory: directory.to_path_buf(), candidates }),
  }
}

/// The first ancestor of `start` (itself included, stopping after the
/// ceiling) containing a version-control marker; `start` when there is none.
pub(crate) fn project_root(start: &Path, ceiling: Option<&Path>) -> PathBuf {
  for directory in start.ancestors() {
    let is_root = PROJECT_ROOT_MARKERS
      .iter()
      .any(|marker| fs::symlink_metadata(directory.join(marker)).is_ok());
    if is_root {
      return directory.to_path_buf();
    }
    if is_ceiling(directory, ceiling) {
      break;
    }
  }
  start.to_path_buf()
}

/// The global justfile candidates, in order; the first that exists wins.
fn global_justfile() -> Option<PathBuf> {
  let home = dirs::home_dir();
  let candidates: Vec<(PathBuf, &str)> = [
    dirs::config_dir().map(|config| (config.join("just"), "justfile")),
    home.as_ref().map(|home| (home.join(".config").join("just"), "justfile")),
    home.as_ref().map(|home| (home.clone(), "justfile")),
    home.as_ref().map(|home| (home.clone(), ".justfile")),
  ]
  .into_iter()
  .flatten()
  .collect();
  candidates.iter().find_map(|(directory, name)| entry_named(directory, name))
}

/// An entry of `directory` whose name equals `name` ignoring ASCII case.
fn entry_named(directory: &Path, name: &str) -> Option<PathBuf> {
  fs::read_dir(directory).ok()?.flatten().find_map(|entry| {
    let file_name = entry.file_name().into_string().ok()?;
    file_name.eq_ignore_ascii_case(name).then(|| directory.join(file_name))
  })
}

/// A fence line: indentation (≤ 3 spaces), fence character, fence length, info string.
struct Fence<'a> {
  indent: usize,
  character: char,
  length: usize,
  info: &'a str,
}

fn fence(line: &str) -> Option<Fence<'_>> {
  let trimmed = line.trim_start_matches(' ');
  let indent = line.len() - trimmed.len();
  let character = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
  let length = trimmed.chars().take_while(|c| *c == character).count();
  if indent > 3 || length < 3 {
    return None;
  }
  let info = &trimmed[length..];
  if character == '`' && info.contains('`') {
    return None;
  }
  Some(Fence { indent, character, length, info })
}

/// Markdown → justfile source: lines inside fenced `just` code blocks whose
/// opening fence is at column 0 are kept, every other line becomes empty, so
/// line numbers are preserved.
pub(crate) fn tangle(markdown: &str) -> String {
  let mut output = String::with_capacity(markdown.len());
  let mut open: Option<(char, usize, bool)> = None;
  for line in markdown.split_inclusive('\n') {
    let (content, ending) = match line.strip_suffix('\n') {
      Some(content) => (content.strip_suffix('\r').unwrap_or(content), "\n"),
      None => (line, ""),
    };
    let keep = if let Some((character, length, is_just)) = open {
      let closes = fence(content).is_some_and(|fence| {
        fence.character == character && fence.length >= length && fence.info.trim().is_empty()
      });
      if closes {
        open = None;
        false
      } else {
        is_just
      }
    } else {
      if let Some(fence) = fence(content) {
        let is_just = fence.indent == 0 && fence.info.split_whitespace().next() == Some("just");
        open = Some((fence.character, fence.length, is_just));
      }
      false
    };
    if keep {
      output.push_str(content);
    }
    output.push_str(ending);
  }
  output
}

#[cfg(test)]
mod tests {
  use super::*;
  use std::fs::File;

  fn config_in(directory: &Path) -> Options {
    Options::default_for(directory.to_path_buf())
  }

  fn touch(path: &Path) {
    if let Some(parent) = path.parent() {
      fs::create_dir_all(parent).unwrap();
    }
    File::create(path).unwrap();
  }

  #[test]
  fn finds_justfile_in_ancestor() {
    let tmp = tempfile::tempdir().unwrap();
    touch(&tmp.path().join("Justfile"));
    let start = tmp.path().join("a/b");
    fs::create_dir_all(&start).unwrap();
    let search = find(&config_in(&start)).unwrap();
    assert_eq!(search.justfile, tmp.path().join("Justfile"));
    assert_eq!(search.working_directory, tmp.path());
    assert!(search.searched);
    assert_eq!(search.source, None);
  }

  #[test]
  fn multiple_candidates() {
    let tmp = tempfile::tempdir().unwrap();
    touch(&tmp.path().join("justfile"));
    touch(&tmp.path().join(".justfile"));
    let error = find(&config_in(tmp.path())).unwrap_err();
    assert_eq!(
      error.to_string(),
      format!(
        "multiple candidate justfiles found in `{}`: `.justfile` and `justfile`",
        tmp.path().display()
      )
    );
  }

  #[test]
  fn justfile_names_replace_defaults() {
    let tmp = tempfile::tempdir().unwrap();
    touch(&tmp.path().join("justfile"));
    touch(&tmp.path().join("BUILD.just"));
    let mut config = config_in(tmp.path());
    config.justfile_names = Some(vec!["build.just".into()]);
    assert_eq!(find(&config).unwrap().justfile, tmp.path().join("BUILD.just"));
  }

  #[test]
  fn ceiling_stops_search() {
    let tmp = tempfile::tempdir().unwrap();
    touch(&tmp.path().join("justfile"));
    let start = tmp.path().join("foo/bar");
    fs::create_dir_all(&start).unwrap();

    let mut config = config_in(&start);
    config.ceiling = Some(tmp.path().join("foo"));
    assert_eq!(find(&config).unwrap_err().to_string(), "no justfile found");
    assert_eq!(find_upward(&start, &config).unwrap(), None);

    config.ceiling = Some(tmp.path().join("foo/bar/.."));
    assert!(find(&config).is_ok(), "a non-normalised ceiling never matches");

    config.ceiling = Some(tmp.path().to_path_buf());
    assert!(find(&config).is_ok(), "the ceiling itself is examined");
  }

  #[test]
  fn with_justfile() {
    let tmp = tempfile::tempdir().unwrap();
    let mut config = config_in(tmp.path());
    config.search =
      SearchConfig::WithJustfile { justfile: tmp.path().join("x/j"), working_directory: None };
    let search = find(&config).unwrap();
    assert_eq!(search.justfile, tmp.path().join("x/j"));
    assert_eq!(search.working_directory, tmp.path().join("x"));
    assert!(!search.searched);

    config.search =
      SearchConfig::WithJustfile { justfile: "/".into(), working_directory: Some("/tmp".into()) };
    assert_eq!(find(&config).unwrap_err().to_string(), "justfile path had no parent: /");
  }

  #[test]
  fn markdown_justfile_is_tangled() {
    let tmp = tempfile::tempdir().unwrap();
    let markdown = tmp.path().join("README.MD");
    fs::write(&markdown, "# x\n```just\na:\n  echo a\n```\n").unwrap();
    let mut config = config_in(tmp.path());
    config.search = SearchConfig::WithJustfile { justfile: markdown, working_directory: None };
    let search = find(&config).unwrap();
    assert_eq!(search.source.as_deref(), Some("\n\na:\n  echo a\n\n"));
    assert_eq!(search.working_directory, tmp.path());
    assert!(search.justfile.ends_with("justfile"));
    assert_eq!(fs::read_to_string(&search.justfile).unwrap(), "\n\na:\n  echo a\n\n");
  }

  #[test]
  fn tangling() {
    let cases = [
      ("```just\na:\n  ```\nb:\n", "\na:\n\n\n"),
      ("````\nc:\n```\nd:\n````\n", "\n\n\n\n\n"),
      ("~~~just\ne:\n~~~\n", "\ne:\n\n"),
      ("```python\n```just\nh:\n```\n", "\n\n\n\n"),
      ("```JUST\ni:\n```\n", "\n\n\n"),
      ("``` just\nj:\n```", "\nj:\n"),
      ("```just,x\nk:\n```\n", "\n\n\n"),
      ("  ```just\nl:\n```\n", "\n\n\n"),
      ("```just extra\nm:\n", "\nm:\n"),
      ("```just\r\nn:\r\n```\r\n", "\nn:\n\n"),
    ];
    for (markdown, expected) in cases {
      assert_eq!(tangle(markdown), expected, "{markdown:?}");
    }
  }

  #[test]
  fn project_roots() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join(".git")).unwrap();
    let start = tmp.path().join("foo/bar");
    fs::create_dir_all(&start).unwrap();
    assert_eq!(project_root(&start, None), tmp.path());
    assert_eq!(project_root(&start, Some(&tmp.path().join("foo"))), start);
    fs::create_dir_all(start.join("_darcs")).unwrap();
    assert_eq!(project_root(&start, None), start);
  }
}
