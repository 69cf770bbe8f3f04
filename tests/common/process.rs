//! Processes the tests drive: their output read as it comes, waits with a
//! deadline (a hang fails the test, never stalls the suite), signals to a
//! process or its group, and the processes alive on the machine.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long any one expected thing may take to appear.
pub(crate) const DEADLINE: Duration = Duration::from_secs(180);

/// What a stream carried so far, and whether it has ended.
#[derive(Clone, Default)]
pub(crate) struct Collected(Arc<(Mutex<String>, AtomicBool)>);

impl Collected {
  /// The text read so far.
  pub(crate) fn text(&self) -> String {
    self.0 .0.lock().unwrap().clone()
  }

  pub(crate) fn contains(&self, text: &str) -> bool {
    self.0 .0.lock().unwrap().contains(text)
  }

  /// Whether the stream has ended.
  pub(crate) fn ended(&self) -> bool {
    self.0 .1.load(Ordering::SeqCst)
  }
}

/// Read `stream` on a thread of its own until it ends.
pub(crate) fn collect(mut stream: impl Read + Send + 'static) -> Collected {
  let collected = Collected::default();
  let sink = collected.clone();
  std::thread::spawn(move || {
    let mut buffer = [0u8; 4096];
    while let Ok(count @ 1..) = stream.read(&mut buffer) {
      sink.0 .0.lock().unwrap().push_str(&String::from_utf8_lossy(&buffer[..count]));
    }
    sink.0 .1.store(true, Ordering::SeqCst);
  });
  collected
}

/// Poll `condition` until it holds or `limit` has passed: whether it held.
pub(crate) fn poll_until(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
  let start = Instant::now();
  while !condition() {
    if start.elapsed() >= limit {
      return false;
    }
    std::thread::sleep(Duration::from_millis(5));
  }
  true
}

/// Poll until `condition` holds; panic with `what` at the deadline.
#[track_caller]
pub(crate) fn wait_until(what: &str, condition: impl FnMut() -> bool) {
  assert!(poll_until(DEADLINE, condition), "timed out waiting for {what}");
}

/// The status as a shell reports it: the exit code, or 128 + the signal
/// that ended the process.
#[cfg(unix)]
pub(crate) fn exit_code(status: &ExitStatus) -> i32 {
  use std::os::unix::process::ExitStatusExt;
  status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}

/// The status as a shell reports it: the exit code.
#[cfg(not(unix))]
pub(crate) fn exit_code(status: &ExitStatus) -> i32 {
  status.code().unwrap_or(-1)
}

/// Send `signal` to the process `pid` (negative: its process group).
pub(crate) fn signal(pid: i32, signal: i32) {
  // SAFETY: kill sends a signal; it touches no memory of ours.
  unsafe { libc::kill(pid, signal) };
}

/// The process id of `child`, as `kill` takes it.
pub(crate) fn pid(child: &Child) -> i32 {
  i32::try_from(child.id()).unwrap()
}

/// Wait for `child` to end, for at most `limit`: its status; past the
/// limit it is killed, and the answer is `None`.
pub(crate) fn wait_within(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
  wait_or_kill(child, limit, false)
}

/// As `wait_within`, for a child that leads a process group of its own:
/// past the limit the whole group is killed.
pub(crate) fn wait_within_group(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
  wait_or_kill(child, limit, true)
}

fn wait_or_kill(child: &mut Child, limit: Duration, group: bool) -> Option<ExitStatus> {
  let deadline = Instant::now() + limit;
  loop {
    if let Ok(Some(status)) = child.try_wait() {
      return Some(status);
    }
    if Instant::now() > deadline {
      if group {
        signal(-pid(child), libc::SIGKILL);
      }
      let _ = child.kill();
      let _ = child.wait();
      return None;
    }
    std::thread::sleep(Duration::from_millis(5));
  }
}

/// Run `command`, failing if it takes longer than five minutes: a hang, not
/// a slow run on a loaded CI machine (a 20,000-file entry took 36 s there).
pub(crate) fn run_bounded(command: &mut Command) -> Output {
  run_within(command, Duration::from_secs(300))
}

/// Start `command`, its standard output and error piped to the test.
pub(crate) fn spawn_piped(command: &mut Command) -> Child {
  command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn just")
}

/// `command`'s output, killing it (and failing) if it runs past `limit`.
pub(crate) fn run_within(command: &mut Command, limit: Duration) -> Output {
  let mut child = spawn_piped(command);
  let deadline = Instant::now() + limit;
  while child.try_wait().expect("wait").is_none() {
    if Instant::now() > deadline {
      let _ = child.kill();
      panic!("just hung");
    }
    std::thread::sleep(Duration::from_millis(20));
  }
  child.wait_with_output().expect("output")
}

