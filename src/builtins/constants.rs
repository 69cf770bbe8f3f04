//! Built-in constants.

const CONSTANTS: &[(&str, &str)] = &[
  ("HEX", "0123456789abcdef"),
  ("HEXLOWER", "0123456789abcdef"),
  ("HEXUPPER", "0123456789ABCDEF"),
  ("PATH_SEP", if cfg!(windows) { "\\" } else { "/" }),
  ("PATH_VAR_SEP", if cfg!(windows) { ";" } else { ":" }),
  ("CLEAR", "\x1bc"),
  ("NORMAL", "\x1b[0m"),
  ("BOLD", "\x1b[1m"),
  ("ITALIC", "\x1b[3m"),
  ("UNDERLINE", "\x1b[4m"),
  ("INVERT", "\x1b[7m"),
  ("HIDE", "\x1b[8m"),
  ("STRIKETHROUGH", "\x1b[9m"),
  ("BLACK", "\x1b[30m"),
  ("RED", "\x1b[31m"),
  ("GREEN", "\x1b[32m"),
  ("YELLOW", "\x1b[33m"),
  ("BLUE", "\x1b[34m"),
  ("MAGENTA", "\x1b[35m"),
  ("CYAN", "\x1b[36m"),
  ("WHITE", "\x1b[37m"),
  ("BG_BLACK", "\x1b[40m"),
  ("BG_RED", "\x1b[41m"),
  ("BG_GREEN", "\x1b[42m"),
  ("BG_YELLOW", "\x1b[43m"),
  ("BG_BLUE", "\x1b[44m"),
  ("BG_MAGENTA", "\x1b[45m"),
  ("BG_CYAN", "\x1b[46m"),
  ("BG_WHITE", "\x1b[47m"),
];

/// Every constant and its value, in table order (the language server's
/// completions and hovers).
pub(crate) fn all() -> &'static [(&'static str, &'static str)] {
  CONSTANTS
}

/// The value of constant `name`, if it is one.
pub(crate) fn constant(name: &str) -> Option<&'static str> {
  id(name).and_then(value)
}

/// The id of constant `name`, if it is one: what analysis binds a name to.
pub(crate) fn id(name: &str) -> Option<u32> {
  let index = CONSTANTS.iter().position(|(constant, _)| *constant == name)?;
  u32::try_from(index).ok()
}

/// The value of the constant with id `id`.
pub(crate) fn value(id: u32) -> Option<&'static str> {
  CONSTANTS.get(id as usize).map(|(_, value)| *value)
}

/// What constant `name` is for, in prose (the language server's hover);
/// empty for a name that is not a constant.
pub(crate) fn doc(name: &str) -> &'static str {
  match name {
    "HEX" | "HEXLOWER" => {
      "The hexadecimal digits in lower case, `0123456789abcdef`: `choose('8', HEX)`."
    }
    "HEXUPPER" => "The hexadecimal digits in upper case, `0123456789ABCDEF`.",
    "PATH_SEP" => "The separator of path components: `/`, or `\\` on Windows.",
    "PATH_VAR_SEP" => "The separator of the directories of `PATH`: `:`, or `;` on Windows.",
    "CLEAR" => "The terminal code that clears the screen.",
    "NORMAL" => "The terminal code that resets colours and styles: end a styled text with it.",
    "BOLD" => "The terminal code that starts bold text (end it with `NORMAL`).",
    "ITALIC" => "The terminal code that starts italic text (end it with `NORMAL`).",
    "UNDERLINE" => "The terminal code that starts underlined text (end it with `NORMAL`).",
    "INVERT" => {
      "The terminal code that swaps the foreground and background colours (end it with `NORMAL`)."
    }
    "HIDE" => "The terminal code that hides the text that follows (end it with `NORMAL`).",
    "STRIKETHROUGH" => "The terminal code that starts struck-through text (end it with `NORMAL`).",
    "BLACK" | "RED" | "GREEN" | "YELLOW" | "BLUE" | "MAGENTA" | "CYAN" | "WHITE" => {
      "The terminal code that colours the text that follows in that colour: \
       `echo '{{RED}}failed{{NORMAL}}'`."
    }
    "BG_BLACK" | "BG_RED" | "BG_GREEN" | "BG_YELLOW" | "BG_BLUE" | "BG_MAGENTA" | "BG_CYAN"
    | "BG_WHITE" => {
      "The terminal code that gives the text that follows that background colour (end it with \
       `NORMAL`)."
    }
    _ => "",
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn values() {
    let cases = [
      ("HEX", Some("0123456789abcdef")),
      ("HEXUPPER", Some("0123456789ABCDEF")),
      ("PATH_SEP", Some("/")),
      ("PATH_VAR_SEP", Some(":")),
      ("CLEAR", Some("\x1bc")),
      ("NORMAL", Some("\x1b[0m")),
      ("STRIKETHROUGH", Some("\x1b[9m")),
      ("MAGENTA", Some("\x1b[35m")),
      ("BG_WHITE", Some("\x1b[47m")),
      ("hex", None),
      ("GREY", None),
    ];
    for (name, expected) in cases {
      assert_eq!(constant(name), expected, "{name}");
    }
    assert_eq!(CONSTANTS.len(), 29);
  }

  #[test]
  fn every_constant_has_a_doc() {
    for (name, _) in all() {
      assert!(!doc(name).trim().is_empty(), "{name} has no doc");
    }
  }
}
