//! The process supervisor, driven for real: signals at many instants of a
//! run (around each spawn too), hundreds of children, grandchildren, the
//! scheduler's knowledge of failures, and a pseudo-terminal with a job
//! control shell. Every wait has a deadline; nothing sleeps long.

tests! {
  ;
  extensions:
  sigint_at_any_instant_leaves_no_process_and_no_temp_dir,
  sigint_at_any_instant_of_a_parallel_run_leaves_nothing,
  sigint_at_any_instant_of_a_watch_run_leaves_nothing,
  two_hundred_parallel_recipes_are_all_interrupted,
  sigterm_reaches_grandchildren,
  sigint_does_not_wait_for_background_jobs_that_ignore_it,
  parallel_recipe_that_outlives_an_interrupt_starts_nothing_more,
  continue_lets_only_its_own_recipe_go_on,
  #[cfg(target_os = "linux")]
  interrupt_taken_between_fork_and_exec_reaches_the_program,
  trap_started_by_an_interrupt_runs_its_programs_to_their_end,
  dependent_never_starts_after_its_dependency_failed,
  interrupted_keep_going_run_prints_the_summary_so_far,
  keep_going_prints_each_failure_when_it_happens,
  interactive_recipe_reads_the_terminal_and_is_stopped_and_resumed if has_bash,
  interactive_recipe_of_a_just_run_by_a_script_is_stopped_and_resumed if has_bash,
  recipe_of_a_background_just_waits_for_fg_to_read_the_terminal if has_bash,
  interrupt_key_on_the_terminal_ends_the_recipe_and_the_run if has_bash,
}

use std::fs;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::process::{self, poll_until, wait_until, Job};
use crate::common::pty::{has_bash, tail, Shell};

/// A marker unique to one run, written into the arguments of every
/// long-lived recipe process (as a `sleep` duration), so that survivors can
/// be found (in `/proc`, or through `ps` on macOS) whoever their parent is
/// now.
///
/// A recipe's shell may take a signal only after it started the `sleep`
/// (dash defers SIGINT while it forks), which then runs its whole time
/// before the run can end: the time is short enough for the run's deadline.
fn marker(run: usize) -> String {
  marker_lasting(10, run)
}

/// A marker whose `sleep` lasts `seconds`.
fn marker_lasting(seconds: u32, run: usize) -> String {
  format!("{seconds}.{:05}{run:04}", std::process::id() % 100_000)
}

/// How long a run may take to end after a signal: the marked `sleep`'s
/// time, on a loaded machine.
const EXIT_DEADLINE: Duration = Duration::from_secs(180);

/// The pids of live processes whose command line contains `marker`.
#[cfg(not(target_os = "linux"))]
fn survivors(marker: &str) -> Vec<(i32, String)> {
  let output = Command::new("ps").args(["-A", "-o", "pid=", "-o", "args="]).output().unwrap();
  assert!(output.status.success(), "ps failed: {:?}", output.status);
  String::from_utf8_lossy(&output.stdout)
    .lines()
    .filter(|line| line.contains(marker))
    .filter_map(|line| {
      let (pid, command) = line.trim_start().split_once(' ')?;
      Some((pid.parse().ok()?, command.trim().to_owned()))
    })
    .collect()
}

/// The pids of live processes whose command line contains `marker`.
#[cfg(target_os = "linux")]
fn survivors(marker: &str) -> Vec<(i32, String)> {
  process::processes()
    .into_iter()
    .map(|process| (process.pid, process.command_line.replace('\0', " ")))
    .filter(|(_, line)| line.contains(marker))
    .collect()
}

/// A `just` started in a project of its own, in a process group of its own
/// (as a shell's job), with its output collected.
struct Run {
  job: Job,
  directory: tempfile::TempDir,
}

impl Run {
  fn start(justfile: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let directory = tempfile::tempdir().unwrap();
    fs::write(directory.path().join("justfile"), justfile).unwrap();
    fs::create_dir(directory.path().join("scratch")).unwrap();
    let job = Job::start(
      Command::new(crate::common::binary())
        .args(["--tempdir", "scratch"])
        .args(args)
        .current_dir(directory.path())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .process_group(0),
    );
    Run { job, directory }
  }

