//! The Remote Execution API store (`--cache-url grpc://…`) against a real
//! BuildGrid on 127.0.0.1 (from the Python registry, in the virtual
//! environment `.ci/reapi-venv` makes under `target/`), started once for the
//! test binary with its in-memory CAS, ActionCache and ByteStream, and an
//! independent client (`tests/reapi/client.py`, with BuildGrid's REAPI
//! messages) that reads what `just` published and publishes results for
//! `just` to restore, hostile ones included. Without BuildGrid the tests are
//! ignored (and CI, which installs it, fails on that).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use serde_json::{json, Value as Json};

use crate::common::farm::venv;
use crate::common::process::{self, poll_until, spawn_piped};
use crate::common::servers::{certificates, free_port, wait_for_port};
use crate::common::store::{
  assert_built, mode, restores_after_undo, shares_between_checkouts, umask, Workspace, BUILT,
};
use crate::common::text;

tests! {
  ;
  extensions:
  remote_cache_is_shared_by_two_checkouts if buildgrid_installed,
  remote_cache_restores_outputs_after_an_undo if buildgrid_installed,
  remote_cache_publishes_a_standard_action if buildgrid_installed,
  remote_cache_prints_the_action_digest_with_vv if buildgrid_installed,
  remote_cache_sends_the_instance_name if buildgrid_installed,
  remote_cache_restores_what_another_client_published if buildgrid_installed,
  remote_cache_forged_unix_mode_keeps_only_permission_bits if buildgrid_installed,
  remote_cache_edited_output_is_restored if buildgrid_installed,
  remote_cache_read_only_never_publishes if buildgrid_installed,
  remote_cache_server_down_warns_once_and_runs if buildgrid_installed,
  remote_cache_over_tls_trusts_a_private_ca_through_ssl_cert_file if buildgrid_installed,
  remote_cache_over_tls_refuses_an_unknown_issuer if buildgrid_installed,
  remote_cache_credentials_are_never_shown if buildgrid_installed,
  remote_cache_server_stopping_mid_run_warns_once if buildgrid_installed,
  remote_cache_large_output_goes_through_bytestream if buildgrid_installed,
  remote_cache_two_thousand_inputs if buildgrid_installed,
  #[cfg(unix)]
  remote_cache_interrupted_restore_leaves_no_staging if buildgrid_installed,
  remote_cache_refuses_paths_outside_the_outputs if buildgrid_installed,
  remote_cache_refuses_a_blob_that_does_not_match_its_digest if buildgrid_installed,
  remote_cache_refuses_escaping_links if buildgrid_installed,
  remote_cache_refuses_a_huge_tree if buildgrid_installed,
  remote_cache_refuses_a_four_gigabyte_declared_size if buildgrid_installed,
  shell_line_recipe_is_not_an_action if buildgrid_installed,
}

fn buildgrid_installed() -> bool {
  venv().join("bin/bgd").is_file()
}

/// The BuildGrid of this test binary.
struct BuildGrid {
  child: Child,
  port: u16,
  /// Its TLS port, with a certificate of the private CA `TLS/ca.pem`.
  tls_port: u16,
  /// Its disk storage (instance `disk`), and its configuration.
  directory: tempfile::TempDir,
}

static SERVER: OnceLock<Mutex<Option<BuildGrid>>> = OnceLock::new();

/// Instances: `""` and `main` in memory, `disk` on disk (whose blobs a
/// test may change behind the server's back).
const CONFIG: &str = r#"server:
  - !channel
    address: "127.0.0.1:PORT"
    insecure-mode: true
  - !channel
    address: "127.0.0.1:TLS_PORT"
    insecure-mode: false
    credentials:
      tls-server-key: TLS/server.key
      tls-server-cert: TLS/server.pem
storages:
  - !lru-storage &mem
    size: 512MB
  - !disk-storage &disk
    path: DISK
