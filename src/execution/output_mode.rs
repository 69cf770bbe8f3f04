//! `--output`: how what a recipe's commands write reaches `just`'s stdout and
//! stderr. `interleaved` passes the streams through untouched; `prefixed`
//! writes every line as `[recipe] line` to the stream it came from; `grouped`
//! holds a recipe's output (echoed lines included) and writes it as one
//! block when the recipe finishes.

use std::io::{self, Read};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError};

use nu_ansi_term::Color;

use super::error::ExecutionError;
use crate::color::{Painter, Stream};
use crate::options::Options;
pub use crate::options::OutputMode;
use crate::platform::supervisor::{SpawnError, Supervisor};

/// Where the recipes of one run write: one lock, so that lines and blocks
/// of concurrent recipes are never torn apart, and the colours of their
/// prefixes.
#[derive(Default)]
pub struct OutputSink {
  /// Held while writing.
  writing: Mutex<()>,
  /// Recipe names in the order their first prefix was painted: the index
  /// picks the colour.
  names: Mutex<Vec<String>>,
}

const PALETTE: [Color; 6] =
  [Color::Cyan, Color::Yellow, Color::Green, Color::Purple, Color::Blue, Color::Red];

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
  mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn colour_of(sink: &OutputSink, name: &str) -> Color {
  let mut names = lock(&sink.names);
  let index = match names.iter().position(|known| known == name) {
    Some(index) => index,
    None => {
      names.push(name.to_string());
      names.len() - 1
    }
  };
  PALETTE[index % PALETTE.len()]
}

/// The output of one running recipe.
pub struct RecipeOutput<'s> {
  sink: &'s OutputSink,
  mode: OutputMode,
  name: String,
  stdout_prefix: Vec<u8>,
  stderr_prefix: Vec<u8>,
  /// `grouped`: what the recipe wrote so far, in arrival order.
  block: Mutex<Vec<(Stream, Vec<u8>)>>,
  /// The first failure to pass the recipe's output on, reported by `finish`.
  write_error: Mutex<Option<(Stream, io::Error)>>,
}

impl<'s> RecipeOutput<'s> {
  pub fn new(sink: &'s OutputSink, config: &Options, name: &str) -> Self {
    let prefix = |stream| {
      let label = format!("[{name}]");
      let painter = Painter::new(config.color, stream);
      let label =
        if painter.active { painter.paint(colour_of(sink, name).normal(), &label) } else { label };
      format!("{label} ").into_bytes()
    };
    let (stdout_prefix, stderr_prefix) = match config.output {
      OutputMode::Prefixed => (prefix(Stream::Stdout), prefix(Stream::Stderr)),
      _ => (Vec::new(), Vec::new()),
    };
    RecipeOutput {
      sink,
      mode: config.output,
      name: name.to_string(),
      stdout_prefix,
      stderr_prefix,
      block: Mutex::new(Vec::new()),
      write_error: Mutex::new(None),
    }
  }

  /// A line `just` itself writes for the recipe: an echoed command, a
  /// timestamp, a banner.
  pub fn stderr_line<'src>(&self, text: &str) -> Result<(), ExecutionError<'src>> {
    let line = format!("{text}\n");
    match self.mode {
      OutputMode::Interleaved => write_to(Stream::Stderr, line.as_bytes()),
      OutputMode::Prefixed => self.write_line(Stream::Stderr, line.as_bytes()),
      OutputMode::Grouped => {
        self.hold(Stream::Stderr, line.as_bytes());
        Ok(())
      }
    }
    .map_err(|source| ExecutionError::Stderr { source })
  }

  /// Spawn `command` through `supervisor` and wait for it, routing its
  /// stdout and stderr through this output. Stdin is always inherited, so a
  /// recipe reading the terminal still can. Streams already redirected
  /// (`--quiet`) are left alone.
  pub fn run(
    &self,
    supervisor: &Supervisor,
    command: &mut Command,
    redirected: bool,
  ) -> Result<ExitStatus, SpawnError> {
    if self.mode == OutputMode::Interleaved || redirected {
      return supervisor.run(command);
    }
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut running = supervisor.spawn(command)?;
    let (stdout, stderr) = (running.child().stdout.take(), running.child().stderr.take());
    std::thread::scope(|threads| {
      let pumps = [
        stdout.map(|pipe| threads.spawn(move || self.pump(pipe, Stream::Stdout))),
        stderr.map(|pipe| threads.spawn(move || self.pump(pipe, Stream::Stderr))),
      ];
      let mut failure = None;
      for pump in pumps.into_iter().flatten() {
        match pump.join() {
          Ok(Ok(())) => {}
          Ok(Err(error)) => failure = failure.or(Some(error)),
          Err(_) => failure = failure.or(Some(io::Error::other("output thread panicked"))),
        }
      }
      let status = running.wait();
      match failure {
        Some(error) => Err(SpawnError::Io(error)),
        None => status.map_err(SpawnError::Io),
      }
    })
  }

