//! Linewise recipes: each logical line run by its own shell.

use std::process::Stdio;

use super::body::{check_interrupted, recipe_directory, spawn_error};
use super::error::{spawn_failure, ExecutionError};
use super::output_mode::RecipeOutput;
use super::run::Run;
use super::{cache, timestamp};
use crate::evaluation::evaluator::{Evaluator, ModuleState, RecipeScope, RunContext, Site};
use crate::platform::exit::Exit;
use crate::syntax::ast::{Fragment, Line};
use crate::syntax::strings::unescape_braces;

type Result<'src, T = ()> = std::result::Result<T, ExecutionError<'src>>;

/// A logical line after joining continuations and evaluating interpolations.
struct LogicalLine {
  /// The command, without its sigils.
  text: String,
  sigils: Sigils,
  /// 1-based source line number of its last physical line.
  line: usize,
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
  let settings = &state.module.settings;
  let evaluator = Evaluator::new(context, state, Some(scope), Site::Body);
  let working_directory = recipe_directory(context, state, scope)?;
  let timestamp_format = timestamp::format(context, &evaluator, recipe)?;
  // The same for every line: computed once, not per spawned shell.
  let environment = evaluator.environment();

  let cache = cache::attribute(scope).filter(|_| !config.no_cache && !config.dry_run);
  let (mut commands, entry) = match cache {
    Some(cache) => {
      let commands = evaluate_commands(&evaluator, recipe.body(), settings)?;
      let keyed = Keyed { commands: &commands, positional, working_directory: &working_directory };
      let entry = with_key_parts(state, scope, &keyed, |parts| {
        cache::open(context, &run.stores, run.observer.as_ref(), &evaluator, scope, cache, parts)
      })?;
      if entry.hit {
        return entry.skip(context);
      }
      (Commands::Evaluated(commands.into_iter()), Some(entry))
    }
    None => (Commands::Lazy(0), None),
  };
  // A published run's output, from every line's shell (not with `--quiet`,
  // which silences them).
  let capture = match &entry {
    Some(entry) if !config.quiet => entry.capture_lines()?,
    _ => None,
  };

  let mut finished = true;
  while let Some(command) = commands.next(&evaluator, recipe.body(), settings)? {
    let (text, sigils) = (command.text.as_str(), command.sigils);
    if text.is_empty() {
      continue;
    }

    let quiet_line = sigils.quiet ^ recipe.quiet();
    let silenced =
      quiet_line || (settings.quiet && !recipe.effects.flags.no_quiet()) || config.quiet;
    let echo = config.dry_run || config.verbosity >= 1 || timestamp_format.is_some() || !silenced;
    if echo {
      echo_line(context, text, timestamp_format.as_deref(), output)?;
    }
    if config.dry_run {
      continue;
    }

    let (shell, arguments) = &state.shell;
    let mut process = crate::builtins::process::shell_command(shell, arguments, text);
    if settings.positional_arguments || recipe.effects.flags.positional_arguments() {
      process.arg(recipe.name().lexeme());
      process.args(positional);
    }
    process.current_dir(&working_directory);
    environment.apply(&mut process);
    run.jobserver.configure(&mut process);
    if config.quiet {
      process.stdout(Stdio::null()).stderr(Stdio::null());
    } else if let Some(capture) = &capture {
      capture.attach(&mut process).map_err(capture_failure)?;
    }

    // Only an error needs the name: no allocation per line.
    let name = || recipe.name().lexeme().to_string();
    let status = output
      .run(context.supervisor, &mut process, config.quiet || capture.is_some())
      .map_err(|error| spawn_failure(error, |source| spawn_error(name(), shell, source)))?;
    let line = command.line;

    match Exit::of(status) {
      Exit::Code(0) => {}
      Exit::Code(1) if sigils.guard => {
        finished = false;
        break;
      }
      Exit::Code(code) if sigils.guard => {
        return Err(ExecutionError::Guard { recipe: name(), line, code })
      }
      _ if sigils.infallible => {}
      Exit::Code(code) => return Err(ExecutionError::LineCode { recipe: name(), line, code }),
      Exit::Signal(signal) => {
        return Err(ExecutionError::LineSignal { recipe: name(), line, signal })
      }
      Exit::Unknown => return Err(ExecutionError::LineUnknown { recipe: name(), line }),
    }
    check_interrupted(context, recipe, sigils.infallible)?;
  }
  let Some(entry) = entry else {
    return Ok(());
  };
  let captured = capture.map(cache::Capture::finish).transpose().map_err(|(stdout, source)| {
    if stdout {
      ExecutionError::Stdout { source }
    } else {
      ExecutionError::Stderr { source }
    }
  })?;
  // A guard that stopped the recipe leaves it uncached: its next run
  // checks again.
  if !finished {
    return Ok(());
  }
  entry.complete(recipe.name().lexeme(), recipe.namepath, captured)
}

