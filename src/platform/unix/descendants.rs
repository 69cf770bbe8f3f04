//! The descendants of processes, for passing a signal on to whole trees
//! when the run's processes share `just`'s process group (at a terminal)
//! and so cannot be signalled as a group of their own. A snapshot: a
//! process forked after it is taken is not in it.

use super::pid::Pid;

/// Every live descendant of `roots` (children, their children, …), roots
/// excluded, in no particular order. Where the system offers no way to
/// list them, none.
pub(crate) fn descendants(roots: &[Pid]) -> Vec<Pid> {
  let table = parent_child_pairs();
  let mut found: Vec<Pid> = Vec::new();
  let mut parents: Vec<Pid> = roots.to_vec();
  while let Some(parent) = parents.pop() {
    let start = table.partition_point(|&(p, _)| p < parent);
    for &(p, child) in &table[start..] {
      if p != parent {
        break;
      }
      if !found.contains(&child) && !roots.contains(&child) {
        found.push(child);
        parents.push(child);
      }
    }
  }
  found
}

/// Whether `just` leads its process group and every other process in it
/// descends from `just`: then the group is `just`'s job alone (typed at a
/// prompt, not a pipeline's or a script's), and signalling it is what the
/// terminal's key would do, invisible to everything above. False where the
/// system cannot tell.
pub(crate) fn own_job_is_only_ours() -> bool {
  // SAFETY: plain queries.
  let (me, group) = unsafe { (libc::getpid(), libc::getpgrp()) };
  if me != group {
    return false;
  }
  let Some(members) = group_members(group) else {
    return false;
  };
  let ours = descendants(&[me]);
  members.iter().all(|pid| *pid == me || ours.contains(pid))
}

/// The processes of `group`.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn group_members(group: Pid) -> Option<Vec<Pid>> {
  let mut members = Vec::new();
  for entry in std::fs::read_dir("/proc").ok()?.flatten() {
    let Some(pid) = entry.file_name().to_str().and_then(|name| name.parse::<Pid>().ok()) else {
      continue;
    };
    let Ok(stat) = std::fs::read(entry.path().join("stat")) else {
      continue;
    };
    if stat_field(&stat, 2) == Some(group) {
      members.push(pid);
    }
  }
  Some(members)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn group_members(_group: Pid) -> Option<Vec<Pid>> {
  None
}

/// (parent, child) for every process, sorted; from `/proc/PID/stat`.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn parent_child_pairs() -> Vec<(Pid, Pid)> {
  let mut pairs = Vec::new();
  let Ok(entries) = std::fs::read_dir("/proc") else {
    return pairs;
  };
  for entry in entries.flatten() {
    let Some(pid) = entry.file_name().to_str().and_then(|name| name.parse::<Pid>().ok()) else {
      continue;
    };
    // A process that ended since the listing has no file: skip it.
    let Ok(stat) = std::fs::read(entry.path().join("stat")) else {
      continue;
    };
    if let Some(parent) = stat_field(&stat, 1) {
      pairs.push((parent, pid));
    }
  }
  pairs.sort_unstable();
  pairs
}

/// A numeric field of a `/proc/PID/stat` line, counted after the state
/// (1: the parent, 2: the process group): the fields after the command
/// name, which is in parentheses and may itself hold any byte.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn stat_field(stat: &[u8], index: usize) -> Option<Pid> {
  let after_name = &stat[memchr::memrchr(b')', stat)? + 1..];
  let mut fields = after_name.split(|&byte| byte == b' ').filter(|field| !field.is_empty());
  std::str::from_utf8(fields.nth(index)?).ok()?.parse().ok()
}

/// (parent, child) for the processes below `just`, sorted; from
/// `proc_listchildpids`.
#[cfg(target_vendor = "apple")]
fn parent_child_pairs() -> Vec<(Pid, Pid)> {
  // SAFETY: getpid cannot fail.
  let mut parents = vec![unsafe { libc::getpid() }];
  let mut pairs = Vec::new();
  while let Some(parent) = parents.pop() {
    let mut buffer = vec![0 as Pid; 256];
    let size = libc::c_int::try_from(buffer.len() * std::mem::size_of::<Pid>()).unwrap_or(0);
    // SAFETY: the buffer holds `size` bytes.
    let count = unsafe { libc::proc_listchildpids(parent, buffer.as_mut_ptr().cast(), size) };
    let count = usize::try_from(count).unwrap_or(0).min(buffer.len());
    for &child in &buffer[..count] {
      pairs.push((parent, child));
      parents.push(child);
    }
  }
  pairs.sort_unstable();
  pairs
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
fn parent_child_pairs() -> Vec<(Pid, Pid)> {
  Vec::new()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
  use super::*;

  #[test]
  fn finds_grandchildren_and_not_the_roots() {
    let mut child =
      std::process::Command::new("sh").args(["-c", "sleep 30 & wait"]).spawn().unwrap();
    let root = Pid::try_from(child.id()).unwrap();
    let start = std::time::Instant::now();
    let mut found = Vec::new();
    while found.is_empty() && start.elapsed() < std::time::Duration::from_secs(10) {
      found = descendants(&[root]);
      std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    for &pid in &found {
      // SAFETY: kill(2) on the test's own grandchild.
      unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let _ = child.wait();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_ne!(found[0], root);
  }

  #[test]
  fn parent_follows_a_name_with_parentheses_and_spaces() {
    assert_eq!(stat_field(b"12 (a) b (c) S 7 9 12 0 -1", 1), Some(7));
    assert_eq!(stat_field(b"12 (a) b (c) S 7 9 12 0 -1", 2), Some(9));
  }
}
