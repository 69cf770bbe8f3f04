//! `--watch`, driven for real: a watching `just` in a temporary project,
//! files changed under it, its output polled for with a deadline.

tests! {
  ;
  extensions:
  changed_cache_input_runs_the_recipe_again,
  shared_cache_store_that_failed_is_opened_again_by_the_next_run,
  ignored_files_git_directory_and_cache_outputs_do_not_trigger,
  burst_of_fifty_writes_runs_once,
  restart_stops_a_long_running_recipe,
  justfile_syntax_error_is_printed_and_a_fix_is_picked_up,
  interrupt_while_running_ends_with_130_and_leaves_nothing_behind,
  interrupt_while_waiting_ends_with_130,
  quiet_watch_prints_nothing,
  writes_during_a_run_do_not_start_the_next_one,
  unknown_recipe_fails_at_once,
  justfile_from_standard_input_is_a_clear_error,
  renamed_justfile_ends_watching,
  directory_created_under_a_glob_is_watched,
  file_names_in_messages_are_escaped,
  idle_watch_does_not_wake_up,
  unreadable_subdirectory_is_warned_about_once_and_watching_goes_on if can_read_as_nobody,
  unreadable_gitignore_is_warned_about_once_and_its_readable_rules_apply,
  unreadable_global_excludes_file_is_warned_about_once,
  #[cfg(target_os = "linux")]
  watch_limit_is_one_warning_for_all_directories_over_it if has_user_namespaces,
  #[cfg(target_os = "linux")]
  lost_changes_run_the_recipe_again,
}

use std::fs;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::process::{poll_until, Job};

const DEADLINE: Duration = Duration::from_secs(180);
const WAITING: &str = "[watch] waiting for changes\n";

/// A running `just --watch` and everything it printed so far.
struct Watching {
  job: Job,
  root: PathBuf,
  /// `just`'s `TMPDIR`.
  temporary: tempfile::TempDir,
  _directory: tempfile::TempDir,
}

impl Watching {
  /// Write `files` into a new temporary directory and start `just ARGS` there.
  fn start(files: &[(&str, &str)], args: &[&str]) -> Watching {
    Watching::start_with(files, |_| Command::new(env!("CARGO_BIN_EXE_just")), args)
  }

