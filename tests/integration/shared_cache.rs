//! The shared `[cache]` store against real servers on 127.0.0.1, started by
//! the tests: nginx with `WebDAV` for `--cache-url http://…`, moto's S3 server
//! for `--cache-url s3://…`, and a plain directory for `--cache-dir`. A
//! missing server program fails the test (`.ci/run` installs both).

use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

tests! {
  ;
  extensions:
  directory_store_is_shared_by_two_checkouts,
  directory_store_restores_outputs_after_an_undo,
  http_store_is_shared_by_two_checkouts,
  http_store_restores_outputs_after_an_undo,
  http_store_corrupt_blob_is_ignored_with_one_warning,
  http_store_killed_mid_upload_publishes_nothing,
  http_store_unreachable_or_silent_never_fails_the_run,
  http_store_read_only_never_writes,
  http_store_concurrent_writers_of_one_entry,
  network_store_without_its_helper_warns_once_and_runs,
  s3_store_is_shared_by_two_checkouts,
  s3_store_read_only_never_writes,
}

pub(crate) const JUSTFILE: &str = r#"set unstable
set lists

[cache(inputs=['src/*.txt'], outputs=['out', 'bin'])]
build:
  #!/bin/sh
  echo "building from $(cat src/a.txt)"
  echo "a warning" >&2
  mkdir -p out/sub
  cat src/a.txt > out/sub/file
  ln -sf sub/file out/link
  printf '#!/bin/sh\necho hi\n' > bin
  chmod 750 bin
  echo ran >> "$COUNTER"
"#;

pub(crate) const BUILT: &str = "building from A\n";

/// A workspace: checkouts of one project in different directories, and a
/// counter of the recipe's runs.
pub(crate) struct Workspace {
  pub(crate) root: tempfile::TempDir,
}

impl Workspace {
  pub(crate) fn new() -> Self {
    Workspace { root: tempfile::tempdir().expect("tempdir") }
  }

  pub(crate) fn checkout(&self, name: &str, source: &str) -> PathBuf {
    let directory = self.root.path().join(name);
    fs::create_dir_all(directory.join("src")).expect("checkout");
    fs::write(directory.join("justfile"), JUSTFILE).expect("justfile");
    fs::write(directory.join("src/a.txt"), source).expect("source");
    directory
  }

  pub(crate) fn runs(&self) -> usize {
    fs::read_to_string(self.root.path().join("count")).map_or(0, |text| text.lines().count())
  }

  pub(crate) fn command(&self, checkout: &Path, store: &[&str]) -> Command {
    let mut command = Command::new(crate::common::binary());
    crate::common::clean_environment(&mut command);
    command
      .current_dir(checkout)
      .env("COUNTER", self.root.path().join("count"))
      .args(store)
      .arg("build")
      .stdin(Stdio::null());
    command
  }

  pub(crate) fn just(&self, checkout: &Path, store: &[&str]) -> Output {
    self.command(checkout, store).output().expect("run just")
  }
}

pub(crate) fn text(bytes: &[u8]) -> String {
  String::from_utf8_lossy(bytes).into_owned()
}

/// The run succeeded, printed what the recipe prints and warned `warnings` times.
pub(crate) fn assert_built(output: &Output, warnings: usize) {
  let stderr = text(&output.stderr);
  assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
  assert_eq!(text(&output.stdout), BUILT, "stderr: {stderr}");
  let (warned, rest): (Vec<&str>, Vec<&str>) =
    stderr.split_inclusive('\n').partition(|line| line.starts_with("warning: "));
  assert_eq!(warned.len(), warnings, "stderr: {stderr}");
  assert_eq!(rest.concat(), "a warning\n", "stderr: {stderr}");
}

#[cfg(unix)]
pub(crate) fn mode(path: &Path) -> u32 {
  use std::os::unix::fs::PermissionsExt;
  fs::symlink_metadata(path).expect("metadata").permissions().mode() & 0o7777
}