fn capture_failure<'src>(error: std::io::Error) -> ExecutionError<'src> {
  ExecutionError::Message { message: format!("failed to capture recipe output: {error}") }
}

/// Where the logical lines come from: evaluated one at a time, just before
/// each runs, or all at once beforehand (a `[cache]` recipe, whose key
/// covers them).
enum Commands {
  Lazy(usize),
  Evaluated(std::vec::IntoIter<LogicalLine>),
}

impl Commands {
  fn next<'src>(
    &mut self,
    evaluator: &Evaluator<'_, '_, 'src>,
    lines: &[Line<'src>],
    settings: &crate::analysis::model::Settings<'src>,
  ) -> Result<'src, Option<LogicalLine>> {
    match self {
      Commands::Evaluated(commands) => Ok(commands.next()),
      Commands::Lazy(index) => {
        while *index < lines.len() {
          let command =
            next_command(evaluator, lines, index, settings.ignore_comments, settings.guards)?;
          if command.is_some() {
            return Ok(command);
          }
        }
        Ok(None)
      }
    }
  }
}

/// Every logical line of the body, evaluated in order.
fn evaluate_commands<'src>(
  evaluator: &Evaluator<'_, '_, 'src>,
  lines: &[Line<'src>],
  settings: &crate::analysis::model::Settings<'src>,
) -> Result<'src, Vec<LogicalLine>> {
  let mut commands = Vec::new();
  let mut lazy = Commands::Lazy(0);
  while let Some(command) = lazy.next(evaluator, lines, settings)? {
    if !command.text.is_empty() {
      commands.push(command);
    }
  }
  Ok(commands)
}

/// What of a run of shell lines its key covers besides the recipe.
struct Keyed<'e> {
  commands: &'e [LogicalLine],
  positional: &'e [String],
  working_directory: &'e std::path::Path,
}

/// `--up-to-date`: whether the cached recipe would be skipped (`None`),
/// else why it would run; nothing is written or started.
pub(crate) fn question<'src>(
  context: &RunContext<'_, 'src>,
  run: &Run,
  state: &ModuleState<'_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  positional: &[String],
  cache: &crate::syntax::ast::CacheAttribute<'src>,
) -> Result<'src, Option<String>> {
  let evaluator = Evaluator::new(context, state, Some(scope), Site::Body);
  let working_directory = recipe_directory(context, state, scope)?;
  let commands = evaluate_commands(&evaluator, scope.recipe.body(), &state.module.settings)?;
  let keyed = Keyed { commands: &commands, positional, working_directory: &working_directory };
  with_key_parts(state, scope, &keyed, |parts| {
    cache::probe(context, &run.stores, run.observer.as_ref(), &evaluator, scope, cache, parts)
  })
}

/// What the `[cache]` key of a run of shell lines covers — its evaluated
/// lines with their sigils, the shell and its arguments — given to `keyed`.
fn with_key_parts<'src, T>(
  state: &ModuleState<'_, 'src>,
  scope: &RecipeScope<'_, 'src>,
  run: &Keyed<'_>,
  keyed: impl FnOnce(&cache::KeyParts<'_>) -> Result<'src, T>,
) -> Result<'src, T> {
  let recipe = scope.recipe;
  let body: Vec<String> = run.commands.iter().map(|command| command.text.clone()).collect();
  let sigils: Vec<&str> = run.commands.iter().map(|command| command.sigils.key()).collect();
  let (shell, arguments) = &state.shell;
  let positional_enabled =
    state.module.settings.positional_arguments || recipe.effects.flags.positional_arguments();
  let parts = cache::KeyParts {
    body: &body,
    executor: cache::KeyExecutor::Shell { shell, arguments, sigils: &sigils },
    positional: positional_enabled.then(|| run.positional.to_vec()),
    working_directory: run.working_directory,
    // No script file: a Remote Execution API action is made of scripts only.
    script: ("", ""),
  };
  keyed(&parts)
}