caches:
  - !lru-action-cache &ac
    storage: *mem
    max-cached-refs: 4096
    allow-updates: true
    cache-failed-actions: false
  - !lru-action-cache &main
    storage: *mem
    max-cached-refs: 4096
    allow-updates: true
    cache-failed-actions: false
  - !lru-action-cache &diskac
    storage: *disk
    max-cached-refs: 4096
    allow-updates: true
    cache-failed-actions: false
instances:
  - name: ""
    services:
      - !action-cache
        cache: *ac
      - !cas
        storage: *mem
      - !bytestream
        storage: *mem
  - name: "main"
    services:
      - !action-cache
        cache: *main
      - !cas
        storage: *mem
      - !bytestream
        storage: *mem
  - name: "disk"
    services:
      - !action-cache
        cache: *diskac
      - !cas
        storage: *disk
      - !bytestream
        storage: *disk
"#;

/// The server's port, started on first use.
fn server() -> u16 {
  let mut server =
    SERVER.get_or_init(|| Mutex::new(None)).lock().unwrap_or_else(|p| p.into_inner());
  if let Some(server) = server.as_ref() {
    return server.port;
  }
  let directory = tempfile::tempdir().expect("tempdir");
  let port = free_port();
  let tls_port = free_port();
  let disk = directory.path().join("disk");
  fs::create_dir_all(&disk).expect("disk");
  let tls = directory.path().join("tls");
  fs::create_dir_all(&tls).expect("tls");
  certificates(&tls);
  let config = CONFIG
    .replace("TLS_PORT", &tls_port.to_string())
    .replace("PORT", &port.to_string())
    .replace("DISK", &disk.display().to_string())
    .replace("TLS", &tls.display().to_string());
  let path = directory.path().join("buildgrid.yml");
  fs::write(&path, config).expect("config");
  let log = fs::File::create(directory.path().join("bgd.log")).expect("log");
  let mut child = Command::new(venv().join("bin/bgd"))
    .args(["server", "start"])
    .arg(&path)
    .stdin(Stdio::null())
    .stdout(log.try_clone().expect("log"))
    .stderr(log)
    .spawn()
    .expect("start bgd");
  wait_for_port(port, &mut child, "bgd");
  wait_for_port(tls_port, &mut child, "bgd (TLS)");
  *server = Some(BuildGrid { child, port, tls_port, directory });
  port
}

/// The TLS port and the private CA's certificate.
fn tls() -> (u16, PathBuf) {
  server();
  let server = SERVER.get().expect("server").lock().unwrap_or_else(|p| p.into_inner());
  let server = server.as_ref().expect("server");
  (server.tls_port, server.directory.path().join("tls/ca.pem"))
}

/// Stop the server, if a test started it (at the end of the test binary).
pub(crate) fn stop_server() {
  let Some(server) = SERVER.get() else {
    return;
  };
  if let Some(mut server) = server.lock().unwrap_or_else(|p| p.into_inner()).take() {
    let _ = server.child.kill();
    let _ = server.child.wait();
  }
}

fn disk() -> PathBuf {
  server();
  let server = SERVER.get().expect("server").lock().unwrap_or_else(|p| p.into_inner());
  server.as_ref().expect("server").directory.path().join("disk")
}

fn url(instance: &str) -> String {
  let port = server();
  if instance.is_empty() {
    format!("--cache-url=grpc://127.0.0.1:{port}")
  } else {
    format!("--cache-url=grpc://127.0.0.1:{port}/{instance}")
  }
}

/// The independent client: `show` or `publish` for an action.
fn client(instance: &str, arguments: &[&str]) -> Output {
  let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reapi/client.py");
  let output = Command::new(venv().join("bin/python"))
    .arg(script)
    .arg(format!("127.0.0.1:{}", server()))
    .arg(instance)
    .args(arguments)
    .output()
    .expect("run the REAPI client");
  assert_eq!(output.status.code(), Some(0), "client: {}", text(&output.stderr));
  output
}

