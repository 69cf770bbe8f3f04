//! A `--cache-url` server is hostile, or broken, as much as the entries in
//! it: one that trickles bytes, redirects, lies about a body's length,
//! sends a body without end, hangs up, or answers a `PUT` without reading
//! it. Each run must end after about `--cache-timeout` at most, with one
//! warning, the recipe run, and no entry published whose objects the server
//! did not take. The servers are nginx where nginx can play the part, over
//! `http://` and `https://` (a private CA), moto's S3 server behind nginx's
//! TLS, and otherwise a server on a socket of the test's own that answers
//! with the bytes each case needs.

use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use crate::common::process::run_bounded;
use crate::common::servers::{certificates, serve, Nginx, Requests, S3};
use crate::common::store::{assert_built, Workspace, BUILT, JUSTFILE};
use crate::common::text;

tests! {
  ;
  extensions:
  trickling_store_is_given_up_after_the_timeout,
  trickling_store_holding_the_entry_is_given_up_after_the_timeout,
  trickling_https_store_is_given_up_after_the_timeout,
  large_blob_at_a_steady_rate_may_outlast_the_timeout,
  redirect_to_get_is_a_failed_lookup,
  redirect_to_head_is_not_a_stored_blob,
  redirect_to_put_is_a_failed_write,
  redirect_over_https_is_a_failed_write,
  s3_store_over_tls_is_shared,
  body_shorter_than_its_content_length_is_a_failed_lookup,
  body_longer_than_its_content_length_is_a_corrupt_record,
  endless_record_is_read_no_further_than_a_record,
  endless_chunked_record_is_read_no_further_than_a_record,
  chunked_record_trickling_without_end_is_given_up_after_the_timeout,
  server_hanging_up_after_the_request_is_a_failed_lookup,
  put_answered_without_reading_its_body_publishes_nothing,
}

const TIMEOUT: &str = "2";

/// The whole standard error of a run that warned `warning` before the
/// recipe printed its own.
fn warned_first(warning: &str) -> String {
  format!("warning: {warning}\na warning\n")
}

/// The whole standard error of a run that warned `warning` once the recipe
/// had printed its own.
fn warned_last(warning: &str) -> String {
  format!("a warning\nwarning: {warning}\n")
}

fn failed(url: &str, doing: &str, why: &str) -> String {
  format!("shared cache `{url}` failed while {doing} ({why}); running without it")
}

/// The run built, printing exactly `stderr`.
fn assert_run(output: &Output, stderr: &str) {
  assert_eq!(text(&output.stderr), stderr);
  assert_eq!(text(&output.stdout), BUILT);
  assert_eq!(output.status.code(), Some(0));
}

/// Run `build` in a new checkout against `url`, with `--cache-timeout`,
/// failing if it takes longer than 30 s.
fn run(workspace: &Workspace, name: &str, url: &str, setup: impl Fn(&mut Command)) -> Output {
  let checkout = workspace.checkout(name, "A\n");
  let mut command = workspace.command(&checkout, &["--cache-url", url, "--cache-timeout", TIMEOUT]);
  setup(&mut command);
  run_bounded(&mut command)
}

const WEBDAV: &str = "dav_methods PUT; create_full_put_path on; dav_access user:rw all:r;";

/// nginx sending its answers one byte a second.
const TRICKLE: &str = "limit_rate 1; limit_rate_after 0;";

fn trickling_store_is_given_up_after_the_timeout() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start_with(data.path(), &format!("{WEBDAV} {TRICKLE}"));
  let url = nginx.url();
  let workspace = Workspace::new();
  let output = run(&workspace, "a", &url, |_| {});
  assert_run(&output, &warned_first(&failed(&url, "looking up an entry", "timed out after 2 s")));
  assert_eq!(workspace.runs(), 1);
}

