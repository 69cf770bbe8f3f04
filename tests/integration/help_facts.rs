//! `--help` is in our own words, but tells everything the reference's does.
//! Each fact is checked on the help text with line wrapping undone.

tests! {
  ;
  extensions:
  banner_names_the_project_home,
  choose_defaults_to_fzf_and_honours_just_chooser,
  jobs_applies_to_parallel_recipes,
  fmt_check_exit_statuses,
  justfile_name_may_be_repeated,
  clean_arguments_restrict_to_a_recipe_path,
  dotenv_filename_defaults_to_dot_env,
  options_and_commands_are_in_order_of_their_long_names,
  all_and_graph_format_are_options,
  jobs_shows_its_default,
  quiet_says_it_silences_recipes_too,
}

use std::process::Command;

fn help() -> String {
  let output = Command::new(env!("CARGO_BIN_EXE_just"))
    .arg("--help")
    .env("NO_COLOR", "1")
    .output()
    .expect("run just --help");
  assert!(output.status.success());
  let text = String::from_utf8(output.stdout).expect("UTF-8 help");
  text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn assert_says(fact: &str) {
  let help = help();
  assert!(help.contains(fact), "`--help` should say {fact:?}:\n{help}");
}

/// The banner is the description, then Cargo.toml's `homepage` when set.
fn banner_names_the_project_home() {
  let banner = help().split(" Usage:").next().unwrap_or_default().to_owned();
  let expected = match env!("CARGO_PKG_HOMEPAGE") {
    "" => env!("CARGO_PKG_DESCRIPTION").to_owned(),
    home => format!("{} - {home}", env!("CARGO_PKG_DESCRIPTION")),
  };
  assert_eq!(banner, expected.split_whitespace().collect::<Vec<_>>().join(" "));
}

fn choose_defaults_to_fzf_and_honours_just_chooser() {
  assert_says(
    "--choose Pick recipes to run with a chooser: `--chooser`, else $JUST_CHOOSER, else `fzf`",
  );
}

fn jobs_applies_to_parallel_recipes() {
  assert_says("Run at most N recipes at once in `[parallel]` recipes");
}

fn fmt_check_exit_statuses() {
  assert_says("exit 0 if the justfile is formatted, else print a diff and exit 1");
}

fn justfile_name_may_be_repeated() {
  assert_says("comma-separated names (may be repeated)");
}

fn clean_arguments_restrict_to_a_recipe_path() {
  assert_says("--clean [<RECIPE_PATH>...] Delete `[cache]` results, and those in the `--cache-dir` store; with RECIPE_PATH (`a::b` or `a b`), only of recipes under it");
}

fn dotenv_filename_defaults_to_dot_env() {
  assert_says("Look for a dotenv file with this name instead of `.env`");
}

/// New flags sit with their peers: options, and commands, in the order of
/// their long names (the help texts' own mentions of flags aside, each
/// entry starts a line).
fn options_and_commands_are_in_order_of_their_long_names() {
  let output = Command::new(env!("CARGO_BIN_EXE_just"))
    .arg("--help")
    .env("NO_COLOR", "1")
    .output()
    .expect("run just --help");
  let text = String::from_utf8(output.stdout).expect("UTF-8 help");
  let (options, commands) = text.split_once("\nCommands:\n").expect("a Commands heading");
  let entries = |section: &str| -> Vec<String> {
    section
      .lines()
      .filter_map(|line| {
        let line = line.trim_start();
        let line = if line.starts_with('-') && !line.starts_with("--") { &line[4..] } else { line };
        line.strip_prefix("--").map(|rest| rest.split([' ', ',']).next().unwrap_or("").to_string())
      })
      .filter(|name| !["help", "version"].contains(&name.as_str()))
      .collect()
  };
  for (name, section) in [("options", options), ("commands", commands)] {
    let names = entries(section);
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "{name} out of order");
  }
  assert!(entries(options).contains(&"watch-restart".to_string()));
}

fn all_and_graph_format_are_options() {
  let help = help();
  let (options, commands) = help.split_once(" Commands: ").expect("a Commands heading");
  for flag in ["--all ", "--graph-format <FORMAT>"] {
    assert!(options.contains(flag), "{flag} is not among the options");
    assert!(!commands.contains(flag), "{flag} is among the commands");
  }
}

fn jobs_shows_its_default() {
  assert_says("--jobs <N> Run at most N recipes at once in `[parallel]` recipes [default: no limit; with `--jobserver`, the number of CPUs]");
}

fn quiet_says_it_silences_recipes_too() {
  assert_says("-q, --quiet Print nothing: neither `just`'s own messages nor the output of recipes");
}
