//! Table cases: data files read at run time, one trial per case.
//!
//! Every `tests/cases/**/*.toml` holds `[[case]]` tables:
//!
//! ```toml
//! [[case]]
//! name = "nearest_justfile_wins"  # the test is `<subject>::<name>`
//! justfile = '''                  # omitted: no justfile is written
//! x:
//!   @echo root
//! '''
//! files = { "a/justfile" = '''…''' }  # more files, relative to the temp dir
//! dirs = ["a/b"]                  # directories to create
//! symlinks = { "loop.just" = "loop.just" }  # link → target (Unix)
//! cwd = "a/b"                     # where to run, relative to the temp dir
//! env = { KEY = "value" }         # on top of PATH, HOME and NO_COLOR=1
//! stdin = '''…'''
//! args = ["--list"]
//! expect_files = { "justfile" = '''…''' }  # contents after the run
//! stdout = '''…'''                # or stdout_regex = '…' (whole stream)
//! stderr = '''…'''                # or stderr_regex = '…'
//! status = 0
//! differs = "why just 1.58 prints something else"
//! ```
//!
//! `{{TMP}}` in args, env, files and expected output stands for the
//! canonical temporary directory.
//!
//! The Windows cases, `tests/windows/**/*.toml`, have the same format; they
//! run only when `JUST_TEST_WINDOWS` names a Windows binary (`just
//! test-windows`), as `windows::<subject>::<name>`. A file that does not parse, or a case
//! that is not well-formed, becomes a failing test naming it.

use std::{
  collections::BTreeMap,
  fs,
  path::{Path, PathBuf},
  sync::Mutex,
};

use libtest_mimic::{Failed, Trial};
use serde::Deserialize;
use toml_edit::{DocumentMut, Item, Table, Value};

use crate::common::Test;

/// What the case trials do.
pub(crate) enum Mode {
  /// Compare with the expected outputs.
  Check,
  /// Rewrite the expected outputs from this reference binary.
  Record(PathBuf),
}

impl Mode {
  /// `JUST_RECORD` set to anything but `0` or empty asks for recording, from
  /// the binary named by `JUST_REFERENCE`.
  pub(crate) fn from_environment() -> Result<Mode, String> {
    let recording =
      std::env::var_os("JUST_RECORD").is_some_and(|value| value != "0" && !value.is_empty());
    if !recording {
      return Ok(Mode::Check);
    }
    let Some(reference) = std::env::var_os("JUST_REFERENCE").filter(|value| !value.is_empty())
    else {
      return Err("JUST_RECORD needs JUST_REFERENCE=/path/to/just (the reference binary)".into());
    };
    let reference = PathBuf::from(reference);
    if !reference.is_file() {
      return Err(format!("JUST_REFERENCE: `{}` is not a file", reference.display()));
    }
    Ok(Mode::Record(reference))
  }
}

