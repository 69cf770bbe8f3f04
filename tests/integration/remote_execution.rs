//! `--remote-executor`: `[cache]` recipes run on the workers of `BuildGrid`'s
//! scheduler (the farm of `tests/common/farm.rs`: `PostgreSQL`, `BuildGrid`, workers
//! of ours speaking the Bots API). Each test names its recipes after
//! itself, so that the workers' journal tells which actions it ran. Without
//! the farm's virtual environment the tests are ignored.

use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::farm::{available, farm, Event};
use crate::common::process::{self, poll_until, wait_within};
use crate::common::servers::free_port;
use crate::common::store::mode;
use crate::common::{just_in, run_just, text};

tests! {
  ;
  extensions:
  remote_run_equals_the_local_run if available,
  #[cfg(unix)]
  remote_run_brings_back_every_permission_bit if available,
  remote_repeat_in_another_checkout_is_a_hit if available,
  remote_exit_status_is_the_local_one_and_nothing_is_cached if available,
  remote_and_local_recipes_mix_with_dependencies if available,
  remote_parallel_recipes_run_on_two_workers_at_once if available,
  remote_worker_killed_mid_action_is_replaced if available,
  remote_interrupt_cancels_the_operation if available,
  remote_timeout_is_sent_to_the_server if available,
  remote_properties_choose_the_worker if available,
  remote_dry_run_says_where_recipes_would_run,
  remote_executor_down_is_one_error,
  remote_executor_down_with_fallback_runs_locally,
}

/// A project whose recipe `NAME` (each test its own) builds outputs from
/// an input, printing to both streams.
fn project(root: &Path, name: &str) -> std::path::PathBuf {
  let directory = root.join("checkout");
  fs::create_dir_all(directory.join("src")).expect("checkout");
  fs::write(directory.join("src/a.txt"), "A\n").expect("input");
  fs::write(
    directory.join("justfile"),
    format!(
      r#"set unstable
set lists

[cache(inputs=['src/a.txt'], outputs=['out', 'bin'])]
{name}:
  #!/bin/sh
  echo "building from $(cat src/a.txt)"
  echo "a warning" >&2
  mkdir -p out/sub
  cat src/a.txt > out/sub/file
  ln -sf sub/file out/link
  printf '#!/bin/sh\necho hi\n' > bin
  chmod 755 bin
"#
    ),
  )
  .expect("justfile");
  directory
}

fn executor(instance: &str) -> String {
  format!("--remote-executor={}", farm().url(instance))
}

/// The actions of recipe `name` the journal shows starting.
fn starts(events: &[Event], name: &str) -> usize {
  events
    .iter()
    .filter(|e| e.event == "start" && e.arguments.iter().any(|a| a.ends_with(&format!("/{name}"))))
    .count()
}

fn assert_same_tree(a: &Path, b: &Path) {
  for path in ["out/sub/file", "bin"] {
    assert_eq!(fs::read(a.join(path)).expect("a"), fs::read(b.join(path)).expect("b"), "{path}");
  }
  #[cfg(unix)]
  assert_eq!(mode(&a.join("bin")) & 0o111, mode(&b.join("bin")) & 0o111, "executable bit");
  assert_eq!(fs::read_link(b.join("out/link")).expect("link"), Path::new("sub/file"));
}

fn remote_run_equals_the_local_run() {
  let name = "equals_local";
  let local = tempfile::tempdir().expect("tempdir");
  let remote = tempfile::tempdir().expect("tempdir");
  let (local, remote) = (project(local.path(), name), project(remote.path(), name));
  let here = run_just(&local, &[name]);
  let there = run_just(&remote, &[&executor(""), name]);
  assert_eq!(here.status.code(), Some(0), "{}", text(&here.stderr));
  assert_eq!(there.status.code(), Some(0), "{}", text(&there.stderr));
  assert_eq!(text(&there.stdout), text(&here.stdout));
  assert_eq!(text(&there.stderr), text(&here.stderr));
  assert_eq!(text(&there.stdout), "building from A\n");
  assert_same_tree(&local, &remote);
  assert_eq!(starts(&farm().shared_journal().events(), name), 1, "the worker ran it once");
}

