//! Replay a session such as an editor sends to the language server (in
//! process, `just::lsp_session`): incremental edits with positions anywhere
//! (past the end of a line or of the file, inside a surrogate pair or a
//! multibyte character, reversed, across lines), full-sync changes, several
//! changes in one `didChange`, text with CRLF, BOMs and astral characters,
//! `didClose` and `didOpen` again, `didSave`, and every request the server
//! answers at such positions. Every request must get an answer, never an
//! internal error (a caught panic), and the session must end.
//!
//! Run: `./fuzz/run.sh 60 lsp_edits` (stable Rust), or with cargo-fuzz on
//! nightly: `cd fuzz && cargo +nightly fuzz run lsp_edits -- -max_total_time=60`

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const URI: &str = "file:///just-fuzz-lsp/justfile";

const METHODS: &[&str] = &[
  "textDocument/completion",
  "textDocument/hover",
  "textDocument/definition",
  "textDocument/references",
  "textDocument/documentHighlight",
  "textDocument/prepareRename",
  "textDocument/rename",
  "textDocument/signatureHelp",
  "textDocument/formatting",
  "textDocument/documentSymbol",
  "textDocument/foldingRange",
  "textDocument/semanticTokens/full",
  "textDocument/codeLens",
  "workspace/symbol",
];

/// What an edit inserts: syntax, line ends of both kinds, a BOM, multibyte
/// and astral characters (two UTF-16 units each).
const PIECES: &[&str] = &[
  "\n",
  "\r\n",
  "a:",
  " b",
  "  echo {{x}}\n",
  "\t",
  "😀",
  "é",
  "\u{feff}",
  "日",
  "(",
  ")",
  "'",
  "\"",
  "`",
  "{{",
  "}}",
  "[",
  "]",
  "::",
  ":=",
  "#",
  "mod m\n",
  "import 'i.just'\n",
  "alias c := a\n",
  "set ",
  "x",
  "@",
  "+",
  "=",
  "\\",
];

const INITIAL: &str = "set shell := ['sh', '-c']\r\nx := '😀é'\r\n\r\n# doc\r\nbuild target: (dep x)\r\n  echo {{target}} 😀\r\n\r\ndep y:\r\n  echo {{y}}\r\n";

/// The bytes of the input, read as the session's choices.
struct Choices<'a> {
  bytes: std::slice::Iter<'a, u8>,
}

impl Choices<'_> {
  fn byte(&mut self) -> u8 {
    self.bytes.next().copied().unwrap_or(0)
  }

  /// A position: mostly near the text, now and then past a line's end,
  /// past the last line, or at the largest numbers.
  fn position(&mut self) -> Value {
    let line = match self.byte() {
      255 => u32::MAX,
      254 => 1 << 20,
      raw => u32::from(raw % 16),
    };
    let character = match self.byte() {
      255 => u32::MAX,
      raw => u32::from(raw % 40),
    };
    json!({"line": line, "character": character})
  }

  /// Text built of pieces, or raw bytes (as the editor would send them,
  /// valid UTF-8).
  fn text(&mut self) -> String {
    let length = usize::from(self.byte() % 8);
    if self.byte() % 4 == 0 {
      let raw: Vec<u8> = (0..length).map(|_| self.byte()).collect();
      return String::from_utf8_lossy(&raw).into_owned();
    }
    (0..length).map(|_| PIECES[usize::from(self.byte()) % PIECES.len()]).collect()
  }

  fn change(&mut self) -> Value {
    if self.byte() % 8 == 0 {
      let text = INITIAL.repeat(usize::from(self.byte() % 3)) + &self.text();
      return json!({"text": text});
    }
    let (start, end) = (self.position(), self.position());
    json!({"range": {"start": start, "end": end}, "text": self.text()})
  }
}

fn notification(method: &str, params: Value) -> Value {
  json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn open(version: i64, text: &str) -> Value {
  notification(
    "textDocument/didOpen",
    json!({"textDocument": {"uri": URI, "languageId": "just", "version": version, "text": text}}),
  )
}

fuzz_target!(|data: &[u8]| {
  let mut messages = vec![
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
    notification("initialized", json!({})),
    open(0, INITIAL),
  ];
  let mut requests = 1;
  let mut choices = Choices { bytes: data.iter() };
  let mut version = 0;
  while let Some(&op) = choices.bytes.next() {
    version += 1;
    match op % 8 {
      0..=3 => {
        let count = 1 + usize::from(op / 8) % 3;
        let changes: Vec<Value> = (0..count).map(|_| choices.change()).collect();
        messages.push(notification(
          "textDocument/didChange",
          json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": changes}),
        ));
      }
      4 | 5 => {
        let method = METHODS[usize::from(op / 8) % METHODS.len()];
        let at = choices.position();
        messages.push(json!({"jsonrpc": "2.0", "id": version, "method": method, "params": {
          "textDocument": {"uri": URI}, "position": at, "newName": "renamed", "query": "d",
          "context": {"includeDeclaration": true},
          "options": {"tabSize": 4, "insertSpaces": true}}}));
        requests += 1;
      }
      6 => {
        messages.push(notification("textDocument/didClose", json!({"textDocument": {"uri": URI}})));
        let text = choices.text();
        messages.push(open(version, &(INITIAL.to_string() + &text)));
      }
      _ => {
        messages.push(notification("textDocument/didSave", json!({"textDocument": {"uri": URI}})))
      }
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
