//! Linewise recipes: each logical line run by its own shell.

use std::process::Stdio;

use super::body::{check_interrupted, recipe_directory, spawn_error};
use super::error::{spawn_failure, ExecutionError};
use super::output_mode::RecipeOutput;
use super::run::Run;
use super::timestamp;
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

  let mut index = 0;
  let lines = recipe.body();
  while index < lines.len() {
    let Some(command) =
      next_command(&evaluator, lines, &mut index, settings.ignore_comments, settings.guards)?
    else {
      continue;
    };
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
    }

    // Only an error needs the name: no allocation per line.
    let name = || recipe.name().lexeme().to_string();
    let status = output
      .run(context.supervisor, &mut process, config.quiet)
      .map_err(|error| spawn_failure(error, |source| spawn_error(name(), shell, source)))?;
    let line = command.line;

    match Exit::of(status) {
      Exit::Code(0) => {}
      Exit::Code(1) if sigils.guard => break,
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
  Ok(())
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
