//! A `--cache-dir` store written by someone hostile, and the restore raced
//! by the checkout: FIFOs and links where objects and directories should be,
//! a parent swapped for a link mid-restore, stagings killed runs left, links
//! to the justfile, entries of other outputs, many writers at once, `--clean`
//! on such a store and an entry of many files.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use crate::common::process::{poll_until, run_bounded, run_within, spawn_piped};
use crate::common::store::{
  assert_built, forge, only_record, published_entry, store_flag, symlink, Workspace, BUILT,
  JUSTFILE,
};
use crate::common::{just_in, text};

tests! {
  ;
  extensions:
  fifo_as_a_blob_is_refused_and_replaced,
  fifo_as_a_record_is_refused_and_replaced,
  linked_store_directories_are_neither_read_nor_written,
  parent_swapped_for_a_link_during_a_restore_writes_nothing_outside,
  stagings_of_killed_runs_are_removed_and_live_ones_left,
  declared_outputs_are_part_of_the_shared_key_only,
  links_to_the_justfile_its_imports_or_the_caches_are_refused,
  concurrent_writers_of_one_entry_leave_it_complete,
  clean_of_a_hostile_store_follows_no_link_and_never_blocks,
  entry_of_twenty_thousand_files_is_published_and_restored,
  entry_larger_than_a_reader_accepts_is_not_published,
  output_a_thousand_directories_deep_is_restored_with_few_open_files,
  entry_with_paths_longer_than_the_system_allows_is_refused,
  output_longer_than_the_system_allows_is_a_miss_not_an_error,
}

fn mkfifo(path: &Path) {
  let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
  assert!(status.success(), "mkfifo {}", path.display());
}

fn blob_path(store: &Path, contents: &[u8]) -> PathBuf {
  store.join("cas").join(blake3::hash(contents).to_hex().as_str())
}

fn is_regular(path: &Path) -> bool {
  fs::symlink_metadata(path).is_ok_and(|metadata| metadata.is_file())
}

/// A FIFO where the captured output's blob should be: the open does not
/// block, the blob is refused with a warning, the recipe runs and its
/// publication replaces the FIFO.
fn fifo_as_a_blob_is_refused_and_replaced() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let blob = blob_path(store.path(), BUILT.as_bytes());
  fs::remove_file(&blob).expect("remove blob");
  mkfifo(&blob);
  let b = workspace.checkout("b", "A\n");
  let output = run_bounded(&mut workspace.command(&b, &[&flag]));
  assert_built(&output, 1);
  let stderr = text(&output.stderr);
  assert!(stderr.contains("is a FIFO, socket or device, not a regular file"), "{stderr}");
  assert_eq!(workspace.runs(), 2);
  assert!(is_regular(&blob), "the FIFO was not replaced");
  assert_eq!(fs::read_to_string(&blob).expect("blob"), BUILT);
  let c = workspace.checkout("c", "A\n");
  assert_built(&run_bounded(&mut workspace.command(&c, &[&flag])), 0);
  assert_eq!(workspace.runs(), 2);
}

/// A FIFO as the `ac/` record of the key: the lookup does not block.
fn fifo_as_a_record_is_refused_and_replaced() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let record = only_record(store.path());
  fs::remove_file(&record).expect("remove record");
  mkfifo(&record);
  let b = workspace.checkout("b", "A\n");
  let output = run_bounded(&mut workspace.command(&b, &[&flag]));
  assert_built(&output, 1);
  assert!(text(&output.stderr).contains("is refused"), "{}", text(&output.stderr));
  assert!(is_regular(&record), "the FIFO was not replaced");
  let c = workspace.checkout("c", "A\n");
  assert_built(&run_bounded(&mut workspace.command(&c, &[&flag])), 0);
  assert_eq!(workspace.runs(), 2);
}

