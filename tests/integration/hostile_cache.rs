//! A shared store is written by other machines and users: forged entries
//! against the directory store and nginx, each run asserting that nothing
//! outside the declared outputs changed, and the faults a store or an
//! output can bring (signals during a restore, FIFOs, unwritable stores,
//! credentials in `ps`).

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

use crate::common::process::{poll_until, run_bounded, spawn_piped};
use crate::common::servers::{certificates, serve, slow_relay, Nginx};
use crate::common::store::{
  assert_built, forge, mode, published_entry, store_flag, symlink, umask, Workspace, BUILT,
  JUSTFILE,
};
use crate::common::text;

tests! {
  ;
  extensions:
  forged_entries_in_a_directory_store_change_nothing_outside_the_outputs,
  forged_entries_in_an_http_store_change_nothing_outside_the_outputs,
  restored_modes_keep_only_permission_bits,
  output_below_a_symbolic_link_is_never_restored,
  outputs_that_match_are_not_rewritten,
  signal_during_a_restore_leaves_no_staging_directory,
  store_objects_are_readable_per_the_umask,
  corrupt_object_is_replaced_by_the_next_publisher,
  unwritable_store_keeps_a_valid_local_entry,
  #[cfg(target_os = "linux")]
  cache_url_is_not_in_the_helper_arguments,
  url_without_scheme_is_not_echoed,
  fifo_or_socket_in_an_output_directory_neither_hangs_nor_fails,
  dangling_symbolic_link_output_counts_as_missing,
  deep_glob_over_a_symbolic_link_loop_ends,
  input_edited_while_the_recipe_runs_is_not_cached,
  dot_and_climbing_outputs_are_compile_errors,
  background_process_holding_the_output_does_not_hold_the_run,
  http_store_answering_403_for_missing_objects_is_populated,
  cache_timeout_bounds_every_request,
  https_store_with_a_private_ca_is_trusted_through_ssl_cert_file,
  #[cfg(target_os = "linux")]
  output_that_is_a_mount_point_is_not_lost,
}

/// Everything below `root` but `skip`ped paths: kind, mode, contents or
/// link target.
fn snapshot(root: &Path, skip: &[PathBuf]) -> BTreeMap<PathBuf, String> {
  let mut found = BTreeMap::new();
  let mut pending = vec![root.to_path_buf()];
  while let Some(path) = pending.pop() {
    if skip.iter().any(|skipped| path.starts_with(skipped)) {
      continue;
    }
    let metadata = fs::symlink_metadata(&path).expect("metadata");
    let mode = mode(&path);
    let description = if metadata.file_type().is_symlink() {
      format!("link {}", fs::read_link(&path).expect("link").display())
    } else if metadata.is_dir() {
      for child in fs::read_dir(&path).expect("read_dir") {
        pending.push(child.expect("child").path());
      }
      format!("dir {mode:o}")
    } else {
      format!("file {mode:o} {}", String::from_utf8_lossy(&fs::read(&path).expect("read")))
    };
    found.insert(path, description);
  }
  found
}

/// No staging directory is left anywhere below `root`.
fn assert_no_staging(root: &Path) {
  for path in snapshot(root, &[]).keys() {
    let name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    assert!(!name.starts_with(".just-restore-"), "left behind: {}", path.display());
  }
}

fn item(entry: &Json, path: &str) -> Json {
  entry["outputs"]
    .as_array()
    .expect("outputs")
    .iter()
    .find(|item| item["path"] == path)
    .cloned()
    .expect("item")
}

fn push(entry: &mut Json, item: Json) {
  entry["outputs"].as_array_mut().expect("outputs").push(item);
}

