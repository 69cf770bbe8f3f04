//! Robustness: `just` must never panic, whatever the justfile, arguments or
//! environment.
//!
//! * `random_justfiles_never_panic` builds many justfiles from a grammar of
//!   token fragments, and mutates valid ones, and runs lex → parse → format
//!   → analyze on each inside `catch_unwind`. It also checks that lexemes
//!   rebuild the source and that formatting is idempotent. It is
//!   deterministic; `ROBUST_SEED` and `ROBUST_ITERATIONS` explore further,
//!   `ROBUST_VERBOSE` prints the lex and parse errors met (with `--nocapture`),
//!   `ROBUST_DUMP_DIR` saves the inputs (for differential runs).
//! * The other tests run the binary with odd inputs, arguments and
//!   environments, and pin the error it gives instead of panicking.

tests! {
  random_justfiles_never_panic,
  comment_line_after_recipe_body_is_kept_by_fmt,
  comment_line_after_recipe_body_is_dumped,
  body_line_of_whitespace_and_lone_carriage_returns_is_not_blank,
  lone_carriage_return_at_end_of_file_stays_in_excerpt,
  fmt_check_diff_treats_lone_carriage_return_as_line_end,
  long_dependency_chain_does_not_overflow_the_stack,
  long_variable_chain_does_not_overflow_the_stack,
  long_concatenation_does_not_overflow_the_stack,
  long_path_join_does_not_overflow_the_stack,
  #[cfg(unix)]
  invalid_utf8_arguments_are_rejected_without_panicking,
  odd_arguments_and_environments_never_panic,
  const_chain_feeding_a_setting_is_evaluated_once_per_assignment,
  output_longer_than_a_chunk_is_printed_whole_and_in_order,
  ;
  extensions:
  choose_with_a_huge_count_is_an_error_not_a_panic,
  #[cfg(target_os = "linux")]
  unwritable_stdout_does_not_panic,
  #[cfg(target_os = "linux")]
  full_device_on_stdout_is_an_error_for_every_listing,
  #[cfg(target_os = "linux")]
  full_device_on_stdout_is_an_error_for_relayed_recipe_output,
  #[cfg(target_os = "linux")]
  stdout_open_only_for_reading_is_an_error,
  #[cfg(target_os = "linux")]
  broken_pipe_ends_every_listing_quietly,
  #[cfg(target_os = "linux")]
  reader_stopping_early_ends_a_long_output_quietly,
  #[cfg(target_os = "linux")]
  full_device_on_stderr_fails_the_run,
  #[cfg(target_os = "linux")]
  full_device_on_stderr_fails_a_run_whose_cache_warns,
  #[cfg(unix)]
  broken_pipe_on_stderr_ends_a_cache_warning_quietly,
  #[cfg(unix)]
  fmt_through_a_symlink_formats_the_target_and_keeps_the_link,
  #[cfg(unix)]
  fmt_keeps_the_mode,
  #[cfg(unix)]
  fmt_keeps_owner_and_group_of_another_users_file if is_root,
  #[cfg(unix)]
  fmt_keeps_hard_links_one_file,
  #[cfg(unix)]
  fmt_formats_a_writable_justfile_in_an_unwritable_directory,
  #[cfg(target_os = "linux")]
  fmt_on_a_full_disk_leaves_the_justfile_intact if can_mount,
  #[cfg(target_os = "linux")]
  fmt_with_room_formats_a_hard_linked_justfile_in_place if can_mount,
  hundred_thousand_term_concatenation_evaluates_and_dumps,
  hundred_thousand_term_path_join_evaluates,
  hundred_thousand_link_else_if_chain_evaluates,
  hundred_thousand_recipe_dependency_chain_runs,
  two_thousand_nested_modules_load,
  ten_thousand_file_import_chain_loads,
  suggestion_for_a_very_long_unknown_name_is_found,
  #[cfg(target_os = "linux")]
  backtick_over_the_argument_limit_says_its_command_is_too_long,
  #[cfg(unix)]
  script_tempdir_is_removed_after_failure,
  #[cfg(unix)]
  script_tempdir_is_removed_after_signals_to_the_process_group,
}

use std::cell::Cell;
use std::ffi::OsString;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

use just::{
  analyze, excerpt, format_justfile, indentation_setting, lex, parse, write_justfile, Painter,
  Sink, Source, Stream, TokenKind, Trees, UseColor,
};

use crate::common::binary;
use crate::common::process::{self, poll_until};

// ---------------------------------------------------------------------------
// Deterministic random generation.

struct Rng(u64);

impl Rng {
  fn new(seed: u64) -> Self {
    Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
  }

  fn next(&mut self) -> u64 {
    // xorshift64*
    let mut x = self.0;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    self.0 = x;
    x.wrapping_mul(0x2545_F491_4F6C_DD1D)
  }

  fn below(&mut self, n: usize) -> usize {
    if n == 0 {
      0
    } else {
      (self.next() % n as u64) as usize
    }
  }

  fn chance(&mut self, percent: usize) -> bool {
    self.below(100) < percent
  }

  fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
    items[self.below(items.len())]
  }
}

const NAMES: &[&str] = &[
  "a",
  "b",
  "foo",
  "bar",
  "x",
  "build",
  "test",
  "_p",
  "a-b",
  "if",
  "else",
  "set",
  "export",
  "alias",
  "import",
  "mod",
  "true",
  "false",
  "eager",
  "unexport",
  "arch",
  "env",
  "quote",
  "join",
  "uppercase",
  "os",
  "just_executable",
  "HOME",
  "PATH",
  "x1",
  "A_B",
];

/// Names the lexer rejects, used rarely.
const BAD_NAMES: &[&str] = &["é", "ünï", "日本", "1x", "-", "ẞ", "a.b"];

/// Escapes that are errors in `"` strings, used rarely there.
const BAD_ESCAPES: &[&str] =
  &["\\'", "\\", "\\u{}", "\\u{110000}", "\\u{D800}", "\\u{zz}", "\\u{1234567}", "\\u", "\\x"];

const FUNCTIONS: &[&str] = &[
  "arch",
  "env",
  "env_var",
  "env_var_or_default",
  "quote",
  "join",
  "uppercase",
  "replace",
  "replace_regex",
  "trim",
  "sha256",
  "path_exists",
  "semver_matches",
  "error",
  "choose",
  "bool",
  "show",
  "which",
  "split",
  "join_list",
  "num_jobs",
  "datetime",
  "style",
  "append",
  "prepend",
  "encode_uri_component",
  "read",
  "canonicalize",
  "absolute_path",
  "blake3",
  "unknown_function",
];

const STRING_PIECES: &[&str] = &[
  "a",
  " ",
  "hello",
  "\\n",
  "\\t",
  "\\r",
  "\\\\",
  "\\\"",
  "\\'",
  "\\",
  "\\u{1F600}",
  "\\u{}",
  "\\u{110000}",
  "\\u{D800}",
  "\\u{zz}",
  "\\u{1234567}",
  "\\u",
  "\\x",
  "\\\n",
  "\n",
  "\r\n",
  "\t",
  "é",
  "日本語",
  "😀",
  "\u{feff}",
  "{{",
  "}}",
  "{{{{",
  "{",
  "}",
  "$HOME",
  "${X}",
  "${",
  "~",
  "~/x",
  "'",
  "\"",
  "`",
  "#",
  "\u{0}",
  "\u{7f}",
  "\u{200b}",
  "\u{301}",
];

const SETTINGS: &[&str] = &[
  "allow-duplicate-recipes",
  "allow-duplicate-variables",
  "dotenv-load",
  "dotenv-filename",
  "dotenv-path",
  "dotenv-required",
  "dotenv-command",
  "export",
  "fallback",
  "ignore-comments",
  "positional-arguments",
  "quiet",
  "shell",
  "windows-shell",
  "script-interpreter",
  "tempdir",
  "working-directory",
  "no-cd",
  "unstable",
  "lists",
  "indentation",
  "minimum-version",
  "windows-powershell",
  "no-exit-message",
  "bogus",
];

const ATTRIBUTES: &[&str] = &[
  "private",
  "no-cd",
  "no-exit-message",
  "no-quiet",
  "linux",
  "macos",
  "unix",
  "windows",
  "openbsd",
  "positional-arguments",
  "parallel",
  "script",
  "extension",
  "confirm",
  "doc",
  "group",
  "working-directory",
  "env",
  "metadata",
  "arg",
  "cache",
  "timestamp",
  "exit-message",
  "default",
  "unknown",
];