/// Modes other than the executable bit come back from the worker: the
/// Command asks for the `unix_mode` node property.
#[cfg(unix)]
fn remote_run_brings_back_every_permission_bit() {
  let name = "permission_bits";
  let root = tempfile::tempdir().expect("tempdir");
  let directory = root.path().join("checkout");
  fs::create_dir_all(&directory).expect("checkout");
  fs::write(
    directory.join("justfile"),
    format!(
      r#"set unstable
set lists

[cache(outputs=['data', 'tools'])]
{name}:
  #!/bin/sh
  echo private > data
  chmod 640 data
  mkdir tools
  echo secret > tools/key
  chmod 600 tools/key
  chmod 750 tools
"#
    ),
  )
  .expect("justfile");
  let there = run_just(&directory, &[&executor(""), name]);
  assert_eq!(there.status.code(), Some(0), "{}", text(&there.stderr));
  assert_eq!(starts(&farm().shared_journal().events(), name), 1, "the worker ran it");
  assert_eq!(fs::read_to_string(directory.join("tools/key")).expect("key"), "secret\n");
  let modes: Vec<u32> =
    ["data", "tools", "tools/key"].iter().map(|path| mode(&directory.join(path)) & 0o777).collect();
  assert_eq!(modes, [0o640, 0o750, 0o600], "data, tools, tools/key");
}

fn remote_repeat_in_another_checkout_is_a_hit() {
  let name = "repeat_hit";
  let first = tempfile::tempdir().expect("tempdir");
  let second = tempfile::tempdir().expect("tempdir");
  let (first, second) = (project(first.path(), name), project(second.path(), name));
  let one = run_just(&first, &[&executor(""), name]);
  assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
  let two = run_just(&second, &[&executor(""), "-v", name]);
  assert_eq!(two.status.code(), Some(0), "{}", text(&two.stderr));
  assert_eq!(text(&two.stdout), text(&one.stdout));
  assert!(!text(&two.stderr).contains("running remotely"), "{}", text(&two.stderr));
  assert_same_tree(&first, &second);
  assert_eq!(starts(&farm().shared_journal().events(), name), 1, "the worker ran it once");
}

fn failing_project(root: &Path, name: &str) -> std::path::PathBuf {
  let directory = root.join("checkout");
  fs::create_dir_all(&directory).expect("checkout");
  fs::write(directory.join("in.txt"), "x\n").expect("input");
  fs::write(
    directory.join("justfile"),
    format!(
      "set unstable\nset lists\n\n[cache(inputs=['in.txt'], outputs=['out'])]\n{name}:\n  #!/bin/sh\n  echo to stdout\n  echo to stderr >&2\n  echo partial > out\n  exit 3\n"
    ),
  )
  .expect("justfile");
  directory
}

fn remote_exit_status_is_the_local_one_and_nothing_is_cached() {
  let name = "exit_three";
  let local = tempfile::tempdir().expect("tempdir");
  let remote = tempfile::tempdir().expect("tempdir");
  let (local, remote) = (failing_project(local.path(), name), failing_project(remote.path(), name));
  let here = run_just(&local, &[name]);
  let there = run_just(&remote, &[&executor(""), name]);
  assert_eq!(here.status.code(), Some(3));
  assert_eq!(there.status.code(), Some(3), "{}", text(&there.stderr));
  assert_eq!(text(&there.stdout), text(&here.stdout));
  let server = format!("127.0.0.1:{}", farm().port);
  let note = format!(
    "note: recipe `{name}` ran remotely on `{server}`; a worker has only the recipe's declared `[cache]` inputs\n"
  );
  assert_eq!(
    text(&there.stderr),
    text(&here.stderr).replacen("error:", &format!("{note}error:"), 1)
  );
  assert!(!remote.join("out").exists(), "a failed remote run restores nothing");
  let again = run_just(&remote, &[&executor(""), name]);
  assert_eq!(again.status.code(), Some(3));
  assert_eq!(starts(&farm().shared_journal().events(), name), 2, "the failure was not cached");
}

fn remote_and_local_recipes_mix_with_dependencies() {
  let directory = tempfile::tempdir().expect("tempdir");
  let root = directory.path();
  fs::write(
    root.join("justfile"),
    "set unstable\nset lists\n\n\
     generate:\n  mkdir -p src && echo generated > src/gen.txt\n\n\
     [cache(inputs=['src/gen.txt'], outputs=['mixed.out'])]\n\
     mixed_remote: generate\n  #!/bin/sh\n  tr a-z A-Z < src/gen.txt > mixed.out\n  echo remote part\n\n\
     report: mixed_remote\n  @echo \"local after: $(cat mixed.out)\"\n",
  )
  .expect("justfile");
  let output = run_just(root, &[&executor(""), "--explain", "report"]);
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  assert_eq!(text(&output.stdout), "remote part\nlocal after: GENERATED\n");
  let server = format!("127.0.0.1:{}", farm().port);
  assert_eq!(
    text(&output.stderr),
    format!("mkdir -p src && echo generated > src/gen.txt\n===> running remotely on `{server}`\n"),
    "the local recipe echoes its line, the remote one says where it runs"
  );
  assert_eq!(starts(&farm().shared_journal().events(), "mixed_remote"), 1);
}