/// The forged entries: each a variation on the real one, `legit`.
fn forgeries(legit: &Json, victim: &Path) -> Vec<(&'static str, Json)> {
  let bin = item(legit, "bin");
  let file_at = |path: String| {
    let mut file = bin.clone();
    file["path"] = json!(path);
    file
  };
  let with = |items: Vec<Json>| {
    let mut entry = legit.clone();
    for item in items {
      push(&mut entry, item);
    }
    entry
  };
  let victim_file = victim.join("rc");
  let mut forged = vec![
    ("absolute path after `//`", with(vec![file_at(format!("out/{}", victim_file.display()))])),
    ("`..` in a path", with(vec![file_at("out/../justfile".into())])),
    ("`.` in a path", with(vec![file_at("out/./x".into())])),
    ("path outside every output", with(vec![file_at("justfile".into())])),
    ("backslashes", with(vec![file_at("out/..\\..\\justfile".into())])),
    (
      "link to an absolute path, then a file through it",
      with(vec![
        json!({"path": "out/evil", "type": "symlink", "target": victim.display().to_string()}),
        file_at("out/evil/rc".into()),
      ]),
    ),
    (
      "link climbing out of its output",
      with(vec![json!({"path": "out/evil", "type": "symlink", "target": "../../victim"})]),
    ),
    (
      "link climbing after a name",
      with(vec![json!({"path": "out/evil", "type": "symlink", "target": "sub/../../x"})]),
    ),
    ("duplicate path", with(vec![file_at("bin".into())])),
    ("unknown type", with(vec![json!({"path": "out/fifo", "type": "fifo"})])),
  ];
  let mut missing_blob = legit.clone();
  for item in missing_blob["outputs"].as_array_mut().expect("outputs") {
    if item["path"] == "bin" {
      item["blob"] = json!("0".repeat(64));
    }
  }
  forged.push(("blob that does not exist", missing_blob));
  let mut wrong_size = legit.clone();
  for item in wrong_size["outputs"].as_array_mut().expect("outputs") {
    if item["path"] == "out/sub/file" {
      item["size"] = json!(1);
    }
  }
  forged.push(("blob larger than its size", wrong_size));
  let mut root_link = legit.clone();
  root_link["outputs"] = json!([
    {"path": "out", "type": "symlink", "target": "."},
    file_at("out/justfile".into()),
    bin.clone(),
  ]);
  forged.push(("output replaced by a link, a file through it", root_link));
  let mut bin_link = legit.clone();
  for item in bin_link["outputs"].as_array_mut().expect("outputs") {
    if item["path"] == "bin" {
      *item = json!({"path": "bin", "type": "symlink", "target": "../victim/rc"});
    }
  }
  forged.push(("output link leaving the working directory", bin_link));
  let mut no_output = legit.clone();
  no_output["outputs"] = json!([bin]);
  forged.push(("declared output missing", no_output));
  forged.push(("not an entry", json!(["out"])));
  forged
}

/// Publish from one checkout, then for each forged entry run a new checkout
/// against it: the recipe runs (after a warning), nothing outside the new
/// checkout's outputs changes, no staging directory is left.
fn forged_entries_change_nothing(store_root: &Path, flags: &[&str]) {
  let workspace = Workspace::new();
  let victim = workspace.root.path().join("victim");
  fs::create_dir(&victim).expect("victim");
  fs::write(victim.join("rc"), "precious\n").expect("victim file");
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, flags), 0);
  let legit = published_entry(store_root);
  for (index, (what, entry)) in forgeries(&legit, &victim).into_iter().enumerate() {
    let b = workspace.checkout(&format!("b{index}"), "A\n");
    forge(store_root, &entry);
    let skip =
      [b.join("out"), b.join("bin"), b.join(".justcache"), workspace.root.path().join("count")];
    let before = snapshot(workspace.root.path(), &skip);
    let runs = workspace.runs();
    let output = workspace.just(&b, flags);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{what}: {stderr}");
    assert_eq!(text(&output.stdout), BUILT, "{what}: {stderr}");
    assert!(stderr.starts_with("warning: "), "{what}: {stderr}");
    assert_eq!(workspace.runs(), runs + 1, "{what}: the recipe did not run: {stderr}");
    assert_eq!(snapshot(workspace.root.path(), &skip), before, "{what}");
    assert_eq!(fs::read_to_string(b.join("out/sub/file")).expect("output"), "A\n", "{what}");
    assert_no_staging(workspace.root.path());
  }
}

fn forged_entries_in_a_directory_store_change_nothing_outside_the_outputs() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  forged_entries_change_nothing(store.path(), &[&flag]);
}

fn forged_entries_in_an_http_store_change_nothing_outside_the_outputs() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start(data.path());
  forged_entries_change_nothing(&data.path().join("cache"), &["--cache-url", &nginx.url()]);
}

