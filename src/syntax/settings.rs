//! The setting vocabulary: every `set NAME` the language knows and the kind
//! of value it takes. One table; the parser and the analyzer query it.

/// The kind of value a setting takes, which decides how `set` is parsed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum SettingType {
  /// `set NAME` or `set NAME := true|false`.
  Boolean,
  /// `set NAME := EXPRESSION`.
  Expression,
  /// `set NAME := [EXPRESSION, …]`.
  List,
  /// `set NAME := 'LITERAL'`, a plain string without expansion.
  Literal,
}

/// Defines `Setting` and its table from one list, so that a setting and its
/// row cannot disagree.
macro_rules! settings {
  ($($setting:ident => $name:literal, $kind:ident;)*) => {
    #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub(crate) enum Setting {
      $($setting,)*
    }

    impl Setting {
      /// Every setting, in name order.
      pub(crate) const ALL: &'static [Setting] = &[$(Setting::$setting,)*];
    }

    /// Indexed by `Setting as usize`.
    const TABLE: &[(&str, SettingType)] = &[$(($name, SettingType::$kind),)*];
  };
}

settings! {
  AllowDuplicateRecipes => "allow-duplicate-recipes", Boolean;
  AllowDuplicateVariables => "allow-duplicate-variables", Boolean;
  DefaultList => "default-list", Boolean;
  DefaultScript => "default-script", Boolean;
  DotenvCommand => "dotenv-command", Expression;
  DotenvFilename => "dotenv-filename", Expression;
  DotenvLoad => "dotenv-load", Boolean;
  DotenvOverride => "dotenv-override", Boolean;
  DotenvPath => "dotenv-path", Expression;
  DotenvRequired => "dotenv-required", Boolean;
  Export => "export", Boolean;
  Fallback => "fallback", Boolean;
  Guards => "guards", Boolean;
  IgnoreComments => "ignore-comments", Boolean;
  Indentation => "indentation", Literal;
  Lazy => "lazy", Boolean;
  Lists => "lists", Boolean;
  MinimumVersion => "minimum-version", Literal;
  NoCd => "no-cd", Boolean;
  NoExitMessage => "no-exit-message", Boolean;
  PositionalArguments => "positional-arguments", Boolean;
  Quiet => "quiet", Boolean;
  ScriptInterpreter => "script-interpreter", List;
  Shell => "shell", List;
  Tempdir => "tempdir", Expression;
  Unstable => "unstable", Boolean;
  WindowsPowershell => "windows-powershell", Boolean;
  WindowsShell => "windows-shell", List;
  WorkingDirectory => "working-directory", Expression;
}

/// When a pair of `CONFLICTS` excludes each other.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Conflict {
  /// Whatever their values.
  Always,
  /// When the second is set to true.
  WhenTrue,
}

/// The settings that may not be set together, in either order.
pub(crate) const CONFLICTS: &[(Setting, Setting, Conflict)] = &[
  (Setting::DotenvCommand, Setting::DotenvFilename, Conflict::Always),
  (Setting::DotenvCommand, Setting::DotenvPath, Conflict::Always),
  (Setting::DotenvCommand, Setting::DotenvLoad, Conflict::WhenTrue),
  (Setting::DotenvCommand, Setting::DotenvRequired, Conflict::WhenTrue),
  (Setting::WorkingDirectory, Setting::NoCd, Conflict::WhenTrue),
];

