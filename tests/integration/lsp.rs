//! `just --lsp` driven by real clients: the pytest-lsp suite (`tests/lsp/`,
//! every request the server answers), Neovim (`nvim --headless` opening a
//! justfile and receiving its diagnostics), a raw client that goes away or
//! shuts down in order, and random edit sequences in process. `.ci/run`
//! installs pytest-lsp and Neovim; without them these tests fail, they do not
//! skip.

tests! {
  ;
  extensions:
  pytest_lsp_suite,
  neovim_receives_diagnostics,
  shutdown_then_exit_is_status_0,
  answers_sent_before_exit_reach_the_client,
  long_chains_and_large_files_answer_every_request,
  client_that_goes_away_ends_the_server,
  random_edit_sessions_answer_every_request,
  editor_sessions_over_stdio_answer_every_request,
  missing_helper_is_an_error,
  #[cfg(unix)]
  foreign_helper_is_refused,
  helper_names_itself,
  watchers_are_registered_with_a_client_that_registers_them,
  oversized_and_malformed_messages_are_refused,
}

use std::io::{BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::binary;
use crate::common::lsp::{frame, initialize, read_message, start_server, stderr_of, EXIT_LIMIT};
use crate::common::process::wait_within;

mod stress;
use stress::{
  editor_sessions_over_stdio_answer_every_request, long_chains_and_large_files_answer_every_request,
};

fn root() -> &'static Path {
  Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn pytest_lsp_suite() {
  let output = Command::new("python3")
    .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/lsp"])
    .current_dir(root())
    .env("JUST_BIN", binary())
    .output()
    .unwrap_or_else(|error| panic!("cannot run python3 (install python3 and pytest-lsp): {error}"));
  let stdout = String::from_utf8_lossy(&output.stdout);
  let stderr = String::from_utf8_lossy(&output.stderr);
  assert!(
    output.status.success(),
    "the pytest-lsp suite failed (is pytest-lsp installed? `.ci/run` installs it):\n{stdout}\n{stderr}"
  );
  assert!(stdout.contains(" passed"), "{stdout}");
  assert!(!stdout.contains("skipped"), "{stdout}");
}

/// Neovim's own LSP client (0.7 and later) starts `just --lsp` for a
/// justfile with an error and shows the error `just` reports.
fn neovim_receives_diagnostics() {
  let tmp = tempfile::tempdir().unwrap();
  let justfile = tmp.path().join("justfile");
  std::fs::write(&justfile, "default: build\n  echo hi\n\nbuild:\n  echo {{nope}}\n").unwrap();
  let out = tmp.path().join("diagnostics.txt");
  let script = tmp.path().join("init.lua");
  std::fs::write(
    &script,
    r#"
local file = os.getenv('LSP_JUSTFILE')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local id = vim.lsp.start_client({
  name = 'just',
  cmd = { os.getenv('LSP_JUST'), '--lsp' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
})
vim.lsp.buf_attach_client(0, id)
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format('%d:%d:%d:%s', d.lnum, d.col, d.severity, d.message))
end
vim.fn.writefile(lines, os.getenv('LSP_OUT'))
vim.lsp.stop_client(id)
vim.cmd('qa!')
"#,
  )
  .unwrap();
  let mut child = Command::new("nvim")
    .args(["--headless", "--clean", "-n", "-u"])
    .arg(&script)
    .env("LSP_JUSTFILE", &justfile)
    .env("LSP_JUST", binary())
    .env("LSP_OUT", &out)
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap_or_else(|error| panic!("cannot run nvim (install neovim): {error}"));
  let status = wait_within(&mut child, EXIT_LIMIT);
  assert!(status.is_some_and(|status| status.success()), "nvim did not finish: {status:?}");
  let found = std::fs::read_to_string(&out).unwrap_or_default();
  // The message `just` itself prints for the file.
  let run = Command::new(binary()).arg("--summary").current_dir(tmp.path()).output().unwrap();
  let stderr = String::from_utf8_lossy(&run.stderr);
  let message = stderr.lines().next().and_then(|line| line.strip_prefix("error: ")).unwrap();
  assert_eq!(found, format!("4:9:1:{message}\n"));
}

fn shutdown_then_exit_is_status_0() {
  let mut child = start_server();
  let mut reader = initialize(&mut child);
  let stdin = child.stdin.as_mut().unwrap();
  stdin
    .write_all(&frame(
      &serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ))
    .unwrap();
  stdin
    .write_all(&frame(&serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})))
    .unwrap();
  let response = read_message(&mut reader).expect("an answer to shutdown");
  assert_eq!(response, serde_json::json!({"jsonrpc": "2.0", "id": 2, "result": null}));
  stdin.write_all(&frame(&serde_json::json!({"jsonrpc": "2.0", "method": "exit"}))).unwrap();
  let status = wait_within(&mut child, EXIT_LIMIT);
  assert_eq!(status.and_then(|status| status.code()), Some(0));
}