fn restored_modes_keep_only_permission_bits() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let mut entry = published_entry(store.path());
  for item in entry["outputs"].as_array_mut().expect("outputs") {
    match item["path"].as_str() {
      Some("bin") => item["mode"] = json!(0o6777),
      Some("out") => item["mode"] = json!(0o1777),
      _ => {}
    }
  }
  forge(store.path(), &entry);
  let b = workspace.checkout("b", "A\n");
  assert_built(&workspace.just(&b, &[&flag]), 0);
  assert_eq!(workspace.runs(), 1, "the entry was not restored");
  assert_eq!(mode(&b.join("bin")), 0o777 & !umask());
  assert_eq!(mode(&b.join("out")), 0o777 & !umask());
}

const APP: &str = r#"set unstable
set lists

[cache(outputs=['build/app'])]
build:
  #!/bin/sh
  mkdir -p build
  echo app > build/app
  echo ran >> "$COUNTER"
"#;

fn output_below_a_symbolic_link_is_never_restored() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  fs::write(a.join("justfile"), APP).expect("justfile");
  assert_eq!(workspace.just(&a, &[&flag]).status.code(), Some(0));
  let b = workspace.checkout("b", "A\n");
  fs::write(b.join("justfile"), APP).expect("justfile");
  symlink("src", &b.join("build"));
  let output = workspace.just(&b, &[&flag]);
  let stderr = text(&output.stderr);
  assert!(stderr.contains("below the symbolic link"), "{stderr}");
  assert_eq!(workspace.runs(), 2, "{stderr}");
  assert_no_staging(workspace.root.path());
}

#[cfg(unix)]
fn identity(path: &Path) -> (u64, i64, i64) {
  use std::os::unix::fs::MetadataExt;
  let metadata = fs::symlink_metadata(path).expect("metadata");
  (metadata.ino(), metadata.mtime(), metadata.mtime_nsec())
}

fn outputs_that_match_are_not_rewritten() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start(data.path());
  let url = nginx.url();
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &["--cache-url", &url]), 0);
  let before: Vec<_> = ["bin", "out", "out/sub/file"].map(|path| identity(&a.join(path))).into();
  assert_built(&workspace.just(&a, &["--cache-url", &url]), 0);
  let after: Vec<_> = ["bin", "out", "out/sub/file"].map(|path| identity(&a.join(path))).into();
  assert_eq!(workspace.runs(), 1);
  assert_eq!(before, after, "an output that matched was rewritten");
}

fn signal_during_a_restore_leaves_no_staging_directory() {
  let data = tempfile::tempdir().expect("data");
  let nginx = Nginx::start(data.path());
  let workspace = Workspace::new();
  let justfile = JUSTFILE
    .replace("  chmod 750 bin\n", "  chmod 750 bin\n  head -c 8388608 /dev/urandom > out/big\n");
  let a = workspace.checkout("a", "A\n");
  fs::write(a.join("justfile"), &justfile).expect("justfile");
  assert_built(&workspace.just(&a, &["--cache-url", &nginx.url()]), 0);
  for signal in ["INT", "TERM"] {
    let b = workspace.checkout(&format!("b-{signal}"), "A\n");
    fs::write(b.join("justfile"), &justfile).expect("justfile");
    let url = format!("http://127.0.0.1:{}/cache", slow_relay(nginx.port));
    let mut child =
      spawn_piped(&mut workspace.command(&b, &["--cache-url", &url, "--cache-timeout", "30"]));
    let restoring = poll_until(Duration::from_secs(180), || {
      let staging = fs::read_dir(&b).expect("checkout").flatten().any(|entry| {
        entry.file_name().to_string_lossy().starts_with(".just-restore-")
          && entry.path().join("new/big").exists()
      });
      assert!(
        staging || child.try_wait().expect("wait").is_none(),
        "just ended before the restore"
      );
      staging
    });
    assert!(restoring, "no restore seen");
    let status = Command::new("kill")
      .args([format!("-{signal}"), child.id().to_string()])
      .status()
      .expect("kill");
    assert!(status.success());
    let stopped =
      poll_until(Duration::from_secs(180), || child.try_wait().expect("wait").is_some());
    assert!(stopped, "just did not stop on SIG{signal}");
    let output = child.wait_with_output().expect("output");
    assert_ne!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_no_staging(&b);
    assert!(!b.join("out").exists(), "a partial output was put in place");
    assert_eq!(workspace.runs(), 1, "the recipe ran after the signal");
  }
}

fn store_objects_are_readable_per_the_umask() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let mut checked = 0;
  for directory in ["ac", "cas"] {
    for entry in fs::read_dir(store.path().join(directory)).expect("objects") {
      let path = entry.expect("object").path();
      assert_eq!(mode(&path), 0o666 & !umask(), "{}", path.display());
      checked += 1;
    }
  }
  assert!(checked > 3);
}