/// A process started with both output streams collected as they come; on
/// drop, it and its process group (if it leads one) are killed.
pub(crate) struct Job {
  pub(crate) child: Child,
  stdout: Collected,
  stderr: Collected,
}

impl Job {
  /// Start `command`, its standard output and error piped to the test.
  pub(crate) fn start(command: &mut Command) -> Job {
    let mut child = spawn_piped(command);
    let stdout = collect(child.stdout.take().unwrap());
    let stderr = collect(child.stderr.take().unwrap());
    Job { child, stdout, stderr }
  }

  pub(crate) fn pid(&self) -> i32 {
    pid(&self.child)
  }

  /// Signal the process alone, or its whole group as a terminal would.
  pub(crate) fn signal(&self, signal: i32, group: bool) {
    self::signal(if group { -self.pid() } else { self.pid() }, signal);
  }

  pub(crate) fn stdout(&self) -> String {
    self.stdout.text()
  }

  pub(crate) fn stderr(&self) -> String {
    self.stderr.text()
  }

  /// Whether both output streams have ended.
  pub(crate) fn output_ended(&self) -> bool {
    self.stdout.ended() && self.stderr.ended()
  }

  /// Wait for the process to exit, failing (with what it wrote to its
  /// standard error) past `limit`: its status, 128 + signal if a signal
  /// ended it. Its output may still be coming (`output_ended`).
  pub(crate) fn wait_exit(&mut self, limit: Duration) -> i32 {
    let start = Instant::now();
    loop {
      if let Some(status) = self.child.try_wait().unwrap() {
        return exit_code(&status);
      }
      assert!(start.elapsed() < limit, "just did not exit\nstderr:\n{}", self.stderr());
      std::thread::sleep(Duration::from_millis(5));
    }
  }
}

impl Drop for Job {
  fn drop(&mut self) {
    self.signal(libc::SIGKILL, true);
    let _ = self.child.kill();
    let _ = self.child.wait();
  }
}

/// The program `name` in a directory of `PATH`, the first there.
pub(crate) fn on_path(name: &str) -> Option<PathBuf> {
  let path = std::env::var_os("PATH")?;
  std::env::split_paths(&path).map(|directory| directory.join(name)).find(|file| file.is_file())
}

/// A live process as `/proc` shows it (Linux; elsewhere there is none).
pub(crate) struct Process {
  pub(crate) pid: i32,
  /// The words of its command line, each ended by a NUL.
  pub(crate) command_line: String,
  directory: PathBuf,
}

impl Process {
  /// Its name (`/proc/PID/comm`, with its line end).
  pub(crate) fn name(&self) -> String {
    std::fs::read_to_string(self.directory.join("comm")).unwrap_or_default()
  }

  /// Its state letter (`T` when stopped), if it still lives.
  pub(crate) fn state(&self) -> Option<char> {
    state_of(self.pid)
  }

  /// Its parent's pid, if it still lives.
  pub(crate) fn parent(&self) -> Option<i32> {
    stat_fields(self.pid)?.get(1)?.parse().ok()
  }

  /// Its environment, each variable ended by a NUL.
  pub(crate) fn environment(&self) -> String {
    String::from_utf8_lossy(&std::fs::read(self.directory.join("environ")).unwrap_or_default())
      .into_owned()
  }
}

/// Every live process `/proc` shows.
pub(crate) fn processes() -> Vec<Process> {
  let Ok(entries) = std::fs::read_dir("/proc") else {
    return Vec::new();
  };
  entries
    .flatten()
    .filter_map(|entry| {
      let pid = entry.file_name().to_str()?.parse::<i32>().ok()?;
      let bytes = std::fs::read(entry.path().join("cmdline")).ok()?;
      let command_line = String::from_utf8_lossy(&bytes).into_owned();
      Some(Process { pid, command_line, directory: entry.path() })
    })
    .collect()
}

/// The state letter of process `pid` (`T` when stopped), if it lives.
pub(crate) fn state_of(pid: impl std::fmt::Display) -> Option<char> {
  let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
  stat.rsplit_once(") ").and_then(|(_, rest)| rest.chars().next())
}

/// The fields of `/proc/PID/stat` after the name: state, parent, …
fn stat_fields(pid: i32) -> Option<Vec<String>> {
  let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
  let (_, rest) = stat.rsplit_once(')')?;
  Some(rest.split_whitespace().map(str::to_owned).collect())
}
