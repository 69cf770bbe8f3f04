//! The top-level error: one variant per layer. Rendering (message,
//! suggestion, usage block, source excerpt, `caused by:`) is uniform.

use crate::analysis::compile_error::CompileError;
use crate::color::Painter;
use crate::evaluation::error::EvaluationError;
use crate::evaluation::prepare::PrepareError;
use crate::execution::error::{ExecutionError, Fate, Summary};
use crate::output::diagnostic::{error_line, push_excerpt};
use crate::syntax::token::Token;

#[derive(Debug)]
pub(crate) enum Error<'src> {
  Compile(Box<CompileError<'src>>),
  Evaluation(Box<EvaluationError<'src>>),
  Execution(Box<ExecutionError<'src>>),
  Invocation(Box<crate::cli::invocation::InvocationError>),
  /// An error of another layer, already reduced to its parts.
  Other(Box<Report<'src>>),
}

/// The parts of a rendered error.
#[derive(Debug, Default)]
pub(crate) struct Report<'src> {
  pub message: String,
  pub suggestion: Option<String>,
  pub usage: Option<String>,
  pub token: Option<Token<'src>>,
  pub caused_by: Option<String>,
  pub status: i32,
  /// Print nothing (e.g. `[no-exit-message]`).
  pub silent: bool,
}

impl Report<'_> {
  pub(crate) fn message(message: impl Into<String>) -> Self {
    Report { message: message.into(), status: 1, ..Report::default() }
  }
}

impl<'src> Error<'src> {
  pub(crate) fn message(message: impl Into<String>) -> Self {
    Error::Other(Box::new(Report::message(message)))
  }

  /// An error of a command without source excerpts: its message (with any
  /// suggestion line) and the exit status it calls for.
  pub(crate) fn plain(message: impl Into<String>, status: i32) -> Self {
    Error::Other(Box::new(Report { message: message.into(), status, ..Report::default() }))
  }

  pub(crate) fn report(&self) -> Report<'src> {
    match self {
      Error::Compile(error) => Report {
        message: error.to_string(),
        token: Some(error.token),
        caused_by: error.caused_by(),
        status: 1,
        ..Report::default()
      },
      Error::Evaluation(error) => evaluation_report(error),
      Error::Execution(error) => execution_report(error),
      Error::Invocation(error) => {
        let text = error.to_string();
        let (message, suggestion) = match text.split_once('\n') {
          Some((message, suggestion)) => (message.to_string(), Some(suggestion.to_string())),
          None => (text, None),
        };
        Report {
          message,
          suggestion,
          usage: error.usage_block(false),
          status: 1,
          ..Report::default()
        }
      }
      Error::Other(report) => Report {
        message: report.message.clone(),
        suggestion: report.suggestion.clone(),
        usage: report.usage.clone(),
        token: report.token,
        caused_by: report.caused_by.clone(),
        status: report.status,
        silent: report.silent,
      },
    }
  }

  pub(crate) fn status(&self) -> i32 {
    self.report().status
  }

  /// The text printed on stderr for this error.
  pub(crate) fn render(&self, painter: &Painter) -> String {
    if let Error::Execution(error) = self {
      if let ExecutionError::KeptGoing { summary, stopped, signal, .. } = error.as_ref() {
        return render_kept_going(summary, stopped.as_deref(), *signal, painter);
      }
    }
    self.render_report(&self.report(), painter)
  }

  fn render_report(&self, report: &Report, painter: &Painter) -> String {
    if report.silent {
      return String::new();
    }
    // The suggestion is part of the message: one bold span covers both.
    let mut out = match &report.suggestion {
      Some(suggestion) => error_line(painter, &format!("{}\n{suggestion}", report.message)),
      None => error_line(painter, &report.message),
    };
    if let Some(usage) = &report.usage {
      if painter.active {
        if let Error::Invocation(error) = self {
          out.push_str(&error.usage_block(true).unwrap_or_default());
        }
      } else {
        out.push_str(usage);
      }
    }
    if let Some(token) = &report.token {
      push_excerpt(&mut out, painter, token);
    }
    if let Some(caused_by) = &report.caused_by {
      out.push_str(&format!("caused by: {caused_by}\n"));
    }
    out
  }
}