  /// Signal `just` alone, or its whole group as a terminal would.
  fn signal(&self, signal: i32, group: bool) {
    self.job.signal(signal, group);
  }

  fn stderr(&self) -> String {
    self.job.stderr()
  }

  fn stdout(&self) -> String {
    self.job.stdout()
  }

  /// Wait for `just` to exit: its status (128 + signal if killed).
  fn wait(&mut self) -> i32 {
    let status = self.job.wait_exit(EXIT_DEADLINE);
    // The last output: until both streams end (a survivor holding one
    // open fails the test later, so this wait is bounded).
    poll_until(Duration::from_secs(5), || self.job.output_ended());
    status
  }

  fn scratch(&self) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(self.directory.path().join("scratch"))
      .unwrap()
      .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
      .collect();
    names.sort();
    names
  }
}

/// Recipes that start several processes in a row, scripts among them (each
/// with a temporary directory), then long ones carrying `marker`. Every
/// process writes a line to `log` as soon as it runs.
fn busy_justfile(marker: &str, parallel: bool) -> String {
  let attribute = if parallel { "[parallel]\n" } else { "" };
  format!(
    "{attribute}all: lines script long grandchild

lines:
  @echo line >> log
  @echo line >> log

script:
  #!/bin/sh
  echo script >> log

long:
  @echo long >> log; sleep {marker}

grandchild:
  #!/bin/sh
  echo grandchild >> log; sleep {marker}; true
"
  )
}

/// How many processes of a run have started.
fn started(run: &Run) -> usize {
  fs::read_to_string(run.directory.path().join("log")).map_or(0, |log| log.lines().count())
}

/// When to send SIGINT.
#[derive(Clone, Copy, Debug)]
enum When {
  /// This long after `just` starts.
  After(Duration),
  /// As soon as the `n`th process runs, while `just` pauses between its
  /// fork and its registration.
  Spawn(usize),
}

/// Send SIGINT to runs of `busy_justfile` at many instants, half to `just`
/// alone and half to its group; afterwards nothing may survive and no
/// temporary directory may be left.
fn interrupt_at_many_instants(parallel: bool, extra: &[&str]) {
  let timed = [0, 5, 15, 30, 50, 80, 120, 170, 250, 400]
    .map(|delay| When::After(Duration::from_millis(delay)));
  let spawns = [1, 2, 3, 4].map(When::Spawn);
  for (run_number, instant) in timed.into_iter().chain(spawns).enumerate() {
    let pause = if matches!(instant, When::Spawn(_)) { "150" } else { "0" };
    let marker = marker(run_number + if parallel { 100 } else { 0 } + extra.len() * 200);
    let mut run =
      Run::start(&busy_justfile(&marker, parallel), extra, &[("JUST_TEST_SPAWN_PAUSE_MS", pause)]);
    match instant {
      When::After(delay) => std::thread::sleep(delay),
      When::Spawn(count) => wait_until("the process to start", || started(&run) >= count),
    }
    run.signal(libc::SIGINT, run_number % 2 == 0);
    let status = run.wait();
    let context = format!("{instant:?}, status {status}\nstderr:\n{}", run.stderr());
    assert!(status == 130 || status == 0, "{context}");
    assert_eq!(survivors(&marker), Vec::new(), "{context}");
    assert_eq!(run.scratch(), Vec::<String>::new(), "{context}");
  }
}

fn sigint_at_any_instant_leaves_no_process_and_no_temp_dir() {
  interrupt_at_many_instants(false, &[]);
}

fn sigint_at_any_instant_of_a_parallel_run_leaves_nothing() {
  interrupt_at_many_instants(true, &[]);
}

fn sigint_at_any_instant_of_a_watch_run_leaves_nothing() {
  interrupt_at_many_instants(true, &["--watch"]);
}