fn remote_parallel_recipes_run_on_two_workers_at_once() {
  let farm = farm();
  let workers = [farm.worker("parallel", &[]), farm.worker("parallel", &[])];
  let directory = tempfile::tempdir().expect("tempdir");
  let root = directory.path();
  let mut justfile =
    String::from("set unstable\nset lists\n\n[parallel]\nall: shard1 shard2 shard3 shard4\n");
  for shard in 1..=4 {
    justfile.push_str(&format!(
      "\n[cache(outputs=['shard{shard}.out'])]\nshard{shard}:\n  #!/bin/sh\n  sleep 2\n  echo {shard} > shard{shard}.out\n"
    ));
  }
  fs::write(root.join("justfile"), justfile).expect("justfile");
  // One local slot: remote actions do not take local slots.
  let output = run_just(root, &[&executor("parallel"), "--jobs=1", "all"]);
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  for shard in 1..=4 {
    assert_eq!(
      fs::read_to_string(root.join(format!("shard{shard}.out"))).expect("out"),
      format!("{shard}\n")
    );
  }
  let events = workers[0].journal.events();
  let runs: Vec<(f64, f64, String)> = events
    .iter()
    .filter(|e| e.event == "start")
    .filter_map(|start| {
      let end = events.iter().find(|e| e.event == "end" && e.lease == start.lease)?;
      Some((start.time, end.time, start.bot.clone()))
    })
    .collect();
  assert_eq!(runs.len(), 4, "{events:?}");
  let overlapping = runs
    .iter()
    .enumerate()
    .any(|(i, a)| runs.iter().skip(i + 1).any(|b| a.0 < b.1 && b.0 < a.1 && a.2 != b.2));
  assert!(overlapping, "no two actions ran at once on two workers: {runs:?}");
}

fn remote_worker_killed_mid_action_is_replaced() {
  let farm = farm();
  let mut first = farm.worker("killed", &[]);
  let directory = tempfile::tempdir().expect("tempdir");
  let root = directory.path();
  fs::write(
    root.join("justfile"),
    "set unstable\nset lists\n\n[cache(outputs=['killed.out'])]\nkilled_action:\n  #!/bin/sh\n  sleep 3\n  echo survived > killed.out\n",
  )
  .expect("justfile");
  let child = just_in(root, &[&executor("killed"), "killed_action"])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("start just");
  first.journal.wait_for_start("killed_action");
  first.kill();
  // The server notices the lost worker when its session expires, and
  // queues the action again for the next one.
  let _second = farm.worker("killed", &[]);
  let output = child.wait_with_output().expect("wait for just");
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  assert_eq!(fs::read_to_string(root.join("killed.out")).expect("out"), "survived\n");
  let starts: Vec<Event> = first.journal.started("killed_action");
  assert_eq!(starts.len(), 2, "{starts:?}");
  assert_ne!(starts[0].bot, starts[1].bot);
}

fn remote_interrupt_cancels_the_operation() {
  let farm = farm();
  let worker = farm.worker("cancelled", &[]);
  let directory = tempfile::tempdir().expect("tempdir");
  let root = directory.path();
  fs::write(
    root.join("justfile"),
    "set unstable\nset lists\n\n[cache(outputs=['never.out'])]\ninterrupted_action:\n  #!/bin/sh\n  sleep 120\n  echo late > never.out\n",
  )
  .expect("justfile");
  let mut child = just_in(root, &[&executor("cancelled"), "interrupted_action"])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("start just");
  let started = worker.journal.wait_for_start("interrupted_action");
  process::signal(process::pid(&child), libc::SIGINT);
  let status = wait_within(&mut child, Duration::from_secs(120));
  let status = status.expect("just did not end after SIGINT");
  assert_eq!(status.code(), Some(130));
  // The worker was told: its lease was cancelled and the action killed.
  let mut events = Vec::new();
  let cancelled = poll_until(Duration::from_secs(120), || {
    events = worker.journal.events();
    events.iter().any(|e| e.event == "cancelled" && e.lease == started.lease)
  });
  assert!(cancelled, "the operation was not cancelled: {events:?}");
  assert!(!root.join("never.out").exists());
  let left: Vec<_> =
    fs::read_dir(root).expect("read").filter_map(Result::ok).map(|e| e.file_name()).collect();
  assert_eq!(left.len(), 2, "only the justfile and .justcache remain: {left:?}");
}