fn corrupt_object_is_replaced_by_the_next_publisher() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let blob = store.path().join("cas").join(blake3::hash(b"A\n").to_hex().as_str());
  fs::write(&blob, "X\n").expect("corrupt");
  let b = workspace.checkout("b", "A\n");
  assert_built(&workspace.just(&b, &[&flag]), 1);
  assert_eq!(fs::read(&blob).expect("blob"), b"A\n", "the corrupt blob was not replaced");
  let c = workspace.checkout("c", "A\n");
  assert_built(&workspace.just(&c, &[&flag]), 0);
  assert_eq!(workspace.runs(), 2);
}

fn unwritable_store_keeps_a_valid_local_entry() {
  let data = tempfile::tempdir().expect("data");
  // Serves files, refuses PUT.
  let nginx = Nginx::start_with(data.path(), "");
  let url = nginx.url();
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let first = workspace.just(&a, &["--cache-url", &url]);
  assert_built(&first, 1);
  assert!(text(&first.stderr).contains("failed while publishing"), "{}", text(&first.stderr));
  let second = workspace.just(&a, &["--cache-url", &url]);
  assert_eq!(second.status.code(), Some(0));
  assert!(text(&second.stderr).contains("failed while writing"), "{}", text(&second.stderr));
  assert_eq!(workspace.runs(), 1, "the valid local entry was not used");
}

#[cfg(target_os = "linux")]
fn cache_url_is_not_in_the_helper_arguments() {
  let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
  let port = silent.local_addr().expect("address").port();
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let url = format!("http://user:sekrit@127.0.0.1:{port}/c");
  for from_environment in [false, true] {
    let mut command = if from_environment {
      let mut command = workspace.command(&a, &["--cache-timeout", "20"]);
      command.env("JUST_CACHE_URL", &url);
      command
    } else {
      workspace.command(&a, &["--cache-url", &url, "--cache-timeout", "20"])
    };
    command.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    let mut child = command.spawn().expect("spawn just");
    let parent = crate::common::process::pid(&child);
    let mut helper = None;
    poll_until(Duration::from_secs(180), || {
      helper = crate::common::process::processes().into_iter().find(|process| {
        process.parent() == Some(parent) && process.command_line.contains("just-cache-store")
      });
      helper.is_some()
    });
    let helper = helper.expect("the helper was not seen");
    let arguments = helper.command_line.clone();
    let environment = helper.environment();
    let _ = child.kill();
    let _ = child.wait();
    assert!(!arguments.contains("sekrit"), "{arguments}");
    assert!(!environment.contains("sekrit"), "the password is in the helper's environment");
  }
  drop(silent);
}

fn url_without_scheme_is_not_echoed() {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let output = workspace.just(&a, &["--cache-url", "user:sekrit@cache.example/x"]);
  assert_built(&output, 1);
  let stderr = text(&output.stderr);
  assert!(!stderr.contains("sekrit"), "{stderr}");
  assert!(stderr.contains("has no scheme"), "{stderr}");
}

fn fifo_or_socket_in_an_output_directory_neither_hangs_nor_fails() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let justfile = JUSTFILE.replace(
    "  chmod 750 bin\n",
    "  chmod 750 bin\n  rm -f out/fifo out/socket\n  mkfifo out/fifo\n  python3 -c \
       \"import socket; socket.socket(socket.AF_UNIX).bind('out/socket')\"\n",
  );
  fs::write(a.join("justfile"), justfile).expect("justfile");
  for warnings in [1, 1] {
    let output = run_bounded(&mut workspace.command(&a, &[&flag]));
    assert_built(&output, warnings);
    assert!(text(&output.stderr).contains("not published"), "{}", text(&output.stderr));
  }
}

fn dangling_symbolic_link_output_counts_as_missing() {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  fs::write(
    a.join("justfile"),
    "set unstable\nset lists\n\n[cache(outputs=['link'])]\nbuild:\n  #!/bin/sh\n  echo x > target\n  \
     ln -sf target link\n  echo ran >> \"$COUNTER\"\n",
  )
  .expect("justfile");
  assert_eq!(workspace.just(&a, &[]).status.code(), Some(0));
  assert_eq!(workspace.just(&a, &[]).status.code(), Some(0));
  assert_eq!(workspace.runs(), 1);
  fs::remove_file(a.join("target")).expect("remove target");
  assert_eq!(workspace.just(&a, &[]).status.code(), Some(0));
  assert_eq!(workspace.runs(), 2, "a dangling link output was taken as present");
}

