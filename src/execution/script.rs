//! Script and shebang recipes: the body written to a private temporary file
//! and executed.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::body::{check_interrupted, recipe_directory};
use super::error::{spawn_failure, stderr_line, ExecutionError};
use super::output_mode::RecipeOutput;
use super::run::Run;
use super::{cache, timestamp};
use crate::evaluation::evaluator::{Evaluator, ModuleState, RecipeScope, RunContext, Site};
use crate::evaluation::shell;
use crate::platform::exit::Exit;
use crate::syntax::ast::Fragment;
use crate::syntax::strings::unescape_braces;

type Result<'src, T = ()> = std::result::Result<T, ExecutionError<'src>>;

enum Executor {
  Shebang { interpreter: String, argument: Option<String> },
  Command { program: String, arguments: Vec<String> },
}

impl Executor {
  fn describe(&self) -> String {
    match self {
      Executor::Shebang { interpreter, argument: Some(argument) } => {
        format!("shebang `#!{interpreter} {argument}`")
      }
      Executor::Shebang { interpreter, argument: None } => format!("shebang `#!{interpreter}`"),
      Executor::Command { program, arguments } => {
        let mut words = vec![program.clone()];
        words.extend(arguments.iter().cloned());
        format!("command `{}`", words.join(" "))
      }
    }
  }
}

pub(crate) fn run<'src>(
  context: &RunContext<'_, 'src>,
  run: &Run,
  state: &ModuleState<'_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  positional: &[String],
  output: &RecipeOutput<'_>,
) -> Result<'src> {
  let recipe = scope.recipe;
  let config = context.config;
  let name = recipe.name().lexeme().to_string();
  let evaluator = Evaluator::new(context, state, Some(scope), Site::Body);

  if let Some(format) = timestamp::format(context, &evaluator, recipe)? {
    let painter = context.stderr_painter();
    let time = chrono::Local::now().format(&format).to_string();
    output.stderr_line(&format!("[{}] {}", painter.paint(painter.command_style(), &time), name))?;
  }
  let lines = evaluate_lines(&evaluator, recipe)?;
  if !config.quiet && (config.dry_run || recipe.quiet()) {
    echo_lines(context, &lines, output)?;
  }
  if config.dry_run {
    return say_where_it_would_run(context, scope);
  }

  let (executor, working_directory) = setting(context, state, scope, &lines)?;
  let script = Script {
    lines: &lines,
    executor: &executor,
    positional: positional_arguments(state, recipe, positional),
    working_directory: &working_directory,
  };

  let cache = cache::attribute(scope).filter(|_| !config.no_cache);
  let entry = cache.map(|cache| {
    with_key_parts(scope.recipe, &script, |parts| {
      cache::open(context, &run.stores, run.observer.as_ref(), &evaluator, scope, cache, parts)
    })
  });
  let entry = match entry.transpose()? {
    Some(opened) if opened.hit => return opened.skip(context),
    Some(opened) if opened.runs_remotely() => return opened.run_remotely(context, recipe),
    entry => entry,
  };

  // Until the directory is removed, a signal is recorded rather than
  // ending `just` at once.
  let _busy = context.supervisor.busy().map_err(super::error::refused)?;
  let (directory, path) = write_temporary_script(context, state, recipe, &script)?;

  let mut process = command(context, &name, &script, &path)?;
  evaluator.apply_environment(&mut process);
  run.jobserver.configure(&mut process);
  let capture = match &entry {
    Some(entry) => entry.capture(&mut process)?,
    None => None,
  };
  let status = output.run(context.supervisor, &mut process, capture.is_some());
  // The command holds the write ends of the capture's pipes.
  drop(process);
  let captured = capture.map(cache::Capture::finish).transpose();
  drop(directory);
  let status = status.map_err(|error| {
    spawn_failure(error, |source| ExecutionError::ScriptSpawn {
      recipe: name.clone(),
      executor: executor.describe(),
      source,
    })
  })?;
  let captured = captured.map_err(|(stdout, source)| {
    if stdout {
      ExecutionError::Stdout { source }
    } else {
      ExecutionError::Stderr { source }
    }
  })?;
  finish(context, recipe, name, status, entry, captured)
}