/// Make a symbolic link at `link` to `target`.
#[cfg(unix)]
pub(crate) fn symlink(target: &str, link: &Path) {
  std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// Both checkouts hold the same outputs, byte for byte and mode for mode.
fn assert_same_outputs(a: &Path, b: &Path, source: &str) {
  assert_eq!(fs::read_to_string(b.join("out/sub/file")).expect("output"), source);
  for path in ["out/sub/file", "bin"] {
    assert_eq!(fs::read(a.join(path)).expect("a"), fs::read(b.join(path)).expect("b"), "{path}");
    assert_eq!(mode(&a.join(path)), mode(&b.join(path)), "mode of {path}");
  }
  assert_eq!(mode(&b.join("bin")), 0o750);
  assert_eq!(fs::read_link(b.join("out/link")).expect("link"), Path::new("sub/file"));
}

pub(crate) fn shares_between_checkouts(store: &[&str], setup: impl Fn(&mut Command)) {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let b = workspace.checkout("elsewhere/b", "A\n");
  let run = |checkout: &Path| {
    let mut command = workspace.command(checkout, store);
    setup(&mut command);
    command.output().expect("run just")
  };
  let first = run(&a);
  assert_built(&first, 0);
  let second = run(&b);
  assert_built(&second, 0);
  assert_eq!(second.stdout, first.stdout);
  assert_eq!(second.stderr, first.stderr);
  assert_eq!(workspace.runs(), 1, "the second checkout ran the recipe");
  assert_same_outputs(&a, &b, "A\n");
}

pub(crate) fn restores_after_undo(store: &[&str]) {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, store), 0);
  fs::write(a.join("src/a.txt"), "B\n").expect("edit");
  assert_eq!(workspace.just(&a, store).status.code(), Some(0));
  fs::write(a.join("src/a.txt"), "A\n").expect("undo");
  assert_built(&workspace.just(&a, store), 0);
  assert_eq!(workspace.runs(), 2, "A was restored, not rebuilt");
  assert_eq!(fs::read_to_string(a.join("out/sub/file")).expect("output"), "A\n");
}

fn directory_store_is_shared_by_two_checkouts() {
  let store = tempfile::tempdir().expect("store");
  let flag = format!("--cache-dir={}", store.path().display());
  shares_between_checkouts(&[&flag], |_| {});
}

fn directory_store_restores_outputs_after_an_undo() {
  let store = tempfile::tempdir().expect("store");
  restores_after_undo(&["--cache-dir", &store.path().display().to_string()]);
}

/// A program the tests need, or a failure saying how to get it.
pub(crate) fn program(name: &str, candidates: &[&str]) -> PathBuf {
  let on_path = std::env::var_os("PATH")
    .into_iter()
    .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
    .map(|directory| directory.join(name));
  on_path.chain(candidates.iter().map(PathBuf::from)).find(|path| path.is_file()).unwrap_or_else(
    || panic!("`{name}` is needed by the shared cache tests (`.ci/run` installs it)"),
  )
}

pub(crate) fn free_port() -> u16 {
  TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("address").port()
}

/// Wait until something listens on `port`.
pub(crate) fn wait_for_port(port: u16, child: &mut Child, what: &str) {
  // BuildGrid alone takes ~12 s to listen on an idle machine; a cold,
  // loaded CI machine gets minutes before this counts as a hang.
  let deadline = Instant::now() + Duration::from_secs(300);
  while TcpStream::connect(("127.0.0.1", port)).is_err() {
    if let Ok(Some(status)) = child.try_wait() {
      panic!("{what} exited with {status} before listening");
    }
    assert!(Instant::now() < deadline, "{what} did not listen on port {port} within 300 s");
    std::thread::sleep(Duration::from_millis(20));
  }
}

/// nginx serving `WebDAV` PUT from `data`, in the foreground, as one process.
pub(crate) struct Nginx {
  child: Child,
  pub(crate) port: u16,
  _directory: tempfile::TempDir,
}

impl Nginx {
  pub(crate) fn start(data: &Path) -> Self {
    Self::start_with(
      data,
      "dav_methods PUT DELETE; create_full_put_path on; dav_access user:rw all:r;",
    )
  }

  /// nginx with `location` holding `directives`.
  pub(crate) fn start_with(data: &Path, directives: &str) -> Self {
    Self::start_server(data, "", "", directives)
  }

