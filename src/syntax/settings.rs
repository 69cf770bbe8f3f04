//! The setting vocabulary: every `set NAME` the language knows and the kind
//! of value it takes. One table; the parser and the analyzer query it.

/// The kind of value a setting takes, which decides how `set` is parsed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SettingType {
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
  pub fn from_name(name: &str) -> Option<Setting> {
    Setting::ALL.iter().copied().find(|setting| setting.name() == name)
  }

  /// The kebab-case name written after `set`.
  pub fn name(self) -> &'static str {
    TABLE[self as usize].0
  }

  pub fn value_type(self) -> SettingType {
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
}
