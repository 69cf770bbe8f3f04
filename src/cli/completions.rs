//! `--completions SHELL`: registration scripts
//! that call back into `just` for dynamic completion.

use std::ffi::{OsStr, OsString};

use clap::builder::StyledStr;
use clap_complete::engine::{
  ArgValueCandidates, ArgValueCompleter, CompletionCandidate, PathCompleter, ValueCompleter,
};
use clap_complete::env::{self, EnvCompleter, Shells};

use crate::analysis::analyzer::{compile, Arenas, LoadRequest};
use crate::analysis::const_eval::constant_value;
use crate::analysis::lookup::{is_public_alias, resolve_alias, AliasTarget};
use crate::analysis::model::{Justfile, Module, Parameter};
use crate::cli::arguments;
use crate::cli::config::{Config, ConfigError, Subcommand};
use crate::cli::flags::{self, about::CompletionShell, Completer, FLAGS};
use crate::cli::invocation;
use crate::options::Choice;
use crate::output::list::{listed_recipes, listed_submodules, module_groups};
use crate::output::variables::public_assignments;
use crate::search;
use crate::syntax::sources::Sources;
use crate::syntax::trees::Trees;

/// The dynamic completer of `shell` (`JUST_COMPLETE=<shell>`); nushell has none.
fn dynamic(shell: CompletionShell) -> Option<&'static dyn EnvCompleter> {
  match shell {
    CompletionShell::Bash => Some(&Bash),
    CompletionShell::Elvish => Some(&env::Elvish),
    CompletionShell::Fish => Some(&env::Fish),
    CompletionShell::Nushell => None,
    CompletionShell::Powershell => Some(&env::Powershell),
    CompletionShell::Zsh => Some(&env::Zsh),
  }
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

/// The completion script for `shell`. Except for nushell it only registers
/// `just` itself, started with `JUST_COMPLETE=<shell>`, as the completer
/// (dynamic completion, see `complete_env`).
pub(crate) fn completions(shell: CompletionShell) -> &'static str {
  match shell {
    CompletionShell::Bash => "eval \"$(JUST_COMPLETE=bash just)\"\n",
    CompletionShell::Elvish => "eval (E:JUST_COMPLETE=elvish just | slurp)\n",
    CompletionShell::Fish => "JUST_COMPLETE=fish just | source\n",
    CompletionShell::Powershell => {
      "$env:JUST_COMPLETE = \"powershell\"\njust | Out-String | Invoke-Expression\nRemove-Item Env:\\JUST_COMPLETE\n"
    }
    CompletionShell::Zsh => {
      "#compdef just\nsource <(JUST_COMPLETE=zsh just)\nif [ \"$funcstack[1]\" = \"_just\" ]; then\n  _clap_dynamic_completer_just \"$@\"\nfi\n"
    }
    CompletionShell::Nushell => NUSHELL_SCRIPT,
  }
}

/// Answer a completion request if `JUST_COMPLETE` is set (`clap_complete`'s
/// dynamic protocol: `just -- just WORD…`); otherwise return.
pub(crate) fn complete_env() {
  // What `complete` checks first, before the shells are listed.
  if std::env::var_os(COMPLETE_VARIABLE).is_none() {
    return;
  }
  let shells: Vec<&dyn EnvCompleter> =
    CompletionShell::VALUES.iter().filter_map(|&shell| dynamic(shell)).collect();
  clap_complete::CompleteEnv::with_factory(completion_command)
    .var(COMPLETE_VARIABLE)
    .shells(Shells(&shells))
    .complete();
}

/// Set to a shell's name, it asks `just` to complete a command line.
const COMPLETE_VARIABLE: &str = "JUST_COMPLETE";

