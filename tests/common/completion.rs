//! Shell completion as a shell does it: a bash, zsh or fish session loads
//! `just --completions SHELL` and completes a line, with the `just` under
//! test first on its `PATH`.

use std::path::Path;
use std::process::Command;

#[derive(Clone, Copy)]
pub(crate) enum Shell {
  Bash,
  Zsh,
  Fish,
}

/// bash: `COMP_WORDS` as readline splits `LINE` (at blanks, and around runs
/// of `:`, since `:` is in `COMP_WORDBREAKS`), then the function
/// `complete -F` registered.
const BASH: &str = r#"
eval "$(just --completions bash)"
COMP_LINE=$LINE COMP_POINT=${#LINE}
COMP_WORDS=($(printf '%s' "$LINE" | sed -E 's/(:+)/ \1 /g'))
[[ $LINE == *[[:blank:]] ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_just just "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
((${#COMPREPLY[@]} == 0)) || printf '%s\n' "${COMPREPLY[@]}"
"#;

/// zsh: the completion system loaded, the script sourced, `words` and
/// `CURRENT` as zle sets them; `_describe`, which would show the answers,
/// prints them instead.
const ZSH: &str = r#"
autoload -Uz compinit && compinit -u -D
source <(just --completions zsh)
_describe() { print -rl -- "${(@P)3}" }
words=(${(z)LINE})
[[ $LINE == *' ' ]] && words+=('')
CURRENT=${#words}
_clap_dynamic_completer_just
"#;

/// fish: the script sourced, then fish's own `complete -C`.
const FISH: &str = r#"
just --completions fish | source
complete -C "$LINE"
"#;

/// What `shell` prints completing `line` (the cursor at its end) in
/// `project`: bash the answers (`COMPREPLY`) one a line, zsh and fish each
/// with its description. `scratch`, a directory of the test's own, is the
/// shell's home and holds the link to `just`.
pub(crate) fn answers(shell: Shell, project: &Path, scratch: &Path, line: &str) -> String {
  let bin = scratch.join("bin");
  std::fs::create_dir(&bin).expect("make bin");
  std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_just"), bin.join("just")).expect("link just");
  let (program, arguments) = match shell {
    Shell::Bash => ("bash", vec!["--norc", "--noprofile", "-c", BASH]),
    Shell::Zsh => ("zsh", vec!["-f", "-c", ZSH]),
    Shell::Fish => ("fish", vec!["--no-config", "-c", FISH]),
  };
  let output = Command::new(program)
    .args(arguments)
    .current_dir(project)
    .env_clear()
    .env("PATH", path_with(&bin))
    .env("HOME", scratch)
    .env("LINE", line)
    .env("COMP_TYPE", "9")
    .output()
    .expect("run the shell");
  assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
  String::from_utf8(output.stdout).expect("UTF-8 answers")
}

/// `PATH` with `bin` first.
fn path_with(bin: &Path) -> std::ffi::OsString {
  let mut paths = vec![bin.to_path_buf()];
  paths.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
  std::env::join_paths(paths).expect("join PATH")
}