fn remote_timeout_is_sent_to_the_server() {
  let farm = farm();
  let _worker = farm.worker("timeout", &[]);
  let directory = tempfile::tempdir().expect("tempdir");
  let root = directory.path();
  fs::write(
    root.join("justfile"),
    "set unstable\nset lists\n\n[cache(outputs=['slow.out'])]\nslow_action:\n  #!/bin/sh\n  sleep 60\n  echo late > slow.out\n",
  )
  .expect("justfile");
  let output = run_just(root, &[&executor("timeout"), "--remote-timeout=1", "slow_action"]);
  assert_eq!(output.status.code(), Some(1));
  let server = format!("127.0.0.1:{}", farm.port);
  assert_eq!(
    text(&output.stderr),
    format!("error: recipe `slow_action` failed to run remotely on `{server}`: the action ran past its timeout; a worker has only the recipe's declared `[cache]` inputs\n")
  );
}

fn remote_properties_choose_the_worker() {
  let farm = farm();
  let plain = farm.worker("properties", &[]);
  let gpu = farm.worker("properties", &["pool=gpu"]);
  let directory = tempfile::tempdir().expect("tempdir");
  let root = directory.path();
  fs::write(
    root.join("justfile"),
    "set unstable\nset lists\n\n[cache(outputs=['gpu.out'])]\ngpu_action:\n  #!/bin/sh\n  echo ok > gpu.out\n",
  )
  .expect("justfile");
  let output =
    run_just(root, &[&executor("properties"), "--remote-property=pool=gpu", "gpu_action"]);
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  let starts = plain.journal.started("gpu_action");
  assert_eq!(starts.len(), 1);
  assert_eq!(starts[0].bot, gpu.bot_id, "the action ran on the worker with the property");
}

fn remote_dry_run_says_where_recipes_would_run() {
  let directory = tempfile::tempdir().expect("tempdir");
  let root = project(directory.path(), "dry");
  let output = run_just(
    &root,
    &["--remote-executor=grpc://user:secret@example.invalid:9/main", "--dry-run", "dry"],
  );
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  let stderr = text(&output.stderr);
  assert!(
    stderr.ends_with(
      "===> recipe `dry` would run remotely on `example.invalid:9` unless its result is cached\n"
    ),
    "{stderr}"
  );
  assert!(!stderr.contains("secret"));
}

fn remote_executor_down_is_one_error() {
  let directory = tempfile::tempdir().expect("tempdir");
  let root = project(directory.path(), "down");
  let port = free_port();
  let started = Instant::now();
  let output = run_just(
    &root,
    &[
      &format!("--remote-executor=grpc://user:secret@127.0.0.1:{port}"),
      "--cache-timeout=5",
      "down",
    ],
  );
  assert!(started.elapsed() < Duration::from_secs(60));
  assert_eq!(output.status.code(), Some(1));
  let stderr = text(&output.stderr);
  assert!(
    stderr.starts_with(&format!("error: cannot use remote executor `127.0.0.1:{port}`: ")),
    "{stderr}"
  );
  assert_eq!(stderr.lines().count(), 1, "{stderr}");
  assert!(!stderr.contains("secret"), "{stderr}");
  assert_eq!(text(&output.stdout), "");
  assert!(!root.join("out").exists(), "nothing ran locally");
}

fn remote_executor_down_with_fallback_runs_locally() {
  let directory = tempfile::tempdir().expect("tempdir");
  let root = project(directory.path(), "fallback");
  let port = free_port();
  let output = run_just(
    &root,
    &[&format!("--remote-executor=grpc://127.0.0.1:{port}"), "--remote-fallback", "fallback"],
  );
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  assert_eq!(text(&output.stdout), "building from A\n");
  let stderr = text(&output.stderr);
  assert!(
    stderr.starts_with(&format!("warning: cannot use remote executor `127.0.0.1:{port}`: ")),
    "{stderr}"
  );
  assert!(stderr.contains("; running the recipe here (`--remote-fallback`)\n"), "{stderr}");
  assert!(root.join("out/sub/file").exists());
}
