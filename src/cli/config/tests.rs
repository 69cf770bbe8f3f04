use super::*;
use crate::cli::flags::{Kind, Takes};
use crate::options::AliasStyle;
use std::sync::Mutex;

/// Serialises tests that set `JUST_*` variables against tests that parse.
pub(crate) static ENVIRONMENT: Mutex<()> = Mutex::new(());

fn parse(args: &[&str]) -> Result<Config, ConfigError> {
  let matches = arguments::command()
    .try_get_matches_from(std::iter::once("just").chain(args.iter().copied()))
    .map_err(|source| ConfigError::Clap { source })?;
  Config::from_matches(&matches, PathBuf::from("/inv/dir"))
}

fn parse_locked(args: &[&str]) -> Result<Config, ConfigError> {
  let _guard = ENVIRONMENT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
  parse(args)
}

fn with_env<T>(vars: &[(&str, &str)], f: impl FnOnce() -> T) -> T {
  let _guard = ENVIRONMENT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
  for (name, value) in vars {
    std::env::set_var(name, value);
  }
  let result = f();
  for (name, _) in vars {
    std::env::remove_var(name);
  }
  result
}

fn strings(words: &[&str]) -> Vec<String> {
  words.iter().map(|word| word.to_string()).collect()
}

fn error_text(args: &[&str]) -> (i32, String) {
  match parse_locked(args) {
    Ok(config) => panic!("{args:?} parsed: {config:?}"),
    Err(ConfigError::Clap { source }) => {
      (source.exit_code(), source.render().to_string().lines().next().unwrap_or("").to_owned())
    }
    Err(error) => (error.exit_code(), error.to_string()),
  }
}

#[test]
fn subcommands() {
  use Subcommand::*;
  let cases: Vec<(&[&str], Subcommand)> = vec![
    (&[], Run { arguments: vec![] }),
    (
      &["build", "--dry-run", "--", "x"],
      Run { arguments: strings(&["build", "--dry-run", "--", "x"]) },
    ),
    (&["-n", "a=1", "b"], Run { arguments: strings(&["b"]) }),
    (&["--list"], List { path: vec![] }),
    (&["-l", "foo", "bar"], List { path: strings(&["foo", "bar"]) }),
    (&["--list", "foo bar"], List { path: strings(&["foo", "bar"]) }),
    (&["--list", "..", "-u"], List { path: vec![] }),
    (&["--show", "../build"], Show { path: strings(&["build"]) }),
    (&["--usage", "a::b"], Usage { path: strings(&["a::b"]) }),
    (&["--clean"], Clean { paths: vec![] }),
    (
      &["-c", "ls", "-la", "x=1"],
      Command { binary: "ls".into(), arguments: strings(&["-la", "x=1"]) },
    ),
    (&["--completions", "ZSH"], Completions { shell: CompletionShell::Zsh }),
    (&["--json"], Dump),
    (&["--dump", "../"], Dump),
    (&["-e"], Edit),
    (&["--eval", "x=1", "foo::bar"], Evaluate { path: Some("foo::bar".into()) }),
    (&["--evaluate"], Evaluate { path: None }),
    (&["--format"], Format),
    (&["--check", "--fmt"], Format),
    (&["--initialize"], Init),
    (&["--choose", "x"], Choose),
    (&["--choose", "--group", "g"], Choose),
    (&["--check", "--summary"], Summary),
    (&["--group", "g", "foo"], Run { arguments: strings(&["foo"]) }),
    (&["--request", "{}"], Request { json: "{}".into() }),
    (&["--man"], Man),
    (&["--changelog"], Changelog),
    (&["--cheatsheet"], Cheatsheet),
    (&["--variables"], Variables),
    (&["--groups"], Groups),
    (&["--tree"], Tree { paths: vec![], all: false }),
    (&["--tree", "a", "sub::b"], Tree { paths: strings(&["a", "sub::b"]), all: false }),
    (&["--tree", "--all"], Tree { paths: vec![], all: true }),
    (
      &["--graph", "-u", "a"],
      Graph { paths: strings(&["a"]), all: false, format: GraphFormat::Dot },
    ),
    (
      &["--graph-format", "mermaid", "--graph", "--all"],
      Graph { paths: vec![], all: true, format: GraphFormat::Mermaid },
    ),
  ];
  for (args, expected) in cases {
    let config = parse_locked(args).unwrap_or_else(|error| panic!("{args:?}: {error}"));
    assert_eq!(config.subcommand, expected, "{args:?}");
  }
}

#[test]
fn search_configs() {
  let cases: Vec<(&[&str], SearchConfig)> = vec![
    (&["a"], SearchConfig::FromInvocationDirectory),
    (&["../build"], SearchConfig::FromSearchDirectory { search_directory: PathBuf::from("/inv") }),
    (
      &["--list", "sub/"],
      SearchConfig::FromSearchDirectory { search_directory: PathBuf::from("/inv/dir/sub") },
    ),
    (
      &["-f", "../j"],
      SearchConfig::WithJustfile { justfile: PathBuf::from("/inv/j"), working_directory: None },
    ),
    (
      &["-f", "j", "-d", "x/.."],
      SearchConfig::WithJustfile {
        justfile: PathBuf::from("/inv/dir/j"),
        working_directory: Some(PathBuf::from("/inv/dir")),
      },
    ),
    (&["-f", "-", "-d", "rel"], SearchConfig::Stdin { working_directory: Some("rel".into()) }),
    (&["-g"], SearchConfig::Global),
  ];
  for (args, expected) in cases {
    assert_eq!(parse_locked(args).unwrap().search, expected, "{args:?}");
  }
}

