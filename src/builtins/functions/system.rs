//! System information, environment, paths of the invocation, `shell()`,
//! hashing, randomness, time, semver and `error()`.

use std::path::{Path, PathBuf};

use chrono::format::StrftimeItems;
use chrono::{DateTime, Local, TimeZone, Utc};
use rand::Rng;
use sha2::{Digest, Sha256};

use super::{text, FunctionContext};
use crate::builtins::process::{capture_stdout, is_windows_shell};
use crate::builtins::value::{quote_escaped, Value};
use crate::platform::supervisor::Supervisor;

type Result = std::result::Result<Value, String>;

pub(super) fn arch(_: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(std::env::consts::ARCH))
}

pub(super) fn os(_: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(std::env::consts::OS))
}

pub(super) fn os_family(_: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(std::env::consts::FAMILY))
}

pub(super) fn num_cpus(_: &[Value], _: &FunctionContext) -> Result {
  let count = std::thread::available_parallelism().map_or(1, usize::from);
  Ok(Value::string(count.to_string()))
}

/// `env`, `env_var` and `env_var_or_default`: the first key that is set.
pub(super) fn env(arguments: &[Value], context: &FunctionContext) -> Result {
  let keys = arguments.first().map_or(&[][..], Value::elements);
  for key in keys {
    if let Some(value) = context.dotenv.get(key) {
      return Ok(Value::string(value.clone()));
    }
    match std::env::var(key) {
      Ok(value) => return Ok(Value::string(value)),
      Err(std::env::VarError::NotPresent) => {}
      Err(std::env::VarError::NotUnicode(os)) => {
        return Err(format!(
          "environment variable `{key}` is not unicode: `{}`",
          os.to_string_lossy()
        ))
      }
    }
  }
  if let Some(default) = arguments.get(1) {
    return Ok(default.clone());
  }
  match keys {
    [] => Err("empty environment variable list with no default".into()),
    [key] => Err(format!("environment variable `{key}` not present")),
    keys => Err(format!("environment variables {} not present", crate::text::ticked(keys, "and"))),
  }
}

fn path_value(path: &Path, what: &str) -> Result {
  path
    .to_str()
    .map(Value::string)
    .ok_or_else(|| format!("{what} is not valid unicode: {}", path.display()))
}

fn parent_or_self(path: &Path) -> &Path {
  path.parent().unwrap_or(path)
}

pub(super) fn invocation_directory(_: &[Value], context: &FunctionContext) -> Result {
  if let Some(unix) =
    crate::platform::command::unix_path(context.invocation_directory, context.cygpath)
  {
    return Ok(Value::string(unix));
  }
  context.invocation_directory.to_str().map(Value::string).ok_or_else(|| {
    "error getting shell path: Error getting current directory: unicode decode error".into()
  })
}

pub(super) fn invocation_directory_native(_: &[Value], context: &FunctionContext) -> Result {
  path_value(context.invocation_directory, "invocation directory")
}

pub(super) fn justfile(_: &[Value], context: &FunctionContext) -> Result {
  path_value(context.justfile, "justfile path")
}

pub(super) fn justfile_directory(_: &[Value], context: &FunctionContext) -> Result {
  let parent = context.justfile.parent().ok_or_else(|| {
    format!(
      "could not resolve justfile directory, justfile `{}` had no parent",
      context.justfile.display()
    )
  })?;
  path_value(parent, "justfile directory")
}

pub(super) fn source_file(_: &[Value], context: &FunctionContext) -> Result {
  path_value(context.source_file, "source file path")
}

pub(super) fn source_directory(_: &[Value], context: &FunctionContext) -> Result {
  path_value(parent_or_self(context.source_file), "source file path")
}

pub(super) fn module_file(_: &[Value], context: &FunctionContext) -> Result {
  path_value(context.module_file, "module file path")
}

pub(super) fn module_directory(_: &[Value], context: &FunctionContext) -> Result {
  path_value(parent_or_self(context.module_file), "module directory")
}

pub(super) fn module_path(_: &[Value], context: &FunctionContext) -> Result {
  Ok(Value::string(context.module_path.join("::")))
}

pub(super) fn recipe_name(_: &[Value], context: &FunctionContext) -> Result {
  context
    .recipe_name
    .map(Value::string)
    .ok_or_else(|| "`recipe_name()` can only be used within a recipe".into())
}

pub(super) fn is_dependency(_: &[Value], context: &FunctionContext) -> Result {
  Ok(Value::boolean(context.is_dependency, context.lists))
}

pub(super) fn just_executable(_: &[Value], _: &FunctionContext) -> Result {
  let executable = std::env::current_exe()
    .map_err(|error| format!("error getting current executable: {error}"))?;
  path_value(&executable, "executable path")
}

