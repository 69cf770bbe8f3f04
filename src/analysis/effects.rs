//! What attributes do. `Effects::of` decides it for the attributes of any
//! item in one `match` over every attribute, with no catch-all arm, so a new
//! attribute does not compile until its effect is decided here. Analysis
//! keeps the result in the model (`Recipe::effects`, and `private`, `doc` and
//! `groups` of aliases, assignments and modules); later stages read these
//! typed fields instead of searching the attribute list, which stays in the
//! parse node for what prints it as written (`--fmt`, `--dump`, `--show`,
//! `--json`, recipe help).

use crate::syntax::ast::{
  ArgAttribute, Attribute, AttributeEntry, Attributes, CacheAttribute, Expression, Interpreter,
  Name, Signal,
};

/// The attributes that decide something by being there, one bit each.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Flags(u16);

/// Defines the bits of `Flags` and a getter for each.
macro_rules! flags {
  ($($(#[$doc:meta])* $bit:ident => $getter:ident;)*) => {
    #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
    enum Bit { $($bit,)* }

    impl Flags {
      $(
        $(#[$doc])*
        pub(crate) fn $getter(self) -> bool {
          self.0 & (1 << Bit::$bit as u16) != 0
        }
      )*

      /// Every flag's getter, by name.
      #[cfg(test)]
      const GETTERS: &'static [(&'static str, fn(Flags) -> bool)] =
        &[$((stringify!($getter), Flags::$getter),)*];
    }
  };
}

flags! {
  /// `[default]`: the module's default recipe.
  DEFAULT => default_recipe;
  /// `[doc]`, with or without a value: it replaces the doc comment.
  DOC => doc;
  /// `[exit-message]`: a failure is reported even under `set no-exit-message`.
  EXIT_MESSAGE => exit_message;
  /// `[no-cd]`: runs in the invocation directory.
  NO_CD => no_cd;
  /// `[no-exit-message]`: a failure of the recipe's commands is not reported.
  NO_EXIT_MESSAGE => no_exit_message;
  /// `[no-quiet]`: `set quiet` does not silence the recipe's lines.
  NO_QUIET => no_quiet;
  /// `[parallel]`: the dependencies run in parallel.
  PARALLEL => parallel;
  /// `[positional-arguments]`: the arguments are also `$1`, `$2`, ….
  POSITIONAL_ARGUMENTS => positional_arguments;
  /// `[private]`. A name starting with `_` makes an item private too, which
  /// the model's `private` adds.
  PRIVATE => private;
  /// `[script]`, with or without a command (`Values::interpreter`): the body
  /// runs as one script.
  SCRIPT => script;
  /// `[shell]`: the body runs line by line even under `set default-script`.
  SHELL => shell;
  /// An OS attribute (`[linux]`, `[unix]`, …) is there.
  OS_NAMED => os_named;
  /// An OS attribute names this platform.
  OS_MATCHED => os_matched;
}

impl Flags {
  /// OS attributes enable an item only if one of them names this platform;
  /// an item without any is always enabled.
  pub(crate) fn enabled(self) -> bool {
    !self.os_named() || self.os_matched()
  }
}

/// What the attributes with arguments say, each in its typed form.
#[derive(Debug, Default)]
pub(crate) struct Values<'src> {
  /// `[arg(…)]`s, in source order.
  pub(crate) arguments: Vec<&'src ArgAttribute<'src>>,
  /// Their configuration of each parameter, by position, which analysis
  /// fills in after evaluating `pattern` and `help`; empty without `[arg]`.
  pub(crate) parameters: Vec<ParameterOptions<'src>>,
  pub(crate) cache: Option<&'src CacheAttribute<'src>>,
  pub(crate) confirm: Option<Confirm<'src>>,
  /// `[continue]`: the signals the recipe goes on after (SIGINT for a bare
  /// `[continue]`); empty without it.
  pub(crate) continue_on: &'src [Signal],
  /// The value of `[doc(…)]` (a bare `[doc]` only sets `Flags::doc`).
  pub(crate) doc: Option<&'src Expression<'src>>,
  /// `[env(NAME, VALUE)]`s, in source order.
  pub(crate) environment: Vec<Env<'src>>,
  /// `[extension(…)]`: the script file's extension.
  pub(crate) extension: Option<&'src str>,
  /// `[group(…)]`s, in source order.
  pub(crate) groups: Vec<&'src str>,
  /// The command of `[script(COMMAND, ARGUMENT…)]`.
  pub(crate) interpreter: Option<&'src Interpreter<'src>>,
  pub(crate) timestamp: Option<Timestamp<'src>>,
  pub(crate) working_directory: Option<WorkingDirectory<'src>>,
}

/// `[confirm]` or `[confirm(PROMPT)]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Confirm<'src> {
  pub(crate) prompt: Option<&'src Expression<'src>>,
}

