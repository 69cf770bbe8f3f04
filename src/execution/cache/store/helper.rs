//! Network stores run in a helper process, `just-cache-store`, installed
//! next to `just`: the HTTP and S3 clients (and their TLS stack) live in that
//! executable only, so `just` itself starts exactly as fast as without them.
//!
//! `just-cache-store SECONDS` reads the store's URL from the first line of
//! its standard input (never from its arguments, which every local user can
//! read in `ps`: the URL may hold a password), opens the store and answers
//! one request per line, one reply line each on standard output:
//!
//! * `get NAME LIMIT PATH`: write the object to the file PATH, at most
//!   LIMIT bytes and one more; `found` or `missing`;
//! * `contains NAME`: `yes` or `no`;
//! * `put NAME PATH`: store the file PATH as the object; `ok`;
//!
//! and `error MESSAGE` for any failure. A request that outlives its
//! deadline (`deadline.rs`) is answered `error timed out after SECONDS s`
//! and the helper exits. The first line it prints is
//! `ready DESCRIPTION` (the store's name without credentials) or `error
//! MESSAGE`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use super::deadline::{write_line, Deadline};
use super::{Store, StoreError, StoreResult};

/// The helper's file name.
const HELPER: &str = "just-cache-store";

/// A store served by a helper process.
pub(super) struct HelperStore {
  channel: Mutex<Channel>,
}

struct Channel {
  /// `None` once closed, which tells the helper to exit.
  input: Option<ChildStdin>,
  output: BufReader<ChildStdout>,
  child: Child,
  /// The last failure the helper reported: after a request that timed out
  /// it has exited, and the requests other threads had waiting fail for
  /// the same reason.
  failure: Option<String>,
}

/// How long a helper told to exit may take before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

impl Drop for Channel {
  /// The run that opened the store is over: the helper, told so by the
  /// end of its input, exits; one that does not is killed, and reaped
  /// either way.
  fn drop(&mut self) {
    drop(self.input.take());
    reap(&mut self.child);
  }
}

impl Channel {
  fn ask(&mut self, request: &str) -> StoreResult<String> {
    let failure = &mut self.failure;
    let lost =
      || StoreError(failure.clone().unwrap_or_else(|| "the cache store helper stopped".into()));
    let input = self.input.as_mut().ok_or_else(lost)?;
    writeln!(input, "{request}").and_then(|()| input.flush()).map_err(|_| lost())?;
    let mut reply = String::new();
    match self.output.read_line(&mut reply) {
      Ok(0) | Err(_) => Err(lost()),
      Ok(_) => match reply.trim_end().split_once(' ') {
        Some(("error", message)) => {
          *failure = Some(message.to_string());
          Err(StoreError(message.to_string()))
        }
        _ => Ok(reply.trim_end().to_string()),
      },
    }
  }
}

/// Where the helper is: next to the running `just`, else on `PATH`.
fn helper_program() -> PathBuf {
  let name = format!("{HELPER}{}", std::env::consts::EXE_SUFFIX);
  std::env::current_exe()
    .ok()
    .map(|exe| exe.with_file_name(&name))
    .filter(|path| path.is_file())
    .unwrap_or_else(|| PathBuf::from(name))
}

impl HelperStore {
  /// Start the helper for `url`; the store's description, or why not.
  pub(super) fn start(url: &str, timeout: Duration) -> StoreResult<(Self, String)> {
    let (child, input, output, first) = spawn(url, timeout)?;
    match first.split_once(' ') {
      Some(("ready", shown)) => {
        let shown = shown.to_string();
        let channel = Channel { input: Some(input), output, child, failure: None };
        Ok((HelperStore { channel: Mutex::new(channel) }, shown))
      }
      Some(("error", message)) => Err(StoreError(message.to_string())),
      _ => Err(StoreError("the cache store helper did not start".into())),
    }
  }

  fn ask(&self, request: &str) -> StoreResult<String> {
    self.channel.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).ask(request)
  }
}