  /// nginx with `listen` ending with `listen` (` ssl`), `server` directives
  /// and `location` holding `directives`.
  pub(crate) fn start_server(data: &Path, listen: &str, server: &str, directives: &str) -> Self {
    let directory = tempfile::tempdir().expect("nginx dir");
    let port = free_port();
    let base = directory.path().display();
    let config = format!(
      "daemon off;\nmaster_process off;\nworker_processes 1;\npid {base}/nginx.pid;\n\
       error_log {base}/error.log;\nevents {{ worker_connections 64; }}\n\
       http {{\n  access_log off;\n  client_body_temp_path {base}/body;\n\
       server {{\n    listen 127.0.0.1:{port}{listen};\n    {server}\n    root {data};\n\
       client_max_body_size 0;\n\
       location / {{ {directives} }}\n\
       }}\n}}\n",
      data = data.display()
    );
    fs::write(directory.path().join("nginx.conf"), config).expect("nginx.conf");
    let mut child = Command::new(program("nginx", &["/usr/sbin/nginx"]))
      .arg("-p")
      .arg(directory.path())
      .arg("-e")
      .arg(directory.path().join("error.log"))
      .arg("-c")
      .arg(directory.path().join("nginx.conf"))
      .stdin(Stdio::null())
      .stdout(Stdio::null())
      .stderr(Stdio::inherit())
      .spawn()
      .expect("start nginx");
    wait_for_port(port, &mut child, "nginx");
    Nginx { child, port, _directory: directory }
  }

  pub(crate) fn url(&self) -> String {
    format!("http://127.0.0.1:{}/cache", self.port)
  }
}

impl Drop for Nginx {
  fn drop(&mut self) {
    let _ = self.child.kill();
    let _ = self.child.wait();
  }
}

/// Every blob in the store holds what its name says.
fn assert_blobs_whole(data: &Path) {
  let Ok(entries) = fs::read_dir(data.join("cache/cas")) else {
    return;
  };
  for entry in entries {
    let path = entry.expect("entry").path();
    let name = path.file_name().and_then(|name| name.to_str()).expect("name").to_string();
    if name.starts_with('.') {
      continue;
    }
    let bytes = fs::read(&path).expect("blob");
    assert_eq!(blake3::hash(&bytes).to_hex().as_str(), name, "blob {name} is not whole");
  }
}

fn http_store_is_shared_by_two_checkouts() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start(data.path());
  shares_between_checkouts(&["--cache-url", &nginx.url()], |_| {});
  assert_blobs_whole(data.path());
}

fn http_store_restores_outputs_after_an_undo() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start(data.path());
  restores_after_undo(&["--cache-url", &nginx.url()]);
}

fn http_store_corrupt_blob_is_ignored_with_one_warning() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start(data.path());
  let url = nginx.url();
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let b = workspace.checkout("b", "A\n");
  assert_built(&workspace.just(&a, &["--cache-url", &url]), 0);
  let mut corrupted = 0;
  for entry in fs::read_dir(data.path().join("cache/cas")).expect("blobs") {
    let path = entry.expect("blob").path();
    if fs::read(&path).expect("blob") == b"A\n" {
      fs::write(&path, "X\n").expect("corrupt");
      corrupted += 1;
    }
  }
  assert_eq!(corrupted, 1);
  let output = workspace.just(&b, &["--cache-url", &url]);
  assert_built(&output, 1);
  assert!(text(&output.stderr).contains("is corrupt or incomplete"), "{}", text(&output.stderr));
  assert_eq!(workspace.runs(), 2, "the recipe ran instead of using the corrupt blob");
  assert_eq!(fs::read_to_string(b.join("out/sub/file")).expect("output"), "A\n");
}

/// A TCP relay to `upstream` that calls `cut` once `limit` bytes went
/// upstream, and forwards nothing after that.
pub(crate) fn relay(upstream: u16, limit: u64, cut: impl Fn() + Send + Sync + 'static) -> u16 {
  let listener = TcpListener::bind("127.0.0.1:0").expect("bind relay");
  let port = listener.local_addr().expect("address").port();
  let sent = Arc::new(AtomicU64::new(0));
  let cut = Arc::new(Mutex::new(Some(cut)));
  std::thread::spawn(move || {
    for client in listener.incoming().flatten() {
      let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
        continue;
      };
      let (mut client_read, mut server_write) =
        (client.try_clone().expect("clone"), server.try_clone().expect("clone"));
      let (mut server_read, mut client_write) = (server, client);
      let (sent, cut) = (sent.clone(), cut.clone());
      std::thread::spawn(move || {
        let mut buffer = [0; 16 << 10];
        while let Ok(count) = client_read.read(&mut buffer) {
          if count == 0 || sent.fetch_add(count as u64, Ordering::SeqCst) >= limit {
            if let Some(cut) = cut.lock().expect("cut").take() {
              cut();
            }
            break;
          }
          if server_write.write_all(&buffer[..count]).is_err() {
            break;
          }
        }
        let _ = server_write.shutdown(std::net::Shutdown::Both);
        let _ = client_read.shutdown(std::net::Shutdown::Both);
      });
      std::thread::spawn(move || {
        let _ = std::io::copy(&mut server_read, &mut client_write);
      });
    }
  });
  port
}