fn trickling_store_holding_the_entry_is_given_up_after_the_timeout() {
  let data = tempfile::tempdir().expect("data");
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let nginx = Nginx::start_with(data.path(), WEBDAV);
  assert_built(&workspace.just(&a, &["--cache-url", &nginx.url()]), 0);
  drop(nginx);
  let slow = Nginx::start_with(data.path(), &format!("{WEBDAV} {TRICKLE}"));
  let url = slow.url();
  let output = run(&workspace, "b", &url, |_| {});
  assert_run(&output, &warned_first(&failed(&url, "looking up an entry", "timed out after 2 s")));
  assert_eq!(workspace.runs(), 2, "the recipe did not run");
}

fn large_blob_at_a_steady_rate_may_outlast_the_timeout() {
  let data = tempfile::tempdir().expect("data");
  let workspace = Workspace::new();
  let a = large_output_checkout(&workspace, "a");
  let nginx = Nginx::start_with(data.path(), WEBDAV);
  assert_built(&workspace.just(&a, &["--cache-url", &nginx.url()]), 0);
  drop(nginx);
  // 32 MiB at 4 MiB a second: about 8 s, four times the timeout, each
  // MiB moved earning the request one more second.
  let steady = Nginx::start_with(data.path(), &format!("{WEBDAV} limit_rate 4m;"));
  let b = large_output_checkout(&workspace, "b");
  let output = run_bounded(
    &mut workspace.command(&b, &["--cache-url", &steady.url(), "--cache-timeout", TIMEOUT]),
  );
  assert_run(&output, "a warning\n");
  assert_eq!(workspace.runs(), 1, "the entry was not restored");
  assert_eq!(fs::read(a.join("out/big")).expect("a"), fs::read(b.join("out/big")).expect("b"));
}

/// nginx serving `https://` with a certificate of the private CA in `tls`,
/// and `directives` in its location.
fn https_nginx(data: &Path, tls: &Path, directives: &str) -> Nginx {
  certificates(tls);
  Nginx::start_server(
    data,
    " ssl",
    &format!(
      "ssl_certificate {}; ssl_certificate_key {};",
      tls.join("server.pem").display(),
      tls.join("server.key").display()
    ),
    directives,
  )
}

fn trickling_https_store_is_given_up_after_the_timeout() {
  let data = tempfile::tempdir().expect("data");
  let tls = tempfile::tempdir().expect("tls");
  let nginx = https_nginx(data.path(), tls.path(), &format!("{WEBDAV} {TRICKLE}"));
  let url = format!("https://127.0.0.1:{}/cache", nginx.port);
  let workspace = Workspace::new();
  let output = run(&workspace, "a", &url, |command| {
    command.env("SSL_CERT_FILE", tls.path().join("ca.pem"));
  });
  assert_run(&output, &warned_first(&failed(&url, "looking up an entry", "timed out after 2 s")));
}

/// A port something listens on, which must never be connected to.
struct Elsewhere(TcpListener);

impl Elsewhere {
  fn new() -> Self {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    Elsewhere(listener)
  }

  fn url(&self) -> String {
    format!("http://127.0.0.1:{}/stolen", self.0.local_addr().expect("address").port())
  }

  fn assert_untouched(&self) {
    match self.0.accept() {
      Err(error) if error.kind() == ErrorKind::WouldBlock => {}
      other => panic!("the redirect was followed: {other:?}"),
    }
  }
}

/// The `location` directives of a store whose `method` requests are
/// redirected with `status` to `elsewhere`.
fn redirecting(method: &str, status: u16, elsewhere: &Elsewhere) -> String {
  format!("{WEBDAV} if ($request_method = {method}) {{ return {status} {}; }}", elsewhere.url())
}

/// Whether the store in `data` holds an `ac/` record.
fn published(data: &Path) -> bool {
  data.join("cache/ac").exists()
}