  /// As `start`, with the command `command` makes in the directory.
  fn start_with(
    files: &[(&str, &str)],
    command: impl FnOnce(&Path) -> Command,
    args: &[&str],
  ) -> Watching {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path().canonicalize().unwrap();
    for (path, contents) in files {
      write(&root.join(path), contents);
    }
    let temporary = tempfile::tempdir().unwrap();
    let job = Job::start(
      command(&root)
        .args(args)
        .current_dir(&root)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("TMPDIR", temporary.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        // Its own group, like a terminal's foreground job: Ctrl-C reaches
        // it and its children.
        .process_group(0),
    );
    Watching { job, root, temporary, _directory: directory }
  }

  fn path(&self, relative: &str) -> PathBuf {
    self.root.join(relative)
  }

  fn write(&self, relative: &str, contents: &str) {
    write(&self.path(relative), contents);
  }

  fn stdout(&self) -> String {
    self.job.stdout()
  }

  fn stderr(&self) -> String {
    self.job.stderr()
  }

  /// Wait until standard output is `expected`: it is read on a thread of
  /// its own, which may lag behind standard error's.
  fn expect_stdout(&self, expected: &str) {
    self.wait_for(&format!("standard output {expected:?}"), |stdout, _| stdout == expected);
  }

  /// Poll until `condition(stdout, stderr)` holds; panic at the deadline.
  fn wait_for(&self, what: &str, condition: impl Fn(&str, &str) -> bool) {
    assert!(
      poll_until(DEADLINE, || condition(&self.stdout(), &self.stderr())),
      "timed out waiting for {what}\nstdout:\n{}\nstderr:\n{}",
      self.stdout(),
      self.stderr()
    );
  }

  /// Wait until `runs` runs have finished and the next wait has begun.
  fn wait_for_runs(&self, runs: usize) {
    self.wait_for(&format!("{runs} runs"), |_, stderr| stderr.matches(WAITING).count() >= runs);
  }

  /// Send `signal` to the whole job (just and its children).
  fn signal_job(&self, signal: i32) {
    self.job.signal(signal, true);
  }

  /// Send `signal` to `just` alone.
  fn signal_just(&self, signal: i32) {
    self.job.signal(signal, false);
  }

  /// Wait for `just` to exit and its output to end; its status code (128 +
  /// signal if killed).
  fn wait_exit(&mut self) -> i32 {
    let status = self.job.wait_exit(DEADLINE);
    assert!(
      poll_until(DEADLINE, || self.job.output_ended()),
      "just did not exit\nstderr:\n{}",
      self.stderr()
    );
    status
  }
}

fn write(path: &Path, contents: &str) {
  fs::create_dir_all(path.parent().unwrap()).unwrap();
  fs::write(path, contents).unwrap();
}

/// Whether a process with this pid file's pid is still alive.
fn alive(pid_file: &Path) -> bool {
  let pid: i32 = fs::read_to_string(pid_file).unwrap().trim().parse().unwrap();
  // SAFETY: signal 0 only checks that the process exists.
  unsafe { libc::kill(pid, 0) == 0 }
}

const CACHED: &str = "set unstable
set lists

[cache(inputs=['src.txt'], outputs=['out.txt'])]
[script]
build:
  cat src.txt > out.txt
  echo built $(cat src.txt)
";

fn changed_cache_input_runs_the_recipe_again() {
  let watching =
    Watching::start(&[("justfile", CACHED), ("src.txt", "one")], &["--watch", "build"]);
  watching.wait_for_runs(1);
  watching.write("src.txt", "two");
  watching.wait_for_runs(2);
  watching.expect_stdout("built one\nbuilt two\n");
  assert!(watching.stderr().contains(&format!("{WAITING}[watch] src.txt changed\n")));
}

/// Each run opens its own stores: one that failed is not given up for the
/// whole watch.
fn shared_cache_store_that_failed_is_opened_again_by_the_next_run() {
  let outside = tempfile::tempdir().unwrap();
  let store = outside.path().join("store");
  // A file where the store's directory should be: the first run fails to use it.
  write(&store, "");
  let watching = Watching::start(
    &[("justfile", CACHED), ("src.txt", "one")],
    &["--watch", "--cache-dir", store.to_str().unwrap(), "build"],
  );
  watching.wait_for_runs(1);
  assert!(watching.stderr().starts_with("warning: shared cache `"), "{}", watching.stderr());
  fs::remove_file(&store).unwrap();
  watching.write("src.txt", "two");
  watching.wait_for_runs(2);
  watching.expect_stdout("built one\nbuilt two\n");
  assert_eq!(fs::read_dir(store.join("ac")).map(Iterator::count).ok(), Some(1));
}

fn ignored_files_git_directory_and_cache_outputs_do_not_trigger() {
  let files = [
    ("justfile", CACHED),
    ("src.txt", "one"),
    (".gitignore", "*.log\n"),
    (".git/HEAD", "ref: refs/heads/main\n"),
  ];
  // `--watch-path .` watches the whole tree besides the cache input.
  let watching = Watching::start(&files, &["--watch", "--watch-path", ".", "build"]);
  watching.wait_for_runs(1);
  watching.write("debug.log", "ignored");
  watching.write(".git/index", "git's own");
  watching.write("out.txt", "a cache output");
  watching.write("src.txt", "two");
  watching.wait_for_runs(2);
  watching.expect_stdout("built one\nbuilt two\n");
  let stderr = watching.stderr();
  let changes: Vec<&str> = stderr.lines().filter(|line| line.ends_with("changed")).collect();
  assert_eq!(changes, ["[watch] src.txt changed"]);
}

fn burst_of_fifty_writes_runs_once() {
  let justfile = "show:\n  @echo $(cat a.txt)\n";
  let watching = Watching::start(
    &[("justfile", justfile), ("a.txt", "0")],
    &["--watch", "--watch-debounce", "300", "show"],
  );
  watching.wait_for_runs(1);
  for i in 1..=50 {
    watching.write("a.txt", &i.to_string());
  }
  watching.wait_for("the run after the burst", |stdout, _| stdout.contains("50\n"));
  watching.wait_for_runs(2);
  watching.expect_stdout("0\n50\n");
  assert_eq!(watching.stderr().matches("changed\n").count(), 1);
}

fn restart_stops_a_long_running_recipe() {
  let justfile =
    "serve:\n  @echo start $(cat a.txt)\n  @echo $$ > pids/$(cat a.txt); exec sleep 60\n";
  let files =
    [("justfile", justfile), ("a.txt", "one"), (".gitignore", "pids/\n"), ("pids/.keep", "")];
  let watching = Watching::start(&files, &["--watch", "--watch-restart", "serve"]);
  // A pid file exists before `echo` has written to it: wait for the whole line.
  let pid_written =
    |name: &str| fs::read_to_string(watching.path(name)).is_ok_and(|pid| pid.ends_with('\n'));
  watching.wait_for("the first start", |_, _| pid_written("pids/one"));
  watching.write("a.txt", "two");
  watching.wait_for("the restart", |_, _| pid_written("pids/two"));
  watching.expect_stdout("start one\nstart two\n");
  assert!(!alive(&watching.path("pids/one")), "the first run's process still runs");
  assert!(alive(&watching.path("pids/two")));
  assert!(watching.stderr().ends_with("[watch] a.txt changed\n"), "{}", watching.stderr());
}

fn justfile_syntax_error_is_printed_and_a_fix_is_picked_up() {
  let watching = Watching::start(&[("justfile", "hello:\n  @echo one\n")], &["--watch"]);
  watching.wait_for_runs(1);
  watching.write("justfile", "hello:\n  @echo one\n(\n");
  watching.wait_for_runs(2);
  watching.write("justfile", "hello:\n  @echo two\n");
  watching.wait_for_runs(3);
  watching.expect_stdout("one\ntwo\n");
  assert_eq!(
    watching.stderr(),
    format!(
      "{WAITING}[watch] justfile changed\n\
       error: expected '@', '[', comment, end of file, end of line, or identifier, but found '('\n \
       ——▶ justfile:3:1\n  │\n3 │ (\n  │ ^\n{WAITING}[watch] justfile changed\n{WAITING}"
    )
  );
}

fn interrupt_while_running_ends_with_130_and_leaves_nothing_behind() {
  let justfile = "[script]\nserve:\n  echo $$ > pids/serve\n  exec sleep 60\n";
  let files = [
    ("justfile", justfile),
    (".gitignore", "pids/\nscratch/\n"),
    ("scratch/.keep", ""),
    ("pids/.keep", ""),
  ];
  let mut watching = Watching::start(&files, &["--watch", "--tempdir", "scratch", "serve"]);
  // The pid file exists before `echo` has written to it: wait for the whole line.
  let pid_written =
    || fs::read_to_string(watching.path("pids/serve")).is_ok_and(|pid| pid.ends_with('\n'));
  watching.wait_for("the recipe to start", |_, _| pid_written());
  watching.signal_job(libc::SIGINT);
  assert_eq!(watching.wait_exit(), 130);
  assert!(!alive(&watching.path("pids/serve")), "the recipe's process still runs");
  let left: Vec<_> =
    fs::read_dir(watching.path("scratch")).unwrap().flatten().map(|e| e.file_name()).collect();
  assert_eq!(left, [".keep"], "temporary files left behind");
}

fn interrupt_while_waiting_ends_with_130() {
  let mut watching =
    Watching::start(&[("justfile", "hello:\n  @echo hi\n")], &["--watch", "--clear"]);
  watching.wait_for_runs(1);
  watching.write("justfile", "hello:\n  @echo again\n");
  watching.wait_for_runs(2);
  watching.signal_just(libc::SIGINT);
  assert_eq!(watching.wait_exit(), 130);
  assert_eq!(watching.stdout(), "hi\nagain\n");
  let left: Vec<_> = fs::read_dir(watching.temporary.path()).unwrap().flatten().collect();
  assert!(left.is_empty(), "temporary files left behind: {left:?}");
  assert_eq!(
    watching.stderr(),
    // `--clear` never writes escape codes into a redirected stream.
    format!("{WAITING}[watch] justfile changed\n{WAITING}")
  );
}

fn quiet_watch_prints_nothing() {
  let justfile = "copy:\n  cat a.txt > seen/a.txt\n";
  let files =
    [("justfile", justfile), ("a.txt", "one"), (".gitignore", "seen/\n"), ("seen/.keep", "")];
  let watching = Watching::start(&files, &["--watch", "--quiet", "copy"]);
  let seen =
    |text: &str| fs::read_to_string(watching.path("seen/a.txt")).is_ok_and(|seen| seen == text);
  // Files are watched from before the first run on.
  watching.wait_for("the first run", |_, _| seen("one"));
  // Nothing says when the run has ended, and a change before that starts
  // no run: write until one does.
  let start = Instant::now();
  while !seen("two") {
    assert!(start.elapsed() < DEADLINE, "no run after the change");
    watching.write("a.txt", "two");
    std::thread::sleep(Duration::from_millis(100));
  }
  assert_eq!(watching.stdout(), "");
  assert_eq!(watching.stderr(), "");
}

/// watchexec's rule: the run's own writes (to a file in the watched tree)
/// and whatever else happens while it runs do not start the next run; a
/// change after it does.
fn writes_during_a_run_do_not_start_the_next_one() {
  let justfile = "log:\n  @echo run >> log.txt\n  @echo ran\n";
  let watching = Watching::start(&[("justfile", justfile), ("a.txt", "0")], &["--watch", "log"]);
  watching.wait_for_runs(1);
  watching.write("a.txt", "1");
  watching.wait_for_runs(2);
  watching.expect_stdout("ran\nran\n");
  let stderr = watching.stderr();
  let changes: Vec<&str> = stderr.lines().filter(|line| line.ends_with("changed")).collect();
  assert_eq!(changes, ["[watch] a.txt changed"], "{stderr}");
}

fn unknown_recipe_fails_at_once() {
  let mut watching = Watching::start(&[("justfile", "a:\n  @echo a\n")], &["-w", "nosuch"]);
  assert_eq!(watching.wait_exit(), 1);
  assert_eq!(watching.stderr(), "error: justfile does not contain recipe `nosuch`\n");
}

fn justfile_from_standard_input_is_a_clear_error() {
  let mut watching = Watching::start(&[], &["-w", "-f", "-", "a"]);
  assert_eq!(watching.wait_exit(), 1);
  assert_eq!(
    watching.stderr(),
    "error: `--watch` cannot watch a justfile read from standard input (`--justfile -`): name a file\n"
  );
}

fn renamed_justfile_ends_watching() {
  let mut watching = Watching::start(&[("justfile", "a:\n  @echo a\n")], &["-w", "a"]);
  watching.wait_for_runs(1);
  fs::rename(watching.path("justfile"), watching.path("justfile.old")).unwrap();
  assert_eq!(watching.wait_exit(), 1);
  let expected = format!(
    "error: justfile `{}` was renamed, removed or moved away; stopped watching\n",
    watching.path("justfile").display()
  );
  assert!(watching.stderr().ends_with(&expected), "{}", watching.stderr());
}

/// A directory made after the watch began, under a `--watch-path` glob, is
/// watched: a file written in it starts a run (written again until then,
/// as the new directory's watch is set up a moment after it appears).
fn directory_created_under_a_glob_is_watched() {
  let justfile = "a:\n  @echo ran\n";
  let watching = Watching::start(
    &[("justfile", justfile), ("src/.keep", "")],
    &["-w", "--watch-path", "src/**/*.txt", "a"],
  );
  watching.wait_for_runs(1);
  fs::create_dir(watching.path("src/new")).unwrap();
  let start = Instant::now();
  while !watching.stdout().contains("ran\nran\n") {
    assert!(start.elapsed() < DEADLINE, "no run after a write in the new directory");
    watching.write("src/new/a.txt", "x");
    std::thread::sleep(Duration::from_millis(100));
  }
  // Standard error is read on a thread of its own, which may lag behind.
  watching.wait_for("the change to be reported", |_, stderr| {
    stderr.contains("[watch] src/new/a.txt changed\n")
  });
}

fn file_names_in_messages_are_escaped() {
  let watching = Watching::start(&[("justfile", "a:\n  @echo ran\n")], &["-w", "a"]);
  watching.wait_for_runs(1);
  watching.write("x\x1b[2Jy", "");
  watching.wait_for_runs(2);
  assert!(watching.stderr().contains("[watch] x\\u{1b}[2Jy changed\n"), "{:?}", watching.stderr());
}

/// Context switches of every thread of `pid` (Mach's count, which takes
/// in voluntary and involuntary ones, as Linux's two lines do).
#[cfg(target_os = "macos")]
fn switches(pid: u32) -> u64 {
  // SAFETY: a plain C struct, for which all zeroes is a valid value.
  let mut information: libc::proc_taskinfo = unsafe { std::mem::zeroed() };
  let size = i32::try_from(std::mem::size_of::<libc::proc_taskinfo>()).unwrap();
  // SAFETY: the buffer is a correctly sized local.
  let written = unsafe {
    libc::proc_pidinfo(
      i32::try_from(pid).unwrap(),
      libc::PROC_PIDTASKINFO,
      0,
      (&raw mut information).cast(),
      size,
    )
  };
  assert_eq!(written, size, "proc_pidinfo: {}", std::io::Error::last_os_error());
  u64::try_from(information.pti_csw).unwrap()
}

/// Context switches of every thread of `pid`.
#[cfg(not(target_os = "macos"))]
fn switches(pid: u32) -> u64 {
  let tasks = fs::read_dir(format!("/proc/{pid}/task")).unwrap();
  tasks
    .flatten()
    .filter_map(|task| fs::read_to_string(task.path().join("status")).ok())
    .flat_map(|status| {
      status
        .lines()
        .filter(|line| line.contains("ctxt_switches"))
        .filter_map(|line| line.split_whitespace().last()?.parse::<u64>().ok())
        .collect::<Vec<_>>()
    })
    .sum()
}

/// Waiting for changes, nothing wakes up: over a second (a measurement
/// window, not a wait for something), a handful of context switches at
/// most, where a polling loop makes dozens.
fn idle_watch_does_not_wake_up() {
  let watching =
    Watching::start(&[("justfile", "a:\n  @echo ran\n")], &["-w", "--watch-debounce", "0", "a"]);
  watching.wait_for_runs(1);
  std::thread::sleep(Duration::from_millis(200));
  let before = switches(watching.job.child.id());
  std::thread::sleep(Duration::from_secs(1));
  let after = switches(watching.job.child.id());
  assert!(after - before <= 3, "{} context switches in a second of idling", after - before);
}

/// A subdirectory `just` may not read cannot be watched: one warning, at
/// the first run only, and the rest of the tree is watched as before. Root
/// reads everything, so as root `just` runs as `nobody` (through
/// `setpriv`), from a copy of the binary that user can reach.
fn unreadable_subdirectory_is_warned_about_once_and_watching_goes_on() {
  use std::os::unix::fs::PermissionsExt;
  let files = [
    ("justfile", "a:\n  @echo ran\n"),
    ("open/deep/file.txt", "0"),
    ("locked/inner/secret.txt", "0"),
    ("open/zz/file.txt", "0"),
    (".gitignore", "/just-copy\n/tmp/\n"),
  ];
  let command = |root: &Path| {
    let locked = root.join("locked");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
      return Command::new(env!("CARGO_BIN_EXE_just"));
    }
    // Both copies are in the project, ignored by git.
    let directory = root;
    fs::set_permissions(directory, fs::Permissions::from_mode(0o755)).unwrap();
    let binary = directory.join("just-copy");
    fs::copy(env!("CARGO_BIN_EXE_just"), &binary).unwrap();
    // Somewhere `nobody` may create its private directory.
    let temporary = directory.join("tmp");
    fs::create_dir(&temporary).unwrap();
    std::os::unix::fs::chown(&temporary, Some(65534), Some(65534)).unwrap();
    let mut command = Command::new("setpriv");
    command.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--", "env"]);
    command.arg(format!("TMPDIR={}", temporary.display())).arg(binary);
    command
  };
  let mut watching = Watching::start_with(&files, command, &["-w", "a"]);
  watching.wait_for_runs(1);
  watching.write("open/deep/file.txt", "1");
  watching.wait_for_runs(2);
  watching.write("open/zz/file.txt", "2");
  watching.wait_for_runs(3);
  watching.signal_job(libc::SIGINT);
  assert_eq!(watching.wait_exit(), 130);
  assert_eq!(watching.stdout(), "ran\nran\nran\n");
  assert_eq!(
    watching.stderr(),
    format!(
      "[watch] warning: cannot watch `{}`, going on without it: Permission denied (os error 13)\n\
       {WAITING}[watch] open/deep/file.txt changed\n{WAITING}[watch] open/zz/file.txt changed\n{WAITING}",
      watching.path("locked").display()
    )
  );
}

