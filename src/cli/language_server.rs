//! `--lsp`: the language server is the helper executable
//! `just-language-server` (`src/lsp/`), so that what it links costs the
//! other command lines' start-up nothing. It is looked for beside the
//! running `just`, else on `PATH`, and asked who it is (`--version`) before
//! it gets this process's standard streams: a program of the same name that
//! is not this `just`'s server (another project's, another version) is
//! refused rather than served to the editor. Its status is `just`'s.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::error::Error;
use crate::color::{Painter, Stream};
use crate::platform::stdio;

const HELPER: &str = "just-language-server";

/// What the helper answers to `--version` (`just::LSP_IDENTITY`): its name
/// and this `just`'s version.
pub(crate) const IDENTITY: &str = concat!("just-language-server ", env!("CARGO_PKG_VERSION"));

/// How long the helper may take to say who it is.
const IDENTIFY_LIMIT: Duration = Duration::from_secs(20);

pub(crate) fn serve() -> i32 {
  let program = locate();
  let outcome = identify(&program).and_then(|()| {
    Command::new(&program).status().map_err(|error| {
      format!("failed to start the language server `{}`: {error}", program.display())
    })
  });
  match outcome {
    Ok(status) => status.code().unwrap_or(1),
    Err(message) => {
      let painter = Painter::new(crate::color::UseColor::Auto, Stream::Stderr);
      // Nowhere is left to report a failure to print an error; the status says it.
      let _ = stdio::stderr(&Error::message(message).render(&painter));
      1
    }
  }
}

/// The helper beside the running `just`, else the name to look up on `PATH`.
fn locate() -> PathBuf {
  let name = format!("{HELPER}{}", std::env::consts::EXE_SUFFIX);
  std::env::current_exe()
    .ok()
    .map(|exe| exe.with_file_name(&name))
    .filter(|path| path.is_file())
    .unwrap_or_else(|| PathBuf::from(&name))
}

/// Run `program --version` and check that it answers `IDENTITY`.
fn identify(program: &PathBuf) -> Result<(), String> {
  let shown = program.display();
  let mut child = Command::new(program)
    .arg("--version")
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .map_err(|error| format!("failed to start the language server `{shown}`: {error}"))?;
  let mut stdout = child.stdout.take();
  // At most a line is read: a program that writes without end is not ours.
  let reader = std::thread::spawn(move || {
    let mut answer = Vec::new();
    if let Some(stdout) = stdout.as_mut() {
      let _ = stdout.take(256).read_to_end(&mut answer);
    }
    answer
  });
  let deadline = Instant::now() + IDENTIFY_LIMIT;
  loop {
    match child.try_wait() {
      Ok(Some(_)) => break,
      Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
      _ => {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!("the language server `{shown}` did not answer `--version`"));
      }
    }
  }
  let answer = reader.join().unwrap_or_default();
  let answer = String::from_utf8_lossy(&answer);
  let answer = answer.trim_end();
  if answer == IDENTITY {
    Ok(())
  } else {
    Err(format!(
      "`{shown}` is not this just's language server: its `--version` says `{}`, not `{IDENTITY}`",
      answer.lines().next().unwrap_or_default()
    ))
  }
}
