//! `--completions SHELL` (cli-and-execution.md §5.14): registration scripts
//! that call back into `just` for dynamic completion.

use snafu::Snafu;

#[derive(Debug, Snafu)]
pub enum CompletionsError {
  #[snafu(display("unknown completion shell `{shell}`"))]
  UnknownShell { shell: String },
}

/// Nushell has no dynamic protocol; recipes come from `--dump`'s JSON.
const NUSHELL_SCRIPT: &str = r#"def "nu-complete just" [] {
    (^just --dump --unstable --dump-format json | from json).recipes | transpose recipe data | flatten | where {|row| $row.private == false } | select recipe doc parameters | rename value description
}

# Just: A Command Runner
export extern "just" [
    ...recipe: string@"nu-complete just", # Recipe(s) to run, may be with argument(s)
]
"#;

/// The completion script for `shell` (any case). Except for nushell it only
/// registers `just` itself, started with `JUST_COMPLETE=<shell>`, as the
/// completer (dynamic completion, see `dynamic`).
pub fn completions(shell: &str) -> Result<String, CompletionsError> {
  let script = match shell.to_ascii_lowercase().as_str() {
    "bash" => "eval \"$(JUST_COMPLETE=bash just)\"\n",
    "elvish" => "eval (E:JUST_COMPLETE=elvish just | slurp)\n",
    "fish" => "JUST_COMPLETE=fish just | source\n",
    "powershell" => {
      "$env:JUST_COMPLETE = \"powershell\"\njust | Out-String | Invoke-Expression\nRemove-Item Env:\\JUST_COMPLETE\n"
    }
    "zsh" => {
      "#compdef just\nsource <(JUST_COMPLETE=zsh just)\nif [ \"$funcstack[1]\" = \"_just\" ]; then\n  _clap_dynamic_completer_just \"$@\"\nfi\n"
    }
    "nushell" => NUSHELL_SCRIPT,
    _ => return Err(CompletionsError::UnknownShell { shell: shell.to_owned() }),
  };
  Ok(script.to_owned())
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::arguments;

  #[test]
  fn every_shell_has_a_script() {
    for shell in arguments::COMPLETION_SHELLS {
      let script = completions(shell).unwrap();
      assert!(script.contains("just"), "{shell}");
    }
    assert!(completions("BASH").unwrap().contains("JUST_COMPLETE=bash"));
    assert!(completions("tcsh").is_err());
  }
}
