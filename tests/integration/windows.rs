//! Windows behaviour that a case file cannot show, run in the Windows lane
//! (`JUST_TEST_WINDOWS`) against `just.exe` under Wine: `--watch-restart`
//! ends the recipe's whole process tree (a Job Object), not just the shell
//! it started; the run owns its jobs, so what its recipes left running ends
//! with it. A `--cache-dir` store restores an output directory, again over
//! a changed copy, and the restore removes its staging directory (whose
//! lock is a file in it).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::Trial;

use crate::common::process::{collect, Collected};
use crate::common::{clean_environment, windows_binary};

const DEADLINE: Duration = Duration::from_secs(180);

pub(crate) fn tests() -> Vec<Trial> {
  vec![
    crate::harness::trial(
      module_path!(),
      "watch_restart_ends_the_recipe_process_tree",
      watch_restart_ends_the_recipe_process_tree,
      false,
      true,
      &[],
    ),
    crate::harness::trial(
      module_path!(),
      "killed_just_takes_the_recipe_process_tree_with_it",
      killed_just_takes_the_recipe_process_tree_with_it,
      true,
      true,
      &[],
    ),
    crate::harness::trial(
      module_path!(),
      "end_of_a_watch_run_ends_what_its_recipes_left_running",
      end_of_a_watch_run_ends_what_its_recipes_left_running,
      true,
      true,
      &[],
    ),
    crate::harness::trial(
      module_path!(),
      "cache_dir_store_restores_a_directory_twice_without_leftovers",
      cache_dir_store_restores_a_directory_twice_without_leftovers,
      true,
      true,
      &[],
    ),
  ]
}

/// A `[cache]` recipe whose output is a directory, run through `cmd.exe`.
const CACHED: &str = "set unstable\nset lists\n\n[cache(outputs=['out'])]\n\
                      [script('cmd.exe', '/c')]\nbuild:\n  @echo off\n  \
                      echo ran>> ..\\count.txt\n  mkdir out\\sub\n  \
                      echo data> out\\sub\\file.txt\n  echo built\n";

/// `just.exe --cache-dir STORE build` in `checkout`, under Wine.
fn build_with_store(checkout: &Path, store: &Path) -> std::process::Output {
  let mut command = Command::new("wine");
  clean_environment(&mut command);
  command
    .arg(windows_binary().unwrap())
    .arg(format!("--cache-dir={}", store.display()))
    .arg("build")
    .current_dir(checkout)
    .stdin(Stdio::null());
  command.output().unwrap()
}

/// One checkout publishes to a `--cache-dir` store; another is restored
/// from it twice, the second time over a changed copy of the output: each
/// run prints what the recipe printed and no warning, the recipe ran once,
/// and no `.just-restore-*` staging directory is left (its lock file, held
/// open while it is removed, once kept every restore from removing it).
fn cache_dir_store_restores_a_directory_twice_without_leftovers() {
  let directory = tempfile::tempdir().unwrap();
  let root = directory.path().canonicalize().unwrap();
  let store = root.join("store");
  for checkout in ["a", "b"] {
    fs::create_dir(root.join(checkout)).unwrap();
    fs::write(root.join(checkout).join("justfile"), CACHED).unwrap();
  }
  let runs = || fs::read_to_string(root.join("count.txt")).map_or(0, |text| text.lines().count());
  let file = root.join("b/out/sub/file.txt");
  for (checkout, change) in [("a", false), ("b", false), ("b", true)] {
    if change {
      fs::write(&file, "changed\r\n").unwrap();
    }
    let output = build_with_store(&root.join(checkout), &store);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{checkout}: {stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "built\r\n", "{checkout}: {stderr}");
    assert_eq!(stderr, "", "{checkout}");
    assert_eq!(runs(), 1, "{checkout}: the recipe ran again");
  }
  assert_eq!(fs::read_to_string(&file).unwrap(), "data\r\n");
  for name in fs::read_dir(root.join("b")).unwrap() {
    let name = name.unwrap().file_name().to_string_lossy().into_owned();
    assert!(!name.starts_with(".just-restore-"), "left behind: {name}");
  }
}

/// A project in a temporary folder whose recipe processes are told apart by
/// marks in their command lines: the folder's name, and ping's count
/// (`seed` keeps the tests' counts apart).
struct Project {
  _directory: tempfile::TempDir,
  root: PathBuf,
  folder: String,
  ping: String,
}

impl Project {
  fn new(seed: u32) -> Project {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path().canonicalize().unwrap();
    let folder = root.file_name().unwrap().to_string_lossy().into_owned();
    let ping = format!("ping -n {} 127.0.0.1", 100 + (std::process::id() + seed) % 900);
    Project { _directory: directory, root, folder, ping }
  }

  fn marks(&self) -> [&str; 2] {
    [self.folder.as_str(), self.ping.as_str()]
  }

  /// Run `check` on the running `just`, then end it and every marked
  /// process, whatever `check` did, and pass its failure on.
  fn check_then_clean_up(&self, just: &mut Child, check: impl FnOnce(&mut Child)) {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(just)));
    let _ = just.kill();
    let _ = just.wait();
    for pid in processes_naming(&self.marks()) {
      let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
    }
    if let Err(panic) = result {
      std::panic::resume_unwind(panic);
    }
  }
}

