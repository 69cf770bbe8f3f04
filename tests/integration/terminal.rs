//! What `just` does at a terminal, driven through a pseudo-terminal with an
//! interactive bash as the user's shell: recipes are in the terminal's
//! foreground job with `just`, as just 1.58 runs them, so prompts reach the
//! terminal whatever `just`'s standard input is, Ctrl-C stops the run and
//! the programs that ran `just` whatever the recipe did with it, and Ctrl-Z
//! stops every process of the job. These are not extensions: each case
//! behaves the same with just 1.58 (`TEST_JUST_BIN`).

tests! {
  recipe_prompts_on_the_terminal_with_stdin_redirected if has_bash,
  recipe_prompts_on_the_terminal_with_stdin_piped if has_bash,
  interrupt_handled_by_the_recipe_still_stops_the_run if has_bash,
  interrupt_handled_by_a_python_script_recipe_still_stops_the_run if has_python,
  interrupt_reaches_the_script_that_ran_just if has_bash,
  interrupt_ends_a_shell_loop_over_just if has_bash,
  interrupt_reaches_make_running_just if has_make,
  #[cfg(target_os = "linux")]
  ctrl_z_stops_every_process_of_the_recipe if has_bash,
}

use crate::common::process::on_path;
#[cfg(target_os = "linux")]
use crate::common::process::{poll_until, processes, DEADLINE};
use crate::common::pty::{has_bash, Shell};

fn has_python() -> bool {
  has_bash() && on_path("python3").is_some()
}

fn has_make() -> bool {
  has_bash() && on_path("make").is_some()
}

/// Read the terminal's answer although standard input is elsewhere, and
/// use `stty` on it (what `sudo`, `ssh` and `gpg` prompts do).
const PROMPT: &str = "ask:\n  @echo ready; read -r answer < /dev/tty; stty size < /dev/tty > /dev/null; echo \"got $answer\"\n";

fn answer_prompt(command: &str) {
  let mut shell = Shell::start(PROMPT);
  shell.type_text(&format!("{command}\n"));
  let at = shell.expect_after(0, "ready\r\n");
  shell.type_text("yes\n");
  let at = shell.expect_after(at, "got yes\r\n");
  shell.expect_status(at, 0);
}

fn recipe_prompts_on_the_terminal_with_stdin_redirected() {
  answer_prompt("just ask < /dev/null");
}

fn recipe_prompts_on_the_terminal_with_stdin_piped() {
  answer_prompt("echo piped | just ask");
}

/// A server that shuts down cleanly on Ctrl-C, and a recipe after it.
const SERVE: &str = "\
serve:
  @trap 'echo caught; exit 0' INT; echo serving; while :; do sleep 0.05; done

deploy:
  @echo deployed
";

fn interrupt_handled_by_the_recipe_still_stops_the_run() {
  let mut shell = Shell::start(SERVE);
  shell.type_text("just serve deploy\n");
  let at = shell.expect_after(0, "serving\r\n");
  shell.type_text("\x03");
  let at = shell.expect_after(at, "caught\r\n");
  let at = shell.expect_after(at, "error: interrupted by SIGINT\r\n");
  shell.expect_status(at, 130);
  assert!(!shell.screen().contains("deployed"), "{}", shell.screen());
}

/// `serving` is printed inside the `try`: a Ctrl-C typed as soon as it
/// shows is always handled.
const PYTHON: &str = "\
serve:
  #!/usr/bin/env python3
  import time
  try:
      print('serving', flush=True)
      time.sleep(60)
  except KeyboardInterrupt:
      print('shut down cleanly', flush=True)

deploy:
  @echo deployed
";

fn interrupt_handled_by_a_python_script_recipe_still_stops_the_run() {
  let mut shell = Shell::start(PYTHON);
  shell.type_text("just serve deploy\n");
  let at = shell.expect_after(0, "serving\r\n");
  shell.type_text("\x03");
  let at = shell.expect_after(at, "shut down cleanly\r\n");
  let at = shell.expect_after(at, "error: interrupted by SIGINT\r\n");
  shell.expect_status(at, 130);
  assert!(!shell.screen().contains("deployed"), "{}", shell.screen());
}

