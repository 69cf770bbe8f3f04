//! The client side of `just --lsp` over its standard input and output:
//! messages framed with `Content-Length` as the protocol has them, the
//! server started with piped streams, and the `initialize` handshake.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

/// How long a process told to finish may take before it counts as hung: a
/// cold, loaded CI machine is slow, a hang is forever.
pub(crate) const EXIT_LIMIT: Duration = Duration::from_secs(180);

/// `message` framed as the protocol sends it.
pub(crate) fn frame(message: &serde_json::Value) -> Vec<u8> {
  let body = message.to_string();
  format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Read one framed message.
pub(crate) fn read_message(reader: &mut impl BufRead) -> Option<serde_json::Value> {
  let mut length = None;
  loop {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
      return None;
    }
    let line = line.trim_end();
    if line.is_empty() {
      break;
    }
    if let Some(value) = line.strip_prefix("Content-Length: ") {
      length = value.parse::<usize>().ok();
    }
  }
  let mut body = vec![0; length?];
  reader.read_exact(&mut body).ok()?;
  serde_json::from_slice(&body).ok()
}

/// `just --lsp` with its three streams piped, ready to spawn.
pub(crate) fn server() -> Command {
  let mut command = Command::new(super::binary());
  command.arg("--lsp").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
  command
}

/// The server started, in this process's directory.
pub(crate) fn start_server() -> Child {
  server().spawn().unwrap()
}

/// Send `initialize` without capabilities and check the answer names the
/// server; the reader of the server's output from then on.
pub(crate) fn initialize(child: &mut Child) -> BufReader<ChildStdout> {
  let stdin = child.stdin.as_mut().unwrap();
  let initialize = serde_json::json!({
    "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}
  });
  stdin.write_all(&frame(&initialize)).unwrap();
  let mut reader = BufReader::new(child.stdout.take().unwrap());
  let response = read_message(&mut reader).expect("an answer to initialize");
  assert_eq!(response["id"], 1);
  assert_eq!(response["result"]["serverInfo"]["name"], "just");
  reader
}

/// What the server wrote to its standard error, once it has ended.
pub(crate) fn stderr_of(child: &mut Child) -> String {
  let mut stderr = String::new();
  child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
  stderr
}