impl Setting {
  /// A line of a justfile that uses the setting (`--cheatsheet`).
  pub(crate) fn example(self) -> &'static str {
    use Setting::*;
    match self {
      AllowDuplicateRecipes => "set allow-duplicate-recipes",
      AllowDuplicateVariables => "set allow-duplicate-variables",
      DefaultList => "set default-list",
      DefaultScript => "set default-script",
      DotenvCommand => "set dotenv-command := 'sops -d secrets.env'",
      DotenvFilename => "set dotenv-filename := '.env.local'",
      DotenvLoad => "set dotenv-load",
      DotenvOverride => "set dotenv-override",
      DotenvPath => "set dotenv-path := 'config/dev.env'",
      DotenvRequired => "set dotenv-required",
      Export => "set export",
      Fallback => "set fallback",
      Guards => "set guards",
      IgnoreComments => "set ignore-comments",
      Indentation => "set indentation := '  '",
      Lazy => "set lazy",
      Lists => "set lists",
      MinimumVersion => "set minimum-version := '1.58.0'",
      NoCd => "set no-cd",
      NoExitMessage => "set no-exit-message",
      PositionalArguments => "set positional-arguments",
      Quiet => "set quiet",
      ScriptInterpreter => "set script-interpreter := ['bash', '-eu']",
      Shell => "set shell := ['bash', '-uc']",
      Tempdir => "set tempdir := 'tmp'",
      Unstable => "set unstable",
      WindowsPowershell => "set windows-powershell",
      WindowsShell => "set windows-shell := ['pwsh.exe', '-NoLogo', '-Command']",
      WorkingDirectory => "set working-directory := 'src'",
    }
  }

  /// What the setting does, in prose (the language server's hover).
  #[allow(clippy::too_many_lines)] // One arm per setting, nothing else.
  pub(crate) fn doc(self) -> &'static str {
    use Setting::*;
    match self {
      AllowDuplicateRecipes => {
        "Lets a recipe be defined more than once instead of failing; the definition that wins is \
         the one least deep in imports, at equal depth the last one."
      }
      AllowDuplicateVariables => {
        "Lets a variable be assigned more than once instead of failing; the assignment that \
         wins is chosen as for recipes."
      }
      DefaultList => {
        "`just` without arguments lists the recipes instead of running the default one."
      }
      DefaultScript => {
        "Recipes without `[shell]` run as scripts (their body written to a file and run by the \
         `script-interpreter`) instead of line by line."
      }
      DotenvCommand => {
        "Commands (a string or a list) whose output is read as a `.env` file of environment \
         variables: `set dotenv-command := 'sops -d .env.enc'`."
      }
      DotenvFilename => {
        "The file name (or names) of the `.env` file to look for, in the justfile's directory \
         and above, instead of `.env`."
      }
      DotenvLoad => {
        "Loads environment variables from a `.env` file found in the justfile's directory or above."
      }
      DotenvOverride => {
        "Variables of the `.env` file replace those already in the environment (and loading is \
         on)."
      }
      DotenvPath => "The path (or paths) of the `.env` file to load, relative to the justfile.",
      DotenvRequired => "Loads the `.env` file and fails when none is found.",
      Export => {
        "Exports every variable and recipe parameter to the environment of commands, as if each \
         were written `export` (`unexport NAME` takes one back)."
      }
      Fallback => {
        "When a recipe is not found, looks for a justfile in the parent directories and tries \
         there."
      }
      Guards => {
        "Enables the `?` line prefix: a line that exits with status 1 ends its recipe \
         successfully, skipping the remaining lines."
      }
      IgnoreComments => {
        "Lines of line-by-line recipes that start with `#` are neither printed nor run."
      }
      Indentation => {
        "The indentation `--fmt` gives recipe bodies: spaces or tabs, `set indentation := '  '` \
         (four spaces by default)."
      }
      Lazy => {
        "Evaluates only the variables the recipes being run need (and exported or `eager` ones), \
         instead of every variable first."
      }
      Lists => {
        "Enables list values: literals `['a', 'b']`, `++`, the list functions and mapped \
         dependencies. Unstable."
      }
      MinimumVersion => {
        "The oldest version of `just` that may run this justfile: \
         `set minimum-version := '1.40.0'`."
      }
      NoCd => "Recipes run in the directory `just` was started in, not the justfile's.",
      NoExitMessage => {
        "A recipe whose command fails ends without the `error: recipe … failed` message."
      }
      PositionalArguments => {
        "Recipe arguments are also passed to commands as positional arguments: `$1`, `$2`, \
         `$@` (and `$0` is the recipe's name)."
      }
      Quiet => "Recipe lines are not printed before they run (as if each began with `@`).",
      ScriptInterpreter => {
        "The command that runs `[script]` recipes, `['sh', '-eu']` by default: \
         `set script-interpreter := ['bash', '-eu']`."
      }
      Shell => {
        "The command that runs recipe lines, backticks and `shell()`, `sh -cu` by default: \
         `set shell := ['bash', '-uc']`."
      }
      Tempdir => "The directory where script recipes are written to temporary files.",
      Unstable => "Enables unstable features in this justfile.",
      WindowsPowershell => {
        "On Windows, runs recipe lines with PowerShell. Old; prefer `windows-shell`."
      }
      WindowsShell => {
        "The command that runs recipe lines on Windows (ignored elsewhere): \
         `set windows-shell := ['pwsh.exe', '-c']`."
      }
      WorkingDirectory => {
        "The directory recipes, backticks and path functions work in, relative to the \
         justfile's: `set working-directory := 'build'`."
      }
    }
  }
}

impl Setting {
  pub(crate) fn from_name(name: &str) -> Option<Setting> {
    Setting::ALL.iter().copied().find(|setting| setting.name() == name)
  }

  /// The kebab-case name written after `set`.
  pub(crate) fn name(self) -> &'static str {
    TABLE[self as usize].0
  }

  pub(crate) fn value_type(self) -> SettingType {
    TABLE[self as usize].1
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn names_round_trip() {
    for &setting in Setting::ALL {
      assert_eq!(Setting::from_name(setting.name()), Some(setting));
    }
    assert_eq!(Setting::from_name("nope"), None);
  }

  #[test]
  fn rows_are_in_name_order() {
    let names: Vec<&str> = Setting::ALL.iter().map(|setting| setting.name()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
  }

  #[test]
  fn every_setting_has_a_doc() {
    for setting in Setting::ALL {
      assert!(!setting.doc().trim().is_empty(), "{} has no doc", setting.name());
    }
  }
}
