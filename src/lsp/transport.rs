//! The server's standard input and output: LSP's framing (`Content-Length`
//! headers, then a JSON body), read by a thread of its own and written by
//! another. The client is hostile until proven otherwise: a header longer
//! than a line may be, or a body larger than `LARGEST_MESSAGE`, is refused
//! without allocating it (the body is read and dropped, and the client told
//! why with `window/showMessage`); a body that is not a JSON-RPC message is
//! reported the same way and skipped. Only input that cannot be framed any
//! more (no `Content-Length`, the end of the input) ends the session.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message, Notification};

/// The largest message read: a 50 MB justfile sent whole fits, with room
/// for JSON's escapes.
pub(super) const LARGEST_MESSAGE: u64 = 128 << 20;

/// The longest header line read.
const LONGEST_HEADER: u64 = 8 << 10;

pub(super) struct Threads {
  reader: JoinHandle<()>,
  writer: JoinHandle<()>,
}

impl Threads {
  /// Wait for both threads to end.
  pub(super) fn join(self) {
    let _ = self.reader.join();
    let _ = self.writer.join();
  }
}

/// A connection on standard input and output.
pub(super) fn stdio() -> (Connection, Threads) {
  let (server, client) = Connection::memory();
  let to_client = server.sender.clone();
  let incoming = client.sender;
  let reader = std::thread::spawn(move || {
    let stdin = io::stdin();
    read_messages(
      &mut BufReader::new(stdin.lock()),
      |message| incoming.send(message).is_ok(),
      |message| to_client.send(message).is_ok(),
    );
  });
  let outgoing = client.receiver;
  let writer = std::thread::spawn(move || {
    let stdout = io::stdout();
    let mut stdout = stdout.lock();
    for message in outgoing {
      // A client that closed its end reads nothing more: stop writing.
      if message.write(&mut stdout).and_then(|()| stdout.flush()).is_err() {
        break;
      }
    }
  });
  (server, Threads { reader, writer })
}

/// What one frame of the input held.
#[derive(Debug)]
pub(super) enum Frame {
  Message(Message),
  /// Skipped, for the reason given (told to the client).
  Refused(String),
  /// A body of this many bytes, more than `LARGEST_MESSAGE`: not read yet.
  TooLarge(u64),
  /// The input ended, or cannot be framed any more.
  End,
}

/// Read frames from `input` and pass their messages on (`deliver`, false
/// once the server is gone) until the input ends or `exit` is read; what is
/// refused is told to the client (`tell`, false once the client is gone).
pub(super) fn read_messages(
  input: &mut impl BufRead,
  deliver: impl Fn(Message) -> bool,
  tell: impl Fn(Message) -> bool,
) {
  loop {
    match read_frame(input) {
      Frame::Message(message) => {
        let is_exit =
          matches!(&message, Message::Notification(notification) if notification.method == "exit");
        if !deliver(message) || is_exit {
          return;
        }
      }
      Frame::Refused(reason) => {
        if !tell(error_message(reason)) {
          return;
        }
      }
      Frame::TooLarge(length) => {
        let reason = format!(
          "a message of {length} bytes is more than the {LARGEST_MESSAGE} bytes the server \
           reads: it is skipped"
        );
        if !tell(error_message(reason)) {
          return;
        }
        // Read and dropped, a piece at a time.
        let skipped = io::copy(&mut input.by_ref().take(length), &mut io::sink());
        if !matches!(skipped, Ok(read) if read == length) {
          return;
        }
      }
      Frame::End => return,
    }
  }
}

/// `window/showMessage` with an error.
fn error_message(message: String) -> Message {
  let params = serde_json::json!({"type": 1, "message": message});
  Notification::new("window/showMessage".into(), params).into()
}

/// Read one frame.
pub(super) fn read_frame(input: &mut impl BufRead) -> Frame {
  let mut length: Option<u64> = None;
  loop {
    let mut line = Vec::new();
    match input.by_ref().take(LONGEST_HEADER).read_until(b'\n', &mut line) {
      Ok(0) | Err(_) => return Frame::End,
      Ok(_) => {}
    }
    if !line.ends_with(b"\n") {
      // A header line without end: nothing after it can be framed.
      return Frame::End;
    }
    let line = String::from_utf8_lossy(&line);
    let line = line.trim_end();
    if line.is_empty() {
      break;
    }
    if let Some((name, value)) = line.split_once(':') {
      if name.trim().eq_ignore_ascii_case("content-length") {
        length = value.trim().parse().ok();
      }
    }
  }
  let Some(length) = length else { return Frame::End };
  if length > LARGEST_MESSAGE {
    return Frame::TooLarge(length);
  }
  let mut body = Vec::new();
  match input.by_ref().take(length).read_to_end(&mut body) {
    Ok(read) if read as u64 == length => {}
    _ => return Frame::End,
  }
  match serde_json::from_slice::<Message>(&body) {
    Ok(message) => Frame::Message(message),
    Err(error) => Frame::Refused(format!("a message that is not JSON-RPC was skipped: {error}")),
  }
}
