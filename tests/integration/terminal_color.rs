//! Colour on a terminal: `--help` and usage errors use our palette, and
//! `NO_COLOR` turns automatic colour off (explicit `--color always` still
//! colours). Each run gets a pseudo-terminal as stdout and stderr.

tests! {
  help_without_color_under_no_color,
  errors_on_a_terminal_are_coloured,
  empty_no_color_is_ignored,
  color_always_wins_over_no_color,
  ;
  extensions:
  no_color_turns_automatic_colour_off,
  help_on_a_terminal_uses_the_palette,
  usage_errors_on_a_terminal_use_the_palette,
  watch_clear_clears_a_terminal_before_the_first_run,
}

use std::ffi::CStr;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::process::{Command, Stdio};

/// Yellow bold headers, cyan bold literals, blue placeholders.
const HEADER: &str = "\x1b[1m\x1b[33mUsage:\x1b[0m";
const LITERAL: &str = "\x1b[1m\x1b[36mjust\x1b[0m";
const PLACEHOLDER: &str = "\x1b[34m[OPTIONS]\x1b[0m";

/// Run `just` in `dir` with a terminal as stdout and stderr, and return
/// everything it wrote there.
fn run_on_terminal(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> String {
  let (mut master, slave) = open_terminal();
  let mut command = Command::new(crate::common::binary());
  command
    .args(args)
    .current_dir(dir)
    .env_clear()
    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
    .env("TERM", "xterm")
    .envs(env.iter().copied())
    .stdin(Stdio::null())
    .stdout(Stdio::from(slave.try_clone().expect("dup terminal")))
    .stderr(Stdio::from(slave));
  let mut child = command.spawn().expect("start just");
  // Drop our copies of the terminal's far end so reading ends with the child.
  drop(command);
  // A `just` that never ends (a watch that should have failed) is killed
  // at a deadline, so the test fails instead of hanging.
  let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
  let watchdog = {
    let (done, pid) = (std::sync::Arc::clone(&done), child.id() as i32);
    std::thread::spawn(move || {
      let start = std::time::Instant::now();
      while !done.load(std::sync::atomic::Ordering::SeqCst) {
        if start.elapsed() > std::time::Duration::from_secs(180) {
          // SAFETY: plain kill of the child this test started.
          unsafe { libc::kill(pid, libc::SIGKILL) };
          return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
      }
    })
  };
  let mut output = Vec::new();
  // On Linux, reading the master after the child has gone fails with EIO
  // instead of returning end of file; what was read before stands.
  let _ = master.read_to_end(&mut output);
  child.wait().expect("wait for just");
  done.store(true, std::sync::atomic::Ordering::SeqCst);
  let _ = watchdog.join();
  String::from_utf8(output).expect("UTF-8 output").replace("\r\n", "\n")
}

/// A pseudo-terminal: its master end, and its far end for the child. Both
/// are opened close-on-exec, so processes that other tests start meanwhile
/// do not inherit them (reading the master ends only once every copy of the
/// far end is closed).
fn open_terminal() -> (File, OwnedFd) {
  let master = OpenOptions::new()
    .read(true)
    .write(true)
    .custom_flags(libc::O_NOCTTY)
    .open("/dev/ptmx")
    .expect("open /dev/ptmx");
  let mut name = [0 as libc::c_char; 128];
  // SAFETY: the descriptor is an open pseudo-terminal master, and
  // `far_end_name` writes a NUL-terminated name into the 128 bytes.
  let status = unsafe {
    let fd = master.as_raw_fd();
    if libc::grantpt(fd) == 0 && libc::unlockpt(fd) == 0 {
      far_end_name(fd, &mut name)
    } else {
      -1
    }
  };
  assert_eq!(status, 0, "cannot unlock the pseudo-terminal");
  // SAFETY: `far_end_name` succeeded, so `name` holds a NUL-terminated string.
  let name = unsafe { CStr::from_ptr(name.as_ptr()) };
  let slave = OpenOptions::new()
    .read(true)
    .write(true)
    .custom_flags(libc::O_NOCTTY)
    .open(std::ffi::OsStr::from_bytes(name.to_bytes()))
    .expect("open the pseudo-terminal's far end");
  (master, slave.into())
}

/// The name of the far end of the pseudo-terminal master `fd`, into
/// `name` (thread-safe, unlike `ptsname`): `ptsname_r` on Linux; on macOS,
/// the `TIOCPTYGNAME` request its `ptsname_r` makes, which the libc crate
/// does not bind there.
///
/// # Safety
///
/// `fd` is an open pseudo-terminal master.
#[cfg(target_os = "linux")]
unsafe fn far_end_name(fd: i32, name: &mut [libc::c_char; 128]) -> i32 {
  // SAFETY: as the caller promises; the buffer's length is passed.
  unsafe { libc::ptsname_r(fd, name.as_mut_ptr(), name.len()) }
}

/// See the Linux version.
///
/// # Safety
///
/// `fd` is an open pseudo-terminal master.
#[cfg(not(target_os = "linux"))]
unsafe fn far_end_name(fd: i32, name: &mut [libc::c_char; 128]) -> i32 {
  // SAFETY: as the caller promises; the request writes at most 128 bytes.
  unsafe { libc::ioctl(fd, libc::TIOCPTYGNAME.into(), name.as_mut_ptr()) }
}

fn failing_justfile() -> tempfile::TempDir {
  let dir = tempfile::tempdir().expect("temp dir");
  std::fs::write(dir.path().join("justfile"), "fail:\n  @exit 3\n").expect("write justfile");
  dir
}

fn help_on_a_terminal_uses_the_palette() {
  let dir = tempfile::tempdir().expect("temp dir");
  let output = run_on_terminal(dir.path(), &["--help"], &[]);
  for code in [HEADER, LITERAL, PLACEHOLDER] {
    assert!(output.contains(code), "{code:?} missing from:\n{output}");
  }
}

fn usage_errors_on_a_terminal_use_the_palette() {
  let dir = tempfile::tempdir().expect("temp dir");
  let output = run_on_terminal(dir.path(), &["--no-such-flag"], &[]);
  assert!(output.starts_with("\x1b[1m\x1b[31merror:\x1b[0m"), "{output:?}");
  assert!(output.contains(HEADER), "{output:?}");
}

fn help_without_color_under_no_color() {
  let dir = tempfile::tempdir().expect("temp dir");
  let output = run_on_terminal(dir.path(), &["--help"], &[("NO_COLOR", "1")]);
  assert!(output.contains("\nUsage: just [OPTIONS] [ARGUMENTS]...\n"), "{output:?}");
  assert!(!output.contains('\x1b'), "{output:?}");
}

fn errors_on_a_terminal_are_coloured() {
  let dir = failing_justfile();
  let output = run_on_terminal(dir.path(), &[], &[]);
  assert_eq!(
    output,
    "\x1b[1;31merror\x1b[0m: \x1b[1mrecipe `fail` failed on line 2 with exit code 3\x1b[0m\n"
  );
}

fn no_color_turns_automatic_colour_off() {
  let dir = failing_justfile();
  let output = run_on_terminal(dir.path(), &[], &[("NO_COLOR", "1")]);
  assert_eq!(output, "error: recipe `fail` failed on line 2 with exit code 3\n");
}

fn empty_no_color_is_ignored() {
  let dir = failing_justfile();
  let output = run_on_terminal(dir.path(), &[], &[("NO_COLOR", "")]);
  assert!(output.starts_with("\x1b[1;31merror\x1b[0m"), "{output:?}");
}

fn color_always_wins_over_no_color() {
  let dir = failing_justfile();
  let output = run_on_terminal(dir.path(), &["--color", "always"], &[("NO_COLOR", "1")]);
  assert!(output.starts_with("\x1b[1;31merror\x1b[0m"), "{output:?}");
}

/// `--clear` clears the terminal before the first run too (here the run
/// fails at once: the recipe is unknown).
fn watch_clear_clears_a_terminal_before_the_first_run() {
  let dir = tempfile::tempdir().expect("temporary directory");
  std::fs::write(dir.path().join("justfile"), "a:\n").expect("write justfile");
  let output = run_on_terminal(dir.path(), &["--watch", "--clear", "nosuch"], &[("NO_COLOR", "1")]);
  assert_eq!(output, "\x1b[H\x1b[2J\x1b[3Jerror: justfile does not contain recipe `nosuch`\n");
}
