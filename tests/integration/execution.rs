//! Hand-written execution tests: signals, temporary files and timing output.

use std::process::{Command, Stdio};

use crate::common::process::{wait_until, Job, DEADLINE};
use crate::common::Test;

tests! {
  sigint_waits_for_child_then_reports_interruption,
  sigterm_is_forwarded_to_the_child,
  sigterm_forwarding_note_with_verbose,
  sighup_and_sigquit_statuses,
  continue_attribute_keeps_going_after_sigint,
  continue_attribute_does_not_cover_sighup_by_default,
  continue_attribute_lets_the_rest_of_a_serial_run_go_on,
  script_recipe_finishes_then_reports_interruption,
  sigint_during_backtick,
  signal_without_child_exits_at_once_silently,
  script_tempdir_missing_is_an_io_error,
  time_flag_reports_duration,
  cache_key_names_the_entry_file,
  shebang_script_runs_from_temporary_file,
  backtick_environment_has_invocation_directory_shape,
  ;
  extensions:
  script_tempdir_is_private_and_removed,
  cache_input_globs_expand_in_name_order,
  cache_inputs_of_every_size_hash_to_the_blake3_of_their_contents,
  sigint_to_just_alone_reaches_the_recipe,
}

/// What shows that the run is where the signal should reach it.
#[derive(Clone, Copy)]
enum Ready {
  /// The recipe made the file `started` (its command is running).
  Started,
  /// `just` wrote this to stderr.
  Stderr(&'static str),
}

/// Run `just ARGS` in a directory holding `justfile`, send `signal` once
/// it is `ready`, and return (status, stdout, stderr). With `stdin`, its
/// standard input is a pipe kept open until `just` exits.
fn run_with_signal(
  justfile: &str,
  args: &[&str],
  signal: i32,
  stdin: bool,
) -> (i32, String, String) {
  let ready = if stdin { Ready::Stderr("? ") } else { Ready::Started };
  let directory = tempfile::tempdir().expect("tempdir");
  std::fs::write(directory.path().join("justfile"), justfile).expect("write justfile");
  let mut command = Command::new(crate::common::binary());
  command
    .args(args)
    .current_dir(directory.path())
    .env_clear()
    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
    .env("NO_COLOR", "1")
    .stdin(if stdin { Stdio::piped() } else { Stdio::null() });
  let mut job = Job::start(&mut command);
  let input = job.child.stdin.take();
  let started = directory.path().join("started");
  wait_until("the run to be ready for the signal", || match ready {
    Ready::Started => started.exists(),
    Ready::Stderr(text) => job.stderr().contains(text),
  });
  job.signal(signal, false);
  let status = job.wait_exit(DEADLINE);
  drop(input);
  wait_until("the output to end", || job.output_ended());
  (status, job.stdout(), job.stderr())
}

/// `default` is ended by any signal; the others ignore the signals `just`
/// passes on, finish, and leave `just` to act on the signal. Each makes
/// `started` once its command runs (after the trap), and outlives the
/// signal by a second.
const SLEEPER: &str = "default:\n  @touch started; sleep 1\n  @echo after\n\n\
  trapping:\n  @trap '' HUP INT QUIT; touch started; sleep 1\n  @echo after\n\n\
  [continue]\ncont:\n  @trap '' HUP INT QUIT; touch started; sleep 1\n  @echo after\n\n\
  script:\n  #!/bin/sh\n  trap '' INT\n  touch started\n  sleep 1\n  echo after\n";

fn sigint_waits_for_child_then_reports_interruption() {
  let (status, stdout, stderr) = run_with_signal(SLEEPER, &["trapping"], libc::SIGINT, false);
  assert_eq!(
    (status, stdout.as_str(), stderr.as_str()),
    (130, "", "error: interrupted by SIGINT\n")
  );
}

/// just 1.58 passes on only SIGTERM: a SIGINT sent to `just` alone let
/// `sleep` finish there.
fn sigint_to_just_alone_reaches_the_recipe() {
  let (status, stdout, stderr) = run_with_signal(SLEEPER, &[], libc::SIGINT, false);
  assert_eq!(
    (status, stdout.as_str(), stderr.as_str()),
    (130, "", "error: recipe `default` was terminated on line 2 by signal 2\n")
  );
}

fn sigterm_is_forwarded_to_the_child() {
  let (status, stdout, stderr) = run_with_signal(SLEEPER, &[], libc::SIGTERM, false);
  assert_eq!(
    (status, stdout.as_str(), stderr.as_str()),
    (143, "", "error: recipe `default` was terminated on line 2 by signal 15\n")
  );
}

fn sigterm_forwarding_note_with_verbose() {
  let (status, _, stderr) = run_with_signal(SLEEPER, &["-v"], libc::SIGTERM, false);
  assert_eq!(status, 143);
  assert!(stderr.contains("just: sending SIGTERM to child process "), "{stderr}");
}

fn sighup_and_sigquit_statuses() {
  for (signal, status, name) in [(libc::SIGHUP, 129, "SIGHUP"), (libc::SIGQUIT, 131, "SIGQUIT")] {
    let (actual, _, stderr) = run_with_signal(SLEEPER, &["trapping"], signal, false);
    assert_eq!((actual, stderr), (status, format!("error: interrupted by {name}\n")));
  }
}

fn continue_attribute_keeps_going_after_sigint() {
  let (status, stdout, stderr) = run_with_signal(SLEEPER, &["cont"], libc::SIGINT, false);
  assert_eq!((status, stdout.as_str(), stderr.as_str()), (0, "after\n", ""));
}

/// A recipe that continues on the signal takes it for the whole of a
/// serial run: its dependent and the dependent's subsequent run too.
fn continue_attribute_lets_the_rest_of_a_serial_run_go_on() {
  let justfile = "all: cont && post\n  @echo all ran\n\npost:\n  @echo post ran\n\n\
                  [continue]\ncont:\n  @trap '' INT; touch started; sleep 1\n  @echo after\n";
  let (status, stdout, stderr) = run_with_signal(justfile, &[], libc::SIGINT, false);
  assert_eq!((status, stdout.as_str(), stderr.as_str()), (0, "after\nall ran\npost ran\n", ""));
}

fn continue_attribute_does_not_cover_sighup_by_default() {
  let (status, stdout, stderr) = run_with_signal(SLEEPER, &["cont"], libc::SIGHUP, false);
  assert_eq!(
    (status, stdout.as_str(), stderr.as_str()),
    (129, "", "error: interrupted by SIGHUP\n")
  );
}

fn script_recipe_finishes_then_reports_interruption() {
  let (status, stdout, stderr) = run_with_signal(SLEEPER, &["script"], libc::SIGINT, false);
  assert_eq!(
    (status, stdout.as_str(), stderr.as_str()),
    (130, "after\n", "error: interrupted by SIGINT\n")
  );
}

fn sigint_during_backtick() {
  let justfile = "x := `trap '' INT; touch started; sleep 1; echo v`\ndefault:\n  @echo {{x}}\n";
  let (status, stdout, stderr) = run_with_signal(justfile, &[], libc::SIGINT, false);
  assert_eq!((status, stdout.as_str()), (130, ""));
  assert!(
    stderr.starts_with("error: backtick succeeded but `just` was interrupted by signal SIGINT\n"),
    "{stderr}"
  );
}

fn signal_without_child_exits_at_once_silently() {
  let justfile = "[confirm]\ndefault:\n  echo ran\n";
  let (status, stdout, stderr) = run_with_signal(justfile, &[], libc::SIGINT, true);
  assert_eq!((status, stdout.as_str(), stderr.as_str()), (130, "", "Run recipe `default`? "));
}

fn script_tempdir_is_private_and_removed() {
  let output = Test::new()
    .justfile("a:\n  #!/bin/sh\n  dir=$(dirname \"$0\")\n  echo \"$dir\"\n  stat -c %a \"$dir\"\n")
    .args(&["--tempdir", "{{TMP}}/scratch"])
    .dir("scratch")
    .any_stdout()
    .run();
  let mut lines = output.stdout.lines();
  let directory = lines.next().expect("directory line");
  assert!(
    directory.starts_with(&format!("{}/scratch/just-", output.root.display())),
    "{directory}"
  );
  assert_eq!(lines.next(), Some("700"));
  assert!(!std::path::Path::new(directory).exists(), "{directory} was not removed");
  assert_eq!(std::fs::read_dir(output.root.join("scratch")).expect("scratch").count(), 0);
}

fn script_tempdir_missing_is_an_io_error() {
  Test::new()
    .justfile("set tempdir := \"nope\"\na:\n  #!/bin/sh\n  echo hi\n")
    .stderr_regex(
      "error: recipe `a` could not be run because of an IO error while trying to create a temporary directory or write a file to that directory: No such file or directory \\(os error 2\\) at path \"{{TMP}}/nope/just-[A-Za-z0-9]{6}\"\n",
    )
    .status(1)
    .run();
}

fn time_flag_reports_duration() {
  Test::new()
    .justfile("a:\n  @echo a\n")
    .args(&["--time", "a"])
    .stdout("a\n")
    .stderr_regex("---> a completed in [0-9]+\\.[0-9]{3}s\n")
    .run();
}

/// The hex digest and the JSON of the `===> cache key HEX:` banner `-vv`
/// prints.
fn cache_key(stderr: &str) -> (&str, serde_json::Value) {
  let start = stderr.find("===> cache key ").expect("cache key banner") + "===> cache key ".len();
  let hex = &stderr[start..start + 64];
  let json_start = start + 64 + ":\n".len();
  let json_end = json_start + stderr[json_start..].find("\n}\n").expect("end of key") + 2;
  let key = serde_json::from_str(&stderr[json_start..json_end]).expect("key");
  (hex, key)
}

fn cache_key_names_the_entry_file() {
  let output = Test::new()
    .justfile("set unstable\n[cache(extra=\"x\")]\na:\n  #!/bin/sh\n  echo hi\n")
    .arg("-vv")
    .stdout("hi\n")
    .any_stderr()
    .run();
  let (hex, key) = cache_key(&output.stderr);
  assert_eq!(blake3::hash(key.to_string().as_bytes()).to_hex().as_str(), hex);
  assert_eq!(key["recipe"], "a");
  assert_eq!(key["extra"], serde_json::json!(["x"]));
  assert_eq!(key["working_directory"], output.root.display().to_string());
  let entry = output.root.join(".justcache").join(format!("{hex}.json"));
  assert_eq!(std::fs::read_to_string(entry).expect("entry"), "{\"recipe\":\"a\"}");
}

/// Glob matches enter the key sorted by path, whatever order the directory
/// lists them in, so the key is the same on every machine.
fn cache_input_globs_expand_in_name_order() {
  let output = Test::new()
    .justfile(
      "set unstable\nset lists\n[cache(inputs=['src/*.txt', 'top'])]\na:\n  #!/bin/sh\n  echo hi\n",
    )
    .write("src/c.txt", "c")
    .write("src/a.txt", "a")
    .write("src/b.txt", "b")
    .write("src/d.md", "d")
    .write("top", "t")
    .arg("-vv")
    .stdout("hi\n")
    .any_stderr()
    .run();
  let (_, key) = cache_key(&output.stderr);
  let inputs = key["inputs"].as_object().expect("inputs");
  let names: Vec<&str> = inputs.keys().map(String::as_str).collect();
  assert_eq!(names, ["src/a.txt", "src/b.txt", "src/c.txt", "top"]);
  assert_eq!(inputs["src/a.txt"], serde_json::json!(blake3::hash(b"a").as_bytes().to_vec()));
}

/// A small input is read, a middling one mapped, and a large one hashed in
/// pieces on every core; each enters the key as the BLAKE3 hash of its
/// whole contents.
fn cache_inputs_of_every_size_hash_to_the_blake3_of_their_contents() {
  let text = |length: usize| -> String {
    (0..length).map(|i| char::from(b'a' + u8::try_from((i * 7 + i / 4093) % 26).unwrap())).collect()
  };
  let (small, middling, large) = (text(1000), text(1 << 20), text((9 << 20) + 3));
  let output = Test::new()
    .justfile(
      "set unstable\nset lists\n[cache(inputs=['small', 'middling', 'large'])]\na:\n  #!/bin/sh\n  echo hi\n",
    )
    .write("small", &small)
    .write("middling", &middling)
    .write("large", &large)
    .arg("-vv")
    .stdout("hi\n")
    .any_stderr()
    .run();
  let (_, key) = cache_key(&output.stderr);
  for (name, contents) in [("small", &small), ("middling", &middling), ("large", &large)] {
    let expected = serde_json::json!(blake3::hash(contents.as_bytes()).as_bytes().to_vec());
    assert_eq!(key["inputs"][name], expected, "{name}");
  }
}

fn shebang_script_runs_from_temporary_file() {
  crate::common::Test::new()
    .justfile("x:\n  #!/bin/sh\n  echo $0\n")
    .stdout_regex(r"/.+/just-[A-Za-z0-9]+/x\n")
    .run();
}

fn backtick_environment_has_invocation_directory_shape() {
  crate::common::Test::new()
    .justfile("d := `pwd`\nfoo:\n  @echo {{d}}\n")
    .current_dir("sub")
    .stdout("{{TMP}}\n")
    .run();
}
