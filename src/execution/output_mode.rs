//! `--output`: how what a recipe's commands write reaches `just`'s stdout and
//! stderr. `interleaved` passes the streams through untouched; `prefixed`
//! writes every line as `[recipe] line` to the stream it came from, each
//! stream in a turn of its own (a stdout nobody reads never holds back
//! stderr); `grouped` holds a recipe's output (echoed lines included) and
//! writes it as one block when the recipe finishes. A recipe's command is
//! over when its process exits, and its output stops being read when nobody
//! reads the stream it goes to, as a command writing there itself would be
//! stopped.
//! What is held stays bounded: a `prefixed` line longer than `LONG_LINE` is
//! passed on in pieces, and a `grouped` block larger than `HELD_AT_MOST`
//! (or one that cannot be spilled to a temporary file) is written out and
//! followed by the rest of the recipe's output as it comes, the recipe
//! holding the output's turn until it ends, so the block is still never
//! broken by another recipe's. Once a signal stops the run, output that
//! nobody reads is dropped rather than waited for.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};

use nu_ansi_term::Color;

use super::error::ExecutionError;
use crate::analysis::model::{Recipe, RecipeId};
use crate::color::{Painter, Stream};
use crate::options::Options;
pub(crate) use crate::options::OutputMode;
use crate::platform::pipe::{self, ChildPipe, Destination, Source, Stop};
use crate::platform::supervisor::{SpawnError, Supervisor};

/// Where the recipes of one run write: one lock per stream, so that lines
/// of concurrent recipes are never torn apart, and whose turn it is to
/// write a `grouped` block, so that blocks are not either; how many
/// commands have their output piped through `just` (each holds a few
/// descriptors), and the colours of the prefixes.
#[derive(Default)]
pub(crate) struct OutputSink {
  /// Held while writing to the stream (stdout, stderr). One per stream: a
  /// reader that stopped reading one stream (a paused pager) holds back
  /// the writers of that stream only.
  writing: [Mutex<()>; 2],
  /// The recipe whose `grouped` block is being written, or written as it
  /// comes, if any: no other recipe's block is written meanwhile. Not held
  /// while writing.
  turn: Mutex<Option<u64>>,
  turn_free: Condvar,
  tokens: AtomicU64,
  /// Commands whose output is piped now, and at most how many may be.
  piped: Mutex<usize>,
  piped_free: Condvar,
  piped_limit: OnceLock<usize>,
  /// The recipes whose prefix was painted, each numbered in the order of
  /// the first: the number picks the colour.
  painted: Mutex<HashMap<RecipeId, usize>>,
}

const PALETTE: [Color; 6] =
  [Color::Cyan, Color::Yellow, Color::Green, Color::Purple, Color::Blue, Color::Red];

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
  mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn wait<'m, T>(condition: &Condvar, guard: MutexGuard<'m, T>) -> MutexGuard<'m, T> {
  condition.wait(guard).unwrap_or_else(PoisonError::into_inner)
}

fn colour_of(sink: &OutputSink, recipe: RecipeId) -> Color {
  let mut painted = lock(&sink.painted);
  let next = painted.len();
  PALETTE[*painted.entry(recipe).or_insert(next) % PALETTE.len()]
}

/// Descriptors a command with piped output holds at once (its two pipes,
/// both ends while it starts, and its stop), and how many the rest of
/// `just` may need.
const DESCRIPTORS_PER_COMMAND: usize = 6;
const DESCRIPTORS_RESERVED: usize = 32;

impl OutputSink {
  /// Wait until one more command may have its output piped, so that many
  /// parallel recipes never run out of descriptors where `interleaved`
  /// (which pipes nothing) would not.
  fn pipe_slot(&self) -> PipeSlot<'_> {
    let limit = *self.piped_limit.get_or_init(|| {
      (pipe::open_file_limit().saturating_sub(DESCRIPTORS_RESERVED) / DESCRIPTORS_PER_COMMAND)
        .max(1)
    });
    let mut piped = lock(&self.piped);
    while *piped >= limit {
      piped = wait(&self.piped_free, piped);
    }
    *piped += 1;
    PipeSlot { sink: self }
  }
}

struct PipeSlot<'s> {
  sink: &'s OutputSink,
}

impl Drop for PipeSlot<'_> {
  fn drop(&mut self) {
    *lock(&self.sink.piped) -= 1;
    self.sink.piped_free.notify_one();
  }
}