const TOKEN_SOUP: &[&str] = &[
  ":=",
  ":",
  "::",
  "=",
  "==",
  "!=",
  "=~",
  "!~",
  "+",
  "++",
  "/",
  "&&",
  "||",
  "!",
  "?",
  "*",
  "$",
  "@",
  "-",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "{{",
  "}}",
  ",",
  "#",
  "#!",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "\\\n",
  "'",
  "\"",
  "`",
  "'''",
  "\"\"\"",
  "```",
  "x'",
  "f'",
  "f\"",
  "f'''",
  "if",
  "else",
  "import",
  "import?",
  "mod",
  "mod?",
  "set",
  "alias",
  "export",
  "unexport",
  "eager",
  "true",
  "false",
  "a",
  "foo",
  "é",
  "😀",
  "\u{feff}",
  "1",
  "-x",
  "[private]",
  "[a,]",
  "[doc: 'x']",
];

const INDENTS: &[&str] = &["  ", "    ", "\t", "  ", "    ", "\t", " \t", " ", "        ", "\t\t"];

const LINE_ENDS: &[&str] = &["\n", "\n", "\n", "\n", "\r\n", "\r\n", "\n", "\n", "\n", "\r"];

struct Generator {
  rng: Rng,
  depth: usize,
}

impl Generator {
  fn name(&mut self) -> String {
    if self.rng.chance(2) {
      self.rng.pick(BAD_NAMES).to_owned()
    } else {
      self.rng.pick(NAMES).to_owned()
    }
  }

  /// Pieces containing the closing quote are mostly avoided, so that most
  /// strings end where intended.
  fn string_body(&mut self, quote: &str, interpolations: bool) -> String {
    let mut out = String::new();
    for _ in 0..self.rng.below(5) {
      if interpolations && self.rng.chance(30) {
        out.push_str("{{");
        out.push_str(&self.expression());
        out.push_str("}}");
      } else {
        let piece = self.rng.pick(STRING_PIECES);
        let closes = piece.contains(&quote[..1]) || (quote != "\"" && piece.ends_with('\\'));
        let bad = (quote.starts_with('"') && BAD_ESCAPES.contains(&piece))
          || (interpolations && piece.starts_with("{{"));
        if !(closes || bad) || self.rng.chance(5) {
          out.push_str(piece);
        }
      }
    }
    out
  }

  fn string(&mut self) -> String {
    let (prefix, quote) = match self.rng.below(12) {
      0 | 1 => ("", "'"),
      2 | 3 => ("", "\""),
      4 => ("", "'''"),
      5 => ("", "\"\"\""),
      6 => ("", "`"),
      7 => ("", "```"),
      8 => ("x", "'"),
      9 => ("f", "'"),
      10 => ("f", "\""),
      _ => ("f", if self.rng.chance(50) { "'''" } else { "\"\"\"" }),
    };
    let body = self.string_body(quote, prefix == "f");
    let close = if self.rng.chance(95) { quote } else { "" };
    format!("{prefix}{quote}{body}{close}")
  }

  fn expression(&mut self) -> String {
    if self.depth > 4 {
      return if self.rng.chance(50) { self.string() } else { self.name() };
    }
    self.depth += 1;
    let out = match self.rng.below(16) {
      0..=3 => self.string(),
      4 | 5 => self.name(),
      6 => format!("{} + {}", self.expression(), self.expression()),
      7 => format!("{} / {}", self.expression(), self.expression()),
      8 => format!("/ {}", self.expression()),
      9 => {
        let op = self.rng.pick(&["==", "!=", "=~", "!~", ""]);
        let condition = if op.is_empty() {
          self.expression()
        } else {
          format!("{} {op} {}", self.expression(), self.expression())
        };
        let otherwise = if self.rng.chance(85) {
          format!(" else {{ {} }}", self.expression())
        } else {
          String::new()
        };
        format!("if {condition} {{ {} }}{otherwise}", self.expression())
      }
      10 => {
        let function = self.rng.pick(FUNCTIONS);
        let arguments: Vec<String> = (0..self.rng.below(4)).map(|_| self.expression()).collect();
        let trailing = if self.rng.chance(20) { "," } else { "" };
        format!("{function}({}{trailing})", arguments.join(", "))
      }
      11 => format!("({})", self.expression()),
      12 => {
        let elements: Vec<String> = (0..self.rng.below(4)).map(|_| self.expression()).collect();
        format!("[{}]", elements.join(",\n  "))
      }
      13 => format!(
        "{} {} {}",
        self.expression(),
        self.rng.pick(&["&&", "||", "++"]),
        self.expression()
      ),
      14 => format!("!{}", self.expression()),
      _ => format!("assert({} == {}, {})", self.expression(), self.expression(), self.string()),
    };
    self.depth -= 1;
    out
  }

  fn attribute(&mut self) -> String {
    let name = self.rng.pick(ATTRIBUTES);
    match self.rng.below(5) {
      0 | 1 => name.to_owned(),
      2 => format!("{name}: {}", self.expression()),
      3 => {
        let arguments: Vec<String> = (0..self.rng.below(4))
          .map(|_| match self.rng.below(3) {
            0 => format!(
              "{}={}",
              self.rng.pick(&["pattern", "long", "short", "help", "value"]),
              self.string()
            ),
            1 => self.rng.pick(&["flag", "long", "multiple"]).to_owned(),
            _ => self.string(),
          })
          .collect();
        format!("{name}({})", arguments.join(", "))
      }
      _ => format!("{name}, {}", self.rng.pick(ATTRIBUTES)),
    }
  }

  fn parameter(&mut self) -> String {
    let prefix = self.rng.pick(&["", "", "", "+", "*", "$", "$+", "*$"]);
    let name = self.name();
    match self.rng.below(3) {
      0 => format!("{prefix}{name}={}", self.expression()),
      _ => format!("{prefix}{name}"),
    }
  }

  fn dependency(&mut self) -> String {
    let name = self.name();
    let path = if self.rng.chance(10) { format!("{}::{name}", self.name()) } else { name };
    match self.rng.below(4) {
      0 => {
        let arguments: Vec<String> = (0..self.rng.below(3)).map(|_| self.expression()).collect();
        format!("({path} {})", arguments.join(" "))
      }
      1 => format!("&& {path}"),
      _ => path,
    }
  }

  fn body_line(&mut self, indent: &str) -> String {
    let mut line = indent.to_owned();
    if self.rng.chance(5) {
      line.push_str(self.rng.pick(INDENTS));
    }
    line.push_str(self.rng.pick(&["", "", "@", "-", "@-", "-@", "#!/bin/sh ", "# "]));
    for _ in 0..self.rng.below(4) {
      if self.rng.chance(35) {
        line.push_str("{{");
        line.push_str(&self.expression());
        if self.rng.chance(95) {
          line.push_str("}}");
        }
      } else {
        line
          .push_str(self.rng.pick(&["echo ", "hi", " ", "\r", "$1", "{{{{", "}}", "\\", "'", "é"]));
      }
    }
    line
  }

  fn recipe(&mut self, line_end: &str) -> String {
    let mut out = String::new();
    if self.rng.chance(30) {
      out.push_str(&format!("# {}{line_end}", self.rng.pick(STRING_PIECES)));
    }
    for _ in 0..self.rng.below(3) {
      out.push_str(&format!("[{}]{line_end}", self.attribute()));
    }
    if self.rng.chance(15) {
      out.push('@');
    }
    out.push_str(&self.name());
    for _ in 0..self.rng.below(4) {
      out.push(' ');
      out.push_str(&self.parameter());
    }
    out.push_str(self.rng.pick(&[":", ":", ":", " :", "", ":="]));
    for _ in 0..self.rng.below(4) {
      out.push(' ');
      out.push_str(&self.dependency());
    }
    if self.rng.chance(10) {
      out.push_str(" # trailing");
    }
    out.push_str(line_end);
    let indent = self.rng.pick(INDENTS).to_owned();
    for _ in 0..self.rng.below(5) {
      out.push_str(&self.body_line(&indent));
      out.push_str(if self.rng.chance(90) { line_end } else { self.rng.pick(LINE_ENDS) });
      if self.rng.chance(10) {
        out.push_str(line_end);
      }
    }
    out
  }

