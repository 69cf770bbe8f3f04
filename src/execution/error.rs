//! Errors raised while running recipes.

use snafu::Snafu;

use crate::evaluation::error::EvaluationError;
use crate::platform::exit::signal_status;
use crate::platform::supervisor::SpawnError;

#[derive(Debug, Snafu)]
#[snafu(visibility(pub))]
pub(crate) enum ExecutionError<'src> {
  #[snafu(display("recipe `{recipe}` failed on line {line} with exit code {code}"))]
  LineCode { recipe: String, line: usize, code: i32 },
  #[snafu(display("recipe `{recipe}` was terminated on line {line} by signal {signal}"))]
  LineSignal { recipe: String, line: usize, signal: i32 },
  #[snafu(display("recipe `{recipe}` failed on line {line} for an unknown reason"))]
  LineUnknown { recipe: String, line: usize },
  #[snafu(display("recipe `{recipe}` failed with exit code {code}"))]
  ScriptCode { recipe: String, code: i32 },
  #[snafu(display("recipe `{recipe}` was terminated by signal {signal}"))]
  ScriptSignal { recipe: String, signal: i32 },
  #[snafu(display("recipe `{recipe}` failed for an unknown reason"))]
  ScriptUnknown { recipe: String },
  #[snafu(display(
    "guard line in recipe `{recipe}` on line {line} returned reserved exit code {code}"
  ))]
  Guard { recipe: String, line: usize, code: i32 },
  #[snafu(display(
    "recipe `{recipe}` could not be run because just could not find the shell `{shell}`: {source}"
  ))]
  ShellNotFound { recipe: String, shell: String, source: std::io::Error },
  #[snafu(display(
    "recipe `{recipe}` could not be run because just could not run the shell `{shell}`: {source}"
  ))]
  ShellPermission { recipe: String, shell: String, source: std::io::Error },
  #[snafu(display("recipe `{recipe}` could not be run because of an IO error while launching the shell `{shell}`: {source}"))]
  ShellIo { recipe: String, shell: String, source: std::io::Error },
  #[snafu(display("recipe `{recipe}` with {executor} execution error: {source}"))]
  ScriptSpawn { recipe: String, executor: String, source: std::io::Error },
  /// Windows: the shebang interpreter's Unix path could not be translated.
  #[snafu(display(
    "could not find `cygpath` executable to translate recipe `{recipe}` shebang interpreter path:\n{source}"
  ))]
  CygpathNotFound { recipe: String, cygpath: String, source: std::io::Error },
  #[snafu(display(
    "`{cygpath}` could not translate recipe `{recipe}` shebang interpreter path: {message}"
  ))]
  CygpathFailed { recipe: String, cygpath: String, message: String },
  #[snafu(display(
    "cygpath failed with exit code {} while translating recipe `{recipe}` shebang interpreter path",
    code.map_or_else(|| "unknown".to_owned(), |code| code.to_string())
  ))]
  CygpathStatus { recipe: String, code: Option<i32> },
  #[snafu(display("recipe `{recipe}` could not be run because of an IO error while trying to create a temporary directory or write a file to that directory: {source}"))]
  TempDir { recipe: String, source: std::io::Error },
  #[snafu(display("recipe `{recipe}` has invalid shebang `{line}`"))]
  InvalidShebang { recipe: String, line: String },
  #[snafu(display(
    "recipe `{recipe}` parameter `{parameter}` requires at least one element but received empty list"
  ))]
  EmptyList { recipe: String, parameter: String },
  #[snafu(display("recipe `{recipe}` was not confirmed"))]
  NotConfirmed { recipe: String },
  /// `--up-to-date`: the answer "no", not a failure: this recipe would run.
  #[snafu(display("recipe `{recipe}` would run: {reason}"))]
  WouldRun { recipe: String, reason: String },
  #[snafu(display("failed to read confirmation from stdin: {source}"))]
  Confirmation { source: std::io::Error },
  #[snafu(display("interrupted by {signal}"))]
  Interrupted { signal: &'static str, number: i32 },
  #[snafu(display(
    "failed to parse time format string `{format}`: bad or unsupported format string"
  ))]
  TimestampFormat { format: String },
  #[snafu(display("{message}"))]
  Message { message: String },
  #[snafu(display("{error}"))]
  Evaluation { error: EvaluationError<'src> },
  /// A recipe failure whose message `[no-exit-message]` suppresses.
  #[snafu(display(""))]
  Silent { status: i32 },
  #[snafu(display("{message}"))]
  Dotenv { message: String, status: i32 },
  /// `--keep-going`: the recipe failed or was skipped (already recorded).
  #[snafu(display("recipe `{recipe}` did not succeed"))]
  Unsuccessful { recipe: String },
  /// `--keep-going`: the run ended with failures, or was stopped by a
  /// signal (`stopped`, the error that stopped it, and the signal's name).
  /// `summary` lists the recipes that failed or were skipped.
  #[snafu(display("{} recipes did not succeed", summary.len()))]
  KeptGoing {
    summary: Vec<Summary>,
    status: i32,
    stopped: Option<Box<ExecutionError<'src>>>,
    signal: Option<&'static str>,
  },
  #[snafu(display("failed to write to standard output: {source}"))]
  Stdout { source: std::io::Error },
  #[snafu(display("failed to write to standard error: {source}"))]
  Stderr { source: std::io::Error },
}

