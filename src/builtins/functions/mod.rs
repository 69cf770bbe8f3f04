//! Built-in functions: the name table with
//! arities and parameter kinds, and the dispatcher.

mod paths;
mod strings;
mod style;
mod system;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::{self, Display, Formatter};
use std::path::Path;

use nu_ansi_term::Color;

use crate::builtins::process::CommandEnvironment;
use crate::builtins::value::Value;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arity {
  Exact(usize),
  /// From the first to the second count, inclusive.
  Optional(usize, usize),
  AtLeast(usize),
}

impl Arity {
  pub fn accepts(self, count: usize) -> bool {
    match self {
      Arity::Exact(n) => count == n,
      Arity::Optional(low, high) => (low..=high).contains(&count),
      Arity::AtLeast(low) => count >= low,
    }
  }
}

impl Display for Arity {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    match self {
      Arity::Exact(n) => write!(f, "{n}"),
      Arity::Optional(low, high) => write!(f, "{low} to {high}"),
      Arity::AtLeast(low) => write!(f, "{low} or more"),
    }
  }
}

/// Everything built-in functions may need from the evaluator.
#[derive(Debug, Clone)]
pub struct FunctionContext<'a> {
  /// W: the module's working directory.
  pub working_directory: &'a Path,
  pub invocation_directory: &'a Path,
  /// `--cygpath`: the converter of Windows paths to Unix ones.
  pub cygpath: &'a Path,
  /// The root justfile.
  pub justfile: &'a Path,
  /// The file containing the call.
  pub source_file: &'a Path,
  /// The current module's source file.
  pub module_file: &'a Path,
  /// `[]` in the root module.
  pub module_path: &'a [String],
  /// The recipe being run, if any.
  pub recipe_name: Option<&'a str>,
  pub is_dependency: bool,
  /// The module's dotenv variables, consulted first by `env()`.
  pub dotenv: &'a BTreeMap<String, String>,
  pub lists: bool,
  pub dry_run: bool,
  /// `--jobs N`.
  pub jobs: Option<usize>,
  /// Whether `just` colours stdout / stderr (for `style("stdout")` etc.).
  pub stdout_color: bool,
  pub stderr_color: bool,
  /// `--command-color`, for `style("command")`.
  pub command_color: Option<Color>,
  /// The shell used by `shell()`.
  pub shell_program: &'a str,
  pub shell_arguments: &'a [String],
  /// Environment changes for `shell()` (dotenv, exports, `[env]`).
  pub environment: &'a CommandEnvironment,
  /// `--quiet`: `shell()` stderr is discarded.
  pub quiet: bool,
  /// Starts and tracks `shell()`'s process; None outside a run.
  pub supervisor: Option<&'a crate::platform::supervisor::Supervisor>,
}

#[cfg(test)]
static NO_DOTENV: BTreeMap<String, String> = BTreeMap::new();
#[cfg(test)]
static NO_ENVIRONMENT: CommandEnvironment = CommandEnvironment::new();
#[cfg(test)]
static DEFAULT_SHELL_ARGUMENTS: [String; 0] = [];

#[cfg(test)]
impl<'a> FunctionContext<'a> {
  /// A context for a top-level assignment of the root module in `directory`
  /// with default options (`sh -cu`, no lists, no recipe).
  pub fn new(directory: &'a Path, justfile: &'a Path) -> Self {
    FunctionContext {
      working_directory: directory,
      invocation_directory: directory,
      cygpath: Path::new("cygpath"),
      justfile,
      source_file: justfile,
      module_file: justfile,
      module_path: &[],
      recipe_name: None,
      is_dependency: false,
      dotenv: &NO_DOTENV,
      lists: false,
      dry_run: false,
      jobs: None,
      stdout_color: false,
      stderr_color: false,
      command_color: None,
      shell_program: "sh",
      shell_arguments: &DEFAULT_SHELL_ARGUMENTS,
      environment: &NO_ENVIRONMENT,
      quiet: false,
      supervisor: None,
    }
  }
}

type Implementation = fn(&[Value], &FunctionContext) -> Result<Value, String>;

struct Builtin {
  name: &'static str,
  arity: Arity,
  /// Indices of parameters that accept any list; the others need one string.
  value_parameters: &'static [usize],
  implementation: Implementation,
}