  fn item(&mut self, line_end: &str) -> String {
    let item = match self.rng.below(14) {
      0 => format!("# {}", self.rng.pick(STRING_PIECES)),
      1 => String::new(),
      2 | 3 => {
        let prefix = self.rng.pick(&["", "", "export ", "eager ", "[private]\n"]);
        format!("{prefix}{} := {}", self.name(), self.expression())
      }
      4 => {
        let name = self.rng.pick(SETTINGS);
        match self.rng.below(4) {
          0 => format!("set {name}"),
          1 => format!("set {name} := {}", self.rng.pick(&["true", "false", "'2'"])),
          2 => {
            let elements: Vec<String> = (0..self.rng.below(3)).map(|_| self.expression()).collect();
            format!("set {name} := [{}]", elements.join(", "))
          }
          _ => format!("set {name} := {}", self.expression()),
        }
      }
      5 => format!("alias {} := {}", self.name(), self.name()),
      6 => format!(
        "{} {}",
        self.rng.pick(&["import", "import?"]),
        self.rng.pick(&[
          "'missing.just'",
          "'other.just'",
          "'sub'",
          "\"other.just\"",
          "x'$HOME'",
          "'self.just'",
          "f'x'",
          "'/'",
          "''"
        ])
      ),
      7 => {
        let keyword = self.rng.pick(&["mod", "mod?"]);
        let name = self.name();
        let path =
          self.rng.pick(&["", " 'other.just'", " 'missing.just'", " 'sub'", " 'sub/mod.just'"]);
        format!("{keyword} {name}{path}")
      }
      8 => {
        let parameters: Vec<String> = (0..self.rng.below(3)).map(|_| self.name()).collect();
        format!("{}({}) := {}", self.name(), parameters.join(", "), self.expression())
      }
      9 => format!("unexport {}", self.name()),
      10 => {
        let soup: String = (0..self.rng.below(12)).map(|_| self.rng.pick(TOKEN_SOUP)).collect();
        soup
      }
      _ => return self.recipe(line_end),
    };
    format!("{item}{line_end}")
  }

  fn justfile(&mut self) -> String {
    let mut out = String::new();
    if self.rng.chance(5) {
      out.push('\u{feff}');
    }
    if self.rng.chance(5) {
      out.push_str("#!/usr/bin/env just --justfile\n");
    }
    let line_end = if self.rng.chance(80) { "\n" } else { self.rng.pick(LINE_ENDS) };
    for _ in 0..self.rng.below(7) {
      out.push_str(&self.item(line_end));
    }
    if self.rng.chance(10) {
      out.pop();
    }
    out
  }
}

/// Valid justfiles to mutate.
const SEEDS: &[&str] = &[
  "default:\n  echo hi\n",
  "x := 'a'\ny := x + \"b\\n\" / `echo c`\n\nfoo a b='c' +d: (bar a) && baz\n  @echo {{a}} {{b}}\n\nbar x:\n  echo {{x}}\n\nbaz:\n",
  "set shell := ['bash', '-c']\nset dotenv-load\nexport A := env('HOME', 'none')\n\n[private]\n[group('g')]\nfoo:\n  #!/usr/bin/env bash\n  echo {{A}}\n",
  "a := if 'x' == 'y' { 'z' } else if 'a' =~ 'b' { '''\n  tri\n  ''' } else { f'{{a}}x' }\n",
  "alias b := build\n# build it\nbuild *args:\n\techo {{args}}\n",
  "import? 'missing.just'\nmod? nothing\nmod other 'other.just'\nfoo: other::bar\n",
  "set lists\nset unstable\nxs := ['a', ['b'], []] ++ ['c']\nf(a, b) := a + b\nfoo:\n  echo {{ f('1', '2') }} {{ xs }}\n",
  "[arg('a', long, help='x', pattern='\\d+')]\n[confirm('sure?')]\n[doc('docs')]\n[working-directory: 'sub']\nfoo $a='1':\n  echo $a\n",
  "\u{feff}x := \"\\u{1F600}\\t\\\\\" + x'~/a' + \"\"\"\n  a\n  \"\"\"\n",
  "foo:\r\n  echo a \\\r\n    b\r\n\r\nbar:\r\n\techo b\r\n",
  "[script('python3')]\nfoo:\n  print(1)\n\n  print(2)\n\n[unix]\nx := 'u'\n[windows]\nx := 'w'\n",
  "set indentation := '  '\nfoo:\n      echo {{ '{{' }} {{{{ }}\n",
  "a := ((((('x')))))\nb := f\"{{ f'[{{ a }}]' }}\"\nc := ```\n  echo x\n  ```\n",
  "set positional-arguments\n@foo *args='':\n  -echo \"$@\"\n[parallel]\nbar: foo (foo 'x') foo\n",
];

fn mutate(rng: &mut Rng, input: &str) -> String {
  let mut chars: Vec<char> = input.chars().collect();
  for _ in 0..=rng.below(4) {
    let len = chars.len();
    match rng.below(7) {
      0 if len > 0 => {
        let start = rng.below(len);
        let end = (start + 1 + rng.below(4)).min(len);
        chars.drain(start..end);
      }
      1 => {
        let at = rng.below(len + 1);
        let piece: Vec<char> = rng.pick(TOKEN_SOUP).chars().collect();
        chars.splice(at..at, piece);
      }
      2 if len > 1 => {
        let at = rng.below(len - 1);
        chars.swap(at, at + 1);
      }
      3 if len > 0 => {
        let start = rng.below(len);
        let end = (start + 1 + rng.below(8)).min(len);
        let slice: Vec<char> = chars[start..end].to_vec();
        let at = rng.below(len + 1);
        chars.splice(at..at, slice);
      }
      4 => {
        let at = rng.below(len + 1);
        let c = char::from_u32(rng.below(0x80) as u32).unwrap_or('x');
        chars.insert(at, c);
      }
      5 => {
        let at = rng.below(len + 1);
        let piece: Vec<char> = rng.pick(STRING_PIECES).chars().collect();
        chars.splice(at..at, piece);
      }
      _ if len > 0 => {
        let at = rng.below(len);
        chars[at] = rng
          .pick(&[" ", "\t", "\n", "\r", "{", "}", "'", "\"", "(", ":", "=", "é"])
          .chars()
          .next()
          .unwrap_or(' ');
      }
      _ => {}
    }
  }
  chars.into_iter().collect()
}

// ---------------------------------------------------------------------------
// The checks.

thread_local! {
  static QUIET_PANICS: Cell<bool> = const { Cell::new(false) };
}

static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Record panic messages instead of printing them while fuzzing (the parser
/// runs on a helper thread named `parser`, whose panics are re-raised).
fn install_panic_hook() {
  static ONCE: Once = Once::new();
  ONCE.call_once(|| {
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
      let fuzzing = QUIET_PANICS.with(Cell::get);
      let parser = std::thread::current().name() == Some("parser");
      if fuzzing || parser {
        if let Ok(mut last) = LAST_PANIC.lock() {
          *last = Some(info.to_string());
        }
      } else {
        default(info);
      }
    }));
  });
}

fn painter() -> Painter {
  Painter::new(UseColor::Never, Stream::Stderr)
}

/// How far an input got: 0 lexed, 1 parsed, 2 analysed without error.
static STAGES: [AtomicUsize; 3] = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];

/// Lex, parse, format and analyse `src`; `Err` describes a broken invariant.
fn check(src: &str, dir: &Path) -> Result<(), String> {
  let path = dir.join("justfile");
  let source = Source::new(src, &path);
  let trees = Trees::new();
  let tokens = match lex(&source) {
    Ok(tokens) => tokens,
    Err(error) => {
      if std::env::var_os("ROBUST_VERBOSE").is_some() {
        eprintln!("LEX {error}");
      }
      let _ = (error.to_string(), excerpt(&painter(), &error.token));
      return Ok(());
    }
  };
  STAGES[0].fetch_add(1, Ordering::Relaxed);
  let rebuilt: String = tokens.iter().map(|token| token.lexeme()).collect();
  if rebuilt != src {
    return Err(format!("lexemes do not rebuild the source: {rebuilt:?}"));
  }
  if tokens.last().map(|token| token.kind) != Some(TokenKind::Eof) {
    return Err("last token is not Eof".into());
  }
  match parse(&tokens, &trees) {
    Err(error) => {
      if std::env::var_os("ROBUST_VERBOSE").is_some() {
        eprintln!("PARSE {error}");
      }
      let _ = (error.to_string(), excerpt(&painter(), &error.token));
    }
    Ok(ast) => {
      STAGES[1].fetch_add(1, Ordering::Relaxed);
      let indentation = indentation_setting(&ast).unwrap_or_else(|| "    ".into());
      let once = format_justfile(&ast, &indentation);
      let mut pieces = Vec::new();
      let mut sink = Sink::chunked(&mut pieces, 1);
      write_justfile(&mut sink, &ast, &indentation);
      sink.finish().map_err(|error| error.to_string())?;
      if pieces != once.as_bytes() {
        let pieces = String::from_utf8_lossy(&pieces);
        return Err(format!("written in pieces, the text differs:\n{pieces}\nwhole:\n{once}"));
      }
      let once_source = Source::new(once.clone(), &path);
      let once_trees = Trees::new();
      let reparsed = lex(&once_source).and_then(|tokens| parse(&tokens, &once_trees));
      match reparsed {
        Err(error) => {
          return Err(format!("formatted output does not parse ({error}):\n{once}"));
        }
        Ok(ast) => {
          let twice = format_justfile(&ast, &indentation);
          // A `\r` kept in recipe text can become part of a CRLF line end
          // when reparsed; the reference is not idempotent there either.
          if twice != once && !once.contains('\r') {
            return Err(format!("formatting is not idempotent:\nonce:\n{once}\ntwice:\n{twice}"));
          }
        }
      }
    }
  }
  for unstable in [false, true] {
    match analyze(&path, src.to_owned(), dir, unstable) {
      Ok(()) => {
        STAGES[2].fetch_add(1, Ordering::Relaxed);
      }
      Err(rendered) if !rendered.starts_with("error: ") || !rendered.ends_with('\n') => {
        return Err(format!("an error renders as {rendered:?}"));
      }
      Err(_) => {}
    }
  }
  Ok(())
}