/// Work refused because the run is being interrupted by `signal`: the run
/// ends silently with the signal's status, as a refused start does.
pub(crate) fn refused<'src>(signal: i32) -> ExecutionError<'src> {
  ExecutionError::Silent { status: signal_status(signal) }
}

/// A process that failed to start: `io` describes an I/O error; a start
/// refused because the run is being interrupted ends the run silently with
/// the signal's status, as the signal would have ended `just`.
pub(crate) fn spawn_failure<'src>(
  error: SpawnError,
  io: impl FnOnce(std::io::Error) -> ExecutionError<'src>,
) -> ExecutionError<'src> {
  match error {
    SpawnError::Interrupted { signal } => refused(signal),
    SpawnError::Io(source) => io(source),
  }
}

/// Write a line to standard error, as a value on failure.
pub(crate) fn stderr_line<'src>(text: &str) -> Result<(), ExecutionError<'src>> {
  crate::platform::stdio::stderr_line(text).map_err(|source| ExecutionError::Stderr { source })
}

impl<'src> From<EvaluationError<'src>> for ExecutionError<'src> {
  fn from(source: EvaluationError<'src>) -> Self {
    ExecutionError::Evaluation { error: source }
  }
}

impl ExecutionError<'_> {
  pub(crate) fn status(&self) -> i32 {
    use ExecutionError::*;
    match self {
      LineCode { code, .. } | ScriptCode { code, .. } => *code,
      LineSignal { signal, .. } | ScriptSignal { signal, .. } => signal_status(*signal),
      Interrupted { number, .. } => signal_status(*number),
      Evaluation { error } => error.status(),
      Dotenv { status, .. } | Silent { status } => *status,
      KeptGoing { status, .. } => *status,
      _ => 1,
    }
  }

  /// The same error naming its recipe by `path` (`web::test`), as
  /// `--keep-going` reports failures of recipes from several modules.
  pub(crate) fn naming(mut self, path: &str) -> Self {
    use ExecutionError::*;
    match &mut self {
      LineCode { recipe, .. }
      | LineSignal { recipe, .. }
      | LineUnknown { recipe, .. }
      | ScriptCode { recipe, .. }
      | ScriptSignal { recipe, .. }
      | ScriptUnknown { recipe }
      | Guard { recipe, .. }
      | ShellNotFound { recipe, .. }
      | ShellPermission { recipe, .. }
      | ShellIo { recipe, .. }
      | ScriptSpawn { recipe, .. }
      | TempDir { recipe, .. }
      | InvalidShebang { recipe, .. }
      | EmptyList { recipe, .. }
      | NotConfirmed { recipe } => *recipe = path.to_string(),
      _ => {}
    }
    self
  }

  /// Whether this is the failure of a recipe's own command (suppressible by
  /// `[no-exit-message]`).
  pub(crate) fn is_recipe_failure(&self) -> bool {
    use ExecutionError::*;
    matches!(
      self,
      LineCode { .. }
        | LineSignal { .. }
        | LineUnknown { .. }
        | ScriptCode { .. }
        | ScriptSignal { .. }
        | ScriptUnknown { .. }
    )
  }
}

/// What became of a recipe that did not simply succeed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
  /// It failed, with this exit status.
  Failed { status: i32 },
  /// It did not run, for this reason (`needs `x``, `runs after `x``).
  Skipped { reason: String },
}

/// One line of `--keep-going`'s summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Summary {
  /// The recipe's full path (`module::recipe`).
  pub recipe: String,
  pub fate: Fate,
}
