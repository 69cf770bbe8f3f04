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
}

use std::process::{Command, Stdio};

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
  assert_eq!(raw.stdout, b"[bytes] a\xff\x00b\r\n[bytes] last");
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