fn execution_report<'src>(error: &ExecutionError<'src>) -> Report<'src> {
  match error {
    ExecutionError::Evaluation { error } => evaluation_report(error),
    ExecutionError::Silent { status } => {
      Report { status: *status, silent: true, ..Report::default() }
    }
    error => Report { message: error.to_string(), status: error.status(), ..Report::default() },
  }
}

/// `--keep-going`'s summary: each failure as it would be printed alone, then
/// one line per skipped recipe.
fn render_kept_going(
  summary: &[Summary],
  stopped: Option<&ExecutionError>,
  signal: Option<&str>,
  painter: &Painter,
) -> String {
  let mut text = String::new();
  if let Some(error) = stopped {
    text.push_str(&Error::message("").render_report(&execution_report(error), painter));
  }
  for line in summary {
    let (label, detail) = match &line.fate {
      Fate::Failed { status } => ("failed", format!("exit status {status}")),
      Fate::Skipped { reason } => ("skipped", reason.clone()),
    };
    text.push_str(&format!(
      "{}: recipe `{}` ({detail})\n",
      painter.paint(painter.command_style(), label),
      line.recipe
    ));
  }
  if let Some(signal) = signal {
    text.push_str(&format!(
      "{}: the run was stopped by {signal}\n",
      painter.paint(painter.command_style(), "interrupted")
    ));
  }
  text
}

fn evaluation_report<'src>(error: &EvaluationError<'src>) -> Report<'src> {
  Report {
    message: error.to_string(),
    token: error.token(),
    status: error.status(),
    ..Report::default()
  }
}

impl<'src> From<CompileError<'src>> for Error<'src> {
  fn from(error: CompileError<'src>) -> Self {
    Error::Compile(Box::new(error))
  }
}

impl<'src> From<EvaluationError<'src>> for Error<'src> {
  fn from(error: EvaluationError<'src>) -> Self {
    Error::Evaluation(Box::new(error))
  }
}

impl<'src> From<ExecutionError<'src>> for Error<'src> {
  fn from(error: ExecutionError<'src>) -> Self {
    Error::Execution(Box::new(error))
  }
}

impl<'src> From<PrepareError<'src>> for Error<'src> {
  fn from(error: PrepareError<'src>) -> Self {
    match error {
      PrepareError::Evaluation(error) => Error::Evaluation(Box::new(error)),
      PrepareError::Dotenv { message, status } => {
        Error::Other(Box::new(Report { message, status, ..Report::default() }))
      }
    }
  }
}

/// Errors of layers without source excerpts: message (with any suggestion
/// line) and exit status.
macro_rules! plain_error {
  ($($type:ty => $status:expr),* $(,)?) => {
    $(
      impl<'src> From<$type> for Error<'src> {
        fn from(error: $type) -> Self {
          #[allow(clippy::redundant_closure_call)]
          let status = ($status)(&error);
          Error::Other(Box::new(Report { message: error.to_string(), status, ..Report::default() }))
        }
      }
    )*
  };
}

plain_error! {
  crate::search::SearchError => |_: &crate::search::SearchError| 1,
  crate::output::list::ListError => |_: &crate::output::list::ListError| 1,
  crate::output::evaluate::EvaluateError => |_: &crate::output::evaluate::EvaluateError| 1,
}

impl<'src> From<crate::analysis::compile_error::LoadError<'src>> for Error<'src> {
  fn from(error: crate::analysis::compile_error::LoadError<'src>) -> Self {
    match error {
      crate::analysis::compile_error::LoadError::Compile(error) => Error::Compile(Box::new(error)),
      other => Error::message(other.to_string()),
    }
  }
}

impl From<crate::cli::invocation::InvocationError> for Error<'_> {
  fn from(error: crate::cli::invocation::InvocationError) -> Self {
    Error::Invocation(Box::new(error))
  }
}

impl From<crate::analysis::lookup::LookupError> for Error<'_> {
  fn from(error: crate::analysis::lookup::LookupError) -> Self {
    crate::cli::invocation::InvocationError::from(error).into()
  }
}
