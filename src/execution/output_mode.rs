//! `--output`: how what a recipe's commands write reaches `just`'s stdout and
//! stderr. `interleaved` passes the streams through untouched; `prefixed`
//! writes every line as `[recipe] line` to the stream it came from; `grouped`
//! holds a recipe's output (echoed lines included) and writes it as one
//! block when the recipe finishes. A recipe's command is over when its
//! process exits, and its output stops being read when nobody reads the
//! stream it goes to, as a command writing there itself would be stopped.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError};

use nu_ansi_term::Color;

use super::error::ExecutionError;
use crate::analysis::model::{Recipe, RecipeId};
use crate::color::{Painter, Stream};
use crate::options::Options;
pub(crate) use crate::options::OutputMode;
use crate::platform::pipe::{ChildPipe, Destination, Source, Stop};
use crate::platform::supervisor::{SpawnError, Supervisor};

/// Where the recipes of one run write: one lock, so that lines and blocks
/// of concurrent recipes are never torn apart, and the colours of their
/// prefixes.
#[derive(Default)]
pub(crate) struct OutputSink {
  /// Held while writing.
  writing: Mutex<()>,
  /// The recipes whose prefix was painted, each numbered in the order of
  /// the first: the number picks the colour.
  painted: Mutex<HashMap<RecipeId, usize>>,
}

const PALETTE: [Color; 6] =
  [Color::Cyan, Color::Yellow, Color::Green, Color::Purple, Color::Blue, Color::Red];

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
  mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn colour_of(sink: &OutputSink, recipe: RecipeId) -> Color {
  let mut painted = lock(&sink.painted);
  let next = painted.len();
  PALETTE[*painted.entry(recipe).or_insert(next) % PALETTE.len()]
}

/// A recipe's `grouped` output beyond this many bytes goes to a temporary
/// file, so that memory stays bounded however much a recipe prints.
const HELD_IN_MEMORY: usize = 4 << 20;

/// The output of one running recipe.
pub(crate) struct RecipeOutput<'s> {
  sink: &'s OutputSink,
  mode: OutputMode,
  name: String,
  stdout_prefix: Vec<u8>,
  stderr_prefix: Vec<u8>,
  /// `prefixed`: the unfinished last line of each stream (stdout, stderr),
  /// continued by the recipe's next command, ended when the recipe ends.
  partial: [Mutex<Vec<u8>>; 2],
  /// `grouped`: what the recipe wrote so far, in arrival order.
  block: Mutex<Block>,
  tempdir: Option<std::path::PathBuf>,
  /// The first failure to pass the recipe's output on, reported by `finish`.
  write_error: Mutex<Option<(Stream, io::Error)>>,
}

/// `grouped`: the held output, in memory up to `HELD_IN_MEMORY`, then all of
/// it in an anonymous temporary file of records (stream, length, bytes).
#[derive(Default)]
struct Block {
  memory: Vec<(Stream, Vec<u8>)>,
  size: usize,
  file: Option<io::BufWriter<File>>,
  /// Whether the last bytes held for stdout end without a line end.
  stdout_open: bool,
  /// Why the output could not go to a temporary file.
  spill_error: Option<io::Error>,
}

impl Block {
  fn hold(&mut self, stream: Stream, bytes: &[u8], tempdir: Option<&Path>) -> io::Result<()> {
    if bytes.is_empty() {
      return Ok(());
    }
    if stream == Stream::Stdout {
      self.stdout_open = !bytes.ends_with(b"\n");
    }
    if let Some(file) = &mut self.file {
      return write_record(file, stream, bytes);
    }
    match self.memory.last_mut() {
      Some((last, held)) if *last == stream => held.extend_from_slice(bytes),
      _ => self.memory.push((stream, bytes.to_vec())),
    }
    self.size += bytes.len();
    if self.size > HELD_IN_MEMORY && self.spill_error.is_none() {
      // Without a temporary file, the output stays in memory: nothing is
      // lost, and the failure is reported when the recipe ends.
      if let Err(error) = self.spill(tempdir) {
        self.spill_error = Some(error);
      }
    }
    Ok(())
  }

  fn spill(&mut self, tempdir: Option<&Path>) -> io::Result<()> {
    let file = match tempdir {
      Some(directory) => tempfile::tempfile_in(directory)?,
      None => tempfile::tempfile()?,
    };
    let mut file = io::BufWriter::with_capacity(1 << 16, file);
    for (stream, bytes) in std::mem::take(&mut self.memory) {
      write_record(&mut file, stream, &bytes)?;
    }
    self.size = 0;
    self.file = Some(file);
    Ok(())
  }

  fn is_empty(&self) -> bool {
    self.memory.is_empty() && self.file.is_none()
  }

