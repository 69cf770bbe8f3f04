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
}
