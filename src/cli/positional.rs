//! Splitting positional words into overrides, a search directory and
//! ordinary arguments (cli-and-execution.md §3.1).

/// The positional words of one invocation, split.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Positional {
  /// `(NAME, VALUE)` pairs, NAME unvalidated (see `split_override_name`).
  pub overrides: Vec<(String, String)>,
  /// A `.`/`..` word or the head of a word containing `/`, `/` included.
  pub search_directory: Option<String>,
  pub arguments: Vec<String>,
}

impl Positional {
  pub fn from_values<I, S>(values: I) -> Self
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

/// Split an override name `a::b::x` into its module path and variable name;
/// None when a component is not an identifier.
pub fn split_override_name(name: &str) -> Option<(Vec<String>, String)> {
  let mut components: Vec<String> = name.split("::").map(str::to_owned).collect();
  if !components.iter().all(|component| is_identifier(component)) {
    return None;
  }
  let variable = components.pop()?;
  Some((components, variable))
}

fn is_identifier(text: &str) -> bool {
  let mut chars = text.chars();
  match chars.next() {
    Some(first) if first.is_ascii_alphabetic() || first == '_' => {}
    _ => return false,
  }
  chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
  use super::*;

  fn split(
    words: &[&str],
  ) -> (Vec<(&'static str, &'static str)>, Option<&'static str>, Vec<&'static str>) {
    let positional = Positional::from_values(words.iter().copied());
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    (
      positional.overrides.into_iter().map(|(n, v)| (leak(n), leak(v))).collect(),
      positional.search_directory.map(leak),
      positional.arguments.into_iter().map(leak).collect(),
    )
  }

  #[test]
  fn splitting() {
    let cases: &[(&[&str], (Vec<(&str, &str)>, Option<&str>, Vec<&str>))] = &[
      (&[], (vec![], None, vec![])),
      (&["build"], (vec![], None, vec!["build"])),
      (&["x=1", "build", "y=2"], (vec![("x", "1")], None, vec!["build", "y=2"])),
      (&["x=", "a=b=c"], (vec![("x", ""), ("a", "b=c")], None, vec![])),
      (&[".."], (vec![], Some(".."), vec![])),
      (&[".", "foo"], (vec![], Some("."), vec!["foo"])),
      (&["../build"], (vec![], Some("../"), vec!["build"])),
      (&["a/b/"], (vec![], Some("a/b/"), vec![])),
      (&["./foo", "../bar"], (vec![], Some("./"), vec!["foo", "../bar"])),
      (&["x=1", "..", "y=2"], (vec![("x", "1")], Some(".."), vec!["y=2"])),
      (&["r", "x=1", "a/b"], (vec![], None, vec!["r", "x=1", "a/b"])),
    ];
    for (words, expected) in cases {
      assert_eq!(&split(words), expected, "{words:?}");
    }
  }

  #[test]
  fn override_names() {
    let cases: &[(&str, Option<(&[&str], &str)>)] = &[
      ("x", Some((&[], "x"))),
      ("_a-b9", Some((&[], "_a-b9"))),
      ("sub::x", Some((&["sub"], "x"))),
      ("a::b::c", Some((&["a", "b"], "c"))),
      ("0::foo", None),
      ("", None),
      ("a:b", None),
      ("a::", None),
      ("::a", None),
      ("a:::b", None),
      ("-a", None),
      ("é", None),
    ];
    for (name, expected) in cases {
      let expected =
        expected.map(|(path, var)| (path.iter().map(|s| s.to_string()).collect(), var.to_string()));
      assert_eq!(split_override_name(name), expected, "{name:?}");
    }
  }
}