/// `just` killed outright (no console event, no chance to clean up): the
/// operating system closes its handle of the run's Job Object, whose
/// `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE` ends the recipe's shell and what it
/// started. (just 1.58 leaves them running.)
fn killed_just_takes_the_recipe_process_tree_with_it() {
  let project = Project::new(7);
  let (ping, folder, marks) = (&project.ping, &project.folder, project.marks());
  let justfile = format!(
    "set windows-shell := [\"cmd.exe\", \"/c\"]\n\nrun:\n  @echo started\n  \
     @cmd /c \"{ping} > nul & rem {folder}\"\n"
  );
  fs::write(project.root.join("justfile"), &justfile).unwrap();
  let (mut just, stdout) = start_under_wine(&project.root, &["run"]);
  project.check_then_clean_up(&mut just, |just| {
    wait_for(|| stdout.contains("started"), "the run");
    wait_for(|| processes_naming(&marks).len() >= 3, "the recipe's three processes");
    // `wine` runs `just.exe` in its own process: SIGKILL ends it at once.
    just.kill().unwrap();
    just.wait().unwrap();
    wait_for(|| processes_naming(&marks).is_empty(), "the recipe's processes to end");
  });
}

/// The recipe's shell starts another cmd (its grandchild), which starts
/// ping (a great-grandchild) to wait; a change of the justfile must end all
/// three before the next run. Each is told apart by a mark in its command
/// line: the temporary folder's name, or ping's count.
fn watch_restart_ends_the_recipe_process_tree() {
  let project = Project::new(0);
  let (ping, folder, marks) = (&project.ping, &project.folder, project.marks());
  let justfile = format!(
    "set windows-shell := [\"cmd.exe\", \"/c\"]\n\nrun:\n  @echo started\n  \
     @cmd /c \"{ping} > nul & rem {folder}\"\n"
  );
  fs::write(project.root.join("justfile"), &justfile).unwrap();
  let (mut just, stdout) = start_under_wine(&project.root, &["--watch", "--watch-restart", "run"]);
  project.check_then_clean_up(&mut just, |_| {
    wait_for(|| stdout.text().matches("started").count() == 1, "the first run");
    wait_for(|| processes_naming(&marks).len() >= 3, "the first run's three processes");
    let first = processes_naming(&marks);
    fs::write(project.root.join("justfile"), format!("{justfile}\n")).unwrap();
    wait_for(|| stdout.text().matches("started").count() == 2, "the second run");
    wait_for(
      || first.iter().all(|pid| !process_names(*pid, &marks)),
      "the first run's processes to end",
    );
  });
}

/// Each run owns its Job Objects: when a `--watch` run ends, the job of a
/// recipe line that left a background process is closed, and
/// `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE` ends that process, while `just`
/// goes on waiting for changes. The recipe waits until the background
/// process is up (it writes `up.txt`). (just 1.58 leaves it running.)
fn end_of_a_watch_run_ends_what_its_recipes_left_running() {
  let project = Project::new(13);
  let (ping, folder, marks) = (&project.ping, &project.folder, project.marks());
  let justfile = format!(
    "set windows-shell := [\"cmd.exe\", \"/c\"]\n\nrun:\n  \
     @start /b cmd /c \"echo up> up.txt & {ping} > nul & rem {folder}\"\n  \
     @for /l %i in (1,1,600) do @if not exist up.txt ping -n 2 127.0.0.1 > nul\n  \
     @echo done\n"
  );
  fs::write(project.root.join("justfile"), &justfile).unwrap();
  let (mut just, stdout) = start_under_wine(&project.root, &["--watch", "run"]);
  project.check_then_clean_up(&mut just, |just| {
    wait_for(|| project.root.join("up.txt").exists(), "the background process");
    wait_for(|| stdout.contains("done"), "the end of the run");
    wait_for(|| processes_naming(&marks).is_empty(), "the background process to end");
    assert!(just.try_wait().unwrap().is_none(), "`just --watch` ended");
  });
}

/// `just.exe ARGS` under Wine in `root`, its standard output collected.
fn start_under_wine(root: &Path, args: &[&str]) -> (Child, Collected) {
  let mut command = Command::new("wine");
  command
    .arg(windows_binary().unwrap())
    .args(args)
    .current_dir(root)
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::null());
  clean_environment(&mut command);
  let mut just = command.spawn().unwrap();
  let stdout = collect(just.stdout.take().unwrap());
  (just, stdout)
}

#[track_caller]
fn wait_for(condition: impl Fn() -> bool, what: &str) {
  let start = Instant::now();
  while !condition() {
    assert!(start.elapsed() < DEADLINE, "waited {} seconds for {what}", DEADLINE.as_secs());
    std::thread::sleep(Duration::from_millis(100));
  }
}

/// The processes whose command line (as Wine sets it, for Windows
/// processes: the Windows command line) contains one of `marks`.
fn processes_naming(marks: &[&str]) -> Vec<u32> {
  let Ok(entries) = fs::read_dir("/proc") else {
    return Vec::new();
  };
  entries
    .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
    .filter(|pid| process_names(*pid, marks))
    .collect()
}

fn process_names(pid: u32, marks: &[&str]) -> bool {
  fs::read(Path::new("/proc").join(pid.to_string()).join("cmdline")).is_ok_and(|line| {
    // The words of the command line, each ended by a NUL.
    let line = String::from_utf8_lossy(&line).replace('\0', " ");
    marks.iter().any(|mark| line.contains(mark))
  })
}