fn show(instance: &str, action: &str) -> Json {
  serde_json::from_slice(&client(instance, &["show", action]).stdout).expect("client JSON")
}

fn publish(instance: &str, action: &str, spec: &Json) {
  let mut file = tempfile::NamedTempFile::new().expect("spec");
  file.write_all(spec.to_string().as_bytes()).expect("spec");
  client(instance, &["publish", action, &file.path().display().to_string()]);
}

/// The action digest `just -vv` printed.
fn action_of(output: &Output) -> String {
  let stderr = text(&output.stderr);
  let lines: Vec<&str> =
    stderr.lines().filter_map(|line| line.strip_prefix("===> cache action ")).collect();
  assert_eq!(lines.len(), 1, "stderr: {stderr}");
  lines[0].to_string()
}

/// A checkout's action: run with `-vv` and `--cache-read-only` (nothing
/// published), the digest it printed.
fn action(workspace: &Workspace, checkout: &Path, instance: &str) -> String {
  let output = workspace.just(checkout, &[&url(instance), "-vv", "--cache-read-only"]);
  assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
  action_of(&output)
}

/// A checkout of `JUSTFILE` whose action is this workspace's own (an input
/// names the workspace), so that tests running at once share no action.
fn checkout(workspace: &Workspace, name: &str) -> PathBuf {
  let directory = workspace.checkout(name, "A\n");
  let unique = workspace.root.path().file_name().unwrap().to_string_lossy().into_owned();
  fs::write(directory.join("src/workspace.txt"), unique).unwrap();
  directory
}

// The only tests of the plain `JUSTFILE` action, on instances of their own
// (and the TLS one on `disk`).
fn remote_cache_is_shared_by_two_checkouts() {
  shares_between_checkouts(&[&url("")], |_| {});
}

fn remote_cache_restores_outputs_after_an_undo() {
  restores_after_undo(&[&url("main")]);
}

fn remote_cache_publishes_a_standard_action() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let first = workspace.just(&a, &[&url(""), "-vv"]);
  assert_eq!(first.status.code(), Some(0), "stderr: {}", text(&first.stderr));
  let shown = show("", &action_of(&first));
  assert_eq!(shown["arguments"], json!(["/bin/sh", ".just-scripts/build"]));
  assert_eq!(shown["working_directory"], "");
  assert_eq!(shown["output_paths"], json!(["bin", "out"]));
  assert_eq!(shown["platform"]["OSFamily"], std::env::consts::OS);
  assert_eq!(shown["platform"]["ISA"], std::env::consts::ARCH);
  assert_eq!(shown["inputs"]["src/a.txt"], "A\n");
  assert!(shown["inputs"][".just-scripts/build"].as_str().unwrap().contains("cat src/a.txt"));
  let result = &shown["result"];
  assert_eq!(result["exit_code"], 0);
  assert_eq!(result["stdout"], "building from A\n");
  assert_eq!(result["stderr"], "a warning\n");
  assert_eq!(result["files"]["bin"]["content"], "#!/bin/sh\necho hi\n");
  assert_eq!(result["files"]["bin"]["executable"], true);
  assert_eq!(result["files"]["bin"]["mode"], 0o750);
  let out = &result["directories"]["out"];
  assert_eq!(out["sub/file"]["content"], "A\n");
  assert_eq!(out["link"]["link"], "sub/file");
}

fn remote_cache_prints_the_action_digest_with_vv() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let b = checkout(&workspace, "elsewhere/b");
  let first = action_of(&workspace.just(&a, &[&url(""), "-vv"]));
  let second = action_of(&workspace.just(&b, &[&url(""), "-vv"]));
  assert_eq!(first, second);
  let (hash, size) = first.split_once('/').unwrap();
  assert_eq!(hash.len(), 64);
  assert!(size.parse::<u64>().unwrap() > 0);
  assert_eq!(workspace.runs(), 1);
}

