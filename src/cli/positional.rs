//! Splitting positional words into overrides, a search directory and
//! ordinary arguments.

/// The positional words of one invocation, split.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Positional {
  /// `(NAME, VALUE)` pairs, NAME unvalidated (see `split_override_name`).
  pub overrides: Vec<(String, String)>,
  /// A `.`/`..` word or the head of a word containing `/`, `/` included.
  pub search_directory: Option<String>,
  pub arguments: Vec<String>,
}

impl Positional {
  pub(crate) fn from_values<I, S>(values: I) -> Self
  where
    I: IntoIterator<Item = S>,
    S: Into<String>,
  {
    let mut positional = Positional::default();
    let mut words = values.into_iter().map(Into::into);

    for word in words.by_ref() {
      if let Some((name, value)) = word.split_once('=') {
        positional.overrides.push((name.to_owned(), value.to_owned()));
        continue;
      }
      if word == "." || word == ".." {
        positional.search_directory = Some(word);
      } else if let Some(slash) = word.rfind('/') {
        let (head, tail) = word.split_at(slash + 1);
        positional.search_directory = Some(head.to_owned());
        if !tail.is_empty() {
          positional.arguments.push(tail.to_owned());
        }
      } else {
        positional.arguments.push(word);
      }
      break;
    }

    positional.arguments.extend(words);
    positional
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::syntax::path::split_override_name;

  fn expected(
    overrides: &[(&str, &str)],
    directory: Option<&str>,
    arguments: &[&str],
  ) -> Positional {
    Positional {
      overrides: overrides.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
      search_directory: directory.map(str::to_owned),
      arguments: arguments.iter().map(|a| a.to_string()).collect(),
    }
  }

  #[test]
  fn splitting() {
    let cases: Vec<(&[&str], Positional)> = vec![
      (&[], expected(&[], None, &[])),
      (&["build"], expected(&[], None, &["build"])),
      (&["x=1", "build", "y=2"], expected(&[("x", "1")], None, &["build", "y=2"])),
      (&["x=", "a=b=c"], expected(&[("x", ""), ("a", "b=c")], None, &[])),
      (&[".."], expected(&[], Some(".."), &[])),
      (&[".", "foo"], expected(&[], Some("."), &["foo"])),
      (&["../build"], expected(&[], Some("../"), &["build"])),
      (&["a/b/"], expected(&[], Some("a/b/"), &[])),
      (&["./foo", "../bar"], expected(&[], Some("./"), &["foo", "../bar"])),
      (&["x=1", "..", "y=2"], expected(&[("x", "1")], Some(".."), &["y=2"])),
      (&["r", "x=1", "a/b"], expected(&[], None, &["r", "x=1", "a/b"])),
    ];
    for (words, expected) in cases {
      assert_eq!(Positional::from_values(words.iter().copied()), expected, "{words:?}");
    }
  }

  #[test]
  fn override_names() {
    let valid: &[(&str, &[&str], &str)] = &[
      ("x", &[], "x"),
      ("_a-b9", &[], "_a-b9"),
      ("sub::x", &["sub"], "x"),
      ("a::b::c", &["a", "b"], "c"),
    ];
    for (name, path, variable) in valid {
      let path = path.iter().map(|s| s.to_string()).collect();
      assert_eq!(split_override_name(name), Some((path, variable.to_string())), "{name:?}");
    }
    for name in ["0::foo", "", "a:b", "a::", "::a", "a:::b", "-a", "\u{e9}"] {
      assert_eq!(split_override_name(name), None, "{name:?}");
    }
  }
}