/// Every path below `root`.
fn contents(root: &Path) -> Vec<PathBuf> {
  let mut found = Vec::new();
  let mut pending = vec![root.to_path_buf()];
  while let Some(path) = pending.pop() {
    if fs::symlink_metadata(&path).is_ok_and(|metadata| metadata.is_dir()) {
      for child in fs::read_dir(&path).expect("read_dir") {
        let child = child.expect("child").path();
        found.push(child.clone());
        pending.push(child);
      }
    }
  }
  found.sort();
  found
}

/// `cas` or `ac` a link: nothing is published through it, and what it
/// points to is not read (the recipe runs).
fn linked_store_directories_are_neither_read_nor_written() {
  let workspace = Workspace::new();
  let store = workspace.root.path().join("store");
  let elsewhere = workspace.root.path().join("elsewhere");
  let flag = store_flag(&store);
  fs::create_dir_all(&store).expect("store");
  fs::create_dir_all(elsewhere.join("cas")).expect("elsewhere");
  symlink(&elsewhere.join("cas").display().to_string(), &store.join("cas"));
  let a = workspace.checkout("a", "A\n");
  let output = workspace.just(&a, &[&flag]);
  assert_built(&output, 1);
  assert!(text(&output.stderr).contains("`cas` is a symbolic link"), "{}", text(&output.stderr));
  assert_eq!(contents(&elsewhere.join("cas")), Vec::<PathBuf>::new(), "published through the link");
  fs::remove_file(store.join("cas")).expect("unlink");
  for linked in ["cas", "ac"] {
    let b = workspace.checkout(&format!("b-{linked}"), "A\n");
    assert_built(&workspace.just(&b, &[&flag]), 0);
    let runs = workspace.runs();
    fs::rename(store.join(linked), elsewhere.join(linked)).expect("move");
    symlink(&elsewhere.join(linked).display().to_string(), &store.join(linked));
    let c = workspace.checkout(&format!("c-{linked}"), "A\n");
    let output = workspace.just(&c, &[&flag]);
    assert_built(&output, 1);
    assert_eq!(workspace.runs(), runs + 1, "{linked}: read through the link");
    fs::remove_file(store.join(linked)).expect("unlink");
    fs::remove_dir_all(&store).expect("reset");
    fs::remove_dir_all(elsewhere.join(linked)).expect("reset");
  }
}

const MANY: &str = r#"set unstable
set lists

[cache(outputs=['build/app'])]
build:
  #!/bin/sh
  if [ -e no-build ]; then exit 7; fi
  echo "building from $(cat src/a.txt)"
  echo "a warning" >&2
  mkdir -p build/app
  for i in $(seq 200); do head -c 4096 /dev/urandom > build/app/f$i; done
  echo ran >> "$COUNTER"
"#;

/// While a restore runs, another process keeps swapping the output's
/// parent for a link to a directory outside the project: over many
/// restores, nothing is ever written there.
fn parent_swapped_for_a_link_during_a_restore_writes_nothing_outside() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let outside = workspace.root.path().join("outside");
  fs::create_dir(&outside).expect("outside");
  let a = workspace.checkout("a", "A\n");
  fs::write(a.join("justfile"), MANY).expect("justfile");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  for attempt in 0..10 {
    let b = workspace.checkout(&format!("b{attempt}"), "A\n");
    fs::write(b.join("justfile"), MANY).expect("justfile");
    // Should the restore be refused, the recipe must not write either.
    fs::write(b.join("no-build"), "").expect("no-build");
    fs::create_dir(b.join("build")).expect("build");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
      let (stop, build, outside) = (Arc::clone(&stop), b.join("build"), outside.clone());
      std::thread::spawn(move || {
        let real = build.with_file_name("build.real");
        while !stop.load(Ordering::Relaxed) {
          if fs::rename(&build, &real).is_ok() {
            let _ = std::os::unix::fs::symlink(&outside, &build);
            std::thread::yield_now();
            let _ = fs::remove_file(&build);
            let _ = fs::rename(&real, &build);
          }
          std::thread::yield_now();
        }
      })
    };
    let output = run_bounded(&mut workspace.command(&b, &[&flag]));
    stop.store(true, Ordering::Relaxed);
    swapper.join().expect("swapper");
    assert_eq!(
      contents(&outside),
      Vec::<PathBuf>::new(),
      "attempt {attempt}: {}",
      text(&output.stderr)
    );
  }
  assert_eq!(workspace.runs(), 1);
}