fn fuzz_directory() -> tempfile::TempDir {
  let dir = tempfile::tempdir().expect("tempdir");
  let write = |path: &str, contents: &str| {
    let path = dir.path().join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, contents).expect("write");
  };
  write("other.just", "bar:\n  echo bar\nother := 'o'\n");
  write("self.just", "import 'self.just'\n");
  write("sub/mod.just", "baz:\n  echo baz\n");
  write("sub/justfile", "import '../other.just'\n");
  write("a/mod.just", "x := 'a'\n");
  write("foo.just", "mod foo\n");
  dir
}

fn env_number(name: &str, default: u64) -> u64 {
  std::env::var(name).ok().and_then(|value| value.parse().ok()).unwrap_or(default)
}

fn random_justfiles_never_panic() {
  install_panic_hook();
  let seed = env_number("ROBUST_SEED", 1);
  let iterations = env_number("ROBUST_ITERATIONS", 2000) as usize;
  let dir = fuzz_directory();
  let dir_path = dir.path().canonicalize().expect("canonicalize");

  // A watchdog reports an input that makes the pipeline hang. It stops when
  // this test ends: the other tests of the binary go on running.
  let progress = Arc::new(AtomicUsize::new(0));
  let current = Arc::new(Mutex::new(String::new()));
  let finished = Arc::new(std::sync::atomic::AtomicBool::new(false));
  {
    let progress = Arc::clone(&progress);
    let current = Arc::clone(&current);
    let finished = Arc::clone(&finished);
    std::thread::spawn(move || {
      let mut seen = usize::MAX;
      loop {
        std::thread::sleep(Duration::from_secs(60));
        if finished.load(Ordering::SeqCst) {
          return;
        }
        let now = progress.load(Ordering::SeqCst);
        if now == seen {
          let input = current.lock().map(|input| input.clone()).unwrap_or_default();
          eprintln!("hang on input {input:?}");
          std::process::abort();
        }
        seen = now;
      }
    });
  }

  QUIET_PANICS.with(|quiet| quiet.set(true));
  let mut generator = Generator { rng: Rng::new(seed), depth: 0 };
  let mut failures = Vec::new();
  for iteration in 0..iterations {
    generator.depth = 0;
    let input = match iteration % 3 {
      0 => generator.justfile(),
      1 => {
        let seed = generator.rng.pick(SEEDS).to_owned();
        mutate(&mut generator.rng, &seed)
      }
      _ => {
        let base = generator.justfile();
        mutate(&mut generator.rng, &base)
      }
    };
    if let Some(dump) = std::env::var_os("ROBUST_DUMP_DIR") {
      let _ = std::fs::write(Path::new(&dump).join(format!("{iteration}.just")), &input);
    }
    if let Ok(mut slot) = current.lock() {
      slot.clone_from(&input);
    }
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| check(&input, &dir_path)));
    progress.fetch_add(1, Ordering::SeqCst);
    let problem = match outcome {
      Ok(Ok(())) => continue,
      Ok(Err(problem)) => problem,
      Err(_) => {
        let message = LAST_PANIC.lock().ok().and_then(|mut last| last.take()).unwrap_or_default();
        format!("panicked: {message}")
      }
    };
    failures.push(format!("input {input:?}\n{problem}"));
    if failures.len() >= 10 {
      break;
    }
  }
  QUIET_PANICS.with(|quiet| quiet.set(false));
  finished.store(true, Ordering::SeqCst);
  let stages: Vec<usize> = STAGES.iter().map(|stage| stage.load(Ordering::Relaxed)).collect();
  eprintln!(
    "{iterations} inputs: {} lexed, {} parsed, {} analysed (of 2 tries each)",
    stages[0], stages[1], stages[2]
  );
  assert!(failures.is_empty(), "{} failing inputs:\n\n{}", failures.len(), failures.join("\n\n"));
}

// ---------------------------------------------------------------------------
// Regressions found by the generator and by differential runs.

fn comment_line_after_recipe_body_is_kept_by_fmt() {
  crate::common::Test::new()
    .justfile("a: # header\n  x\n#c\nb:\n  y\n# end\n")
    .arg("--fmt")
    .stderr("wrote justfile to `{{TMP}}/justfile`\n")
    .expect_file("justfile", "a:\n    x\n# c\nb:\n    y\n# end\n")
    .run();
}

fn comment_line_after_recipe_body_is_dumped() {
  crate::common::Test::new()
    .justfile("a:\n  x\n# c\n")
    .arg("--dump")
    .stdout("a:\n    x\n# c\n")
    .run();
}

fn body_line_of_whitespace_and_lone_carriage_returns_is_not_blank() {
  crate::common::Test::new()
    .justfile("a:\n \r  \r\nb:\n")
    .arg("--dump")
    .stdout("a:\n    \r  \nb:\n")
    .run();
}

fn lone_carriage_return_at_end_of_file_stays_in_excerpt() {
  crate::common::Test::new()
    .justfile("x := \r")
    .status(1)
    .stderr("error: unpaired carriage return\n ——▶ justfile:1:6\n  │\n1 │ x := \r\n  │      ^\n")
    .run();
}

fn fmt_check_diff_treats_lone_carriage_return_as_line_end() {
  crate::common::Test::new()
    .justfile("# a\rb")
    .args(&["--fmt", "--check"])
    .status(1)
    .stdout(" # a\r-b\n+b\n")
    .stderr("error: formatted justfile differs from original\n")
    .run();
}

fn choose_with_a_huge_count_is_an_error_not_a_panic() {
  crate::common::Test::new()
    .justfile("x := choose('18446744073709551615', 'a')\n")
    .args(&["--evaluate", "x"])
    .status(1)
    .stderr(
      "error: call to function `choose` failed: failed to allocate 18446744073709551615 \
       characters: memory allocation failed because the computed capacity exceeded the \
       collection's maximum\n ——▶ justfile:1:6\n  │\n1 │ x := choose('18446744073709551615', \
       'a')\n  │      ^^^^^^\n",
    )
    .run();
}

fn chain(count: usize, link: impl Fn(usize) -> String) -> String {
  (0..count).map(link).collect()
}

fn long_dependency_chain_does_not_overflow_the_stack() {
  let justfile = chain(3000, |i| format!("r{i}: r{}\n", i + 1)) + "r3000:\n  @echo end\n";
  crate::common::Test::new().justfile(&justfile).arg("r0").stdout("end\n").run();
}

fn long_variable_chain_does_not_overflow_the_stack() {
  let justfile = chain(3000, |i| format!("v{i} := v{}\n", i + 1)) + "v3000 := 'e'\n";
  crate::common::Test::new().justfile(&justfile).args(&["--evaluate", "v0"]).stdout("e").run();
}

fn long_concatenation_does_not_overflow_the_stack() {
  let justfile = format!("x := {}\n", vec!["'a'"; 5000].join(" + "));
  crate::common::Test::new()
    .justfile(&justfile)
    .args(&["--evaluate", "x"])
    .stdout(&"a".repeat(5000))
    .run();
}

fn long_path_join_does_not_overflow_the_stack() {
  let justfile = format!("x := {}\n", vec!["'a'"; 5000].join(" / "));
  crate::common::Test::new()
    .justfile(&justfile)
    .args(&["--evaluate", "x"])
    .stdout(&vec!["a"; 5000].join("/"))
    .run();
}

// ---------------------------------------------------------------------------
// The binary with odd arguments and environments.

/// Run the binary in `dir` with a clean environment plus `env`.
fn run_binary(dir: &Path, args: &[OsString], env: &[(&str, OsString)]) -> (i32, String) {
  let mut command = Command::new(binary());
  command
    .args(args)
    .current_dir(dir)
    .env_clear()
    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
    .env("HOME", dir)
    .stdin(Stdio::null());
  for (key, value) in env {
    command.env(key, value);
  }
  let output = command.output().expect("run just");
  let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
  (output.status.code().unwrap_or(-1), stderr)
}

