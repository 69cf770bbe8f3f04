//! Completion of recipe arguments and of `--set`'s value, through real
//! bash, zsh and fish sessions that load `just --completions SHELL`: the
//! words of a plain `[arg(pattern=…)]` alternation, file names for other
//! parameters, the variable's value after `--set NAME`; recipe names where
//! a word starts another invocation.

tests! {
  ;
  extensions:
  bash_offers_the_words_of_a_plain_pattern if has_bash,
  zsh_offers_the_words_of_a_plain_pattern if has_zsh,
  fish_offers_the_words_of_a_plain_pattern if has_fish,
  bash_offers_file_names_for_other_parameters if has_bash,
  zsh_offers_file_names_for_other_parameters if has_zsh,
  fish_offers_file_names_for_other_parameters if has_fish,
  bash_offers_recipes_once_the_arguments_are_given if has_bash,
  zsh_offers_recipes_once_the_arguments_are_given if has_zsh,
  fish_offers_recipes_once_the_arguments_are_given if has_fish,
  bash_set_offers_names_then_the_value if has_bash,
  zsh_set_offers_names_then_the_value if has_zsh,
  fish_set_offers_names_then_the_value if has_fish,
  bash_recipe_paths_after_show_and_usage if has_bash,
  zsh_recipe_paths_after_show_and_usage if has_zsh,
  fish_recipe_paths_after_show_and_usage if has_fish,
}

use std::process::Command;

use crate::common::completion::{answers, Shell};

const JUSTFILE: &str = "mod tools
mode := 'debug'
computed := `echo never`

[arg('mode', pattern='debug|release', help='how to build')]
build mode target='all':
  echo {{ mode }} {{ target }}

[arg('level', long, pattern='^(low|high)$')]
deploy level='low':
  echo {{ level }}
";

const TOOLS: &str = "[arg('speed', pattern='fast|faster|slow')]
check speed:
  echo {{ speed }}
";

fn has_program(name: &str) -> bool {
  Command::new(name).arg("-c").arg("true").output().is_ok_and(|output| output.status.success())
}

fn has_bash() -> bool {
  has_program("bash")
}

fn has_zsh() -> bool {
  has_program("zsh")
}

fn has_fish() -> bool {
  has_program("fish")
}

/// The values offered for `line` (the cursor at its end), one per line,
/// without descriptions, up to the first option (an empty word is offered
/// the options after the values).
fn complete(shell: Shell, line: &str) -> String {
  let dir = tempfile::tempdir().expect("temp dir");
  let project = dir.path().join("project");
  std::fs::create_dir_all(project.join("tools")).expect("make project");
  std::fs::write(project.join("justfile"), JUSTFILE).expect("write justfile");
  std::fs::write(project.join("tools/mod.just"), TOOLS).expect("write module");
  std::fs::write(project.join("a.txt"), "").expect("write a file");
  std::fs::write(project.join("b.txt"), "").expect("write a file");
  let text = answers(shell, &project, dir.path(), line);
  let separator = match shell {
    Shell::Bash => None,
    Shell::Zsh => Some(':'),
    Shell::Fish => Some('\t'),
  };
  text
    .lines()
    .take_while(|value| !value.starts_with('-'))
    .map(|value| match separator {
      Some(separator) => without_description(value, separator),
      None => value.to_owned(),
    })
    .map(|value| format!("{value}\n"))
    .collect()
}

/// The value before its description, which follows the first `separator`
/// not escaped by `\` (zsh escapes the value's own colons).
fn without_description(answer: &str, separator: char) -> String {
  let mut value = String::new();
  let mut characters = answer.chars();
  while let Some(character) = characters.next() {
    match character {
      '\\' => value.extend(characters.next()),
      character if character == separator => break,
      character => value.push(character),
    }
  }
  value
}

fn offers_the_words_of_a_plain_pattern(shell: Shell) {
  assert_eq!(complete(shell, "just build "), "debug\nrelease\n");
  assert_eq!(complete(shell, "just build r"), "release\n");
  assert_eq!(complete(shell, "just deploy --level h"), "high\n");
  assert_eq!(complete(shell, "just tools::check fa"), "fast\nfaster\n");
  assert_eq!(complete(shell, "just tools check s"), "slow\n");
}

fn offers_file_names_for_other_parameters(shell: Shell) {
  assert_eq!(complete(shell, "just build debug a"), "a.txt\n");
  assert_eq!(complete(shell, "just build debug j"), "justfile\n");
}

fn offers_recipes_once_the_arguments_are_given(shell: Shell) {
  assert_eq!(complete(shell, "just build debug all b"), "build\nb.txt\n");
  assert_eq!(complete(shell, "just tools check slow d"), "deploy\n");
}

fn set_offers_names_then_the_value(shell: Shell) {
  assert_eq!(complete(shell, "just --set m"), "mode\n");
  assert_eq!(complete(shell, "just --set mode "), "debug\n");
  assert_eq!(complete(shell, "just --set mode release --set mode "), "release\n");
  // Known only by running a command: nothing is run, nothing offered.
  assert_eq!(complete(shell, "just --set computed "), "");
}

fn recipe_paths_after_show_and_usage(shell: Shell) {
  assert_eq!(complete(shell, "just --show b"), "build\n");
  assert_eq!(complete(shell, "just --usage d"), "deploy\n");
  // bash keeps what is typed up to the last `:`; zsh and fish replace the word.
  let path = match shell {
    Shell::Bash => "check\n",
    Shell::Zsh | Shell::Fish => "tools::check\n",
  };
  assert_eq!(complete(shell, "just --show tools::c"), path);
}

fn bash_offers_the_words_of_a_plain_pattern() {
  offers_the_words_of_a_plain_pattern(Shell::Bash);
}

fn zsh_offers_the_words_of_a_plain_pattern() {
  offers_the_words_of_a_plain_pattern(Shell::Zsh);
}

fn fish_offers_the_words_of_a_plain_pattern() {
  offers_the_words_of_a_plain_pattern(Shell::Fish);
}

fn bash_offers_file_names_for_other_parameters() {
  offers_file_names_for_other_parameters(Shell::Bash);
}

fn zsh_offers_file_names_for_other_parameters() {
  offers_file_names_for_other_parameters(Shell::Zsh);
}

fn fish_offers_file_names_for_other_parameters() {
  offers_file_names_for_other_parameters(Shell::Fish);
}

fn bash_offers_recipes_once_the_arguments_are_given() {
  offers_recipes_once_the_arguments_are_given(Shell::Bash);
}

fn zsh_offers_recipes_once_the_arguments_are_given() {
  offers_recipes_once_the_arguments_are_given(Shell::Zsh);
}

fn fish_offers_recipes_once_the_arguments_are_given() {
  offers_recipes_once_the_arguments_are_given(Shell::Fish);
}

fn bash_set_offers_names_then_the_value() {
  set_offers_names_then_the_value(Shell::Bash);
}

fn zsh_set_offers_names_then_the_value() {
  set_offers_names_then_the_value(Shell::Zsh);
}

fn fish_set_offers_names_then_the_value() {
  set_offers_names_then_the_value(Shell::Fish);
}

fn bash_recipe_paths_after_show_and_usage() {
  recipe_paths_after_show_and_usage(Shell::Bash);
}

fn zsh_recipe_paths_after_show_and_usage() {
  recipe_paths_after_show_and_usage(Shell::Zsh);
}

fn fish_recipe_paths_after_show_and_usage() {
  recipe_paths_after_show_and_usage(Shell::Fish);
}