/// `--dry-run` with `--remote-executor`: a `[cache]` recipe would run there
/// unless the cache has its result.
fn say_where_it_would_run<'src>(
  context: &RunContext<'_, 'src>,
  scope: &RecipeScope<'_, 'src>,
) -> Result<'src> {
  let config = context.config;
  let Some(server) = cache::executor_shown(config) else {
    return Ok(());
  };
  if config.quiet || config.no_cache || cache::attribute(scope).is_none() {
    return Ok(());
  }
  let painter = context.stderr_painter();
  let namepath = scope.recipe.namepath;
  stderr_line(&painter.banner(&format!(
    "===> recipe `{namepath}` would run remotely on `{server}` unless its result is cached"
  )))
}

/// Write the script into a private temporary directory (shown with `-vv`):
/// the directory, removed when dropped, and the script's path.
fn write_temporary_script<'src>(
  context: &RunContext<'_, 'src>,
  state: &ModuleState<'_, 'src>,
  recipe: &crate::analysis::model::Recipe<'src>,
  script: &Script<'_>,
) -> Result<'src, (tempfile::TempDir, PathBuf)> {
  let failed =
    |source| ExecutionError::TempDir { recipe: recipe.name().lexeme().to_string(), source };
  let directory = temporary_directory(context, state).map_err(failed)?;
  let path = directory.path().join(file_name(recipe, script.executor));
  let shebang = matches!(script.executor, Executor::Shebang { .. });
  let text = script_text(script.lines, shebang);
  write_script(&path, &text, shebang).map_err(failed)?;
  if context.config.verbosity >= 2 {
    stderr_line(&context.stderr_painter().doc(&text))?;
  }
  Ok((directory, path))
}

/// What runs: the evaluated body, how, with which arguments and where.
struct Script<'e> {
  lines: &'e [(usize, String)],
  executor: &'e Executor,
  /// The recipe's arguments, when they are passed on as positional ones.
  positional: Option<&'e [String]>,
  working_directory: &'e Path,
}

/// Show the script's lines, as `--dry-run` and a quiet recipe do.
fn echo_lines<'src>(
  context: &RunContext<'_, 'src>,
  lines: &[(usize, String)],
  output: &RecipeOutput<'_>,
) -> Result<'src> {
  let painter = context.stderr_painter();
  for (_, text) in lines {
    output.stderr_line(&painter.paint(painter.command_style(), text))?;
  }
  Ok(())
}

/// The body's lines, their interpolations evaluated, with their numbers.
fn evaluate_lines<'src>(
  evaluator: &Evaluator<'_, '_, 'src>,
  recipe: &crate::analysis::model::Recipe<'src>,
) -> Result<'src, Vec<(usize, String)>> {
  let mut lines: Vec<(usize, String)> = Vec::with_capacity(recipe.body().len());
  for line in recipe.body() {
    let mut text = String::new();
    for fragment in line.fragments() {
      match fragment {
        Fragment::Text(token) => text.push_str(&unescape_braces(token.lexeme())),
        Fragment::Interpolation { expression, .. } => {
          text.push_str(&evaluator.evaluate(expression)?.joined());
        }
      }
    }
    lines.push((line.number(), text));
  }
  Ok(lines)
}

/// `--up-to-date`: whether the cached script would be skipped (`None`),
/// else why it would run; nothing is written or started.
pub(crate) fn question<'src>(
  context: &RunContext<'_, 'src>,
  run: &Run,
  state: &ModuleState<'_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  positional: &[String],
  cache: &crate::syntax::ast::CacheAttribute<'src>,
) -> Result<'src, Option<String>> {
  let recipe = scope.recipe;
  let evaluator = Evaluator::new(context, state, Some(scope), Site::Body);
  let lines = evaluate_lines(&evaluator, recipe)?;
  let (executor, working_directory) = setting(context, state, scope, &lines)?;
  let script = Script {
    lines: &lines,
    executor: &executor,
    positional: positional_arguments(state, recipe, positional),
    working_directory: &working_directory,
  };
  with_key_parts(scope.recipe, &script, |parts| {
    cache::probe(context, &run.stores, run.observer.as_ref(), &evaluator, scope, cache, parts)
  })
}

