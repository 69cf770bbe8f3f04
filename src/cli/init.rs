//! `--init`: write a starter justfile, never
//! overwriting an existing file.

use std::{
  fs, io,
  path::{Path, PathBuf},
};

use snafu::Snafu;

use crate::{
  cli::{
    config::{Config, SearchConfig},
    error::Error,
  },
  search::project_root,
};

/// The exact text written by `--init`.
pub(crate) const INIT_JUSTFILE: &str =
  "# https://just.systems\n\ndefault:\n    echo 'Hello, world!'\n";

#[derive(Debug, Snafu)]
pub(crate) enum InitError {
  #[snafu(display("justfile `{}` already exists", path.display()))]
  AlreadyExists { path: PathBuf },
  #[snafu(display("cannot initialize global justfile"))]
  Global,
  #[snafu(display("cannot use justfile from standard input with `--init`"))]
  Stdin,
  #[snafu(display("failed to write justfile to `{}`: {source}", path.display()))]
  Write { path: PathBuf, source: io::Error },
  #[snafu(display("I/O error at `{}`: {source}", path.display()))]
  Inspect { path: PathBuf, source: io::Error },
}

impl From<InitError> for Error<'_> {
  fn from(error: InitError) -> Self {
    Error::plain(error.to_string(), 1)
  }
}

/// Write the starter justfile; returns the message for stderr (without a
/// trailing newline; the caller suppresses it under `--quiet`).
pub(crate) fn init(config: &Config) -> Result<String, InitError> {
  let path = target(config)?;
  write_new(&path)?;
  Ok(format!("wrote justfile to `{}`", path.display()))
}

/// Where `--init` writes: the `-f` path, or the first justfile name in the
/// project root of the search start.
pub(crate) fn target(config: &Config) -> Result<PathBuf, InitError> {
  let start = match &config.search {
    SearchConfig::WithJustfile { justfile, .. } => return Ok(justfile.clone()),
    SearchConfig::Stdin { .. } => return Err(InitError::Stdin),
    SearchConfig::Global => return Err(InitError::Global),
    SearchConfig::FromInvocationDirectory => config.invocation_directory.as_path(),
    SearchConfig::FromSearchDirectory { search_directory } => search_directory.as_path(),
  };
  let name = config
    .justfile_names
    .as_ref()
    .and_then(|names| names.first().cloned())
    .unwrap_or_else(|| "justfile".to_owned());
  Ok(project_root(start, config.ceiling.as_deref()).join(name))
}

/// Only an existing regular file (or a link to one) stops `--init`; anything
/// else at the path is written through, as just 1.58 does.
fn write_new(path: &Path) -> Result<(), InitError> {
  match fs::metadata(path) {
    Ok(metadata) if metadata.is_file() => {
      return Err(InitError::AlreadyExists { path: path.to_path_buf() })
    }
    Ok(_) => {}
    Err(error) if error.kind() == io::ErrorKind::NotFound => {}
    Err(source) => return Err(InitError::Inspect { path: path.to_path_buf(), source }),
  }
  fs::write(path, INIT_JUSTFILE)
    .map_err(|source| InitError::Write { path: path.to_path_buf(), source })
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn writes_in_project_root_and_never_overwrites() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join(".git")).unwrap();
    let start = tmp.path().join("foo/bar");
    fs::create_dir_all(&start).unwrap();
    let config = Config::default_for(start);

    let justfile = tmp.path().join("justfile");
    assert_eq!(init(&config).unwrap(), format!("wrote justfile to `{}`", justfile.display()));
    assert_eq!(fs::read_to_string(&justfile).unwrap(), INIT_JUSTFILE);

    fs::write(&justfile, "keep").unwrap();
    assert_eq!(
      init(&config).unwrap_err().to_string(),
      format!("justfile `{}` already exists", justfile.display())
    );
    assert_eq!(fs::read_to_string(&justfile).unwrap(), "keep");
  }

  #[test]
  fn ceiling_bounds_project_root() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join(".git")).unwrap();
    let start = tmp.path().join("foo/bar");
    fs::create_dir_all(&start).unwrap();
    let mut config = Config::default_for(start.clone());
    config.ceiling = Some(tmp.path().join("foo"));
    init(&config).unwrap();
    assert!(start.join("justfile").is_file());
    assert!(!tmp.path().join("justfile").exists());
  }

  #[test]
  fn targets() {
    let tmp = tempfile::tempdir().unwrap();
    let mut config = Config::default_for(tmp.path().to_path_buf());
    config.justfile_names = Some(vec!["a".into(), "b".into()]);
    assert_eq!(target(&config).unwrap(), tmp.path().join("a"));

    config.search =
      SearchConfig::WithJustfile { justfile: tmp.path().join("x.md"), working_directory: None };
    assert_eq!(target(&config).unwrap(), tmp.path().join("x.md"));

    config.search = SearchConfig::Global;
    assert_eq!(target(&config).unwrap_err().to_string(), "cannot initialize global justfile");

    config.search = SearchConfig::Stdin { working_directory: None };
    assert_eq!(
      target(&config).unwrap_err().to_string(),
      "cannot use justfile from standard input with `--init`"
    );
  }
}