  /// Write everything held to its streams, in order.
  fn write_out(self) -> Result<(), (Stream, io::Error)> {
    for (stream, bytes) in &self.memory {
      write_to(*stream, bytes).map_err(|error| (*stream, error))?;
    }
    let Some(file) = self.file else {
      return Ok(());
    };
    let spill_error = |error| (Stream::Stdout, error);
    let mut file = file.into_inner().map_err(|error| spill_error(error.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(spill_error)?;
    let mut file = io::BufReader::with_capacity(1 << 16, file);
    let mut header = [0u8; 9];
    let mut bytes = Vec::new();
    loop {
      match file.read_exact(&mut header) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
        Err(error) => return Err(spill_error(error)),
      }
      let stream = if header[0] == 1 { Stream::Stdout } else { Stream::Stderr };
      let length = u64::from_le_bytes(header[1..].try_into().unwrap_or_default());
      bytes.clear();
      (&mut file).take(length).read_to_end(&mut bytes).map_err(spill_error)?;
      write_to(stream, &bytes).map_err(|error| (stream, error))?;
    }
  }
}

fn write_record(file: &mut impl Write, stream: Stream, bytes: &[u8]) -> io::Result<()> {
  let tag = if stream == Stream::Stdout { 1u8 } else { 2 };
  file.write_all(&[tag])?;
  file.write_all(&(bytes.len() as u64).to_le_bytes())?;
  file.write_all(bytes)
}

impl<'s> RecipeOutput<'s> {
  pub(crate) fn new(sink: &'s OutputSink, config: &Options, recipe: &Recipe<'_>) -> Self {
    let name = recipe.namepath;
    let prefix = |stream| {
      let label = format!("[{name}]");
      let painter = Painter::new(config.color, stream);
      let label = if painter.active {
        painter.paint(colour_of(sink, recipe.id()).normal(), &label)
      } else {
        label
      };
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
      partial: Default::default(),
      block: Mutex::new(Block::default()),
      tempdir: config.tempdir.clone(),
      write_error: Mutex::new(None),
    }
  }

  /// A line `just` itself writes for the recipe: an echoed command, a
  /// timestamp, a banner.
  pub(crate) fn stderr_line<'src>(&self, text: &str) -> Result<(), ExecutionError<'src>> {
    let line = format!("{text}\n");
    match self.mode {
      OutputMode::Interleaved => write_to(Stream::Stderr, line.as_bytes()),
      OutputMode::Prefixed => self
        .end_partial(Stream::Stderr)
        .and_then(|()| self.write_line(Stream::Stderr, line.as_bytes())),
      OutputMode::Grouped => self.hold(Stream::Stderr, line.as_bytes()),
    }
    .map_err(|source| ExecutionError::Stderr { source })
  }

  /// Spawn `command` through `supervisor` and wait for it, routing its
  /// stdout and stderr through this output. Stdin is always inherited, so a
  /// recipe reading the terminal still can. Streams already redirected
  /// (`--quiet`) are left alone. The command is over when its process
  /// exits: what it wrote until then is passed on, and a background process
  /// it left running does not hold the recipe.
  pub(crate) fn run(
    &self,
    supervisor: &Supervisor,
    command: &mut Command,
    redirected: bool,
  ) -> Result<ExitStatus, SpawnError> {
    if self.mode == OutputMode::Interleaved || redirected {
      return supervisor.run(command);
    }
    let stop = Stop::new().map_err(SpawnError::Io)?;
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut running = supervisor.spawn(command)?;
    let (stdout, stderr) = (running.child().stdout.take(), running.child().stderr.take());
    std::thread::scope(|threads| {
      let stop = &stop;
      let pumps = [
        stdout.map(|pipe| threads.spawn(move || self.pump(pipe, stop, Stream::Stdout))),
        stderr.map(|pipe| threads.spawn(move || self.pump(pipe, stop, Stream::Stderr))),
      ];
      let status = running.wait();
      stop.raise();
      let mut failure = None;
      for pump in pumps.into_iter().flatten() {
        match pump.join() {
          Ok(Ok(())) => {}
          Ok(Err(error)) => failure = failure.or(Some(error)),
          Err(_) => failure = failure.or(Some(io::Error::other("output thread panicked"))),
        }
      }
      match failure {
        Some(error) => Err(SpawnError::Io(error)),
        None => status.map_err(SpawnError::Io),
      }
    })
  }

