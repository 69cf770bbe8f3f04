//! Built-in functions: the name table with
//! arities and parameter kinds, and the dispatcher.

mod docs;
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
pub(crate) enum Arity {
  Exact(usize),
  /// From the first to the second count, inclusive.
  Optional(usize, usize),
  AtLeast(usize),
}

impl Arity {
  pub(crate) fn accepts(self, count: usize) -> bool {
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
pub(crate) struct FunctionContext<'a> {
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
  pub(crate) fn new(directory: &'a Path, justfile: &'a Path) -> Self {
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

/// What the table says about one built-in function: its signature and its
/// implementation.
struct Builtin {
  arity: Arity,
  /// Indices of parameters that accept any list; the others need one string.
  value_parameters: &'static [usize],
  /// Only callable under `set lists`.
  requires_lists: bool,
  implementation: Implementation,
}

/// Defines `Function` and its table from one list, so that a function and
/// its row cannot disagree.
macro_rules! functions {
  ($(
    $function:ident => $name:literal, $arity:expr, values: $values:expr, lists: $lists:literal,
      $implementation:path;
  )*) => {
    /// A built-in function.
    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub(crate) enum Function {
      $($function,)*
    }

    impl Function {
      /// Every built-in function, in table order.
      pub(crate) const ALL: &'static [Function] = &[$(Function::$function,)*];

      /// The function of a canonical name (see `canonical_name`).
      fn from_canonical_name(name: &str) -> Option<Function> {
        match name {
          $($name => Some(Function::$function),)*
          _ => None,
        }
      }

      /// The canonical name.
      pub(crate) fn name(self) -> &'static str {
        match self {
          $(Function::$function => $name,)*
        }
      }
    }

    /// Indexed by `Function as usize`.
    const BUILTINS: &[Builtin] = &[$(
      Builtin {
        arity: $arity,
        value_parameters: $values,
        requires_lists: $lists,
        implementation: $implementation,
      },
    )*];
  };
}

use Arity::{AtLeast, Exact, Optional};

functions! {
  // system information
  Arch => "arch", Exact(0), values: &[], lists: false, system::arch;
  Os => "os", Exact(0), values: &[], lists: false, system::os;
  OsFamily => "os_family", Exact(0), values: &[], lists: false, system::os_family;
  NumCpus => "num_cpus", Exact(0), values: &[], lists: false, system::num_cpus;
  // environment
  Env => "env", Optional(1, 2), values: &[0, 1], lists: false, system::env;
  EnvVar => "env_var", Exact(1), values: &[0], lists: false, system::env;
  EnvVarOrDefault => "env_var_or_default", Exact(2), values: &[0, 1], lists: false, system::env;
  // invocation, justfile and module paths
  InvocationDirectory => "invocation_directory", Exact(0), values: &[], lists: false, system::invocation_directory;
  InvocationDirectoryNative => "invocation_directory_native", Exact(0), values: &[], lists: false, system::invocation_directory_native;
  Justfile => "justfile", Exact(0), values: &[], lists: false, system::justfile;
  JustfileDirectory => "justfile_directory", Exact(0), values: &[], lists: false, system::justfile_directory;
  SourceFile => "source_file", Exact(0), values: &[], lists: false, system::source_file;
  SourceDirectory => "source_directory", Exact(0), values: &[], lists: false, system::source_directory;
  ModuleFile => "module_file", Exact(0), values: &[], lists: false, system::module_file;
  ModuleDirectory => "module_directory", Exact(0), values: &[], lists: false, system::module_directory;
  ModulePath => "module_path", Exact(0), values: &[], lists: false, system::module_path;
  RecipeName => "recipe_name", Exact(0), values: &[], lists: false, system::recipe_name;
  IsDependency => "is_dependency", Exact(0), values: &[], lists: false, system::is_dependency;
  // just process
  JustExecutable => "just_executable", Exact(0), values: &[], lists: false, system::just_executable;
  JustPid => "just_pid", Exact(0), values: &[], lists: false, system::just_pid;
  JustVersion => "just_version", Exact(0), values: &[], lists: false, system::just_version;
  NumJobs => "num_jobs", Exact(0), values: &[], lists: true, system::num_jobs;
  // user directories
  CacheDirectory => "cache_directory", Exact(0), values: &[], lists: false, system::cache_directory;
  ConfigDirectory => "config_directory", Exact(0), values: &[], lists: false, system::config_directory;
  ConfigLocalDirectory => "config_local_directory", Exact(0), values: &[], lists: false, system::config_local_directory;
  DataDirectory => "data_directory", Exact(0), values: &[], lists: false, system::data_directory;
  DataLocalDirectory => "data_local_directory", Exact(0), values: &[], lists: false, system::data_local_directory;
  ExecutableDirectory => "executable_directory", Exact(0), values: &[], lists: false, system::executable_directory;
  HomeDirectory => "home_directory", Exact(0), values: &[], lists: false, system::home_directory;
  RuntimeDirectory => "runtime_directory", Exact(0), values: &[], lists: false, system::runtime_directory;
  // external commands
  Shell => "shell", AtLeast(1), values: &[], lists: false, system::shell;
  Which => "which", Exact(1), values: &[], lists: true, paths::which;
  Require => "require", Exact(1), values: &[], lists: false, paths::require;
  // strings
  Append => "append", Exact(2), values: &[1], lists: false, strings::append;
  Prepend => "prepend", Exact(2), values: &[1], lists: false, strings::prepend;
  EncodeUriComponent => "encode_uri_component", Exact(1), values: &[], lists: false, strings::encode_uri_component;
  Quote => "quote", Exact(1), values: &[0], lists: false, strings::quote;
  Replace => "replace", Exact(3), values: &[], lists: false, strings::replace;
  ReplaceRegex => "replace_regex", Exact(3), values: &[], lists: false, strings::replace_regex;
  Trim => "trim", Exact(1), values: &[], lists: false, strings::trim;
  TrimStart => "trim_start", Exact(1), values: &[], lists: false, strings::trim_start;
  TrimEnd => "trim_end", Exact(1), values: &[], lists: false, strings::trim_end;
  TrimStartMatch => "trim_start_match", Exact(2), values: &[], lists: false, strings::trim_start_match;
  TrimStartMatches => "trim_start_matches", Exact(2), values: &[], lists: false, strings::trim_start_matches;
  TrimEndMatch => "trim_end_match", Exact(2), values: &[], lists: false, strings::trim_end_match;
  TrimEndMatches => "trim_end_matches", Exact(2), values: &[], lists: false, strings::trim_end_matches;
  Len => "len", Exact(1), values: &[0], lists: false, strings::len;
  // case conversion
  Lowercase => "lowercase", Exact(1), values: &[], lists: false, strings::lowercase;
  Uppercase => "uppercase", Exact(1), values: &[], lists: false, strings::uppercase;
  Capitalize => "capitalize", Exact(1), values: &[], lists: false, strings::capitalize;
  Snakecase => "snakecase", Exact(1), values: &[], lists: false, strings::snakecase;
  Kebabcase => "kebabcase", Exact(1), values: &[], lists: false, strings::kebabcase;
  Shoutysnakecase => "shoutysnakecase", Exact(1), values: &[], lists: false, strings::shoutysnakecase;
  Shoutykebabcase => "shoutykebabcase", Exact(1), values: &[], lists: false, strings::shoutykebabcase;
  Lowercamelcase => "lowercamelcase", Exact(1), values: &[], lists: false, strings::lowercamelcase;
  Uppercamelcase => "uppercamelcase", Exact(1), values: &[], lists: false, strings::uppercamelcase;
  Titlecase => "titlecase", Exact(1), values: &[], lists: false, strings::titlecase;
  // paths
  AbsolutePath => "absolute_path", Exact(1), values: &[0], lists: false, paths::absolute_path;
  Canonicalize => "canonicalize", Exact(1), values: &[], lists: false, paths::canonicalize;
  Extension => "extension", Exact(1), values: &[], lists: false, paths::extension;
  FileName => "file_name", Exact(1), values: &[], lists: false, paths::file_name;
  FileStem => "file_stem", Exact(1), values: &[], lists: false, paths::file_stem;
  ParentDirectory => "parent_directory", Exact(1), values: &[], lists: false, paths::parent_directory;
  WithoutExtension => "without_extension", Exact(1), values: &[], lists: false, paths::without_extension;
  Clean => "clean", Exact(1), values: &[], lists: false, paths::clean_function;
  Join => "join", AtLeast(2), values: &[], lists: false, paths::join;
  // filesystem
  PathExists => "path_exists", Exact(1), values: &[], lists: false, paths::path_exists;
  Read => "read", Exact(1), values: &[], lists: false, paths::read;
  // hashing, uuid, random
  Sha256 => "sha256", Exact(1), values: &[], lists: false, system::sha256;
  Sha256File => "sha256_file", Exact(1), values: &[], lists: false, paths::sha256_file;
  Blake3 => "blake3", Exact(1), values: &[], lists: false, system::blake3;
  Blake3File => "blake3_file", Exact(1), values: &[], lists: false, paths::blake3_file;
  Uuid => "uuid", Exact(0), values: &[], lists: false, system::uuid;
  Choose => "choose", Exact(2), values: &[], lists: false, system::choose;
  // date and time
  Datetime => "datetime", Exact(1), values: &[], lists: false, system::datetime;
  DatetimeUtc => "datetime_utc", Exact(1), values: &[], lists: false, system::datetime_utc;
  // semver
  SemverMatches => "semver_matches", Exact(2), values: &[], lists: false, system::semver_matches;
  // styles
  Style => "style", Optional(1, 2), values: &[0], lists: false, style::style;
  // errors
  Error => "error", Exact(1), values: &[], lists: false, system::error;
  // lists
  Bool => "bool", Exact(1), values: &[0], lists: true, strings::bool;
  JoinList => "join_list", Optional(1, 2), values: &[0], lists: true, strings::join_list;
  Show => "show", Exact(1), values: &[0], lists: true, strings::show;
  Split => "split", Optional(1, 2), values: &[], lists: true, strings::split;
}

impl Function {
  /// The function called `name` as written (`_dir` suffixes included).
  pub(crate) fn from_name(name: &str) -> Option<Function> {
    Function::from_canonical_name(&canonical_name(name))
  }

  /// The function at `index` of the table (`function as usize`).
  pub(crate) fn from_index(index: usize) -> Option<Function> {
    Function::ALL.get(index).copied()
  }

  fn builtin(self) -> &'static Builtin {
    &BUILTINS[self as usize]
  }

  pub(crate) fn arity(self) -> Arity {
    self.builtin().arity
  }

  /// Whether the function may only be called under `set lists`.
  pub(crate) fn requires_lists(self) -> bool {
    self.builtin().requires_lists
  }
}

/// Applies the `_dir` → `_directory` and `_dir_native` →
/// `_directory_native` suffix rewriting.
pub(crate) fn canonical_name(name: &str) -> Cow<'_, str> {
  if let Some(stem) = name.strip_suffix("_dir") {
    Cow::Owned(format!("{stem}_directory"))
  } else if let Some(stem) = name.strip_suffix("_dir_native") {
    Cow::Owned(format!("{stem}_directory_native"))
  } else {
    Cow::Borrowed(name)
  }
}