pub(crate) fn recording() -> bool {
  matches!(Mode::from_environment(), Ok(Mode::Record(_)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
  #[serde(default)]
  case: Vec<Case>,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
  name: String,
  justfile: Option<String>,
  #[serde(default)]
  files: BTreeMap<String, String>,
  #[serde(default)]
  dirs: Vec<String>,
  #[serde(default)]
  symlinks: BTreeMap<String, String>,
  #[serde(default)]
  cwd: String,
  #[serde(default)]
  env: BTreeMap<String, String>,
  #[serde(default)]
  stdin: String,
  #[serde(default)]
  args: Vec<String>,
  #[serde(default)]
  expect_files: BTreeMap<String, String>,
  stdout: Option<String>,
  stdout_regex: Option<String>,
  stderr: Option<String>,
  stderr_regex: Option<String>,
  #[serde(default)]
  status: i32,
  differs: Option<String>,
}

impl Case {
  fn problems(&self) -> Option<String> {
    if self.name.is_empty() || !self.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
      return Some(format!("case name `{}` is not snake_case", self.name));
    }
    if self.stdout.is_some() && self.stdout_regex.is_some() {
      return Some(format!("case `{}` has both stdout and stdout_regex", self.name));
    }
    if self.stderr.is_some() && self.stderr_regex.is_some() {
      return Some(format!("case `{}` has both stderr and stderr_regex", self.name));
    }
    None
  }

  fn test(&self) -> Test {
    let mut test = Test::new();
    if let Some(justfile) = &self.justfile {
      test = test.justfile(justfile);
    }
    for (path, contents) in &self.files {
      test = test.write(path, contents);
    }
    for dir in &self.dirs {
      test = test.dir(dir);
    }
    for (link, target) in &self.symlinks {
      test = test.symlink(link, target);
    }
    for (key, value) in &self.env {
      test = test.env(key, value);
    }
    for (path, contents) in &self.expect_files {
      test = test.expect_file(path, contents);
    }
    test = match &self.stdout_regex {
      Some(pattern) => test.stdout_regex(pattern),
      None => test.stdout(self.stdout.as_deref().unwrap_or_default()),
    };
    test = match &self.stderr_regex {
      Some(pattern) => test.stderr_regex(pattern),
      None => test.stderr(self.stderr.as_deref().unwrap_or_default()),
    };
    test.args(&self.args).stdin(&self.stdin).current_dir(&self.cwd).status(self.status)
  }
}

/// The directory holding the case files: `tests/cases`, or `tests/windows`
/// when the binary under test is a Windows one (`JUST_TEST_WINDOWS`).
fn cases_directory() -> PathBuf {
  let folder = if windows() { "windows" } else { "cases" };
  Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(folder)
}

/// Whether the suite runs the Windows cases under Wine.
pub(crate) fn windows() -> bool {
  crate::common::windows_binary().is_some()
}

/// One trial per case of every case file, in file order.
pub(crate) fn trials(mode: &Mode) -> Vec<Trial> {
  let root = cases_directory();
  let mut files = Vec::new();
  if let Err(error) = collect_case_files(&root, &mut files) {
    return vec![failing("cases::directory_is_readable", format!("{}: {error}", root.display()))];
  }
  files.sort();
  files.iter().flat_map(|path| file_trials(&root, path, mode)).collect()
}

fn collect_case_files(directory: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
  for entry in fs::read_dir(directory)? {
    let path = entry?.path();
    if path.is_dir() {
      collect_case_files(&path, files)?;
    } else if path.extension().is_some_and(|extension| extension == "toml") {
      files.push(path);
    }
  }
  Ok(())
}

/// `settings/dotenv.toml` → `settings::dotenv`.
fn subject(root: &Path, path: &Path) -> String {
  let relative = path.strip_prefix(root).unwrap_or(path).with_extension("");
  let mut parts: Vec<String> =
    relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
  if windows() {
    parts.insert(0, "windows".into());
  }
  parts.join("::")
}

fn file_trials(root: &Path, path: &Path, mode: &Mode) -> Vec<Trial> {
  let subject = subject(root, path);
  let malformed = |message: String| {
    vec![failing(
      &format!("{subject}::case_file_is_well_formed"),
      format!("{}: {message}", path.display()),
    )]
  };
  let text = match fs::read_to_string(path) {
    Ok(text) => text,
    Err(error) => return malformed(error.to_string()),
  };
  let file: CaseFile = match toml_edit::de::from_str(&text) {
    Ok(file) => file,
    Err(error) => return malformed(error.to_string()),
  };
  if let Some(problem) = file.case.iter().find_map(Case::problems) {
    return malformed(problem);
  }
  file.case.into_iter().map(|case| case_trial(&subject, path, case, mode)).collect()
}

fn failing(name: &str, message: String) -> Trial {
  Trial::test(name, move || Err(Failed::from(message)))
}

fn case_trial(subject: &str, path: &Path, case: Case, mode: &Mode) -> Trial {
  let name = format!("{subject}::{}", case.name);
  let differs = case.differs.is_some();
  match mode {
    Mode::Check => Trial::test(name, move || case.test().try_run().map(drop).map_err(Failed::from))
      .with_ignored_flag(differs && crate::harness::against_other_binary()),
    Mode::Record(reference) => {
      let (path, reference) = (path.to_owned(), reference.clone());
      Trial::test(name, move || record(&path, &case, &reference).map_err(Failed::from))
        .with_ignored_flag(differs)
    }
  }
}

/// Serialises rewrites of case files by parallel trials.
static REWRITE: Mutex<()> = Mutex::new(());

/// Run `case` with the reference and write what it printed into the case
/// file as the expected output, leaving the rest of the file as it is.
fn record(path: &Path, case: &Case, reference: &Path) -> Result<(), String> {
  let output = case.test().binary(reference).capture()?;
  let tmp = crate::common::shown_path(&output.root);
  let placeholder = |text: &str| crate::common::abstract_tmp(text, &tmp);
  let mut expect_files = Vec::new();
  for file in case.expect_files.keys() {
    let contents = fs::read_to_string(output.root.join(file))
      .map_err(|error| format!("reference left no readable `{file}`: {error}"))?;
    expect_files.push((file.clone(), placeholder(&contents)));
  }
  let _guard = REWRITE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
  let text = fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
  let mut document: DocumentMut =
    text.parse().map_err(|error| format!("{}: {error}", path.display()))?;
  let table = case_table(&mut document, &case.name)
    .ok_or_else(|| format!("{}: no case named `{}`", path.display(), case.name))?;
  for key in ["expect_files", "stdout", "stderr", "status"] {
    table.remove(key);
  }
  if !expect_files.is_empty() {
    set(table, "expect_files", &inline_table(&expect_files))?;
  }
  if case.stdout_regex.is_none() && !output.stdout.is_empty() {
    set(table, "stdout", &toml_text(&placeholder(&output.stdout)))?;
  }
  if case.stderr_regex.is_none() && !output.stderr.is_empty() {
    set(table, "stderr", &toml_text(&placeholder(&output.stderr)))?;
  }
  if output.status != 0 {
    set(table, "status", &output.status.to_string())?;
  }
  fs::write(path, document.to_string()).map_err(|error| format!("{}: {error}", path.display()))
}

fn case_table<'a>(document: &'a mut DocumentMut, name: &str) -> Option<&'a mut Table> {
  document
    .get_mut("case")?
    .as_array_of_tables_mut()?
    .iter_mut()
    .find(|table| table.get("name").and_then(Item::as_str) == Some(name))
}