/// A recipe's `grouped` output beyond this many bytes goes to a temporary
/// file, so that memory stays bounded however much a recipe prints.
const HELD_IN_MEMORY: usize = 4 << 20;

/// A recipe's `grouped` output beyond this many bytes is written out, and
/// the rest follows as it comes: an endless producer (`yes`) neither fills
/// the disk nor keeps the reader (`| head -1`) from ever seeing a line.
const HELD_AT_MOST: u64 = 64 << 20;

/// A `prefixed` line longer than this is passed on in pieces (the first
/// after the prefix), so memory stays bounded however long a line is.
const LONG_LINE: usize = 64 << 10;

/// The output of one running recipe.
pub(crate) struct RecipeOutput<'s> {
  sink: &'s OutputSink,
  /// Identifies the recipe's run when it holds the output's turn.
  token: u64,
  mode: OutputMode,
  name: String,
  stdout_prefix: Vec<u8>,
  stderr_prefix: Vec<u8>,
  /// `prefixed`: the unfinished last line of each stream (stdout, stderr),
  /// continued by the recipe's next command, ended when the recipe ends.
  partial: [Mutex<Partial>; 2],
  /// `grouped`: what the recipe wrote so far, in arrival order.
  block: Mutex<Block>,
  tempdir: Option<std::path::PathBuf>,
  /// Raised when a signal stops the run.
  interruption: Option<&'s Stop>,
  /// The first failure to pass the recipe's output on, reported by `finish`.
  write_error: Mutex<Option<(Stream, io::Error)>>,
}

/// `prefixed`: the part of a line not passed on yet.
#[derive(Default)]
struct Partial {
  pending: Vec<u8>,
  /// Whether the line in progress was begun, its prefix written.
  begun: bool,
}

/// `grouped`: the held output, in memory up to `HELD_IN_MEMORY`, then all of
/// it in an anonymous temporary file of records (stream, length, bytes).
#[derive(Default)]
struct Block {
  memory: Vec<(Stream, Vec<u8>)>,
  size: usize,
  /// Every byte held so far, in memory or in the file.
  held: u64,
  file: Option<io::BufWriter<File>>,
  /// Whether the last bytes held for stdout end without a line end.
  stdout_open: bool,
  /// Whether the output is written as it comes (the block grew too large).
  flowing: bool,
}

impl Block {
  /// Hold `bytes`. An error means they could not go to the temporary file
  /// (they are held in memory then).
  fn hold(&mut self, stream: Stream, bytes: &[u8], tempdir: Option<&Path>) -> io::Result<()> {
    if bytes.is_empty() {
      return Ok(());
    }
    if stream == Stream::Stdout {
      self.stdout_open = !bytes.ends_with(b"\n");
    }
    self.held += bytes.len() as u64;
    if let Some(file) = &mut self.file {
      return write_record(file, stream, bytes);
    }
    match self.memory.last_mut() {
      Some((last, held)) if *last == stream => held.extend_from_slice(bytes),
      _ => self.memory.push((stream, bytes.to_vec())),
    }
    self.size += bytes.len();
    if self.size > HELD_IN_MEMORY {
      return self.spill(tempdir);
    }
    Ok(())
  }

  fn spill(&mut self, tempdir: Option<&Path>) -> io::Result<()> {
    let file = match tempdir {
      Some(directory) => tempfile::tempfile_in(directory)?,
      None => tempfile::tempfile()?,
    };
    let mut file = io::BufWriter::with_capacity(1 << 16, file);
    for (stream, bytes) in &self.memory {
      write_record(&mut file, *stream, bytes)?;
    }
    self.memory = Vec::new();
    self.size = 0;
    self.file = Some(file);
    Ok(())
  }

  fn is_empty(&self) -> bool {
    self.memory.is_empty() && self.file.is_none()
  }

