//! A stress client for `just --lsp`, as an impatient editor drives it: the
//! real server over its standard input and output, plain JSON-RPC framing,
//! sessions of random edits (incremental with ranges anywhere: past the
//! end, inside a UTF-16 surrogate pair or a multibyte character, reversed,
//! across lines; full sync; CRLF and a BOM) sent without waiting, between
//! requests of every kind the server answers and some it does not, at
//! random positions, some invalid; `didClose` and `didOpen` of the same
//! document, `didSave`, edits of the imported file and the module on disk,
//! notifications about documents that are not open, `$/cancelRequest`.
//!
//! Every request must be answered (a result or an error other than an
//! internal one, which is a caught panic) with no more than `QUIET` between
//! two messages from the server while answers are due; the server must not
//! write to its standard error (where a panic is reported) and must end
//! with status 0 after `shutdown` and `exit`.
//!
//! Seeded and reproducible: the messages of a session depend on its seed
//! alone, never on the server's answers. `JUST_LSP_STRESS_SEED` sets the
//! first session's seed, `JUST_LSP_STRESS_SESSIONS` the number of sessions
//! and `JUST_LSP_STRESS_STEPS` the messages per session (defaults: a few
//! seconds' worth, for CI). A failure prints the session's seed and keeps
//! its messages in a file.

use std::collections::HashMap;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use serde_json::{json, Value};

use crate::common::lsp::{frame, read_message, server};
use crate::common::process::wait_within;

/// The longest the server may stay silent while answers are due.
const QUIET: Duration = Duration::from_secs(30);

const DEFAULT_SEED: u64 = 0x6a75_7374_6c73_7001;
const DEFAULT_SESSIONS: u64 = 6;
const DEFAULT_STEPS: u64 = 300;

/// The requests the server answers, and some it does not (answered with
/// an error all the same).
const METHODS: &[&str] = &[
  "textDocument/completion",
  "textDocument/hover",
  "textDocument/definition",
  "textDocument/references",
  "textDocument/documentHighlight",
  "textDocument/prepareRename",
  "textDocument/rename",
  "textDocument/formatting",
  "textDocument/rangeFormatting",
  "textDocument/semanticTokens/full",
  "textDocument/semanticTokens/range",
  "textDocument/semanticTokens/full/delta",
  "textDocument/documentSymbol",
  "textDocument/foldingRange",
  "textDocument/codeLens",
  "textDocument/codeAction",
  "textDocument/signatureHelp",
  "workspace/symbol",
  "workspace/executeCommand",
  "completionItem/resolve",
  "textDocument/inlayHint",
];

/// Pieces of text an edit inserts: justfile syntax, multibyte and astral
/// characters, line ends of both kinds, a BOM.
const PIECES: &[&str] = &[
  "build",
  "test: build\n",
  "a:",
  " b",
  ": ",
  "\n",
  "\r\n",
  "\n\n",
  "  echo {{x}}\n",
  "\techo {{ y }}\n",
  "{{",
  "}}",
  "é",
  "😀",
  "a😀b",
  "\u{feff}",
  "日本",
  "e\u{301}",
  "(",
  ")",
  "'",
  "\"",
  "`",
  "'''",
  "#",
  "# doc\n",
  "mod m\n",
  "mod? n 'n.just'\n",
  "import 'other.just'\n",
  "import? 'missing.just'\n",
  "alias b := build\n",
  "alias c := ",
  "m::",
  "::",
  "x := 'v'\n",
  "f(a, b) := a + b\n",
  ":=",
  "[",
  "]",
  "[private]\n",
  "[group('g')]\n",
  "[default]\n",
  "set shell := ['sh', '-cu']\n",
  "set ",
  "export ",
  "@",
  "$",
  "+",
  "*",
  "=",
  "\\",
  "if x == 'a' { 'b' } else { 'c' }",
  "(dep x)",
  "uppercase(",
  "env('HOME', '')",
  "justfile()",
  "```\n",
  "#!/bin/sh\n",
  "\t",
  "   ",
];