/// Call built-in `name` (as written). Err holds the MESSAGE that follows
/// ``call to function `NAME` failed: ``.
pub(crate) fn call(
  name: &str,
  arguments: Vec<Value>,
  context: &FunctionContext,
) -> Result<Value, String> {
  let Some(function) = Function::from_name(name) else {
    return Err(format!("call to undefined function `{name}`"));
  };
  call_function(function, name, arguments, context)
}

/// Call built-in `function`, written `name`. Err as for `call`.
pub(crate) fn call_function(
  function: Function,
  name: &str,
  arguments: Vec<Value>,
  context: &FunctionContext,
) -> Result<Value, String> {
  let builtin = function.builtin();
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

/// The list-argument check of `call_function`, on its own: its message is
/// reported without the ``call to function `NAME` failed: `` prefix.
pub(crate) fn check_function_list_arguments(
  function: Function,
  name: &str,
  arguments: &[Value],
) -> Result<(), String> {
  check_string_parameters(name, function.builtin(), arguments)
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
  fn names_round_trip() {
    for (index, &function) in Function::ALL.iter().enumerate() {
      assert_eq!(function as usize, index);
      assert_eq!(Function::from_name(function.name()), Some(function));
    }
    assert_eq!(Function::from_name("home_dir"), Some(Function::HomeDirectory));
    assert_eq!(Function::from_name("nope"), None);
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

  fn arity(name: &str) -> Option<Arity> {
    Function::from_name(name).map(Function::arity)
  }

  fn requires_lists(name: &str) -> bool {
    Function::from_name(name).is_some_and(Function::requires_lists)
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
    let gated: Vec<&str> = Function::ALL
      .iter()
      .filter(|function| function.requires_lists())
      .map(|function| function.name())
      .collect();
    assert_eq!(gated, ["num_jobs", "which", "bool", "join_list", "show", "split"]);
    for name in gated {
      assert!(requires_lists(name));
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