pub(super) fn just_pid(_: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(std::process::id().to_string()))
}

pub(super) fn just_version(_: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(env!("CARGO_PKG_VERSION")))
}

pub(super) fn num_jobs(_: &[Value], context: &FunctionContext) -> Result {
  Ok(context.jobs.map_or_else(Value::empty_list, |jobs| Value::string(jobs.to_string())))
}

fn user_directory(directory: Option<PathBuf>, name: &str) -> Result {
  let directory = directory.ok_or_else(|| format!("{name} directory not found"))?;
  directory.to_str().map(Value::string).ok_or_else(|| {
    format!("unable to convert {name} directory path to string: {}", directory.display())
  })
}

pub(super) fn cache_directory(_: &[Value], _: &FunctionContext) -> Result {
  user_directory(dirs::cache_dir(), "cache")
}

pub(super) fn config_directory(_: &[Value], _: &FunctionContext) -> Result {
  user_directory(dirs::config_dir(), "config")
}

pub(super) fn config_local_directory(_: &[Value], _: &FunctionContext) -> Result {
  user_directory(dirs::config_local_dir(), "local config")
}

pub(super) fn data_directory(_: &[Value], _: &FunctionContext) -> Result {
  user_directory(dirs::data_dir(), "data")
}

pub(super) fn data_local_directory(_: &[Value], _: &FunctionContext) -> Result {
  user_directory(dirs::data_local_dir(), "local data")
}

pub(super) fn executable_directory(_: &[Value], _: &FunctionContext) -> Result {
  user_directory(dirs::executable_dir(), "executable")
}

pub(super) fn home_directory(_: &[Value], _: &FunctionContext) -> Result {
  user_directory(dirs::home_dir(), "home")
}

pub(super) fn runtime_directory(_: &[Value], _: &FunctionContext) -> Result {
  user_directory(dirs::runtime_dir(), "runtime")
}

/// `shell(command, args...)`: not run under dry run.
pub(super) fn shell(arguments: &[Value], context: &FunctionContext) -> Result {
  let words: Vec<&str> = (0..arguments.len()).map(|index| text(arguments, index)).collect();
  if context.dry_run {
    let rendered: Vec<String> = words.iter().map(|word| quote_escaped(word)).collect();
    return Ok(Value::string(format!("shell({})", rendered.join(", "))));
  }
  let command_line = words.first().copied().unwrap_or_default();
  let mut command = std::process::Command::new(context.shell_program);
  command.args(context.shell_arguments).arg(command_line);
  if !is_windows_shell(context.shell_program) {
    command.arg(command_line);
  }
  command.args(words.iter().skip(1)).current_dir(context.working_directory);
  context.environment.apply(&mut command);
  let captured = match context.supervisor {
    Some(supervisor) => capture_stdout(supervisor, &mut command, context.quiet),
    None => capture_stdout(&Supervisor::detached(false), &mut command, context.quiet),
  };
  captured.map(Value::string).map_err(|error| error.to_string())
}

pub(super) fn sha256(arguments: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(format!("{:x}", Sha256::digest(text(arguments, 0).as_bytes()))))
}

pub(super) fn blake3(arguments: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(blake3::hash(text(arguments, 0).as_bytes()).to_hex().to_string()))
}

pub(super) fn uuid(_: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(uuid::Uuid::new_v4().to_string()))
}

pub(super) fn choose(arguments: &[Value], _: &FunctionContext) -> Result {
  let (count, alphabet) = (text(arguments, 0), text(arguments, 1));
  let characters: Vec<char> = alphabet.chars().collect();
  if characters.is_empty() {
    return Err("empty alphabet".into());
  }
  for (index, character) in characters.iter().enumerate() {
    if characters[..index].contains(character) {
      return Err(format!("alphabet contains repeated character `{character}`"));
    }
  }
  let count: usize = count
    .parse()
    .map_err(|error| format!("failed to parse `{count}` as positive integer: {error}"))?;
  let mut rng = rand::rng();
  // Reserve fallibly: collecting would reserve `count` up front and panic
  // (capacity overflow) or abort (allocation failure) for huge counts.
  let mut chosen = String::new();
  chosen
    .try_reserve(count)
    .map_err(|error| format!("failed to allocate {count} characters: {error}"))?;
  for _ in 0..count {
    chosen.push(characters[rng.random_range(0..characters.len())]);
  }
  Ok(Value::string(chosen))
}

fn format_time<Z: TimeZone>(time: DateTime<Z>, format: &str) -> Result
where
  Z::Offset: std::fmt::Display,
{
  let items = StrftimeItems::new(format)
    .parse()
    .map_err(|error| format!("failed to parse time format string `{format}`: {error}"))?;
  let mut formatted = String::new();
  std::fmt::write(&mut formatted, format_args!("{}", time.format_with_items(items.iter())))
    .map_err(|_| format!("failed to format time with format string `{format}`"))?;
  Ok(Value::string(formatted))
}