fn remote_cache_sends_the_instance_name() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let output = workspace.just(&a, &[&url("main"), "-vv"]);
  assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
  let action = action_of(&output);
  assert_eq!(show("main", &action)["result"]["stdout"], "building from A\n");
  assert_eq!(show("", &action)["result"], Json::Null);
}

/// The outputs of `JUSTFILE`, as another client would publish them.
fn other_clients_result(content: &str) -> Json {
  json!({
    "files": [{"path": "bin", "content": "#!/bin/sh\necho other\n", "mode": 0o750, "executable": true}],
    "directories": [{"path": "out", "entries": {"sub": {"file": content}, "link": {"link": "sub/file"}}}],
    "stdout": BUILT,
    "stderr": "a warning\n",
  })
}

fn remote_cache_restores_what_another_client_published() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let action = action(&workspace, &a, "");
  let b = checkout(&workspace, "elsewhere/b");
  publish("", &action, &other_clients_result("from the other client\n"));
  let output = workspace.just(&b, &[&url("")]);
  assert_built(&output, 0);
  assert_eq!(workspace.runs(), 1, "b ran the recipe");
  assert_eq!(fs::read_to_string(b.join("out/sub/file")).unwrap(), "from the other client\n");
  assert_eq!(fs::read_to_string(b.join("bin")).unwrap(), "#!/bin/sh\necho other\n");
  assert_eq!(mode(&b.join("bin")), 0o750);
  assert_eq!(fs::read_link(b.join("out/link")).unwrap(), Path::new("sub/file"));
}

/// A server's `unix_mode` is hostile too: setuid, setgid and sticky bits
/// are dropped and the umask applies, as for any store's entry.
fn remote_cache_forged_unix_mode_keeps_only_permission_bits() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let action = action(&workspace, &a, "");
  let b = checkout(&workspace, "elsewhere/b");
  let mut result = other_clients_result("forged\n");
  result["files"][0]["mode"] = json!(0o6777);
  publish("", &action, &result);
  assert_built(&workspace.just(&b, &[&url("")]), 0);
  assert_eq!(workspace.runs(), 1, "b ran the recipe");
  assert_eq!(mode(&b.join("bin")), 0o777 & !umask());
}

fn remote_cache_edited_output_is_restored() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  assert_built(&workspace.just(&a, &[&url("")]), 0);
  fs::write(a.join("out/sub/file"), "changed by hand\n").unwrap();
  assert_built(&workspace.just(&a, &[&url("")]), 0);
  assert_eq!(workspace.runs(), 1, "the output was restored, not rebuilt");
  assert_eq!(fs::read_to_string(a.join("out/sub/file")).unwrap(), "A\n");
}

fn remote_cache_read_only_never_publishes() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let action = action(&workspace, &a, "");
  assert_eq!(show("", &action)["result"], Json::Null);
  let b = checkout(&workspace, "b");
  assert_built(&workspace.just(&b, &[&url(""), "--cache-read-only"]), 0);
  assert_eq!(workspace.runs(), 2);
  assert_eq!(show("", &action)["result"], Json::Null);
}

fn remote_cache_server_down_warns_once_and_runs() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let port = free_port();
  let output = workspace.just(&a, &[&format!("--cache-url=grpc://user:secret@127.0.0.1:{port}")]);
  assert_built(&output, 1);
  let stderr = text(&output.stderr);
  assert!(stderr.starts_with("warning: shared cache not used: "), "{stderr}");
  assert!(!stderr.contains("secret"), "{stderr}");
  assert_eq!(workspace.runs(), 1);
}

const LARGE: &str = r#"set unstable
set lists

[cache(inputs=['seed'], outputs=['big'])]
build:
  #!/bin/sh
  yes "$(cat seed)" | head -c 6291456 > big
  echo ran >> "$COUNTER"
"#;