/// `shutdown` and `exit` sent at once, as a client that does not wait
/// does: the answer to `shutdown` (queued when `exit` arrives) is written
/// before the server ends. Ten times, as the server once lost it about
/// every other time.
fn answers_sent_before_exit_reach_the_client() {
  for _ in 0..10 {
    let mut child = start_server();
    let mut reader = initialize(&mut child);
    let stdin = child.stdin.as_mut().unwrap();
    let mut bytes = frame(&serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    bytes.extend(frame(&serde_json::json!({"jsonrpc": "2.0", "method": "exit"})));
    stdin.write_all(&bytes).unwrap();
    let response = read_message(&mut reader);
    assert_eq!(response, Some(serde_json::json!({"jsonrpc": "2.0", "id": 2, "result": null})));
    let status = wait_within(&mut child, EXIT_LIMIT);
    assert_eq!(status.and_then(|status| status.code()), Some(0));
  }
}

/// The client closes the server's input without `shutdown`: the server
/// ends (status 1) instead of waiting forever.
fn client_that_goes_away_ends_the_server() {
  let mut child = start_server();
  let _reader = initialize(&mut child);
  drop(child.stdin.take());
  let status = wait_within(&mut child, EXIT_LIMIT);
  assert_eq!(status.and_then(|status| status.code()), Some(1));
  assert_eq!(stderr_of(&mut child), "");
}

/// Sessions of random edits (out-of-range and mid-character positions,
/// reversed ranges) and every kind of request: each request gets an
/// answer, never an error but a refused rename (an internal error would be
/// a caught panic).
fn random_edit_sessions_answer_every_request() {
  let mut seed = 0x2545_f491_4f6c_dd1d_u64;
  let mut next = move |bound: u64| {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    seed % bound.max(1)
  };
  let tmp = tempfile::tempdir().unwrap();
  let path = tmp.path().join("justfile");
  let uri = format!("file://{}", path.display());
  let pieces = [
    "a:",
    " b",
    "\n",
    "  echo {{x}}\n",
    "é",
    "😀",
    "(",
    "'",
    "mod m\n",
    "import 'z'\n",
    ":=",
    "[",
    "]",
  ];
  for session in 0..40 {
    let mut messages = vec![
      serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
      serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
      serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "just", "version": 0, "text": "a: b\n  echo a\nb:\n"}}}),
    ];
    let mut requests = 0;
    for step in 1..60 {
      let position = |next: &mut dyn FnMut(u64) -> u64| serde_json::json!({"line": next(6), "character": next(12)});
      let text = pieces[next(pieces.len() as u64) as usize];
      messages.push(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": step},
        "contentChanges": [{"range": {"start": position(&mut next), "end": position(&mut next)}, "text": text}]}}));
      if next(3) == 0 {
        requests += 1;
        let methods = [
          "textDocument/formatting",
          "textDocument/documentSymbol",
          "textDocument/foldingRange",
          "textDocument/completion",
          "textDocument/hover",
          "textDocument/definition",
          "textDocument/references",
          "textDocument/documentHighlight",
          "textDocument/prepareRename",
          "textDocument/rename",
          "textDocument/signatureHelp",
          "textDocument/semanticTokens/full",
          "textDocument/codeLens",
          "workspace/symbol",
        ];
        let method = methods[next(methods.len() as u64) as usize];
        let mut params = serde_json::json!({
          "textDocument": {"uri": uri}, "position": position(&mut next), "newName": "renamed",
          "query": "a", "options": {"tabSize": 4, "insertSpaces": true}});
        if method == "textDocument/references" {
          params["context"] = serde_json::json!({"includeDeclaration": true});
        }
        messages.push(
          serde_json::json!({"jsonrpc": "2.0", "id": step, "method": method, "params": params}),
        );
      }
    }
    let received = just::lsp_session(messages);
    let answers: Vec<&serde_json::Value> =
      received.iter().filter(|message| message.get("id").is_some()).collect();
    assert_eq!(answers.len(), requests + 1, "session {session}: {received:#?}");
    for answer in answers {
      // A refused rename is an answer; an internal error is a caught panic.
      let code = answer.pointer("/error/code").and_then(serde_json::Value::as_i64);
      assert!(code.is_none() || code == Some(-32803), "session {session}: {answer}");
    }
  }
}