/// What the user types a character at a time.
const PHRASES: &[&str] = &[
  "test: bu",
  "alias b := bu",
  "dep: m::in",
  "\n  echo {{ uppercase(x) }}\n",
  "x := '😀é' + env('A', 'b')\n",
  "[group('é')]\n",
  "set shell := ['sh', '-c']\n",
  "😀😀 日本",
  "mod m\nimport 'other.just'\n",
];

/// Whole texts a full-sync change or an open sends.
const TEXTS: &[&str] = &[
  "",
  "\u{feff}a:\n  echo a\n",
  "import 'other.just'\nmod m\n\n# Build it\nbuild target='x': (dep target)\n  echo {{target}}\n\ndep y:\n  echo {{y}}\n",
  "x := 'é😀'\r\n\r\nbuild:\r\n  echo {{x}}\r\n",
  "build:\n\techo\ntest: bu\n(((\n",
  "set positional-arguments\nf(a) := a\n[group('g')]\nr p='😀':\n  echo {{f(p)}}\n",
  "a: b\nb: a\n",
  "alias t := nope\n",
  "😀😀😀\n\u{10ffff}\n",
];

fn environment(name: &str, default: u64) -> u64 {
  let value = std::env::var(name).ok();
  value.map_or(default, |value| {
    let value = value.trim();
    let parsed = match value.strip_prefix("0x") {
      Some(hex) => u64::from_str_radix(hex, 16),
      None => value.parse(),
    };
    parsed.unwrap_or_else(|_| panic!("{name} is not a number: `{value}`"))
  })
}

pub(super) fn editor_sessions_over_stdio_answer_every_request() {
  let seed = environment("JUST_LSP_STRESS_SEED", DEFAULT_SEED);
  let sessions = environment("JUST_LSP_STRESS_SESSIONS", DEFAULT_SESSIONS);
  let steps = environment("JUST_LSP_STRESS_STEPS", DEFAULT_STEPS);
  for session in 0..sessions {
    let session_seed = seed.wrapping_add(session);
    if let Err(failure) = run_session(session_seed, steps) {
      panic!(
        "session {session} failed: {failure}\n\
         reproduce: JUST_LSP_STRESS_SEED={session_seed:#x} JUST_LSP_STRESS_SESSIONS=1 \
         JUST_LSP_STRESS_STEPS={steps} cargo test --test integration -- \
         lsp::editor_sessions_over_stdio_answer_every_request"
      );
    }
  }
}

/// splitmix64: small, and the same sequence on every platform.
struct Random(u64);

impl Random {
  fn next(&mut self) -> u64 {
    self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = self.0;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
  }

  fn below(&mut self, bound: u64) -> u64 {
    self.next() % bound.max(1)
  }

  fn chance(&mut self, percent: u64) -> bool {
    self.below(100) < percent
  }

  fn pick<T: Copy>(&mut self, items: &[T]) -> T {
    items[self.below(items.len() as u64) as usize]
  }
}

/// The files of a session's project.
struct Project {
  _directory: tempfile::TempDir,
  justfile: PathBuf,
  other: PathBuf,
  module: PathBuf,
  runner: PathBuf,
}

impl Project {
  fn new() -> Project {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path().canonicalize().unwrap();
    let justfile = root.join("justfile");
    let other = root.join("other.just");
    let module = root.join("m.just");
    let runner = root.join("runner.just");
    std::fs::write(&justfile, TEXTS[2]).unwrap();
    std::fs::write(&other, "shared := 'o'\n\nhelper:\n  echo {{shared}}\n").unwrap();
    std::fs::write(&module, "inner:\n  echo inner\n").unwrap();
    std::fs::write(&runner, "hello:\n  @echo hi\n").unwrap();
    Project { _directory: directory, justfile, other, module, runner }
  }

  fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
  }
}

/// The client's copy of an open document, edited as the server is told to
/// edit it (positions clamped the way the server documents), so that the
/// positions the client sends stay mostly near the text.
struct Mirror {
  text: String,
  version: i64,
}

impl Mirror {
  fn lines(&self) -> Vec<&str> {
    self.text.split('\n').collect()
  }

