//! The servers the store tests start on 127.0.0.1 (nginx with `WebDAV`,
//! moto's S3 server), relays in front of them, the programs they need, and
//! a private CA's certificates for TLS.

use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::process::{on_path, poll_until};
use super::text;

/// A program the tests need, or a failure saying how to get it.
pub(crate) fn program(name: &str, candidates: &[&str]) -> PathBuf {
  on_path(name)
    .or_else(|| candidates.iter().map(PathBuf::from).find(|path| path.is_file()))
    .unwrap_or_else(|| {
      panic!("`{name}` is needed by the shared cache tests (`.ci/run` installs it)")
    })
}

pub(crate) fn free_port() -> u16 {
  TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("address").port()
}

/// Wait until something listens on `port`.
pub(crate) fn wait_for_port(port: u16, child: &mut Child, what: &str) {
  // BuildGrid alone takes ~12 s to listen on an idle machine; a cold,
  // loaded CI machine gets minutes before this counts as a hang.
  let listening = poll_until(Duration::from_secs(300), || {
    let listening = TcpStream::connect(("127.0.0.1", port)).is_ok();
    if let (false, Ok(Some(status))) = (listening, child.try_wait()) {
      panic!("{what} exited with {status} before listening");
    }
    listening
  });
  assert!(listening, "{what} did not listen on port {port} within 300 s");
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

/// A TCP relay to `upstream` that calls `cut` once `limit` bytes went
/// upstream, and forwards nothing after that.
pub(crate) fn relay(upstream: u16, limit: u64, cut: impl Fn() + Send + Sync + 'static) -> u16 {
  let sent = Arc::new(AtomicU64::new(0));
  let cut = Arc::new(Mutex::new(Some(cut)));
  let up = move |mut client_read: TcpStream, mut server_write: TcpStream| {
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
  };
  let down = |mut server_read: TcpStream, mut client_write: TcpStream| {
    let _ = std::io::copy(&mut server_read, &mut client_write);
  };
  relay_through(upstream, up, down)
}

/// A relay to `upstream` that passes the server's bytes on slowly.
pub(crate) fn slow_relay(upstream: u16) -> u16 {
  let up = |mut client_read: TcpStream, mut server_write: TcpStream| {
    let _ = std::io::copy(&mut client_read, &mut server_write);
  };
  let down = |mut server_read: TcpStream, mut client_write: TcpStream| {
    let mut buffer = vec![0; 32 << 10];
    while let Ok(count) = server_read.read(&mut buffer) {
      if count == 0 || client_write.write_all(&buffer[..count]).is_err() {
        break;
      }
      std::thread::sleep(Duration::from_millis(50));
    }
  };
  relay_through(upstream, up, down)
}

/// A TCP relay on a port of its own (the answer) to `upstream` on
/// 127.0.0.1: for each connection, `up` copies the client's bytes (the
/// client's reading end, the server's writing end) and `down` the
/// server's, each on a thread of its own.
fn relay_through<Up, Down>(upstream: u16, up: Up, down: Down) -> u16
where
  Up: Fn(TcpStream, TcpStream) + Clone + Send + 'static,
  Down: Fn(TcpStream, TcpStream) + Clone + Send + 'static,
{
  let listener = TcpListener::bind("127.0.0.1:0").expect("bind relay");
  let port = listener.local_addr().expect("address").port();
  std::thread::spawn(move || {
    for client in listener.incoming().flatten() {
      let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
        continue;
      };
      let (client_read, server_write) =
        (client.try_clone().expect("clone"), server.try_clone().expect("clone"));
      let (up, down) = (up.clone(), down.clone());
      std::thread::spawn(move || up(client_read, server_write));
      std::thread::spawn(move || down(server, client));
    }
  });
  port
}

/// What a server of the test's own heard: each request's first line.
pub(crate) type Requests = Arc<Mutex<Vec<String>>>;

/// A server on 127.0.0.1 that reads each request's head and hands the
/// connection and the request line to `answer`, each on a thread of its
/// own; kept listening while the returned listener lives.
pub(crate) fn serve(answer: fn(&mut TcpStream, &str)) -> (TcpListener, String, Requests) {
  let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
  let url = format!("http://127.0.0.1:{}/cache", listener.local_addr().expect("address").port());
  let requests = Requests::default();
  let (accepting, heard) = (listener.try_clone().expect("clone"), requests.clone());
  std::thread::spawn(move || {
    for connection in accepting.incoming().flatten() {
      let heard = heard.clone();
      std::thread::spawn(move || {
        let mut connection = connection;
        let Some(line) = request_line(&mut connection) else {
          return;
        };
        heard.lock().expect("requests").push(line.clone());
        answer(&mut connection, &line);
      });
    }
  });
  (listener, url, requests)
}

/// The first line of the request on `connection`, once its head is read.
fn request_line(connection: &mut TcpStream) -> Option<String> {
  let mut head = Vec::new();
  let mut byte = [0; 1];
  while !head.ends_with(b"\r\n\r\n") {
    match connection.read(&mut byte) {
      Ok(1) => head.push(byte[0]),
      _ => return None,
    }
  }
  let head = String::from_utf8_lossy(&head).into_owned();
  head.lines().next().map(str::to_owned)
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
  let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
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

/// A CA and a certificate it signed for 127.0.0.1, made by `openssl`.
pub(crate) fn certificates(directory: &Path) {
  let openssl = program("openssl", &["/usr/bin/openssl"]);
  let run = |arguments: &[&str]| {
    let output =
      Command::new(&openssl).args(arguments).current_dir(directory).output().expect("openssl");
    assert!(output.status.success(), "openssl {arguments:?}: {}", text(&output.stderr));
  };
  fs::write(
    directory.join("ext"),
    "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n\
     extendedKeyUsage=serverAuth\n",
  )
  .expect("ext");
  let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  run(
    &[
      &["req", "-x509"][..],
      &key,
      &["-keyout", "ca.key", "-out", "ca.pem", "-days", "2"],
      &["-subj", "/CN=just test CA"],
    ]
    .concat(),
  );
  run(
    &[
      &["req"][..],
      &key,
      &["-keyout", "server.key", "-out", "server.csr"],
      &["-subj", "/CN=127.0.0.1"],
    ]
    .concat(),
  );
  run(&[
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "2",
    "-extfile",
    "ext",
  ]);
}