/// `just --lsp` starts the helper `just-language-server` installed beside
/// it (else on `PATH`); without one it says so, and another project's
/// `just-lsp` on `PATH` is not started in its place.
fn missing_helper_is_an_error() {
  let tmp = tempfile::tempdir().unwrap();
  let alone = tmp.path().join(format!("just{}", std::env::consts::EXE_SUFFIX));
  std::fs::copy(binary(), &alone).unwrap();
  let other = tmp.path().join(format!("just-lsp{}", std::env::consts::EXE_SUFFIX));
  std::fs::copy(binary(), &other).unwrap();
  let output = Command::new(&alone)
    .arg("--lsp")
    .env("PATH", tmp.path())
    .stdin(Stdio::null())
    .output()
    .unwrap();
  assert_eq!(output.status.code(), Some(1));
  let stderr = String::from_utf8_lossy(&output.stderr);
  assert!(
    stderr.starts_with("error: failed to start the language server `just-language-server"),
    "{stderr}"
  );
  assert_eq!(String::from_utf8_lossy(&output.stdout), "");
}

/// A program named `just-language-server` that is not this `just`'s server
/// (here one that says it is just-lsp 0.11, as that project's binary
/// does) is refused: `just --lsp` ends with an error instead of handing it
/// the editor's session.
#[cfg(unix)]
fn foreign_helper_is_refused() {
  use std::os::unix::fs::PermissionsExt;
  let tmp = tempfile::tempdir().unwrap();
  let alone = tmp.path().join("just");
  std::fs::copy(binary(), &alone).unwrap();
  let impostor = tmp.path().join("just-language-server");
  let served = tmp.path().join("served");
  std::fs::write(
    &impostor,
    format!(
      "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'just-lsp 0.11.0'; else touch '{}'; fi\n",
      served.display()
    ),
  )
  .unwrap();
  std::fs::set_permissions(&impostor, std::fs::Permissions::from_mode(0o755)).unwrap();
  let output = Command::new(&alone).arg("--lsp").stdin(Stdio::null()).output().unwrap();
  assert_eq!(output.status.code(), Some(1));
  assert_eq!(
    String::from_utf8_lossy(&output.stderr),
    format!(
      "error: `{}` is not this just's language server: its `--version` says `just-lsp 0.11.0`, \
       not `just-language-server {}`\n",
      impostor.display(),
      env!("CARGO_PKG_VERSION")
    )
  );
  assert_eq!(String::from_utf8_lossy(&output.stdout), "");
  assert!(!served.exists(), "the impostor was started to serve");
}

/// The helper answers `--version` with its name and `just`'s version, what
/// `just --lsp` checks.
fn helper_names_itself() {
  let helper = Path::new(&binary())
    .with_file_name(format!("just-language-server{}", std::env::consts::EXE_SUFFIX));
  let output = Command::new(helper).arg("--version").stdin(Stdio::null()).output().unwrap();
  assert!(output.status.success());
  assert_eq!(
    String::from_utf8_lossy(&output.stdout),
    format!("just-language-server {}\n", env!("CARGO_PKG_VERSION"))
  );
}