fn remote_cache_large_output_goes_through_bytestream() {
  let workspace = Workspace::new();
  let checkout = |name: &str| {
    let directory = workspace.root.path().join(name);
    fs::create_dir_all(&directory).unwrap();
    fs::write(directory.join("justfile"), LARGE).unwrap();
    fs::write(directory.join("seed"), "six mebibytes").unwrap();
    directory
  };
  let a = checkout("a");
  let first = workspace.just(&a, &[&url(""), "-vv"]);
  assert_eq!(first.status.code(), Some(0), "stderr: {}", text(&first.stderr));
  let b = checkout("b");
  let second = workspace.just(&b, &[&url("")]);
  assert_eq!(second.status.code(), Some(0), "stderr: {}", text(&second.stderr));
  assert_eq!(text(&second.stderr), "");
  assert_eq!(workspace.runs(), 1);
  let big = fs::read(b.join("big")).unwrap();
  assert_eq!(big.len(), 6 << 20);
  assert_eq!(big, fs::read(a.join("big")).unwrap());
}

fn remote_cache_two_thousand_inputs() {
  let workspace = Workspace::new();
  let checkout = |name: &str| {
    let directory = workspace.root.path().join(name);
    for index in 0..2000 {
      let file = directory.join(format!("src/{}/{index}.txt", index % 20));
      fs::create_dir_all(file.parent().unwrap()).unwrap();
      fs::write(file, format!("{index}\n")).unwrap();
    }
    fs::write(
      directory.join("justfile"),
      "set unstable\nset lists\n\n[cache(inputs=['src/**/*.txt'], outputs=['sum'])]\nbuild:\n  #!/bin/sh\n  cat src/*/*.txt | wc -l > sum\n  echo ran >> \"$COUNTER\"\n",
    )
    .unwrap();
    directory
  };
  let a = checkout("a");
  let first = workspace.just(&a, &[&url(""), "-vv"]);
  assert_eq!(first.status.code(), Some(0), "stderr: {}", text(&first.stderr));
  let shown = show("", &action_of(&first));
  assert_eq!(shown["inputs"].as_object().unwrap().len(), 2001);
  assert_eq!(shown["inputs"]["src/7/1007.txt"], "1007\n");
  let b = checkout("b");
  let second = workspace.just(&b, &[&url("")]);
  assert_eq!(second.status.code(), Some(0), "stderr: {}", text(&second.stderr));
  assert_eq!(workspace.runs(), 1);
  assert_eq!(fs::read_to_string(b.join("sum")).unwrap().trim(), "2000");
}

/// A hostile result for checkout `b`'s action is refused with one warning
/// naming `reason`, the recipe runs and nothing outside its outputs changes.
fn refuses(instance: &str, spec: Json, reason: &str) {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let action = action(&workspace, &a, instance);
  publish(instance, &action, &spec);
  let b = checkout(&workspace, "b");
  let justfile = fs::read(b.join("justfile")).unwrap();
  // BuildGrid checks a result's blobs before it answers (a Tree of a
  // million entries takes it a while on a loaded machine).
  let output = workspace.just(&b, &[&url(instance), "--cache-timeout=600"]);
  assert_built(&output, 1);
  let stderr = text(&output.stderr);
  assert!(stderr.contains(&format!("entry `action {action}` refused (")), "{stderr}");
  assert!(stderr.contains(reason), "{stderr}");
  assert_eq!(workspace.runs(), 2);
  assert_eq!(fs::read(b.join("justfile")).unwrap(), justfile);
  assert_eq!(fs::read_to_string(b.join("out/sub/file")).unwrap(), "A\n");
  let names: Vec<String> = fs::read_dir(&b)
    .unwrap()
    .map(|entry| entry.unwrap().file_name().into_string().unwrap())
    .collect();
  let mut names = names;
  names.sort();
  assert_eq!(names, [".justcache", "bin", "justfile", "out", "src"]);
}