/// A run against nginx redirecting `method` with `status` warns that the
/// store failed while `doing`, publishes nothing and follows nothing.
fn assert_redirect_fails(method: &str, status: u16, doing: &str) {
  let data = tempfile::tempdir().expect("data");
  let elsewhere = Elsewhere::new();
  let nginx = Nginx::start_with(data.path(), &redirecting(method, status, &elsewhere));
  let url = nginx.url();
  let output = run(&Workspace::new(), "a", &url, |_| {});
  let warning = failed(&url, doing, &format!("HTTP status {status}: redirects are not followed"));
  let stderr = if method == "GET" { warned_first(&warning) } else { warned_last(&warning) };
  assert_run(&output, &stderr);
  assert!(!published(data.path()), "an entry was published without its blobs");
  elsewhere.assert_untouched();
}

fn redirect_to_get_is_a_failed_lookup() {
  assert_redirect_fails("GET", 301, "looking up an entry");
}

fn redirect_to_head_is_not_a_stored_blob() {
  assert_redirect_fails("HEAD", 302, "publishing an entry");
}

fn redirect_to_put_is_a_failed_write() {
  assert_redirect_fails("PUT", 307, "publishing an entry");
}

fn redirect_over_https_is_a_failed_write() {
  let data = tempfile::tempdir().expect("data");
  let tls = tempfile::tempdir().expect("tls");
  let elsewhere = Elsewhere::new();
  let nginx = https_nginx(data.path(), tls.path(), &redirecting("PUT", 308, &elsewhere));
  let url = format!("https://127.0.0.1:{}/cache", nginx.port);
  let output = run(&Workspace::new(), "a", &url, |command| {
    command.env("SSL_CERT_FILE", tls.path().join("ca.pem"));
  });
  let why = "HTTP status 308: redirects are not followed";
  assert_run(&output, &warned_last(&failed(&url, "publishing an entry", why)));
  assert!(!published(data.path()));
  elsewhere.assert_untouched();
}

fn s3_store_over_tls_is_shared() {
  let s3 = S3::start();
  let data = tempfile::tempdir().expect("data");
  let tls = tempfile::tempdir().expect("tls");
  // The signed requests name the host they were signed for: nginx passes
  // it on unchanged.
  let proxy = https_nginx(
    data.path(),
    tls.path(),
    &format!(
      "proxy_pass http://127.0.0.1:{}; proxy_set_header Host $http_host; \
       proxy_request_buffering off;",
      s3.port
    ),
  );
  let workspace = Workspace::new();
  let over_tls = |command: &mut Command| {
    s3.configure(command);
    command
      .env("AWS_ENDPOINT_URL", format!("https://127.0.0.1:{}", proxy.port))
      .env("SSL_CERT_FILE", tls.path().join("ca.pem"));
  };
  for name in ["a", "b"] {
    assert_run(&run(&workspace, name, "s3://bucket/tls", over_tls), "a warning\n");
  }
  assert_eq!(workspace.runs(), 1, "the second checkout did not use the entry");
  assert!(s3.objects().contains("<Key>tls/ac/"), "{}", s3.objects());
}

/// The `ac/` record the run looked up, from what the server heard.
fn record(requests: &Requests) -> String {
  let requests = requests.lock().expect("requests");
  let line = requests.iter().find(|line| line.starts_with("GET ")).expect("a GET");
  let path = line.split(' ').nth(1).expect("a path");
  path.strip_prefix("/cache/").expect("below the store").to_owned()
}

/// A run against a server answering each request with `answer` warns
/// that the `ac/` record it looked up is corrupt, and builds.
fn assert_corrupt_record(answer: fn(&mut TcpStream, &str)) {
  let (listener, url, requests) = serve(answer);
  let output = run(&Workspace::new(), "a", &url, |_| {});
  let record = record(&requests);
  let warning =
    format!("shared cache `{url}`: object `{record}` is corrupt or incomplete; ignoring the entry");
  assert_run(&output, &warned_first(&warning));
  drop(listener);
}

