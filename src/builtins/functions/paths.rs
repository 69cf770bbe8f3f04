//! Path manipulation, filesystem access and executable search.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{text, FunctionContext};
use crate::builtins::value::Value;

type Result = std::result::Result<Value, String>;

fn path_text(path: &Path, what: &str) -> std::result::Result<String, String> {
  path
    .to_str()
    .map(str::to_owned)
    .ok_or_else(|| format!("{what} is not valid unicode: {}", path.display()))
}

/// Lexical simplification of a `/`-separated path.
pub(super) fn clean(path: &str) -> String {
  // `/`, and on Windows `\` too; the result uses the platform's own.
  let rooted = path.starts_with(std::path::is_separator);
  let separator = std::path::MAIN_SEPARATOR_STR;
  let mut parts: Vec<&str> = Vec::new();
  for part in path.split(std::path::is_separator) {
    match part {
      "" | "." => {}
      ".." => match parts.last() {
        Some(&last) if last != ".." => {
          parts.pop();
        }
        _ if rooted => {}
        _ => parts.push(".."),
      },
      part => parts.push(part),
    }
  }
  match (rooted, parts.is_empty()) {
    (true, _) => format!("{separator}{}", parts.join(separator)),
    (false, true) => ".".into(),
    (false, false) => parts.join(separator),
  }
}

pub(super) fn clean_function(arguments: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(clean(text(arguments, 0))))
}

pub(super) fn absolute_path(arguments: &[Value], context: &FunctionContext) -> Result {
  let elements = arguments.first().map_or(&[][..], Value::elements);
  let mut absolute = Vec::with_capacity(elements.len());
  for element in elements {
    let joined = context.working_directory.join(element);
    absolute.push(clean(&path_text(&joined, "working directory")?));
  }
  Ok(Value(absolute))
}

pub(super) fn canonicalize(arguments: &[Value], context: &FunctionContext) -> Result {
  let path = text(arguments, 0);
  let canonical = context
    .working_directory
    .join(path)
    .canonicalize()
    .map_err(|error| format!("I/O error canonicalizing `{path}`: {error}"))?;
  Ok(Value::string(path_text(&canonical, "canonical path")?))
}

fn lossy(os: Option<&std::ffi::OsStr>) -> Option<String> {
  os.map(|os| os.to_string_lossy().into_owned())
}

pub(super) fn extension(arguments: &[Value], _: &FunctionContext) -> Result {
  let path = text(arguments, 0);
  lossy(Path::new(path).extension())
    .map(Value::string)
    .ok_or_else(|| format!("could not extract extension from `{path}`"))
}

pub(super) fn file_name(arguments: &[Value], _: &FunctionContext) -> Result {
  let path = text(arguments, 0);
  lossy(Path::new(path).file_name())
    .map(Value::string)
    .ok_or_else(|| format!("could not extract file name from `{path}`"))
}

pub(super) fn file_stem(arguments: &[Value], _: &FunctionContext) -> Result {
  let path = text(arguments, 0);
  lossy(Path::new(path).file_stem())
    .map(Value::string)
    .ok_or_else(|| format!("could not extract file stem from `{path}`"))
}

fn dot_if_empty(path: &Path) -> String {
  match path.to_string_lossy().into_owned() {
    empty if empty.is_empty() => ".".into(),
    path => path,
  }
}

pub(super) fn parent_directory(arguments: &[Value], _: &FunctionContext) -> Result {
  let path = text(arguments, 0);
  Path::new(path)
    .parent()
    .map(|parent| Value::string(dot_if_empty(parent)))
    .ok_or_else(|| format!("could not extract parent directory from `{path}`"))
}

pub(super) fn without_extension(arguments: &[Value], _: &FunctionContext) -> Result {
  let path = text(arguments, 0);
  let parent =
    Path::new(path).parent().ok_or_else(|| format!("could not extract parent from `{path}`"))?;
  let stem = Path::new(path)
    .file_stem()
    .ok_or_else(|| format!("could not extract file stem from `{path}`"))?;
  Ok(Value::string(parent.join(stem).to_string_lossy().into_owned()))
}

pub(super) fn join(arguments: &[Value], _: &FunctionContext) -> Result {
  let mut path = PathBuf::new();
  for index in 0..arguments.len() {
    path.push(text(arguments, index));
  }
  Ok(Value::string(path.to_string_lossy().into_owned()))
}

pub(super) fn path_exists(arguments: &[Value], context: &FunctionContext) -> Result {
  let path = text(arguments, 0);
  let exists = !path.is_empty() && context.working_directory.join(path).exists();
  Ok(Value::boolean(exists, context.lists))
}

pub(super) fn read(arguments: &[Value], context: &FunctionContext) -> Result {
  let path = text(arguments, 0);
  std::fs::read_to_string(context.working_directory.join(path))
    .map(Value::string)
    .map_err(|error| format!("I/O error reading `{path}`: {error}"))
}

