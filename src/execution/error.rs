//! Errors raised while running recipes.

use snafu::Snafu;

use crate::evaluation::error::EvaluationError;
use crate::platform::exit::signal_status;

#[derive(Debug, Snafu)]
#[snafu(visibility(pub))]
pub enum ExecutionError<'src> {
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
  /// `--keep-going`: the run ended with these failures (in the order they
  /// happened) and skipped recipes (path, why).
  #[snafu(display("{} recipes failed", failures.len()))]
  KeptGoing { failures: Vec<ExecutionError<'src>>, skipped: Vec<(String, String)> },
  #[snafu(display("failed to write to standard output: {source}"))]
  Stdout { source: std::io::Error },
  #[snafu(display("failed to write to standard error: {source}"))]
  Stderr { source: std::io::Error },
}

/// Write a line to standard error, as a value on failure.
pub fn stderr_line<'src>(text: &str) -> Result<(), ExecutionError<'src>> {
  crate::platform::stdio::stderr_line(text).map_err(|source| ExecutionError::Stderr { source })
}

impl<'src> From<EvaluationError<'src>> for ExecutionError<'src> {
  fn from(source: EvaluationError<'src>) -> Self {
    ExecutionError::Evaluation { error: source }
  }
}

impl ExecutionError<'_> {
  pub fn status(&self) -> i32 {
    use ExecutionError::*;
    match self {
      LineCode { code, .. } | ScriptCode { code, .. } => *code,
      LineSignal { signal, .. } | ScriptSignal { signal, .. } => signal_status(*signal),
      Interrupted { number, .. } => signal_status(*number),
      Evaluation { error } => error.status(),
      Dotenv { status, .. } | Silent { status } => *status,
      KeptGoing { failures, .. } => failures.first().map_or(1, ExecutionError::status),
      _ => 1,
    }
  }

  /// The same error naming its recipe by `path` (`web::test`), as
  /// `--keep-going` reports failures of recipes from several modules.
  pub fn naming(mut self, path: &str) -> Self {
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
  pub fn is_recipe_failure(&self) -> bool {
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