  /// Pass everything held to `write`, in order, and forget it.
  fn write_out(
    &mut self,
    mut write: impl FnMut(Stream, &[u8]) -> io::Result<()>,
  ) -> Result<(), (Stream, io::Error)> {
    for (stream, bytes) in std::mem::take(&mut self.memory) {
      write(stream, &bytes).map_err(|error| (stream, error))?;
    }
    self.size = 0;
    let Some(file) = self.file.take() else {
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
      write(stream, &bytes).map_err(|error| (stream, error))?;
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
  pub(crate) fn new(
    sink: &'s OutputSink,
    supervisor: &'s Supervisor,
    config: &Options,
    recipe: &Recipe<'_>,
  ) -> Self {
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
    let interruption = match config.output {
      OutputMode::Interleaved => None,
      _ => supervisor.interruption(),
    };
    RecipeOutput {
      sink,
      token: sink.tokens.fetch_add(1, Ordering::Relaxed),
      mode: config.output,
      name: name.to_string(),
      stdout_prefix,
      stderr_prefix,
      partial: Default::default(),
      block: Mutex::new(Block::default()),
      tempdir: config.tempdir.clone(),
      interruption,
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
    let _slot = self.sink.pipe_slot();
    let stop = Stop::new().map_err(SpawnError::Io)?;
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut running = supervisor.spawn(command)?;
    let (stdout, stderr) = (running.take_stdout(), running.take_stderr());
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
    let mut source = Source::new(pipe, stop, destination(stream))?;
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

  /// `prefixed`: pass on the lines `chunk` completes, each after the
  /// prefix, in one write; keep the unfinished end for the next chunk, or
  /// pass it on too once it is longer than `LONG_LINE`. A carriage return
  /// not followed by a line end ends a piece as a line end does (a progress
  /// bar redraws its line), so each redraw shows the prefix too. Only the
  /// new bytes are searched, so a long line costs time in proportion to its
  /// length.
  fn relay(&self, stream: Stream, chunk: &[u8]) -> io::Result<()> {
    let mut partial = lock(&self.partial[stream_index(stream)]);
    let searched = partial.pending.len().saturating_sub(1);
    partial.pending.extend_from_slice(chunk);
    let prefix = self.prefix(stream);
    let Partial { pending, begun } = &mut *partial;
    let mut bytes = Vec::with_capacity(pending.len() + pending.len() / 8 + prefix.len());
    let mut start = 0;
    let mut search = searched;
    // A byte loop, not `memchr2`: most lines are short, and its set-up per
    // call would cost more than the scan.
    let line_end = |byte: &u8| *byte == b'\n' || *byte == b'\r';
    while let Some(offset) = pending[search..].iter().position(line_end) {
      let at = search + offset;
      search = at + 1;
      if pending[at] == b'\r' {
        match pending.get(at + 1) {
          // A line end may follow in the next chunk.
          None => break,
          Some(b'\n') => continue,
          Some(_) => {}
        }
      }
      if !*begun {
        bytes.extend_from_slice(prefix);
      }
      bytes.extend_from_slice(&pending[start..=at]);
      *begun = false;
      start = at + 1;
    }
    if pending.len() - start > LONG_LINE {
      let end = if pending.ends_with(b"\r") { pending.len() - 1 } else { pending.len() };
      if !*begun {
        bytes.extend_from_slice(prefix);
      }
      bytes.extend_from_slice(&pending[start..end]);
      *begun = true;
      start = end;
    }
    pending.drain(..start);
    if pending.capacity() > LONG_LINE * 4 {
      pending.shrink_to(LONG_LINE * 2);
    }
    drop(partial);
    if bytes.is_empty() {
      return Ok(());
    }
    self.write(stream, &bytes)
  }

  fn prefix(&self, stream: Stream) -> &[u8] {
    match stream {
      Stream::Stdout => &self.stdout_prefix,
      Stream::Stderr => &self.stderr_prefix,
    }
  }

  /// `prefixed`: end the stream's unfinished line, if any.
  fn end_partial(&self, stream: Stream) -> io::Result<()> {
    let mut partial = lock(&self.partial[stream_index(stream)]);
    if partial.pending.is_empty() && !partial.begun {
      return Ok(());
    }
    let mut bytes = Vec::with_capacity(self.prefix(stream).len() + partial.pending.len() + 1);
    if !partial.begun {
      bytes.extend_from_slice(self.prefix(stream));
    }
    bytes.extend_from_slice(&partial.pending);
    bytes.push(b'\n');
    *partial = Partial::default();
    drop(partial);
    self.write(stream, &bytes)
  }

  /// `prefixed`: one line, prefix first, in one write while no other recipe
  /// writes to the stream (`relay` writes the lines of a chunk the same
  /// way, together).
  fn write_line(&self, stream: Stream, line: &[u8]) -> io::Result<()> {
    let prefix = self.prefix(stream);
    let mut bytes = Vec::with_capacity(prefix.len() + line.len());
    bytes.extend_from_slice(prefix);
    bytes.extend_from_slice(line);
    self.write(stream, &bytes)
  }

  /// `grouped`: hold `bytes`; or, once the block is too large to hold (or
  /// cannot be spilled to a temporary file), write it out, take the
  /// output's turn until the recipe ends, and write as the output comes.
  fn hold(&self, stream: Stream, bytes: &[u8]) -> io::Result<()> {
    let mut block = lock(&self.block);
    if block.flowing {
      return self.write(stream, bytes);
    }
    let spilled = block.hold(stream, bytes, self.tempdir.as_deref());
    if spilled.is_ok() && block.held <= HELD_AT_MOST {
      return Ok(());
    }
    block.flowing = true;
    self.take_turn();
    self.open_group()?;
    block.write_out(|stream, bytes| self.write(stream, bytes)).map_err(|(_, error)| error)
  }

  /// `grouped`: wait until no other recipe's block is being written, and
  /// take the turn until `release_turn`.
  fn take_turn(&self) {
    let mut owner = lock(&self.sink.turn);
    while owner.is_some_and(|token| token != self.token) {
      owner = wait(&self.sink.turn_free, owner);
    }
    *owner = Some(self.token);
  }

  /// Give the output's turn back, if this recipe holds it.
  fn release_turn(&self) {
    let mut owner = lock(&self.sink.turn);
    if *owner == Some(self.token) {
      *owner = None;
      self.sink.turn_free.notify_all();
    }
  }

  /// Write to `stream` while no other recipe does, unless the run is
  /// stopped by a signal and nobody reads it.
  fn write(&self, stream: Stream, bytes: &[u8]) -> io::Result<()> {
    let _writing = lock(&self.sink.writing[stream_index(stream)]);
    match self.interruption {
      Some(stop) => pipe::write_unless_stopped(destination(stream), bytes, stop),
      None => write_to(stream, bytes),
    }
  }

  /// In GitHub Actions, a block is a collapsible `::group::`.
  fn github() -> bool {
    std::env::var_os("GITHUB_ACTIONS").is_some_and(|value| value == "true")
  }

  fn open_group(&self) -> io::Result<()> {
    if Self::github() {
      self.write(Stream::Stdout, format!("::group::{}\n", self.name).as_bytes())?;
    }
    Ok(())
  }

  /// The recipe ended: `prefixed` ends unfinished lines; `grouped` writes
  /// the held block, if any, in one piece (in GitHub Actions inside
  /// `::group::`/`::endgroup::`). Reports the first failure to pass the
  /// recipe's output on.
  pub(crate) fn finish<'src>(&self) -> Result<(), ExecutionError<'src>> {
    let ended = match self.mode {
      OutputMode::Prefixed => [Stream::Stdout, Stream::Stderr]
        .into_iter()
        .try_for_each(|stream| self.end_partial(stream).map_err(|error| (stream, error))),
      _ => self.write_block(),
    };
    self.release_turn();
    if let Err((stream, source)) = ended {
      lock(&self.write_error).get_or_insert((stream, source));
    }
    match lock(&self.write_error).take() {
      None => Ok(()),
      Some((Stream::Stdout, source)) => Err(ExecutionError::Stdout { source }),
      Some((Stream::Stderr, source)) => Err(ExecutionError::Stderr { source }),
    }
  }

  fn write_block(&self) -> Result<(), (Stream, io::Error)> {
    let mut block = lock(&self.block);
    let stdout = |error| (Stream::Stdout, error);
    if !block.flowing && block.is_empty() {
      return Ok(());
    }
    self.take_turn();
    if !block.flowing {
      self.open_group().map_err(stdout)?;
    }
    block.write_out(|stream, bytes| self.write(stream, bytes))?;
    if Self::github() {
      // The marker must start a line, even after a partial last line.
      let marker: &[u8] = if block.stdout_open { b"\n::endgroup::\n" } else { b"::endgroup::\n" };
      self.write(Stream::Stdout, marker).map_err(stdout)?;
    }
    *block = Block::default();
    Ok(())
  }
}

impl Drop for RecipeOutput<'_> {
  fn drop(&mut self) {
    self.release_turn();
  }
}

fn stream_index(stream: Stream) -> usize {
  match stream {
    Stream::Stdout => 0,
    Stream::Stderr => 1,
  }
}

fn destination(stream: Stream) -> Destination {
  match stream {
    Stream::Stdout => Destination::Stdout,
    Stream::Stderr => Destination::Stderr,
  }
}

fn write_to(stream: Stream, bytes: &[u8]) -> io::Result<()> {
  match stream {
    Stream::Stdout => crate::platform::stdio::stdout_bytes(bytes),
    Stream::Stderr => crate::platform::stdio::stderr_bytes(bytes),
  }
}