pub(super) fn sha256_file(arguments: &[Value], context: &FunctionContext) -> Result {
  let path = context.working_directory.join(text(arguments, 0));
  let mut file =
    File::open(&path).map_err(|error| format!("failed to open `{}`: {error}", path.display()))?;
  let mut contents = Vec::new();
  file
    .read_to_end(&mut contents)
    .map_err(|error| format!("failed to read `{}`: {error}", path.display()))?;
  Ok(Value::string(format!("{:x}", Sha256::digest(&contents))))
}

pub(super) fn blake3_file(arguments: &[Value], context: &FunctionContext) -> Result {
  let path = context.working_directory.join(text(arguments, 0));
  let hash = |path: &Path| -> std::io::Result<blake3::Hash> {
    let mut hasher = blake3::Hasher::new();
    hasher.update_reader(File::open(path)?)?;
    Ok(hasher.finalize())
  };
  hash(&path)
    .map(|digest| Value::string(digest.to_hex().to_string()))
    .map_err(|error| format!("failed to hash `{}`: {error}", path.display()))
}

/// Candidate paths for executable `name`.
fn executable_candidates(
  name: &str,
  context: &FunctionContext,
) -> std::result::Result<Vec<PathBuf>, String> {
  let components = Path::new(name).components().count();
  let candidates = match components {
    0 => return Err("empty command".into()),
    1 => {
      let path = std::env::var_os("PATH").ok_or("`PATH` environment variable not set")?;
      std::env::split_paths(&path).map(|directory| directory.join(name)).collect()
    }
    _ => vec![PathBuf::from(name)],
  };
  let mut resolved = Vec::with_capacity(candidates.len());
  for candidate in candidates {
    let candidate = resolve_candidate(&candidate, context)?;
    resolved.extend(crate::platform::fs::executable_names(candidate)?);
  }
  Ok(resolved)
}

fn resolve_candidate(
  candidate: &Path,
  context: &FunctionContext,
) -> std::result::Result<PathBuf, String> {
  let joined = context.working_directory.join(candidate);
  Ok(PathBuf::from(clean(&path_text(&joined, "Executable path")?)))
}

fn find_executable(
  name: &str,
  context: &FunctionContext,
) -> std::result::Result<Option<String>, String> {
  for candidate in executable_candidates(name, context)? {
    if crate::platform::fs::is_executable(&candidate) {
      return path_text(&candidate, "Executable path").map(Some);
    }
  }
  Ok(None)
}

pub(super) fn which(arguments: &[Value], context: &FunctionContext) -> Result {
  Ok(find_executable(text(arguments, 0), context)?.map_or_else(Value::empty_list, Value::string))
}

pub(super) fn require(arguments: &[Value], context: &FunctionContext) -> Result {
  let name = text(arguments, 0);
  find_executable(name, context)?
    .map(Value::string)
    .ok_or_else(|| format!("could not find executable `{name}`"))
}

#[cfg(test)]
mod tests {
  use super::super::call;
  use super::super::tests::{eval, strings};
  use super::*;

  fn check(name: &str, cases: &[(&str, std::result::Result<&str, &str>)]) {
    for (argument, expected) in cases {
      let expected = expected.map(str::to_owned).map_err(str::to_owned);
      assert_eq!(eval(name, &[argument]), expected, "{name}({argument:?})");
    }
  }

  #[test]
  fn clean_paths() {
    let cases = [
      ("foo//bar", "foo/bar"),
      ("foo/..", "."),
      ("foo/./bar", "foo/bar"),
      ("/../a", "/a"),
      ("../a/../..", "../.."),
      ("a/./b/../c/", "a/c"),
      ("", "."),
      ("/", "/"),
      ("/..", "/"),
    ];
    for (path, expected) in cases {
      assert_eq!(clean(path), expected, "{path}");
    }
  }

  #[test]
  fn path_functions() {
    check(
      "extension",
      &[
        ("foo.txt", Ok("txt")),
        ("foo.", Ok("")),
        ("a/b.tar.gz", Ok("gz")),
        ("foo", Err("could not extract extension from `foo`")),
        (".bashrc", Err("could not extract extension from `.bashrc`")),
        ("", Err("could not extract extension from ``")),
        ("a.b/c", Err("could not extract extension from `a.b/c`")),
      ],
    );
    check(
      "file_name",
      &[
        ("a/b/", Ok("b")),
        ("/foo/bar.txt", Ok("bar.txt")),
        ("/", Err("could not extract file name from `/`")),
        ("foo/..", Err("could not extract file name from `foo/..`")),
      ],
    );
    check(
      "file_stem",
      &[
        (".bashrc", Ok(".bashrc")),
        ("bar.tar.gz", Ok("bar.tar")),
        ("/", Err("could not extract file stem from `/`")),
      ],
    );
    check(
      "parent_directory",
      &[
        ("/foo/bar.txt", Ok("/foo")),
        ("bar.txt", Ok(".")),
        ("/foo", Ok("/")),
        ("a/b/", Ok("a")),
        ("/", Err("could not extract parent directory from `/`")),
        ("", Err("could not extract parent directory from ``")),
      ],
    );
    check(
      "without_extension",
      &[
        ("/foo/bar.txt", Ok("/foo/bar")),
        ("foo", Ok("foo")),
        ("a/b.tar.gz", Ok("a/b.tar")),
        ("dir/", Ok("dir")),
        ("/", Err("could not extract parent from `/`")),
        ("", Err("could not extract parent from ``")),
      ],
    );
    check("absolute_path", &[("./bar/../baz.txt", Ok("/tmp/baz.txt")), ("/x/./y", Ok("/x/y"))]);
  }