#[test]
fn errors() {
  let cases: &[(&[&str], i32, &str)] = &[
    (&["--frob"], 2, "error: unexpected argument '--frob' found"),
    (&["--list-submodules"], 2, "error: the following required arguments were not provided:"),
    (&["--group", "g"], 2, "error: the following required arguments were not provided:"),
    (&["--check", "foo"], 2, "error: the following required arguments were not provided:"),
    (&["-d", ".", "--summary"], 2, "error: the following required arguments were not provided:"),
    (&["--shell-command"], 2, "error: the following required arguments were not provided:"),
    (&["--list", "--summary"], 2, "error: the argument '--list [<MODULE>...]' cannot be used with '--summary'"),
    (&["--fmt", "--json"], 2, "error: the argument '--fmt' cannot be used with '--json'"),
    (&["-n", "-q"], 2, "error: the argument '--dry-run' cannot be used with '--quiet'"),
    (&["--dump-format", "json", "--json"], 2, "error: the argument '--dump-format <FORMAT>' cannot be used with '--json'"),
    (&["-g", "-f", "x"], 2, "error: the argument '--global-justfile' cannot be used with '--justfile <JUSTFILE>'"),
    (&["-F", "a", "-E", "b"], 2, "error: the argument '--dotenv-filename <DOTENV_FILENAME>' cannot be used with '--dotenv-path <DOTENV_PATH>'"),
    (&["--set", "a"], 2, "error: 2 values required for '--set <VARIABLE> <VALUE>' but 1 was provided"),
    (&["-c"], 2, "error: a value is required for '--command <COMMAND>...' but none was supplied"),
    (&["--jobs", "0"], 2, "error: invalid value '0' for '--jobs <N>': number would be zero for non-zero type"),
    (&["--color", "foo"], 2, "error: invalid value 'foo' for '--color <COLOR>'"),
    (&["--indentation", ""], 2, "error: invalid value '' for '--indentation <INDENTATION>': indentation must not be empty"),
    (&["--indentation", " \t"], 2, "error: invalid value ' \t' for '--indentation <INDENTATION>': indentation may not be mixed"),
    (&["--completions", "tcsh"], 2, "error: invalid value 'tcsh' for '--completions <SHELL>'"),
    (&["0::foo=1"], 1, "invalid override path `0::foo`"),
    (&["--set", "a:b", "1"], 1, "invalid override path `a:b`"),
    (&["-f", "x", "../foo"], 1, "path-prefixed recipes may not be used with `--global-justfile`, `--working-directory`, or `--justfile`"),
    (&["-g", ".."], 1, "path-prefixed recipes may not be used with `--global-justfile`, `--working-directory`, or `--justfile`"),
    (&["--fmt", "bar"], 1, "`--format` used with unexpected argument: `bar`"),
    (&["--json", "x", "y"], 1, "`--dump` used with unexpected arguments: `x` and `y`"),
    (&["--edit", "a", "b", "c"], 1, "`--edit` used with unexpected arguments: `a`, `b`, and `c`"),
    (&["--variables", "x=1", "y=2"], 1, "`--variables` used with unexpected overrides: `x=1` and `y=2`"),
    (&["--groups", "a=1", "b"], 1, "`--groups` used with unexpected overrides: `a=1`; and arguments: `b`"),
    (&["--dump", "--set", "s::x", "1"], 1, "`--dump` used with unexpected overrides: `s::x=1`"),
    (&["--evaluate", "a", "b", "c"], 1, "`--evaluate` used with unexpected arguments: `b` and `c`"),
    (&["--man", "../", "x"], 1, "`--man` used with unexpected argument: `x`"),
  ];
  for (args, code, message) in cases {
    assert_eq!(error_text(args), (*code, message.to_string()), "{args:?}");
  }
}

#[test]
fn help_and_version_exit_zero() {
  for args in [["--help"], ["-h"], ["--version"], ["-V"]] {
    match parse_locked(&args) {
      Err(ConfigError::Clap { source }) => assert_eq!(source.exit_code(), 0, "{args:?}"),
      other => panic!("{args:?}: {other:?}"),
    }
  }
  match parse_locked(&["--version"]) {
    Err(ConfigError::Clap { source }) => assert_eq!(source.render().to_string(), "just 1.58.0\n"),
    other => panic!("{other:?}"),
  }
}

