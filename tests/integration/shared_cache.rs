//! The shared `[cache]` store against real servers on 127.0.0.1, started by
//! the tests: nginx with `WebDAV` for `--cache-url http://…`, moto's S3 server
//! for `--cache-url s3://…`, and a plain directory for `--cache-dir`. A
//! missing server program fails the test (`.ci/run` installs both).

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::process::spawn_piped;
use crate::common::servers::{free_port, relay, Nginx, S3};
use crate::common::store::{
  assert_built, assert_same_outputs, restores_after_undo, shares_between_checkouts, store_flag,
  Workspace, BUILT, JUSTFILE,
};
use crate::common::text;

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

fn directory_store_is_shared_by_two_checkouts() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  shares_between_checkouts(&[&flag], |_| {});
}

fn directory_store_restores_outputs_after_an_undo() {
  let store = tempfile::tempdir().expect("store");
  restores_after_undo(&["--cache-dir", &store.path().display().to_string()]);
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
    .map(|checkout| spawn_piped(&mut workspace.command(checkout, &["--cache-url", &url])))
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