fn http_store_killed_mid_upload_publishes_nothing() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Arc::new(Mutex::new(Some(Nginx::start(data.path()))));
  let upstream = nginx.lock().expect("nginx").as_ref().expect("nginx").port;
  let killer = nginx.clone();
  // Past the small requests, well inside the 8 MiB blob.
  let port = relay(upstream, 2 << 20, move || drop(killer.lock().expect("nginx").take()));
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  fs::write(
    a.join("justfile"),
    JUSTFILE
      .replace("  chmod 750 bin\n", "  chmod 750 bin\n  head -c 8388608 /dev/urandom > out/big\n"),
  )
  .expect("justfile");
  let url = format!("http://127.0.0.1:{port}/cache");
  let started = Instant::now();
  let output = workspace.just(&a, &["--cache-url", &url, "--cache-timeout", "5"]);
  assert_built(&output, 1);
  assert!(text(&output.stderr).contains("failed while publishing"), "{}", text(&output.stderr));
  assert!(started.elapsed() < Duration::from_secs(30));
  assert!(nginx.lock().expect("nginx").is_none(), "the server was not killed mid-upload");
  assert_blobs_whole(data.path());
  assert!(!data.path().join("cache/ac").exists(), "an entry was published");
  // Back up, the store has no entry: a new checkout runs the recipe.
  let restarted = Nginx::start(data.path());
  let b = workspace.checkout("b", "A\n");
  assert_built(&workspace.just(&b, &["--cache-url", &restarted.url()]), 0);
  assert_eq!(workspace.runs(), 2);
}

fn http_store_unreachable_or_silent_never_fails_the_run() {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let closed = free_port();
  let started = Instant::now();
  let output =
    workspace.just(&a, &["--cache-url", &format!("http://user:sekrit@127.0.0.1:{closed}/c")]);
  assert_built(&output, 1);
  assert!(started.elapsed() < Duration::from_secs(20));
  let stderr = text(&output.stderr);
  assert!(!stderr.contains("sekrit") && !stderr.contains("user"), "{stderr}");
  assert!(stderr.contains(&format!("http://127.0.0.1:{closed}/c")), "{stderr}");

  // A server that accepts connections and never answers.
  let silent = TcpListener::bind("127.0.0.1:0").expect("bind");
  let port = silent.local_addr().expect("address").port();
  let b = workspace.checkout("b", "A\n");
  let started = Instant::now();
  let output = workspace
    .just(&b, &["--cache-url", &format!("http://127.0.0.1:{port}/c"), "--cache-timeout", "1"]);
  assert_built(&output, 1);
  assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
  drop(silent);
}

fn http_store_read_only_never_writes() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start(data.path());
  let url = nginx.url();
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let b = workspace.checkout("b", "A\n");
  let c = workspace.checkout("c", "A\n");
  assert_built(&workspace.just(&a, &["--cache-url", &url, "--cache-read-only"]), 0);
  assert!(!data.path().join("cache").exists(), "a read-only run wrote to the store");
  assert_built(&workspace.just(&b, &["--cache-url", &url]), 0);
  let mut command = workspace.command(&c, &["--cache-url", &url]);
  command.env("JUST_CACHE_READ_ONLY", "1");
  assert_built(&command.output().expect("run just"), 0);
  assert_eq!(workspace.runs(), 2, "the read-only run did not use the entry");
  assert_same_outputs(&b, &c, "A\n");
}