  fn offset(&self, line: u64, character: u64) -> usize {
    let mut start = 0;
    for _ in 0..line {
      match self.text[start..].find('\n') {
        Some(index) => start += index + 1,
        None => return self.text.len(),
      }
    }
    let end = self.text[start..].find('\n').map_or(self.text.len(), |index| start + index);
    let content = &self.text[start..end];
    let content = content.strip_suffix('\r').unwrap_or(content);
    let mut units = 0;
    for (index, c) in content.char_indices() {
      units += c.len_utf16() as u64;
      if units > character {
        return start + index;
      }
    }
    start + content.len()
  }

  fn apply(&mut self, range: Option<(u64, u64, u64, u64)>, text: &str) {
    match range {
      None => self.text = text.to_string(),
      Some((start_line, start_character, end_line, end_character)) => {
        let start = self.offset(start_line, start_character);
        let end = self.offset(end_line, end_character);
        self.text.replace_range(start.min(end)..start.max(end), text);
      }
    }
  }
}

/// What a session sends, in order, and what it expects.
struct Script {
  random: Random,
  project: Project,
  documents: HashMap<PathBuf, Mirror>,
  next_id: i64,
  sent: Vec<Value>,
}

/// One step of the client: a message to send, or a pause until every
/// answer due has come.
enum Step {
  Send(Value),
  Settle,
}

impl Script {
  fn new(seed: u64) -> Script {
    Script {
      random: Random(seed),
      project: Project::new(),
      documents: HashMap::new(),
      next_id: 1,
      sent: Vec::new(),
    }
  }

  fn request(&mut self, method: &str, params: Value) -> Value {
    let id = self.next_id;
    self.next_id += 1;
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
  }

  fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
  }

  /// One of the project's files, mostly the justfile.
  fn file(&mut self) -> PathBuf {
    match self.random.below(10) {
      0 => self.project.other.clone(),
      1 => self.project.module.clone(),
      2 => self.project.justfile.with_file_name("never-opened.just"),
      _ => self.project.justfile.clone(),
    }
  }

  /// A position: mostly in the text (possibly inside a surrogate pair, or
  /// between the `\r` and `\n` of a line end), else past a line's end, past
  /// the last line, at the largest numbers, or not a position at all.
  fn position(&mut self, path: &Path) -> (Value, Option<(u64, u64)>) {
    let lines: Vec<(u64, u64)> = match self.documents.get(path) {
      Some(mirror) => mirror
        .lines()
        .iter()
        .map(|line| (line.encode_utf16().count() as u64, line.len() as u64))
        .collect(),
      None => vec![(0, 0)],
    };
    let line = self.random.below(lines.len() as u64 + 1);
    let (units, _) = lines.get(line as usize).copied().unwrap_or((0, 0));
    let (line, character) = match self.random.below(20) {
      0..=12 => (line, self.random.below(units + 2)),
      13 => (line, units + 1 + self.random.below(100)),
      14 => (lines.len() as u64 + self.random.below(5), self.random.below(10)),
      15 => (u64::from(u32::MAX), u64::from(u32::MAX)),
      16 => (line, u64::from(u32::MAX)),
      17 => (u64::from(i32::MAX as u32) + 1, 0),
      18 => return (self.invalid_position(), None),
      _ => (line, 0),
    };
    (json!({"line": line, "character": character}), Some((line, character)))
  }

  fn invalid_position(&mut self) -> Value {
    match self.random.below(6) {
      0 => json!({"line": -1, "character": 0}),
      1 => json!({"line": 0, "character": -5}),
      2 => json!({"line": 1.5, "character": 0}),
      3 => json!({"line": "0", "character": "0"}),
      4 => json!({"line": 0}),
      _ => json!({"line": 1e20, "character": 18_446_744_073_709_551_615_u64}),
    }
  }

  fn inserted_text(&mut self) -> String {
    let mut text = String::new();
    for _ in 0..self.random.below(4) {
      text.push_str(self.random.pick(PIECES));
    }
    text
  }

  fn step(&mut self) -> Vec<Step> {
    match self.random.below(100) {
      0..=44 => vec![Step::Send(self.change())],
      45..=79 => vec![Step::Send(self.random_request())],
      80..=84 => self.reopen(),
      85..=87 => vec![Step::Send(self.save())],
      88..=90 => self.change_on_disk(),
      91..=93 => vec![Step::Send(self.stray_notification())],
      94..=95 => vec![Step::Send(self.cancel())],
      96 => vec![Step::Send(self.configuration())],
      97..=98 => self.typing(),
      _ => vec![Step::Settle],
    }
  }

  /// Type a phrase a character at a time where the cursor is, asking for
  /// completions as an editor does, with a backspace now and then (which
  /// may take half of a surrogate pair).
  fn typing(&mut self) -> Vec<Step> {
    let path = self.project.justfile.clone();
    let Some((mut line, mut character)) = self.position(&path).1 else { return Vec::new() };
    let phrase = self.random.pick(PHRASES);
    let mut steps = Vec::new();
    for c in phrase.chars() {
      steps.push(Step::Send(self.edit(&path, (line, character, line, character), &c.to_string())));
      if c == '\n' {
        (line, character) = (line + 1, 0);
      } else {
        character += c.len_utf16() as u64;
      }
      if self.random.chance(10) && character > 0 {
        steps.push(Step::Send(self.edit(&path, (line, character - 1, line, character), "")));
        character -= 1;
      }
      if self.random.chance(40) {
        let method = self.random.pick(&[
          "textDocument/completion",
          "textDocument/signatureHelp",
          "textDocument/hover",
        ]);
        let position = json!({"line": line, "character": character});
        let request = self.request(
          method,
          json!({"textDocument": {"uri": Project::uri(&path)}, "position": position}),
        );
        steps.push(Step::Send(request));
      }
    }
    steps
  }

  /// `didChange` of one incremental edit of `range`.
  fn edit(&mut self, path: &Path, range: (u64, u64, u64, u64), text: &str) -> Value {
    let version = match self.documents.get_mut(path) {
      Some(mirror) => {
        mirror.apply(Some(range), text);
        mirror.version += 1;
        mirror.version
      }
      None => 1,
    };
    let (start_line, start_character, end_line, end_character) = range;
    Script::notification(
      "textDocument/didChange",
      json!({"textDocument": {"uri": Project::uri(path), "version": version},
        "contentChanges": [{"range": {
          "start": {"line": start_line, "character": start_character},
          "end": {"line": end_line, "character": end_character}}, "text": text}]}),
    )
  }

  fn open(&mut self, path: &Path) -> Value {
    let text = if self.random.chance(50) {
      std::fs::read_to_string(path).unwrap_or_default()
    } else {
      self.random.pick(TEXTS).to_string()
    };
    let version = self.documents.get(path).map_or(0, |mirror| mirror.version + 1);
    self.documents.insert(path.to_path_buf(), Mirror { text: text.clone(), version });
    Script::notification(
      "textDocument/didOpen",
      json!({"textDocument": {"uri": Project::uri(path), "languageId": "just",
        "version": version, "text": text}}),
    )
  }

  /// `didChange` of one to three edits, each incremental (a range, maybe
  /// reversed or across lines, maybe with the deprecated `rangeLength`) or
  /// the whole text.
  fn change(&mut self) -> Value {
    let path = self.file();
    let mut changes = Vec::new();
    for _ in 0..=self.random.below(3) {
      changes.push(self.content_change(&path));
    }
    let version = match self.documents.get_mut(&path) {
      Some(mirror) => {
        mirror.version += 1;
        mirror.version
      }
      None => 1,
    };
    Script::notification(
      "textDocument/didChange",
      json!({"textDocument": {"uri": Project::uri(&path), "version": version},
        "contentChanges": changes}),
    )
  }

  fn content_change(&mut self, path: &Path) -> Value {
    if self.random.chance(8) {
      let text = if self.random.chance(50) {
        self.random.pick(TEXTS).to_string()
      } else {
        let mut text =
          self.documents.get(path).map(|mirror| mirror.text.clone()).unwrap_or_default();
        text.push_str(&self.inserted_text());
        text
      };
      if let Some(mirror) = self.documents.get_mut(path) {
        mirror.apply(None, &text);
      }
      return json!({"text": text});
    }
    let (start, start_at) = self.position(path);
    let (end, end_at) =
      if self.random.chance(30) { (start.clone(), start_at) } else { self.position(path) };
    let text = self.inserted_text();
    let mut change = json!({"range": {"start": start, "end": end}, "text": text});
    if self.random.chance(10) {
      change["rangeLength"] = json!(self.random.below(50));
    }
    if let (Some(mirror), Some((start_line, start_character)), Some((end_line, end_character))) =
      (self.documents.get_mut(path), start_at, end_at)
    {
      mirror.apply(Some((start_line, start_character, end_line, end_character)), &text);
    }
    change
  }

  fn random_request(&mut self) -> Value {
    let method = self.random.pick(METHODS);
    let path = self.file();
    let uri = Project::uri(&path);
    let (position, _) = self.position(&path);
    let (end, _) = self.position(&path);
    let document = json!({"uri": uri});
    let params = match method {
      "workspace/symbol" => json!({"query": self.random.pick(&["", "b", "m", "é", "zz"])}),
      "workspace/executeCommand" => self.command(),
      "completionItem/resolve" => json!({"label": "build"}),
      "textDocument/formatting" => {
        json!({"textDocument": document, "options": {"tabSize": 4, "insertSpaces": true}})
      }
      "textDocument/rangeFormatting" => json!({"textDocument": document,
        "range": {"start": position, "end": end}, "options": {"tabSize": 2, "insertSpaces": true}}),
      "textDocument/semanticTokens/full"
      | "textDocument/documentSymbol"
      | "textDocument/foldingRange"
      | "textDocument/codeLens" => json!({"textDocument": document}),
      "textDocument/semanticTokens/full/delta" => {
        json!({"textDocument": document, "previousResultId": "1"})
      }
      "textDocument/semanticTokens/range" | "textDocument/inlayHint" => {
        json!({"textDocument": document, "range": {"start": position, "end": end}})
      }
      "textDocument/codeAction" => json!({"textDocument": document,
        "range": {"start": position, "end": end}, "context": {"diagnostics": []}}),
      "textDocument/references" => json!({"textDocument": document, "position": position,
        "context": {"includeDeclaration": self.random.chance(50)}}),
      "textDocument/rename" => {
        let name = self.random.pick(&["renamed", "b", "m", "1x", "é", "", "x-y"]);
        json!({"textDocument": document, "position": position, "newName": name})
      }
      _ => json!({"textDocument": document, "position": position}),
    };
    self.request(method, params)
  }

  /// `workspace/executeCommand`: mostly commands it refuses; now and then a
  /// real `just.run` of a recipe that prints one line.
  fn command(&mut self) -> Value {
    let runner = self.project.runner.display().to_string();
    match self.random.below(5) {
      0 => json!({"command": "just.run", "arguments": [runner, "hello"]}),
      1 => json!({"command": "just.run", "arguments": []}),
      2 => json!({"command": "just.run", "arguments": [1, 2]}),
      3 => json!({"command": "just.other"}),
      _ => json!({"command": "just.run", "arguments": [runner, "nope"]}),
    }
  }

  /// Close and open again (or open twice, or close twice).
  fn reopen(&mut self) -> Vec<Step> {
    let path = self.file();
    let uri = Project::uri(&path);
    let close =
      Script::notification("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    match self.random.below(4) {
      0 => vec![Step::Send(self.open(&path))],
      1 => {
        self.documents.remove(&path);
        vec![Step::Send(close)]
      }
      _ => {
        self.documents.remove(&path);
        vec![Step::Send(close), Step::Send(self.open(&path))]
      }
    }
  }

  /// Write the open document's text to its file, and say so.
  fn save(&mut self) -> Value {
    let path = self.file();
    let uri = Project::uri(&path);
    let mut params = json!({"textDocument": {"uri": uri}});
    if let Some(mirror) = self.documents.get(&path) {
      std::fs::write(&path, &mirror.text).unwrap();
      if self.random.chance(50) {
        params["text"] = json!(mirror.text);
      }
    }
    Script::notification("textDocument/didSave", params)
  }

  /// The imported file or the module changes on disk (another program
  /// wrote it), then the client says the watched files changed.
  fn change_on_disk(&mut self) -> Vec<Step> {
    let path =
      if self.random.chance(50) { self.project.other.clone() } else { self.project.module.clone() };
    let text = match self.random.below(4) {
      0 => String::new(),
      1 => "mod m\nimport 'justfile'\n".to_string(),
      2 => format!("helper:\n  echo {}\n", self.inserted_text()),
      _ => self.random.pick(TEXTS).to_string(),
    };
    std::fs::write(&path, text).unwrap();
    let changed = Script::notification(
      "workspace/didChangeWatchedFiles",
      json!({"changes": [{"uri": Project::uri(&path), "type": 2}]}),
    );
    vec![Step::Send(changed)]
  }

  /// A notification about a document that is not open, not a file, or
  /// with parameters that are not what the method takes.
  fn stray_notification(&mut self) -> Value {
    let unknown = Project::uri(&self.project.justfile.with_file_name("nowhere/justfile"));
    let (position, _) = self.position(&self.project.justfile.clone());
    match self.random.below(7) {
      0 => Script::notification(
        "textDocument/didChange",
        json!({"textDocument": {"uri": unknown, "version": 3},
          "contentChanges": [{"range": {"start": position, "end": position}, "text": "x"}]}),
      ),
      1 => Script::notification("textDocument/didClose", json!({"textDocument": {"uri": unknown}})),
      2 => Script::notification("textDocument/didSave", json!({"textDocument": {"uri": unknown}})),
      3 => Script::notification(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "untitled:Untitled-1", "version": 1},
          "contentChanges": [{"text": "a:"}]}),
      ),
      4 => Script::notification("textDocument/didOpen", json!({"textDocument": {"uri": 7}})),
      5 => Script::notification("$/setTrace", json!({"value": "verbose"})),
      _ => Script::notification("textDocument/didChange", json!(null)),
    }
  }

  /// Cancel a request sent before (answered or not), or one never sent.
  fn cancel(&mut self) -> Value {
    let id = self.random.below(self.next_id as u64 + 2);
    Script::notification("$/cancelRequest", json!({"id": id}))
  }

  fn configuration(&mut self) -> Value {
    let on = self.random.chance(50);
    let settings = match self.random.below(3) {
      0 => json!({"just": {"warnings": {"unused-parameter": on, "unused-private-recipe": !on}}}),
      1 => json!({"warnings": {"unused-parameter": on}}),
      _ => json!("nonsense"),
    };
    Script::notification("workspace/didChangeConfiguration", json!({"settings": settings}))
  }
}

