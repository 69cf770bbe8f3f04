//! Text printed as it is produced: a listing or dump of a large justfile is
//! written a chunk at a time rather than collected whole first, so it is
//! never all in memory at once.

use std::io;
use std::ops::{Deref, DerefMut};

/// How much text is collected before it is written out: a pipe's buffer.
pub(crate) const CHUNK: usize = 64 * 1024;

/// Room beyond a chunk for the piece that fills it.
const SLACK: usize = 4 * 1024;

/// Output text under construction. Producers append to it as to a `String`
/// and call `end_piece` between pieces (a listed line, a dumped item), where
/// a full chunk is written out; within a piece the text is theirs to look
/// at and change.
pub struct Sink<'w> {
  text: String,
  /// The length from which `end_piece` writes the text out: the chunk size,
  /// or never when the text is kept whole.
  limit: usize,
  destination: Option<Destination<'w>>,
}

struct Destination<'w> {
  writer: &'w mut dyn io::Write,
  /// Whether any text has been passed to `writer` (or would have been,
  /// after an error).
  passed: bool,
  /// The first write error; nothing is written after it.
  result: io::Result<()>,
}

impl Destination<'_> {
  fn write(&mut self, text: &str) {
    if text.is_empty() {
      return;
    }
    self.passed = true;
    if self.result.is_ok() {
      self.result = self.writer.write_all(text.as_bytes());
    }
  }
}

impl Default for Sink<'_> {
  fn default() -> Self {
    Self::whole()
  }
}

impl<'w> Sink<'w> {
  /// Text kept whole, for `into_text`.
  pub(crate) fn whole() -> Self {
    Sink { text: String::new(), limit: usize::MAX, destination: None }
  }

  /// Text written to `writer` in chunks of at least `chunk` bytes (but the
  /// last).
  pub fn chunked(writer: &'w mut dyn io::Write, chunk: usize) -> Self {
    let destination = Destination { writer, passed: false, result: Ok(()) };
    Sink {
      text: String::with_capacity(chunk.saturating_add(SLACK)),
      limit: chunk,
      destination: Some(destination),
    }
  }

  /// The end of a piece: a full chunk is written out.
  #[inline]
  pub(crate) fn end_piece(&mut self) {
    self.end_piece_writing(str::len);
  }

  /// The end of a piece: a full chunk is written out up to
  /// `writable(text)`; the text after that stays, for the producer to look
  /// at or change.
  #[inline]
  pub(crate) fn end_piece_writing(&mut self, writable: impl FnOnce(&str) -> usize) {
    if self.text.len() >= self.limit {
      let end = writable(&self.text);
      self.write_out(end);
    }
  }

  /// Writes out the text up to `end`.
  #[inline(never)]
  fn write_out(&mut self, end: usize) {
    if let Some(destination) = &mut self.destination {
      if self.text.is_char_boundary(end) {
        destination.write(&self.text[..end]);
        self.text.drain(..end);
      }
    }
  }

  /// Whether writing out failed (a broken pipe, say): nothing more will
  /// be written, so a producer may stop.
  pub(crate) fn failed(&self) -> bool {
    self.destination.as_ref().is_some_and(|destination| destination.result.is_err())
  }

  /// Whether no text at all has been produced.
  pub(crate) fn produced_nothing(&self) -> bool {
    self.text.is_empty() && !self.destination.as_ref().is_some_and(|d| d.passed)
  }

  /// The text not yet written out: all of it for a `whole` sink.
  pub(crate) fn into_text(self) -> String {
    self.text
  }

  /// Writes out the rest.
  ///
  /// # Errors
  ///
  /// The first write error, if any.
  pub fn finish(mut self) -> io::Result<()> {
    match &mut self.destination {
      Some(destination) => {
        destination.write(&self.text);
        std::mem::replace(&mut destination.result, Ok(()))
      }
      None => Ok(()),
    }
  }
}

