//! Run-time values. Every value is a list of strings; without `set lists`
//! it always has exactly one element.

use std::fmt::{self, Display, Formatter};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Value(pub Vec<String>);

impl Value {
  pub(crate) fn string(s: impl Into<String>) -> Self {
    Value(vec![s.into()])
  }

  pub(crate) fn empty_list() -> Self {
    Value(Vec::new())
  }

  /// Canonical boolean: `"true"`/`"false"` without lists, `"true"`/`[]` with.
  pub(crate) fn boolean(value: bool, lists: bool) -> Self {
    match (value, lists) {
      (true, _) => Value::string("true"),
      (false, false) => Value::string("false"),
      (false, true) => Value::empty_list(),
    }
  }

  pub(crate) fn elements(&self) -> &[String] {
    &self.0
  }

  /// The single string of a one-element value.
  pub(crate) fn as_single(&self) -> Option<&str> {
    match self.0.as_slice() {
      [single] => Some(single),
      _ => None,
    }
  }

  /// Elements joined by single spaces (how interpolations print lists).
  pub(crate) fn joined(&self) -> String {
    match self.0.as_slice() {
      [single] => single.clone(),
      elements => elements.join(" "),
    }
  }

  /// True iff non-empty (with lists).
  pub(crate) fn is_truthy(&self) -> bool {
    !self.0.is_empty()
  }

  /// `show()` notation: `"a"`, `["a", "b"]`, `[]`.
  pub(crate) fn show(&self) -> String {
    match self.0.as_slice() {
      [single] => quote_escaped(single),
      elements => {
        let inner: Vec<String> = elements.iter().map(|e| quote_escaped(e)).collect();
        format!("[{}]", inner.join(", "))
      }
    }
  }
}

/// `"…"` with `\\ \" \n \r \t` escaped.
pub(crate) fn quote_escaped(s: &str) -> String {
  let mut out = String::with_capacity(s.len() + 2);
  out.push('"');
  for c in s.chars() {
    match c {
      '\\' => out.push_str("\\\\"),
      '"' => out.push_str("\\\""),
      '\n' => out.push_str("\\n"),
      '\r' => out.push_str("\\r"),
      '\t' => out.push_str("\\t"),
      c => out.push(c),
    }
  }
  out.push('"');
  out
}

impl Display for Value {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    f.write_str(&self.joined())
  }
}
