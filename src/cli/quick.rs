//! The quick parser: the common command lines (recipes and their arguments,
//! overrides, long and short flags with their values, `--list`,
//! `--summary` …), read with the flag table alone, without building
//! clap's command, which costs more than the rest of a small run. It gives
//! the same values clap would give, or declines: whenever a line is unusual,
//! wrong, or asks for help or the version, or a `JUST_*` variable of a flag
//! is set, clap parses it, so every message stays clap's.

use std::{ffi::OsString, path::PathBuf};

use crate::cli::flags::{self, Given, Kind, Takes, FLAGS};

/// What a command line gives each flag: the values of each occurrence, in
/// the order of `FLAGS`, and the positional words.
#[derive(Debug)]
pub(crate) struct Quick {
  occurrences: Vec<Vec<Vec<String>>>,
  /// Where the positional words start, if there are any.
  arguments_start: Option<usize>,
  /// The positional words, once `with_arguments` has them; handed over by
  /// `take_arguments`.
  arguments: std::cell::RefCell<Option<Vec<String>>>,
}

/// The flags `words` (the program name first) give, or None when clap must
/// parse them.
pub(crate) fn parse(words: &[OsString]) -> Option<Quick> {
  let words = words.iter().skip(1).map(|word| word.to_str()).collect::<Option<Vec<&str>>>()?;
  let mut quick = Quick {
    occurrences: vec![Vec::new(); FLAGS.len()],
    arguments_start: None,
    arguments: std::cell::RefCell::new(None),
  };
  let mut next = 0;
  while let Some(&word) = words.get(next) {
    next += 1;
    if word == "--" {
      if next < words.len() {
        quick.arguments_start = Some(next + 1);
      }
      break;
    }
    if let Some(long) = word.strip_prefix("--") {
      let (name, inline) = match long.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (long, None),
      };
      let index =
        FLAGS.iter().position(|flag| flag.long == name || flag.aliases.contains(&name))?;
      next = quick.take(index, inline, &words, next)?;
    } else if let Some(shorts) = word.strip_prefix('-').filter(|shorts| !shorts.is_empty()) {
      let indices = shorts
        .chars()
        .map(|short| FLAGS.iter().position(|flag| flag.short == Some(short)))
        .collect::<Option<Vec<usize>>>()?;
      if let [index] = indices[..] {
        next = quick.take(index, None, &words, next)?;
      } else {
        // A group of switches: `-nu`, `-vv`.
        for index in indices {
          if !matches!(FLAGS[index].takes, Takes::Switch | Takes::Count) {
            return None;
          }
          quick.take(index, None, &words, next)?;
        }
      }
    } else if word.is_empty() || word == "-" {
      return None;
    } else {
      quick.arguments_start = Some(next);
      break;
    }
  }
  (quick.relations_hold() && !flag_variable_set()).then_some(quick)
}

/// Whether a `JUST_*` variable of a flag is set. One pass over the
/// environment, and a look-up per flag only when it has a `JUST_` name.
fn flag_variable_set() -> bool {
  std::env::vars_os().any(|(name, _)| {
    name.as_encoded_bytes().starts_with(b"JUST_")
      && FLAGS.iter().any(|flag| flag.env.is_some_and(|env| name == env))
  })
}

impl Quick {
  /// Takes the positional words from `words`, the command line `parse`
  /// read, without copying them.
  pub(crate) fn with_arguments(self, words: Vec<OsString>) -> Quick {
    if let Some(start) = self.arguments_start {
      let arguments = words.into_iter().skip(start).filter_map(|word| word.into_string().ok());
      *self.arguments.borrow_mut() = Some(arguments.collect());
    }
    self
  }

  /// Records an occurrence of `FLAGS[index]`, its values `inline`
  /// (`--name=value`) or the words from `words[next]`; returns the index of
  /// the word after them, or None to decline.
  fn take(
    &mut self,
    index: usize,
    inline: Option<&str>,
    words: &[&str],
    mut next: usize,
  ) -> Option<usize> {
    let flag = &FLAGS[index];
    let values = match flag.takes {
      Takes::Switch | Takes::FalseySwitch | Takes::Count if inline.is_none() => Vec::new(),
      Takes::Value(_, kind) | Takes::Values(_, kind) => {
        vec![valid(value(inline, words, &mut next)?, kind)?]
      }
      Takes::Pair(..) if inline.is_none() => {
        let name = value(None, words, &mut next)?;
        vec![name, value(None, words, &mut next)?]
      }
      Takes::Words(_, min) if inline.is_none() => {
        let mut values = Vec::new();
        while let Some(word) = words.get(next).filter(|word| !word.starts_with('-')) {
          values.push(*word);
          next += 1;
        }
        if values.len() < min {
          return None;
        }
        values
      }
      _ => return None,
    };
    let repeatable = matches!(flag.takes, Takes::Count | Takes::Values(..) | Takes::Pair(..));
    if !repeatable && !self.occurrences[index].is_empty() {
      return None;
    }
    if values.iter().any(|value| value.is_empty()) || self.occurrences[index].len() >= 100 {
      return None;
    }
    if let Some(overridden) = flag.overrides.and_then(flags::index) {
      self.occurrences[overridden].clear();
    }
    self.occurrences[index].push(values.into_iter().map(str::to_owned).collect());
    Some(next)
  }