#[test]
fn options() {
  let config = parse_locked(&[
    "--set",
    "a",
    "1",
    "--set",
    "s::b",
    "2",
    "-vv",
    "--justfile-name",
    "a,b",
    "--justfile-name",
    "c",
    "--no-highlight",
    "--highlight",
    "--jobs",
    "3",
    "--alias-style",
    "left",
    "-u",
    "--dump-format",
    "json",
    "a=3",
  ])
  .unwrap();
  let overrides: Vec<String> = config.overrides.iter().map(ToString::to_string).collect();
  assert_eq!(overrides, ["a=1", "s::b=2", "a=3"]);
  assert_eq!(config.overrides[1].module_path, ["s"]);
  assert_eq!(config.verbosity, 2);
  assert_eq!(config.justfile_names, Some(strings(&["a", "b", "c"])));
  assert!(config.highlight);
  assert_eq!(config.jobs, Some(3));
  assert_eq!(config.alias_style, AliasStyle::Left);
  assert!(config.unsorted);
  assert_eq!(config.dump_format, DumpFormat::Json);
  assert_eq!(config.list_heading, "Available recipes:\n");
  assert_eq!(config.list_prefix, "    ");
  assert_eq!(config.timestamp_format, "%H:%M:%S");

  assert!(!parse_locked(&["--highlight", "--no-highlight"]).unwrap().highlight);
  assert_eq!(parse_locked(&["--json"]).unwrap().dump_format, DumpFormat::Json);
}

#[test]
fn shell_arguments_last_wins() {
  let cases: &[(&[&str], Option<&[&str]>)] = &[
    (&[], None),
    (&["--clear-shell-args"], Some(&[])),
    (&["--shell-arg", "a", "--clear-shell-args"], Some(&[])),
    (&["--clear-shell-args", "--shell-arg", "b"], Some(&["b"])),
    (&["--shell-arg", "-a", "--shell-arg", "-b"], Some(&["-a", "-b"])),
    (&["--shell-arg", "a", "--clear-shell-args", "--shell-arg", "c"], Some(&["c"])),
  ];
  for (args, expected) in cases {
    let expected = expected.map(strings);
    assert_eq!(parse_locked(args).unwrap().shell_args, expected, "{args:?}");
  }
}

#[test]
fn environment_variables() {
  let unstable = |value: &str| {
    with_env(&[("JUST_UNSTABLE", value)], || parse(&[]).map(|config| config.unstable)).unwrap()
  };
  for value in ["", "0", "false", "F", "no", "N", "off", "OFF"] {
    assert!(!unstable(value), "{value:?}");
  }
  for value in ["1", "true", "yes", "x"] {
    assert!(unstable(value), "{value:?}");
  }

  let config = with_env(
    &[
      ("JUST_VERBOSE", "3"),
      ("JUST_JUSTFILE_NAME", "x,y"),
      ("JUST_DRY_RUN", "true"),
      ("JUST_LIST_HEADING", "Recipes:"),
    ],
    || parse(&[]),
  )
  .unwrap();
  assert_eq!(config.verbosity, 3);
  assert_eq!(config.justfile_names, Some(strings(&["x", "y"])));
  assert!(config.dry_run);
  assert_eq!(config.list_heading, "Recipes:");

  let error = |vars: &[(&str, &str)], args: &[&str]| {
    with_env(vars, || match parse(args) {
      Err(ConfigError::Clap { source }) => {
        (source.exit_code(), source.render().to_string().lines().next().unwrap_or("").to_owned())
      }
      other => panic!("{vars:?}: {other:?}"),
    })
  };
  assert_eq!(
    error(&[("JUST_DRY_RUN", "1")], &[]),
    (2, "error: invalid value '1' for '--dry-run'".into())
  );
  assert_eq!(
    error(&[("JUST_NO_ALIASES", "true")], &["--alias-style", "left"]),
    (
      2,
      "error: the argument '--alias-style <ALIAS_STYLE>' cannot be used with '--no-aliases'".into()
    )
  );
  assert_eq!(
    error(&[("JUST_VERBOSE", "x")], &[]),
    (2, "error: invalid value 'x' for '--verbose...': invalid digit found in string".into())
  );
}

/// Each row reads its own value: every word of a choice, given on the
/// command line, makes a configuration of its own (an alias the same as the
/// word it stands for).
#[test]
fn every_choice_word_gives_its_own_configuration() {
  for flag in FLAGS {
    let Takes::Value(_, Kind::Choice(words)) = flag.takes else { continue };
    let required = flag.requires.map(|required| format!("--{required}"));
    let long = format!("--{}", flag.long);
    let configuration = |word: &str| {
      let mut line: Vec<&str> = required.iter().map(String::as_str).collect();
      line.extend([long.as_str(), word]);
      let config = parse_locked(&line).unwrap_or_else(|error| panic!("{line:?}: {error}"));
      format!("{config:?}")
    };
    let mut seen: Vec<String> = Vec::new();
    for word in words.listed {
      let config = configuration(word);
      assert!(!seen.contains(&config), "{long} {word}: the same as another word");
      seen.push(config);
    }
    for (alias, listed) in words.aliases {
      assert_eq!(configuration(alias), configuration(listed), "{long} {alias}");
    }
    if let Some(default) = flag.default {
      assert!(words.listed.contains(&default), "{long}: default {default}");
    }
  }
}
