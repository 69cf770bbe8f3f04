//! The attribute vocabulary: every attribute's name, its positional
//! argument count, whether it takes `key=value` arguments, the items it may
//! annotate and, for OS attributes, whether it names this platform. One
//! table; the parser, the analyzer, the formatter and execution query it.

/// The kinds of item an attribute can be written above. The names appear in
/// "`KIND` `NAME` has invalid attribute `ATTRIBUTE`" errors.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
  Alias,
  Assignment,
  Function,
  Import,
  Module,
  Recipe,
  Setting,
  Unexport,
}

impl ItemKind {
  pub(crate) fn name(self) -> &'static str {
    match self {
      ItemKind::Alias => "alias",
      ItemKind::Assignment => "assignment",
      ItemKind::Function => "function",
      ItemKind::Import => "import",
      ItemKind::Module => "module",
      ItemKind::Recipe => "recipe",
      ItemKind::Setting => "setting",
      ItemKind::Unexport => "unexport",
    }
  }
}

/// What the table says about one attribute.
struct Info {
  name: &'static str,
  min: usize,
  /// None: no upper bound.
  max: Option<usize>,
  /// Takes `key` / `key=value` arguments besides positional ones.
  keyed: bool,
  /// May appear more than once on one item.
  repeatable: bool,
  annotates: &'static [ItemKind],
  /// OS attributes: whether the attribute names this platform.
  os: Option<bool>,
}

const RECIPE: &[ItemKind] = &[ItemKind::Recipe];
const RECIPE_MODULE: &[ItemKind] = &[ItemKind::Module, ItemKind::Recipe];
const NAMED: &[ItemKind] =
  &[ItemKind::Alias, ItemKind::Assignment, ItemKind::Module, ItemKind::Recipe];
const ANY: &[ItemKind] = &[
  ItemKind::Alias,
  ItemKind::Assignment,
  ItemKind::Function,
  ItemKind::Import,
  ItemKind::Module,
  ItemKind::Recipe,
  ItemKind::Setting,
  ItemKind::Unexport,
];

/// Defines `AttributeKind` and its table from one list, so that a kind and
/// its row cannot disagree. The rows are in name (canonical) order.
macro_rules! attribute_kinds {
  ($(
    $kind:ident => $name:literal, ($min:literal, $max:expr), keyed: $keyed:literal,
      repeatable: $repeatable:literal, $annotates:expr, os: $os:expr;
  )*) => {
    #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub(crate) enum AttributeKind {
      $($kind,)*
    }

    impl AttributeKind {
      /// Every kind, in name order.
      pub(crate) const ALL: &'static [AttributeKind] = &[$(AttributeKind::$kind,)*];
    }

    /// Indexed by `AttributeKind as usize`.
    const TABLE: &[Info] = &[$(
      Info {
        name: $name,
        min: $min,
        max: $max,
        keyed: $keyed,
        repeatable: $repeatable,
        annotates: $annotates,
        os: $os,
      },
    )*];
  };
}

attribute_kinds! {
  Android => "android", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(target_os = "android"));
  Arg => "arg", (1, Some(1)), keyed: true, repeatable: true, RECIPE, os: None;
  Cache => "cache", (0, Some(0)), keyed: true, repeatable: false, RECIPE, os: None;
  Confirm => "confirm", (0, Some(1)), keyed: false, repeatable: false, RECIPE, os: None;
  Continue => "continue", (0, None), keyed: false, repeatable: false, RECIPE, os: None;
  Default => "default", (0, Some(0)), keyed: false, repeatable: false, RECIPE, os: None;
  Doc => "doc", (0, Some(1)), keyed: false, repeatable: false, RECIPE_MODULE, os: None;
  Dragonfly => "dragonfly", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(target_os = "dragonfly"));
  Env => "env", (2, Some(2)), keyed: false, repeatable: true, RECIPE, os: None;
  ExitMessage => "exit-message", (0, Some(0)), keyed: false, repeatable: false, RECIPE, os: None;
  Extension => "extension", (1, Some(1)), keyed: false, repeatable: false, RECIPE, os: None;
  Freebsd => "freebsd", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(target_os = "freebsd"));
  Group => "group", (1, Some(1)), keyed: false, repeatable: true, RECIPE_MODULE, os: None;
  Linux => "linux", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(target_os = "linux"));
  Macos => "macos", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(target_os = "macos"));
  Metadata => "metadata", (1, None), keyed: false, repeatable: true, RECIPE, os: None;
  Netbsd => "netbsd", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(target_os = "netbsd"));
  NoCd => "no-cd", (0, Some(0)), keyed: false, repeatable: false, RECIPE, os: None;
  NoExitMessage => "no-exit-message", (0, Some(0)), keyed: false, repeatable: false, RECIPE, os: None;
  NoQuiet => "no-quiet", (0, Some(0)), keyed: false, repeatable: false, RECIPE, os: None;
  Openbsd => "openbsd", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(target_os = "openbsd"));
  Parallel => "parallel", (0, Some(0)), keyed: false, repeatable: false, RECIPE, os: None;
  PositionalArguments => "positional-arguments", (0, Some(0)), keyed: false, repeatable: false, RECIPE, os: None;
  Private => "private", (0, Some(0)), keyed: false, repeatable: false, NAMED, os: None;
  Script => "script", (0, None), keyed: false, repeatable: false, RECIPE, os: None;
  Shell => "shell", (0, Some(0)), keyed: false, repeatable: false, RECIPE, os: None;
  Timestamp => "timestamp", (0, Some(1)), keyed: false, repeatable: false, RECIPE, os: None;
  Unix => "unix", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(unix));
  Windows => "windows", (0, Some(0)), keyed: false, repeatable: false, ANY, os: Some(cfg!(windows));
  WorkingDirectory => "working-directory", (1, Some(1)), keyed: false, repeatable: false, RECIPE, os: None;
}

