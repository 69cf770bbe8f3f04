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
