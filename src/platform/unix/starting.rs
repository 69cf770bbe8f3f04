//! Processes caught starting: forked and not yet executing their program.
//! A shell's child between its fork and its exec still has the shell's
//! signal handlers (dash's, bash's), which only note an interrupt in memory
//! that the exec then discards, so a signal that lands there is lost and
//! the program runs as if none came. The supervisor notes which of the
//! run's processes are starting as it passes a signal on (before it does),
//! and passes it on again to each of them that has since executed a
//! program: only to those, so a program that took the signal and handles
//! it (a server shutting down, a shell's trap) never gets it twice, and
//! what a handler starts after the signal never gets it at all.
//!
//! A process is starting when it looks as its parent does: the same
//! command name and the same code and stack addresses (a fork copies them;
//! an exec lays them out anew, at random addresses). Only Linux shows
//! these; elsewhere no process is ever taken for starting.

use super::pid::Pid;

/// A process that was starting when it was noted.
#[derive(Debug)]
pub(crate) struct Starting {
  pid: Pid,
  image: Image,
}

/// What changes when a process executes a program.
#[derive(Debug, PartialEq, Eq)]
struct Image {
  name: Vec<u8>,
  /// When the process started, which tells a reused pid.
  start_time: u64,
  code: u64,
  stack: u64,
}

impl Starting {
  pub(crate) fn pid(&self) -> Pid {
    self.pid
  }

  /// Whether the process has executed a program since it was noted; None
  /// once it is gone (or its pid belongs to another process).
  pub(crate) fn has_executed(&self) -> Option<bool> {
    let now = image(self.pid)?;
    (now.start_time == self.image.start_time).then(|| now != self.image)
  }
}

/// Of `processes`, those that are starting.
pub(crate) fn starting(processes: &[Pid]) -> Vec<Starting> {
  let mut found = Vec::new();
  for &pid in processes {
    let Some((own, parent)) = image_and_parent(pid) else { continue };
    let Some((parents, _)) = image_and_parent(parent) else { continue };
    let looks_as_its_parent = own.name == parents.name
      && own.code == parents.code
      && own.stack == parents.stack
      && own.code != 0;
    if looks_as_its_parent {
      found.push(Starting { pid, image: own });
    }
  }
  found
}

fn image(pid: Pid) -> Option<Image> {
  image_and_parent(pid).map(|(image, _)| image)
}

/// The image of process `pid` and its parent: None if it is gone or the
/// system does not say.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn image_and_parent(pid: Pid) -> Option<(Image, Pid)> {
  let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
  parse_stat(&stat)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn image_and_parent(_pid: Pid) -> Option<(Image, Pid)> {
  None
}

#[cfg(any(target_os = "linux", target_os = "android"))]
/// The fields of a `/proc/PID/stat` line after the command name (which is
/// in parentheses and may itself hold any byte), from the state on.
fn fields_after_name(stat: &[u8]) -> Option<Vec<&[u8]>> {
  let close = memchr::memrchr(b')', stat)?;
  let fields = stat[close + 1..].split(|&byte| byte == b' ' || byte == b'\n');
  Some(fields.filter(|field| !field.is_empty()).collect())
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn parse_stat(stat: &[u8]) -> Option<(Image, Pid)> {
  let open = memchr::memchr(b'(', stat)?;
  let close = memchr::memrchr(b')', stat)?;
  let name = stat.get(open + 1..close)?.to_vec();
  let fields = fields_after_name(stat)?;
  let number =
    |index: usize| -> Option<u64> { std::str::from_utf8(fields.get(index)?).ok()?.parse().ok() };
  // Counted from the state: 1 the parent, 19 the start time, 23 the code's
  // start, 25 the stack's start (fields 4, 22, 26 and 28 of proc(5)).
  let parent = Pid::try_from(number(1)?).ok()?;
  let image = Image { name, start_time: number(19)?, code: number(23)?, stack: number(25)? };
  Some((image, parent))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
  use super::*;
  use std::time::{Duration, Instant};

  #[test]
  fn image_reads_a_name_with_parentheses_and_spaces() {
    let mut stat = b"12 (a) b (c) S 7 9 12 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 ".to_vec();
    stat.extend_from_slice(b"555 0 0 0 4096 8192 1234 0 0\n");
    let (image, parent) = parse_stat(&stat).unwrap();
    assert_eq!(
      image,
      Image { name: b"a) b (c".to_vec(), start_time: 555, code: 4096, stack: 1234 }
    );
    assert_eq!(parent, 7);
  }

  #[test]
  fn a_forked_child_is_starting_until_it_executes() {
    // The subshell waits in a read of the pipe between its fork and its exec.
    let mut child = std::process::Command::new("sh")
      .args(["-c", "exec 3<&0; (read line <&3; exec sleep 30) & echo $!; wait"])
      .stdin(std::process::Stdio::piped())
      .stdout(std::process::Stdio::piped())
      .spawn()
      .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
      &mut std::io::BufReader::new(child.stdout.take().unwrap()),
      &mut line,
    )
    .unwrap();
    let subshell: Pid = line.trim().parse().unwrap();
    let found = starting(&[subshell]);
    assert_eq!(found.iter().map(Starting::pid).collect::<Vec<_>>(), vec![subshell]);
    assert_eq!(found[0].has_executed(), Some(false));
    drop(child.stdin.take());
    let deadline = Instant::now() + Duration::from_secs(10);
    while found[0].has_executed() != Some(true) && Instant::now() < deadline {
      std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(found[0].has_executed(), Some(true));
    assert!(starting(&[subshell]).is_empty());
    // SAFETY: kill(2) on the test's own grandchild, then its parent.
    unsafe { libc::kill(subshell, libc::SIGKILL) };
    let _ = child.kill();
    let _ = child.wait();
  }
}
