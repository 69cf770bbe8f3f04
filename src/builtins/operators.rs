//! Operator semantics shared by run-time and compile-time (const)
//! evaluation: broadcasting `+` and `/` over lists, and regex matching.
//! Errors are the message text; callers attach the operator's token.

use regex::Regex;

use super::value::Value;

/// `+` and `/` on values: pairwise, or one element against many.
pub(crate) fn broadcast(
  lhs: &Value,
  rhs: &Value,
  symbol: &str,
  combine: impl Fn(&str, &str) -> String,
) -> Result<Value, String> {
  let (l, r) = (lhs.elements(), rhs.elements());
  let combined = match (l.len(), r.len()) {
    (0, 0) => Vec::new(),
    (0, _) | (_, 0) => {
      return Err(format!("operator `{symbol}` cannot be applied to empty lists"));
    }
    (1, _) => r.iter().map(|b| combine(&l[0], b)).collect(),
    (_, 1) => l.iter().map(|a| combine(a, &r[0])).collect(),
    (a, b) if a == b => l.iter().zip(r).map(|(a, b)| combine(a, b)).collect(),
    _ => {
      return Err(format!(
        "operator `{symbol}` cannot be applied to lists of different lengths: {} {symbol} {}",
        lhs.show(),
        rhs.show()
      ));
    }
  };
  Ok(Value(combined))
}

/// `=~`: whether some element of `lhs` matches some regex of `rhs`.
pub(crate) fn regex_matches(lhs: &Value, rhs: &Value) -> Result<bool, String> {
  for pattern in rhs.elements() {
    let regex = Regex::new(pattern).map_err(|error| error.to_string())?;
    if lhs.elements().iter().any(|element| regex.is_match(element)) {
      return Ok(true);
    }
  }
  Ok(false)
}

#[cfg(test)]
mod tests {
  use super::*;

  fn list(items: &[&str]) -> Value {
    Value(items.iter().map(|s| s.to_string()).collect())
  }

  #[test]
  fn broadcasting() {
    let join = |a: &str, b: &str| format!("{a}/{b}");
    assert_eq!(broadcast(&list(&["a"]), &list(&["b", "c"]), "/", join), Ok(list(&["a/b", "a/c"])));
    assert_eq!(
      broadcast(&list(&["a", "b"]), &list(&["c", "d"]), "/", join),
      Ok(list(&["a/c", "b/d"]))
    );
    assert_eq!(broadcast(&list(&[]), &list(&[]), "/", join), Ok(list(&[])));
    assert_eq!(
      broadcast(&list(&[]), &list(&["x"]), "+", join),
      Err("operator `+` cannot be applied to empty lists".into())
    );
    assert_eq!(
      broadcast(&list(&["a", "b"]), &list(&["c", "d", "e"]), "+", join),
      Err(
        "operator `+` cannot be applied to lists of different lengths: [\"a\", \"b\"] + [\"c\", \"d\", \"e\"]"
          .into()
      )
    );
  }

  #[test]
  fn regex_matching() {
    assert_eq!(regex_matches(&list(&["abc"]), &list(&["b"])), Ok(true));
    assert_eq!(regex_matches(&list(&["abc"]), &list(&["^b"])), Ok(false));
    assert_eq!(regex_matches(&list(&[]), &list(&["b"])), Ok(false));
    assert!(regex_matches(&list(&["a"]), &list(&["("])).is_err());
  }
}