fn two_hundred_parallel_recipes_are_all_interrupted() {
  let marker = marker(9000);
  let names: Vec<String> = (0..200).map(|index| format!("r{index}")).collect();
  let mut justfile = format!("[parallel]\nall: {}\n", names.join(" "));
  for name in &names {
    justfile.push_str(&format!("{name}:\n  @sleep {marker}; true\n"));
  }
  let mut run = Run::start(&justfile, &["--jobs", "200"], &[]);
  // Every shell has started its `sleep`.
  wait_until("200 sleeping recipes", || {
    survivors(&marker).iter().filter(|(_, line)| line.starts_with("sleep")).count() == 200
  });
  run.signal(libc::SIGINT, false);
  let status = run.wait();
  assert_eq!(status, 130, "{}", run.stderr());
  assert_eq!(survivors(&marker), Vec::new());
  assert_eq!(run.scratch(), Vec::<String>::new());
}

/// just 1.58 ends the shell but leaves its `sleep` running.
fn sigterm_reaches_grandchildren() {
  let marker = marker(9001);
  let mut run = Run::start(&format!("default:\n  @sleep {marker}; true\n"), &[], &[]);
  wait_until("the sleep", || !survivors(&marker).is_empty());
  run.signal(libc::SIGTERM, false);
  assert_eq!(run.wait(), 143, "{}", run.stderr());
  assert_eq!(survivors(&marker), Vec::new());
  assert_eq!(run.stderr(), "error: recipe `default` was terminated on line 2 by signal 15\n");
}

/// A background job ignores SIGINT (a non-interactive shell starts `cmd &`
/// so): after SIGINT `just` exits without waiting for it to end, as just
/// 1.58 does (it outlives `just` by far, so `just` waiting for it would
/// find it gone when it exits).
fn sigint_does_not_wait_for_background_jobs_that_ignore_it() {
  // Far longer than the recipe's own sleep, which may run its whole time
  // when the signal comes while dash forks it.
  let background = marker_lasting(600, 9004);
  let marker = marker(9005);
  let justfile = format!(
    "default:\n  @sleep {background} > /dev/null 2>&1 & echo ready >> log; sleep {marker}\n"
  );
  let mut run = Run::start(&justfile, &[], &[]);
  wait_until("the recipe", || run.directory.path().join("log").exists());
  // Until it runs `sleep`, the background job's shell may not ignore SIGINT
  // yet, and would die of it.
  wait_until("the background job", || {
    survivors(&background).iter().any(|(_, command)| command.starts_with("sleep"))
  });
  run.signal(libc::SIGINT, false);
  let status = run.wait();
  let left = survivors(&background);
  for (pid, _) in &left {
    // The background job the test made.
    process::signal(*pid, libc::SIGKILL);
  }
  assert_eq!(status, 130, "{}", run.stderr());
  assert_eq!(survivors(&marker), Vec::new());
  assert_eq!(left.len(), 1, "just waited for the background job");
}

/// A recipe's process forks, and its child takes SIGINT in the handler it
/// inherited (as a shell's child does between its fork and its exec), then
/// executes a program: the signal, noted in memory the exec discarded,
/// would be lost, and the program run its whole time. `just` passes it on
/// again to that program. Linux only: elsewhere the system does not show
/// whether a process has executed its program yet.
#[cfg(target_os = "linux")]
fn interrupt_taken_between_fork_and_exec_reaches_the_program() {
  let marker = marker_lasting(600, 9006);
  let justfile = format!(
    "default:
  #!/usr/bin/env python3
  import os, signal, time
  signal.signal(signal.SIGINT, lambda *_: None)
  child = os.fork()
  if child == 0:
      open('ready', 'w').close()
      while not os.path.exists('signalled'):
          time.sleep(0.01)
      os.execvp('sleep', ['sleep', '{marker}'])
  _, status = os.waitpid(child, 0)
  open('status.new', 'w').write(str(os.WTERMSIG(status) if os.WIFSIGNALED(status) else -1))
  os.rename('status.new', 'status')
"
  );
  let mut run = Run::start(&justfile, &[], &[]);
  let directory = run.directory.path().to_owned();
  wait_until("the forked child", || directory.join("ready").exists());
  run.signal(libc::SIGINT, false);
  fs::write(directory.join("signalled"), "").unwrap();
  let status = directory.join("status");
  let mut ended = None;
  poll_until(process::DEADLINE, || {
    ended = fs::read_to_string(&status).ok();
    ended.is_some()
  });
  for (pid, _) in survivors(&marker) {
    // The sleep the test made, left running.
    process::signal(pid, libc::SIGKILL);
  }
  assert_eq!(ended.as_deref(), Some("2"), "the program ran on after the interrupt");
  assert_eq!(run.wait(), 130, "{}", run.stderr());
  assert_eq!(run.stderr(), "error: interrupted by SIGINT\n");
}