/// How the script runs and where.
fn setting<'src>(
  context: &RunContext<'_, 'src>,
  state: &ModuleState<'_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  lines: &[(usize, String)],
) -> Result<'src, (Executor, PathBuf)> {
  let executor = executor(state, scope.recipe, lines)?;
  Ok((executor, recipe_directory(context, state, scope)?))
}

/// The recipe's arguments, when they are passed on as positional ones.
fn positional_arguments<'p>(
  state: &ModuleState<'_, '_>,
  recipe: &crate::analysis::model::Recipe<'_>,
  positional: &'p [String],
) -> Option<&'p [String]> {
  let enabled =
    state.module.settings.positional_arguments || recipe.effects.flags.positional_arguments();
  enabled.then_some(positional)
}

/// What the script's `[cache]` key covers, given to `keyed`.
fn with_key_parts<'src, T>(
  recipe: &crate::analysis::model::Recipe<'_>,
  script: &Script<'_>,
  keyed: impl FnOnce(&cache::KeyParts<'_>) -> Result<'src, T>,
) -> Result<'src, T> {
  let body: Vec<String> = script.lines.iter().map(|(_, text)| text.clone()).collect();
  let script_name = file_name(recipe, script.executor);
  let shebang = matches!(script.executor, Executor::Shebang { .. });
  let script_text = script_text(script.lines, shebang);
  let parts = cache::KeyParts {
    script: (&script_name, &script_text),
    body: &body,
    executor: match script.executor {
      Executor::Shebang { interpreter, argument } => {
        cache::KeyExecutor::Shebang { interpreter, argument: argument.as_deref() }
      }
      Executor::Command { program, arguments } => {
        cache::KeyExecutor::Command { command: program, arguments }
      }
    },
    positional: script.positional.map(<[String]>::to_vec),
    working_directory: script.working_directory,
  };
  keyed(&parts)
}

/// The command that runs the script file at `path`.
fn command<'src>(
  context: &RunContext<'_, 'src>,
  name: &str,
  script: &Script<'_>,
  path: &Path,
) -> Result<'src, Command> {
  let config = context.config;
  let mut process = match script.executor {
    Executor::Shebang { interpreter, argument } => {
      crate::platform::command::shebang(path, interpreter, argument.as_deref(), &config.cygpath)
        .map_err(|error| shebang_error(name, &config.cygpath, error))?
    }
    Executor::Command { program, arguments } => {
      let mut process = Command::new(program);
      process.args(arguments).arg(path);
      process
    }
  };
  if let Some(positional) = script.positional {
    process.args(positional);
  }
  process.current_dir(script.working_directory);
  Ok(process)
}

/// The run's outcome from the script's exit: a success still stops at a
/// signal the script handled, and records the cache entry.
fn finish<'src>(
  context: &RunContext<'_, 'src>,
  recipe: &crate::analysis::model::Recipe<'src>,
  name: String,
  status: std::process::ExitStatus,
  entry: Option<cache::Entry>,
  captured: Option<cache::Captured>,
) -> Result<'src> {
  match Exit::of(status) {
    Exit::Code(0) => {
      check_interrupted(context, recipe, false)?;
      match entry {
        Some(entry) => entry.complete(&name, recipe.namepath, captured),
        None => Ok(()),
      }
    }
    Exit::Code(code) => Err(ExecutionError::ScriptCode { recipe: name, code }),
    Exit::Signal(signal) => Err(ExecutionError::ScriptSignal { recipe: name, signal }),
    Exit::Unknown => Err(ExecutionError::ScriptUnknown { recipe: name }),
  }
}

fn shebang_error<'src>(
  recipe: &str,
  cygpath: &Path,
  error: crate::platform::command::ShebangError,
) -> ExecutionError<'src> {
  use crate::platform::command::ShebangError;
  let (recipe, cygpath) = (recipe.to_owned(), cygpath.display().to_string());
  match error {
    ShebangError::NotFound(source) => ExecutionError::CygpathNotFound { recipe, cygpath, source },
    ShebangError::Status(code) => ExecutionError::CygpathStatus { recipe, code },
    ShebangError::Output(message) => ExecutionError::CygpathFailed { recipe, cygpath, message },
  }
}