fn deep_glob_over_a_symbolic_link_loop_ends() {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  fs::create_dir_all(a.join("src/deep/er")).expect("dirs");
  fs::write(a.join("src/deep/er/b.txt"), "B\n").expect("b");
  symlink("..", &a.join("src/deep/loop"));
  symlink("../..", &a.join("src/deep/er/loop"));
  fs::write(
    a.join("justfile"),
    "set unstable\nset lists\n\n[cache(inputs=['src/**/*.txt'])]\nbuild:\n  #!/bin/sh\n  \
     echo ran >> \"$COUNTER\"\n",
  )
  .expect("justfile");
  let output = run_bounded(&mut workspace.command(&a, &["-vv"]));
  let stderr = text(&output.stderr);
  assert_eq!(output.status.code(), Some(0), "{stderr}");
  for input in ["\"src/a.txt\"", "\"src/deep/er/b.txt\""] {
    assert!(stderr.contains(input), "{input} not in the key: {stderr}");
  }
  assert!(!stderr.contains("loop/"), "{stderr}");
}

fn input_edited_while_the_recipe_runs_is_not_cached() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  fs::write(
    a.join("justfile"),
    "set unstable\nset lists\n\n[cache(inputs=['src/a.txt'])]\nbuild:\n  #!/bin/sh\n  \
     echo ran >> \"$COUNTER\"\n  if [ -e edit ]; then echo B > src/a.txt; fi\n",
  )
  .expect("justfile");
  fs::write(a.join("edit"), "").expect("flag");
  let output = workspace.just(&a, &[&flag]);
  assert_eq!(output.status.code(), Some(0));
  assert!(text(&output.stderr).contains("changed while recipe"), "{}", text(&output.stderr));
  assert!(!store.path().join("ac").exists(), "the run was published");
  fs::remove_file(a.join("edit")).expect("flag");
  fs::write(a.join("src/a.txt"), "A\n").expect("undo");
  assert_eq!(workspace.just(&a, &[&flag]).status.code(), Some(0));
  assert_eq!(workspace.runs(), 2, "the run with the edited input was recorded");
  assert_eq!(workspace.just(&a, &[&flag]).status.code(), Some(0));
  assert_eq!(workspace.runs(), 2);
}

fn dot_and_climbing_outputs_are_compile_errors() {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  for (output, problem) in [
    (".", "is not a plain path (it has an empty or `.` component)"),
    ("", "is empty"),
    ("/tmp/x", "is not a relative path"),
    ("../x", "climbs out of the working directory with `..`"),
  ] {
    fs::write(
      a.join("justfile"),
      format!("set unstable\nset lists\n\n[cache(outputs=['out', '{output}'])]\nbuild:\n  #!/bin/sh\n  true\n"),
    )
    .expect("justfile");
    let result = workspace.just(&a, &[]);
    assert_eq!(result.status.code(), Some(1));
    let column = 24;
    let caret = if output.is_empty() { 2 } else { output.len() + 2 };
    assert_eq!(
      text(&result.stderr),
      format!(
        "error: cache output `{output}` {problem}\n ——▶ justfile:4:{column}\n  │\n4 │ \
         [cache(outputs=['out', '{output}'])]\n  │{}{}\n",
        " ".repeat(column),
        "^".repeat(caret)
      )
    );
  }
}

fn background_process_holding_the_output_does_not_hold_the_run() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let justfile = JUSTFILE.replace("  chmod 750 bin\n", "  chmod 750 bin\n  sleep 20 &\n");
  fs::write(a.join("justfile"), justfile).expect("justfile");
  let started = Instant::now();
  let output = run_bounded(&mut workspace.command(&a, &[&flag]));
  assert_built(&output, 0);
  assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
  let b = workspace.checkout("b", "A\n");
  fs::write(b.join("justfile"), fs::read(a.join("justfile")).expect("justfile")).expect("copy");
  assert_built(&run_bounded(&mut workspace.command(&b, &[&flag])), 0);
  assert_eq!(workspace.runs(), 1);
}