/// A `.gitignore` that cannot be read whole (here: a line that is not
/// UTF-8, which no user can read): one warning, at the first run only; the
/// lines before it still apply.
fn unreadable_gitignore_is_warned_about_once_and_its_readable_rules_apply() {
  let files = [("justfile", "a:\n  @echo ran\n"), ("data.txt", "0")];
  let command = |root: &Path| {
    fs::write(root.join(".gitignore"), b"*.log\n\xff\xfe\n").unwrap();
    Command::new(env!("CARGO_BIN_EXE_just"))
  };
  let mut watching = Watching::start_with(&files, command, &["-w", "a"]);
  watching.wait_for_runs(1);
  watching.write("debug.log", "ignored");
  watching.write("data.txt", "1");
  watching.wait_for_runs(2);
  watching.signal_job(libc::SIGINT);
  assert_eq!(watching.wait_exit(), 130);
  assert_eq!(watching.stdout(), "ran\nran\n");
  assert_eq!(
    watching.stderr(),
    format!(
      "[watch] warning: cannot read the ignore rules of `{}`, going on without them: line 2: \
       stream did not contain valid UTF-8\n{WAITING}[watch] data.txt changed\n{WAITING}",
      watching.path(".gitignore").display()
    )
  );
}

/// Git's global excludes file (here `$XDG_CONFIG_HOME/git/ignore`) that
/// cannot be read whole is warned about too, once; its good lines apply.
fn unreadable_global_excludes_file_is_warned_about_once() {
  let config = tempfile::tempdir().unwrap();
  fs::create_dir(config.path().join("git")).unwrap();
  let excludes = config.path().join("git/ignore");
  // A line that is no pattern (the crate reading it passes over I/O errors
  // of this file itself).
  fs::write(&excludes, "*.log\n{a\n").unwrap();
  let command = |_: &Path| {
    let mut command = Command::new("env");
    command.arg(format!("XDG_CONFIG_HOME={}", config.path().display()));
    command.arg(env!("CARGO_BIN_EXE_just"));
    command
  };
  let files = [("justfile", "a:\n  @echo ran\n"), ("data.txt", "0")];
  let mut watching = Watching::start_with(&files, command, &["-w", "a"]);
  watching.wait_for_runs(1);
  watching.write("debug.log", "ignored");
  watching.write("data.txt", "1");
  watching.wait_for_runs(2);
  watching.signal_job(libc::SIGINT);
  assert_eq!(watching.wait_exit(), 130);
  assert_eq!(
    watching.stderr(),
    format!(
      "[watch] warning: cannot read the ignore rules of `{}`, going on without them: line 2: \
       error parsing glob '{{a': unclosed alternate group; missing '}}' (maybe escape '{{' with \
       '[{{]'?)\n{WAITING}[watch] data.txt changed\n{WAITING}",
      excludes.display()
    )
  );
}