fn remote_cache_refuses_paths_outside_the_outputs() {
  let mut spec = other_clients_result("x\n");
  spec["files"].as_array_mut().unwrap().push(json!({"path": "justfile", "content": "evil"}));
  refuses("", spec, "path `justfile` is outside the declared outputs");
  let mut spec = other_clients_result("x\n");
  spec["files"].as_array_mut().unwrap().push(json!({"path": "../escape", "content": "evil"}));
  refuses("", spec, "path `../escape` is not normalised");
}

fn remote_cache_refuses_a_blob_that_does_not_match_its_digest() {
  let mut spec = other_clients_result("corrupted on the server's disk\n");
  spec["corrupt"] = json!(["corrupted on the server's disk\n"]);
  spec["disk"] = json!(disk());
  refuses("disk", spec, "does not match its digest");
}

fn remote_cache_refuses_escaping_links() {
  for (target, reason) in [
    ("/etc/passwd", "link target `/etc/passwd` leaves the output"),
    ("../../justfile", "leaves the output"),
  ] {
    let mut spec = other_clients_result("x\n");
    spec["directories"][0]["entries"]["link"] = json!({"link": target});
    refuses("", spec, reason);
  }
}

fn remote_cache_refuses_a_huge_tree() {
  let mut spec = other_clients_result("x\n");
  spec["directories"] = json!([{"path": "out", "million": true}]);
  refuses("", spec, "is larger than 64 MiB");
}

fn remote_cache_refuses_a_four_gigabyte_declared_size() {
  let mut spec = other_clients_result("x\n");
  spec["files"][0]["size"] = json!(4u64 << 30);
  // The disk storage finds a blob by its hash alone, so the server serves
  // the result.
  refuses("disk", spec, "blob `");
}

/// A TCP proxy to the server that can be stopped: its listener closed and
/// every connection through it cut.
struct Proxy {
  port: u16,
  stopped: std::sync::Arc<std::sync::atomic::AtomicBool>,
  connections: std::sync::Arc<Mutex<Vec<std::net::TcpStream>>>,
}

impl Proxy {
  fn start(target: u16) -> Proxy {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let stopped = Arc::new(AtomicBool::new(false));
    let connections: Arc<Mutex<Vec<std::net::TcpStream>>> = Arc::default();
    let (flag, kept) = (Arc::clone(&stopped), Arc::clone(&connections));
    std::thread::spawn(move || {
      while !flag.load(Ordering::SeqCst) {
        let Ok((client, _)) = listener.accept() else {
          std::thread::sleep(std::time::Duration::from_millis(5));
          continue;
        };
        client.set_nonblocking(false).unwrap();
        let server = std::net::TcpStream::connect(("127.0.0.1", target)).unwrap();
        let mut kept = kept.lock().unwrap();
        kept.push(client.try_clone().unwrap());
        kept.push(server.try_clone().unwrap());
        for (mut from, mut to) in
          [(client.try_clone().unwrap(), server.try_clone().unwrap()), (server, client)]
        {
          std::thread::spawn(move || {
            let _ = std::io::copy(&mut from, &mut to);
            let _ = to.shutdown(std::net::Shutdown::Both);
          });
        }
      }
    });
    Proxy { port, stopped, connections }
  }

  fn stop(&self) {
    self.stopped.store(true, std::sync::atomic::Ordering::SeqCst);
    for connection in self.connections.lock().unwrap().iter() {
      let _ = connection.shutdown(std::net::Shutdown::Both);
    }
  }
}

const STOPPING: &str = r#"set unstable
set lists

[cache(inputs=['seed'], outputs=['out'])]
build:
  #!/bin/sh
  echo built > out
  touch "$STOP"
  for i in $(seq 600); do [ -e "$STOPPED" ] && break; sleep 0.05; done
  echo ran >> "$COUNTER"
"#;