/// Takes the lock on `directory` as a live run holds its staging's: a
/// `flock` process, until killed.
fn hold_lock(directory: &Path) -> std::process::Child {
  let child = Command::new("flock")
    .arg(directory)
    .args(["sleep", "120"])
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .expect("flock");
  let opened = fs::File::open(directory).expect("open staging");
  let taken = poll_until(Duration::from_secs(180), || {
    match rustix::fs::flock(&opened, rustix::fs::FlockOperation::NonBlockingLockShared) {
      Err(rustix::io::Errno::WOULDBLOCK) => true,
      Ok(()) => {
        rustix::fs::flock(&opened, rustix::fs::FlockOperation::Unlock).expect("unlock");
        false
      }
      Err(error) => panic!("flock: {error}"),
    }
  });
  assert!(taken, "the lock was not taken");
  child
}

/// A staging a killed run left (no process holds its lock) is removed by
/// the next restore next to it; one a live run holds is left alone.
fn stagings_of_killed_runs_are_removed_and_live_ones_left() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let b = workspace.checkout("b", "A\n");
  let dead = b.join(".just-restore-4194000-0");
  fs::create_dir_all(dead.join("new/sub")).expect("dead staging");
  fs::write(dead.join("new/sub/big"), vec![0; 1 << 20]).expect("dead file");
  let live = b.join(".just-restore-1-0");
  fs::create_dir_all(live.join("new")).expect("live staging");
  fs::write(live.join("new/file"), "x").expect("live file");
  let mut holder = hold_lock(&live);
  let output = workspace.just(&b, &[&flag]);
  let _ = holder.kill();
  let _ = holder.wait();
  assert_built(&output, 0);
  assert_eq!(workspace.runs(), 1, "not restored");
  assert!(!dead.exists(), "the killed run's staging is still there");
  assert!(live.join("new/file").exists(), "a live run's staging was removed");
}

/// An entry published for other outputs is not looked up: no warning,
/// the recipe runs and is published for its outputs; `-vv` shows the local
/// key, which does not name the outputs.
fn declared_outputs_are_part_of_the_shared_key_only() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let fewer = JUSTFILE.replace("outputs=['out', 'bin']", "outputs=['out']");
  let b = workspace.checkout("b", "A\n");
  fs::write(b.join("justfile"), &fewer).expect("justfile");
  assert_built(&workspace.just(&b, &[&flag]), 0);
  assert_eq!(workspace.runs(), 2);
  let c = workspace.checkout("c", "A\n");
  fs::write(c.join("justfile"), &fewer).expect("justfile");
  let output = workspace.just(&c, &[&flag, "-vv"]);
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  assert_eq!(workspace.runs(), 2, "not restored: {}", text(&output.stderr));
  let stderr = text(&output.stderr);
  assert!(stderr.contains("\"working_directory\""), "{stderr}");
  assert!(!stderr.contains("\"outputs\""), "{stderr}");
  assert!(!stderr.contains("warning:"), "{stderr}");
}

