//! The `--fmt` command, independent of the command line.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

use nu_ansi_term::Color as Ansi;
use similar::{Algorithm, ChangeTag, TextDiff};

use super::justfile::format_justfile;
use crate::color::Painter;
use crate::output::diagnostic::error_line;
use crate::platform::fs as platform_fs;
use crate::syntax::ast::Ast;

/// Everything `--fmt` needs to decide what to do.
pub(crate) struct FormatRequest<'a> {
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
pub(crate) struct FormatOutcome {
  pub stdout: String,
  pub stderr: String,
  /// New contents for the justfile, if it must be rewritten.
  pub write: Option<String>,
  pub status: i32,
}

/// Decide the outcome without touching the file system.
pub(crate) fn plan_format(request: &FormatRequest, ast: &Ast) -> FormatOutcome {
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
pub(crate) fn run_format(request: &FormatRequest, ast: &Ast) -> FormatOutcome {
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

/// Line diff of `old` → `new` (patience, `similar` pinned to just 1.58's 3.1.1),
/// ` `/`-`/`+` prefixes; lines end in `\n` (or `\r`).
pub(crate) fn diff(old: &str, new: &str, painter: Painter) -> String {
  let text_diff = TextDiff::configure().algorithm(Algorithm::Patience).diff_lines(old, new);
  let mut out = String::new();
  for change in text_diff.iter_all_changes() {
    let mut line = String::from(match change.tag() {
      ChangeTag::Equal => " ",
      ChangeTag::Delete => "-",
      ChangeTag::Insert => "+",
    });
    line.push_str(change.value());
    // A lone `\r` also ends a line here.
    if change.missing_newline() {
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

/// Give the justfile at `path` the text `contents`, changing nothing else
/// about it: a symlink stays and its target is written; mode, owner and
/// group stay; hard links keep sharing the file. On any error the original
/// text is intact and no temporary file is left.
///
/// The new text goes to a temporary file that replaces the target by rename,
/// unless a rename would change the file's identity (hard links, an owner
/// that cannot be given back) or the directory is not writable: then the
/// file is rewritten in place, after its new length has been allocated.
pub(crate) fn write_atomically(path: &Path, contents: &str) -> io::Result<()> {
  let target = fs::canonicalize(path)?;
  let metadata = fs::metadata(&target)?;
  if platform_fs::is_only_link(&target, &metadata)? {
    match replace_by_rename(&target, &metadata, contents)? {
      Replaced::Yes => return Ok(()),
      Replaced::NotPossible => {}
    }
  }
  rewrite_in_place(&target, contents)
}

enum Replaced {
  Yes,
  /// A rename could not keep the file as it was; nothing was changed.
  NotPossible,
}

fn replace_by_rename(target: &Path, metadata: &Metadata, contents: &str) -> io::Result<Replaced> {
  let directory = target.parent().unwrap_or(Path::new("/"));
  let temporary =
    directory.join(format!(".justfile-fmt-{}-{:016x}", std::process::id(), rand::random::<u64>()));
  let mut file = match platform_fs::create_private(&temporary) {
    Ok(file) => file,
    Err(error) if cannot_create_in_directory(&error) => return Ok(Replaced::NotPossible),
    Err(error) => return Err(error),
  };
  let filled = fill_temporary(&mut file, metadata, contents);
  // Closed before the replacement: Windows does not rename an open file.
  drop(file);
  let result = filled.and_then(|replaced| match replaced {
    Replaced::Yes => platform_fs::replace(&temporary, target).map(|()| Replaced::Yes),
    Replaced::NotPossible => Ok(Replaced::NotPossible),
  });
  if !matches!(result, Ok(Replaced::Yes)) {
    // The original is untouched; the temporary file must not stay behind.
    let _ = fs::remove_file(&temporary);
  }
  result
}

fn cannot_create_in_directory(error: &io::Error) -> bool {
  matches!(error.kind(), io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem)
}

/// Write the new text and give the temporary file the target's owner, group
/// and mode; `NotPossible` if the owner cannot be given back.
fn fill_temporary(file: &mut File, metadata: &Metadata, contents: &str) -> io::Result<Replaced> {
  file.write_all(contents.as_bytes())?;
  file.sync_all()?;
  Ok(if platform_fs::take_identity(file, metadata)? {
    Replaced::Yes
  } else {
    Replaced::NotPossible
  })
}

/// Rewrite the file itself. Its new length is allocated first, so a full
/// disk fails before a byte of the old text is overwritten; if a write
/// still fails, the old text is put back.
fn rewrite_in_place(target: &Path, contents: &str) -> io::Result<()> {
  let mut file = OpenOptions::new().read(true).write(true).open(target)?;
  let mut original = Vec::new();
  file.read_to_end(&mut original)?;
  platform_fs::allocate(&file, contents.len() as u64)?;
  match overwrite(&mut file, contents.as_bytes()) {
    Ok(()) => Ok(()),
    Err(error) => match overwrite(&mut file, &original) {
      Ok(()) => Err(error),
      Err(restore) => Err(io::Error::new(
        error.kind(),
        format!("{error}; restoring the original text also failed: {restore}"),
      )),
    },
  }
}

fn overwrite(file: &mut File, contents: &[u8]) -> io::Result<()> {
  file.seek(SeekFrom::Start(0))?;
  file.write_all(contents)?;
  file.set_len(contents.len() as u64)?;
  file.sync_all()
}

#[cfg(test)]
mod tests {
  use super::*;

  fn painter(active: bool) -> Painter {
    Painter { active, ..Painter::plain() }
  }

  #[test]
  fn diff_matches_reference() {
    let source = "# a\n\n\n#b\nx:\n  echo\n\n\n# c  \n";
    let formatted = "# a\n\n# b\nx:\n    echo\n\n# c\n";
    let cases = [
      (false, " # a\n \n-\n-#b\n+# b\n x:\n-  echo\n-\n+    echo\n \n-# c  \n+# c\n"),
      (
        true,
        " # a\n \n\x1b[31m-\n\x1b[0m\x1b[31m-#b\n\x1b[0m\x1b[32m+# b\n\x1b[0m x:\n\x1b[31m-  echo\n\
         \x1b[0m\x1b[31m-\n\x1b[0m\x1b[32m+    echo\n\x1b[0m \n\x1b[31m-# c  \n\x1b[0m\x1b[32m+# c\n\x1b[0m",
      ),
    ];
    for (color, expected) in cases {
      assert_eq!(diff(source, formatted, painter(color)), expected);
    }
  }

  #[test]
  fn diff_terminates_last_line() {
    assert_eq!(diff("x:=\"1\"", "x := \"1\"\n", painter(false)), "-x:=\"1\"\n+x := \"1\"\n");
  }

  fn request(source: &str, print_only: bool, check: bool, quiet: bool) -> FormatRequest<'_> {
    FormatRequest {
      source,
      path: Path::new("/p/justfile"),
      print_only,
      check,
      quiet,
      stdout: painter(false),
      stderr: painter(false),
      indentation: "    ",
    }
  }

  fn outcome(stdout: &str, stderr: &str, write: Option<&str>, status: i32) -> FormatOutcome {
    FormatOutcome {
      stdout: stdout.into(),
      stderr: stderr.into(),
      write: write.map(Into::into),
      status,
    }
  }

  #[test]
  fn plans() {
    let ast = Ast::default();
    let differs = "error: formatted justfile differs from original\n";
    let cases = [
      (request("", false, false, false), outcome("", "", None, 0)),
      (
        request("\n", false, false, false),
        outcome("", "wrote justfile to `/p/justfile`\n", Some(""), 0),
      ),
      (request("\n", false, false, true), outcome("", "", Some(""), 0)),
      (request("\n", true, false, false), outcome("", "", None, 0)),
      (request("\n", false, true, false), outcome("-\n", differs, None, 1)),
      (request("\n", false, true, true), outcome("", "", None, 1)),
      (request("", false, true, false), outcome("", "", None, 0)),
    ];
    for (request, expected) in cases {
      assert_eq!(plan_format(&request, &ast), expected);
    }
  }

  #[test]
  fn writes_atomically_keeping_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("justfile");
    fs::write(&path, "old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    write_atomically(&path, "new\n").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
    assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
  }

  #[test]
  fn reports_write_failure() {
    let ast = Ast::default();
    let mut request = request("\n", false, false, false);
    request.path = Path::new("/nonexistent-directory-for-test/justfile");
    let result = run_format(&request, &ast);
    assert_eq!(result.status, 1);
    assert!(result.stderr.starts_with(
      "error: failed to write justfile to `/nonexistent-directory-for-test/justfile`: \
       No such file or directory (os error 2)\n"
    ));
  }
}
