//! `--completions SHELL` (cli-and-execution.md §5.14): static completion
//! scripts generated from the flag definitions.

use clap_complete::Shell;
use snafu::Snafu;

use crate::cli::arguments;

#[derive(Debug, Snafu)]
pub enum CompletionsError {
  #[snafu(display("unknown completion shell `{shell}`"))]
  UnknownShell { shell: String },
}

/// Nushell has no generator in clap_complete; recipes come from `--dump`'s JSON.
const NUSHELL_SCRIPT: &str = r#"def "nu-complete just recipes" [] {
    ^just --dump --unstable --dump-format json
    | from json
    | get recipes
    | transpose name recipe
    | where {|it| $it.recipe.private == false }
    | each {|it| { value: $it.name, description: $it.recipe.doc } }
}

# Run recipes from a justfile
export extern "just" [
    ...recipes: string@"nu-complete just recipes", # Recipes to run, with their arguments
]
"#;

/// The completion script for `shell` (any case).
pub fn completions(shell: &str) -> Result<String, CompletionsError> {
  let generator = match shell.to_ascii_lowercase().as_str() {
    "bash" => Shell::Bash,
    "elvish" => Shell::Elvish,
    "fish" => Shell::Fish,
    "powershell" => Shell::PowerShell,
    "zsh" => Shell::Zsh,
    "nushell" => return Ok(NUSHELL_SCRIPT.to_owned()),
    _ => return Err(CompletionsError::UnknownShell { shell: shell.to_owned() }),
  };
  let mut command = arguments::command();
  let mut buffer = Vec::new();
  clap_complete::generate(generator, &mut command, "just", &mut buffer);
  Ok(String::from_utf8_lossy(&buffer).into_owned())
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn every_shell_has_a_script() {
    for shell in arguments::COMPLETION_SHELLS {
      let script = completions(shell).unwrap();
      assert!(script.contains("just"), "{shell}");
    }
    assert!(completions("BASH").unwrap().contains("--justfile"));
    assert!(completions("tcsh").is_err());
  }
}
