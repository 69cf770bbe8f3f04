//! `--keep-going` under `[parallel]`, and `--output prefixed|grouped` with
//! recipes whose output interleaves on purpose. The recipes synchronise
//! through files (polling with a deadline), never through fixed sleeps.

tests! {
  without_keep_going_parallel_failure_stops_the_run,
  ;
  extensions:
  prefixed_lines_stay_whole_and_attributed,
  grouped_output_is_one_block_per_recipe,
  prefixed_passes_binary_and_partial_lines_through,
  prefixed_recipe_still_reads_stdin,
  keep_going_with_parallel_and_serial_failures,
  prefixed_stops_when_the_reader_goes_away,
  grouped_stops_when_the_reader_goes_away,
  prefixed_recipe_ends_when_its_shell_exits,
  grouped_recipe_ends_when_its_shell_exits,
  grouped_output_beyond_memory_goes_to_a_temporary_file,
  two_hundred_parallel_recipes_fit_in_few_descriptors,
  grouped_endless_output_reaches_a_reader_that_wants_one_line,
  signal_ends_a_run_whose_reader_stopped_reading,
  prefixed_stderr_goes_on_while_nobody_reads_stdout,
}

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::process::{self, collect, poll_until, wait_until, wait_within_group};
use crate::common::Test;

/// Two shebang recipes that take turns: `x` writes line i, then `y` writes
/// line i, five times, each line on stdout and stderr; every line carries a
/// long run of its recipe's letter so that a torn line would show.
const PING_PONG: &str = r#"
[parallel]
all: x y

x:
  #!/bin/sh
  for i in 1 2 3 4 5; do
    line="x $i $(head -c 100000 /dev/zero | tr '\0' x)"
    echo "$line"; echo "$line" >&2
    touch x$i
    deadline=$(($(date +%s) + 20))
    until [ -f y$i ] || [ $(date +%s) -gt $deadline ]; do sleep 0.01; done
  done

y:
  #!/bin/sh
  for i in 1 2 3 4 5; do
    deadline=$(($(date +%s) + 20))
    until [ -f x$i ] || [ $(date +%s) -gt $deadline ]; do sleep 0.01; done
    line="y $i $(head -c 100000 /dev/zero | tr '\0' y)"
    echo "$line"; echo "$line" >&2
    touch y$i
  done
"#;

fn expected_line(name: char, number: usize) -> String {
  format!("{name} {number} {}", name.to_string().repeat(100_000))
}

/// Every line is whole and attributed to the recipe that wrote it, and each
/// recipe's lines are in order.
fn assert_prefixed(stream: &str) {
  let mut next = [1, 1];
  let lines: Vec<&str> = stream.lines().collect();
  assert_eq!(lines.len(), 10, "{} lines", lines.len());
  for line in lines {
    let (index, name) = match &line[..4] {
      "[x] " => (0, 'x'),
      "[y] " => (1, 'y'),
      _ => panic!("unattributed line starting {:?}", &line[..line.len().min(20)]),
    };
    assert!(line[4..] == expected_line(name, next[index]), "torn or misattributed line");
    next[index] += 1;
  }
  assert_eq!(next, [6, 6]);
}

fn prefixed_lines_stay_whole_and_attributed() {
  let output =
    Test::new().justfile(PING_PONG).args(&["--output", "prefixed"]).any_stdout().any_stderr().run();
  assert_prefixed(&output.stdout);
  assert_prefixed(&output.stderr);
}

/// One recipe's block, then the other's, each complete and in order.
fn assert_grouped(stream: &str) {
  let lines: Vec<&str> = stream.lines().collect();
  assert_eq!(lines.len(), 10);
  let first = lines[0].chars().next().unwrap_or(' ');
  let second = if first == 'x' { 'y' } else { 'x' };
  for (index, line) in lines.iter().enumerate() {
    let (name, number) = if index < 5 { (first, index + 1) } else { (second, index - 4) };
    assert!(*line == expected_line(name, number), "line {index} is not {name} {number}");
  }
}

fn grouped_output_is_one_block_per_recipe() {
  let output =
    Test::new().justfile(PING_PONG).args(&["--output", "grouped"]).any_stdout().any_stderr().run();
  assert_grouped(&output.stdout);
  assert_grouped(&output.stderr);
}