/// The command line as completion sees it: the values the justfile defines
/// (recipes, variables, groups) complete from it; `--tree` and `--graph` take
/// one recipe path, so that right after them only recipe paths are offered,
/// once (with any number allowed, clap offers them as the option's values,
/// again as recipe words, and then every flag); further words complete as
/// recipe words do.
fn completion_command() -> clap::Command {
  let command = arguments::command()
    .mut_arg(flags::ARGUMENTS, |arg| arg.add(ArgValueCompleter::new(complete_arguments)));
  FLAGS
    .iter()
    .fold(command, |command, flag| {
      let candidates = match flag.completer {
        Completer::Groups => ArgValueCandidates::new(groups),
        Completer::Variables => ArgValueCandidates::new(variables),
        Completer::RecipePaths => ArgValueCandidates::new(recipe_paths),
        // `arguments.rs` gives these.
        Completer::Nothing | Completer::File | Completer::Directory | Completer::AnyPath => {
          return command;
        }
      };
      command.mut_arg(flag.long, |arg| arg.add(candidates))
    })
    .mut_arg(flags::dependencies::TREE.long, |arg| arg.num_args(1))
    .mut_arg(flags::dependencies::GRAPH.long, |arg| arg.num_args(1))
}

/// Bash: `clap_complete`'s registration, plus `BASH_COLONS`.
struct Bash;

/// Bash splits words at `:` (it is in `COMP_WORDBREAKS`), so `mod::recipe`
/// reaches the completer as `mod`, `::`, `recipe`, and would be completed as
/// three words. This wrapper rejoins such pieces before asking clap's
/// function, then strips from each answer the part up to the last `:`, which
/// bash keeps as already typed. It is registered in place of clap's function.
const BASH_COLONS: &str = r#"_just() {
    local i j=-1 cword=0 joined=()
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        if ((j >= 0)) && [[ ${COMP_WORDS[i]} == :* || ${joined[j]} == *: ]]; then
            joined[j]+=${COMP_WORDS[i]}
        else
            joined[++j]=${COMP_WORDS[i]}
        fi
        if ((i == COMP_CWORD)); then cword=$j; fi
    done
    local COMP_WORDS=("${joined[@]}") COMP_CWORD=$cword
    _clap_complete_just "$1" "${joined[cword]}" "$3"
    local typed=${joined[cword]%"${joined[cword]##*:}"}
    COMPREPLY=("${COMPREPLY[@]#"$typed"}")
}
"#;

const CLAP_BASH_FUNCTION: &str = "-F _clap_complete_just just";

impl EnvCompleter for Bash {
  fn name(&self) -> &'static str {
    "bash"
  }

  fn is(&self, name: &str) -> bool {
    name == "bash"
  }

  fn write_registration(
    &self,
    var: &str,
    name: &str,
    bin: &str,
    _completer: &str,
    buf: &mut dyn std::io::Write,
  ) -> std::io::Result<()> {
    let mut clap_script = Vec::new();
    // By name, as just 1.58 does: the script outlives moves of the binary.
    env::Bash.write_registration(var, name, bin, "just", &mut clap_script)?;
    let clap_script = String::from_utf8_lossy(&clap_script);
    if !clap_script.contains(CLAP_BASH_FUNCTION) {
      return Err(std::io::Error::other(
        "clap_complete's bash registration has an unexpected form",
      ));
    }
    write!(buf, "{}{BASH_COLONS}", clap_script.replace(CLAP_BASH_FUNCTION, "-F _just just"))
  }

  fn write_complete(
    &self,
    cmd: &mut clap::Command,
    args: Vec<OsString>,
    current_dir: Option<&std::path::Path>,
    buf: &mut dyn std::io::Write,
  ) -> std::io::Result<()> {
    env::Bash.write_complete(cmd, args, current_dir, buf)
  }
}

/// `complete` applied to the configuration and compiled justfile of the
/// command line being completed (everything before the current word). An
/// unparseable command line falls back to the defaults; an unloadable
/// justfile gives `None`.
fn with_context<T>(complete: impl FnOnce(&Config, &Justfile) -> T) -> Option<T> {
  let mut words = completed_words()?;
  words.pop();
  with_words(words, complete)
}