/// The server's end: its standard input written by a thread of its own (so
/// a server that stops reading cannot block the client), its output read
/// by another, its standard error collected by a third.
struct Connection {
  child: Child,
  outgoing: Option<Sender<Vec<u8>>>,
  incoming: Receiver<Value>,
  stderr: Option<std::thread::JoinHandle<String>>,
}

impl Connection {
  fn start(directory: &Path) -> Connection {
    let mut child = server().current_dir(directory).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (outgoing, to_write) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
      for bytes in to_write {
        if stdin.write_all(&bytes).and_then(|()| stdin.flush()).is_err() {
          break;
        }
      }
    });
    let stdout = child.stdout.take().unwrap();
    let (received, incoming) = mpsc::channel();
    std::thread::spawn(move || {
      let mut reader = BufReader::new(stdout);
      while let Some(message) = read_message(&mut reader) {
        if received.send(message).is_err() {
          break;
        }
      }
    });
    let mut stderr = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
      let mut text = String::new();
      let _ = stderr.read_to_string(&mut text);
      text
    });
    Connection { child, outgoing: Some(outgoing), incoming, stderr: Some(stderr) }
  }

  fn send(&self, message: &Value) {
    if let Some(outgoing) = &self.outgoing {
      let _ = outgoing.send(frame(message));
    }
  }

  /// Close the server's input (after `exit`) and wait for it to end,
  /// which it must do with status 0.
  fn end(&mut self) -> Result<(), String> {
    self.outgoing = None;
    let status = wait_within(&mut self.child, QUIET);
    match status.and_then(|status| status.code()) {
      Some(0) => Ok(()),
      other => Err(format!("the server did not end with status 0 after `exit`: {other:?}")),
    }
  }

  /// The server's standard error once it has ended.
  fn stderr(&mut self) -> String {
    self.stderr.take().map(|thread| thread.join().unwrap_or_default()).unwrap_or_default()
  }
}

