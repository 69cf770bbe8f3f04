//! README.md is the manual: its examples must work as shown.
//!
//! * A ` ```just ` block is a whole justfile and must compile (`--dump`).
//!   A ` ```just fragment ` block may use recipes and files defined
//!   elsewhere: every recipe it lacks is stubbed as `NAME *args:`, and a
//!   missing imported file or module is accepted; anything else must compile.
//! * A ` ```console ` block is a transcript, checked exactly: each `$ ` line
//!   runs through `sh` (stderr joined to stdout, `NO_COLOR=1`, the built
//!   `just` first on `PATH`) in one temporary directory holding, as
//!   `justfile`, the last whole ` ```just ` block above it in the same `##`
//!   section; the
//!   lines up to the next `$ ` line are its output. Commands whose output
//!   depends on the machine go in ` ```sh ` blocks, which are not run.
//! * Every option of `just --help` has a row in a table of the README.

use std::{
  fs,
  path::Path,
  process::{Command, Stdio},
  time::Duration,
};

use regex::Regex;

tests! {
  ; extensions:
  justfile_blocks_compile,
  console_examples_print_what_they_show,
  every_flag_of_help_has_a_table_row,
}

struct Block {
  line: usize,
  info: String,
  text: String,
  /// The justfile a console block runs against.
  justfile: Option<String>,
}

fn readme() -> String {
  fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("read README.md")
}

/// The fenced blocks of `markdown`, each console block paired with the last
/// whole justfile block of its section.
fn blocks(markdown: &str) -> Vec<Block> {
  let mut blocks = Vec::new();
  let mut open: Option<Block> = None;
  let mut section_justfile: Option<String> = None;
  for (index, line) in markdown.lines().enumerate() {
    match open.take() {
      Some(block) if line.trim_start() == "```" => {
        if block.info == "just" {
          section_justfile = Some(block.text.clone());
        }
        blocks.push(block);
      }
      Some(mut block) => {
        block.text.push_str(line);
        block.text.push('\n');
        open = Some(block);
      }
      None if line.starts_with("```") => {
        let info = line.trim_start_matches('`').trim().to_owned();
        let justfile = section_justfile.clone();
        open = Some(Block { line: index + 1, info, text: String::new(), justfile });
      }
      None if line.starts_with("# ") || line.starts_with("## ") => section_justfile = None,
      None => {}
    }
  }
  assert!(open.is_none(), "README.md: a code block is not closed");
  blocks
}

fn just(dir: &Path, args: &[&str]) -> std::process::Output {
  Command::new(crate::common::binary())
    .args(args)
    .current_dir(dir)
    .env_clear()
    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
    .env("HOME", dir)
    .env("NO_COLOR", "1")
    .output()
    .expect("run just")
}

/// `None` when `source` compiles (after stubbing, for a fragment), else the
/// error.
fn compile_error(source: &str, fragment: bool) -> Option<String> {
  let missing_recipe =
    Regex::new("has (?:unknown dependency|an unknown target) `([^`]+)`").unwrap();
  let dir = tempfile::tempdir().expect("temporary directory");
  let mut source = source.to_owned();
  loop {
    fs::write(dir.path().join("justfile"), &source).expect("write justfile");
    let output = just(dir.path(), &["--dump"]);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if output.status.success() {
      return None;
    }
    if !fragment {
      return Some(stderr);
    }
    if stderr.starts_with("error: could not find source file for") {
      return None;
    }
    let stub =
      missing_recipe.captures(&stderr).map(|captures| format!("\n{} *args:\n", &captures[1]));
    match stub {
      Some(stub) if !source.contains(&stub) => source.push_str(&stub),
      _ => return Some(stderr),
    }
  }
}

