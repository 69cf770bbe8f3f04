//! Dotenv loading.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use snafu::Snafu;

use crate::analysis::model::Settings;
use crate::builtins::process::{capture_stdout, shell_command, ProcessError};
use crate::options::Options;

#[derive(Debug, Snafu)]
pub(crate) enum DotenvError {
  #[snafu(display("dotenv command `{command}` failed: {source}"))]
  Command { command: String, source: ProcessError },
  #[snafu(display("failed to load environment file from `{}`: {detail}", path.display()))]
  Parse { path: PathBuf, detail: String },
  #[snafu(display("I/O error at `{}`: {source}", path.display()))]
  Io { path: PathBuf, source: io::Error },
  #[snafu(display(
    "multiple `--dotenv-filename` or `--dotenv-path` arguments require `set lists`"
  ))]
  MultipleArguments,
  #[snafu(display("dotenv file not found"))]
  NotFound,
}

impl DotenvError {
  /// Exit status: a failed dotenv command's own status, else 1.
  pub(crate) fn exit_status(&self) -> i32 {
    match self {
      DotenvError::Command { source, .. } => source.exit_status(),
      _ => 1,
    }
  }
}

/// Per-module facts dotenv loading needs besides the settings and the
/// command line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DotenvOptions<'a> {
  /// The module's base directory (without `set working-directory`).
  pub base_directory: &'a Path,
  pub is_root: bool,
  /// `set lists` in this module.
  pub lists: bool,
  pub dry_run: bool,
  pub quiet: bool,
  /// The module's shell, for dotenv commands.
  pub shell_program: &'a str,
  pub shell_arguments: &'a [String],
  /// Starts and tracks dotenv commands.
  pub supervisor: &'a crate::platform::supervisor::Supervisor,
}

type Map = BTreeMap<String, String>;

/// The module's dotenv variables (only those absent from the process
/// environment unless `dotenv-override`).
pub(crate) fn load(
  options: &DotenvOptions,
  settings: &Settings,
  config: &Options,
) -> Result<Map, DotenvError> {
  if config.no_dotenv {
    return Ok(Map::new());
  }
  let commands = if options.is_root && !config.dotenv_command.is_empty() {
    &config.dotenv_command
  } else {
    &settings.dotenv_command
  };
  if !commands.is_empty() {
    return load_commands(commands, options, settings.dotenv_override);
  }
  if !options.lists && (config.dotenv_filename.len() > 1 || config.dotenv_path.len() > 1) {
    return Err(DotenvError::MultipleArguments);
  }
  let mut entries = Vec::new();
  let found = find_and_parse(options.base_directory, settings, config, &mut entries)?;
  if !found && settings.dotenv_required {
    return Err(DotenvError::NotFound);
  }
  Ok(keep(entries, settings.dotenv_override))
}

/// Keep entries (later win) whose key is not set in the process environment,
/// unless overriding.
fn keep(entries: Vec<(String, String)>, override_environment: bool) -> Map {
  entries
    .into_iter()
    .filter(|(key, _)| override_environment || std::env::var_os(key).is_none())
    .collect()
}

fn load_commands(
  commands: &[String],
  options: &DotenvOptions,
  override_environment: bool,
) -> Result<Map, DotenvError> {
  if options.dry_run {
    return Ok(Map::new());
  }
  let mut entries = Vec::new();
  for command_line in commands {
    let mut command = shell_command(options.shell_program, options.shell_arguments, command_line);
    command.current_dir(options.base_directory);
    let output = capture_stdout(options.supervisor, &mut command, options.quiet)
      .map_err(|source| DotenvError::Command { command: command_line.clone(), source })?;
    parse(output.as_bytes(), options.base_directory, &mut entries)?;
  }
  Ok(keep(entries, override_environment))
}