/// An entry whose output `bin` is a link to the justfile, a file it
/// imports (one defining only an alias too), `.justcache` (or what is in
/// it) or the store is refused.
fn links_to_the_justfile_its_imports_or_the_caches_are_refused() {
  let workspace = Workspace::new();
  let justfile = format!("{JUSTFILE}\nimport 'extra.just'\nimport 'aliases.just'\n");
  let b = workspace.checkout("b", "A\n");
  let store = b.join("store");
  let flag = store_flag(&store);
  let a = workspace.checkout("a", "A\n");
  for checkout in [&a, &b] {
    fs::write(checkout.join("justfile"), &justfile).expect("justfile");
    fs::write(checkout.join("extra.just"), "extra := 'x'\n").expect("import");
    fs::write(checkout.join("aliases.just"), "alias b := build\n").expect("import");
  }
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let legit = published_entry(&store);
  for target in [
    "justfile",
    "extra.just",
    "aliases.just",
    ".justcache",
    ".justcache/CACHEDIR.TAG",
    "store",
    "store/ac",
  ] {
    let mut entry = legit.clone();
    for item in entry["outputs"].as_array_mut().expect("outputs") {
      if item["path"] == "bin" {
        *item = json!({"path": "bin", "type": "symlink", "target": target});
      }
    }
    forge(&store, &entry);
    let runs = workspace.runs();
    let output = workspace.just(&b, &[&flag]);
    assert_built(&output, 1);
    assert!(text(&output.stderr).contains("leads to"), "{target}: {}", text(&output.stderr));
    assert_eq!(workspace.runs(), runs + 1, "{target}: restored");
    assert!(is_regular(&b.join("bin")), "{target}: bin is a link");
    assert_eq!(fs::read_to_string(b.join("justfile")).expect("justfile"), justfile);
  }
}

/// Several runs publish the same entry into one store at once: afterwards
/// a reader gets it whole, and no temporary object is left.
fn concurrent_writers_of_one_entry_leave_it_complete() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let checkouts: Vec<PathBuf> =
    (0..6).map(|index| workspace.checkout(&format!("w{index}"), "A\n")).collect();
  let children: Vec<_> = checkouts
    .iter()
    .map(|checkout| spawn_piped(&mut workspace.command(checkout, &[&flag])))
    .collect();
  for child in children {
    assert_built(&child.wait_with_output().expect("wait"), 0);
  }
  let runs = workspace.runs();
  let reader = workspace.checkout("reader", "A\n");
  assert_built(&workspace.just(&reader, &[&flag]), 0);
  assert_eq!(workspace.runs(), runs, "the reader did not get the entry");
  for directory in ["ac", "cas"] {
    for object in fs::read_dir(store.path().join(directory)).expect("objects") {
      let name = object.expect("object").file_name();
      assert!(!name.to_string_lossy().starts_with('.'), "left: {}", name.to_string_lossy());
    }
  }
}

/// `--clean` on a store holding links and FIFOs named as objects, a
/// record naming a FIFO, and then a `cas` that is a link: it neither
/// blocks nor removes anything outside the store.
fn clean_of_a_hostile_store_follows_no_link_and_never_blocks() {
  let workspace = Workspace::new();
  let store = workspace.root.path().join("store");
  let flag = store_flag(&store);
  let victim = workspace.root.path().join("victim");
  fs::create_dir(&victim).expect("victim");
  let precious = victim.join("f".repeat(64));
  fs::write(&precious, "precious\n").expect("precious");
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let hex = |digit: &str| digit.repeat(64);
  symlink(&precious.display().to_string(), &store.join("cas").join(hex("1")));
  mkfifo(&store.join("cas").join(hex("2")));
  mkfifo(&store.join("ac").join(hex("3")));
  fs::write(store.join("ac").join(hex("4")), hex("2")).expect("record of a FIFO");
  let clean = |checkout: &Path| run_bounded(&mut just_in(checkout, &["--clean", &flag]));
  let output = clean(&a);
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  assert_eq!(fs::read_to_string(&precious).expect("precious"), "precious\n");
  assert!(!store.join("cas").exists() && !store.join("ac").exists(), "{:?}", contents(&store));
  fs::create_dir(store.join("ac")).expect("ac");
  symlink(&victim.display().to_string(), &store.join("cas"));
  let output = clean(&a);
  assert_eq!(fs::read_to_string(&precious).expect("precious"), "precious\n");
  assert!(text(&output.stderr).contains("symbolic link"), "{}", text(&output.stderr));
}