fn justfile_blocks_compile() {
  let failures: Vec<String> = blocks(&readme())
    .into_iter()
    .filter(|block| block.info == "just" || block.info == "just fragment")
    .filter_map(|block| {
      let error = compile_error(&block.text, block.info == "just fragment")?;
      Some(format!("README.md:{}: ```{} block does not compile:\n{error}", block.line, block.info))
    })
    .collect();
  assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `$ ` commands of a transcript with the output each should print.
fn transcript(text: &str) -> Vec<(String, String)> {
  let mut steps: Vec<(String, String)> = Vec::new();
  for line in text.lines() {
    match (line.strip_prefix("$ "), steps.last_mut()) {
      (Some(command), _) => steps.push((command.to_owned(), String::new())),
      (None, Some((_, output))) => {
        output.push_str(line);
        output.push('\n');
      }
      (None, None) => panic!("console block starts with output, not a `$ ` command: {line}"),
    }
  }
  steps
}

fn check_console(block: &Block) -> Result<(), String> {
  let dir = tempfile::tempdir().expect("temporary directory");
  if let Some(justfile) = &block.justfile {
    fs::write(dir.path().join("justfile"), justfile).expect("write justfile");
  }
  let binary = std::path::PathBuf::from(crate::common::binary());
  let mut path = std::ffi::OsString::from(binary.parent().expect("binary directory"));
  path.push(":");
  path.push(std::env::var_os("PATH").unwrap_or_default());
  for (command, expected) in transcript(&block.text) {
    let mut shell = Command::new("sh");
    shell
      .args(["-c", &format!("exec 2>&1\n{command}")])
      .current_dir(dir.path())
      .env_clear()
      .env("PATH", &path)
      .env("HOME", dir.path())
      .env("NO_COLOR", "1");
    let actual = run_with_deadline(shell)
      .map_err(|error| format!("README.md:{}: `$ {command}`: {error}", block.line))?;
    if actual != expected {
      return Err(format!(
        "README.md:{}: `$ {command}` printed\n{actual}instead of\n{expected}",
        block.line
      ));
    }
  }
  Ok(())
}

/// The output of `command`, which must end within a minute: a command that
/// runs on (say, `--watch`) belongs in a ` ```sh ` block. Its process group is
/// killed at the deadline.
fn run_with_deadline(mut command: Command) -> Result<String, String> {
  use std::{io::Read as _, io::Seek as _, os::unix::process::CommandExt as _};
  let mut output = tempfile::tempfile().expect("output file");
  let stdout = output.try_clone().expect("output file");
  let mut child =
    command.stdin(Stdio::null()).stdout(stdout).process_group(0).spawn().expect("run sh");
  if crate::common::process::wait_within_group(&mut child, Duration::from_secs(180)).is_none() {
    return Err("still running after 60 s".into());
  }
  let mut text = Vec::new();
  output.rewind().expect("rewind output");
  output.read_to_end(&mut text).expect("read output");
  Ok(String::from_utf8_lossy(&text).into_owned())
}

fn console_examples_print_what_they_show() {
  let failures: Vec<String> = blocks(&readme())
    .iter()
    .filter(|block| block.info == "console")
    .filter_map(|block| check_console(block).err())
    .collect();
  assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn every_flag_of_help_has_a_table_row() {
  let dir = tempfile::tempdir().expect("temporary directory");
  let help = String::from_utf8(just(dir.path(), &["--help"]).stdout).expect("UTF-8 help");
  let readme = readme();
  let rows: Vec<&str> = readme.lines().filter(|line| line.starts_with('|')).collect();
  let flag = Regex::new(r"(?m)^ +(?:-\w, )?(--[a-z-]+)").unwrap();
  let missing: Vec<&str> = flag
    .captures_iter(&help)
    .map(|captures| captures.get(1).unwrap().as_str())
    .filter(|flag| {
      !rows
        .iter()
        .any(|row| row.contains(&format!("`{flag}`")) || row.contains(&format!("`{flag} ")))
    })
    .collect();
  assert!(missing.is_empty(), "README.md has no table row for {missing:?}");
}
