//! Hand-written CLI tests: output that depends on the machine, time or
//! process state, and arguments or environments that are not UTF-8.

use crate::common::binary;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::process::{Command, Output};

tests! {
  request_signal_reports_received_signal,
  man_page_first_lines,
  dynamic_completion_of_empty_word_lists_recipes_overrides_paths_then_options,
  timestamp_prefixes_echoed_lines,
  timestamp_format_is_strftime,
  changelog_starts_with_heading,
  init_contents_are_a_valid_justfile,
  help_prints_usage_and_exits_zero,
  non_utf8_color_environment_is_an_invalid_value,
  non_utf8_chooser_is_accepted,
  non_unicode_justfile_path_warns,
  deleted_current_directory,
}

fn request_signal_reports_received_signal() {
  use std::process::{Command, Stdio};
  let child = Command::new(crate::common::binary())
    .args(["--request", "\"signal\""])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("spawn just");
  let pid = i32::try_from(child.id()).expect("pid");
  wait_until_in_sigwait(pid);
  // SAFETY: sending a signal to our own child.
  unsafe {
    libc::kill(pid, libc::SIGUSR1);
  }
  let output = child.wait_with_output().expect("wait for just");
  assert_eq!(String::from_utf8_lossy(&output.stdout), r#"{"signal":"SIGUSR1"}"#);
  assert_eq!(output.status.code(), Some(0));
}

/// Waits (with a deadline) until a thread of `pid` sits in `sigwait`, so
/// that the signal sent next is taken by it rather than by its default action.
fn wait_until_in_sigwait(pid: i32) {
  let tasks = std::path::PathBuf::from(format!("/proc/{pid}/task"));
  if !tasks.exists() {
    std::thread::sleep(std::time::Duration::from_millis(500));
    return;
  }
  let wait_channels = || -> Vec<String> {
    std::fs::read_dir(&tasks)
      .map(|entries| {
        entries
          .filter_map(|entry| std::fs::read_to_string(entry.ok()?.path().join("wchan")).ok())
          .collect()
      })
      .unwrap_or_default()
  };
  // Kernels that hide wait channels show "0": fall back to a pause.
  if wait_channels().iter().all(|wchan| wchan.trim() == "0") {
    std::thread::sleep(std::time::Duration::from_millis(500));
    return;
  }
  let waiting = crate::common::process::poll_until(std::time::Duration::from_secs(180), || {
    wait_channels().iter().any(|wchan| wchan.contains("sigtimedwait"))
  });
  assert!(waiting, "`just --request` never waited for a signal");
}

fn man_page_first_lines() {
  crate::common::Test::new()
    .arg("--man")
    .stdout_regex(
      r#"\.ie \\n\(\.g \.ds Aq \\\(aq\n\.el \.ds Aq '\n\.TH just 1  "just 1\.58\.0" \n\.SH NAME\n(?s:.*)"#,
    )
    .run();
}

fn dynamic_completion_of_empty_word_lists_recipes_overrides_paths_then_options() {
  crate::common::Test::new()
    .justfile("# build it\nbuild:\nexport name := 'v'\n")
    .write("a.txt", "")
    .args(&["--", "just", ""])
    .env("JUST_COMPLETE", "fish")
    .stdout_regex("build\tbuild it\nname=\n\\.\na\\.txt\njustfile\n--alias-style\t[^\n]*\n(?s:.*)")
    .run();
}

fn timestamp_prefixes_echoed_lines() {
  crate::common::Test::new()
    .justfile("foo:\n  echo hi\n")
    .arg("--timestamp")
    .stdout("hi\n")
    .stderr_regex(r"\[\d\d:\d\d:\d\d\] echo hi\n")
    .run();
}

fn timestamp_format_is_strftime() {
  crate::common::Test::new()
    .justfile("foo:\n  echo hi\n")
    .args(&["--timestamp", "--timestamp-format", "%H:%M"])
    .stdout("hi\n")
    .stderr_regex(r"\[\d\d:\d\d\] echo hi\n")
    .run();
}

fn changelog_starts_with_heading() {
  crate::common::Test::new()
    .arg("--changelog")
    .stdout_regex(r"Changelog\n=========\n(?s:.*)")
    .run();
}

fn init_contents_are_a_valid_justfile() {
  let output = crate::common::Test::new()
    .arg("--init")
    .env("JUST_CEILING", "{{TMP}}")
    .stderr("wrote justfile to `{{TMP}}/justfile`\n")
    .run();
  assert!(output.root.join("justfile").is_file());
}

fn help_prints_usage_and_exits_zero() {
  crate::common::Test::new()
    .arg("--help")
    .stdout_regex(r"(?s).*Usage: just \[OPTIONS\] \[ARGUMENTS\]\.\.\.\n.*--list.*")
    .run();
}

fn just(directory: &std::path::Path, args: &[OsString], env: &[(&str, OsString)]) -> Output {
  let mut command = Command::new(binary());
  command.env_clear().current_dir(directory).args(args).env("NO_COLOR", "1");
  if let Some(path) = std::env::var_os("PATH") {
    command.env("PATH", path);
  }
  for (key, value) in env {
    command.env(key, value);
  }
  command.output().expect("run just")
}

fn text(bytes: &[u8]) -> String {
  String::from_utf8_lossy(bytes).into_owned()
}

fn invalid() -> OsString {
  OsString::from_vec(b"a\xff".to_vec())
}

fn non_utf8_color_environment_is_an_invalid_value() {
  let directory = tempfile::tempdir().expect("tempdir");
  let output = just(directory.path(), &[], &[("JUST_COLOR", invalid())]);
  assert_eq!(output.status.code(), Some(2));
  assert_eq!(
    text(&output.stderr),
    "error: invalid value 'a\u{fffd}' for '--color <COLOR>'\n  [possible values: always, auto, never]\n\nFor more information, try '--help'.\n"
  );
}

fn non_utf8_chooser_is_accepted() {
  let directory = tempfile::tempdir().expect("tempdir");
  std::fs::write(directory.path().join("justfile"), "a:\n  @echo hi\n").expect("write");
  let output = just(directory.path(), &["--chooser".into(), invalid()], &[]);
  assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
  assert_eq!(text(&output.stdout), "hi\n");
}

fn non_unicode_justfile_path_warns() {
  let directory = tempfile::tempdir().expect("tempdir");
  let root = directory.path().canonicalize().expect("canonicalize");
  let path = root.join(OsString::from_vec(b"j\xff".to_vec()));
  std::fs::write(&path, "a:\n  @echo hi\n").expect("write");
  let output = just(&root, &["--justfile".into(), path.clone().into_os_string()], &[]);
  assert_eq!(output.status.code(), Some(0));
  assert_eq!(text(&output.stdout), "hi\n");
  assert_eq!(
    text(&output.stderr),
    format!(
      "The justfile path `{}` is not Unicode. Just is considering phasing-out support for \
       non-Unicode paths. If you see this warning, please leave a comment on \
       https://github.com/casey/just/issues/3229. Thank you!\n",
      path.display()
    )
  );
}

fn deleted_current_directory() {
  let directory = tempfile::tempdir().expect("tempdir");
  let gone = directory.path().join("gone");
  std::fs::create_dir(&gone).expect("mkdir");
  // The shell enters the directory, removes it, then becomes `just`.
  let script = format!("rmdir '{}' && exec \"$0\"", gone.display());
  let output = Command::new("sh")
    .arg("-c")
    .arg(script)
    .arg(binary())
    .current_dir(&gone)
    .env_clear()
    .env("NO_COLOR", "1")
    .output()
    .expect("run just");
  assert_eq!(output.status.code(), Some(1));
  assert_eq!(
    text(&output.stderr),
    "error: failed to get current directory: No such file or directory (os error 2)\n"
  );
}