/// What a recipe's trap starts after the interrupt is not interrupted in
/// turn: only a process that was starting as the signal went is sent it
/// again.
fn trap_started_by_an_interrupt_runs_its_programs_to_their_end() {
  let justfile = "default:\n  @trap 'sleep 0.3 && echo cleaned >> log; exit 0' INT; \
                  echo ready >> log; while :; do sleep 0.01; done\n";
  let mut run = Run::start(justfile, &[], &[]);
  let log = run.directory.path().join("log");
  wait_until("the recipe", || log.exists());
  run.signal(libc::SIGINT, false);
  assert_eq!(run.wait(), 130, "{}", run.stderr());
  assert_eq!(run.stderr(), "error: interrupted by SIGINT\n");
  assert_eq!(fs::read_to_string(&log).unwrap(), "ready\ncleaned\n");
}

/// Both recipes ignore SIGINT and succeed after it: the first to end stops
/// with the interrupt, and the other, ending later, does not go on to its
/// next line (the signal stays pending for the whole run).
fn parallel_recipe_that_outlives_an_interrupt_starts_nothing_more() {
  let marker = marker(9003);
  let wait = |file: &str| format!("while [ ! -e {file} ]; do sleep 0.01; done # {marker}");
  let justfile = format!(
    "[parallel]\nall: first second\nfirst:\n  @trap '' INT; echo first >> log; {}\n\
     second:\n  @trap '' INT; echo second >> log; {}\n  @echo second line two\n",
    wait("go-first"),
    wait("go-second"),
  );
  let mut run = Run::start(&justfile, &[], &[]);
  wait_until("both recipes", || started(&run) == 2);
  run.signal(libc::SIGINT, false);
  fs::write(run.directory.path().join("go-first"), "").unwrap();
  wait_until("the first recipe to end", || {
    survivors(&marker).iter().all(|(_, line)| !line.contains("go-first"))
  });
  fs::write(run.directory.path().join("go-second"), "").unwrap();
  assert_eq!(run.wait(), 130, "{}", run.stderr());
  assert_eq!(run.stdout(), "");
  assert_eq!(run.stderr(), "error: interrupted by SIGINT\n");
}

/// A `[parallel]` run of a recipe that goes on past SIGINT (`[continue]`,
/// or a `-` line) and a sibling that does not, both handling SIGINT and
/// ending once told to: only the first goes on to its next line, whichever
/// of the two ends first, and the run ends with the interrupt's status.
/// What it prints after the signal still reaches a reader who reads, in
/// every `--output` mode.
fn continue_lets_only_its_own_recipe_go_on() {
  let rounds = ["interleaved", "prefixed", "grouped"].into_iter().flat_map(|mode| {
    [("[continue]\n", ""), ("", "-")].into_iter().flat_map(move |(attribute, sigil)| {
      [("keeps", "stops"), ("stops", "keeps")]
        .map(|(first, second)| (mode, attribute, sigil, first, second))
    })
  });
  for (round, (mode, attribute, sigil, first, second)) in rounds.enumerate() {
    let marker = marker(9100 + round);
    let line = |name: &str, sigil: &str| {
      format!(
        "  {sigil}@trap 'echo {name} interrupted >> log' INT; echo {name} >> log; \
         while [ ! -e go-{name} ]; do sleep 0.01; done # {marker}\n  @echo {name} goes on\n"
      )
    };
    let justfile = format!(
      "[parallel]\nall: keeps stops\n{attribute}keeps:\n{}stops:\n{}",
      line("keeps", sigil),
      line("stops", "")
    );
    let expected = if mode == "prefixed" { "[keeps] keeps goes on\n" } else { "keeps goes on\n" };
    let mut run = Run::start(&justfile, &["--output", mode], &[]);
    wait_until("both recipes", || started(&run) == 2);
    run.signal(libc::SIGINT, round % 2 == 0);
    wait_until("both traps", || started(&run) == 4);
    fs::write(run.directory.path().join(format!("go-{first}")), "").unwrap();
    wait_until("the first recipe to end", || {
      survivors(&marker).iter().all(|(_, line)| !line.contains(&format!("go-{first}")))
    });
    if first == "keeps" {
      wait_until("the recipe that continues", || run.stdout() == expected);
    }
    fs::write(run.directory.path().join(format!("go-{second}")), "").unwrap();
    let context = format!("round {round}, {mode}, {attribute:?}{sigil:?}, {first} first");
    assert_eq!(run.wait(), 130, "{context}: {}", run.stderr());
    assert_eq!(run.stdout(), expected, "{context}");
    assert_eq!(run.stderr(), "error: interrupted by SIGINT\n", "{context}");
  }
}