/// `complete` applied to the configuration of `words` and its justfile.
fn with_words<T>(
  words: Vec<OsString>,
  complete: impl FnOnce(&Config, &Justfile) -> T,
) -> Option<T> {
  let config = Config::from_args(words.clone())
    .or_else(|_| config_ignoring_environment(words))
    .or_else(|_| config_ignoring_environment(vec![OsString::from("just")]))
    .ok()?;
  let search = search::find(&config).ok()?;
  let request = LoadRequest {
    justfile: &search.justfile,
    source: search.source.clone(),
    working_directory: &search.working_directory,
    overrides: &config.overrides,
    unstable: config.unstable,
  };
  let sources = Sources::new();
  let trees = Trees::new();
  let justfile = compile(&request, Arenas { sources: &sources, trees: &trees }).ok()?;
  Some(complete(&config, &justfile))
}

/// The configuration from `words` alone: an invalid `JUST_*` variable must
/// not stop completion.
fn config_ignoring_environment(words: Vec<OsString>) -> Result<Config, ConfigError> {
  let matches = arguments::command()
    .mut_args(|arg| arg.env(None))
    .try_get_matches_from(words)
    .map_err(|source| ConfigError::Clap { source })?;
  let invocation_directory =
    std::env::current_dir().map_err(|source| ConfigError::CurrentDirectory { source })?;
  Config::from_matches(&matches, invocation_directory)
}

/// The words of the command line being completed (`just -- just WORD…`),
/// the current word last.
fn completed_words() -> Option<Vec<OsString>> {
  let args: Vec<OsString> = crate::platform::arguments();
  let start = args.iter().position(|arg| arg == "--")? + 1;
  args.get(start..).map(<[OsString]>::to_vec)
}

/// The public submodule named by the words before the current one when they
/// are all module names, as in `just tools li<TAB>`.
fn module_of_previous_words<'a, 'src>(
  config: &Config,
  justfile: &'a Justfile<'src>,
) -> Option<&'a Module<'src>> {
  let Subcommand::Run { arguments } = &config.subcommand else {
    return None;
  };
  if arguments.is_empty() {
    return None;
  }
  arguments.iter().try_fold(&justfile.root, |module, name| {
    module.modules.get(name.as_str()).filter(|submodule| !submodule.private)
  })
}

/// Names of the public recipes, submodules and (with `--complete-aliases`)
/// aliases of one module, as the word after its path.
fn names_in_module(config: &Config, module: &Module) -> Vec<CompletionCandidate> {
  let mut out: Vec<CompletionCandidate> = listed_recipes(module, config.unsorted)
    .into_iter()
    .map(|recipe| candidate(recipe.name().lexeme().to_owned(), recipe.doc))
    .collect();
  out.extend(
    listed_submodules(module, config.unsorted)
      .into_iter()
      .map(|(name, submodule)| candidate(name.to_owned(), submodule.doc.as_deref())),
  );
  if config.complete_aliases {
    out.extend(
      module
        .aliases
        .values()
        .filter(|alias| is_public_alias(module, alias))
        .map(|alias| candidate(alias.name.lexeme().to_owned(), None)),
    );
  }
  out
}

fn candidate(value: String, doc: Option<&str>) -> CompletionCandidate {
  CompletionCandidate::new(value).help(doc.map(|doc| StyledStr::from(doc.to_owned())))
}

/// Public recipe paths of the root and then of public submodules
/// (depth-first), then, with `--complete-aliases`, public alias paths.
fn recipe_candidates(config: &Config, justfile: &Justfile) -> Vec<CompletionCandidate> {
  fn recipes(config: &Config, module: &Module, out: &mut Vec<CompletionCandidate>) {
    for recipe in listed_recipes(module, config.unsorted) {
      out.push(candidate(recipe.namepath.to_string(), recipe.doc));
    }
    for (_, submodule) in listed_submodules(module, config.unsorted) {
      recipes(config, submodule, out);
    }
  }
  fn aliases(config: &Config, module: &Module, out: &mut Vec<CompletionCandidate>) {
    for alias in module.aliases.values().filter(|alias| is_public_alias(module, alias)) {
      let doc = match resolve_alias(module, alias) {
        Some(AliasTarget::Recipe { recipe, .. }) => recipe.doc,
        _ => None,
      };
      let path: Vec<&str> =
        module.path.iter().map(String::as_str).chain([alias.name.lexeme()]).collect();
      out.push(candidate(path.join("::"), doc));
    }
    for (_, submodule) in listed_submodules(module, config.unsorted) {
      aliases(config, submodule, out);
    }
  }
  let mut out = Vec::new();
  recipes(config, &justfile.root, &mut out);
  if config.complete_aliases {
    aliases(config, &justfile.root, &mut out);
  }
  out
}

