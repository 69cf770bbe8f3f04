//! How `just` prints: colour, and the echo of recipe lines.

use super::{choice, nothing, switch, text, Flag};
use crate::color::{CommandColor, UseColor};

/// The rows of this file.
pub(crate) const ROWS: &[Flag] =
  &[COLOR, COMMAND_COLOR, HIGHLIGHT, NO_HIGHLIGHT, TIMESTAMP, TIMESTAMP_FORMAT];

pub(crate) const COLOR: Flag = Flag {
  env: Some("JUST_COLOR"),
  default: Some(UseColor::Auto.word()),
  ..choice::<UseColor>("color", "COLOR", "When to use colour", |o, v| {
    o.color = v.choice().unwrap_or_default();
  })
};

pub(crate) const COMMAND_COLOR: Flag = Flag {
  env: Some("JUST_COMMAND_COLOR"),
  ..choice::<CommandColor>(
    "command-color",
    "COMMAND_COLOR",
    "Colour of echoed recipe lines",
    |o, v| o.command_color = v.choice(),
  )
};

pub(crate) const HIGHLIGHT: Flag = Flag {
  overrides: Some("no-highlight"),
  // Highlighting is the default: `--no-highlight`'s row sets it.
  ..switch("highlight", "JUST_HIGHLIGHT", "Echo recipe lines in bold", nothing)
};

pub(crate) const NO_HIGHLIGHT: Flag = Flag {
  overrides: Some("highlight"),
  ..switch("no-highlight", "JUST_NO_HIGHLIGHT", "Echo recipe lines without bold", |o, v| {
    o.highlight = !v.switch();
  })
};

pub(crate) const TIMESTAMP: Flag =
  switch("timestamp", "JUST_TIMESTAMP", "Prefix echoed lines with the time", |o, v| {
    o.timestamp = v.switch();
  });

pub(crate) const TIMESTAMP_FORMAT: Flag = Flag {
  env: Some("JUST_TIMESTAMP_FORMAT"),
  default: Some("%H:%M:%S"),
  ..text("timestamp-format", "TIMESTAMP_FORMAT", "strftime format of `--timestamp`", |o, v| {
    if let Some(format) = v.string() {
      o.timestamp_format = format;
    }
  })
};

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::flags::testing::{error, options};

  #[test]
  fn color_is_auto_by_default() {
    assert_eq!(options(&[]).color, UseColor::Auto);
    assert_eq!(options(&["--color", "never"]).color, UseColor::Never);
    assert_eq!(
      error(&["--color", "sometimes"]),
      "error: invalid value 'sometimes' for '--color <COLOR>'"
    );
  }

  #[test]
  fn command_color_colours_echoed_lines() {
    assert_eq!(options(&[]).command_color, None);
    assert_eq!(options(&["--command-color", "red"]).command_color, Some(CommandColor::Red));
  }

  #[test]
  fn highlight_and_no_highlight_override_each_other() {
    assert!(options(&[]).highlight);
    assert!(!options(&["--no-highlight"]).highlight);
    assert!(options(&["--no-highlight", "--highlight"]).highlight);
    assert!(!options(&["--highlight", "--no-highlight"]).highlight);
  }

  #[test]
  fn timestamp_prefixes_echoed_lines() {
    assert!(options(&["--timestamp"]).timestamp);
    assert_eq!(options(&[]).timestamp_format, "%H:%M:%S");
    assert_eq!(options(&["--timestamp-format", "%S"]).timestamp_format, "%S");
  }
}