fn os(text: &str) -> OsString {
  OsString::from(text)
}

#[cfg(unix)]
fn invalid_utf8(bytes: &[u8]) -> OsString {
  use std::os::unix::ffi::OsStringExt;
  OsString::from_vec(bytes.to_vec())
}

#[cfg(unix)]
fn invalid_utf8_arguments_are_rejected_without_panicking() {
  let dir = tempfile::tempdir().expect("tempdir");
  std::fs::write(dir.path().join("justfile"), "foo a='1':\n  echo {{a}}\n").expect("write");
  let expected =
    "error: invalid UTF-8 was detected in one or more arguments\n\nUsage: just [OPTIONS] \
                  [ARGUMENTS]...\n\nFor more information, try '--help'.\n";
  for args in [
    vec![os("foo"), invalid_utf8(b"\xff\xfe")],
    vec![invalid_utf8(b"\xff")],
    vec![os("--set"), invalid_utf8(b"\xff"), os("x")],
  ] {
    let (status, stderr) = run_binary(dir.path(), &args, &[]);
    assert_eq!((status, stderr.as_str()), (2, expected), "args {args:?}");
  }
}

/// Arguments and environment of one run.
type Run<'a> = (Vec<OsString>, Vec<(&'a str, OsString)>);

/// Arguments and environments that must produce an error or a result, never
/// a panic (exit status 101) or a crash.
fn odd_arguments_and_environments_never_panic() {
  let dir = tempfile::tempdir().expect("tempdir");
  let root = dir.path();
  std::fs::write(
    root.join("justfile"),
    "foo a='1':\n  echo {{a}}\n\nbar:\n  #!/bin/sh\n  echo x\n",
  )
  .expect("write");
  std::fs::create_dir_all(root.join("dir/justfile")).expect("mkdir");
  let tmp = root.to_string_lossy().into_owned();
  let missing = format!("{tmp}/missing");
  let arguments: Vec<Vec<String>> = vec![
    vec![""],
    vec!["", ""],
    vec!["--set", "", ""],
    vec!["--jobs", "99999999999999999999999", "foo"],
    vec!["--jobs", "18446744073709551615", "foo"],
    vec!["--jobs", "0", "foo"],
    vec!["-d", &missing, "foo"],
    vec!["-d", &missing, "-f", "justfile", "foo"],
    vec!["-d", "", "foo"],
    vec!["--tempdir", &missing, "bar"],
    vec!["--tempdir", "justfile", "bar"],
    vec!["-f", "dir/justfile"],
    vec!["-f", "dir"],
    vec!["-f", ""],
    vec!["-f", "/"],
    vec!["föö"],
    vec!["日本"],
    vec!["foo", "日本😀"],
    vec!["::"],
    vec!["foo::"],
    vec!["::foo"],
    vec!["a:::b"],
    vec!["=x", "foo"],
    vec!["a::=x", "foo"],
    vec!["--set", "a::", "b", "foo"],
    vec!["--show", ""],
    vec!["--show", "::"],
    vec!["--usage", ""],
    vec!["--list", "::a"],
    vec!["--command", ""],
    vec!["--shell", "", "foo"],
    vec!["--shell", "nope-nope", "foo"],
    vec!["--timestamp", "--timestamp-format", "%", "foo"],
    vec!["--timestamp", "--timestamp-format", "%E%Q", "foo"],
    vec!["--completions", "bogus"],
    vec!["--dotenv-path", &tmp, "foo"],
    vec!["--evaluate", "nope"],
    vec!["--choose", "--chooser", "nope-nope"],
    vec!["../"],
    vec!["/"],
    vec!["."],
    vec!["missing/foo"],
  ]
  .into_iter()
  .map(|args| args.into_iter().map(str::to_owned).collect())
  .collect();
  let environments: Vec<(&str, &str)> = vec![
    ("JUST_JOBS", "99999999999999999999999"),
    ("JUST_COLOR", "bogus"),
    ("JUST_TIMESTAMP", "maybe"),
    ("JUST_UNSTABLE", "maybe"),
    ("JUST_UNSTABLE", ""),
    ("JUST_DOTENV_PATH", &missing),
    ("JUST_DOTENV_FILENAME", ""),
    ("JUST_LIST_HEADING", ""),
    ("JUST_LIST_PREFIX", "\t😀"),
    ("JUST_CHOOSER", ""),
    ("JUST_JUSTFILE", ""),
    ("JUST_WORKING_DIRECTORY", &tmp),
    ("JUST_SHELL", ""),
    ("JUST_TEMPDIR", &missing),
    ("JUST_TIMESTAMP_FORMAT", "%"),
    ("JUST_INDENTATION", ""),
  ];
  let mut runs: Vec<Run> =
    arguments.iter().map(|args| (args.iter().map(OsString::from).collect(), Vec::new())).collect();
  for (key, value) in &environments {
    for args in [&["foo"][..], &["bar"], &["--list"], &["--choose"], &["--fmt", "--check"]] {
      runs.push((args.iter().map(OsString::from).collect(), vec![(*key, os(value))]));
    }
  }
  #[cfg(unix)]
  for key in ["JUST_SHELL", "JUST_COLOR", "JUST_CHOOSER", "JUST_JUSTFILE", "JUST_TEMPDIR"] {
    runs.push((vec![os("foo")], vec![(key, invalid_utf8(b"\xff"))]));
  }
  let mut failures = Vec::new();
  for (args, env) in &runs {
    let (status, stderr) = run_binary(root, args, env);
    if status == 101 || status < 0 || stderr.contains("panicked") {
      failures.push(format!("args {args:?} env {env:?}: status {status}\n{stderr}"));
    }
  }
  assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Output that cannot be written (a full device, a closed pipe) must not
/// panic (`failed printing to stdout`).
#[cfg(target_os = "linux")]
fn unwritable_stdout_does_not_panic() {
  let dir = tempfile::tempdir().expect("tempdir");
  let justfile: String = (0..2000).map(|i| format!("r{i} a='x':\n  echo {i}\n")).collect();
  std::fs::write(dir.path().join("justfile"), justfile + "y := 'v'\n").expect("write");
  let binary = binary();
  let subcommands: &[&[&str]] = &[
    &["--list"],
    &["--dump"],
    &["--dump", "--dump-format", "json"],
    &["--summary"],
    &["--evaluate"],
    &["--variables"],
    &["--show", "r1"],
    &["--usage", "r1"],
    &["--fmt", "--check"],
    &["--completions", "bash"],
    &["--help"],
    &["--man"],
    &["--changelog"],
    &["--groups"],
  ];
  for args in subcommands {
    let full = std::fs::File::create("/dev/full").expect("open /dev/full");
    let output = Command::new(&binary)
      .args(*args)
      .current_dir(dir.path())
      .stdout(full)
      .output()
      .expect("run just");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
      output.status.code() != Some(101) && !stderr.contains("panicked"),
      "args {args:?}: {:?}\n{stderr}",
      output.status
    );
    let mut child = Command::new(&binary)
      .args(*args)
      .current_dir(dir.path())
      .stdout(Stdio::piped())
      .stderr(Stdio::piped())
      .spawn()
      .expect("run just");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
      output.status.code() != Some(101) && !stderr.contains("panicked"),
      "args {args:?} (closed pipe): {:?}\n{stderr}",
      output.status
    );
  }
}

// ---------------------------------------------------------------------------
// Output errors are reported, never swallowed; a broken pipe stays quiet.

/// Every listing subcommand, with the message a failed write gives.
#[cfg(target_os = "linux")]
const LISTINGS: &[(&[&str], &str)] = &[
  (&["--list"], "failed to write to standard output"),
  (&["--dump"], "failed to write to standard output"),
  (&["--dump", "--dump-format", "json"], "failed to dump JSON to stdout"),
  (&["--json"], "failed to dump JSON to stdout"),
  (&["--summary"], "failed to write to standard output"),
  (&["--evaluate"], "failed to write to standard output"),
  (&["--show", "r1"], "failed to write to standard output"),
  (&["--variables"], "failed to write to standard output"),
  (&["--groups"], "failed to write to standard output"),
  (&["--completions", "bash"], "failed to write to standard output"),
  (&["--man"], "I/O error writing to stdout"),
];

#[cfg(target_os = "linux")]
fn listing_directory() -> tempfile::TempDir {
  let dir = tempfile::tempdir().expect("tempdir");
  let justfile: String =
    (0..2000).map(|i| format!("[group('g')]\nr{i} a='x':\n  echo {i}\n")).collect();
  std::fs::write(dir.path().join("justfile"), justfile + "y := 'v'\n").expect("write");
  dir
}