/// `[env(NAME, VALUE)]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Env<'src> {
  /// The attribute's name token, which errors blame.
  pub(crate) token: Name<'src>,
  pub(crate) name: &'src Expression<'src>,
  pub(crate) value: &'src Expression<'src>,
}

/// `[timestamp]` or `[timestamp(FORMAT)]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timestamp<'src> {
  /// The attribute's name token, which errors blame.
  pub(crate) token: Name<'src>,
  pub(crate) format: Option<&'src Expression<'src>>,
}

/// `[working-directory(PATH)]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WorkingDirectory<'src> {
  /// The attribute's name token, which errors blame.
  pub(crate) token: Name<'src>,
  pub(crate) path: &'src Expression<'src>,
}

/// A bare `[continue]`.
const INTERRUPT: &[Signal] = &[Signal::INTERRUPT];

static NO_VALUES: Values<'static> = Values {
  arguments: Vec::new(),
  parameters: Vec::new(),
  cache: None,
  confirm: None,
  continue_on: &[],
  doc: None,
  environment: Vec::new(),
  extension: None,
  groups: Vec::new(),
  interpreter: None,
  timestamp: None,
  working_directory: None,
};

/// What an item's attributes do.
#[derive(Debug, Default)]
pub(crate) struct Effects<'src> {
  pub(crate) flags: Flags,
  /// None without attributes that take arguments, as for most items.
  values: Option<Box<Values<'src>>>,
}

impl<'src> Effects<'src> {
  /// The effects of `list`, an item's attributes.
  #[inline]
  pub(crate) fn of(list: &'src [AttributeEntry<'src>]) -> Self {
    // Most items have no attributes: no call then.
    if list.is_empty() {
      return Effects::default();
    }
    decide(list, true)
  }

  /// The flags of `list` alone: the same decisions, without collecting any
  /// values, so nothing is allocated.
  #[inline]
  pub(crate) fn flags_of(list: &'src [AttributeEntry<'src>]) -> Flags {
    if list.is_empty() {
      return Flags::default();
    }
    decide(list, false).flags
  }

  pub(crate) fn values(&self) -> &Values<'src> {
    self.values.as_deref().unwrap_or(&NO_VALUES)
  }

  pub(crate) fn values_mut(&mut self) -> &mut Values<'src> {
    self.values.get_or_insert_with(Box::default)
  }
}

/// Whether OS attributes leave the item enabled on this platform.
// Out of line: the loops over every item that ask it stay small.
#[inline(never)]
pub(crate) fn enabled(attributes: &Attributes) -> bool {
  Effects::flags_of(attributes.list).enabled()
}

/// The one place that decides what each attribute does. Which items an
/// attribute may annotate, its arguments and the combinations allowed are
/// checked by the parser; `collect` is false when only the flags are wanted.
fn decide<'src>(list: &'src [AttributeEntry<'src>], collect: bool) -> Effects<'src> {
  let mut decision = Decision { effects: Effects::default(), collect };
  for entry in list {
    let token = entry.name;
    match &entry.attribute {
      Attribute::Android
      | Attribute::Dragonfly
      | Attribute::Freebsd
      | Attribute::Linux
      | Attribute::Macos
      | Attribute::Netbsd
      | Attribute::Openbsd
      | Attribute::Unix
      | Attribute::Windows => {
        decision.flag(Bit::OS_NAMED);
        if entry.attribute.matches_platform() {
          decision.flag(Bit::OS_MATCHED);
        }
      }
      Attribute::Arg(arg) => decision.value(|values| values.arguments.push(arg)),
      Attribute::Cache(cache) => decision.value(|values| values.cache = Some(cache)),
      Attribute::Confirm(prompt) => {
        decision.value(|values| values.confirm = Some(Confirm { prompt: prompt.as_ref() }));
      }
      Attribute::Continue(signals) => {
        let signals = if signals.is_empty() { INTERRUPT } else { signals };
        decision.value(|values| values.continue_on = signals);
      }
      Attribute::Default => decision.flag(Bit::DEFAULT),
      Attribute::Doc(doc) => {
        decision.flag(Bit::DOC);
        if let Some(doc) = doc {
          decision.value(|values| values.doc = Some(doc));
        }
      }
      Attribute::Env(name, value) => {
        decision.value(|values| values.environment.push(Env { token, name, value }));
      }
      Attribute::ExitMessage => decision.flag(Bit::EXIT_MESSAGE),
      Attribute::Extension(extension) => {
        decision.value(|values| values.extension = Some(extension.cooked));
      }
      Attribute::Group(group) => decision.value(|values| values.groups.push(group.cooked)),
      // Shown by `--show` and the JSON dump; it does nothing else.
      Attribute::Metadata(_) => {}
      Attribute::NoCd => decision.flag(Bit::NO_CD),
      Attribute::NoExitMessage => decision.flag(Bit::NO_EXIT_MESSAGE),
      Attribute::NoQuiet => decision.flag(Bit::NO_QUIET),
      Attribute::Parallel => decision.flag(Bit::PARALLEL),
      Attribute::PositionalArguments => decision.flag(Bit::POSITIONAL_ARGUMENTS),
      Attribute::Private => decision.flag(Bit::PRIVATE),
      Attribute::Script(interpreter) => {
        decision.flag(Bit::SCRIPT);
        if let Some(interpreter) = interpreter {
          decision.value(|values| values.interpreter = Some(interpreter));
        }
      }
      Attribute::Shell => decision.flag(Bit::SHELL),
      Attribute::Timestamp(format) => {
        let format = format.as_ref();
        decision.value(|values| values.timestamp = Some(Timestamp { token, format }));
      }
      Attribute::WorkingDirectory(path) => {
        let directory = WorkingDirectory { token, path };
        decision.value(|values| values.working_directory = Some(directory));
      }
    }
  }
  decision.effects
}

/// The effects decided so far.
struct Decision<'src> {
  effects: Effects<'src>,
  /// Whether to collect the values, or only the flags.
  collect: bool,
}