fn remote_cache_server_stopping_mid_run_warns_once() {
  let workspace = Workspace::new();
  let directory = workspace.root.path().join("a");
  fs::create_dir_all(&directory).unwrap();
  fs::write(directory.join("justfile"), STOPPING).unwrap();
  fs::write(directory.join("seed"), workspace.root.path().display().to_string()).unwrap();
  let proxy = Proxy::start(server());
  let (stop, stopped) = (workspace.root.path().join("stop"), workspace.root.path().join("stopped"));
  let mut command =
    workspace.command(&directory, &[&format!("--cache-url=grpc://127.0.0.1:{}", proxy.port)]);
  command.env("STOP", &stop).env("STOPPED", &stopped);
  let child = spawn_piped(&mut command);
  assert!(poll_until(Duration::from_secs(120), || stop.exists()), "the recipe did not start");
  proxy.stop();
  fs::write(&stopped, "").unwrap();
  let output = child.wait_with_output().unwrap();
  let stderr = text(&output.stderr);
  assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
  assert_eq!(
    stderr.lines().filter(|line| line.starts_with("warning: ")).count(),
    1,
    "stderr: {stderr}"
  );
  assert!(
    stderr.starts_with(&format!(
      "warning: shared cache `127.0.0.1:{}` failed while publishing an action result (",
      proxy.port
    )),
    "{stderr}"
  );
  assert!(stderr.ends_with("); running without it\n"), "{stderr}");
  assert_eq!(fs::read_to_string(directory.join("out")).unwrap(), "built\n");
  assert_eq!(workspace.runs(), 1);
}

/// The names in `directory` starting with `prefix`, at any depth.
#[cfg(unix)]
fn named(directory: &Path, prefix: &str) -> Vec<PathBuf> {
  let mut found = Vec::new();
  let mut pending = vec![directory.to_path_buf()];
  while let Some(directory) = pending.pop() {
    for entry in fs::read_dir(&directory).into_iter().flatten().flatten() {
      let path = entry.path();
      if entry.file_name().to_string_lossy().starts_with(prefix) {
        found.push(path.clone());
      }
      if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
        pending.push(path);
      }
    }
  }
  found
}

#[cfg(unix)]
fn remote_cache_interrupted_restore_leaves_no_staging() {
  let workspace = Workspace::new();
  let checkout = |name: &str| {
    let directory = workspace.root.path().join(name);
    fs::create_dir_all(&directory).unwrap();
    fs::write(directory.join("justfile"), LARGE.replace("6291456", "50331648")).unwrap();
    fs::write(directory.join("seed"), workspace.root.path().display().to_string()).unwrap();
    directory
  };
  let a = checkout("a");
  let first = workspace.just(&a, &[&url("")]);
  assert_eq!(first.status.code(), Some(0), "stderr: {}", text(&first.stderr));
  let b = checkout("b");
  let temporary = tempfile::tempdir().unwrap();
  let mut command = workspace.command(&b, &[&url("")]);
  command.env("TMPDIR", temporary.path());
  let mut child = spawn_piped(&mut command);
  // Interrupted while the helper writes a blob into the staging directory.
  let transfer = poll_until(Duration::from_secs(120), || {
    assert!(child.try_wait().unwrap().is_none(), "just ended before the transfer");
    !named(temporary.path(), "partial-").is_empty()
  });
  assert!(transfer, "no transfer started");
  // The child just spawned, which has not been reaped.
  process::signal(process::pid(&child), libc::SIGINT);
  let output = child.wait_with_output().unwrap();
  assert_eq!(output.status.code(), Some(130), "stderr: {}", text(&output.stderr));
  // The helper, told by the end of its input, is gone within moments.
  let mut left = Vec::new();
  let gone = poll_until(Duration::from_secs(180), || {
    left = named(temporary.path(), ".just-reapi-");
    left.is_empty()
  });
  assert!(gone, "staging left: {left:?}");
  assert_eq!(named(&b, ".just-restore-"), Vec::<PathBuf>::new());
  assert!(!b.join("big").exists());
  assert_eq!(workspace.runs(), 1);
}