  #[test]
  fn join_paths() {
    let cases: [(&[&str], &str); 3] =
      [(&["foo/bar", "baz"], "foo/bar/baz"), (&["a", "/abs", "c"], "/abs/c"), (&["a", ""], "a/")];
    for (arguments, expected) in cases {
      assert_eq!(eval("join", arguments).as_deref(), Ok(expected));
    }
  }

  #[test]
  fn filesystem_functions() {
    let directory = tempfile::tempdir().unwrap();
    std::fs::write(directory.path().join("hello.txt"), "hello").unwrap();
    std::fs::write(directory.path().join("bad.txt"), b"\xff").unwrap();
    let root = directory.path().to_str().unwrap().to_owned();
    let justfile = directory.path().join("justfile");
    let context = FunctionContext::new(directory.path(), &justfile);
    let run = |name: &str, argument: &str| {
      call(name, strings(&[argument]), &context).map(|value| value.joined())
    };
    let cases = [
      ("path_exists", "hello.txt", Ok("true".to_owned())),
      ("path_exists", "", Ok("false".into())),
      ("path_exists", "nope", Ok("false".into())),
      ("read", "hello.txt", Ok("hello".into())),
      (
        "read",
        "nope",
        Err("I/O error reading `nope`: No such file or directory (os error 2)".to_owned()),
      ),
      (
        "read",
        "bad.txt",
        Err("I/O error reading `bad.txt`: stream did not contain valid UTF-8".into()),
      ),
      ("read", ".", Err("I/O error reading `.`: Is a directory (os error 21)".into())),
      (
        "sha256_file",
        "hello.txt",
        Ok("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824".into()),
      ),
      (
        "sha256_file",
        "nope",
        Err(format!("failed to open `{root}/nope`: No such file or directory (os error 2)")),
      ),
      (
        "blake3_file",
        "hello.txt",
        Ok("ea8f163db38682925e4491c5e58d4bb3506ef8c14eb78a86e908c5624a67200f".into()),
      ),
      (
        "blake3_file",
        "nope",
        Err(format!("failed to hash `{root}/nope`: No such file or directory (os error 2)")),
      ),
      (
        "canonicalize",
        "nope",
        Err("I/O error canonicalizing `nope`: No such file or directory (os error 2)".into()),
      ),
    ];
    for (name, argument, expected) in cases {
      assert_eq!(run(name, argument), expected, "{name}({argument})");
    }
    let canonical_root = directory.path().canonicalize().unwrap();
    assert_eq!(run("canonicalize", "./x/../hello.txt").ok(), None);
    assert_eq!(
      run("canonicalize", "hello.txt"),
      Ok(canonical_root.join("hello.txt").to_str().unwrap().to_owned())
    );
  }

  #[test]
  fn executables() {
    let directory = tempfile::tempdir().unwrap();
    let program = directory.path().join("prog");
    std::fs::write(&program, "#!/bin/sh\n").unwrap();
    std::fs::write(directory.path().join("plain"), "").unwrap();
    #[cfg(unix)]
    {
      use std::os::unix::fs::PermissionsExt;
      std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let justfile = directory.path().join("justfile");
    let mut context = FunctionContext::new(directory.path(), &justfile);
    let expected = program.to_str().unwrap().to_owned();
    let run = |name: &str, argument: &str, context: &FunctionContext| {
      call(name, strings(&[argument]), context).map(|value| value.0)
    };
    assert_eq!(run("require", "./prog", &context), Ok(vec![expected.clone()]));
    assert_eq!(run("require", "sub/../prog", &context), Ok(vec![expected.clone()]));
    assert_eq!(
      run("require", "./plain", &context),
      Err("could not find executable `./plain`".into())
    );
    assert_eq!(run("require", "", &context), Err("empty command".into()));
    assert_eq!(run("require", "sh", &context).map(|found| found.len()), Ok(1));
    assert_eq!(
      run("require", "no-such-program-xyz", &context),
      Err("could not find executable `no-such-program-xyz`".into())
    );
    assert_eq!(run("require", "sh/", &context), run("require", "sh", &context));
    context.lists = true;
    assert_eq!(run("which", "no-such-program-xyz", &context), Ok(vec![]));
    assert_eq!(run("which", "./prog", &context), Ok(vec![expected]));
  }
}