fn http_store_concurrent_writers_of_one_entry() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start(data.path());
  let url = nginx.url();
  let workspace = Workspace::new();
  let checkouts: Vec<PathBuf> =
    (0..4).map(|index| workspace.checkout(&format!("w{index}"), "A\n")).collect();
  let children: Vec<Child> = checkouts
    .iter()
    .map(|checkout| {
      workspace
        .command(checkout, &["--cache-url", &url])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn just")
    })
    .collect();
  for child in children {
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), BUILT);
    assert_eq!(text(&output.stderr), "a warning\n");
  }
  assert_blobs_whole(data.path());
  let last = workspace.checkout("last", "A\n");
  let runs = workspace.runs();
  assert_built(&workspace.just(&last, &["--cache-url", &url]), 0);
  assert_eq!(workspace.runs(), runs);
  assert_same_outputs(&checkouts[0], &last, "A\n");
}

fn network_store_without_its_helper_warns_once_and_runs() {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let alone = workspace.root.path().join("alone");
  fs::create_dir(&alone).expect("directory");
  let binary = alone.join("just");
  fs::hard_link(crate::common::binary(), &binary)
    .or_else(|_| fs::copy(crate::common::binary(), &binary).map(drop))
    .expect("copy just");
  // `just` alone: no helper beside it, none on PATH.
  let mut command = Command::new(&binary);
  command
    .env_clear()
    .env("PATH", "/usr/bin:/bin")
    .env("NO_COLOR", "1")
    .env("COUNTER", workspace.root.path().join("count"))
    .current_dir(&a)
    .args(["--cache-url", "https://cache.invalid/x", "build"])
    .stdin(Stdio::null());
  let output = command.output().expect("run just");
  assert_built(&output, 1);
  assert!(text(&output.stderr).contains("just-cache-store"), "{}", text(&output.stderr));
}

/// moto's S3 server with one bucket.
pub(crate) struct S3 {
  child: Child,
  pub(crate) port: u16,
}

impl S3 {
  pub(crate) fn start() -> Self {
    let port = free_port();
    let mut child = Command::new(program("moto_server", &[]))
      .args(["-H", "127.0.0.1", "-p", &port.to_string()])
      .stdin(Stdio::null())
      .stdout(Stdio::null())
      .stderr(Stdio::null())
      .spawn()
      .expect("start moto_server");
    wait_for_port(port, &mut child, "moto_server");
    http("PUT", port, "/bucket");
    S3 { child, port }
  }

  pub(crate) fn configure(&self, command: &mut Command) {
    command
      .env("AWS_ACCESS_KEY_ID", "testing")
      .env("AWS_SECRET_ACCESS_KEY", "testing")
      .env("AWS_REGION", "us-east-1")
      .env("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{}", self.port));
  }

  pub(crate) fn objects(&self) -> String {
    http("GET", self.port, "/bucket?list-type=2")
  }
}

/// One plain HTTP/1.1 request without a body to the server on `port` of
/// 127.0.0.1; the response's body, once the server closes the connection.
/// (The tests do not use the HTTP client of the network stores, which is
/// linked only with the `network-stores` feature.)
fn http(method: &str, port: u16, target: &str) -> String {
  use std::io::{Read, Write};
  let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
  write!(
    stream,
    "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\n\
     Connection: close\r\n\r\n"
  )
  .expect("send the request");
  let mut response = String::new();
  stream.read_to_string(&mut response).expect("read the response");
  let (head, body) = response.split_once("\r\n\r\n").expect("a complete response");
  let status = head.split(' ').nth(1).unwrap_or_default();
  assert!(status.starts_with('2'), "{method} {target}: {head}");
  body.to_owned()
}

impl Drop for S3 {
  fn drop(&mut self) {
    let _ = self.child.kill();
    let _ = self.child.wait();
  }
}

fn s3_store_is_shared_by_two_checkouts() {
  let s3 = S3::start();
  shares_between_checkouts(&["--cache-url", "s3://bucket/team/cache"], |command| {
    s3.configure(command);
  });
  assert!(s3.objects().contains("<Key>team/cache/ac/"), "{}", s3.objects());
}

fn s3_store_read_only_never_writes() {
  let s3 = S3::start();
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let mut command = workspace.command(&a, &["--cache-url", "s3://bucket", "--cache-read-only"]);
  s3.configure(&mut command);
  assert_built(&command.output().expect("run just"), 0);
  assert!(!s3.objects().contains("<Key>"), "{}", s3.objects());
}