const fn builtin(
  name: &'static str,
  arity: Arity,
  value_parameters: &'static [usize],
  implementation: Implementation,
) -> Builtin {
  Builtin { name, arity, value_parameters, implementation }
}

use Arity::{AtLeast, Exact, Optional};

const BUILTINS: &[Builtin] = &[
  // system information
  builtin("arch", Exact(0), &[], system::arch),
  builtin("os", Exact(0), &[], system::os),
  builtin("os_family", Exact(0), &[], system::os_family),
  builtin("num_cpus", Exact(0), &[], system::num_cpus),
  // environment
  builtin("env", Optional(1, 2), &[0, 1], system::env),
  builtin("env_var", Exact(1), &[0], system::env),
  builtin("env_var_or_default", Exact(2), &[0, 1], system::env),
  // invocation, justfile and module paths
  builtin("invocation_directory", Exact(0), &[], system::invocation_directory),
  builtin("invocation_directory_native", Exact(0), &[], system::invocation_directory_native),
  builtin("justfile", Exact(0), &[], system::justfile),
  builtin("justfile_directory", Exact(0), &[], system::justfile_directory),
  builtin("source_file", Exact(0), &[], system::source_file),
  builtin("source_directory", Exact(0), &[], system::source_directory),
  builtin("module_file", Exact(0), &[], system::module_file),
  builtin("module_directory", Exact(0), &[], system::module_directory),
  builtin("module_path", Exact(0), &[], system::module_path),
  builtin("recipe_name", Exact(0), &[], system::recipe_name),
  builtin("is_dependency", Exact(0), &[], system::is_dependency),
  // just process
  builtin("just_executable", Exact(0), &[], system::just_executable),
  builtin("just_pid", Exact(0), &[], system::just_pid),
  builtin("just_version", Exact(0), &[], system::just_version),
  builtin("num_jobs", Exact(0), &[], system::num_jobs),
  // user directories
  builtin("cache_directory", Exact(0), &[], system::cache_directory),
  builtin("config_directory", Exact(0), &[], system::config_directory),
  builtin("config_local_directory", Exact(0), &[], system::config_local_directory),
  builtin("data_directory", Exact(0), &[], system::data_directory),
  builtin("data_local_directory", Exact(0), &[], system::data_local_directory),
  builtin("executable_directory", Exact(0), &[], system::executable_directory),
  builtin("home_directory", Exact(0), &[], system::home_directory),
  builtin("runtime_directory", Exact(0), &[], system::runtime_directory),
  // external commands
  builtin("shell", AtLeast(1), &[], system::shell),
  builtin("which", Exact(1), &[], paths::which),
  builtin("require", Exact(1), &[], paths::require),
  // strings
  builtin("append", Exact(2), &[1], strings::append),
  builtin("prepend", Exact(2), &[1], strings::prepend),
  builtin("encode_uri_component", Exact(1), &[], strings::encode_uri_component),
  builtin("quote", Exact(1), &[0], strings::quote),
  builtin("replace", Exact(3), &[], strings::replace),
  builtin("replace_regex", Exact(3), &[], strings::replace_regex),
  builtin("trim", Exact(1), &[], strings::trim),
  builtin("trim_start", Exact(1), &[], strings::trim_start),
  builtin("trim_end", Exact(1), &[], strings::trim_end),
  builtin("trim_start_match", Exact(2), &[], strings::trim_start_match),
  builtin("trim_start_matches", Exact(2), &[], strings::trim_start_matches),
  builtin("trim_end_match", Exact(2), &[], strings::trim_end_match),
  builtin("trim_end_matches", Exact(2), &[], strings::trim_end_matches),
  builtin("len", Exact(1), &[0], strings::len),
  // case conversion
  builtin("lowercase", Exact(1), &[], strings::lowercase),
  builtin("uppercase", Exact(1), &[], strings::uppercase),
  builtin("capitalize", Exact(1), &[], strings::capitalize),
  builtin("snakecase", Exact(1), &[], strings::snakecase),
  builtin("kebabcase", Exact(1), &[], strings::kebabcase),
  builtin("shoutysnakecase", Exact(1), &[], strings::shoutysnakecase),
  builtin("shoutykebabcase", Exact(1), &[], strings::shoutykebabcase),
  builtin("lowercamelcase", Exact(1), &[], strings::lowercamelcase),
  builtin("uppercamelcase", Exact(1), &[], strings::uppercamelcase),
  builtin("titlecase", Exact(1), &[], strings::titlecase),
  // paths
  builtin("absolute_path", Exact(1), &[0], paths::absolute_path),
  builtin("canonicalize", Exact(1), &[], paths::canonicalize),
  builtin("extension", Exact(1), &[], paths::extension),
  builtin("file_name", Exact(1), &[], paths::file_name),
  builtin("file_stem", Exact(1), &[], paths::file_stem),
  builtin("parent_directory", Exact(1), &[], paths::parent_directory),
  builtin("without_extension", Exact(1), &[], paths::without_extension),
  builtin("clean", Exact(1), &[], paths::clean_function),
  builtin("join", AtLeast(2), &[], paths::join),
  // filesystem
  builtin("path_exists", Exact(1), &[], paths::path_exists),
  builtin("read", Exact(1), &[], paths::read),
  // hashing, uuid, random
  builtin("sha256", Exact(1), &[], system::sha256),
  builtin("sha256_file", Exact(1), &[], paths::sha256_file),
  builtin("blake3", Exact(1), &[], system::blake3),
  builtin("blake3_file", Exact(1), &[], paths::blake3_file),
  builtin("uuid", Exact(0), &[], system::uuid),
  builtin("choose", Exact(2), &[], system::choose),
  // date and time
  builtin("datetime", Exact(1), &[], system::datetime),
  builtin("datetime_utc", Exact(1), &[], system::datetime_utc),
  // semver
  builtin("semver_matches", Exact(2), &[], system::semver_matches),
  // styles
  builtin("style", Optional(1, 2), &[0], style::style),
  // errors
  builtin("error", Exact(1), &[], system::error),
  // lists
  builtin("bool", Exact(1), &[0], strings::bool),
  builtin("join_list", Optional(1, 2), &[0], strings::join_list),
  builtin("show", Exact(1), &[0], strings::show),
  builtin("split", Optional(1, 2), &[], strings::split),
];