impl<'src> Decision<'src> {
  fn flag(&mut self, bit: Bit) {
    self.effects.flags.0 |= 1 << bit as u16;
  }

  fn value(&mut self, set: impl FnOnce(&mut Values<'src>)) {
    if self.collect {
      set(self.effects.values_mut());
    }
  }
}

/// A parameter's `[arg(…)]` configuration.
#[derive(Debug, Default)]
pub(crate) struct ParameterOptions<'src> {
  pub long: Option<String>,
  pub short: Option<char>,
  /// Patterns (evaluated at compile time), anchored when checked.
  pub patterns: Vec<String>,
  pub value: Option<&'src Expression<'src>>,
  pub flag: bool,
  pub multiple: bool,
  pub min: Option<usize>,
  pub max: Option<usize>,
  pub help: Option<String>,
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::syntax::ast::{AttributeKind, Item};
  use crate::syntax::sources::Source;
  use crate::syntax::trees::Trees;

  /// The attributes of recipe `foo x` with `attributes` written above it.
  fn parse(attributes: &str) -> &'static [AttributeEntry<'static>] {
    let text = format!("[{attributes}]\nfoo x:\n  echo\n");
    // Leaked: the test process ends soon.
    let source: &'static Source = Box::leak(Box::new(Source::new(text, "justfile")));
    let trees: &'static Trees<'static> = Box::leak(Box::new(Trees::new()));
    let ast = crate::syntax::parser::parse_source(source, trees)
      .unwrap_or_else(|error| panic!("[{attributes}]: {error}"));
    let recipe = ast.items.iter().find_map(|item| match item {
      Item::Recipe(recipe) => Some(*recipe),
      _ => None,
    });
    recipe.map_or(&[], |recipe| recipe.attributes.list)
  }

  /// What `effects` sets: the flags by name, then the values that are not
  /// empty as `values.FIELD`.
  fn describe(effects: &Effects) -> Vec<&'static str> {
    let mut set: Vec<&'static str> = Flags::GETTERS
      .iter()
      .filter(|(_, getter)| getter(effects.flags))
      .map(|(name, _)| *name)
      .collect();
    // Destructured without `..`: a new field must be described here.
    let Values {
      arguments,
      parameters,
      cache,
      confirm,
      continue_on,
      doc,
      environment,
      extension,
      groups,
      interpreter,
      timestamp,
      working_directory,
    } = effects.values();
    let values = [
      ("values.arguments", !arguments.is_empty()),
      ("values.parameters", !parameters.is_empty()),
      ("values.cache", cache.is_some()),
      ("values.confirm", confirm.is_some()),
      ("values.continue_on", !continue_on.is_empty()),
      ("values.doc", doc.is_some()),
      ("values.environment", !environment.is_empty()),
      ("values.extension", extension.is_some()),
      ("values.groups", !groups.is_empty()),
      ("values.interpreter", interpreter.is_some()),
      ("values.timestamp", timestamp.is_some()),
      ("values.working_directory", working_directory.is_some()),
    ];
    set.extend(values.iter().filter(|(_, present)| *present).map(|(name, _)| *name));
    set
  }

  /// An attribute of kind `kind` as written, and what it sets besides the
  /// OS flags. Exhaustive: a new kind needs its case.
  fn case(kind: AttributeKind) -> (&'static str, &'static [&'static str]) {
    use AttributeKind::*;
    match kind {
      Android => ("android", &[]),
      Arg => ("arg('x', long)", &["values.arguments"]),
      Cache => ("cache", &["values.cache"]),
      Confirm => ("confirm('Sure?')", &["values.confirm"]),
      Continue => ("continue", &["values.continue_on"]),
      Default => ("default", &["default_recipe"]),
      Doc => ("doc('Builds.')", &["doc", "values.doc"]),
      Dragonfly => ("dragonfly", &[]),
      Env => ("env('A', 'b')", &["values.environment"]),
      ExitMessage => ("exit-message", &["exit_message"]),
      Extension => ("extension('.py')", &["values.extension"]),
      Freebsd => ("freebsd", &[]),
      Group => ("group('g')", &["values.groups"]),
      Linux => ("linux", &[]),
      Macos => ("macos", &[]),
      // Only shown: it has no effect.
      Metadata => ("metadata('m')", &[]),
      Netbsd => ("netbsd", &[]),
      NoCd => ("no-cd", &["no_cd"]),
      NoExitMessage => ("no-exit-message", &["no_exit_message"]),
      NoQuiet => ("no-quiet", &["no_quiet"]),
      Openbsd => ("openbsd", &[]),
      Parallel => ("parallel", &["parallel"]),
      PositionalArguments => ("positional-arguments", &["positional_arguments"]),
      Private => ("private", &["private"]),
      Script => ("script('python3')", &["script", "values.interpreter"]),
      Shell => ("shell", &["shell"]),
      Timestamp => ("timestamp", &["values.timestamp"]),
      Unix => ("unix", &[]),
      Windows => ("windows", &[]),
      WorkingDirectory => ("working-directory('dir')", &["values.working_directory"]),
    }
  }

  #[test]
  fn each_attribute_sets_exactly_its_effect() {
    for &kind in AttributeKind::ALL {
      let (written, expected) = case(kind);
      let list = parse(written);
      assert_eq!(list.len(), 1, "[{written}]");
      assert_eq!(list[0].attribute.kind(), kind, "[{written}]");
      let mut expected = expected.to_vec();
      if kind.is_os() {
        expected.insert(0, "os_named");
        if kind.matches_platform() {
          expected.insert(1, "os_matched");
        }
      }
      let effects = Effects::of(list);
      assert_eq!(describe(&effects), expected, "[{written}]");
      assert_eq!(Effects::flags_of(list), effects.flags, "[{written}]");
      // Flags alone allocate nothing.
      let only_flags = expected.iter().all(|name| !name.starts_with("values."));
      assert_eq!(effects.values.is_none(), only_flags, "[{written}]");
    }
  }

  #[test]
  fn optional_arguments() {
    let cases: [(&str, &[&str]); 4] = [
      ("doc", &["doc"]),
      ("script", &["script"]),
      ("confirm", &["values.confirm"]),
      ("timestamp('%H')", &["values.timestamp"]),
    ];
    for (written, expected) in cases {
      assert_eq!(describe(&Effects::of(parse(written))), expected, "[{written}]");
    }
  }

  #[test]
  fn values_are_typed() {
    let list = parse(
      "group('a'), group('b'), env('K', 'v'), env('L', 'w'), extension('.sh'), \
       continue('SIGHUP'), working-directory('d'), timestamp, confirm, script('sh', '-e'), \
       arg('x', short)",
    );
    let effects = Effects::of(list);
    let values = effects.values();
    assert_eq!(values.groups, ["a", "b"]);
    let tokens: Vec<&str> = values.environment.iter().map(|env| env.token.lexeme()).collect();
    assert_eq!(tokens, ["env", "env"]);
    assert_eq!(values.extension, Some(".sh"));
    assert_eq!(values.continue_on, [Signal::HANGUP]);
    assert_eq!(
      values.working_directory.map(|directory| directory.token.lexeme()),
      Some("working-directory")
    );
    assert!(values.timestamp.is_some_and(|timestamp| timestamp.format.is_none()));
    assert!(values.confirm.is_some_and(|confirm| confirm.prompt.is_none()));
    assert_eq!(values.interpreter.map(|interpreter| interpreter.command.cooked), Some("sh"));
    assert_eq!(values.arguments.len(), 1);
    assert!(values.parameters.is_empty());
    assert_eq!(Effects::of(parse("continue")).values().continue_on, [Signal::INTERRUPT]);
  }

  #[test]
  fn os_attributes_enable_the_item_on_a_platform_they_name() {
    let os: Vec<AttributeKind> =
      AttributeKind::ALL.iter().copied().filter(|kind| kind.is_os()).collect();
    for &first in &os {
      for &second in &os {
        if first == second {
          continue;
        }
        let list = parse(&format!("{}, {}", first.name(), second.name()));
        let expected = first.matches_platform() || second.matches_platform();
        assert_eq!(Effects::flags_of(list).enabled(), expected, "{first:?} {second:?}");
      }
    }
    assert!(Effects::flags_of(parse("private")).enabled());
    assert!(Effects::flags_of(&[]).enabled());
  }
}