impl Drop for Connection {
  fn drop(&mut self) {
    let _ = self.child.kill();
    let _ = self.child.wait();
  }
}

/// The answers due, by request id, with their methods.
struct Due {
  pending: HashMap<i64, String>,
  answered: usize,
}

impl Due {
  /// Take in one message from the server.
  fn receive(&mut self, message: &Value) -> Result<(), String> {
    let Some(id) = message.get("id") else {
      return match message.get("method").and_then(Value::as_str) {
        Some("textDocument/publishDiagnostics" | "window/logMessage" | "window/showMessage") => {
          Ok(())
        }
        _ => Err(format!("an unexpected message from the server: {message}")),
      };
    };
    let id = id.as_i64().ok_or_else(|| format!("an answer with a strange id: {message}"))?;
    let method = self
      .pending
      .remove(&id)
      .ok_or_else(|| format!("an answer to no request due (id {id}): {message}"))?;
    self.answered += 1;
    if message.get("result").is_none() == message.get("error").is_none() {
      return Err(format!(
        "`{method}` answered without exactly one of result and error: {message}"
      ));
    }
    match message.pointer("/error/code").and_then(Value::as_i64) {
      Some(-32603) => Err(format!("`{method}` answered with an internal error: {message}")),
      _ => Ok(()),
    }
  }