fn echo_line<'src>(
  context: &RunContext<'_, 'src>,
  text: &str,
  timestamp_format: Option<&str>,
  output: &RecipeOutput<'_>,
) -> Result<'src> {
  let painter = context.stderr_painter();
  let style = painter.command_style();
  match timestamp_format {
    Some(format) => {
      let time = chrono::Local::now().format(format).to_string();
      output.stderr_line(&format!(
        "[{}] {}",
        painter.paint(style, &time),
        painter.paint(style, text)
      ))
    }
    None => output.stderr_line(&painter.paint(style, text)),
  }
}

#[derive(Default, Clone, Copy)]
struct Sigils {
  quiet: bool,
  infallible: bool,
  guard: bool,
}

impl Sigils {
  /// The sigils that change what a line's run means, as a cache key
  /// records them (`@` only changes what is echoed).
  fn key(self) -> &'static str {
    match (self.infallible, self.guard) {
      (false, false) => "",
      (true, false) => "-",
      (false, true) => "?",
      (true, true) => "-?",
    }
  }
}

fn strip_sigils(text: &str, guards: bool) -> (&str, Sigils) {
  let mut sigils = Sigils::default();
  let mut rest = text;
  loop {
    let flag = match rest.chars().next() {
      Some('@') => &mut sigils.quiet,
      Some('-') => &mut sigils.infallible,
      Some('?') if guards => &mut sigils.guard,
      _ => break,
    };
    if *flag {
      break;
    }
    *flag = true;
    rest = &rest[1..];
  }
  (rest, sigils)
}

/// Join the next logical line (continuations) and evaluate it. Returns None
/// for skipped comment lines. Sigils are read from the source text only, never
/// from what an interpolation produced.
fn next_command<'src>(
  evaluator: &Evaluator<'_, '_, 'src>,
  lines: &[Line<'src>],
  index: &mut usize,
  ignore_comments: bool,
  guards: bool,
) -> Result<'src, Option<LogicalLine>> {
  let first = &lines[*index];
  if ignore_comments && starts_with_hash(first) {
    *index += 1;
    return Ok(None);
  }
  let (prefix, sigils) = match first.first_fragment() {
    Some(Fragment::Text(token)) => {
      let lexeme = token.lexeme();
      let (rest, sigils) = strip_sigils(lexeme, guards);
      (lexeme.len() - rest.len(), sigils)
    }
    _ => (0, Sigils::default()),
  };
  let mut text = String::new();
  let mut continued = false;
  loop {
    let line = &lines[*index];
    *index += 1;
    let mut continues = false;
    let mut fragments = line.fragments().peekable();
    let mut first = true;
    while let Some(fragment) = fragments.next() {
      match fragment {
        Fragment::Text(token) => {
          let mut piece = token.lexeme();
          if first && continued {
            piece = piece.trim_start_matches([' ', '\t']);
          }
          if fragments.peek().is_none() {
            if let Some(joined) = piece.strip_suffix('\\') {
              piece = joined;
              continues = true;
            }
          }
          text.push_str(&unescape_braces(piece));
        }
        Fragment::Interpolation { expression, .. } => {
          text.push_str(&evaluator.evaluate(expression)?.joined());
        }
      }
      first = false;
    }
    if !continues || *index >= lines.len() || lines[*index].is_empty() {
      // Sigils are ASCII and precede any `{{{{`, so the prefix is intact.
      text.drain(..prefix);
      return Ok(Some(LogicalLine { text, sigils, line: line.number() + 1 }));
    }
    continued = true;
  }
}

fn starts_with_hash(line: &Line<'_>) -> bool {
  matches!(line.first_fragment(), Some(Fragment::Text(token)) if token.lexeme().starts_with('#'))
}