  /// Copy one of the child's streams until it closes.
  fn pump(&self, mut pipe: impl Read, stream: Stream) -> io::Result<()> {
    let mut buffer = [0u8; 8192];
    let mut pending = Vec::new();
    loop {
      let count = match pipe.read(&mut buffer) {
        Ok(0) => break,
        Ok(count) => count,
        Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
        Err(error) => return Err(error),
      };
      let chunk = &buffer[..count];
      if self.mode == OutputMode::Grouped {
        self.hold(stream, chunk);
        continue;
      }
      pending.extend_from_slice(chunk);
      let complete = pending.iter().rposition(|&byte| byte == b'\n').map_or(0, |end| end + 1);
      for line in pending[..complete].split_inclusive(|&byte| byte == b'\n') {
        self.relay_line(stream, line);
      }
      pending.drain(..complete);
    }
    if !pending.is_empty() {
      self.relay_line(stream, &pending);
    }
    Ok(())
  }

  /// Pass one line of the child's output on; the first failure is kept for
  /// `finish`, and the child's output keeps draining meanwhile.
  fn relay_line(&self, stream: Stream, line: &[u8]) {
    if let Err(error) = self.write_line(stream, line) {
      lock(&self.write_error).get_or_insert((stream, error));
    }
  }

  /// `prefixed`: one line (or the partial last one), prefix first, in one
  /// write while no other recipe writes.
  fn write_line(&self, stream: Stream, line: &[u8]) -> io::Result<()> {
    let prefix = match stream {
      Stream::Stdout => &self.stdout_prefix,
      Stream::Stderr => &self.stderr_prefix,
    };
    let mut bytes = Vec::with_capacity(prefix.len() + line.len());
    bytes.extend_from_slice(prefix);
    bytes.extend_from_slice(line);
    let _writing = lock(&self.sink.writing);
    write_to(stream, &bytes)
  }

  fn hold(&self, stream: Stream, bytes: &[u8]) {
    let mut block = lock(&self.block);
    match block.last_mut() {
      Some((last, held)) if *last == stream => held.extend_from_slice(bytes),
      _ => block.push((stream, bytes.to_vec())),
    }
  }

  /// `grouped`: write the held block, if any, in one piece; in GitHub
  /// Actions inside `::group::`/`::endgroup::`. Reports the first failure
  /// to pass the recipe's output on.
  pub fn finish<'src>(&self) -> Result<(), ExecutionError<'src>> {
    if let Err((stream, source)) = self.write_block() {
      lock(&self.write_error).get_or_insert((stream, source));
    }
    match lock(&self.write_error).take() {
      None => Ok(()),
      Some((Stream::Stdout, source)) => Err(ExecutionError::Stdout { source }),
      Some((Stream::Stderr, source)) => Err(ExecutionError::Stderr { source }),
    }
  }

  fn write_block(&self) -> Result<(), (Stream, io::Error)> {
    let block = std::mem::take(&mut *lock(&self.block));
    if block.is_empty() {
      return Ok(());
    }
    let stdout = |bytes: &[u8]| write_to(Stream::Stdout, bytes).map_err(|e| (Stream::Stdout, e));
    let github = std::env::var_os("GITHUB_ACTIONS").is_some_and(|value| value == "true");
    let _writing = lock(&self.sink.writing);
    if github {
      stdout(format!("::group::{}\n", self.name).as_bytes())?;
    }
    for (stream, bytes) in &block {
      write_to(*stream, bytes).map_err(|error| (*stream, error))?;
    }
    if github {
      // The marker must start a line, even after a partial last line.
      let open_line = block
        .iter()
        .rev()
        .find(|(stream, _)| *stream == Stream::Stdout)
        .is_some_and(|(_, bytes)| !bytes.ends_with(b"\n"));
      let marker: &[u8] = if open_line { b"\n::endgroup::\n" } else { b"::endgroup::\n" };
      stdout(marker)?;
    }
    Ok(())
  }
}

fn write_to(stream: Stream, bytes: &[u8]) -> io::Result<()> {
  match stream {
    Stream::Stdout => crate::platform::stdio::stdout_bytes(bytes),
    Stream::Stderr => crate::platform::stdio::stderr_bytes(bytes),
  }
}