/// Steps 3–6: explicit paths first, then the name search upwards. Returns
/// whether any file was found.
fn find_and_parse(
  base: &Path,
  settings: &Settings,
  config: &Options,
  entries: &mut Vec<(String, String)>,
) -> Result<bool, DotenvError> {
  let names: Vec<String> = if config.dotenv_filename.is_empty() {
    settings.dotenv_filename.clone()
  } else {
    config.dotenv_filename.clone()
  };
  let paths: Vec<PathBuf> = if config.dotenv_path.is_empty() {
    settings.dotenv_path.iter().map(PathBuf::from).collect()
  } else {
    config.dotenv_path.clone()
  };
  let enabled = settings.dotenv_load || settings.dotenv_override || settings.dotenv_required;
  if !enabled && names.is_empty() && paths.is_empty() {
    return Ok(false);
  }
  let existing_paths: Vec<PathBuf> =
    paths.iter().map(|path| base.join(path)).filter(|path| is_loadable(path)).collect();
  if !existing_paths.is_empty() {
    for path in &existing_paths {
      load_file(path, entries)?;
    }
    return Ok(true);
  }
  let names = if names.is_empty() { vec![".env".to_string()] } else { names };
  for directory in base.ancestors() {
    let files: Vec<PathBuf> =
      names.iter().map(|name| directory.join(name)).filter(|path| is_loadable(path)).collect();
    if !files.is_empty() {
      for file in &files {
        load_file(file, entries)?;
      }
      return Ok(true);
    }
  }
  Ok(false)
}

/// Anything but a directory is read: FIFOs and devices (`<(…)`,
/// `/dev/stdin`) too.
fn is_loadable(path: &Path) -> bool {
  std::fs::metadata(path).is_ok_and(|metadata| !metadata.is_dir())
}

fn load_file(path: &Path, entries: &mut Vec<(String, String)>) -> Result<(), DotenvError> {
  let contents =
    std::fs::read(path).map_err(|source| DotenvError::Io { path: path.to_path_buf(), source })?;
  parse(&contents, path, entries)
}

/// Parse dotenv text; `origin` names the file (or the base directory for
/// command output) in errors.
fn parse(
  contents: &[u8],
  origin: &Path,
  entries: &mut Vec<(String, String)>,
) -> Result<(), DotenvError> {
  for item in dotenvy::from_read_iter(contents) {
    let entry = item.map_err(|error| DotenvError::Parse {
      path: origin.to_path_buf(),
      detail: error.to_string(),
    })?;
    entries.push(entry);
  }
  Ok(())
}

#[cfg(test)]
mod tests {
  use super::*;

  struct Fixture {
    directory: tempfile::TempDir,
    settings: Settings<'static>,
    config: Options,
    shell_arguments: Vec<String>,
  }

  impl Fixture {
    fn new(files: &[(&str, &str)]) -> Self {
      let directory = tempfile::tempdir().unwrap();
      for (name, contents) in files {
        let path = directory.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
      }
      let config = Options::default_for(directory.path().to_path_buf());
      Fixture {
        directory,
        settings: Settings::default(),
        config,
        shell_arguments: vec!["-cu".into()],
      }
    }

    fn base(&self) -> PathBuf {
      self.directory.path().join("project")
    }

    fn load(&self) -> Result<Vec<(String, String)>, String> {
      let base = self.base();
      std::fs::create_dir_all(&base).unwrap();
      let options = DotenvOptions {
        base_directory: &base,
        is_root: true,
        lists: false,
        dry_run: false,
        quiet: true,
        shell_program: "sh",
        shell_arguments: &self.shell_arguments,
        supervisor: &crate::platform::supervisor::Supervisor::detached(false),
      };
      load(&options, &self.settings, &self.config)
        .map(|map| map.into_iter().collect())
        .map_err(|error| error.to_string())
    }
  }

  fn pairs(list: &[(&str, &str)]) -> Result<Vec<(String, String)>, String> {
    Ok(list.iter().map(|(key, value)| (key.to_string(), value.to_string())).collect())
  }

  const FILES: &[(&str, &str)] = &[
    ("project/.env", "JFT_A=root\n"),
    ("project/.custom", "export JFT_B=custom\n"),
    ("project/sub/p.env", "JFT_C=path\n"),
    ("project/bad.env", "JFT_OK=1\nA B\n"),
  ];