/// Pairs of attributes a recipe may not carry together, in the order they
/// are checked and named in the error.
pub(crate) const CONFLICTS: [(AttributeKind, AttributeKind); 3] = [
  (AttributeKind::NoCd, AttributeKind::WorkingDirectory),
  (AttributeKind::ExitMessage, AttributeKind::NoExitMessage),
  (AttributeKind::Script, AttributeKind::Shell),
];

/// Attributes only a script recipe (`[script]`, a shebang, `set
/// default-script`) may carry, in canonical order, which is the order their
/// errors are reported in.
pub(crate) const SCRIPT_ONLY: [AttributeKind; 1] = [AttributeKind::Extension];

impl AttributeKind {
  /// An attribute line that uses the attribute (`--cheatsheet`).
  pub(crate) fn example(self) -> &'static str {
    use AttributeKind::*;
    match self {
      Android => "[android]",
      Arg => "[arg('mode', long, short='m', pattern='debug|release')]",
      Cache => "[cache(inputs='main.c', outputs='main')]",
      Confirm => "[confirm('Deploy to production?')]",
      Continue => "[continue('SIGINT')]",
      Default => "[default]",
      Doc => "[doc('Build the app')]",
      Dragonfly => "[dragonfly]",
      Env => "[env('RUST_LOG', 'debug')]",
      ExitMessage => "[exit-message]",
      Extension => "[extension('.py')]",
      Freebsd => "[freebsd]",
      Group => "[group('ci')]",
      Linux => "[linux]",
      Macos => "[macos]",
      Metadata => "[metadata('owner', 'web-team')]",
      Netbsd => "[netbsd]",
      NoCd => "[no-cd]",
      NoExitMessage => "[no-exit-message]",
      NoQuiet => "[no-quiet]",
      Openbsd => "[openbsd]",
      Parallel => "[parallel]",
      PositionalArguments => "[positional-arguments]",
      Private => "[private]",
      Script => "[script('python3')]",
      Shell => "[shell]",
      Timestamp => "[timestamp('%H:%M:%S')]",
      Unix => "[unix]",
      Windows => "[windows]",
      WorkingDirectory => "[working-directory('frontend')]",
    }
  }

  /// What the attribute does, in prose (the language server's hover).
  #[allow(clippy::too_many_lines)] // One arm per attribute, nothing else.
  pub(crate) fn doc(self) -> &'static str {
    use AttributeKind::*;
    match self {
      Android | Dragonfly | Freebsd | Linux | Macos | Netbsd | Openbsd | Unix | Windows => {
        "Enables the item only on that platform (`[unix]` on every Unix, macOS and the BSDs \
         included); an item with several of these is enabled on any of them. Elsewhere it does \
         not exist."
      }
      Arg => {
        "Configures parameter `NAME` as a command-line option: `[arg('target', long, \
         short='t', help='what to build')]`; also `value=`, `pattern=`, `flag`, `multiple`, \
         `min=`, `max=`."
      }
      Cache => {
        "Skips the recipe (a script or shell lines) when nothing it depends on changed since \
         its last successful run; `inputs=`, `outputs=` and `extra=` name what it depends on. \
         Unstable."
      }
      Confirm => {
        "Asks for confirmation before running the recipe, with the prompt given if any; \
         anything but `y` or `yes` stops the run. `--yes` answers for you."
      }
      Continue => {
        "If `just` receives one of the signals named (`'SIGINT'` by default, also `'SIGHUP'`, \
         `'SIGQUIT'`) while a command of this recipe runs and the command succeeds, the run \
         goes on."
      }
      Default => "Makes this recipe the module's default: the one run when no recipe is named.",
      Doc => {
        "The documentation shown by `--list` and `--help`, instead of the comment above: \
         `[doc('Build the site')]`; `[doc]` alone shows none."
      }
      Env => "Sets environment variable `NAME` to `VALUE` for the recipe's commands: `[env('RUST_LOG', 'debug')]`.",
      ExitMessage => "Prints the `error: recipe … failed` message for this recipe even under `set no-exit-message`.",
      Extension => "The extension of the script recipe's temporary file, dot included: `[extension('.py')]`.",
      Group => "Lists the recipe (or module) under group `NAME` in `--list`: `[group('test')]`. May be repeated.",
      Metadata => "Strings kept with the recipe for `--dump` and `--json`, with no effect on running it.",
      NoCd => "The recipe's commands run in the directory `just` was started in, not the justfile's.",
      NoExitMessage => "A failing command of this recipe ends it without the `error: recipe … failed` message.",
      NoQuiet => "Prints this recipe's lines before running them even under `set quiet`.",
      Parallel => "Runs the recipe's dependencies at the same time instead of one after the other.",
      PositionalArguments => {
        "Passes the recipe's arguments to its commands as positional arguments (`$1`, `$@`), \
         like `set positional-arguments` for this recipe only."
      }
      Private => {
        "Hides the item from `--list` and `--summary` (and a variable from `--evaluate`); a \
         private recipe can still be run by name."
      }
      Script => {
        "Runs the recipe's body as one script, with the command given (`[script('python3')]`) \
         or else the `script-interpreter` setting."
      }
      Shell => "Runs the recipe line by line, even under `set default-script` or with a `#!` first line.",
      Timestamp => {
        "Prints the time before each command of the recipe, in the format given (`'%H:%M:%S'` \
         by default)."
      }
      WorkingDirectory => "Runs the recipe's commands in `PATH`, relative to the justfile's directory: `[working-directory('docs')]`.",
    }
  }
}

