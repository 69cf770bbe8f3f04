//! `--edit`: open the justfile in the user's editor.

use std::{
  ffi::OsString,
  io,
  process::{Command, ExitStatus},
};

use snafu::Snafu;

use crate::{
  cli::{config::Config, error::Error, flags::editing::DEFAULT_EDITOR},
  platform::exit::Exit,
  search::{self, SearchError},
};

#[derive(Debug, Snafu)]
pub(crate) enum EditError {
  #[snafu(display("{source}"))]
  Search { source: SearchError },
  #[snafu(display("editor `{}` invocation failed: {source}", editor.to_string_lossy()))]
  Invoke { editor: OsString, source: io::Error },
  #[snafu(display("editor `{}` failed: {status}", editor.to_string_lossy()))]
  Status { editor: OsString, status: ExitStatus },
}

impl EditError {
  /// The editor's own exit code (128 + signal when killed), else 1.
  pub(crate) fn exit_code(&self) -> i32 {
    match self {
      EditError::Status { status, .. } => Exit::of(*status).status(),
      _ => 1,
    }
  }
}

impl From<EditError> for Error<'_> {
  fn from(error: EditError) -> Self {
    Error::plain(error.to_string(), error.exit_code())
  }
}

/// `$VISUAL`, else `$EDITOR`, else `DEFAULT_EDITOR`; used as a program
/// name, unsplit.
pub(crate) fn editor() -> OsString {
  std::env::var_os("VISUAL")
    .or_else(|| std::env::var_os("EDITOR"))
    .unwrap_or_else(|| OsString::from(DEFAULT_EDITOR))
}

/// Locate the justfile (without parsing it) and run the editor on it.
pub(crate) fn edit(config: &Config) -> Result<(), EditError> {
  let search = search::find(config).map_err(|source| EditError::Search { source })?;
  let editor = editor();
  let status = Command::new(&editor)
    .arg(&search.justfile)
    .current_dir(&search.working_directory)
    .status()
    .map_err(|source| EditError::Invoke { editor: editor.clone(), source })?;
  if status.success() {
    Ok(())
  } else {
    Err(EditError::Status { editor, status })
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn messages() {
    let error = EditError::Invoke { editor: "vim".into(), source: io::Error::from_raw_os_error(2) };
    assert_eq!(
      error.to_string(),
      "editor `vim` invocation failed: No such file or directory (os error 2)"
    );
    assert_eq!(error.exit_code(), 1);

    let status = Command::new("false").status().unwrap();
    let error = EditError::Status { editor: "false".into(), status };
    assert_eq!(error.to_string(), "editor `false` failed: exit status: 1");
    assert_eq!(error.exit_code(), 1);
  }
}
