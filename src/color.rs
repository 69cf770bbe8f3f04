//! Colour decisions and painting.

use std::io::IsTerminal;

use nu_ansi_term::{Color as Ansi, Style};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum UseColor {
  #[default]
  Auto,
  Always,
  Never,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stream {
  Stdout,
  Stderr,
}

/// A painter for one output stream: paints spans when active, otherwise
/// returns the text unchanged.
#[derive(Copy, Clone, Debug)]
pub struct Painter {
  pub active: bool,
  /// `--command-color`, for echoed lines.
  pub command_color: Option<Ansi>,
  /// `--no-highlight` makes echoed commands plain.
  pub highlight: bool,
}

impl Painter {
  pub fn new(use_color: UseColor, stream: Stream) -> Self {
    let active = match use_color {
      UseColor::Always => true,
      UseColor::Never => false,
      UseColor::Auto => !no_color_requested() && is_terminal(stream),
    };
    Painter { active, command_color: None, highlight: true }
  }

  #[cfg(test)]
  pub(crate) fn plain() -> Self {
    Painter { active: false, command_color: None, highlight: true }
  }

  pub(crate) fn paint(&self, style: Style, text: &str) -> String {
    if self.active && style != Style::new() && !text.is_empty() {
      style.paint(text).to_string()
    } else {
      text.to_string()
    }
  }

  pub(crate) fn error_label(&self) -> String {
    self.paint(Ansi::Red.bold(), "error")
  }

  pub(crate) fn message(&self, text: &str) -> String {
    self.paint(Style::new().bold(), text)
  }

  /// Style of echoed recipe lines, `--time` lines and timestamps.
  pub(crate) fn command_style(&self) -> Style {
    if !self.highlight {
      return Style::new();
    }
    match self.command_color {
      Some(color) => color.bold(),
      None => Style::new().bold(),
    }
  }

  pub(crate) fn banner(&self, text: &str) -> String {
    self.paint(Ansi::Cyan.bold(), text)
  }

  pub(crate) fn doc(&self, text: &str) -> String {
    self.paint(Ansi::Blue.normal(), text)
  }
}

/// The `NO_COLOR` convention: set and not empty turns automatic colour off.
fn no_color_requested() -> bool {
  std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty())
}

fn is_terminal(stream: Stream) -> bool {
  match stream {
    Stream::Stdout => std::io::stdout().is_terminal(),
    Stream::Stderr => std::io::stderr().is_terminal(),
  }
}

/// `--command-color`: the colour of echoed recipe lines (its words are in
/// `options.rs`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum CommandColor {
  Black,
  Blue,
  Cyan,
  Green,
  Purple,
  Red,
  Yellow,
}

impl CommandColor {
  pub(crate) fn ansi(self) -> Ansi {
    match self {
      CommandColor::Black => Ansi::Black,
      CommandColor::Blue => Ansi::Blue,
      CommandColor::Cyan => Ansi::Cyan,
      CommandColor::Green => Ansi::Green,
      CommandColor::Purple => Ansi::Purple,
      CommandColor::Red => Ansi::Red,
      CommandColor::Yellow => Ansi::Yellow,
    }
  }
}