impl AttributeKind {
  fn info(self) -> &'static Info {
    &TABLE[self as usize]
  }

  pub(crate) fn from_name(name: &str) -> Option<AttributeKind> {
    AttributeKind::ALL.iter().copied().find(|kind| kind.name() == name)
  }

  /// The kebab-case name; the canonical order of attributes is the byte
  /// order of these names.
  pub(crate) fn name(self) -> &'static str {
    self.info().name
  }

  /// Positional argument count: (minimum, maximum or None for no bound).
  pub(crate) fn arity(self) -> (usize, Option<usize>) {
    (self.info().min, self.info().max)
  }

  pub(crate) fn is_keyed(self) -> bool {
    self.info().keyed
  }

  /// Whether an item may carry the attribute more than once.
  pub(crate) fn is_repeatable(self) -> bool {
    self.info().repeatable
  }

  pub(crate) fn annotates(self, item: ItemKind) -> bool {
    self.info().annotates.contains(&item)
  }

  /// OS attributes enable or disable the item they annotate.
  #[cfg(test)]
  pub(crate) fn is_os(self) -> bool {
    self.info().os.is_some()
  }

  /// Whether an OS attribute names this platform (`unix` matches every Unix).
  pub(crate) fn matches_platform(self) -> bool {
    self.info().os == Some(true)
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn rows_are_in_name_order() {
    let names: Vec<&str> = AttributeKind::ALL.iter().map(|kind| kind.name()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
  }

  #[test]
  fn names_round_trip() {
    for &kind in AttributeKind::ALL {
      assert_eq!(AttributeKind::from_name(kind.name()), Some(kind));
    }
    assert_eq!(AttributeKind::from_name("nope"), None);
  }

  #[test]
  fn os_attributes_annotate_every_item() {
    for &kind in AttributeKind::ALL.iter().filter(|kind| kind.is_os()) {
      assert!(ANY.iter().all(|&item| kind.annotates(item)), "{}", kind.name());
    }
  }

  #[test]
  fn only_private_annotates_aliases() {
    let kinds: Vec<&str> = AttributeKind::ALL
      .iter()
      .filter(|kind| !kind.is_os() && kind.annotates(ItemKind::Alias))
      .map(|kind| kind.name())
      .collect();
    assert_eq!(kinds, ["private"]);
  }

  #[test]
  fn every_attribute_has_a_doc() {
    for kind in AttributeKind::ALL {
      assert!(!kind.doc().trim().is_empty(), "[{}] has no doc", kind.name());
    }
  }
}
