//! `just --cheatsheet` at a terminal goes through the pager (`$PAGER`, else
//! `less`), driven through a pseudo-terminal with an interactive bash;
//! elsewhere it is printed as is (the table cases in `cases/cheatsheet.toml`).

tests! {
  ;
  extensions:
  cheatsheet_at_a_terminal_goes_through_the_pager if has_bash,
  cheatsheet_with_an_empty_pager_is_printed if has_bash,
}

use crate::common::pty::{has_bash, Shell};

/// A pager that says what it was given.
const PAGER: &str = "printf 'pager: %s lines\\n' \"$(wc -l)\"\n";

fn lines_printed() -> usize {
  let output = std::process::Command::new(crate::common::pty::just_under_test())
    .arg("--cheatsheet")
    .env("NO_COLOR", "1")
    .output()
    .expect("run just");
  String::from_utf8_lossy(&output.stdout).lines().count()
}

fn cheatsheet_at_a_terminal_goes_through_the_pager() {
  let mut shell = Shell::with_files(&[("pager.sh", PAGER)]);
  shell.type_text("PAGER='sh pager.sh' just --cheatsheet\n");
  let at = shell.expect(&format!("pager: {} lines", lines_printed()));
  shell.expect_status(at, 0);
  assert!(!shell.screen().contains("Settings:"), "printed past the pager:\n{}", shell.screen());
}

fn cheatsheet_with_an_empty_pager_is_printed() {
  let mut shell = Shell::with_files(&[]);
  shell.type_text("PAGER= just --cheatsheet\n");
  let at = shell.expect("Settings:\r\n    set allow-duplicate-recipes");
  let at = shell.expect_after(at, "Constants:\r\n");
  shell.expect_status(at, 0);
}