/// `just ARGS` in `dir` with standard output on `/dev/full`, which fails every write.
#[cfg(target_os = "linux")]
fn run_into_full_device(dir: &Path, args: &[&str]) -> std::process::Output {
  let full = std::fs::File::create("/dev/full").expect("open /dev/full");
  Command::new(binary())
    .args(args)
    .current_dir(dir)
    .env("NO_COLOR", "1")
    .stdout(full)
    .output()
    .expect("run just")
}

#[cfg(target_os = "linux")]
fn full_device_on_stdout_is_an_error_for_every_listing() {
  let dir = listing_directory();
  for (args, message) in LISTINGS {
    let output = run_into_full_device(dir.path(), args);
    assert_eq!(
      (output.status.code(), String::from_utf8_lossy(&output.stderr).as_ref()),
      (Some(1), format!("error: {message}: No space left on device (os error 28)\n").as_str()),
      "args {args:?}"
    );
  }
}

/// With `--output prefixed|grouped` `just` passes the recipe's output on
/// itself, so a failure to write it is `just`'s to report.
#[cfg(target_os = "linux")]
fn full_device_on_stdout_is_an_error_for_relayed_recipe_output() {
  let dir = tempfile::tempdir().expect("tempdir");
  std::fs::write(dir.path().join("justfile"), "a:\n  @echo hello\n").expect("write justfile");
  for mode in ["prefixed", "grouped"] {
    let output = run_into_full_device(dir.path(), &["--output", mode, "a"]);
    assert_eq!(
      (output.status.code(), String::from_utf8_lossy(&output.stderr).as_ref()),
      (
        Some(1),
        "error: failed to write to standard output: No space left on device (os error 28)\n"
      ),
      "--output {mode}"
    );
  }
}

#[cfg(target_os = "linux")]
fn stdout_open_only_for_reading_is_an_error() {
  let dir = listing_directory();
  let read_only = std::fs::File::open(dir.path().join("justfile")).expect("open");
  let output = Command::new(binary())
    .arg("--dump")
    .current_dir(dir.path())
    .stdout(read_only)
    .output()
    .expect("run just");
  assert_eq!(
    (output.status.code(), String::from_utf8_lossy(&output.stderr).as_ref()),
    (Some(1), "error: failed to write to standard output: Bad file descriptor (os error 9)\n")
  );
}

#[cfg(target_os = "linux")]
fn broken_pipe_ends_every_listing_quietly() {
  let dir = listing_directory();
  for (args, _) in LISTINGS {
    let mut child = Command::new(binary())
      .args(*args)
      .current_dir(dir.path())
      .stdout(Stdio::piped())
      .stderr(Stdio::piped())
      .spawn()
      .expect("run just");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("wait");
    assert_eq!(
      (output.status.code(), String::from_utf8_lossy(&output.stderr).as_ref()),
      (Some(0), ""),
      "args {args:?}"
    );
  }
}

/// A justfile whose listing, dump and JSON are each several times the
/// chunk `just` writes at a time; it is its own dump.
fn long_output_justfile() -> String {
  (0..5000).map(|i| format!("# doc {i:04}\nr{i:04} a='x':\n    echo {i}\n")).collect()
}

fn output_longer_than_a_chunk_is_printed_whole_and_in_order() {
  let dir = tempfile::tempdir().expect("tempdir");
  let justfile = long_output_justfile();
  std::fs::write(dir.path().join("justfile"), &justfile).expect("write");
  let stdout = |args: &[&str]| {
    let output = Command::new(binary())
      .args(args)
      .current_dir(dir.path())
      .env("NO_COLOR", "1")
      .output()
      .expect("run just");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!((output.status.code(), stderr.as_ref()), (Some(0), ""), "{args:?}");
    String::from_utf8(output.stdout).expect("UTF-8")
  };
  let listing: String = std::iter::once("Available recipes:\n".to_string())
    .chain((0..5000).map(|i| format!("    r{i:04} a='x' # doc {i:04}\n")))
    .collect();
  assert_eq!(stdout(&["--list"]), listing);
  assert_eq!(stdout(&["--dump"]), justfile);
  let json = stdout(&["--dump", "--dump-format", "json"]);
  let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
  assert_eq!(serde_json::to_string(&value).expect("serializes") + "\n", json);
  let recipes = value["recipes"].as_object().expect("recipes");
  let expected: Vec<(String, serde_json::Value)> =
    (0..5000).map(|i| (format!("r{i:04}"), serde_json::json!([[format!("echo {i}")]]))).collect();
  let found: Vec<(String, serde_json::Value)> =
    recipes.iter().map(|(name, recipe)| (name.clone(), recipe["body"].clone())).collect();
  assert_eq!(found, expected);
}

/// A reader that closes the pipe after the start of a long output: `just`
/// writes no more and ends quietly.
#[cfg(target_os = "linux")]
fn reader_stopping_early_ends_a_long_output_quietly() {
  use std::io::Read;
  let dir = tempfile::tempdir().expect("tempdir");
  std::fs::write(dir.path().join("justfile"), long_output_justfile()).expect("write");
  let cases: &[(&[&str], &str)] = &[
    (&["--list"], "Available recipes:\n    r0000 a='x' # doc 0000\n"),
    (&["--dump"], "# doc 0000\nr0000 a='x':\n    echo 0\n"),
    (&["--dump", "--dump-format", "json"], "{\"assignments\":{},\"first\":\"r0000\","),
  ];
  for (args, start) in cases {
    let mut child = Command::new(binary())
      .args(*args)
      .current_dir(dir.path())
      .env("NO_COLOR", "1")
      .stdout(Stdio::piped())
      .stderr(Stdio::piped())
      .spawn()
      .expect("run just");
    let mut read = vec![0; start.len()];
    child.stdout.take().expect("stdout").read_exact(&mut read).expect("read the start");
    let output = child.wait_with_output().expect("wait");
    assert_eq!(
      (String::from_utf8_lossy(&read).as_ref(), output.status.code()),
      (*start, Some(0)),
      "args {args:?}"
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "", "args {args:?}");
  }
}

#[cfg(target_os = "linux")]
fn full_device_on_stderr_fails_the_run() {
  let dir = tempfile::tempdir().expect("tempdir");
  std::fs::write(dir.path().join("justfile"), "a:\n  echo ran\n").expect("write");
  let full = std::fs::File::create("/dev/full").expect("open /dev/full");
  let output =
    Command::new(binary()).current_dir(dir.path()).stderr(full).output().expect("run just");
  assert_eq!((output.status.code(), output.stdout.as_slice()), (Some(1), &b""[..]));
}

/// A `[cache]` recipe that prints only to standard output, and the shared
/// stores that make the cache warn before it runs: one that cannot be
/// opened, and one whose `ac` is a symbolic link (refused by the lookup).
#[cfg(unix)]
fn cache_warning_cases() -> (tempfile::TempDir, [&'static [&'static str]; 2]) {
  let dir = tempfile::tempdir().expect("tempdir");
  let justfile = "set unstable\nset lists\n\n[cache(outputs=['out'])]\nbuild:\n  #!/bin/sh\n  echo ran\n  echo x > out\n";
  std::fs::write(dir.path().join("justfile"), justfile).expect("write");
  std::fs::create_dir_all(dir.path().join("store/cas")).expect("store");
  std::os::unix::fs::symlink(dir.path(), dir.path().join("store/ac")).expect("link");
  (dir, [&["--cache-url", "ftp://example", "build"], &["--cache-dir", "store", "build"]])
}

#[cfg(target_os = "linux")]
fn full_device_on_stderr_fails_a_run_whose_cache_warns() {
  let (dir, cases) = cache_warning_cases();
  for args in cases {
    let full = std::fs::File::create("/dev/full").expect("open /dev/full");
    let output = Command::new(binary())
      .args(args)
      .current_dir(dir.path())
      .stderr(full)
      .output()
      .expect("run just");
    assert_eq!(
      (output.status.code(), String::from_utf8_lossy(&output.stdout).as_ref()),
      (Some(1), ""),
      "args {args:?}"
    );
  }
}

#[cfg(unix)]
fn broken_pipe_on_stderr_ends_a_cache_warning_quietly() {
  let (dir, cases) = cache_warning_cases();
  for args in cases {
    let entries = dir.path().join(".justcache");
    if entries.exists() {
      std::fs::remove_dir_all(entries).expect("remove the local entries");
    }
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let output = Command::new(binary())
      .args(args)
      .current_dir(dir.path())
      .stderr(writer)
      .output()
      .expect("run just");
    assert_eq!(
      (output.status.code(), String::from_utf8_lossy(&output.stdout).as_ref()),
      (Some(0), "ran\n"),
      "args {args:?}"
    );
  }
}