/// A client that registers file watchers when asked is asked, after
/// `initialized`, to watch justfiles and `*.just` files: the server hears
/// when an import changes on disk.
fn watchers_are_registered_with_a_client_that_registers_them() {
  let mut child = start_server();
  let stdin = child.stdin.as_mut().unwrap();
  let capabilities = serde_json::json!({
    "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}
  });
  let mut bytes = frame(&serde_json::json!({
    "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": capabilities}
  }));
  bytes
    .extend(frame(&serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})));
  stdin.write_all(&bytes).unwrap();
  let mut reader = BufReader::new(child.stdout.take().unwrap());
  assert_eq!(read_message(&mut reader).expect("an answer to initialize")["id"], 1);
  let request = read_message(&mut reader).expect("a registration");
  assert_eq!(request["method"], "client/registerCapability");
  let registration = &request["params"]["registrations"][0];
  assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
  let patterns: Vec<&str> = registration["registerOptions"]["watchers"]
    .as_array()
    .unwrap()
    .iter()
    .filter_map(|watcher| watcher["globPattern"].as_str())
    .collect();
  assert_eq!(patterns, ["**/*.just", "**/{justfile,Justfile,JUSTFILE,.justfile}"]);
  let stdin = child.stdin.as_mut().unwrap();
  let mut bytes =
    frame(&serde_json::json!({"jsonrpc": "2.0", "id": request["id"], "result": null}));
  bytes.extend(frame(&serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})));
  bytes.extend(frame(&serde_json::json!({"jsonrpc": "2.0", "method": "exit"})));
  stdin.write_all(&bytes).unwrap();
  assert_eq!(read_message(&mut reader).expect("an answer to shutdown")["id"], 2);
  let status = wait_within(&mut child, EXIT_LIMIT);
  assert_eq!(status.and_then(|status| status.code()), Some(0));
}

/// A `Content-Length` past what the server reads (2 GB, 10^12) is refused
/// with a message, never allocated (10^12 aborted the server); a body that
/// is not JSON-RPC is refused and the session goes on.
fn oversized_and_malformed_messages_are_refused() {
  for length in ["2000000000", "1000000000000"] {
    let mut child = start_server();
    let mut reader = initialize(&mut child);
    let stdin = child.stdin.as_mut().unwrap();
    let mut bytes = b"Content-Length: 1\r\n\r\n{".to_vec();
    bytes.extend(frame(&serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})));
    bytes.extend(format!("Content-Length: {length}\r\n\r\n{{}}").into_bytes());
    stdin.write_all(&bytes).unwrap();
    // The refusals come from the reader, the answer from the server: in
    // either order.
    let received: Vec<serde_json::Value> =
      (0..3).map(|_| read_message(&mut reader).expect("three messages")).collect();
    let answers: Vec<&serde_json::Value> =
      received.iter().filter(|message| message.get("id").is_some()).collect();
    assert_eq!(answers.len(), 1, "{received:?}");
    assert_eq!(answers[0]["id"], 2);
    let refusals: Vec<&str> = received
      .iter()
      .filter(|message| message["method"] == "window/showMessage" && message["params"]["type"] == 1)
      .filter_map(|message| message["params"]["message"].as_str())
      .collect();
    assert_eq!(refusals.len(), 2, "{received:?}");
    assert!(
      refusals[0].starts_with("a message that is not JSON-RPC was skipped: "),
      "{refusals:?}"
    );
    assert_eq!(
      refusals[1],
      format!(
        "a message of {length} bytes is more than the 134217728 bytes the server reads: it is \
         skipped"
      )
    );
    drop(child.stdin.take());
    let status = wait_within(&mut child, EXIT_LIMIT);
    assert_eq!(status.and_then(|status| status.code()), Some(1));
    assert_eq!(stderr_of(&mut child), "");
  }
}