fn variable_names(justfile: &Justfile) -> Vec<String> {
  public_assignments(&justfile.root)
    .iter()
    .map(|assignment| assignment.name.lexeme().to_owned())
    .collect()
}

/// Positional words: recipe paths, `NAME=` overrides, then file paths; after
/// a module's path given as separate words, the names inside that module.
pub(crate) fn complete_arguments(current: &OsStr) -> Vec<CompletionCandidate> {
  with_context(|config, justfile| arguments_in(config, justfile, current)).unwrap_or_default()
}

fn arguments_in(config: &Config, justfile: &Justfile, current: &OsStr) -> Vec<CompletionCandidate> {
  let prefix = current.to_string_lossy();
  if let Some(module) = module_of_previous_words(config, justfile) {
    let mut out = names_in_module(config, module);
    out.retain(|candidate| candidate.get_value().to_string_lossy().starts_with(prefix.as_ref()));
    return out;
  }
  if let Some(parameter) = parameter_of_current_word(config, justfile) {
    return parameter_values(parameter, current);
  }
  let mut out: Vec<CompletionCandidate> = recipe_candidates(config, justfile);
  out.extend(variable_names(justfile).into_iter().map(|name| candidate(format!("{name}="), None)));
  out.retain(|candidate| candidate.get_value().to_string_lossy().starts_with(prefix.as_ref()));
  let mut paths = PathCompleter::any().complete(current);
  paths.sort_by(|a, b| a.get_value().cmp(b.get_value()));
  out.extend(paths);
  out
}

/// The parameter the current word is an argument for, as `just build
/// <TAB>` with `build` taking one.
fn parameter_of_current_word<'a, 'src>(
  config: &Config,
  justfile: &'a Justfile<'src>,
) -> Option<Parameter<'a, 'src>> {
  let Subcommand::Run { arguments } = &config.subcommand else {
    return None;
  };
  invocation::parameter_of_next_word(justfile, arguments).map(|(_, parameter)| parameter)
}

/// What a parameter accepts: the words of its `[arg(pattern=…)]` when each
/// pattern is a plain alternation (`debug|release`), else file names.
fn parameter_values(parameter: Parameter<'_, '_>, current: &OsStr) -> Vec<CompletionCandidate> {
  let help = parameter.help();
  let Some(words) = plain_alternatives(parameter.patterns()) else {
    let mut paths = PathCompleter::any().complete(current);
    paths.sort_by(|a, b| a.get_value().cmp(b.get_value()));
    return paths;
  };
  let prefix = current.to_string_lossy();
  words
    .into_iter()
    .filter(|word| word.starts_with(prefix.as_ref()))
    .map(|word| candidate(word.to_owned(), help))
    .collect()
}

/// The words `patterns` accept when each is a plain alternation of literal
/// words (`debug|release`, also anchored or grouped: `^(a|b)$`); `None`
/// when there is no pattern or one is any other regular expression.
fn plain_alternatives(patterns: &[String]) -> Option<Vec<&str>> {
  if patterns.is_empty() {
    return None;
  }
  let mut words = Vec::new();
  for pattern in patterns {
    let pattern = pattern.strip_prefix('^').unwrap_or(pattern);
    let pattern = pattern.strip_suffix('$').unwrap_or(pattern);
    let pattern =
      pattern.strip_prefix('(').and_then(|inner| inner.strip_suffix(')')).unwrap_or(pattern);
    let pattern = pattern.strip_prefix("?:").unwrap_or(pattern);
    for word in pattern.split('|') {
      // `.` matches any character, so the word as written matches too.
      let literal = |c: char| c.is_alphanumeric() || "-_./:=,@%~".contains(c);
      if word.is_empty() || !word.chars().all(literal) {
        return None;
      }
      if !words.contains(&word) {
        words.push(word);
      }
    }
  }
  Some(words)
}