  /// Wait until no answer is due, failing if the server stays silent for
  /// `QUIET` meanwhile or ends.
  fn settle(&mut self, connection: &Connection) -> Result<(), String> {
    while !self.pending.is_empty() {
      match connection.incoming.recv_timeout(QUIET) {
        Ok(message) => self.receive(&message)?,
        Err(RecvTimeoutError::Timeout) => {
          return Err(format!("no answer for {QUIET:?} to {:?}", self.methods()));
        }
        Err(RecvTimeoutError::Disconnected) => {
          return Err(format!("the server ended with answers due to {:?}", self.methods()));
        }
      }
    }
    Ok(())
  }

  /// Take in what has arrived, without waiting.
  fn drain(&mut self, connection: &Connection) -> Result<(), String> {
    while let Ok(message) = connection.incoming.try_recv() {
      self.receive(&message)?;
    }
    Ok(())
  }

  fn methods(&self) -> Vec<String> {
    let mut due: Vec<(&i64, &String)> = self.pending.iter().collect();
    due.sort();
    due.into_iter().take(5).map(|(id, method)| format!("{id} {method}")).collect()
  }
}

fn run_session(seed: u64, steps: u64) -> Result<(), String> {
  let mut script = Script::new(seed);
  let directory = script.project.justfile.parent().unwrap().to_path_buf();
  let mut connection = Connection::start(&directory);
  let outcome = drive(&mut script, &mut connection, steps);
  let stderr = connection.stderr();
  let outcome = outcome.and_then(|()| {
    if stderr.is_empty() {
      Ok(())
    } else {
      Err(format!("the server wrote to its standard error:\n{stderr}"))
    }
  });
  outcome.map_err(|failure| {
    let log = keep_log(seed, &script.sent);
    format!(
      "{failure}\n(seed {seed:#x}; the {} messages sent are in {})",
      script.sent.len(),
      log.display()
    )
  })
}

fn drive(script: &mut Script, connection: &mut Connection, steps: u64) -> Result<(), String> {
  let mut due = Due { pending: HashMap::new(), answered: 0 };
  let send = |script: &mut Script, due: &mut Due, message: Value| {
    if let (Some(id), Some(method)) =
      (message.get("id").and_then(Value::as_i64), message.get("method").and_then(Value::as_str))
    {
      due.pending.insert(id, method.to_string());
    }
    connection.send(&message);
    script.sent.push(message);
  };
  let initialize = script.request(
    "initialize",
    json!({"processId": null, "rootUri": Project::uri(script.project.justfile.parent().unwrap()),
      "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}},
      "initializationOptions": {"warnings": {"unused-parameter": true}}}),
  );
  send(script, &mut due, initialize);
  send(script, &mut due, Script::notification("initialized", json!({})));
  let justfile = script.project.justfile.clone();
  let open = script.open(&justfile);
  send(script, &mut due, open);
  for _ in 0..steps {
    for step in script.step() {
      match step {
        Step::Send(message) => send(script, &mut due, message),
        Step::Settle => due.settle(connection)?,
      }
    }
    due.drain(connection)?;
  }
  due.settle(connection)?;
  let shutdown = script.request("shutdown", Value::Null);
  send(script, &mut due, shutdown);
  due.settle(connection)?;
  send(script, &mut due, Script::notification("exit", Value::Null));
  connection.end()?;
  if due.answered == 0 {
    return Err("no request was answered".into());
  }
  Ok(())
}