/// What `produce` writes into a whole sink, and what it returns, having
/// checked that written out a byte at a time it is the same text.
#[cfg(test)]
pub(crate) fn produced_whole_and_bytewise<R>(
  mut produce: impl FnMut(&mut Sink) -> R,
) -> (String, R) {
  let mut whole = Sink::whole();
  let result = produce(&mut whole);
  let mut written = Vec::new();
  let mut bytewise = Sink::chunked(&mut written, 1);
  produce(&mut bytewise);
  bytewise.finish().expect("writes to a vector");
  let text = whole.into_text();
  assert_eq!(String::from_utf8(written).expect("UTF-8"), text, "written a byte at a time");
  (text, result)
}

impl Deref for Sink<'_> {
  type Target = String;

  fn deref(&self) -> &String {
    &self.text
  }
}

impl DerefMut for Sink<'_> {
  fn deref_mut(&mut self) -> &mut String {
    &mut self.text
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  /// Records each write; fails every write after the first `failing_after`.
  struct Recorder {
    writes: Vec<Vec<u8>>,
    failing_after: usize,
  }

  impl Recorder {
    fn new(failing_after: usize) -> Self {
      Recorder { writes: Vec::new(), failing_after }
    }
  }

  impl io::Write for Recorder {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
      if self.writes.len() >= self.failing_after {
        return Err(io::Error::other("full"));
      }
      self.writes.push(bytes.to_vec());
      Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
      Ok(())
    }
  }

  fn pieces() -> impl Iterator<Item = String> {
    (0..1000).map(|i| format!("piece {i}\n"))
  }

  #[test]
  fn chunks_carry_the_whole_text_in_order() {
    let mut recorder = Recorder::new(usize::MAX);
    let mut sink = Sink::chunked(&mut recorder, 100);
    for piece in pieces() {
      sink.push_str(&piece);
      sink.end_piece();
    }
    sink.finish().expect("no write fails");
    let expected: String = pieces().collect();
    assert_eq!(recorder.writes.concat(), expected.as_bytes());
    assert!(recorder.writes.len() > 50, "{} writes", recorder.writes.len());
    let (last, full) = recorder.writes.split_last().expect("writes");
    assert!(full.iter().all(|write| (100..110).contains(&write.len())));
    assert!(last.len() <= 110);
  }

  #[test]
  fn held_text_stays_for_the_producer() {
    let mut recorder = Recorder::new(usize::MAX);
    let mut sink = Sink::chunked(&mut recorder, 4);
    sink.push_str("one\n\n");
    sink.end_piece_writing(|text| text.trim_end_matches('\n').len());
    assert_eq!(sink.as_str(), "\n\n");
    assert!(!sink.produced_nothing());
    sink.truncate(1);
    sink.push_str("two");
    sink.end_piece_writing(|text| text.trim_end_matches('\n').len());
    assert_eq!(sink.as_str(), "");
    sink.finish().expect("no write fails");
    assert_eq!(recorder.writes, [b"one".to_vec(), b"\ntwo".to_vec()]);
  }

  #[test]
  fn the_first_error_stops_the_writing_and_is_returned() {
    let mut recorder = Recorder::new(2);
    let mut sink = Sink::chunked(&mut recorder, 10);
    for piece in pieces() {
      sink.push_str(&piece);
      sink.end_piece();
    }
    let error = sink.finish().expect_err("the third write fails");
    assert_eq!(error.to_string(), "full");
    assert_eq!(recorder.writes.concat(), b"piece 0\npiece 1\npiece 2\npiece 3\n");
  }

  #[test]
  fn a_whole_sink_keeps_everything() {
    let mut sink = Sink::whole();
    assert!(sink.produced_nothing());
    for piece in pieces() {
      sink.push_str(&piece);
      sink.end_piece();
    }
    assert_eq!(sink.into_text(), pieces().collect::<String>());
  }

  #[test]
  fn nothing_produced_writes_nothing() {
    let mut recorder = Recorder::new(0);
    let sink = Sink::chunked(&mut recorder, 10);
    assert!(sink.produced_nothing());
    sink.finish().expect("nothing is written");
  }
}