  /// Whether no flag given conflicts with another one given, and every flag
  /// given has the one it requires.
  fn relations_hold(&self) -> bool {
    let given = |name: &str| match name {
      flags::ARGUMENTS => self.arguments_start.is_some(),
      flags::DEPENDENCY_VIEW => {
        self.given(flags::dependencies::TREE.long) || self.given(flags::dependencies::GRAPH.long)
      }
      name => self.given(name),
    };
    FLAGS
      .iter()
      .zip(&self.occurrences)
      .filter(|(_, occurrences)| !occurrences.is_empty())
      .all(|(flag, _)| !flags::conflicts(flag).any(given) && flag.requires.is_none_or(given))
  }

  fn given(&self, id: &str) -> bool {
    flags::index(id).is_some_and(|index| !self.occurrences[index].is_empty())
  }

  fn last(&self, id: &str) -> Option<&str> {
    let index = flags::index(id)?;
    match self.occurrences[index].last() {
      Some(values) => values.last().map(String::as_str),
      None => FLAGS[index].default,
    }
  }
}

/// A flag's value: `inline`, else the word `words[*next]` (consumed) unless
/// it looks like a flag.
fn value<'a>(inline: Option<&'a str>, words: &[&'a str], next: &mut usize) -> Option<&'a str> {
  if inline.is_some() {
    return inline;
  }
  let word = words.get(*next).filter(|word| !word.starts_with('-') || **word == "-")?;
  *next += 1;
  Some(word)
}

/// `value` if clap accepts it for a flag taking `kind` as it is.
fn valid(value: &str, kind: Kind) -> Option<&str> {
  let digits = |value: &str| {
    !value.is_empty() && value.len() <= 18 && value.bytes().all(|byte| byte.is_ascii_digit())
  };
  let ok = match kind {
    Kind::Text | Kind::Path => true,
    // Clap gives words of another case or aliases as they are.
    Kind::Choice(words) => {
      !words.any_case && words.aliases.is_empty() && words.listed.contains(&value)
    }
    Kind::Positive => digits(value) && !value.starts_with('0'),
    Kind::Number => digits(value),
    Kind::Indentation => crate::syntax::strings::check_indentation(value).is_ok(),
  };
  ok.then_some(value)
}

impl Given for Quick {
  fn on_command_line(&self, id: &str) -> bool {
    match id {
      flags::ARGUMENTS => self.arguments_start.is_some(),
      id => self.given(id),
    }
  }

  fn get_flag(&self, id: &str) -> bool {
    self.given(id)
  }

  fn get_count(&self, id: &str) -> u8 {
    flags::index(id).map_or(0, |index| self.occurrences[index].len() as u8)
  }

  fn values(&self, id: &str) -> Option<Vec<String>> {
    if id == flags::ARGUMENTS {
      return self.arguments.borrow().clone();
    }
    let index = flags::index(id)?;
    match &self.occurrences[index][..] {
      [] => FLAGS[index].default.map(|default| vec![default.to_owned()]),
      occurrences => Some(occurrences.iter().flatten().cloned().collect()),
    }
  }

  fn string(&self, id: &str) -> Option<String> {
    self.last(id).map(str::to_owned)
  }

  fn word(&self, id: &str) -> Option<&str> {
    self.last(id)
  }

  fn path(&self, id: &str) -> Option<PathBuf> {
    self.last(id).map(PathBuf::from)
  }

  fn number(&self, id: &str) -> Option<u64> {
    self.last(id)?.parse().ok()
  }

  fn positive(&self, id: &str) -> Option<usize> {
    self.last(id)?.parse().ok()
  }

  fn command_words(&self, _id: &str) -> Vec<OsString> {
    Vec::new()
  }

  fn take_arguments(&self) -> Option<Vec<String>> {
    self.arguments.borrow_mut().take()
  }

  fn pairs(&self, id: &str) -> Vec<(String, String)> {
    let Some(index) = flags::index(id) else { return Vec::new() };
    self.occurrences[index]
      .iter()
      .filter_map(|pair| Some((pair.first()?.clone(), pair.get(1)?.clone())))
      .collect()
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::{arguments, config::Config};

  /// A seeded generator (xorshift), so every run checks the same lines.
  struct Random(u64);

  impl Random {
    fn below(&mut self, bound: usize) -> usize {
      self.0 ^= self.0 << 13;
      self.0 ^= self.0 >> 7;
      self.0 ^= self.0 << 17;
      (self.0 % bound as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
      items[self.below(items.len())]
    }
  }

  /// Words that are not flags: recipes, overrides, search directories,
  /// values valid and invalid for some flag, and odd words.
  const WORDS: &[&str] = &[
    "build",
    "default",
    "x",
    "a=b",
    "sub::x=1",
    "0::x=1",
    "x=",
    "..",
    ".",
    "../build",
    "dir/",
    "a/b",
    "sub::r",
    "a b",
    "-",
    "--",
    "",
    "-x",
    "--frob",
    "left",
    "right",
    "separate",
    "json",
    "just",
    "shell",
    "3",
    "0",
    "07",
    "+3",
    "100",
    "18446744073709551616",
    " ",
    "\t",
    "  ",
    "always",
    "never",
    "auto",
    "red",
    "mermaid",
    "dot",
    "bash",
    "nu",
    "ZSH",
    "a,b",
    "--help",
    "-h",
    "--version",
    "-V",
    "-nu",
    "-vv",
    "-fjustfile",
    "-qn",
    "-lu",
    "-uv",
    "--list=x",
    "--dry-run=true",
    "--color=never",
    "--set=a",
    "--justfile=",
    "interleaved",
    "grouped",
    "%s",
    "-E",
    "--eval",
    "--format",
    "--initialize",
    "--no-dependencies",
    "--no-deps=1",
  ];

  /// Every spelling of every flag, with and without an inline value.
  fn flag_words() -> Vec<String> {
    let mut words = Vec::new();
    for flag in FLAGS {
      words.push(format!("--{}", flag.long));
      words.push(format!("--{}=x", flag.long));
      words.extend(flag.short.map(|short| format!("-{short}")));
      words.extend(flag.aliases.iter().map(|alias| format!("--{alias}")));
    }
    words
  }

  /// Values that suit `flag`, valid ones first.
  fn values_for(flag: &flags::Flag) -> Vec<&'static str> {
    match flag.takes {
      Takes::Value(_, Kind::Choice(words)) => [words.listed, &["nope", "Nu", "ZSH"]].concat(),
      Takes::Value(_, Kind::Positive | Kind::Number) => vec!["3", "0", "x"],
      Takes::Value(_, Kind::Indentation) => vec!["  ", "\t", "x"],
      Takes::Switch | Takes::FalseySwitch | Takes::Count => vec![],
      _ => vec!["value", "a=b", "../j"],
    }
  }

  /// The quick parser's configuration and which flags it found given.
  type QuickResult = (String, Vec<bool>);

  /// What `Config::from_args` makes of `words` through each parser: the
  /// quick parser's configuration (None if it declined) with the flags it
  /// found given, and clap's (`command`).
  fn both(
    command: &mut clap::Command,
    words: &[String],
  ) -> (Option<QuickResult>, Result<String, String>) {
    let words: Vec<OsString> =
      std::iter::once("just").chain(words.iter().map(String::as_str)).map(OsString::from).collect();
    let directory = PathBuf::from("/inv/dir");
    let quick = parse(&words).map(|quick| quick.with_arguments(words.clone())).map(|quick| {
      let given = quick.occurrences.iter().map(|occurrences| !occurrences.is_empty()).collect();
      (format!("{:?}", Config::from_given(&quick, directory.clone())), given)
    });
    let clap = command
      .try_get_matches_from_mut(&words)
      .map(|matches| format!("{:?}", Config::from_matches(&matches, directory)))
      .map_err(|error| error.to_string());
    (quick, clap)
  }

  /// Runs `check` with no `JUST_*` variable of a flag set.
  fn without_flag_variables(check: impl FnOnce()) {
    let _guard = crate::cli::config::tests::ENVIRONMENT
      .lock()
      .unwrap_or_else(|poisoned| poisoned.into_inner());
    let saved: Vec<(&str, OsString)> = FLAGS
      .iter()
      .filter_map(|flag| flag.env)
      .filter_map(|name| Some((name, std::env::var_os(name)?)))
      .collect();
    for (name, _) in &saved {
      std::env::remove_var(name);
    }
    check();
    for (name, value) in saved {
      std::env::set_var(name, value);
    }
  }

  #[test]
  fn quick_parser_agrees_with_clap() {
    without_flag_variables(|| {
      let flag_words = flag_words();
      let mut lines: Vec<Vec<String>> = vec![vec![]];
      for flag in FLAGS {
        let mut spellings = vec![format!("--{}", flag.long)];
        spellings.extend(flag.short.map(|short| format!("-{short}")));
        for spelling in spellings {
          // With the flag it requires, before and after it.
          let required = flag.requires.map(|required| match required {
            flags::DEPENDENCY_VIEW => "--tree".to_owned(),
            required => match flags::index(required).map(|index| FLAGS[index].takes) {
              Some(Takes::Value(..)) => format!("--{required}=value"),
              _ => format!("--{required}"),
            },
          });
          let with_required = |line: Vec<String>| -> Vec<Vec<String>> {
            match &required {
              Some(required) => vec![
                [vec![required.clone()], line.clone()].concat(),
                [line.clone(), vec![required.clone()]].concat(),
                line,
              ],
              None => vec![line],
            }
          };
          lines.extend(with_required(vec![spelling.clone()]));
          lines.extend(with_required(vec![spelling.clone(), "build".into()]));
          for value in values_for(flag) {
            lines.extend(with_required(vec![spelling.clone(), value.into()]));
            lines.extend(with_required(vec![spelling.clone(), value.into(), "build".into()]));
            lines.extend(with_required(vec![format!("{spelling}={value}")]));
          }
        }
      }
      let mut random = Random(0x5eed_1234_abcd_9876);
      for _ in 0..5_000 {
        let length = random.below(7);
        let line = (0..length)
          .map(|_| match random.below(3) {
            0 => flag_words[random.below(flag_words.len())].clone(),
            _ => random.pick(WORDS).to_owned(),
          })
          .collect();
        lines.push(line);
      }

      let mut command = arguments::command();
      let mut accepted = 0;
      let mut accepted_flags = vec![false; FLAGS.len()];
      for line in &lines {
        let (quick, clap) = both(&mut command, line);
        let Some((quick, given)) = quick else { continue };
        assert_eq!(Ok(&quick), clap.as_ref(), "{line:?}");
        accepted += 1;
        for (accepted, given) in accepted_flags.iter_mut().zip(given) {
          *accepted |= given;
        }
      }
      eprintln!("{accepted} of {} lines parsed quickly", lines.len());
      assert!(
        accepted > lines.len() / 5,
        "only {accepted} of {} lines parsed quickly",
        lines.len()
      );
      let declined: Vec<&str> = FLAGS
        .iter()
        .zip(&accepted_flags)
        .filter(|(flag, accepted)| {
          // Left to clap: values that may start with `-`, `--command` (and
          // what requires it), `--completions`.
          !**accepted
            && !matches!(flag.takes, Takes::HyphenValues(_) | Takes::Rest(_))
            && !matches!(flag.takes, Takes::Value(_, Kind::Choice(words)) if words.any_case)
            && flag.requires != Some(flags::shell::COMMAND.long)
        })
        .map(|(flag, _)| flag.long)
        .collect();
      assert!(declined.is_empty(), "never parsed quickly: {declined:?}");
    });
  }

  #[test]
  fn common_lines_are_parsed_quickly() {
    without_flag_variables(|| {
      let lines: &[&[&str]] = &[
        &[],
        &["build"],
        &["-f", "justfile", "build"],
        &["--list"],
        &["--summary"],
        &["name=x", "greet"],
        &["--justfile", "j", "--working-directory", "d", "build", "a", "-b", "--c"],
        &["-n", "--", "build", "--list"],
        &["--set", "a", "1", "-vv", "build"],
      ];
      for line in lines {
        let words: Vec<String> = line.iter().map(|word| word.to_string()).collect();
        let (quick, clap) = both(&mut arguments::command(), &words);
        assert_eq!(quick.map(|(quick, _)| quick).as_ref(), clap.as_ref().ok(), "{line:?}");
      }
    });
  }

  /// The defaults of the options are the table's; `Options::default_for`,
  /// which the stages' tests use, must agree with them.
  #[test]
  fn options_default_to_the_table() {
    without_flag_variables(|| {
      let directory = PathBuf::from("/inv/dir");
      let words = vec![OsString::from("just")];
      let quick = parse(&words).expect("a bare `just` is parsed quickly").with_arguments(words);
      let from_table = Config::from_given(&quick, directory.clone()).unwrap();
      assert_eq!(format!("{from_table:?}"), format!("{:?}", Config::default_for(directory)));
      for flag in FLAGS.iter().filter(|flag| flag.default.is_some()) {
        assert_eq!(quick.string(flag.long).as_deref(), flag.default, "{}", flag.long);
      }
    });
  }

  #[test]
  fn a_flag_variable_leaves_the_line_to_clap() {
    let _guard = crate::cli::config::tests::ENVIRONMENT
      .lock()
      .unwrap_or_else(|poisoned| poisoned.into_inner());
    std::env::set_var("JUST_UNSORTED", "true");
    let quick = parse(&[OsString::from("just"), OsString::from("build")]);
    std::env::remove_var("JUST_UNSORTED");
    assert!(quick.is_none());
  }
}
