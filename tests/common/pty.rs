//! A user's interactive shell on a pseudo-terminal, for the tests of what
//! `just` does at a terminal: a bash with job control leading a session
//! whose controlling terminal is the pseudo-terminal; commands are typed
//! into the terminal and its screen is read. `just` on its `PATH` is the
//! binary under test (`TEST_JUST_BIN`, or ours).

use super::process::{collect, pid, poll_until, signal, Collected, DEADLINE};
use std::fs;
use std::io::Write;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// `text` without its escape sequences (`ESC [ … letter`).
fn without_colour(text: &str) -> String {
  let mut plain = String::with_capacity(text.len());
  let mut rest = text;
  while let Some(at) = rest.find("\x1b[") {
    plain.push_str(&rest[..at]);
    let sequence = &rest[at + 2..];
    let end =
      sequence.find(|c: char| c.is_ascii_alphabetic()).map_or(sequence.len(), |end| end + 1);
    rest = &sequence[end..];
  }
  plain.push_str(rest);
  plain
}

/// The `ioctl` request that makes a terminal the caller's controlling
/// one, of the type `ioctl` takes.
#[cfg(target_os = "linux")]
fn set_controlling_terminal() -> libc::Ioctl {
  libc::TIOCSCTTY
}

/// The `ioctl` request that makes a terminal the caller's controlling
/// one, of the type `ioctl` takes.
#[cfg(not(target_os = "linux"))]
fn set_controlling_terminal() -> libc::c_ulong {
  libc::c_ulong::from(libc::TIOCSCTTY)
}

/// Bash, the user's shell in these tests.
fn bash() -> Option<&'static str> {
  ["/bin/bash", "/usr/bin/bash"].into_iter().find(|path| Path::new(path).exists())
}

/// Whether the tests that need an interactive bash can run.
pub(crate) fn has_bash() -> bool {
  bash().is_some()
}

/// The `just` under test.
pub(crate) fn just_under_test() -> PathBuf {
  PathBuf::from(super::binary())
}

pub(crate) struct Shell {
  child: Child,
  master: fs::File,
  screen: Collected,
  _directory: tempfile::TempDir,
}

impl Shell {
  /// A shell in a new directory holding `files` (name, contents), the
  /// justfile among them.
  pub(crate) fn with_files(files: &[(&str, &str)]) -> Shell {
    let bash = bash().expect("bash");
    let directory = tempfile::tempdir().unwrap();
    for (name, contents) in files {
      fs::write(directory.path().join(name), contents).unwrap();
    }
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors; the name, termios and window
    // size are left to the defaults (null pointers, `*mut` as macOS declares
    // them, which Linux's `*const` ones accept).
    let opened = unsafe {
      libc::openpty(
        &raw mut master,
        &raw mut slave,
        std::ptr::null_mut(),
        std::ptr::null_mut(),
        std::ptr::null_mut(),
      )
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned here.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let just = just_under_test();
    let just_directory = just.parent().unwrap().to_path_buf();
    let path =
      format!("{}:{}", just_directory.display(), std::env::var("PATH").unwrap_or_default());
    let mut command = Command::new(bash);
    command
      .args(["--norc", "--noprofile", "--noediting", "-i"])
      .current_dir(directory.path())
      .env_clear()
      .env("PATH", path)
      .env("PS1", "$ ")
      .env("TERM", "dumb")
      .env("NO_COLOR", "1")
      .stdin(Stdio::from(slave.try_clone().unwrap()))
      .stdout(Stdio::from(slave.try_clone().unwrap()))
      .stderr(Stdio::from(slave));
    // SAFETY: setsid and ioctl in the child before exec: the shell leads a
    // session whose controlling terminal is the pseudo-terminal.
    unsafe {
      command.pre_exec(|| {
        if libc::setsid() == -1 || libc::ioctl(0, set_controlling_terminal(), 0) == -1 {
          return Err(std::io::Error::last_os_error());
        }
        Ok(())
      });
    }
    let child = command.spawn().unwrap();
    let master = fs::File::from(master);
    let screen = collect(master.try_clone().unwrap());
    let shell = Shell { child, master, screen, _directory: directory };
    shell.expect("$ ");
    shell
  }

  pub(crate) fn start(justfile: &str) -> Shell {
    Shell::with_files(&[("justfile", justfile)])
  }

  /// What the terminal showed so far, colours left out (just 1.58 colours
  /// its errors at a terminal whatever `NO_COLOR` says).
  pub(crate) fn screen(&self) -> String {
    without_colour(&self.screen.text())
  }

  pub(crate) fn type_text(&mut self, text: &str) {
    self.master.write_all(text.as_bytes()).unwrap();
  }

  /// Wait for `text` to appear on the screen after what was there before.
  pub(crate) fn expect_after(&self, from: usize, text: &str) -> usize {
    let mut screen = String::new();
    let mut found = None;
    poll_until(DEADLINE, || {
      screen = self.screen();
      found = screen.get(from..).and_then(|rest| rest.find(text));
      found.is_some()
    });
    match found {
      Some(at) => from + at + text.len(),
      None => panic!("timed out waiting for {text:?}\nscreen:\n{}", tail(&screen)),
    }
  }

  pub(crate) fn expect(&self, text: &str) -> usize {
    self.expect_after(0, text)
  }

  /// Type `echo "status $?"` and wait for the status the shell reports for
  /// the last command; returns where the screen is then.
  pub(crate) fn expect_status(&mut self, from: usize, status: i32) -> usize {
    self.type_text("echo \"status $?\"\n");
    self.expect_after(from, &format!("status {status}\r\n"))
  }
}

impl Drop for Shell {
  fn drop(&mut self) {
    // The shell's own session: every process the test started there (the
    // shell leads its process group).
    signal(-pid(&self.child), libc::SIGKILL);
    let _ = self.child.kill();
    let _ = self.child.wait();
  }
}

/// The end of a screen for a failure's message: a runaway program can fill
/// gigabytes before the deadline.
pub(crate) fn tail(screen: &str) -> &str {
  const SHOWN: usize = 8 * 1024;
  let mut start = screen.len().saturating_sub(SHOWN);
  while !screen.is_char_boundary(start) {
    start += 1;
  }
  &screen[start..]
}