// ---------------------------------------------------------------------------
// `--fmt` changes the text of the justfile and nothing else about it.

const UNFORMATTED: &str = "a:\n  echo a\n";
const FORMATTED: &str = "a:\n    echo a\n";

#[cfg(unix)]
fn fmt_in(dir: &Path, args: &[&str]) -> (i32, String) {
  let output = Command::new(binary())
    .arg("--fmt")
    .args(args)
    .current_dir(dir)
    .env("NO_COLOR", "1")
    .output()
    .expect("run just");
  (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// The names in `dir`, sorted: no temporary file may be left behind.
fn names_in(dir: &Path) -> Vec<String> {
  let mut names: Vec<String> = std::fs::read_dir(dir)
    .expect("read dir")
    .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
    .collect();
  names.sort();
  names
}

fn is_root() -> bool {
  // SAFETY: geteuid has no preconditions.
  unsafe { libc::geteuid() == 0 }
}

#[cfg(unix)]
fn fmt_through_a_symlink_formats_the_target_and_keeps_the_link() {
  let dir = tempfile::tempdir().expect("tempdir");
  std::fs::create_dir(dir.path().join("real")).expect("mkdir");
  std::fs::write(dir.path().join("real/target.just"), UNFORMATTED).expect("write");
  std::os::unix::fs::symlink("real/target.just", dir.path().join("justfile")).expect("symlink");
  let (status, stderr) = fmt_in(dir.path(), &[]);
  assert_eq!(status, 0, "{stderr}");
  let link = std::fs::symlink_metadata(dir.path().join("justfile")).expect("lstat");
  assert!(link.file_type().is_symlink(), "the symlink was replaced");
  assert_eq!(std::fs::read_to_string(dir.path().join("real/target.just")).unwrap(), FORMATTED);
  assert_eq!(names_in(&dir.path().join("real")), ["target.just"]);
}

#[cfg(unix)]
fn fmt_keeps_the_mode() {
  use std::os::unix::fs::PermissionsExt;
  let dir = tempfile::tempdir().expect("tempdir");
  let justfile = dir.path().join("justfile");
  std::fs::write(&justfile, UNFORMATTED).expect("write");
  std::fs::set_permissions(&justfile, std::fs::Permissions::from_mode(0o640)).expect("chmod");
  let (status, stderr) = fmt_in(dir.path(), &[]);
  assert_eq!(status, 0, "{stderr}");
  assert_eq!(std::fs::read_to_string(&justfile).unwrap(), FORMATTED);
  let mode = std::fs::metadata(&justfile).unwrap().permissions().mode() & 0o7777;
  assert_eq!(mode, 0o640);
}

#[cfg(unix)]
fn fmt_keeps_owner_and_group_of_another_users_file() {
  use std::os::unix::fs::MetadataExt;
  let dir = tempfile::tempdir().expect("tempdir");
  let justfile = dir.path().join("justfile");
  std::fs::write(&justfile, UNFORMATTED).expect("write");
  std::os::unix::fs::chown(&justfile, Some(12345), Some(23456)).expect("chown");
  let (status, stderr) = fmt_in(dir.path(), &[]);
  assert_eq!(status, 0, "{stderr}");
  assert_eq!(std::fs::read_to_string(&justfile).unwrap(), FORMATTED);
  let metadata = std::fs::metadata(&justfile).unwrap();
  assert_eq!((metadata.uid(), metadata.gid()), (12345, 23456));
}

#[cfg(unix)]
fn fmt_keeps_hard_links_one_file() {
  use std::os::unix::fs::MetadataExt;
  let dir = tempfile::tempdir().expect("tempdir");
  let justfile = dir.path().join("justfile");
  std::fs::write(&justfile, UNFORMATTED).expect("write");
  std::fs::hard_link(&justfile, dir.path().join("other.just")).expect("link");
  let (status, stderr) = fmt_in(dir.path(), &[]);
  assert_eq!(status, 0, "{stderr}");
  let (first, second) = (
    std::fs::metadata(&justfile).unwrap(),
    std::fs::metadata(dir.path().join("other.just")).unwrap(),
  );
  assert_eq!((first.ino(), first.nlink()), (second.ino(), 2));
  assert_eq!(std::fs::read_to_string(dir.path().join("other.just")).unwrap(), FORMATTED);
  assert_eq!(names_in(dir.path()), ["justfile", "other.just"]);
}

/// A writable justfile in a directory the user cannot write. Root may write
/// anywhere, so as root the binary runs as `nobody`.
#[cfg(unix)]
fn fmt_formats_a_writable_justfile_in_an_unwritable_directory() {
  use std::os::unix::fs::PermissionsExt;
  use std::os::unix::process::CommandExt;
  let dir = tempfile::tempdir().expect("tempdir");
  let locked = dir.path().join("locked");
  std::fs::create_dir(&locked).expect("mkdir");
  let justfile = locked.join("justfile");
  std::fs::write(&justfile, UNFORMATTED).expect("write");
  let mut command = Command::new(binary());
  command.arg("--fmt").current_dir(&locked).env("NO_COLOR", "1");
  if is_root() {
    const NOBODY: u32 = 65534;
    for path in [dir.path(), &locked] {
      std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    std::os::unix::fs::chown(&justfile, Some(NOBODY), Some(NOBODY)).expect("chown");
    command.uid(NOBODY).gid(NOBODY);
  } else {
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).expect("chmod");
  }
  let output = command.output().expect("run just");
  let _ = std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755));
  assert_eq!(
    (output.status.code(), String::from_utf8_lossy(&output.stderr).as_ref()),
    (Some(0), format!("wrote justfile to `{}`\n", justfile.display()).as_str())
  );
  assert_eq!(std::fs::read_to_string(&justfile).unwrap(), FORMATTED);
  assert_eq!(names_in(&locked), ["justfile"]);
}

/// A small tmpfs, unmounted when dropped.
#[cfg(target_os = "linux")]
struct SmallFileSystem {
  dir: tempfile::TempDir,
}

/// Whether this machine lets the tests mount a tmpfs (root, and a kernel
/// or container that allows it): tried once, with a tiny one.
#[cfg(target_os = "linux")]
fn can_mount() -> bool {
  static ANSWER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
  *ANSWER.get_or_init(|| SmallFileSystem::mount("64k").is_ok())
}

#[cfg(target_os = "linux")]
impl SmallFileSystem {
  /// Mount one, or say why not (not root, no tmpfs).
  fn mount(size: &str) -> Result<Self, String> {
    if !is_root() {
      return Err("mounting a tmpfs needs root".into());
    }
    let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
    let status = Command::new("mount")
      .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
      .arg(dir.path())
      .stderr(Stdio::null())
      .status()
      .map_err(|error| format!("cannot run mount: {error}"))?;
    if !status.success() {
      return Err(format!("mount failed: {status}"));
    }
    Ok(SmallFileSystem { dir })
  }

  fn path(&self) -> &Path {
    self.dir.path()
  }

  /// Fill the file system up with one file, leaving about `left` bytes.
  fn fill(&self, left: usize) {
    use std::io::Write;
    let mut filler = std::fs::File::create(self.path().join("filler")).expect("filler");
    let chunk = vec![b'x'; 4096];
    while filler.write_all(&chunk).is_ok() {}
    drop(filler);
    let length = std::fs::metadata(self.path().join("filler")).unwrap().len();
    let shorter = length.saturating_sub(u64::try_from(left).unwrap());
    let filler = std::fs::OpenOptions::new().write(true).open(self.path().join("filler")).unwrap();
    filler.set_len(shorter).expect("truncate filler");
  }
}

#[cfg(target_os = "linux")]
impl Drop for SmallFileSystem {
  fn drop(&mut self) {
    let _ = Command::new("umount").arg(self.dir.path()).status();
  }
}

/// A justfile whose formatted text needs several more blocks than it has
/// (each body line grows from 3 to 7 bytes).
#[cfg(target_os = "linux")]
fn growing_justfile() -> String {
  format!("a:\n{}", " x\n".repeat(2000))
}

#[cfg(target_os = "linux")]
fn fmt_on_a_full_disk_leaves_the_justfile_intact() {
  for hard_link in [false, true] {
    let file_system = SmallFileSystem::mount("256k").expect("mount a tmpfs");
    let root = file_system.path();
    let original = growing_justfile();
    std::fs::write(root.join("justfile"), &original).expect("write");
    if hard_link {
      std::fs::hard_link(root.join("justfile"), root.join("linked.just")).expect("link");
    }
    file_system.fill(0);
    let (status, stderr) = fmt_in(root, &[]);
    assert_eq!(
      (status, stderr.as_str()),
      (
        1,
        format!(
          "error: failed to write justfile to `{}/justfile`: No space left on device (os error \
           28)\n",
          root.display()
        )
        .as_str()
      ),
      "hard link: {hard_link}"
    );
    assert_eq!(std::fs::read_to_string(root.join("justfile")).unwrap(), original);
    let mut expected = vec!["filler", "justfile"];
    if hard_link {
      expected.push("linked.just");
    }
    assert_eq!(names_in(root), expected, "hard link: {hard_link}");
  }
}