/// Whether `unshare` can make a user namespace here (a container's
/// seccomp profile may forbid it).
#[cfg(target_os = "linux")]
fn has_user_namespaces() -> bool {
  Command::new("unshare")
    .args(["--user", "--map-root-user", "true"])
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .status()
    .is_ok_and(|status| status.success())
}

/// Whether the unreadable directory can be made so: for anyone but root,
/// by its mode; for root, by running `just` as `nobody` through `setpriv`.
fn can_read_as_nobody() -> bool {
  // SAFETY: geteuid has no preconditions.
  let root = unsafe { libc::geteuid() == 0 };
  !root
    || Command::new("setpriv")
      .arg("--version")
      .stdout(std::process::Stdio::null())
      .status()
      .is_ok_and(|status| status.success())
}

/// Past the system's limit on watches, one warning counts the directories
/// left out, and the run goes on. The limit is lowered to four watches (the
/// watch's private directory and three of the ten directories) in a user
/// namespace of `just`'s own, which leaves the system's alone.
#[cfg(target_os = "linux")]
fn watch_limit_is_one_warning_for_all_directories_over_it() {
  let mut files = vec![("justfile", "a:\n  @echo ran\n")];
  let names: Vec<String> = (1..=9).map(|i| format!("d{i}/.keep")).collect();
  files.extend(names.iter().map(|name| (name.as_str(), "")));
  let command = |_: &Path| {
    let mut command = Command::new("unshare");
    command
      .args(["--user", "--map-root-user", "sh", "-c"])
      .arg(r#"echo 4 > /proc/sys/user/max_inotify_watches && exec "$0" "$@""#)
      .arg(env!("CARGO_BIN_EXE_just"));
    command
  };
  let mut watching = Watching::start_with(&files, command, &["-w", "a"]);
  watching.wait_for_runs(1);
  watching.signal_job(libc::SIGINT);
  assert_eq!(watching.wait_exit(), 130);
  assert_eq!(watching.stdout(), "ran\n");
  assert_eq!(
    watching.stderr(),
    format!(
      "[watch] warning: the system's limit on watches is reached (No space left on device (os \
       error 28)): 7 directories not watched (on Linux, raise `fs.inotify.max_user_watches`)\n\
       {WAITING}"
    )
  );
}

/// More changes than the kernel queues while `just` is stopped: the
/// change to the input is among those lost, and the next run starts
/// anyway, saying why.
#[cfg(target_os = "linux")]
fn lost_changes_run_the_recipe_again() {
  let queue: usize = fs::read_to_string("/proc/sys/fs/inotify/max_queued_events")
    .map_or(16384, |text| text.trim().parse().unwrap());
  let watching =
    Watching::start(&[("justfile", CACHED), ("src.txt", "one")], &["--watch", "build"]);
  watching.wait_for_runs(1);
  // Stopping and continuing `just`.
  watching.signal_just(libc::SIGSTOP);
  // Each write is at least two events (created, closed after writing).
  for i in 0..queue {
    fs::write(watching.path(&format!("noise-{i}")), "").unwrap();
  }
  watching.write("src.txt", "two");
  watching.signal_just(libc::SIGCONT);
  watching.wait_for_runs(2);
  watching.expect_stdout("built one\nbuilt two\n");
  let stderr = watching.stderr();
  let after_first = &stderr[stderr.find(WAITING).unwrap() + WAITING.len()..];
  assert_eq!(
    after_first,
    format!("[watch] too many changes at once to tell which; running again\n{WAITING}")
  );
}
