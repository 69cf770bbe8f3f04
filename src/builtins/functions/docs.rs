//! What each built-in function does, in prose, and the names of its
//! parameters: the language server's hover and signature help. An
//! exhaustive match, so a new row of the table needs its text here.

use super::Function;

impl Function {
  /// The names of the parameters, as a call writes them: `[name]` when
  /// optional, `name…` for any number more.
  pub(crate) fn parameters(self) -> &'static str {
    self.documentation().0
  }

  /// A sentence or two on what the function returns, its arguments, and a
  /// short example where one helps.
  pub(crate) fn doc(self) -> &'static str {
    self.documentation().1
  }

  #[allow(clippy::too_many_lines)] // One arm per function, nothing else.
  fn documentation(self) -> (&'static str, &'static str) {
    use Function::*;
    match self {
      Arch => {
        ("", "The processor architecture `just` was built for, such as `x86_64` or `aarch64`.")
      }
      Os => ("", "The operating system `just` runs on, such as `linux`, `macos` or `windows`."),
      OsFamily => ("", "`unix` or `windows`: the family of the operating system."),
      NumCpus => ("", "The number of logical CPUs available, as a decimal string."),
      Env => (
        "key, [default]",
        "The value of environment variable `key` (the module's dotenv variables first, then \
         `just`'s own environment). If it is not set: `default` when given, else an error. \
         `env('HOME')`, `env('PORT', '8080')`.",
      ),
      EnvVar => (
        "key",
        "The value of environment variable `key`, or an error if it is not set. An older \
         spelling of `env(key)`.",
      ),
      EnvVarOrDefault => (
        "key, default",
        "The value of environment variable `key`, or `default` if it is not set. An older \
         spelling of `env(key, default)`.",
      ),
      InvocationDirectory => (
        "",
        "The directory `just` was started in (on Windows converted to a Unix-style path by \
         `cygpath`). Also `invocation_dir()`.",
      ),
      InvocationDirectoryNative => (
        "",
        "The directory `just` was started in, as the operating system writes it. Also \
         `invocation_dir_native()`.",
      ),
      Justfile => ("", "The path of the root justfile, even when called in an import or a module."),
      JustfileDirectory => ("", "The directory of the root justfile. Also `justfile_dir()`."),
      SourceFile => {
        ("", "The path of the file this call is written in (an import or a module's file).")
      }
      SourceDirectory => {
        ("", "The directory of the file this call is written in. Also `source_dir()`.")
      }
      ModuleFile => {
        ("", "The path of the current module's own file (the root justfile in the root module).")
      }
      ModuleDirectory => {
        ("", "The directory of the current module's own file. Also `module_dir()`.")
      }
      ModulePath => (
        "",
        "The path of the current module, its names joined with `::` (`tools::lint`); empty in \
         the root module.",
      ),
      RecipeName => (
        "",
        "The name of the recipe being run; an error outside a recipe (in a top-level \
         assignment).",
      ),
      IsDependency => (
        "",
        "True when the current recipe runs as a dependency of another one, false when it was \
         asked for on the command line.",
      ),
      JustExecutable => ("", "The absolute path of the running `just` executable."),
      JustPid => ("", "The process id of `just`."),
      JustVersion => ("", "The version of `just`, such as `1.58.0`."),
      NumJobs => {
        ("", "The number given to `--jobs`, or the empty list without it. Needs `set lists`.")
      }
      CacheDirectory => (
        "",
        "The user's cache directory (on Linux `$XDG_CACHE_HOME`, else `~/.cache`). Also \
         `cache_dir()`.",
      ),
      ConfigDirectory => (
        "",
        "The user's configuration directory (on Linux `$XDG_CONFIG_HOME`, else `~/.config`). \
         Also `config_dir()`.",
      ),
      ConfigLocalDirectory => (
        "",
        "The user's local configuration directory (differs from the configuration directory on \
         Windows only). Also `config_local_dir()`.",
      ),
      DataDirectory => (
        "",
        "The user's data directory (on Linux `$XDG_DATA_HOME`, else `~/.local/share`). Also \
         `data_dir()`.",
      ),
      DataLocalDirectory => (
        "",
        "The user's local data directory (differs from the data directory on Windows only). \
         Also `data_local_dir()`.",
      ),
      ExecutableDirectory => (
        "",
        "The user's directory of executables (on Linux `$XDG_BIN_HOME`, else `~/.local/bin`); an \
         error where there is none. Also `executable_dir()`.",
      ),
      HomeDirectory => ("", "The user's home directory. Also `home_dir()`."),
      RuntimeDirectory => (
        "",
        "The user's runtime directory (`$XDG_RUNTIME_DIR`); an error where there is none. Also \
         `runtime_dir()`.",
      ),
      Shell => (
        "command, args…",
        "The standard output of `command` run by the module's shell, without its last line \
         break; the other arguments are the command's `$1`, `$2`, …: `shell('echo $1', 'hi')` \
         is `hi`. An error if the command fails.",
      ),
      Which => (
        "name",
        "The absolute path of executable `name` found on `PATH`, or the empty list if there is \
         none. Needs `set lists`.",
      ),
      Require => (
        "name",
        "The absolute path of executable `name` found on `PATH`, or an error if there is none.",
      ),
      Append => (
        "suffix, s",
        "`suffix` appended to each whitespace-separated word of `s` (to each element of a \
         list): `append('/src', 'a b')` is `a/src b/src`.",
      ),
      Prepend => (
        "prefix, s",
        "`prefix` put before each whitespace-separated word of `s` (each element of a list): \
         `prepend('src/', 'a b')` is `src/a src/b`.",
      ),
      EncodeUriComponent => (
        "s",
        "`s` percent-encoded as a URI component: every byte but letters, digits and \
         `-_.!~*'()`. `encode_uri_component('a b')` is `a%20b`.",
      ),
      Quote => (
        "s",
        "`s` in single quotes for the shell, each `'` inside written `'\\''`: `quote(\"it's\")` \
         is `'it'\\''s'`.",
      ),
      Replace => (
        "s, from, to",
        "`s` with every occurrence of `from` replaced by `to`: `replace('a-b', '-', '_')` is \
         `a_b`.",
      ),
      ReplaceRegex => (
        "s, regex, replacement",
        "`s` with every match of regular expression `regex` replaced by `replacement`, which \
         may name groups as `$1` or `${name}`: `replace_regex('v1.2', '[0-9]+', 'N')` is `vN.N`.",
      ),
      Trim => ("s", "`s` without whitespace at either end."),
      TrimStart => ("s", "`s` without whitespace at its start."),
      TrimEnd => ("s", "`s` without whitespace at its end."),
      TrimStartMatch => (
        "s, prefix",
        "`s` without one `prefix` at its start, if it starts with it: \
         `trim_start_match('aab', 'a')` is `ab`.",
      ),
      TrimStartMatches => (
        "s, prefix",
        "`s` without `prefix` at its start, as many times as it repeats: \
         `trim_start_matches('aab', 'a')` is `b`.",
      ),
      TrimEndMatch => (
        "s, suffix",
        "`s` without one `suffix` at its end, if it ends with it: \
         `trim_end_match('x.txt', '.txt')` is `x`.",
      ),
      TrimEndMatches => (
        "s, suffix",
        "`s` without `suffix` at its end, as many times as it repeats: \
         `trim_end_matches('x.gz.gz', '.gz')` is `x`.",
      ),
      Len => ("value", "The number of elements of `value` (1 for any string without `set lists`)."),
      Lowercase => ("s", "`s` in lower case."),
      Uppercase => ("s", "`s` in upper case."),
      Capitalize => {
        ("s", "`s` with its first character in upper case and the others in lower case.")
      }
      Snakecase => (
        "s",
        "`s` split into words, in lower case, joined by `_`: `snakecase('FooBar baz')` is \
         `foo_bar_baz`.",
      ),
      Kebabcase => (
        "s",
        "`s` split into words, in lower case, joined by `-`: `kebabcase('FooBar baz')` is \
         `foo-bar-baz`.",
      ),
      Shoutysnakecase => (
        "s",
        "`s` split into words, in upper case, joined by `_`: `shoutysnakecase('fooBar')` is \
         `FOO_BAR`.",
      ),
      Shoutykebabcase => (
        "s",
        "`s` split into words, in upper case, joined by `-`: `shoutykebabcase('fooBar')` is \
         `FOO-BAR`.",
      ),
      Lowercamelcase => (
        "s",
        "`s` split into words, the first in lower case and the others capitalized, joined: \
         `lowercamelcase('foo_bar')` is `fooBar`.",
      ),
      Uppercamelcase => (
        "s",
        "`s` split into words, each capitalized, joined: `uppercamelcase('foo_bar')` is \
         `FooBar`.",
      ),
      Titlecase => (
        "s",
        "`s` split into words, each capitalized, joined by spaces: `titlecase('foo_bar')` is \
         `Foo Bar`.",
      ),
      AbsolutePath => (
        "path",
        "`path` made absolute against the working directory, with `.` and `..` cleaned away.",
      ),
      Canonicalize => (
        "path",
        "`path` resolved by the operating system against the working directory: absolute, \
         symbolic links followed. An error if it does not exist.",
      ),
      Extension => (
        "path",
        "The extension of `path`, after the last `.` of its file name: \
         `extension('a/b.tar.gz')` is `gz`. An error without one.",
      ),
      FileName => ("path", "The last component of `path`: `file_name('/a/b.txt')` is `b.txt`."),
      FileStem => (
        "path",
        "The file name of `path` without its last extension: `file_stem('a/b.tar.gz')` is \
         `b.tar`.",
      ),
      ParentDirectory => (
        "path",
        "The directory of `path`: `parent_directory('/a/b.txt')` is `/a`, \
         `parent_directory('b.txt')` is `.`.",
      ),
      WithoutExtension => (
        "path",
        "`path` without the extension of its file name: `without_extension('a/b.txt')` is \
         `a/b`.",
      ),
      Clean => (
        "path",
        "`path` simplified without looking at the file system: repeated separators, `.` and \
         `dir/..` removed. `clean('a/./b/../c')` is `a/c`.",
      ),
      Join => (
        "a, b, more…",
        "Two or more paths joined by the platform's separator; an absolute part replaces what \
         comes before it. `join('a', 'b')` is `a/b` on Unix.",
      ),
      PathExists => {
        ("path", "True if `path` (relative to the working directory) exists, else false.")
      }
      Read => {
        ("path", "The contents of the file at `path` (relative to the working directory), as text.")
      }
      Sha256 => ("s", "The SHA-256 hash of `s`, in lowercase hexadecimal."),
      Sha256File => ("path", "The SHA-256 hash of the file at `path`, in lowercase hexadecimal."),
      Blake3 => ("s", "The BLAKE3 hash of `s`, in lowercase hexadecimal."),
      Blake3File => ("path", "The BLAKE3 hash of the file at `path`, in lowercase hexadecimal."),
      Uuid => ("", "A new random (version 4) UUID."),
      Choose => (
        "n, alphabet",
        "A string of `n` characters picked at random from `alphabet`: `choose('8', HEX)`.",
      ),
      Datetime => {
        ("format", "The current local time in `format` (`strftime` style): `datetime('%Y-%m-%d')`.")
      }
      DatetimeUtc => (
        "format",
        "The current time in UTC in `format` (`strftime` style): `datetime_utc('%H:%M')`.",
      ),
      SemverMatches => (
        "version, requirement",
        "True if semantic version `version` meets `requirement` (Cargo's syntax): \
         `semver_matches('1.2.3', '>=1.0')` is true.",
      ),
      Style => (
        "styles, [text]",
        "The terminal codes of `styles` (`red`, `bg:blue`, `bold`, `#ff0080`, `error`, …); with \
         `text`, the text in that style and reset after it. Nothing when a stream named among \
         the styles (`stdout`, `stderr`) is not coloured: `style('error', 'failed')`.",
      ),
      Error => (
        "message",
        "Stops evaluation with `message` as the error: `error('unsupported platform')`.",
      ),
      Bool => (
        "value",
        "A string as a boolean: `true` or `1` give `true`; `false`, `0` or empty give the empty \
         list. Needs `set lists`.",
      ),
      JoinList => (
        "list, [separator]",
        "The elements of `list` joined by `separator` (one space by default) into one string. \
         Needs `set lists`.",
      ),
      Show => (
        "value",
        "`value` written as a literal: `\"a\"` for one element, `[\"a\", \"b\"]` for a list. \
         Needs `set lists`.",
      ),
      Split => (
        "s, [separator]",
        "`s` split into a list at each `separator`, or at whitespace without one: \
         `split('a,b', ',')` is `[\"a\", \"b\"]`. Needs `set lists`.",
      ),
    }
  }
}

#[cfg(test)]
mod tests {
  use super::super::Arity;
  use super::*;

  #[test]
  fn every_function_has_a_doc_and_its_parameters() {
    for &function in Function::ALL {
      assert!(!function.doc().trim().is_empty(), "{} has no doc", function.name());
      let parameters = function.parameters();
      let names: Vec<&str> =
        if parameters.is_empty() { Vec::new() } else { parameters.split(", ").collect() };
      let optional = names.iter().filter(|name| name.starts_with('[')).count();
      let variadic = names.last().is_some_and(|name| name.ends_with('…'));
      let agrees = match function.arity() {
        Arity::Exact(count) => names.len() == count && optional == 0 && !variadic,
        Arity::Optional(low, high) => names.len() == high && optional == high - low,
        Arity::AtLeast(low) => names.len() == low + 1 && variadic,
      };
      assert!(agrees, "{}({parameters}) disagrees with its arity", function.name());
    }
  }
}