/// An output directory of 20,000 files goes to the store and back.
fn entry_of_twenty_thousand_files_is_published_and_restored() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let justfile = "set unstable\nset lists\n\n[cache(outputs=['many'])]\nbuild:\n  #!/bin/sh\n  \
                  echo \"building from $(cat src/a.txt)\"\n  echo \"a warning\" >&2\n  \
                  mkdir -p many\n  python3 -c \"[open('many/f%d' % i, 'w').write(str(i)) for i in \
                  range(20000)]\"\n  echo ran >> \"$COUNTER\"\n";
  // A hang detector, not a speed test: a debug build on a loaded machine
  // takes half a minute for each run (creating 20,000 files).
  let bound = Duration::from_secs(600);
  let a = workspace.checkout("a", "A\n");
  fs::write(a.join("justfile"), justfile).expect("justfile");
  assert_built(&run_within(&mut workspace.command(&a, &[&flag]), bound), 0);
  let b = workspace.checkout("b", "A\n");
  fs::write(b.join("justfile"), justfile).expect("justfile");
  assert_built(&run_within(&mut workspace.command(&b, &[&flag]), bound), 0);
  assert_eq!(workspace.runs(), 1, "not restored");
  assert_eq!(fs::read_dir(b.join("many")).expect("many").count(), 20000);
  assert_eq!(fs::read_to_string(b.join("many/f19999")).expect("file"), "19999");
}

/// An entry whose text is larger than the 256 MiB a reader accepts (66,000
/// files whose paths are 4,000 bytes long) is not published, with a
/// warning that says why, instead of being published and then refused by
/// every reader; the run itself succeeds.
fn entry_larger_than_a_reader_accepts_is_not_published() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let justfile = "set unstable\nset lists\n\n[cache(outputs=['deep'])]\nbuild:\n  #!/bin/sh\n  \
                  echo \"building from $(cat src/a.txt)\"\n  echo \"a warning\" >&2\n  \
                  python3 -c \"import os; d = '/'.join(['deep'] + [c * 250 for c in \
                  'abcdefghijklmno']); os.makedirs(d); [open(d + '/%0250d' % i, \
                  'w').close() for i in range(66000)]\"\n  echo ran >> \"$COUNTER\"\n";
  let a = workspace.checkout("a", "A\n");
  fs::write(a.join("justfile"), justfile).expect("justfile");
  // A debug build takes about 45 s for the 261 MiB of entry text.
  let output = run_within(&mut workspace.command(&a, &[&flag]), Duration::from_secs(600));
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  assert_eq!(text(&output.stdout), "building from A\n");
  let published = format!(
    "warning: not published to shared cache `{}`: the entry takes 261 MiB, more than the 256 MiB \
     a reader accepts\n",
    store.path().display()
  );
  assert_eq!(text(&output.stderr), format!("a warning\n{published}"));
  assert!(
    !store.path().join("ac").exists()
      || fs::read_dir(store.path().join("ac")).expect("ac").next().is_none()
  );
  assert_eq!(workspace.runs(), 1);
}

/// A recipe whose output is a tree 1,000 directories deep.
const DEEP: &str = r#"set unstable
set lists

[cache(outputs=['deep'])]
build:
  #!/bin/sh
  echo "building from $(cat src/a.txt)"
  echo "a warning" >&2
  mkdir deep && cd deep && for i in $(seq 1000); do mkdir d && cd d; done && echo bottom > leaf
  echo ran >> "$COUNTER"
"#;