fn http_store_answering_403_for_missing_objects_is_populated() {
  let data = tempfile::tempdir().expect("data");
  // As S3 without `ListBucket`: 403 for a missing object, PUT allowed.
  let nginx = Nginx::start_with(
    data.path(),
    "dav_methods PUT; create_full_put_path on; dav_access user:rw all:r; \
     set $deny \"\"; if ($request_method != PUT) { set $deny \"R\"; } \
     if (!-f $request_filename) { set $deny \"${deny}M\"; } \
     if ($deny = RM) { return 403; }",
  );
  let url = nginx.url();
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &["--cache-url", &url]), 0);
  assert!(data.path().join("cache/ac").is_dir(), "the store was not populated");
  let b = workspace.checkout("b", "A\n");
  assert_built(&workspace.just(&b, &["--cache-url", &url]), 0);
  assert_eq!(workspace.runs(), 1);
}

/// Answers the first request of a connection with 404 and never answers
/// another on it.
fn answer_once(connection: &mut TcpStream, _: &str) {
  let _ = connection
    .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n");
  // Hold the connection, silent, reading whatever comes.
  let mut sink = vec![0; 4096];
  while matches!(connection.read(&mut sink), Ok(count) if count > 0) {}
}

fn cache_timeout_bounds_every_request() {
  let (listener, url, _) = serve(answer_once);
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  let started = Instant::now();
  let output =
    run_bounded(&mut workspace.command(&a, &["--cache-url", &url, "--cache-timeout", "2"]));
  assert_built(&output, 1);
  assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
  drop(listener);
}

fn https_store_with_a_private_ca_is_trusted_through_ssl_cert_file() {
  let data = tempfile::tempdir().expect("data");
  let tls = tempfile::tempdir().expect("tls");
  certificates(tls.path());
  let nginx = Nginx::start_server(
    data.path(),
    " ssl",
    &format!(
      "ssl_certificate {}; ssl_certificate_key {};",
      tls.path().join("server.pem").display(),
      tls.path().join("server.key").display()
    ),
    "dav_methods PUT DELETE; create_full_put_path on; dav_access user:rw all:r;",
  );
  let url = format!("https://127.0.0.1:{}/cache", nginx.port);
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  // Without the CA: refused, and the warning says why.
  let output = workspace.just(&a, &["--cache-url", &url]);
  assert_built(&output, 1);
  let stderr = text(&output.stderr);
  assert!(stderr.to_lowercase().contains("certificate"), "{stderr}");
  // With it: shared.
  let b = workspace.checkout("b", "A\n");
  let c = workspace.checkout("c", "A\n");
  for checkout in [&b, &c] {
    let mut command = workspace.command(checkout, &["--cache-url", &url]);
    command.env("SSL_CERT_FILE", tls.path().join("ca.pem"));
    assert_built(&command.output().expect("just"), 0);
  }
  assert_eq!(workspace.runs(), 2, "the https store was not used");
}

/// An output that is a mount point cannot be renamed: the restore puts
/// nothing in its place and takes nothing from it, and the recipe runs.
/// (In a user and mount namespace of its own, `unshare -rm`, to mount a
/// tmpfs there without privileges.)
#[cfg(target_os = "linux")]
fn output_that_is_a_mount_point_is_not_lost() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let b = workspace.checkout("b", "A\n");
  fs::create_dir(b.join("out")).expect("mount point");
  let mut command = Command::new("unshare");
  crate::common::clean_environment(&mut command);
  let output = command
    .current_dir(&b)
    .env("COUNTER", workspace.root.path().join("count"))
    .env("JUST", crate::common::binary())
    .env("STORE", &flag)
    .args(["-rm", "sh", "-c"])
    .arg(
      "mount -t tmpfs none out || exit 99; echo kept > out/kept; \
       \"$JUST\" \"$STORE\" build; status=$?; cat out/kept; exit $status",
    )
    .stdin(std::process::Stdio::null())
    .output()
    .expect("unshare");
  let stderr = text(&output.stderr);
  assert_ne!(output.status.code(), Some(99), "cannot mount in a namespace here: {stderr}");
  assert_eq!(output.status.code(), Some(0), "{stderr}");
  assert_eq!(text(&output.stdout), format!("{BUILT}kept\n"), "{stderr}");
  assert!(stderr.contains("failed to restore the outputs"), "{stderr}");
  assert_eq!(workspace.runs(), 2, "a failed restore was reported as a hit");
  assert_no_staging(&b);
}
