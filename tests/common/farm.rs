//! A build farm for the remote-execution tests, started once per test
//! binary: `PostgreSQL` in a fresh database and `BuildGrid`'s server with its
//! SQL scheduler (`tests/remote_execution/farm.py`), and workers of ours
//! speaking the Bots API (`tests/remote_execution/worker.py`; `BuildGrid` ships
//! none). They run with the Python of the virtual environment at
//! `target/reapi-venv` (`.ci/reapi-venv` makes it); without it the tests
//! that need the farm are ignored.
//!
//! Each test group has an instance of its own (its workers serve only it),
//! so tests running at once never take each other's workers. The farm and
//! every worker end when their standard input does, which is when this
//! process exits, however it ends.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::process::{self, poll_until};

/// The instances the farm serves: `""` with the shared workers, and one per
/// test that starts workers of its own.
const INSTANCES: &[&str] =
  &["", "parallel", "killed", "cancelled", "timeout", "properties", "bench"];

/// The workers of the instance `""`, shared by the tests that do not count
/// on a worker being free.
const SHARED_WORKERS: usize = 2;

/// How long the farm may take to start on a loaded machine (it takes 15–25 s).
const STARTUP: Duration = Duration::from_secs(300);

/// The virtual environment (`JUST_REAPI_VENV`, as for the cache tests).
pub(crate) fn venv() -> PathBuf {
  std::env::var_os("JUST_REAPI_VENV")
    .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/reapi-venv"), PathBuf::from)
}

fn python() -> PathBuf {
  venv().join("bin/python")
}

fn script(name: &str) -> PathBuf {
  Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/remote_execution").join(name)
}

/// Whether the farm can run here: the virtual environment with `BuildGrid`.
pub(crate) fn available() -> bool {
  cfg!(target_os = "linux") && venv().join("bin/bgd").is_file() && python().is_file()
}

pub(crate) struct Farm {
  pub(crate) port: u16,
  _process: Mutex<(Child, ChildStdin)>,
  shared: Vec<Worker>,
  journals: tempfile::TempDir,
}

/// The farm of this test binary, started on first use.
pub(crate) fn farm() -> &'static Farm {
  static FARM: OnceLock<Farm> = OnceLock::new();
  FARM.get_or_init(Farm::start)
}

impl Farm {
  fn start() -> Farm {
    assert!(available(), "the remote-execution tests need {} (`.ci/reapi-venv`)", venv().display());
    let port = super::servers::free_port();
    let mut command = Command::new(python());
    command.arg(script("farm.py")).arg("--port").arg(port.to_string());
    for instance in INSTANCES {
      command.arg(format!("--instance={instance}"));
    }
    let mut child = command
      .stdin(Stdio::piped())
      .stdout(Stdio::piped())
      .stderr(Stdio::inherit())
      .spawn()
      .expect("start the farm");
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
      let mut line = String::new();
      let _ = BufReader::new(stdout).read_line(&mut line);
      let _ = sender.send(line);
    });
    match receiver.recv_timeout(STARTUP) {
      Ok(line) if line.trim() == "ready" => {}
      other => panic!("the farm did not start: {other:?}"),
    }
    let journals = tempfile::tempdir().expect("journals");
    let mut farm =
      Farm { port, _process: Mutex::new((child, stdin)), shared: Vec::new(), journals };
    farm.shared = (0..SHARED_WORKERS).map(|_| farm.worker("", &[])).collect();
    farm
  }

  /// `grpc://127.0.0.1:PORT/INSTANCE`.
  pub(crate) fn url(&self, instance: &str) -> String {
    if instance.is_empty() {
      format!("grpc://127.0.0.1:{}", self.port)
    } else {
      format!("grpc://127.0.0.1:{}/{instance}", self.port)
    }
  }

  /// The journal of the shared workers.
  pub(crate) fn shared_journal(&self) -> Journal {
    Journal { path: self.journals.path().join("instance-") }
  }

  /// A worker of `instance` with device `properties` besides this
  /// machine's OS and processor (which `just` asks for), ready (its session
  /// created) when this returns; killed when dropped.
  pub(crate) fn worker(&self, instance: &str, properties: &[&str]) -> Worker {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let bot_id = format!("bot-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    let journal = Journal { path: self.journals.path().join(format!("instance-{instance}")) };
    let mut command = Command::new(python());
    command
      .arg(script("worker.py"))
      .arg(format!("--server=127.0.0.1:{}", self.port))
      .arg(format!("--instance={instance}"))
      .arg(format!("--bot-id={bot_id}"))
      .arg("--journal")
      .arg(&journal.path);
    command
      .arg(format!("--property=OSFamily={}", std::env::consts::OS))
      .arg(format!("--property=ISA={}", std::env::consts::ARCH));
    for property in properties {
      command.arg(format!("--property={property}"));
    }
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = command
      .stdin(Stdio::piped())
      .stdout(Stdio::null())
      .stderr(Stdio::inherit())
      .spawn()
      .expect("start a worker");
    let mut worker = Worker { child, bot_id, journal };
    let session = poll_until(STARTUP, || {
      if let Ok(Some(status)) = worker.child.try_wait() {
        panic!("the worker exited with {status} before its session");
      }
      worker.journal.events().iter().any(|e| e.event == "session" && e.bot == worker.bot_id)
    });
    assert!(session, "the worker started no session");
    worker
  }
}

pub(crate) struct Worker {
  child: Child,
  pub(crate) bot_id: String,
  pub(crate) journal: Journal,
}

impl Worker {
  /// Kill the worker and the action it runs (its process group), as a
  /// machine that goes away would.
  pub(crate) fn kill(&mut self) {
    process::signal(-process::pid(&self.child), libc::SIGKILL);
    let _ = self.child.kill();
    let _ = self.child.wait();
  }
}

impl Drop for Worker {
  fn drop(&mut self) {
    self.kill();
  }
}

/// What the workers of one instance did, one event a line.
#[derive(Clone)]
pub(crate) struct Journal {
  path: PathBuf,
}

#[derive(Debug, Clone)]
pub(crate) struct Event {
  pub(crate) event: String,
  pub(crate) bot: String,
  pub(crate) lease: String,
  pub(crate) time: f64,
  pub(crate) arguments: Vec<String>,
}

impl Journal {
  pub(crate) fn events(&self) -> Vec<Event> {
    let text = fs::read_to_string(&self.path).unwrap_or_default();
    text
      .lines()
      .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
      .map(|value| Event {
        event: value["event"].as_str().unwrap_or_default().to_owned(),
        bot: value["bot"].as_str().unwrap_or_default().to_owned(),
        lease: value["lease"].as_str().unwrap_or_default().to_owned(),
        time: value["time"].as_f64().unwrap_or_default(),
        arguments: value["arguments"]
          .as_array()
          .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
          .unwrap_or_default(),
      })
      .collect()
  }

  /// The actions started whose command line mentions `marker`.
  pub(crate) fn started(&self, marker: &str) -> Vec<Event> {
    self
      .events()
      .into_iter()
      .filter(|e| e.event == "start" && e.arguments.iter().any(|a| a.contains(marker)))
      .collect()
  }

  /// Wait until an action mentioning `marker` has started, and return it.
  pub(crate) fn wait_for_start(&self, marker: &str) -> Event {
    let mut started = None;
    poll_until(STARTUP, || {
      started = self.started(marker).pop();
      started.is_some()
    });
    started.unwrap_or_else(|| panic!("no action mentioning {marker} started"))
  }
}