fn remote_cache_over_tls_trusts_a_private_ca_through_ssl_cert_file() {
  let (port, ca) = tls();
  // The plain `JUSTFILE` action on an instance of its own (see above).
  let url = format!("--cache-url=grpcs://127.0.0.1:{port}/disk");
  shares_between_checkouts(&[&url], |command| {
    command.env("SSL_CERT_FILE", &ca);
  });
}

fn remote_cache_over_tls_refuses_an_unknown_issuer() {
  let (port, _) = tls();
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let output = workspace.just(&a, &[&format!("--cache-url=grpcs://127.0.0.1:{port}")]);
  assert_built(&output, 1);
  let stderr = text(&output.stderr);
  assert!(stderr.starts_with("warning: shared cache not used: cannot connect: "), "{stderr}");
  assert!(stderr.contains("UnknownIssuer"), "{stderr}");
}

/// A password in the URL and request headers (BuildGrid ignores both) reach
/// no message, even with `-vv`, and the store works with them.
fn remote_cache_credentials_are_never_shown() {
  let workspace = Workspace::new();
  let a = checkout(&workspace, "a");
  let b = checkout(&workspace, "b");
  let port = server();
  let headers = workspace.root.path().join("headers");
  fs::write(&headers, "# BuildBuddy's\nx-buildbuddy-api-key: FILE-TOKEN\n").unwrap();
  let url = format!("--cache-url=grpc://user:PASSWORD@127.0.0.1:{port}");
  for checkout in [&a, &b] {
    let output = workspace
      .command(checkout, &[&url, "-vv"])
      .env("JUST_CACHE_HEADERS", "x-api-key: ENV-TOKEN")
      .env("JUST_CACHE_HEADERS_FILE", &headers)
      .output()
      .unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    for secret in ["PASSWORD", "ENV-TOKEN", "FILE-TOKEN"] {
      assert!(!stderr.contains(secret) && !text(&output.stdout).contains(secret), "{stderr}");
    }
  }
  assert_eq!(workspace.runs(), 1);
  // A checkout without a local entry: it runs, the store unused.
  let c = checkout(&workspace, "c");
  let output =
    workspace.command(&c, &[&url]).env("JUST_CACHE_HEADERS", "not a header").output().unwrap();
  assert_built(&output, 1);
  assert!(
    text(&output.stderr)
      .starts_with("warning: shared cache not used: a cache header is not `NAME: VALUE`\n"),
    "{}",
    text(&output.stderr)
  );
}

/// A `[cache]` recipe of shell lines is no Action: not shared (one warning,
/// the recipe runs), and under `--remote-executor` only an error, never run
/// here unasked.
fn shell_line_recipe_is_not_an_action() {
  let workspace = Workspace::new();
  let a = workspace.root.path().join("a");
  fs::create_dir_all(&a).unwrap();
  fs::write(
    a.join("justfile"),
    "set unstable\nset lists\n\n[cache(inputs=['seed'], outputs=['out'])]\nbuild:\n  @echo hi > out\n  @echo ran >> \"$COUNTER\"\n",
  )
  .unwrap();
  fs::write(a.join("seed"), "seed\n").unwrap();
  let reason = "its body is shell lines (only script recipes are Remote Execution API actions)";
  let output = workspace.just(&a, &[&url("")]);
  assert_eq!(output.status.code(), Some(0), "stderr: {}", text(&output.stderr));
  assert_eq!(text(&output.stderr), format!("warning: recipe `build` is not shared: {reason}\n"));
  assert_eq!(workspace.runs(), 1);
  fs::remove_dir_all(a.join(".justcache")).unwrap();
  let executor = url("").replace("--cache-url", "--remote-executor");
  let output = workspace.just(&a, &[&executor]);
  assert_eq!(output.status.code(), Some(1));
  assert_eq!(
    text(&output.stderr),
    format!("error: recipe `build` cannot run remotely: {reason}\n")
  );
  assert_eq!(workspace.runs(), 1);
}