pub(super) fn datetime(arguments: &[Value], _: &FunctionContext) -> Result {
  format_time(Local::now(), text(arguments, 0))
}

pub(super) fn datetime_utc(arguments: &[Value], _: &FunctionContext) -> Result {
  format_time(Utc::now(), text(arguments, 0))
}

pub(super) fn semver_matches(arguments: &[Value], context: &FunctionContext) -> Result {
  let requirement = semver::VersionReq::parse(text(arguments, 1))
    .map_err(|error| format!("invalid semver requirement: {error}"))?;
  let version = semver::Version::parse(text(arguments, 0))
    .map_err(|error| format!("invalid semver version: {error}"))?;
  Ok(Value::boolean(requirement.matches(&version), context.lists))
}

pub(super) fn error(arguments: &[Value], _: &FunctionContext) -> Result {
  Err(text(arguments, 0).to_owned())
}

#[cfg(test)]
mod tests {
  use std::collections::BTreeMap;

  use super::super::call;
  use super::super::tests::{eval, strings};
  use super::*;
  use crate::builtins::process::CommandEnvironment;

  fn context() -> FunctionContext<'static> {
    FunctionContext::new(Path::new("/tmp"), Path::new("/tmp/justfile"))
  }

  #[test]
  fn fixed_values() {
    let cases = [
      ("sha256", vec!["hello"], "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"),
      ("blake3", vec!["hello"], "ea8f163db38682925e4491c5e58d4bb3506ef8c14eb78a86e908c5624a67200f"),
      ("just_version", vec![], "1.58.0"),
      ("os_family", vec![], "unix"),
      ("choose", vec!["0", "a"], ""),
      ("choose", vec!["3", "a"], "aaa"),
      ("semver_matches", vec!["1.2.3", ">=1.0"], "true"),
      ("semver_matches", vec!["1.0.0", "1"], "true"),
      ("semver_matches", vec!["0.1.0", ">=1.0"], "false"),
      ("module_path", vec![], ""),
      ("is_dependency", vec![], "false"),
      ("justfile", vec![], "/tmp/justfile"),
      ("justfile_directory", vec![], "/tmp"),
      ("source_directory", vec![], "/tmp"),
      ("module_directory", vec![], "/tmp"),
      ("invocation_directory", vec![], "/tmp"),
      ("invocation_directory_native", vec![], "/tmp"),
      ("datetime_utc", vec!["%%"], "%"),
    ];
    for (name, arguments, expected) in cases {
      assert_eq!(eval(name, &arguments).as_deref(), Ok(expected), "{name}");
    }
  }

  #[test]
  fn failures() {
    let cases: [(&str, &[&str], &str); 11] = [
      ("choose", &["5", ""], "empty alphabet"),
      ("choose", &["x", ""], "empty alphabet"),
      ("choose", &["1", "aba"], "alphabet contains repeated character `a`"),
      ("choose", &["-1", "ab"], "failed to parse `-1` as positive integer: invalid digit found in string"),
      ("choose", &["", "ab"], "failed to parse `` as positive integer: cannot parse integer from empty string"),
      (
        "choose",
        &["99999999999999999999999", "ab"],
        "failed to parse `99999999999999999999999` as positive integer: number too large to fit in target type",
      ),
      (
        "datetime",
        &["%Q"],
        "failed to parse time format string `%Q`: bad or unsupported format string",
      ),
      (
        "semver_matches",
        &["1.0", "1"],
        "invalid semver version: unexpected end of input while parsing minor version number",
      ),
      (
        "semver_matches",
        &["1.0", "x>=1"],
        "invalid semver requirement: unexpected character after wildcard in version req",
      ),
      ("error", &["boom"], "boom"),
      ("recipe_name", &[], "`recipe_name()` can only be used within a recipe"),
    ];
    for (name, arguments, expected) in cases {
      assert_eq!(eval(name, arguments).unwrap_err(), expected, "{name}{arguments:?}");
    }
  }

  #[test]
  fn shapes() {
    let uuid = eval("uuid", &[]).unwrap();
    assert_eq!(uuid.len(), 36);
    assert_eq!(&uuid[14..15], "4");
    assert!(uuid.chars().all(|c| c == '-' || c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert!(eval("num_cpus", &[]).unwrap().parse::<usize>().unwrap() > 0);
    assert_eq!(eval("just_pid", &[]).unwrap(), std::process::id().to_string());
    assert!(eval("just_executable", &[]).unwrap().starts_with('/'));
    assert_eq!(eval("arch", &[]).unwrap(), std::env::consts::ARCH);
    assert_eq!(eval("os", &[]).unwrap(), std::env::consts::OS);
    let chosen = eval("choose", &["64", "ab"]).unwrap();
    assert!(chosen.len() == 64 && chosen.chars().all(|c| c == 'a' || c == 'b'));
    let year = eval("datetime", &["%Y"]).unwrap();
    assert!(year.len() == 4 && year.starts_with("20"));
    assert!(eval("home_dir", &[]).unwrap().starts_with('/'));
  }

  #[test]
  fn recipe_context() {
    let mut context = context();
    let module_path = ["foo".to_string(), "bar".to_string()];
    context.recipe_name = Some("build");
    context.is_dependency = true;
    context.module_path = &module_path;
    context.lists = true;
    let run = |name: &str| call(name, vec![], &context).map(|value| value.0);
    assert_eq!(run("recipe_name"), Ok(vec!["build".into()]));
    assert_eq!(run("is_dependency"), Ok(vec!["true".into()]));
    assert_eq!(run("module_path"), Ok(vec!["foo::bar".into()]));
    assert_eq!(run("num_jobs"), Ok(vec![]));
    context.jobs = Some(4);
    context.is_dependency = false;
    let run = |name: &str| call(name, vec![], &context).map(|value| value.0);
    assert_eq!(run("num_jobs"), Ok(vec!["4".into()]));
    assert_eq!(run("is_dependency"), Ok(vec![]));
  }

  #[test]
  fn environment_variables() {
    let mut dotenv = BTreeMap::new();
    dotenv.insert("JUST_FN_TEST_DOTENV".to_string(), "from-dotenv".to_string());
    let mut context = context();
    context.dotenv = &dotenv;
    let run = |arguments: Vec<Value>| call("env", arguments, &context);
    let list = |names: &[&str]| Value(names.iter().map(|name| name.to_string()).collect());
    let cases: Vec<(Vec<Value>, std::result::Result<Value, &str>)> = vec![
      (strings(&["JUST_FN_TEST_DOTENV"]), Ok(Value::string("from-dotenv"))),
      (strings(&["PATH"]), Ok(Value::string(std::env::var("PATH").unwrap()))),
      (strings(&["NOPE_X", "dflt"]), Ok(Value::string("dflt"))),
      (vec![list(&["NOPE_A", "JUST_FN_TEST_DOTENV"])], Ok(Value::string("from-dotenv"))),
      (vec![list(&[]), list(&["a", "b"])], Ok(list(&["a", "b"]))),
      (strings(&["NOPE_X"]), Err("environment variable `NOPE_X` not present")),
      (
        vec![list(&["A_NOPE", "B_NOPE"])],
        Err("environment variables `A_NOPE` and `B_NOPE` not present"),
      ),
      (
        vec![list(&["A_NOPE", "B_NOPE", "C_NOPE"])],
        Err("environment variables `A_NOPE`, `B_NOPE`, and `C_NOPE` not present"),
      ),
      (vec![list(&[])], Err("empty environment variable list with no default")),
    ];
    for (arguments, expected) in cases {
      let description = format!("{arguments:?}");
      assert_eq!(run(arguments), expected.map_err(str::to_owned), "{description}");
    }
    assert_eq!(
      call("env_var_or_default", strings(&["NOPE_X", "d"]), &context),
      Ok(Value::string("d"))
    );
    assert_eq!(
      call("env_var", strings(&["NOPE_X"]), &context),
      Err("environment variable `NOPE_X` not present".into())
    );
  }

  #[test]
  fn shell_function() {
    let mut context = context();
    let arguments = ["-cu".to_string()];
    context.shell_arguments = &arguments;
    let mut environment = CommandEnvironment::new();
    environment.set("JUST_FN_SHELL_TEST", "exported");
    context.environment = &environment;
    let cases: [(&[&str], std::result::Result<&str, &str>); 6] = [
      (&["echo $1 $2", "a", "b"], Ok("a b")),
      (&["echo $@", "a", "b"], Ok("a b")),
      (&["echo $0"], Ok("echo $0")),
      (&["echo $JUST_FN_SHELL_TEST"], Ok("exported")),
      (&["pwd"], Ok("/tmp")),
      (&["exit 3"], Err("process exited with status code 3")),
    ];
    for (arguments, expected) in cases {
      let result = call("shell", strings(arguments), &context).map(|value| value.joined());
      assert_eq!(result, expected.map(str::to_owned).map_err(str::to_owned), "{arguments:?}");
    }
    context.dry_run = true;
    assert_eq!(
      call("shell", strings(&["exit 1", "\""]), &context),
      Ok(Value::string("shell(\"exit 1\", \"\\\"\")"))
    );
  }
}