fn dependent_never_starts_after_its_dependency_failed() {
  // The comment keeps the line numbers of the serial variant the same.
  for (round, attribute) in
    (0..50).flat_map(|round| [(round, "[parallel]\n"), (round, "# serial\n")])
  {
    let justfile =
      format!("{attribute}all: a b c\na:\n  @exit 3\nb: a\n  @echo b ran\nc: b\n  @echo c ran\n");
    let mut run = Run::start(&justfile, &[], &[]);
    let status = run.wait();
    let context =
      format!("round {round} {attribute}: stdout {:?}, stderr {:?}", run.stdout(), run.stderr());
    assert_eq!(status, 3, "{context}");
    assert_eq!(run.stdout(), "", "{context}");
    assert_eq!(run.stderr(), "error: recipe `a` failed on line 4 with exit code 3\n", "{context}");
  }
}

fn interrupted_keep_going_run_prints_the_summary_so_far() {
  let marker = marker(9002);
  let justfile = format!("all: a b c\na:\n  @exit 4\nb:\n  @sleep {marker}\nc:\n  @echo c\n");
  let mut run = Run::start(&justfile, &["-k"], &[]);
  wait_until("the sleep", || !survivors(&marker).is_empty());
  run.signal(libc::SIGINT, true);
  assert_eq!(run.wait(), 130, "{}", run.stderr());
  assert_eq!(run.stdout(), "");
  assert_eq!(
    run.stderr(),
    "error: recipe `a` failed on line 3 with exit code 4
error: recipe `b` was terminated on line 5 by signal 2
failed: recipe `a` (exit status 4)
interrupted: the run was stopped by SIGINT
"
  );
  assert_eq!(survivors(&marker), Vec::new());
}

/// `b` waits for a file that the test writes only once `a`'s failure is on
/// standard error.
fn keep_going_prints_each_failure_when_it_happens() {
  let justfile = "a:\n  @exit 4\nb:\n  @while [ ! -e go ]; do sleep 0.01; done; echo b\n";
  let mut run = Run::start(justfile, &["-k", "a", "b"], &[]);
  wait_until("the failure of `a`", || run.stderr().contains("error: recipe `a` failed"));
  fs::write(run.directory.path().join("go"), "").unwrap();
  assert_eq!(run.wait(), 4);
  assert_eq!(run.stdout(), "b\n");
  assert_eq!(
    run.stderr(),
    "error: recipe `a` failed on line 2 with exit code 4\nfailed: recipe `a` (exit status 4)\n"
  );
}

/// Whether the recipe's process group is the terminal's foreground group
/// (fields 5 and 8 of `/proc/PID/stat`), as a shell line.
const FOREGROUND: &str =
  "set -- $(cat /proc/$$/stat); if [ \"$5\" = \"$8\" ]; then where=foreground; else where=background; fi";

fn interactive_recipe_reads_the_terminal_and_is_stopped_and_resumed() {
  stop_and_resume("just ask");
}

/// `just` shares its process group with the script that runs it: Ctrl-Z
/// stops them all, as a job.
fn interactive_recipe_of_a_just_run_by_a_script_is_stopped_and_resumed() {
  stop_and_resume("bash -c 'just ask; echo script went on'");
}

