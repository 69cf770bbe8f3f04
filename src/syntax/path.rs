//! Names and module paths as users type them on the command line: `a::b::c`
//! in one word, or `a b c` as separate words (or one word with spaces).

/// A justfile identifier: `[A-Za-z_][A-Za-z0-9_-]*`.
pub(crate) fn is_identifier(text: &str) -> bool {
  let mut chars = text.chars();
  matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
    && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Splits `a::b::c` into identifiers; None if any component is not one.
pub(crate) fn split_colon_path(word: &str) -> Option<Vec<&str>> {
  let components: Vec<&str> = word.split("::").collect();
  components.iter().all(|component| is_identifier(component)).then_some(components)
}

/// The components named by `words`: a single word is split on `::`, several
/// words are one component each. None when a component is not an identifier.
pub(crate) fn path_of_words<'a>(words: &[&'a str]) -> Option<Vec<&'a str>> {
  match words {
    [word] => split_colon_path(word),
    words => words.iter().all(|word| is_identifier(word)).then(|| words.to_vec()),
  }
}

/// The components of a `--list`, `--show`, `--usage` or `--clean` path: one
/// word containing whitespace is split on it first.
pub(crate) fn module_path(words: &[String]) -> Option<Vec<String>> {
  let words: Vec<&str> = match words {
    [word] if word.contains(char::is_whitespace) => word.split_whitespace().collect(),
    words => words.iter().map(String::as_str).collect(),
  };
  path_of_words(&words).map(|components| components.into_iter().map(str::to_owned).collect())
}

/// Splits an override name `a::b::x` into its module path and variable name.
pub(crate) fn split_override_name(name: &str) -> Option<(Vec<String>, String)> {
  let mut components: Vec<String> =
    split_colon_path(name)?.into_iter().map(str::to_owned).collect();
  let variable = components.pop()?;
  Some((components, variable))
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn paths() {
    assert_eq!(split_colon_path("a::b-c::_d"), Some(vec!["a", "b-c", "_d"]));
    assert_eq!(split_colon_path("a::1"), None);
    assert_eq!(split_colon_path("a:::b"), None);
    assert_eq!(module_path(&["a b".into()]), Some(vec!["a".into(), "b".into()]));
    assert_eq!(module_path(&["a".into(), "b::c".into()]), None);
    assert_eq!(path_of_words(&[]), Some(vec![]));
    assert_eq!(split_override_name("m::x"), Some((vec!["m".into()], "x".into())));
    assert_eq!(split_override_name("x"), Some((vec![], "x".into())));
  }
}