/// Keep the messages of a failed session where a developer finds them.
fn keep_log(seed: u64, sent: &[Value]) -> PathBuf {
  let directory = Path::new(env!("CARGO_TARGET_TMPDIR"));
  let path = directory.join(format!("lsp-stress-{seed:#x}.jsonl"));
  let lines: Vec<String> = sent.iter().map(Value::to_string).collect();
  let _ = std::fs::write(&path, lines.join("\n") + "\n");
  path
}

/// Files much larger and deeper than the random sessions make: a chain of
/// 20,000 dependencies, of 20,000 variables, 20,000 `+` terms on one line
/// (the server ran out of stack on each), 20,000 uses of one variable; each
/// request about each, answered with no more than `QUIET` between answers
/// (positions of every token were once counted from the start of the file:
/// semantic tokens took minutes).
pub(super) fn long_chains_and_large_files_answer_every_request() {
  const N: usize = 20_000;
  let chain: String = (0..N).map(|i| format!("r{i}: r{}\n", i + 1)).collect::<String>()
    + &format!("r{N}:\n  echo done\n");
  let variables: String =
    (0..N).map(|i| format!("v{i} := v{}\n", i + 1)).collect::<String>() + &format!("v{N} := 'a'\n");
  let sum = format!("x := {}\n", vec!["'a'"; N].join(" + "));
  let uses: String = "x := 'a'\n".to_string()
    + &(0..N).map(|i| format!("u{i}:\n  echo {{{{x}}}} {{{{ x + x }}}}\n")).collect::<String>();
  let project = Project::new();
  for text in [chain, variables, sum, uses] {
    let mut connection = Connection::start(project.justfile.parent().unwrap());
    let outcome = large_file_session(&mut connection, &project, &text);
    let stderr = connection.stderr();
    let first_line = text.lines().next().unwrap_or_default();
    if let Err(failure) = outcome {
      panic!("the file starting `{first_line}`: {failure}\nstandard error: {stderr}");
    }
    assert_eq!(stderr, "", "the file starting `{first_line}`");
  }
}

fn large_file_session(
  connection: &mut Connection,
  project: &Project,
  text: &str,
) -> Result<(), String> {
  let uri = Project::uri(&project.justfile);
  let mut due = Due { pending: HashMap::new(), answered: 0 };
  let mut id = 0;
  let mut request = |connection: &Connection, due: &mut Due, method: &str, params: Value| {
    id += 1;
    due.pending.insert(id, method.to_string());
    connection.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
  };
  request(connection, &mut due, "initialize", json!({"capabilities": {}}));
  connection.send(&Script::notification("initialized", json!({})));
  connection.send(&Script::notification(
    "textDocument/didOpen",
    json!({"textDocument": {"uri": uri, "languageId": "just", "version": 0, "text": text}}),
  ));
  let lines = text.lines().count() as u64;
  for line in [lines / 2] {
    for method in METHODS {
      let position = json!({"line": line, "character": 6});
      let params = match *method {
        "workspace/symbol" => json!({"query": "1"}),
        "workspace/executeCommand" => json!({"command": "just.other"}),
        _ => json!({"textDocument": {"uri": uri}, "position": position, "newName": "renamed",
          "context": {"includeDeclaration": true}, "range": {"start": position, "end": position},
          "options": {"tabSize": 4, "insertSpaces": true}, "query": "", "label": "x"}),
      };
      request(connection, &mut due, method, params);
      due.settle(connection)?;
    }
  }
  request(connection, &mut due, "shutdown", Value::Null);
  due.settle(connection)?;
  connection.send(&Script::notification("exit", Value::Null));
  connection.end()
}
