//! Long output for a person at a terminal goes through a pager: `$PAGER`
//! (split at spaces, as `man` and git read it), else `less` told to quit
//! when the text fits on one screen and to pass colours through (`LESS`
//! defaults to `FRX`, as git sets it). Anything else — a pipe, a file, a
//! pager that cannot be started, `PAGER` set empty — gets the text as is.

use std::io::{IsTerminal, Write};
use std::process::{Command, Stdio};

use crate::platform::stdio;

/// Show `text` on standard output, paged at a terminal.
pub(crate) fn page(text: &str) -> std::io::Result<()> {
  if !std::io::stdout().is_terminal() {
    return stdio::stdout(text);
  }
  let Some(mut pager) = pager() else {
    return stdio::stdout(text);
  };
  let Ok(mut child) = pager.stdin(Stdio::piped()).spawn() else {
    return stdio::stdout(text);
  };
  if let Some(mut input) = child.stdin.take() {
    // A pager quit before reading everything closes the pipe: not an error.
    match input.write_all(text.as_bytes()) {
      Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
        let _ = child.wait();
        return Err(error);
      }
      _ => {}
    }
  }
  child.wait().map(drop)
}

/// The pager to start, if any.
fn pager() -> Option<Command> {
  let (program, arguments) = match std::env::var("PAGER") {
    Ok(pager) => {
      let mut words = pager.split_whitespace().map(str::to_owned);
      (words.next()?, words.collect())
    }
    Err(_) => ("less".to_owned(), Vec::new()),
  };
  let mut command = Command::new(program);
  command.args(arguments);
  if std::env::var_os("LESS").is_none() {
    command.env("LESS", "FRX");
  }
  Some(command)
}
