//! Where the justfile is: the search, and what stops it.

use std::path::{Path, PathBuf};

use lexiclean::Lexiclean;

use super::{nothing, option, path, Completer, Flag, Kind, Takes};

/// The rows of this file.
pub(crate) const ROWS: &[Flag] =
  &[CEILING, GLOBAL_JUSTFILE, JUSTFILE, JUSTFILE_NAME, WORKING_DIRECTORY];

pub(crate) const CEILING: Flag = Flag {
  env: Some("JUST_CEILING"),
  completer: Completer::Directory,
  ..path("ceiling", "CEILING", "Stop the justfile search after this directory", |o, v| {
    o.ceiling = v.path().map(|ceiling| ceiling_directory(&o.invocation_directory, &ceiling));
  })
};

pub(crate) const GLOBAL_JUSTFILE: Flag = Flag {
  short: Some('g'),
  conflicts: &["justfile", "working-directory"],
  ..option("global-justfile", Takes::Switch, "Use the user's global justfile", nothing)
};

pub(crate) const JUSTFILE: Flag = Flag {
  short: Some('f'),
  env: Some("JUST_JUSTFILE"),
  completer: Completer::File,
  ..path("justfile", "JUSTFILE", "Use this justfile (`-` reads it from standard input)", nothing)
};

pub(crate) const JUSTFILE_NAME: Flag = Flag {
  env: Some("JUST_JUSTFILE_NAME"),
  ..option(
    "justfile-name",
    Takes::Values("NAME", Kind::Text),
    "Search for justfiles with these comma-separated names (may be repeated)",
    |o, v| {
      o.justfile_names = v.values().map(|values| {
        values.iter().flat_map(|value| value.split(',')).map(str::to_owned).collect()
      });
    },
  )
};

pub(crate) const WORKING_DIRECTORY: Flag = Flag {
  short: Some('d'),
  env: Some("JUST_WORKING_DIRECTORY"),
  requires: Some("justfile"),
  completer: Completer::Directory,
  ..path(
    "working-directory",
    "WORKING_DIRECTORY",
    "Run in this directory (needs --justfile)",
    nothing,
  )
};

/// The ceiling as the searched directories are spelled: absolute (relative
/// to the invocation directory), without `.`/`..`, and physical where it
/// exists. Unlike just 1.58, which compares the text as given, so that any
/// other spelling never matches and silently lifts the bound.
pub(crate) fn ceiling_directory(invocation_directory: &Path, ceiling: &Path) -> PathBuf {
  let absolute = invocation_directory.join(ceiling).lexiclean();
  crate::platform::fs::physical_path(&absolute).unwrap_or(absolute)
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::flags::testing::{error, options, strings, DIRECTORY, MISSING};
  use crate::options::SearchConfig;

  #[test]
  fn ceiling_is_absolute() {
    assert_eq!(options(&["--ceiling", "../up"]).ceiling, Some(PathBuf::from("/inv/up")));
    assert_eq!(ceiling_directory(Path::new(DIRECTORY), Path::new("/a/./b")), PathBuf::from("/a/b"));
  }

  #[test]
  fn justfile_and_working_directory() {
    let search = SearchConfig::WithJustfile {
      justfile: PathBuf::from("/inv/dir/j"),
      working_directory: Some(PathBuf::from("/w")),
    };
    assert_eq!(options(&["-f", "j", "-d", "/w"]).search, search);
    assert_eq!(options(&["-f", "-"]).search, SearchConfig::Stdin { working_directory: None });
    assert_eq!(error(&["-d", "/w"]), MISSING);
  }

  #[test]
  fn global_justfile_excludes_justfile() {
    assert_eq!(options(&["-g"]).search, SearchConfig::Global);
    assert_eq!(
      error(&["-g", "-f", "j"]),
      "error: the argument '--global-justfile' cannot be used with '--justfile <JUSTFILE>'"
    );
  }

  #[test]
  fn justfile_names_are_comma_separated() {
    let names = options(&["--justfile-name", "a,b", "--justfile-name", "c"]).justfile_names;
    assert_eq!(names, Some(strings(&["a", "b", "c"])));
  }
}