fn prefixed_passes_binary_and_partial_lines_through() {
  let output = Test::new()
    .justfile("bytes:\n  @printf 'a\\377\\000b\\r\\nlast'\n")
    .args(&["--output", "prefixed"])
    .any_stdout()
    .run();
  // Run again capturing raw bytes: the harness reads output as text.
  let raw = Command::new(env!("CARGO_BIN_EXE_just"))
    .args(["--output", "prefixed"])
    .current_dir(&output.root)
    .env_clear()
    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
    .stdin(Stdio::null())
    .output()
    .expect("run just");
  assert_eq!(raw.stdout, b"[bytes] a\xff\x00b\r\n[bytes] last\n");
  assert_eq!(raw.status.code(), Some(0));
}

fn prefixed_recipe_still_reads_stdin() {
  Test::new()
    .justfile("ask:\n  @read answer; echo \"got $answer\"\n")
    .args(&["--output", "prefixed"])
    .stdin("yes\n")
    .stdout("[ask] got yes\n")
    .run();
}

/// `c` fails inside a `[parallel]` group while its siblings run to the end;
/// `p` and `q` depend on it and are skipped; `d` and `after` do not and run;
/// `last` fails later. Each failure is printed when it happens, then the
/// summary in serial order; the first failure's status wins.
fn keep_going_with_parallel_and_serial_failures() {
  Test::new()
    .justfile(
      "
q: p d
[parallel]
p: c e
c:
  @exit 2
e:
  @echo e
d:
  @echo d
last:
  @exit 7
after:
  @echo after
",
    )
    .args(&["-k", "q", "last", "after"])
    .stdout("e\nd\nafter\n")
    .stderr(
      "error: recipe `c` failed on line 6 with exit code 2
error: recipe `last` failed on line 12 with exit code 7
failed: recipe `c` (exit status 2)
skipped: recipe `p` (needs `c`)
skipped: recipe `q` (needs `p`)
failed: recipe `last` (exit status 7)
",
    )
    .status(2)
    .run();
}

/// Without `--keep-going` the same run stops after the group.
fn without_keep_going_parallel_failure_stops_the_run() {
  Test::new()
    .justfile("q: p d\n[parallel]\np: c e\nc:\n  @exit 2\ne:\n  @echo e\nd:\n  @echo d\n")
    .args(&["q"])
    .stdout("e\n")
    .stderr("error: recipe `c` failed on line 5 with exit code 2\n")
    .status(2)
    .run();
}

/// Run `script` with `sh` in a new temporary directory holding `justfile`,
/// `$JUST` naming the binary under test; kill it at a deadline. Its status
/// (None if the deadline passed), and the directory's path.
fn shell_with_deadline(justfile: &str, script: &str) -> (Option<i32>, tempfile::TempDir) {
  let directory = tempfile::tempdir().unwrap();
  std::fs::write(directory.path().join("justfile"), justfile).unwrap();
  let mut child = Command::new("sh")
    .args(["-c", script])
    .current_dir(directory.path())
    .env("JUST", env!("CARGO_BIN_EXE_just"))
    .env("NO_COLOR", "1")
    .env_remove("JUST_OUTPUT")
    .stdin(Stdio::null())
    .process_group(0)
    .spawn()
    .unwrap();
  let status = wait_within_group(&mut child, Duration::from_secs(180));
  (status.and_then(|status| status.code()), directory)
}

fn read(directory: &Path, name: &str) -> String {
  std::fs::read_to_string(directory.join(name)).unwrap_or_default()
}

/// Like `interleaved`, where `yes` itself gets SIGPIPE: the recipe's output
/// stops being read, the recipe fails on SIGPIPE, `just` says so.
fn prefixed_stops_when_the_reader_goes_away() {
  let (status, directory) = shell_with_deadline(
    "r:\n  yes\n",
    "$JUST --output prefixed r 2>err | head -1 > out; echo $? > status",
  );
  assert_eq!(status, Some(0), "the pipeline never ended");
  assert_eq!(read(directory.path(), "out"), "[r] y\n");
  assert_eq!(
    read(directory.path(), "err"),
    "[r] yes\nerror: recipe `r` failed on line 2 with exit code 141\n"
  );
}

/// A reader that goes away before anything was written stops `grouped`
/// too, rather than holding output for ever.
fn grouped_stops_when_the_reader_goes_away() {
  let (status, directory) =
    shell_with_deadline("r:\n  yes\n", "$JUST --output grouped r 2>err | true");
  assert_eq!(status, Some(0), "the pipeline never ended");
  assert_eq!(
    read(directory.path(), "err"),
    "yes\nerror: recipe `r` failed on line 2 with exit code 141\n"
  );
}