fn set(table: &mut Table, key: &str, rendered: &str) -> Result<(), String> {
  let mut value: Value =
    rendered.parse().map_err(|error| format!("rendering `{key}` as TOML: {error}"))?;
  value.decor_mut().clear();
  table.insert(key, Item::Value(value));
  Ok(())
}

fn inline_table(entries: &[(String, String)]) -> String {
  let entries: Vec<String> =
    entries.iter().map(|(key, text)| format!("{} = {}", toml_key(key), toml_text(text))).collect();
  format!("{{ {} }}", entries.join(", "))
}

fn toml_key(key: &str) -> String {
  let bare = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
  if !key.is_empty() && key.chars().all(bare) {
    key.to_owned()
  } else {
    basic_string(key)
  }
}

/// Renders text as a TOML string: a literal `'''` block for multi-line text
/// where that can hold it exactly, else a literal or an escaped basic string.
fn toml_text(text: &str) -> String {
  let control = |c: char| (c < ' ' && c != '\t' && c != '\n') || c == '\u{7f}';
  if text.is_empty() {
    "''".to_owned()
  } else if text.contains('\n') {
    if text.contains("'''") || text.ends_with('\'') || text.chars().any(control) {
      basic_string(text)
    } else {
      format!("'''\n{text}'''")
    }
  } else if text.contains('\'') || text.chars().any(control) {
    basic_string(text)
  } else {
    format!("'{text}'")
  }
}

fn basic_string(text: &str) -> String {
  let mut out = String::from("\"");
  for c in text.chars() {
    match c {
      '\\' => out.push_str("\\\\"),
      '"' => out.push_str("\\\""),
      '\n' => out.push_str("\\n"),
      '\t' => out.push_str("\\t"),
      '\r' => out.push_str("\\r"),
      c if c < ' ' || c == '\u{7f}' => out.push_str(&format!("\\u{:04X}", u32::from(c))),
      c => out.push(c),
    }
  }
  out.push('"');
  out
}
