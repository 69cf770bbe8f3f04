//! `style(styles, text?)`.

use super::{text, FunctionContext};
use crate::builtins::value::Value;

const PROPERTIES: [&str; 8] =
  ["bold", "dim", "italic", "underline", "blink", "reverse", "hidden", "strikethrough"];
const PROPERTY_CODES: [u8; 8] = [1, 2, 3, 4, 5, 7, 8, 9];
const COLORS: [&str; 8] = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];

#[derive(Default)]
struct Style {
  properties: [bool; 8],
  background: Option<String>,
  foreground: Option<String>,
  /// Gate from the last `stdout`/`stderr` token; None = always active.
  active: Option<bool>,
}

#[derive(Copy, Clone)]
enum Layer {
  Foreground,
  Background,
}

impl Layer {
  fn base(self) -> u8 {
    match self {
      Layer::Foreground => 30,
      Layer::Background => 40,
    }
  }
}

impl Style {
  fn set_property(&mut self, name: &str) {
    if let Some(index) = PROPERTIES.iter().position(|property| *property == name) {
      self.properties[index] = true;
    }
  }

  fn set_color(&mut self, layer: Layer, code: String) {
    match layer {
      Layer::Foreground => self.foreground = Some(code),
      Layer::Background => self.background = Some(code),
    }
  }

  fn apply(&mut self, token: &str, context: &FunctionContext) -> Result<(), String> {
    match token {
      "stdout" => self.active = Some(context.stdout_color),
      "stderr" => self.active = Some(context.stderr_color),
      "error" => self.role("31"),
      "warning" => self.role("33"),
      "command" => {
        self.set_property("bold");
        if let Some(color) = context.command_color {
          self.foreground = Some(sgr_codes(&color.normal().prefix().to_string()));
        }
      }
      _ if PROPERTIES.contains(&token) => self.set_property(token),
      _ => {
        let (layer, color) = match token.split_once(':') {
          Some(("fg", color)) => (Layer::Foreground, color),
          Some(("bg", color)) => (Layer::Background, color),
          Some(_) => return Err(invalid(token)),
          None => (Layer::Foreground, token),
        };
        let code = color_code(layer, color).ok_or_else(|| invalid(token))?;
        self.set_color(layer, code);
      }
    }
    Ok(())
  }

  fn role(&mut self, foreground: &str) {
    self.set_property("bold");
    self.foreground = Some(foreground.into());
  }

  fn prefix(&self) -> String {
    let mut codes: Vec<String> = PROPERTY_CODES
      .iter()
      .zip(self.properties)
      .filter(|(_, set)| *set)
      .map(|(code, _)| code.to_string())
      .collect();
    codes.extend(self.background.iter().cloned());
    codes.extend(self.foreground.iter().cloned());
    if codes.is_empty() {
      String::new()
    } else {
      format!("\x1b[{}m", codes.join(";"))
    }
  }
}

fn invalid(token: &str) -> String {
  format!("invalid style: `{token}`")
}

/// `\x1b[31m` → `31`.
fn sgr_codes(escape: &str) -> String {
  escape.trim_start_matches("\x1b[").trim_end_matches('m').to_owned()
}

fn color_code(layer: Layer, color: &str) -> Option<String> {
  if let Some(index) = COLORS.iter().position(|name| *name == color) {
    return Some((layer.base() + index as u8).to_string());
  }
  if let Some(hex) = color.strip_prefix('#') {
    let [r, g, b] = rgb(hex)?;
    return Some(format!("{};2;{r};{g};{b}", layer.base() + 8));
  }
  indexed(color).map(|index| format!("{};5;{index}", layer.base() + 8))
}

fn indexed(color: &str) -> Option<u8> {
  let well_formed = color == "0"
    || (!color.is_empty()
      && color.len() <= 3
      && !color.starts_with('0')
      && color.bytes().all(|b| b.is_ascii_digit()));
  if well_formed {
    color.parse().ok()
  } else {
    None
  }
}

fn rgb(hex: &str) -> Option<[u8; 3]> {
  if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
    return None;
  }
  let digit = |i: usize| u8::from_str_radix(&hex[i..=i], 16).ok();
  match hex.len() {
    3 => Some([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17]),
    6 => {
      let pair = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
      Some([pair(0)?, pair(2)?, pair(4)?])
    }
    _ => None,
  }
}

