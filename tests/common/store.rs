//! The shared `[cache]` store's test projects: a workspace of checkouts of
//! one cached recipe that counts its runs, what a run of it must print, the
//! checks every kind of store passes (shared between checkouts, restored
//! after an undo), and a `--cache-dir` store's records read and forged.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value as Json;

use super::text;

pub(crate) const JUSTFILE: &str = r#"set unstable
set lists

[cache(inputs=['src/*.txt'], outputs=['out', 'bin'])]
build:
  #!/bin/sh
  echo "building from $(cat src/a.txt)"
  echo "a warning" >&2
  mkdir -p out/sub
  cat src/a.txt > out/sub/file
  ln -sf sub/file out/link
  printf '#!/bin/sh\necho hi\n' > bin
  chmod 750 bin
  echo ran >> "$COUNTER"
"#;

pub(crate) const BUILT: &str = "building from A\n";

/// A workspace: checkouts of one project in different directories, and a
/// counter of the recipe's runs.
pub(crate) struct Workspace {
  pub(crate) root: tempfile::TempDir,
}

impl Workspace {
  pub(crate) fn new() -> Self {
    Workspace { root: tempfile::tempdir().expect("tempdir") }
  }

  pub(crate) fn checkout(&self, name: &str, source: &str) -> PathBuf {
    let directory = self.root.path().join(name);
    fs::create_dir_all(directory.join("src")).expect("checkout");
    fs::write(directory.join("justfile"), JUSTFILE).expect("justfile");
    fs::write(directory.join("src/a.txt"), source).expect("source");
    directory
  }

  pub(crate) fn runs(&self) -> usize {
    fs::read_to_string(self.root.path().join("count")).map_or(0, |text| text.lines().count())
  }

  /// `just STORE… build` in `checkout`, the recipe counting its runs.
  pub(crate) fn command(&self, checkout: &Path, store: &[&str]) -> Command {
    let mut command = super::just_in(checkout, store);
    command.env("COUNTER", self.root.path().join("count")).arg("build");
    command
  }

  pub(crate) fn just(&self, checkout: &Path, store: &[&str]) -> Output {
    self.command(checkout, store).output().expect("run just")
  }
}

/// The run succeeded, printed what the recipe prints and warned `warnings` times.
pub(crate) fn assert_built(output: &Output, warnings: usize) {
  let stderr = text(&output.stderr);
  assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
  assert_eq!(text(&output.stdout), BUILT, "stderr: {stderr}");
  let (warned, rest): (Vec<&str>, Vec<&str>) =
    stderr.split_inclusive('\n').partition(|line| line.starts_with("warning: "));
  assert_eq!(warned.len(), warnings, "stderr: {stderr}");
  assert_eq!(rest.concat(), "a warning\n", "stderr: {stderr}");
}

/// The umask of this process (the tests run `just` with it).
#[cfg(unix)]
pub(crate) fn umask() -> u32 {
  let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
  status
    .lines()
    .find_map(|line| line.strip_prefix("Umask:"))
    .and_then(|mask| u32::from_str_radix(mask.trim(), 8).ok())
    .unwrap_or(0o022)
}

#[cfg(unix)]
pub(crate) fn mode(path: &Path) -> u32 {
  use std::os::unix::fs::PermissionsExt;
  fs::symlink_metadata(path).expect("metadata").permissions().mode() & 0o7777
}

/// Make a symbolic link at `link` to `target`.
#[cfg(unix)]
pub(crate) fn symlink(target: &str, link: &Path) {
  std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// Both checkouts hold the same outputs, byte for byte and mode for mode.
pub(crate) fn assert_same_outputs(a: &Path, b: &Path, source: &str) {
  assert_eq!(fs::read_to_string(b.join("out/sub/file")).expect("output"), source);
  for path in ["out/sub/file", "bin"] {
    assert_eq!(fs::read(a.join(path)).expect("a"), fs::read(b.join(path)).expect("b"), "{path}");
    assert_eq!(mode(&a.join(path)), mode(&b.join(path)), "mode of {path}");
  }
  assert_eq!(mode(&b.join("bin")), 0o750);
  assert_eq!(fs::read_link(b.join("out/link")).expect("link"), Path::new("sub/file"));
}

pub(crate) fn shares_between_checkouts(store: &[&str], setup: impl Fn(&mut Command)) {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let b = workspace.checkout("elsewhere/b", "A\n");
  let run = |checkout: &Path| {
    let mut command = workspace.command(checkout, store);
    setup(&mut command);
    command.output().expect("run just")
  };
  let first = run(&a);
  assert_built(&first, 0);
  let second = run(&b);
  assert_built(&second, 0);
  assert_eq!(second.stdout, first.stdout);
  assert_eq!(second.stderr, first.stderr);
  assert_eq!(workspace.runs(), 1, "the second checkout ran the recipe");
  assert_same_outputs(&a, &b, "A\n");
}

pub(crate) fn restores_after_undo(store: &[&str]) {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, store), 0);
  fs::write(a.join("src/a.txt"), "B\n").expect("edit");
  assert_eq!(workspace.just(&a, store).status.code(), Some(0));
  fs::write(a.join("src/a.txt"), "A\n").expect("undo");
  assert_built(&workspace.just(&a, store), 0);
  assert_eq!(workspace.runs(), 2, "A was restored, not rebuilt");
  assert_eq!(fs::read_to_string(a.join("out/sub/file")).expect("output"), "A\n");
}

/// The flag that names the directory store at `store`.
pub(crate) fn store_flag(store: &Path) -> String {
  format!("--cache-dir={}", store.display())
}

/// The entry the store's only `ac/` record names, as JSON.
pub(crate) fn published_entry(store: &Path) -> Json {
  let record = only_record(store);
  let hex = fs::read_to_string(record).expect("record");
  serde_json::from_slice(&fs::read(store.join("cas").join(hex.trim())).expect("entry"))
    .expect("json")
}

pub(crate) fn only_record(store: &Path) -> PathBuf {
  let records: Vec<PathBuf> = fs::read_dir(store.join("ac"))
    .expect("ac")
    .map(|entry| entry.expect("entry").path())
    .filter(|path| !path.file_name().unwrap().to_string_lossy().starts_with('.'))
    .collect();
  assert_eq!(records.len(), 1, "{records:?}");
  records.into_iter().next().unwrap()
}

/// Make the store's only record name `entry`.
pub(crate) fn forge(store: &Path, entry: &Json) {
  let bytes = entry.to_string();
  let hex = blake3::hash(bytes.as_bytes()).to_hex().to_string();
  fs::write(store.join("cas").join(&hex), bytes).expect("forge entry");
  fs::write(only_record(store), hex).expect("forge record");
}
