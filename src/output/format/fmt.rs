//! The `--fmt` command (formatting.md §7), independent of the command line.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use nu_ansi_term::Color as Ansi;
use similar::{Algorithm, ChangeTag, TextDiff};

use super::justfile::format_justfile;
use crate::output::color::Painter;
use crate::output::diagnostic::error_line;
use crate::syntax::ast::Ast;

/// Everything `--fmt` needs to decide what to do.
pub struct FormatRequest<'a> {
  /// The text that was parsed (extracted source for Markdown).
  pub source: &'a str,
  /// The justfile's path, shown in messages and written to.
  pub path: &'a Path,
  /// Standard input or a Markdown justfile: print instead of writing.
  pub print_only: bool,
  pub check: bool,
  pub quiet: bool,
  /// Colours of the `--check` diff (stdout) and of error lines (stderr).
  pub stdout: Painter,
  pub stderr: Painter,
  /// Body indentation (`--indentation`, `set indentation`, or 4 spaces).
  pub indentation: &'a str,
}

/// What `--fmt` prints and does.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FormatOutcome {
  pub stdout: String,
  pub stderr: String,
  /// New contents for the justfile, if it must be rewritten.
  pub write: Option<String>,
  pub status: i32,
}

/// Decide the outcome without touching the file system.
pub fn plan_format(request: &FormatRequest, ast: &Ast) -> FormatOutcome {
  let formatted = format_justfile(ast, request.indentation);
  let unchanged = formatted == request.source;
  if request.check {
    return check_outcome(request, &formatted, unchanged);
  }
  if request.print_only {
    return FormatOutcome { stdout: formatted, ..FormatOutcome::default() };
  }
  if unchanged {
    return FormatOutcome::default();
  }
  let stderr = if request.quiet {
    String::new()
  } else {
    format!("wrote justfile to `{}`\n", request.path.display())
  };
  FormatOutcome { stderr, write: Some(formatted), ..FormatOutcome::default() }
}

fn check_outcome(request: &FormatRequest, formatted: &str, unchanged: bool) -> FormatOutcome {
  if unchanged {
    return FormatOutcome::default();
  }
  if request.quiet {
    return FormatOutcome { status: 1, ..FormatOutcome::default() };
  }
  FormatOutcome {
    stdout: diff(request.source, formatted, request.stdout),
    stderr: error_line(&request.stderr, "formatted justfile differs from original"),
    write: None,
    status: 1,
  }
}

/// Plan, then write the file if needed; a failed write becomes an error outcome.
pub fn run_format(request: &FormatRequest, ast: &Ast) -> FormatOutcome {
  let mut outcome = plan_format(request, ast);
  if let Some(contents) = outcome.write.take() {
    if let Err(error) = write_atomically(request.path, &contents) {
      let message = format!("failed to write justfile to `{}`: {error}", request.path.display());
      return FormatOutcome {
        stderr: error_line(&request.stderr, &message),
        status: 1,
        ..FormatOutcome::default()
      };
    }
  }
  outcome
}

/// Line diff of `old` → `new` (patience), ` `/`-`/`+` prefixes, each line ending in `\n`.
pub fn diff(old: &str, new: &str, painter: Painter) -> String {
  let text_diff = TextDiff::configure().algorithm(Algorithm::Patience).diff_lines(old, new);
  let mut out = String::new();
  for change in text_diff.iter_all_changes() {
    let mut line = String::from(match change.tag() {
      ChangeTag::Equal => " ",
      ChangeTag::Delete => "-",
      ChangeTag::Insert => "+",
    });
    line.push_str(change.value());
    if !line.ends_with('\n') {
      line.push('\n');
    }
    let painted = match change.tag() {
      ChangeTag::Equal => line,
      ChangeTag::Delete => painter.paint(Ansi::Red.normal(), &line),
      ChangeTag::Insert => painter.paint(Ansi::Green.normal(), &line),
    };
    out.push_str(&painted);
  }
  out
}

/// Replace `path` with `contents` via a temporary file in the same
/// directory, keeping the original file's permissions.
pub fn write_atomically(path: &Path, contents: &str) -> io::Result<()> {
  let directory = match path.parent() {
    Some(parent) if !parent.as_os_str().is_empty() => parent,
    _ => Path::new("."),
  };
  let permissions = fs::metadata(path).map(|metadata| metadata.permissions()).ok();
  let mut temporary = tempfile::NamedTempFile::new_in(directory)?;
  temporary.write_all(contents.as_bytes())?;
  temporary.as_file().sync_all()?;
  if let Some(permissions) = permissions {
    fs::set_permissions(temporary.path(), permissions)?;
  }
  temporary.persist(path).map_err(|error| error.error)?;
  Ok(())
}