  /// Copy one of the child's streams until the child is done with it.
  fn pump(&self, pipe: impl ChildPipe, stop: &Stop, stream: Stream) -> io::Result<()> {
    let destination = match stream {
      Stream::Stdout => Destination::Stdout,
      Stream::Stderr => Destination::Stderr,
    };
    let mut source = Source::new(pipe, stop, destination)?;
    let mut buffer = [0u8; 8192];
    while let Some(count) = source.read(&mut buffer)? {
      let chunk = &buffer[..count];
      let result = match self.mode {
        OutputMode::Grouped => self.hold(stream, chunk),
        _ => self.relay(stream, chunk),
      };
      if let Err(error) = result {
        // Keep the first failure for `finish`; the output keeps draining.
        lock(&self.write_error).get_or_insert((stream, error));
      }
    }
    Ok(())
  }

  /// `prefixed`: pass on the lines `chunk` completes; keep its unfinished
  /// end for the next chunk. Only the new bytes are searched for a line
  /// end, so a long line costs time in proportion to its length.
  fn relay(&self, stream: Stream, chunk: &[u8]) -> io::Result<()> {
    let mut pending = lock(&self.partial[stream_index(stream)]);
    let Some(last) = memchr::memrchr(b'\n', chunk) else {
      pending.extend_from_slice(chunk);
      return Ok(());
    };
    let (complete, rest) = chunk.split_at(last + 1);
    // Every line the chunk completes, each after its prefix, in one write.
    let prefix = self.prefix(stream);
    let mut lines = complete.split_inclusive(|&byte| byte == b'\n');
    let mut bytes = Vec::with_capacity(pending.len() + complete.len() + prefix.len() * 8);
    if !pending.is_empty() {
      if let Some(first) = lines.next() {
        bytes.extend_from_slice(prefix);
        bytes.extend_from_slice(&pending);
        bytes.extend_from_slice(first);
        pending.clear();
      }
    }
    for line in lines {
      bytes.extend_from_slice(prefix);
      bytes.extend_from_slice(line);
    }
    pending.extend_from_slice(rest);
    let _writing = lock(&self.sink.writing);
    write_to(stream, &bytes)
  }

  fn prefix(&self, stream: Stream) -> &[u8] {
    match stream {
      Stream::Stdout => &self.stdout_prefix,
      Stream::Stderr => &self.stderr_prefix,
    }
  }

  /// `prefixed`: end the stream's unfinished line, if any.
  fn end_partial(&self, stream: Stream) -> io::Result<()> {
    let mut pending = lock(&self.partial[stream_index(stream)]);
    if pending.is_empty() {
      return Ok(());
    }
    pending.push(b'\n');
    let result = self.write_line(stream, &pending);
    *pending = Vec::new();
    result
  }

  /// `prefixed`: one line, prefix first, in one write while no other recipe
  /// writes (`relay` writes the lines of a chunk the same way, together).
  fn write_line(&self, stream: Stream, line: &[u8]) -> io::Result<()> {
    let prefix = self.prefix(stream);
    let mut bytes = Vec::with_capacity(prefix.len() + line.len());
    bytes.extend_from_slice(prefix);
    bytes.extend_from_slice(line);
    let _writing = lock(&self.sink.writing);
    write_to(stream, &bytes)
  }

  fn hold(&self, stream: Stream, bytes: &[u8]) -> io::Result<()> {
    lock(&self.block).hold(stream, bytes, self.tempdir.as_deref())
  }

  /// The recipe ended: `prefixed` ends unfinished lines; `grouped` writes
  /// the held block, if any, in one piece (in GitHub Actions inside
  /// `::group::`/`::endgroup::`). Reports the first failure to pass the
  /// recipe's output on.
  pub(crate) fn finish<'src>(&self) -> Result<(), ExecutionError<'src>> {
    let spill_error = lock(&self.block).spill_error.take();
    let ended = match self.mode {
      OutputMode::Prefixed => [Stream::Stdout, Stream::Stderr]
        .into_iter()
        .try_for_each(|stream| self.end_partial(stream).map_err(|error| (stream, error))),
      _ => self.write_block(),
    };
    if let Err((stream, source)) = ended {
      lock(&self.write_error).get_or_insert((stream, source));
    }
    if let Some(source) = spill_error {
      return Err(ExecutionError::TempDir { recipe: self.name.clone(), source });
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
    // The marker must start a line, even after a partial last line.
    let open_line = block.stdout_open;
    block.write_out()?;
    if github {
      let marker: &[u8] = if open_line { b"\n::endgroup::\n" } else { b"::endgroup::\n" };
      stdout(marker)?;
    }
    Ok(())
  }
}

fn stream_index(stream: Stream) -> usize {
  match stream {
    Stream::Stdout => 0,
    Stream::Stderr => 1,
  }
}

fn write_to(stream: Stream, bytes: &[u8]) -> io::Result<()> {
  match stream {
    Stream::Stdout => crate::platform::stdio::stdout_bytes(bytes),
    Stream::Stderr => crate::platform::stdio::stderr_bytes(bytes),
  }
}