const BACKGROUND: &str = "
r:
  @sleep 100 & echo $! > pid
  @echo done
";

/// A background process the recipe left holds the recipe's pipes, but the
/// recipe (and `just`) ends when its shell exits.
fn recipe_ends_when_its_shell_exits(mode: &str, expected: &str) {
  let (status, directory) =
    shell_with_deadline(BACKGROUND, &format!("$JUST --output {mode} r > out 2>&1"));
  if let Ok(pid) = read(directory.path(), "pid").trim().parse::<i32>() {
    // The background process the recipe started.
    process::signal(pid, libc::SIGKILL);
  }
  assert_eq!(status, Some(0), "just waited for the background process");
  assert_eq!(read(directory.path(), "out"), expected);
}

fn prefixed_recipe_ends_when_its_shell_exits() {
  recipe_ends_when_its_shell_exits("prefixed", "[r] done\n");
}

fn grouped_recipe_ends_when_its_shell_exits() {
  recipe_ends_when_its_shell_exits("grouped", "done\n");
}

/// Past a few MiB a recipe's held output goes to a temporary file; with an
/// unusable temporary directory it is written out and the rest follows as
/// it comes: the output is all there, in order, and the run succeeds.
fn grouped_output_beyond_memory_goes_to_a_temporary_file() {
  let justfile = "r:\n  @head -c 6000000 /dev/zero | tr '\\0' x\n  @echo\n  @echo end\n";
  for script in [
    "$JUST --output grouped --tempdir missing r > out 2> err; echo $? > status",
    "$JUST --output grouped r > out 2> err; echo $? > status",
  ] {
    let (status, directory) = shell_with_deadline(justfile, script);
    assert_eq!(status, Some(0));
    let out = read(directory.path(), "out");
    assert_eq!(out.len(), 6_000_005, "{script}");
    assert!(out.ends_with("x\nend\n"), "{script}");
    assert_eq!(read(directory.path(), "err"), "", "{script}");
    assert_eq!(read(directory.path(), "status"), "0\n", "{script}");
  }
}

/// 200 recipes at once under a limit of 64 or 256 descriptors: every mode
/// runs them all, `prefixed` and `grouped` piping only as many at once as
/// the limit allows (each piped command holds a few descriptors).
fn two_hundred_parallel_recipes_fit_in_few_descriptors() {
  let mut justfile = String::from("[parallel]\nall:");
  for index in 0..200 {
    justfile.push_str(&format!(" r{index}"));
  }
  justfile.push('\n');
  for index in 0..200 {
    justfile.push_str(&format!("r{index}:\n  @sleep 0.05; echo {index}\n"));
  }
  for limit in [64, 256] {
    for mode in ["prefixed", "grouped", "interleaved"] {
      let (status, directory) = shell_with_deadline(
        &justfile,
        &format!(
          "ulimit -n {limit}; $JUST --jobs 200 --output {mode} all > out 2> err; echo $? > status"
        ),
      );
      assert_eq!(status, Some(0), "{mode}: just did not end");
      let err = read(directory.path(), "err");
      assert_eq!(read(directory.path(), "status"), "0\n", "{limit} {mode}: {err}");
      assert_eq!(err, "", "{limit} {mode}");
      let mut lines: Vec<String> = read(directory.path(), "out")
        .lines()
        .map(|line| line.rsplit(' ').next().unwrap_or_default().to_owned())
        .collect();
      lines.sort_by_key(|line| line.parse::<usize>().unwrap_or(usize::MAX));
      let expected: Vec<String> = (0..200).map(|index| index.to_string()).collect();
      assert_eq!(lines, expected, "{limit} {mode}");
    }
  }
}

/// `grouped` holds a recipe's output until it ends, but not without bound:
/// an endless producer is written out past a limit, so `| head -1` gets
/// its line and the run ends as it does in `interleaved` (the producer
/// gets SIGPIPE), without filling the disk.
fn grouped_endless_output_reaches_a_reader_that_wants_one_line() {
  let (status, directory) = shell_with_deadline(
    "r:\n  yes\n",
    "$JUST --output grouped r 2>err | head -1 > out; echo $? > status",
  );
  assert_eq!(status, Some(0), "the pipeline never ended");
  assert_eq!(read(directory.path(), "out"), "y\n");
  assert_eq!(
    read(directory.path(), "err"),
    "yes\nerror: recipe `r` failed on line 2 with exit code 141\n"
  );
}