fn body_shorter_than_its_content_length_is_a_failed_lookup() {
  let (listener, url, _) = serve(|connection, _| {
    let _ = connection.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 64\r\n\r\n0123456789");
  });
  let output = run(&Workspace::new(), "a", &url, |_| {});
  let why = "connection lost (response body closed before all bytes were read)";
  assert_run(&output, &warned_first(&failed(&url, "looking up an entry", why)));
  drop(listener);
}

fn body_longer_than_its_content_length_is_a_corrupt_record() {
  // The five bytes read are no hash; the rest is never taken for one.
  assert_corrupt_record(|connection, _| {
    let hex = blake3::hash(b"").to_hex();
    let answer = format!("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{hex}");
    let _ = connection.write_all(answer.as_bytes());
    let mut rest = Vec::new();
    let _ = connection.read_to_end(&mut rest);
  });
}

/// Write `chunk` to `connection` until it fails.
fn endlessly(connection: &mut TcpStream, chunk: &[u8]) {
  while connection.write_all(chunk).is_ok() {}
}

fn endless_record_is_read_no_further_than_a_record() {
  assert_corrupt_record(|connection, _| {
    let head = b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n";
    if connection.write_all(head).is_ok() {
      endlessly(connection, &vec![b'0'; 64 << 10]);
    }
  });
}

fn endless_chunked_record_is_read_no_further_than_a_record() {
  assert_corrupt_record(|connection, _| {
    let head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    if connection.write_all(head).is_ok() {
      let chunk = [&b"4000\r\n"[..], &[b'0'; 0x4000], b"\r\n"].concat();
      endlessly(connection, &chunk);
    }
  });
}

fn chunked_record_trickling_without_end_is_given_up_after_the_timeout() {
  let (listener, url, _) = serve(|connection, _| {
    let head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    let mut sent = connection.write_all(head);
    // Never silent for as long as the timeout, never done.
    while sent.is_ok() {
      std::thread::sleep(Duration::from_millis(250));
      sent = connection.write_all(b"1\r\n0\r\n");
    }
  });
  let output = run(&Workspace::new(), "a", &url, |_| {});
  assert_run(&output, &warned_first(&failed(&url, "looking up an entry", "timed out after 2 s")));
  drop(listener);
}

fn server_hanging_up_after_the_request_is_a_failed_lookup() {
  let (listener, url, _) = serve(|connection, _| {
    let _ = connection.shutdown(std::net::Shutdown::Both);
  });
  let output = run(&Workspace::new(), "a", &url, |_| {});
  let why = "connection lost (Unexpected EOF)";
  assert_run(&output, &warned_first(&failed(&url, "looking up an entry", why)));
  drop(listener);
}

/// A checkout `name` whose recipe's output holds 32 MiB, more than a
/// connection's buffers.
fn large_output_checkout(workspace: &Workspace, name: &str) -> PathBuf {
  let checkout = workspace.checkout(name, "A\n");
  let justfile = JUSTFILE
    .replace("  chmod 750 bin\n", "  chmod 750 bin\n  head -c 33554432 /dev/zero > out/big\n");
  fs::write(checkout.join("justfile"), justfile).expect("justfile");
  checkout
}

fn put_answered_without_reading_its_body_publishes_nothing() {
  let (listener, url, requests) = serve(|connection, line| {
    if line.starts_with("PUT ") {
      let _ = connection.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
      // Holds the connection open, reading nothing.
      std::thread::sleep(Duration::from_secs(60));
    } else {
      let _ = connection.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
    }
  });
  let workspace = Workspace::new();
  let checkout = large_output_checkout(&workspace, "large");
  let output = run_bounded(
    &mut workspace.command(&checkout, &["--cache-url", &url, "--cache-timeout", TIMEOUT]),
  );
  assert_run(&output, &warned_last(&failed(&url, "publishing an entry", "timed out after 2 s")));
  let requests = requests.lock().expect("requests");
  assert!(
    requests.iter().all(|line| !line.starts_with("PUT /cache/ac/")),
    "an entry was published: {requests:?}"
  );
  drop(listener);
}
