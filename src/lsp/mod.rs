//! The language server, `just --lsp`: LSP 3.17 over standard input and
//! output, built on the same loader, parser, analyzer and formatter as the
//! rest of `just`. A driver like `cli`, on top of the pipeline; `cli` hands
//! `--lsp` to `serve` (see ARCHITECTURE.md).

mod actions;
mod capabilities;
mod completion;
mod diagnostics;
mod documents;
mod failure;
mod features;
mod formatting;
mod hints;
mod hover;
mod links;
mod navigation;
mod occurrences;
mod outline;
mod positions;
mod project;
mod run;
mod server;
mod signature;
mod symbols;
mod tokens;
mod transport;
mod workspace;

use lsp_server::Connection;

/// Serve on standard input and output until the client sends `exit` or
/// goes away. The status is 0 after `shutdown` then `exit`, else 1.
pub(crate) fn serve() -> i32 {
  let (connection, threads) = transport::stdio();
  let ending = server::Server::new(&connection).run();
  // The writer thread ends when the connection's sender is gone, once it
  // has written what is queued: the answers sent just before `exit` (that
  // to `shutdown`, at least) must reach the client.
  drop(connection);
  let (joined, threads_ended) = std::sync::mpsc::channel();
  std::thread::spawn(move || {
    // A client that went away leaves the reader blocked or failed: its
    // outcome does not change the status.
    threads.join();
    let _ = joined.send(());
  });
  // The reader ends with `exit` or the end of the input, the writer with
  // the last answer; a recipe `just.run` still runs (which holds a sender)
  // or a client that keeps its end open do not hold the exit for long.
  let _ = threads_ended.recv_timeout(EXIT_GRACE);
  status(ending)
}

/// How long the server waits, at the end, for its output to be written.
const EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

fn status(ending: server::Ending) -> i32 {
  match ending {
    server::Ending::Orderly => 0,
    server::Ending::Abrupt => 1,
  }
}

/// Run a session on an in-memory connection: each message of `messages`
/// (JSON-RPC objects) is sent in turn, then the connection is closed;
/// returns what the server sent (nothing if no thread can be started for
/// it). For the fuzz target and tests: whatever the messages, the server
/// must neither panic nor hang. It runs on a stack as large as `just`'s.
pub fn session(messages: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
  let (server_end, client_end) = Connection::memory();
  let serve = move || {
    let _ = server::Server::new(&server_end).run();
  };
  let Ok(server) = crate::platform::stack::spawn_on_large_stack("lsp", serve) else {
    return Vec::new();
  };
  let collector = {
    let receiver = client_end.receiver.clone();
    std::thread::spawn(move || {
      let mut received = Vec::new();
      while let Ok(message) = receiver.recv() {
        if let Ok(value) = serde_json::to_value(&message) {
          received.push(value);
        }
      }
      received
    })
  };
  for message in messages {
    let Ok(message) = serde_json::from_value::<lsp_server::Message>(message) else { continue };
    if client_end.sender.send(message).is_err() {
      break;
    }
  }
  drop(client_end);
  let _ = server.join();
  collector.join().unwrap_or_default()
}