fn executor<'src>(
  state: &ModuleState<'_, 'src>,
  recipe: &crate::analysis::model::Recipe<'src>,
  lines: &[(usize, String)],
) -> Result<'src, Executor> {
  if let Some(interpreter) = recipe.effects.values().interpreter {
    return Ok(Executor::Command {
      program: interpreter.command.cooked.to_string(),
      arguments: interpreter.arguments.iter().map(|a| a.cooked.to_string()).collect(),
    });
  }
  if recipe.effects.flags.script() {
    let (program, arguments) = shell::script_interpreter(&state.module.settings);
    return Ok(Executor::Command { program, arguments });
  }
  if recipe.shebang() {
    let first = lines.first().map(|(_, text)| text.as_str()).unwrap_or_default();
    let rest = first.trim_start_matches("#!").trim();
    let (interpreter, argument) = match rest.split_once([' ', '\t']) {
      Some((interpreter, argument)) => (interpreter, Some(argument.trim().to_string())),
      None => (rest, None),
    };
    if interpreter.is_empty() {
      return Err(ExecutionError::InvalidShebang {
        recipe: recipe.name().lexeme().to_string(),
        line: first.to_string(),
      });
    }
    return Ok(Executor::Shebang { interpreter: interpreter.to_string(), argument });
  }
  let (program, arguments) = shell::script_interpreter(&state.module.settings);
  Ok(Executor::Command { program, arguments })
}

fn file_name(recipe: &crate::analysis::model::Recipe<'_>, executor: &Executor) -> String {
  let mut name = recipe.name().lexeme().to_string();
  if let Some(extension) = recipe.effects.values().extension {
    name.push_str(extension);
    return name;
  }
  let program = match executor {
    Executor::Shebang { interpreter, .. } => interpreter.as_str(),
    Executor::Command { program, .. } => program.as_str(),
  };
  let last = Path::new(program).file_name().and_then(|n| n.to_str()).unwrap_or_default();
  match last {
    "powershell" | "powershell.exe" | "pwsh" | "pwsh.exe" => name.push_str(".ps1"),
    "cmd" | "cmd.exe" => name.push_str(".bat"),
    _ => {}
  }
  name
}

/// Place each body line on its source line number; the leading `#!` lines
/// come first, one line above their places, so the recipe line's blank
/// follows them.
fn script_text(lines: &[(usize, String)], shebang: bool) -> String {
  let mut out = String::new();
  let mut current = 0;
  let mut iter = lines.iter().peekable();
  if shebang {
    while let Some((_, text)) = iter.next_if(|(_, text)| current == 0 || text.starts_with("#!")) {
      if crate::platform::command::SHEBANG_LINE_KEPT {
        out.push_str(text);
      }
      out.push('\n');
      current += 1;
    }
  }
  for (number, text) in iter {
    while current < *number {
      out.push('\n');
      current += 1;
    }
    out.push_str(text);
    out.push('\n');
    current += 1;
  }
  out
}

fn write_script(path: &Path, text: &str, executable: bool) -> std::io::Result<()> {
  let mut file = fs::File::create(path)?;
  file.write_all(text.as_bytes())?;
  drop(file);
  if executable {
    crate::platform::fs::make_executable(path)?;
  }
  Ok(())
}

/// `just-XXXXXX` inside `--tempdir`, `set tempdir`, `$XDG_RUNTIME_DIR/just`,
/// or the system temporary directory; private (0700) and removed on drop.
fn temporary_directory(
  context: &RunContext<'_, '_>,
  state: &ModuleState<'_, '_>,
) -> std::io::Result<tempfile::TempDir> {
  let base: Option<PathBuf> = match (&context.config.tempdir, &state.module.settings.tempdir) {
    (Some(dir), _) => Some(context.working_directory.join(dir)),
    (None, Some(dir)) => Some(context.working_directory.join(dir)),
    (None, None) => std::env::var_os("XDG_RUNTIME_DIR")
      .map(PathBuf::from)
      .filter(|dir| dir.is_absolute())
      .map(|dir| dir.join("just"))
      .and_then(|dir| fs::create_dir_all(&dir).ok().map(|()| dir)),
  };
  let mut builder = tempfile::Builder::new();
  builder.prefix("just-").rand_bytes(6);
  if let Some(permissions) = crate::platform::fs::private_directory_permissions() {
    builder.permissions(permissions);
  }
  match base {
    Some(base) => builder.tempdir_in(base),
    None => builder.tempdir(),
  }
}