pub(super) fn style(arguments: &[Value], context: &FunctionContext) -> Result<Value, String> {
  let mut style = Style::default();
  for token in arguments.first().map_or(&[][..], Value::elements) {
    style.apply(token, context)?;
  }
  let prefix = if style.active.unwrap_or(true) { style.prefix() } else { String::new() };
  if arguments.len() < 2 {
    return Ok(Value::string(prefix));
  }
  let text = text(arguments, 1);
  if prefix.is_empty() {
    Ok(Value::string(text))
  } else {
    Ok(Value::string(format!("{prefix}{text}\x1b[0m")))
  }
}

#[cfg(test)]
mod tests {
  use std::path::Path;

  use nu_ansi_term::Color;

  use super::super::call;
  use super::*;

  fn run(styles: &[&str], text: Option<&str>, context: &FunctionContext) -> Result<String, String> {
    let mut arguments = vec![Value(styles.iter().map(|s| s.to_string()).collect())];
    arguments.extend(text.map(Value::string));
    call("style", arguments, context).map(|value| value.joined())
  }

  #[test]
  fn styles() {
    let context = FunctionContext::new(Path::new("/tmp"), Path::new("/tmp/justfile"));
    type Case<'a> = (&'a [&'a str], Option<&'a str>, Result<&'a str, &'a str>);
    let cases: &[Case] = &[
      (&["command"], None, Ok("\x1b[1m")),
      (&["error"], None, Ok("\x1b[1;31m")),
      (&["warning"], None, Ok("\x1b[1;33m")),
      (&["bg:#abc"], None, Ok("\x1b[48;2;170;187;204m")),
      (&["#ff0080"], None, Ok("\x1b[38;2;255;0;128m")),
      (&["#FF0080"], None, Ok("\x1b[38;2;255;0;128m")),
      (&["fg:1"], None, Ok("\x1b[38;5;1m")),
      (&["255"], None, Ok("\x1b[38;5;255m")),
      (&["bg:0"], None, Ok("\x1b[48;5;0m")),
      (&["fg:red"], None, Ok("\x1b[31m")),
      (&["bg:white"], None, Ok("\x1b[47m")),
      (&["red", "blue"], None, Ok("\x1b[34m")),
      (
        &[
          "bg:blue",
          "strikethrough",
          "red",
          "bold",
          "underline",
          "dim",
          "italic",
          "blink",
          "reverse",
          "hidden",
        ],
        None,
        Ok("\x1b[1;2;3;4;5;7;8;9;44;31m"),
      ),
      (&["error"], Some("X"), Ok("\x1b[1;31mX\x1b[0m")),
      (&[], Some("X"), Ok("X")),
      (&[], None, Ok("")),
      (&["stdout"], Some("Y"), Ok("Y")),
      (&["stderr", "red"], None, Ok("")),
      (&["stdout", "red"], Some("Y"), Ok("Y")),
      (&["purple"], None, Err("invalid style: `purple`")),
      (&["fg:256"], None, Err("invalid style: `fg:256`")),
      (&["00"], None, Err("invalid style: `00`")),
      (&["#abcd"], None, Err("invalid style: `#abcd`")),
      (&["FG:red"], None, Err("invalid style: `FG:red`")),
      (&["bg:bold"], None, Err("invalid style: `bg:bold`")),
      (&["bold red"], None, Err("invalid style: `bold red`")),
      (&["#ggg"], None, Err("invalid style: `#ggg`")),
    ];
    for (styles, text, expected) in cases {
      let expected = expected.map(str::to_owned).map_err(str::to_owned);
      assert_eq!(run(styles, *text, &context), expected, "{styles:?} {text:?}");
    }
  }

  #[test]
  fn stream_gates_and_command_color() {
    let mut context = FunctionContext::new(Path::new("/tmp"), Path::new("/tmp/justfile"));
    context.stdout_color = true;
    context.command_color = Some(Color::Green);
    assert_eq!(run(&["stdout", "red"], Some("Y"), &context), Ok("\x1b[31mY\x1b[0m".into()));
    assert_eq!(run(&["stdout", "stderr", "red"], Some("Y"), &context), Ok("Y".into()));
    assert_eq!(run(&["command"], None, &context), Ok("\x1b[1;32m".into()));
  }
}
