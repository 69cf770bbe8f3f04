//! Writing to the standard streams: a failed write is reported, a broken
//! pipe ends quietly.

use super::config::Config;
use crate::analysis::model::Justfile;
use crate::cli::error::Error;
use crate::color::{Painter, Stream};
use crate::output::sink::{self, Sink};
use crate::platform::stdio;

pub(crate) type Result<T = ()> = std::result::Result<T, Error<'static>>;

/// A result whose error may point into the run's justfiles.
pub(crate) type Outcome<'src, T = ()> = std::result::Result<T, Error<'src>>;

pub(crate) fn stdout_painter(config: &Config) -> Painter {
  Painter::new(config.color, Stream::Stdout)
}

pub(crate) const STDOUT_FAILED: &str = "failed to write to standard output";

pub(crate) fn print(text: &str) -> Result {
  print_or(text, STDOUT_FAILED)
}

/// Print `text`, reporting a write error with `message`.
pub(crate) fn print_or(text: &str, message: &str) -> Result {
  stdio::stdout(text).map_err(|error| write_error(message, error))
}

pub(crate) fn write_error(message: &str, error: std::io::Error) -> Error<'static> {
  Error::message(format!("{message}: {error}"))
}

/// Print what `produce` produces as it does (a long listing or dump is
/// never all in memory), reporting a write error as `print_or` does. An
/// error of `produce` must come before it produces anything.
pub(crate) fn print_streamed<'src>(
  message: &str,
  produce: impl FnOnce(&mut Sink) -> Outcome<'src>,
) -> Outcome<'src> {
  let mut stdout = stdio::PiecewiseStdout;
  let mut out = Sink::chunked(&mut stdout, sink::CHUNK);
  produce(&mut out)?;
  stdio::quiet_on_broken_pipe(out.finish()).map_err(|error| write_error(message, error))
}

/// Print `--list`'s listing of the module at `path`.
pub(crate) fn print_list<'src>(
  config: &Config,
  justfile: &Justfile<'src>,
  path: &[String],
  color: bool,
) -> Outcome<'src> {
  print_streamed(STDOUT_FAILED, |out| {
    Ok(crate::output::list::write_list(out, justfile, config, path, color)?)
  })
}

pub(crate) fn eprint(text: &str) -> Result {
  stdio::stderr(text)
    .map_err(|error| Error::message(format!("failed to write to standard error: {error}")))
}

pub(crate) fn eprint_line(text: &str) -> Result {
  eprint(&format!("{text}\n"))
}