/// Type `command`, which runs the recipe `ask`; stop it with Ctrl-Z while it
/// reads the terminal, continue it with `fg`, and answer.
fn stop_and_resume(command: &str) {
  let justfile = format!(
    "ask:\n  @{FOREGROUND}; echo \"ready in the $where\"; read -r answer; {FOREGROUND}; echo \"got $answer in the $where\"\n"
  );
  let mut shell = Shell::start(&justfile);
  shell.type_text(&format!("{command}\n"));
  let at = shell.expect_after(0, "ready in the foreground");
  // Ctrl-Z stops the recipe, and `just` with it: the shell has the
  // terminal again.
  shell.type_text("\x1a");
  let at = shell.expect_after(at, "Stopped");
  shell.type_text("fg\n");
  // The answer only once the shell has given the job the terminal (it
  // prints the job's command line): typed ahead, the shell may take it.
  let at = shell.expect_after(at, &format!("\n{command}"));
  shell.type_text("yes\n");
  let at = shell.expect_after(at, "got yes in the foreground");
  shell.type_text("echo \"status $?\"\n");
  shell.expect_after(at, "status 0");
  // Reading the terminal never stopped the recipe: only Ctrl-Z did.
  assert_eq!(shell.screen().matches("Stopped").count(), 1, "{}", shell.screen());
}

/// `just &`: the recipe, in the background job with `just`, stops when it
/// reads the terminal; `fg` gives the job the terminal and continues it.
fn recipe_of_a_background_just_waits_for_fg_to_read_the_terminal() {
  let justfile =
    format!("ask:\n  @read -r answer; {FOREGROUND}; echo \"got $answer in the $where\"\n");
  let mut shell = Shell::start(&justfile);
  shell.type_text("just ask &\n");
  // `fg` only once the job has stopped on its read: typed before, the shell
  // may take the stop it learns of afterwards for one after `fg`, take the
  // terminal back and read the answer itself.
  let at = shell.expect_after(0, "[1] ");
  let end = shell.expect_after(at, "\r\n");
  let pid = shell.screen()[at..end - 2].to_owned();
  wait_until("the background job to stop on its read", || process::state_of(&pid) == Some('T'));
  let end = wait_for_the_shell_to_see_the_job_stopped(&mut shell, end);
  shell.type_text("fg\n");
  let at = shell.expect_after(end, "\njust ask");
  shell.type_text("yes\n");
  let at = shell.expect_after(at, "got yes in the foreground");
  shell.type_text("echo \"status $?\"\n");
  shell.expect_after(at, "status 0");
}

/// The shell learns that its job stopped when it handles SIGCHLD, some time
/// after the kernel stopped it: ask `jobs` until it says so. The marker is
/// typed as arithmetic so that the terminal's echo of the line never matches.
fn wait_for_the_shell_to_see_the_job_stopped(shell: &mut Shell, from: usize) -> usize {
  let deadline = Instant::now() + process::DEADLINE;
  let mut from = from;
  for round in 1.. {
    shell.type_text(&format!("jobs; echo asked-$(( {round} ))-times\n"));
    let asked = shell.expect_after(from, &format!("asked-{round}-times\r\n"));
    if shell.screen()[from..asked].contains("Stopped") {
      return asked;
    }
    assert!(
      Instant::now() < deadline,
      "the shell never saw its job stop:\n{}",
      tail(&shell.screen())
    );
    std::thread::sleep(Duration::from_millis(50));
    from = asked;
  }
  unreachable!("the rounds never end")
}

fn interrupt_key_on_the_terminal_ends_the_recipe_and_the_run() {
  let justfile = "slow: && after\n  @echo ready; sleep 20\nafter:\n  @echo after\n";
  let mut shell = Shell::start(justfile);
  shell.type_text("just slow\n");
  let at = shell.expect_after(0, "ready");
  shell.type_text("\x03");
  let at = shell.expect_after(at, "error: recipe `slow` was terminated on line 2 by signal 2");
  shell.type_text("echo \"status $?\"\n");
  shell.expect_after(at, "status 130");
  assert!(!shell.screen().contains("after\r\n"), "{}", shell.screen());
}