/// `--show` / `--usage`: recipe paths.
pub(crate) fn recipe_paths() -> Vec<CompletionCandidate> {
  with_context(recipe_candidates).unwrap_or_default()
}

/// `--set`'s values: variable names, then the named variable's value.
pub(crate) fn variables() -> Vec<CompletionCandidate> {
  let is_set = |word: Option<&OsString>| {
    word.and_then(|word| word.to_str()).and_then(|word| word.strip_prefix("--"))
      == Some(flags::environment::SET.long)
  };
  let mut words = completed_words().unwrap_or_default();
  words.pop();
  let previous = words.pop();
  if is_set(previous.as_ref()) {
    return with_words(words, |_, justfile| {
      variable_names(justfile).into_iter().map(CompletionCandidate::new).collect()
    })
    .unwrap_or_default();
  }
  if !is_set(words.last()) {
    return Vec::new();
  }
  let Some(name) = previous.and_then(|name| name.into_string().ok()) else {
    return Vec::new();
  };
  // The command line before this `--set`, which parses.
  words.pop();
  with_words(words, |config, justfile| current_value(config, justfile, &name))
    .flatten()
    .map(|value| vec![CompletionCandidate::new(value)])
    .unwrap_or_default()
}

/// A public variable's value when it is known without running anything:
/// its override on the command line, else its expression if constant (no
/// backtick, no function call); `None` otherwise.
fn current_value(config: &Config, justfile: &Justfile, name: &str) -> Option<String> {
  let module = &justfile.root;
  let assignment = module.assignments.get(name).filter(|assignment| !assignment.private)?;
  let given =
    config.overrides.iter().rev().find(|given| given.module_path.is_empty() && given.name == name);
  if let Some(given) = given {
    return Some(given.value.clone());
  }
  Some(constant_value(module, &[], assignment.value)?.joined())
}

/// `--group`: group names.
pub(crate) fn groups() -> Vec<CompletionCandidate> {
  with_context(|config, justfile| {
    module_groups(&justfile.root, config.unsorted)
      .into_iter()
      .map(CompletionCandidate::new)
      .collect()
  })
  .unwrap_or_default()
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn every_shell_has_a_script() {
    for &shell in CompletionShell::VALUES {
      let script = completions(shell);
      assert!(script.contains("just"), "{shell:?}");
      if let Some(completer) = dynamic(shell) {
        assert_eq!(completer.name(), shell.word());
        assert!(script.contains("JUST_COMPLETE") && script.contains(shell.word()), "{shell:?}");
      }
    }
  }

  #[test]
  fn only_plain_alternations_give_words() {
    let words = |patterns: &[&str]| {
      let patterns: Vec<String> = patterns.iter().map(|pattern| (*pattern).to_owned()).collect();
      plain_alternatives(&patterns).map(|words| words.join(" "))
    };
    assert_eq!(words(&["debug|release"]).as_deref(), Some("debug release"));
    assert_eq!(words(&["^(low|high)$", "high|max"]).as_deref(), Some("low high max"));
    assert_eq!(words(&["(?:x86_64|aarch64)"]).as_deref(), Some("x86_64 aarch64"));
    assert_eq!(words(&["lib/a.rs"]).as_deref(), Some("lib/a.rs"));
    assert_eq!(words(&[]), None);
    assert_eq!(words(&["[0-9]+"]), None);
    assert_eq!(words(&["a|b*"]), None);
    assert_eq!(words(&["a||b"]), None);
    assert_eq!(words(&["v1.0|v2.0"]).as_deref(), Some("v1.0 v2.0"));
  }
}