/// Start the helper for `url` (given on its standard input, never in its
/// arguments): the process, its pipes and the first line it printed.
pub(super) fn spawn(
  url: &str,
  timeout: Duration,
) -> StoreResult<(Child, ChildStdin, BufReader<ChildStdout>, String)> {
  let mut child = Command::new(helper_program())
    .arg(timeout.as_secs().to_string())
    // It has the URL from its standard input.
    .env_remove("JUST_CACHE_URL")
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .map_err(|error| {
      StoreError(format!(
        "cannot run `{HELPER}`, which `--cache-url` needs, next to `just` or on PATH: {error}"
      ))
    })?;
  let (Some(mut input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
    return Err(StoreError("the cache store helper has no pipes".into()));
  };
  if writeln!(input, "{url}").and_then(|()| input.flush()).is_err() {
    return Err(StoreError("the cache store helper stopped".into()));
  }
  let mut output = BufReader::new(output);
  let mut first = String::new();
  let _ = output.read_line(&mut first);
  let first = first.trim_end().to_string();
  Ok((child, input, output, first))
}

/// End a helper told to exit by the end of its input; one that does not
/// exit within `EXIT_GRACE` is killed, and reaped either way.
pub(super) fn reap(child: &mut Child) {
  let deadline = std::time::Instant::now() + EXIT_GRACE;
  while matches!(child.try_wait(), Ok(None)) {
    if std::time::Instant::now() >= deadline {
      let _ = child.kill();
      let _ = child.wait();
      return;
    }
    std::thread::sleep(Duration::from_millis(5));
  }
}

fn unexpected(reply: &str) -> StoreError {
  StoreError(format!("unexpected reply from the cache store helper: `{reply}`"))
}

impl Store for HelperStore {
  fn get(&self, name: &str, limit: u64) -> StoreResult<Option<Box<dyn Read + Send>>> {
    let staged = tempfile::NamedTempFile::new().map_err(|error| StoreError::io(&error))?;
    match self.ask(&format!("get {name} {limit} {}", staged.path().display()))?.as_str() {
      "found" => Ok(Some(Box::new(staged.into_file()))),
      "missing" => Ok(None),
      reply => Err(unexpected(reply)),
    }
  }

  fn contains(&self, name: &str) -> StoreResult<bool> {
    match self.ask(&format!("contains {name}"))?.as_str() {
      "yes" => Ok(true),
      "no" => Ok(false),
      reply => Err(unexpected(reply)),
    }
  }

  fn put(&self, name: &str, body: &mut dyn Read, _length: u64) -> StoreResult<()> {
    let mut staged = tempfile::NamedTempFile::new().map_err(|error| StoreError::io(&error))?;
    io::copy(body, &mut staged).map_err(|error| StoreError::io(&error))?;
    match self.ask(&format!("put {name} {}", staged.path().display()))?.as_str() {
      "ok" => Ok(()),
      reply => Err(unexpected(reply)),
    }
  }
}

/// The helper's main: serve the store named by the arguments.
/// The HTTP or S3 store at `url`.
#[cfg(feature = "network-stores")]
fn open_network_store(url: &str, timeout: Duration) -> StoreResult<(Box<dyn Store>, String)> {
  if url.starts_with("s3://") {
    super::s3::S3Store::new(url, timeout).map(|store| {
      let shown = store.describe();
      (Box::new(store) as Box<dyn Store>, shown)
    })
  } else {
    super::http::HttpStore::new(url, timeout).map(|store| {
      let shown = store.describe();
      (Box::new(store) as Box<dyn Store>, shown)
    })
  }
}

#[cfg(not(feature = "network-stores"))]
fn open_network_store(_url: &str, _timeout: Duration) -> StoreResult<(Box<dyn Store>, String)> {
  Err(StoreError("this build has no network cache stores (feature `network-stores`)".into()))
}

#[cfg(feature = "network-stores")]
fn serve_remote(
  url: &str,
  timeout: Duration,
  lines: impl Iterator<Item = io::Result<String>>,
) -> i32 {
  super::reapi::serve(url, timeout, lines)
}

#[cfg(not(feature = "network-stores"))]
fn serve_remote(_: &str, _: Duration, _: impl Iterator<Item = io::Result<String>>) -> i32 {
  let _ = write_line("error this build has no network cache stores (feature `network-stores`)");
  1
}

pub(crate) fn serve(arguments: &[String]) -> i32 {
  let (Some(seconds), None) = (arguments.first(), arguments.get(1)) else {
    let _ = write_line(&format!("error usage: {HELPER} SECONDS (and the URL on standard input)"));
    return 2;
  };
  let timeout = Duration::from_secs(seconds.parse().unwrap_or(10));
  let mut lines = io::stdin().lock().lines();
  let Some(Ok(url)) = lines.next() else {
    let _ = write_line("error no store URL on standard input");
    return 2;
  };
  let url = url.trim_end();
  if url.starts_with("grpc://") || url.starts_with("grpcs://") {
    return serve_remote(url, timeout, lines);
  }
  let opened = open_network_store(url, timeout).and_then(|opened| {
    let deadline = Deadline::watch(timeout).map_err(|error| StoreError::io(&error))?;
    Ok((opened, deadline))
  });
  let (store, deadline) = match opened {
    Ok(((store, shown), deadline)) => {
      if write_line(&format!("ready {shown}")).is_err() {
        return 1;
      }
      (store, deadline)
    }
    Err(error) => {
      let _ = write_line(&format!("error {}", error.0));
      return 1;
    }
  };
  for line in lines {
    let Ok(line) = line else {
      return 1;
    };
    deadline.begin();
    let reply =
      answer(store.as_ref(), &line, &deadline).unwrap_or_else(|error| format!("error {}", error.0));
    if deadline.end(&reply).is_err() {
      return 1;
    }
  }
  0
}

fn answer(store: &dyn Store, line: &str, deadline: &Deadline) -> StoreResult<String> {
  let io = |error: io::Error| StoreError::io(&error);
  if let Some(rest) = line.strip_prefix("get ") {
    let mut words = rest.splitn(3, ' ');
    let (Some(name), Some(Ok(limit)), Some(path)) =
      (words.next(), words.next().map(str::parse::<u64>), words.next())
    else {
      return Err(StoreError(format!("unknown request `{line}`")));
    };
    return match store.get(name, limit)? {
      Some(reader) => {
        let mut file = File::create(Path::new(path)).map_err(io)?;
        let mut body = deadline.counted(reader.take(limit.saturating_add(1)));
        io::copy(&mut body, &mut file).map_err(io)?;
        Ok("found".into())
      }
      None => Ok("missing".into()),
    };
  }
  let mut words = line.splitn(3, ' ');
  match (words.next(), words.next(), words.next()) {
    (Some("contains"), Some(name), None) => {
      Ok(if store.contains(name)? { "yes" } else { "no" }.into())
    }
    (Some("put"), Some(name), Some(path)) => {
      let file = File::open(Path::new(path)).map_err(io)?;
      let length = file.metadata().map_err(io)?.len();
      store.put(name, &mut deadline.counted(file), length)?;
      Ok("ok".into())
    }
    _ => Err(StoreError(format!("unknown request `{line}`"))),
  }
}