const LIST_FUNCTIONS: &[&str] = &["bool", "join_list", "num_jobs", "show", "split", "which"];

/// Applies the `_dir` → `_directory` and `_dir_native` →
/// `_directory_native` suffix rewriting.
pub fn canonical_name(name: &str) -> Cow<'_, str> {
  if let Some(stem) = name.strip_suffix("_dir") {
    Cow::Owned(format!("{stem}_directory"))
  } else if let Some(stem) = name.strip_suffix("_dir_native") {
    Cow::Owned(format!("{stem}_directory_native"))
  } else {
    Cow::Borrowed(name)
  }
}

fn lookup(name: &str) -> Option<&'static Builtin> {
  let canonical = canonical_name(name);
  BUILTINS.iter().find(|builtin| builtin.name == canonical)
}

/// The arity of built-in `name` (as written); None if it is not a built-in.
pub fn arity(name: &str) -> Option<Arity> {
  lookup(name).map(|builtin| builtin.arity)
}

/// Whether built-in `name` (as written) needs `set lists`.
pub fn requires_lists(name: &str) -> bool {
  LIST_FUNCTIONS.contains(&canonical_name(name).as_ref())
}

/// Call built-in `name` (as written). Err holds the MESSAGE that follows
/// ``call to function `NAME` failed: ``.
pub fn call(name: &str, arguments: Vec<Value>, context: &FunctionContext) -> Result<Value, String> {
  let Some(builtin) = lookup(name) else {
    return Err(format!("call to undefined function `{name}`"));
  };
  if !builtin.arity.accepts(arguments.len()) {
    return Err(format!(
      "function `{name}` called with {} but takes {}",
      argument_count(arguments.len()),
      builtin.arity
    ));
  }
  check_string_parameters(name, builtin, &arguments)?;
  (builtin.implementation)(&arguments, context)
}

