//! Replay a random sequence of edits and requests against the language
//! server (in process, `just::lsp_session`): positions anywhere (past the
//! end, inside characters, reversed ranges), inserted text any bytes. Every
//! request must get an answer, never an internal error (a caught panic),
//! and the session must end.
//!
//! Run (nightly): `cd fuzz && cargo +nightly fuzz run lsp_edits -- -max_total_time=60`

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const METHODS: &[&str] = &[
  "textDocument/formatting",
  "textDocument/documentSymbol",
  "textDocument/foldingRange",
  "textDocument/completion",
  "textDocument/hover",
  "textDocument/definition",
  "textDocument/references",
  "textDocument/documentHighlight",
  "textDocument/rename",
  "textDocument/signatureHelp",
];

fuzz_target!(|data: &[u8]| {
  let uri = "file:///just-fuzz-lsp/justfile";
  let mut messages = vec![
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
    json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
      "textDocument": {"uri": uri, "languageId": "just", "version": 0,
        "text": "set shell := ['sh', '-c']\nx := 'a'\n\n# doc\nbuild target: (dep x)\n  echo {{target}}\n\ndep y:\n  echo {{y}}\n"}}}),
  ];
  let mut requests = 1;
  let mut bytes = data.iter().copied();
  let mut version = 0;
  let position = |bytes: &mut dyn Iterator<Item = u8>| {
    let line = u32::from(bytes.next().unwrap_or(0) % 16);
    let raw = bytes.next().unwrap_or(0);
    // Now and then a position far out of range.
    let character = if raw == 255 { u32::MAX } else { u32::from(raw % 40) };
    json!({"line": line, "character": character})
  };
  while let Some(op) = bytes.next() {
    version += 1;
    if op % 4 == 0 {
      let method = METHODS[usize::from(op / 4) % METHODS.len()];
      let at = position(&mut bytes);
      messages.push(json!({"jsonrpc": "2.0", "id": version, "method": method, "params": {
        "textDocument": {"uri": uri}, "position": at, "newName": "renamed",
        "context": {"includeDeclaration": true},
        "options": {"tabSize": 4, "insertSpaces": true}}}));
      requests += 1;
    } else {
      let start = position(&mut bytes);
      let end = position(&mut bytes);
      let length = usize::from(bytes.next().unwrap_or(0) % 8);
      let inserted: Vec<u8> = (&mut bytes).take(length).collect();
      let text = String::from_utf8_lossy(&inserted).into_owned();
      messages.push(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"range": {"start": start, "end": end}, "text": text}]}}));
    }
  }
  let received = just::lsp_session(messages);
  let answers: Vec<&Value> =
    received.iter().filter(|message| message.get("id").is_some()).collect();
  assert_eq!(answers.len(), requests, "every request gets an answer");
  for answer in answers {
    let code = answer.pointer("/error/code").and_then(Value::as_i64);
    assert_ne!(code, Some(-32603), "internal error: {answer}");
  }
});