/// Stands for `slow()` in the files given to `interrupt_while`.
const SLOW: &str = "(slow)";

/// A recipe that sleeps; its `sleep` carries a mark of this test process,
/// so the test can wait until it runs (`sleep_is_running`).
fn slow() -> String {
  format!("slow:\n  @echo ready; sleep {}\n", sleep_mark())
}

fn sleep_mark() -> String {
  format!("60.{}", std::process::id())
}

/// Wait until the `sleep` of `slow` has started (where `/proc` tells), so
/// that Ctrl-C reaches it rather than the shell about to start it, which
/// would then wait for it.
fn wait_for_the_sleep() {
  #[cfg(target_os = "linux")]
  assert!(
    poll_until(DEADLINE, || sleep_is_running(&sleep_mark())),
    "the recipe's sleep never started"
  );
}

#[cfg(target_os = "linux")]
fn sleep_is_running(mark: &str) -> bool {
  processes()
    .iter()
    .any(|process| process.name() == "sleep\n" && process.command_line.contains(mark))
}

/// Type `command`, which runs `just slow`, and Ctrl-C it once it is ready:
/// the shell reports `status` for it, and `after` never appears.
fn interrupt_while(files: &[(&str, &str)], command: &str, expected: &[&str]) {
  let slow = slow();
  let files: Vec<(&str, &str)> = files
    .iter()
    .map(|&(name, text)| (name, if text == SLOW { slow.as_str() } else { text }))
    .collect();
  let files = &files[..];
  let mut shell = Shell::with_files(files);
  shell.type_text(&format!("{command}\n"));
  let mut at = shell.expect_after(0, "ready\r\n");
  wait_for_the_sleep();
  shell.type_text("\x03");
  for text in expected {
    at = shell.expect_after(at, text);
  }
  shell.expect_status(at, 130);
  let screen = shell.screen();
  assert!(!screen.contains("after\r\n") && !screen.contains("next 1"), "{screen}");
}

fn interrupt_reaches_the_script_that_ran_just() {
  interrupt_while(&[("justfile", SLOW)], "sh -c 'just slow; echo after'", &[]);
}

fn interrupt_ends_a_shell_loop_over_just() {
  interrupt_while(
    &[("justfile", SLOW)],
    "sh -c 'for i in 1 2 3; do just slow; echo \"next $i\"; done'",
    &[],
  );
}

/// make itself ends by the interrupt (its message, `Error 130` or
/// `Interrupt`, depends on whether it reaps `just` before it handles the
/// signal).
fn interrupt_reaches_make_running_just() {
  interrupt_while(
    &[("justfile", SLOW), ("Makefile", "all:\n\tjust slow\n\techo after\n")],
    "make -s",
    &[],
  );
}

/// The state letter of every live process whose command line holds `mark`.
#[cfg(target_os = "linux")]
fn states_of(mark: &str) -> Vec<char> {
  processes()
    .iter()
    .filter(|process| process.command_line.contains(mark))
    .filter_map(|process| process.state())
    .collect()
}

/// Ctrl-Z stops the recipe's own processes (a shell loop the recipe
/// started), not only `just`; `fg` continues them.
#[cfg(target_os = "linux")]
fn ctrl_z_stops_every_process_of_the_recipe() {
  let mark = format!("tick-{}", std::process::id());
  let justfile = format!("loop:\n  @sh -c 'while :; do echo {mark}; sleep 0.05; done'\n");
  let mut shell = Shell::start(&justfile);
  shell.type_text("just loop < /dev/null; echo done\n");
  let at = shell.expect_after(0, &format!("{mark}\r\n"));
  shell.type_text("\x1a");
  let at = shell.expect_after(at, "Stopped");
  let mut states = Vec::new();
  let stopped = poll_until(DEADLINE, || {
    states = states_of(&format!("echo {mark}"));
    // `D`: a shell waiting for its vfork child, which is stopped before its exec.
    !states.is_empty() && states.iter().all(|&state| state == 'T' || state == 'D')
  });
  assert!(stopped, "the recipe's loop went on: {states:?}");
  shell.type_text("fg\n");
  let at = shell.expect_after(at, &format!("{mark}\r\n"));
  shell.type_text("\x03");
  shell.expect_status(at, 130);
}