  #[test]
  fn observed_table() {
    type Setup = fn(&mut Fixture);
    type Expected = Result<Vec<(String, String)>, String>;
    let cases: [(Setup, Expected); 8] = [
      (|_| {}, pairs(&[])),
      (|f| f.settings.dotenv_load = true, pairs(&[("JFT_A", "root")])),
      (|f| f.settings.dotenv_filename = vec![".custom".into()], pairs(&[("JFT_B", "custom")])),
      (|f| f.settings.dotenv_path = vec!["sub/p.env".into()], pairs(&[("JFT_C", "path")])),
      (|f| f.settings.dotenv_path = vec!["nope.env".into()], pairs(&[("JFT_A", "root")])),
      (|f| f.settings.dotenv_command = vec!["echo JFT_C=cmd".into()], pairs(&[("JFT_C", "cmd")])),
      (|f| f.config.dotenv_filename = vec![".custom".into()], pairs(&[("JFT_B", "custom")])),
      (
        |f| {
          f.settings.dotenv_load = true;
          f.config.no_dotenv = true;
        },
        pairs(&[]),
      ),
    ];
    for (index, (setup, expected)) in cases.into_iter().enumerate() {
      let mut fixture = Fixture::new(FILES);
      setup(&mut fixture);
      assert_eq!(fixture.load(), expected, "case {index}");
    }
  }

  #[test]
  fn errors() {
    let mut fixture = Fixture::new(&[]);
    fixture.settings.dotenv_required = true;
    assert_eq!(fixture.load(), Err("dotenv file not found".into()));

    let mut fixture = Fixture::new(FILES);
    fixture.settings.dotenv_path = vec!["bad.env".into()];
    let path = fixture.base().join("bad.env");
    assert_eq!(
      fixture.load(),
      Err(format!(
        "failed to load environment file from `{}`: Error parsing line: 'A B', error at line index: 2",
        path.display()
      ))
    );

    let mut fixture = Fixture::new(&[]);
    fixture.settings.dotenv_command = vec!["echo A B".into()];
    assert_eq!(
      fixture.load(),
      Err(format!(
        "failed to load environment file from `{}`: Error parsing line: 'A B', error at line index: 2",
        fixture.base().display()
      ))
    );

    let mut fixture = Fixture::new(&[]);
    fixture.config.dotenv_command = vec!["exit 4".into()];
    assert_eq!(
      fixture.load(),
      Err("dotenv command `exit 4` failed: process exited with status code 4".into())
    );

    let mut fixture = Fixture::new(&[]);
    fixture.config.dotenv_filename = vec![".a".into(), ".b".into()];
    assert_eq!(
      fixture.load(),
      Err("multiple `--dotenv-filename` or `--dotenv-path` arguments require `set lists`".into())
    );
  }

  #[test]
  fn search_and_precedence() {
    // Found in an ancestor; several names in one directory, later wins;
    // a directory named like the file is skipped.
    let mut fixture = Fixture::new(&[
      ("a.env", "JFT_X=a\nJFT_Y=a\n"),
      ("b.env", "JFT_Y=b\n"),
      ("project/a.env/f", ""),
    ]);
    fixture.settings.dotenv_filename = vec!["a.env".into(), "b.env".into()];
    assert_eq!(fixture.load(), pairs(&[("JFT_X", "a"), ("JFT_Y", "b")]));

    // Later commands win; the process environment wins unless overriding.
    let mut fixture = Fixture::new(&[]);
    fixture.settings.dotenv_command =
      vec!["echo JFT_Z=1; echo PATH=x".into(), "echo JFT_Z=2".into()];
    assert_eq!(fixture.load(), pairs(&[("JFT_Z", "2")]));
    fixture.settings.dotenv_override = true;
    assert_eq!(fixture.load(), pairs(&[("JFT_Z", "2"), ("PATH", "x")]));
  }

  #[test]
  fn dry_run_skips_commands() {
    let fixture = Fixture::new(&[]);
    let settings = Settings { dotenv_command: vec!["exit 1".into()], ..Settings::default() };
    let base = fixture.directory.path();
    let options = DotenvOptions {
      base_directory: base,
      is_root: false,
      lists: false,
      dry_run: true,
      quiet: true,
      shell_program: "sh",
      shell_arguments: &fixture.shell_arguments,
      supervisor: &crate::platform::supervisor::Supervisor::detached(false),
    };
    assert!(load(&options, &settings, &fixture.config).unwrap().is_empty());
  }
}