/// The list-argument check of `call`, on its own: its message is reported
/// without the ``call to function `NAME` failed: `` prefix.
pub fn check_list_arguments(name: &str, arguments: &[Value]) -> Result<(), String> {
  match lookup(name) {
    Some(builtin) => check_string_parameters(name, builtin, arguments),
    None => Ok(()),
  }
}

fn argument_count(count: usize) -> String {
  if count == 1 {
    "1 argument".into()
  } else {
    format!("{count} arguments")
  }
}

fn check_string_parameters(
  name: &str,
  builtin: &Builtin,
  arguments: &[Value],
) -> Result<(), String> {
  for (index, argument) in arguments.iter().enumerate() {
    if !builtin.value_parameters.contains(&index) && argument.as_single().is_none() {
      return Err(format!(
        "list value {} passed to `{name}()`\n\
         the behavior of lists with many built-in functions is undecided\n\
         see https://github.com/casey/just#lists",
        argument.show(),
      ));
    }
  }
  Ok(())
}

/// The string argument at `index` (checked single-element by `call`).
fn text(arguments: &[Value], index: usize) -> &str {
  arguments.get(index).and_then(Value::as_single).unwrap_or("")
}

#[cfg(test)]
pub(crate) mod tests {
  use super::*;

  pub(crate) fn strings(values: &[&str]) -> Vec<Value> {
    values.iter().map(|value| Value::string(*value)).collect()
  }

  /// Call with string arguments in a context rooted at `/tmp`.
  pub(crate) fn eval(name: &str, arguments: &[&str]) -> Result<String, String> {
    let context = FunctionContext::new(Path::new("/tmp"), Path::new("/tmp/justfile"));
    call(name, strings(arguments), &context).map(|value| value.joined())
  }

  #[test]
  fn arity_display() {
    let cases =
      [(Exact(0), "0"), (Exact(1), "1"), (Optional(1, 2), "1 to 2"), (AtLeast(2), "2 or more")];
    for (arity, expected) in cases {
      assert_eq!(arity.to_string(), expected);
    }
  }

  #[test]
  fn canonical_names() {
    let cases = [
      ("home_dir", "home_directory"),
      ("invocation_dir_native", "invocation_directory_native"),
      ("parent_dir", "parent_directory"),
      ("dir", "dir"),
      ("home_directory", "home_directory"),
      ("sha256", "sha256"),
    ];
    for (name, expected) in cases {
      assert_eq!(canonical_name(name), expected);
    }
  }

  #[test]
  fn arities() {
    let cases = [
      ("env", Some(Optional(1, 2))),
      ("cache_dir", Some(Exact(0))),
      ("join", Some(AtLeast(2))),
      ("shell", Some(AtLeast(1))),
      ("replace", Some(Exact(3))),
      ("style", Some(Optional(1, 2))),
      ("nope", None),
      ("assert", None),
      ("source_dir", Some(Exact(0))),
    ];
    for (name, expected) in cases {
      assert_eq!(arity(name), expected, "{name}");
    }
  }

  #[test]
  fn list_gated_names() {
    for name in LIST_FUNCTIONS {
      assert!(requires_lists(name));
      assert!(arity(name).is_some());
    }
    assert!(!requires_lists("len"));
    assert!(!requires_lists("env"));
  }

  #[test]
  fn wrong_argument_count() {
    assert_eq!(
      eval("env", &[]).unwrap_err(),
      "function `env` called with 0 arguments but takes 1 to 2"
    );
    assert_eq!(
      eval("uuid", &["a"]).unwrap_err(),
      "function `uuid` called with 1 argument but takes 0"
    );
  }

  #[test]
  fn list_passed_as_string() {
    let context = FunctionContext::new(Path::new("/tmp"), Path::new("/tmp/justfile"));
    let list = Value(vec!["a".into(), "b".into()]);
    assert_eq!(
      call("uppercase", vec![list], &context).unwrap_err(),
      "list value [\"a\", \"b\"] passed to `uppercase()`\n\
       the behavior of lists with many built-in functions is undecided\n\
       see https://github.com/casey/just#lists"
    );
    let message = call("parent_dir", vec![Value::empty_list()], &context).unwrap_err();
    assert!(message.starts_with("list value [] passed to `parent_dir()`\n"), "{message}");
  }
}