#[cfg(target_os = "linux")]
fn fmt_with_room_formats_a_hard_linked_justfile_in_place() {
  let file_system = SmallFileSystem::mount("1m").expect("mount a tmpfs");
  let root = file_system.path();
  std::fs::write(root.join("justfile"), growing_justfile()).expect("write");
  std::fs::hard_link(root.join("justfile"), root.join("linked.just")).expect("link");
  let (status, stderr) = fmt_in(root, &["--quiet"]);
  assert_eq!((status, stderr.as_str()), (0, ""));
  let formatted = format!("a:\n{}", "    x\n".repeat(2000));
  assert_eq!(std::fs::read_to_string(root.join("linked.just")).unwrap(), formatted);
}

// ---------------------------------------------------------------------------
// Long inputs: no stack overflow, and sizes at which quadratic work would
// take minutes (these assert results, not times).

fn hundred_thousand_term_concatenation_evaluates_and_dumps() {
  let justfile = format!("x := {}\n", vec!["'a'"; 100_000].join(" + "));
  crate::common::Test::new()
    .justfile(&justfile)
    .args(&["--evaluate", "x"])
    .stdout(&"a".repeat(100_000))
    .run();
  let output = crate::common::Test::new()
    .justfile(&justfile)
    .args(&["--dump", "--dump-format", "json"])
    .any_stdout()
    .run();
  let nested = "[\"concatenate\",\"a\",".repeat(99_999);
  let closing = "]".repeat(99_999);
  assert!(output.stdout.contains(&format!("\"value\":{nested}\"a\"{closing}}}")), "dump is wrong");
}

/// Linux passes one argument of at most 128 KiB: a longer backtick is
/// refused by the system (`E2BIG`), which is not a missing shell.
#[cfg(target_os = "linux")]
fn backtick_over_the_argument_limit_says_its_command_is_too_long() {
  let backtick = format!("`echo {}`", "a".repeat(200 * 1024));
  let line = format!("x := {backtick}");
  let stderr = format!(
    "error: backtick could not be run because its command or the environment is too long to \
     pass to the shell:\nArgument list too long (os error 7)\n ——▶ justfile:1:6\n  │\n1 │ \
     {line}\n  │      {}\n",
    "^".repeat(backtick.len())
  );
  crate::common::Test::new()
    .justfile(&format!("{line}\na:\n  echo {{{{x}}}}\n"))
    .stderr(&stderr)
    .status(1)
    .run();
}

fn hundred_thousand_term_path_join_evaluates() {
  let justfile = format!("x := {}\n", vec!["'a'"; 100_000].join(" / "));
  crate::common::Test::new()
    .justfile(&justfile)
    .args(&["--evaluate", "x"])
    .stdout(&vec!["a"; 100_000].join("/"))
    .run();
}

fn hundred_thousand_link_else_if_chain_evaluates() {
  let links: String = (0..100_000).map(|i| format!("if 'a' == 'b{i}' {{ 'n' }} else ")).collect();
  crate::common::Test::new()
    .justfile(&format!("x := {links}{{ 'end' }}\n"))
    .args(&["--evaluate", "x"])
    .stdout("end")
    .run();
}

fn hundred_thousand_recipe_dependency_chain_runs() {
  let justfile = chain(100_000, |i| format!("r{i}: r{}\n", i + 1)) + "r100000:\n  @echo end\n";
  crate::common::Test::new().justfile(&justfile).arg("r0").stdout("end\n").run();
}

fn two_thousand_nested_modules_load() {
  let mut test = crate::common::Test::new().justfile("mod m\n");
  for depth in 1..=2000 {
    let path = vec!["m"; depth].join("/") + "/mod.just";
    let contents = if depth < 2000 { "mod m\n" } else { "leaf:\n  @echo leaf\n" };
    test = test.write(&path, contents);
  }
  let target = vec!["m"; 2000].join("::") + "::leaf";
  test.arg(&target).stdout("leaf\n").run();
}

/// Sorting recipes by the chain of import offsets leading to their file
/// made loading quadratic in the chain's length: minutes, not a second.
fn ten_thousand_file_import_chain_loads() {
  const FILES: usize = 10_000;
  let file_name = |i: usize| if i == 0 { "justfile".to_string() } else { format!("f{i}.just") };
  let chain = || {
    (0..FILES).fold(crate::common::Test::new(), |test, i| {
      let import =
        if i + 1 < FILES { format!("import '{}'\n", file_name(i + 1)) } else { String::new() };
      test.write(&file_name(i), &format!("b{i}:\n  @echo {i}\n{import}a{i}: b{i}\n"))
    })
  };
  // Each file's recipes come before those of the files it imports.
  let unsorted: Vec<String> = (0..FILES).flat_map(|i| [format!("b{i}"), format!("a{i}")]).collect();
  let mut sorted = unsorted.clone();
  sorted.sort();
  chain().args(&["--summary", "--unsorted"]).stdout(&(unsorted.join(" ") + "\n")).run();
  chain().arg("--summary").stdout(&(sorted.join(" ") + "\n")).run();
}

/// Unmemoised, each link would triple the work (3^40 evaluations).
fn const_chain_feeding_a_setting_is_evaluated_once_per_assignment() {
  let links: String = (1..=40)
    .map(|i| format!("a{i} := if a{0} == a{0} {{ a{0} }} else {{ a{0} }}\n", i - 1))
    .collect();
  let justfile = format!("a0 := 'x'\n{links}set tempdir := a40\n[doc(a40)]\nfoo:\n  @echo hi\n");
  crate::common::Test::new().justfile(&justfile).arg("foo").stdout("hi\n").run();
  crate::common::Test::new().justfile(&justfile).args(&["--evaluate", "a40"]).stdout("x").run();
}

/// A full edit distance between 100,000-character names would take minutes.
fn suggestion_for_a_very_long_unknown_name_is_found() {
  let recipe = "a".repeat(100_000);
  let unknown = "a".repeat(99_999) + "b";
  crate::common::Test::new()
    .justfile(&format!("{recipe}:\n  echo hi\n"))
    .arg(&unknown)
    .stderr(&format!(
      "error: justfile does not contain recipe `{unknown}`\nDid you mean `{recipe}`?\n"
    ))
    .status(1)
    .run();
  crate::common::Test::new()
    .justfile(&format!("{recipe} := 'v'\n"))
    .args(&["--evaluate", &unknown])
    .stderr(&format!(
      "error: justfile does not contain variable or submodule `{unknown}`\nDid you mean `{recipe}`?\n"
    ))
    .status(1)
    .run();
}

// ---------------------------------------------------------------------------
// Script temporary directories are removed after failure and signals.

#[cfg(unix)]
fn scratch_is_empty_after(justfile: &str, signal: Option<i32>) {
  let dir = tempfile::tempdir().expect("tempdir");
  let scratch = dir.path().join("scratch");
  std::fs::create_dir(&scratch).expect("mkdir");
  std::fs::write(dir.path().join("justfile"), justfile).expect("write");
  let mut command = Command::new(binary());
  command
    .args(["--tempdir", "scratch"])
    .current_dir(dir.path())
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .process_group(0);
  use std::os::unix::process::CommandExt;
  let mut child = command.spawn().expect("run just");
  if let Some(signal) = signal {
    // Wait until the script is running (its directory exists), then signal
    // the whole process group, as a terminal would.
    let running = poll_until(Duration::from_secs(180), || {
      std::fs::read_dir(&scratch).expect("scratch").count() != 0
    });
    assert!(running, "script never started");
    std::thread::sleep(Duration::from_millis(100));
    process::signal(-process::pid(&child), signal);
  }
  let status = child.wait().expect("wait");
  assert!(!status.success(), "{status:?}");
  assert_eq!(names_in(&scratch), Vec::<String>::new(), "signal {signal:?}");
}

#[cfg(unix)]
fn script_tempdir_is_removed_after_failure() {
  scratch_is_empty_after("a:\n  #!/bin/sh\n  exit 3\n", None);
}

#[cfg(unix)]
fn script_tempdir_is_removed_after_signals_to_the_process_group() {
  for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
    scratch_is_empty_after("a:\n  #!/bin/sh\n  sleep 10\n", Some(signal));
  }
}