/// An output tree 1,000 directories deep replaces an older one of the same
/// depth in a run allowed 64 open files: the restore holds a few at a time
/// (not one per level), and leaves no staging directory behind.
fn output_a_thousand_directories_deep_is_restored_with_few_open_files() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  fs::write(a.join("justfile"), DEEP).expect("justfile");
  assert_built(&run_within(&mut workspace.command(&a, &[&flag]), Duration::from_secs(600)), 0);
  let b = workspace.checkout("b", "A\n");
  fs::write(b.join("justfile"), DEEP).expect("justfile");
  let mut bottom = b.join("deep");
  for _ in 0..1000 {
    bottom.push("d");
  }
  fs::create_dir_all(&bottom).expect("older output");
  fs::write(bottom.join("leaf"), "older\n").expect("older leaf");
  let mut command = Command::new("sh");
  crate::common::clean_environment(&mut command);
  command
    .current_dir(&b)
    .env("COUNTER", workspace.root.path().join("count"))
    .args(["-c", "ulimit -n 64 && exec \"$0\" \"$@\""])
    .arg(crate::common::binary())
    .args([&flag, "build"])
    .stdin(Stdio::null());
  let output = run_within(&mut command, Duration::from_secs(600));
  assert_built(&output, 0);
  assert_eq!(workspace.runs(), 1, "not restored");
  assert_eq!(fs::read_to_string(bottom.join("leaf")).expect("leaf"), "bottom\n");
  for name in fs::read_dir(&b).expect("checkout") {
    let name = name.expect("name").file_name();
    assert!(
      !name.to_string_lossy().starts_with(".just-restore-"),
      "left behind: {}",
      name.display()
    );
  }
}

/// An entry holding 25 nested directories of 200-character names (paths
/// past `PATH_MAX` once below the working directory) is refused, saying
/// why, and the recipe runs: restored through directory handles, such a
/// tree could not be read by its path afterwards.
fn entry_with_paths_longer_than_the_system_allows_is_refused() {
  let store = tempfile::tempdir().expect("store");
  let flag = store_flag(store.path());
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  assert_built(&workspace.just(&a, &[&flag]), 0);
  let mut entry = published_entry(store.path());
  let mut path = "out".to_string();
  for letter in 'a'..='y' {
    path.push('/');
    path.push_str(&letter.to_string().repeat(200));
    let directory = json!({"path": path, "type": "directory", "mode": 0o755});
    entry["outputs"].as_array_mut().expect("outputs").push(directory);
  }
  forge(store.path(), &entry);
  let hex = blake3::hash(entry.to_string().as_bytes()).to_hex();
  let b = workspace.checkout("b", "A\n");
  let output = workspace.just(&b, &[&flag]);
  let length = b.join("out").as_os_str().len() + 25 * 201;
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  assert_eq!(text(&output.stdout), BUILT);
  assert_eq!(
    text(&output.stderr),
    format!(
      "warning: shared cache `{}`: entry `cas/{hex}` refused (a path is longer than this system \
       allows ({length}, at most 4095)); running the recipe\na warning\n",
      store.path().display()
    )
  );
  assert_eq!(workspace.runs(), 2);
  assert!(!b.join("out").join("a".repeat(200)).exists(), "restored");
}

/// A recipe whose output holds a path past `PATH_MAX`.
const TOO_DEEP: &str = r#"set unstable
set lists

[cache(outputs=['deep'])]
build:
  #!/bin/sh
  echo "building from $(cat src/a.txt)"
  echo "a warning" >&2
  rm -rf deep && mkdir deep && cd deep
  python3 -c "import os; [(os.mkdir(c * 200), os.chdir(c * 200)) for c in 'abcdefghijklmnopqrstuvwxy']"
  echo ran >> "$COUNTER"
"#;

/// An output that cannot be read (here, a path longer than the system
/// takes) is warned about and not recorded: each run is a miss that runs
/// the recipe, never an error that stops every run.
fn output_longer_than_the_system_allows_is_a_miss_not_an_error() {
  let workspace = Workspace::new();
  let a = workspace.checkout("a", "A\n");
  fs::write(a.join("justfile"), TOO_DEEP).expect("justfile");
  for run in 1..=2 {
    let output = workspace.just(&a, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), BUILT);
    assert_eq!(
      text(&output.stderr),
      format!(
        "a warning\nwarning: failed to read cache output `{}`: File name too long (os error 36); \
         it is not recorded\n",
        a.join("deep").display()
      )
    );
    assert_eq!(workspace.runs(), run);
  }
}