/// `just --output MODE r` in a new directory holding `justfile`, its
/// output piped, in a process group of its own.
fn start_with_pipes(justfile: &str, mode: &str) -> (tempfile::TempDir, std::process::Child) {
  let directory = tempfile::tempdir().unwrap();
  std::fs::write(directory.path().join("justfile"), justfile).unwrap();
  let child = Command::new(env!("CARGO_BIN_EXE_just"))
    .args(["--output", mode, "r"])
    .current_dir(directory.path())
    .env("NO_COLOR", "1")
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .process_group(0)
    .spawn()
    .unwrap();
  (directory, child)
}

/// One SIGTERM or SIGINT ends a run whose output nobody reads any more (a
/// paused pager): the output waiting for the reader is dropped.
fn signal_ends_a_run_whose_reader_stopped_reading() {
  for mode in ["prefixed", "grouped"] {
    for (signal, status) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
      let (_directory, mut child) = start_with_pipes("r:\n  @yes\n", mode);
      // The reader never reads: wait until `just` is blocked on it (its
      // pipe is full; `grouped` holds 64 MiB first).
      let _stderr = collect(child.stderr.take().unwrap());
      wait_until_full(child.stdout.as_ref().unwrap());
      process::signal(process::pid(&child), signal);
      let code = wait_within_group(&mut child, Duration::from_secs(180));
      let code = code.and_then(|exit| exit.code());
      assert_eq!(code, Some(status), "{mode} {signal}: just did not end");
    }
  }
}

/// Wait until the pipe `reader` reads from is full: its writer blocks.
fn wait_until_full(reader: &impl std::os::fd::AsRawFd) {
  wait_until("the pipe to fill", || pipe_is_full(reader.as_raw_fd()));
}

fn queued_in_pipe(fd: std::os::fd::RawFd) -> usize {
  let mut queued: libc::c_int = 0;
  // SAFETY: FIONREAD writes the number of queued bytes into a local.
  let asked = unsafe { libc::ioctl(fd, libc::FIONREAD, &raw mut queued) };
  assert_eq!(asked, 0, "FIONREAD failed");
  usize::try_from(queued).unwrap()
}

#[cfg(target_os = "linux")]
fn pipe_is_full(fd: std::os::fd::RawFd) -> bool {
  // SAFETY: F_GETPIPE_SZ only reads the pipe's capacity.
  let capacity = unsafe { libc::fcntl(fd, libc::F_GETPIPE_SZ) };
  queued_in_pipe(fd) >= usize::try_from(capacity).unwrap()
}

/// Without a way to ask the capacity: the smallest a pipe has (macOS
/// grows a pipe from 16 KiB for large writes).
#[cfg(not(target_os = "linux"))]
fn pipe_is_full(fd: std::os::fd::RawFd) -> bool {
  queued_in_pipe(fd) >= 16 << 10
}

/// `prefixed` writes each stream in its own turn: a stdout nobody reads (a
/// paused pager) holds back the recipe's stdout only, never its stderr,
/// and once the reader reads, the run ends with all of the output.
fn prefixed_stderr_goes_on_while_nobody_reads_stdout() {
  let justfile = "r:\n  @head -c 100000 /dev/zero; deadline=$(($(date +%s) + 20)); \
                  until [ -e go ] || [ $(date +%s) -gt $deadline ]; do sleep 0.01; done; \
                  echo started >&2\n";
  let (directory, mut child) = start_with_pipes(justfile, "prefixed");
  let stdout = child.stdout.take().unwrap();
  let stderr = collect(child.stderr.take().unwrap());
  wait_until_full(&stdout);
  std::fs::write(directory.path().join("go"), "").unwrap();
  if !poll_until(Duration::from_secs(180), || stderr.contains("started")) {
    process::signal(-process::pid(&child), libc::SIGKILL);
    let _ = child.wait();
    panic!("stderr was held back by the stdout nobody read");
  }
  let stdout = collect(stdout);
  let status = child.wait().unwrap();
  assert!(
    poll_until(Duration::from_secs(180), || stdout.ended() && stderr.ended()),
    "the output never ended"
  );
  assert_eq!(status.code(), Some(0));
  assert_eq!(stderr.text(), "[r] started\n");
  assert_eq!(stdout.text(), format!("[r] {}\n", "\0".repeat(100_000)));
}
