//! Turning the ordinary command-line arguments into recipe invocations: path
//! resolution, default recipes, and binding words to parameters, `[arg]`
//! options included.

use snafu::Snafu;

use crate::analysis::argument_error::{value_count_error, ArgumentError};
use crate::analysis::lookup::{lookup, suggest_recipe, suggest_submodule, Lookup, LookupError};
use crate::analysis::model::{Justfile, Module, Parameter, Recipe};
use crate::options::Options;
use crate::syntax::ast::ParameterKind;
use crate::syntax::path::split_colon_path;

/// What the command line supplied for one parameter value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ArgumentValue {
  Text(String),
  /// A `flag` option was given: its value is `true`.
  Flag,
  /// A `value=` option was given: the runner evaluates its expression.
  Fixed,
}

/// One recipe to run, with the arguments bound to its parameters.
#[derive(Debug)]
pub(crate) struct Invocation<'a, 'src> {
  /// `Module::id` of the recipe's module.
  pub module: usize,
  pub recipe: &'a Recipe<'src>,
  /// One entry per parameter, in declaration order; `None` = not supplied
  /// (the runner evaluates the default).
  pub arguments: Bound,
}

fn count_phrase(found: usize, min: usize, max: Option<usize>) -> String {
  let got = crate::text::count(found, "positional argument", "positional arguments");
  match max {
    Some(max) if max == min && found > max => format!("got {got} but only takes {max}"),
    Some(max) if max == min => format!("got {got} but takes {max}"),
    _ if found < min => format!("got {got} but takes at least {min}"),
    Some(max) => format!("got {got} but takes at most {max}"),
    None => format!("got {got} but takes at least {min}"),
  }
}

/// `just PATH ARGS…` of a count error, plain and coloured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UsageLine {
  pub plain: String,
  pub colored: String,
}

#[derive(Debug, Snafu)]
pub(crate) enum InvocationError {
  #[snafu(transparent)]
  Lookup { source: LookupError },
  #[snafu(transparent)]
  Argument { source: ArgumentError },
  #[snafu(display(
    "recipe `{recipe}` cannot be used as default recipe since it requires at least {}",
    crate::text::count(*min, "argument", "arguments")
  ))]
  DefaultRecipeRequiresArguments { recipe: String, min: usize },
  #[snafu(display("justfile contains no recipes"))]
  NoRecipes,
  #[snafu(display("justfile contains no default recipe"))]
  NoDefaultRecipe,
  /// The only error followed by a `usage:` block (see `usage_block`).
  #[snafu(display("recipe `{recipe}` {}", count_phrase(*found, *min, *max)))]
  ArgumentCount {
    recipe: String,
    found: usize,
    min: usize,
    max: Option<usize>,
    usage: Box<UsageLine>,
  },
  #[snafu(display("argument `{argument}` is not a valid option"))]
  InvalidOption { argument: String },
  #[snafu(display("recipe `{recipe}` does not have option `{option}`"))]
  UnknownOption { recipe: String, option: String },
  #[snafu(display("recipe `{recipe}` flag `{option}` does not take value"))]
  FlagTakesNoValue { recipe: String, option: String },
  #[snafu(display(
    "recipe `{recipe}` option `{option}` takes a value and so must be last when combined with other options"
  ))]
  ValueOptionNotLast { recipe: String, option: String },
  #[snafu(display("recipe `{recipe}` option `{option}` missing value"))]
  MissingOptionValue { recipe: String, option: String },
  #[snafu(display("recipe `{recipe}` option `{option}` cannot be passed more than once"))]
  OptionRepeated { recipe: String, option: String },
  #[snafu(display("recipe `{recipe}` requires option `{option}`"))]
  MissingOption { recipe: String, option: String },
  #[snafu(display("expected 1 command-line recipe invocation but found {found}"))]
  TooManyInvocations { found: usize },
}

impl InvocationError {
  /// The `usage:` block printed after a count error, if any.
  pub(crate) fn usage_block(&self, color: bool) -> Option<String> {
    match self {
      InvocationError::ArgumentCount { usage, .. } => Some(if color {
        format!("\x1b[1;33musage:\x1b[0m\n    {}\n", usage.colored)
      } else {
        format!("usage:\n    {}\n", usage.plain)
      }),
      _ => None,
    }
  }

  /// Unknown recipe / submodule / absent module: what `--allow-missing` and
  /// `set fallback` react to.
  pub(crate) fn is_missing(&self) -> bool {
    matches!(self, InvocationError::Lookup { source } if source.is_missing())
  }

  pub(crate) fn is_unknown(&self) -> bool {
    matches!(self, InvocationError::Lookup { source } if source.is_unknown())
  }
}

// ---------------------------------------------------------------------------
// Recipe resolution

/// A resolved recipe path: the recipe and its module, plus the module path.
struct Resolved<'a, 'src> {
  module: &'a Module<'src>,
  recipe: &'a Recipe<'src>,
  /// The recipe is a module's default (no explicit recipe named).
  default: bool,
}

fn lookup_failure(lookup: Lookup, name: &str, path: &str) -> InvocationError {
  match lookup {
    Lookup::DisabledRecipe(modules) => {
      LookupError::RecipeDependsOnAbsentModule { name: name.into(), modules }.into()
    }
    Lookup::DisabledAlias(modules) => {
      LookupError::AliasDependsOnAbsentModule { name: name.into(), modules }.into()
    }
    Lookup::AbsentModule => LookupError::AbsentModule { path: path.into() }.into(),
    _ => LookupError::UnknownRecipe { path: path.into(), suggestion: None }.into(),
  }
}

fn default_recipe<'a, 'src>(
  module: &'a Module<'src>,
) -> Result<Resolved<'a, 'src>, InvocationError> {
  let recipe = match module.default_recipe() {
    Some(recipe) => recipe,
    None if module.recipes.is_empty() => return Err(InvocationError::NoRecipes),
    None => return Err(InvocationError::NoDefaultRecipe),
  };
  Ok(Resolved { module, recipe, default: true })
}

/// Resolves one colon-form word (`a::b::c`).
fn resolve_colon_word<'a, 'src>(
  root: &'a Module<'src>,
  word: &str,
  is_last: bool,
) -> Result<Resolved<'a, 'src>, InvocationError> {
  let trimmed = if is_last { word.strip_suffix("::").unwrap_or(word) } else { word };
  let unknown = || LookupError::UnknownRecipe { path: word.to_string(), suggestion: None };
  let components = split_colon_path(trimmed).ok_or_else(unknown)?;
  let mut module = root;
  for (index, component) in components.iter().enumerate() {
    let so_far = components[..=index].join("::");
    let last = index + 1 == components.len();
    match lookup(module, component) {
      Lookup::Module(submodule) => module = submodule,
      Lookup::Recipe { module, recipe } if last => {
        return Ok(Resolved { module, recipe, default: false });
      }
      Lookup::Recipe { .. } => return Err(LookupError::ExpectedSubmodule { path: so_far }.into()),
      Lookup::Unknown if !last => {
        let suggestion = suggest_submodule(module, component);
        return Err(LookupError::UnknownSubmodule { path: so_far, suggestion }.into());
      }
      Lookup::Unknown => {
        let suggestion = suggest_recipe(module, component);
        return Err(LookupError::UnknownRecipe { path: so_far, suggestion }.into());
      }
      other => return Err(lookup_failure(other, component, &so_far)),
    }
  }
  default_recipe(module)
}

/// Resolves word-form paths (`foo bar`); returns the number of words used.
fn resolve_words<'a, 'src>(
  root: &'a Module<'src>,
  words: &[String],
) -> Result<(Resolved<'a, 'src>, usize), InvocationError> {
  let mut module = root;
  for (index, word) in words.iter().enumerate() {
    let so_far = words[..=index].join(" ");
    match lookup(module, word) {
      Lookup::Module(submodule) => module = submodule,
      Lookup::Recipe { module, recipe } => {
        return Ok((Resolved { module, recipe, default: false }, index + 1));
      }
      Lookup::Unknown => {
        let suggestion = suggest_recipe(module, word);
        return Err(LookupError::UnknownRecipe { path: so_far, suggestion }.into());
      }
      Lookup::AbsentModule => {
        let mut path = module.path.clone();
        path.push(word.clone());
        return Err(LookupError::AbsentModule { path: path.join("::") }.into());
      }
      other => return Err(lookup_failure(other, word, &so_far)),
    }
  }
  Ok((default_recipe(module)?, words.len()))
}

fn resolve_next<'a, 'src>(
  root: &'a Module<'src>,
  words: &[String],
) -> Result<(Resolved<'a, 'src>, usize), InvocationError> {
  match words.first() {
    Some(word) if word.contains(':') => Ok((resolve_colon_word(root, word, words.len() == 1)?, 1)),
    _ => resolve_words(root, words),
  }
}

// ---------------------------------------------------------------------------
// Invocations

/// Turns the ordinary arguments into invocations.
pub(crate) fn parse_invocations<'a, 'src>(
  justfile: &'a Justfile<'src>,
  arguments: &[String],
  config: &Options,
) -> Result<Vec<Invocation<'a, 'src>>, InvocationError> {
  match parse_command_line(justfile, arguments, config)? {
    Parsed::Run(invocations) => Ok(invocations),
    Parsed::Help(request) => Err(request.replaces),
  }
}

/// What the ordinary arguments ask for.
#[derive(Debug)]
pub(crate) enum Parsed<'a, 'src> {
  Run(Vec<Invocation<'a, 'src>>),
  Help(HelpRequest<'a, 'src>),
}

/// `RECIPE --help`, `RECIPE -h` or `MODULE --help` where the plain
/// invocation rules reject that word with `replaces`.
#[derive(Debug)]
pub(crate) struct HelpRequest<'a, 'src> {
  pub module: &'a Module<'src>,
  /// None: help for the module (its recipe listing).
  pub recipe: Option<&'a Recipe<'src>>,
  /// The error the invocation rules report for the help word.
  pub replaces: InvocationError,
}

fn is_help_word(word: &str) -> bool {
  word == "--help" || word == "-h"
}

/// Like `parse_invocations`, but a `--help`/`-h` that no parameter takes is
/// a request for help (unless a `--` came before it).
pub(crate) fn parse_command_line<'a, 'src>(
  justfile: &'a Justfile<'src>,
  arguments: &[String],
  config: &Options,
) -> Result<Parsed<'a, 'src>, InvocationError> {
  let root = &justfile.root;
  let mut invocations = Vec::new();
  if arguments.is_empty() {
    let resolved = default_recipe(root)?;
    invocations.push(bind_default(resolved)?);
  }
  let help_allowed = |rest: &[String], offset: usize| {
    let at = arguments.len() - rest.len() + offset;
    !arguments[..at].iter().any(|word| word == "--")
  };
  let mut rest = arguments;
  while !rest.is_empty() {
    let (resolved, used) = match resolve_next(root, rest) {
      Ok(resolved) => resolved,
      Err(replaces) => {
        return match module_before_help_word(root, rest) {
          Some((module, offset)) if help_allowed(rest, offset) => {
            Ok(Parsed::Help(HelpRequest { module, recipe: None, replaces }))
          }
          _ => Err(replaces),
        };
      }
    };
    rest = &rest[used..];
    if resolved.default && rest.is_empty() {
      invocations.push(bind_default(resolved)?);
      continue;
    }
    let (arguments, used) = match Binder::new(resolved.recipe, rest).run() {
      Ok(bound) => bound,
      Err(failure) => match failure.help_word_at {
        Some(offset) if help_allowed(rest, offset) => {
          return Ok(Parsed::Help(help_request(resolved, failure.error)));
        }
        _ => return Err(failure.error),
      },
    };
    rest = &rest[used..];
    if rest.first().is_some_and(|word| is_help_word(word)) && help_allowed(rest, 0) {
      if let Err(replaces) = resolve_next(root, rest) {
        return Ok(Parsed::Help(help_request(resolved, replaces)));
      }
    }
    invocations.push(Invocation { module: resolved.module.id, recipe: resolved.recipe, arguments });
  }
  if config.one && invocations.len() > 1 {
    return Err(InvocationError::TooManyInvocations { found: invocations.len() });
  }
  Ok(Parsed::Run(invocations))
}

/// Help for the recipe, or for its module when the recipe was only the
/// module's default (`just foo::bar --help` with `bar` a module).
fn help_request<'a, 'src>(
  resolved: Resolved<'a, 'src>,
  replaces: InvocationError,
) -> HelpRequest<'a, 'src> {
  let recipe = (!resolved.default).then_some(resolved.recipe);
  HelpRequest { module: resolved.module, recipe, replaces }
}

/// `foo bar --help` with `foo bar` a module path: the module and the
/// position of the help word.
fn module_before_help_word<'a, 'src>(
  root: &'a Module<'src>,
  words: &[String],
) -> Option<(&'a Module<'src>, usize)> {
  let mut module = root;
  for (index, word) in words.iter().enumerate() {
    match lookup(module, word) {
      Lookup::Module(submodule) => module = submodule,
      _ if index > 0 && is_help_word(word) => return Some((module, index)),
      _ => return None,
    }
  }
  None
}

fn bind_default<'a, 'src>(
  resolved: Resolved<'a, 'src>,
) -> Result<Invocation<'a, 'src>, InvocationError> {
  // Required options count here too; flags never do.
  let min = (resolved.recipe.parameters().iter())
    .filter(|p| {
      !p.flag()
        && p.default().is_none()
        && (p.kind() != ParameterKind::Star || p.min().unwrap_or(0) > 0)
    })
    .count();
  if min > 0 {
    return Err(InvocationError::DefaultRecipeRequiresArguments {
      recipe: resolved.recipe.name().lexeme().to_string(),
      min,
    });
  }
  let (arguments, _) = bind_arguments(resolved.recipe, &[])?;
  Ok(Invocation { module: resolved.module.id, recipe: resolved.recipe, arguments })
}

/// When the run should list a module instead: the module path to list.
pub(crate) fn default_listing(
  justfile: &Justfile,
  arguments: &[String],
  config: &Options,
) -> Option<Vec<String>> {
  let root = &justfile.root;
  if arguments.is_empty() {
    return (config.default_list || root.settings.default_list).then(Vec::new);
  }
  let components: Vec<String> = match arguments {
    [word] if word.contains(':') => split_colon_path(word.strip_suffix("::").unwrap_or(word))?
      .into_iter()
      .map(String::from)
      .collect(),
    words => words.to_vec(),
  };
  let mut module = root;
  for component in &components {
    match lookup(module, component) {
      Lookup::Module(submodule) => module = submodule,
      _ => return None,
    }
  }
  (config.default_list || module.settings.default_list).then_some(components)
}

// ---------------------------------------------------------------------------
// Binding

/// Per parameter, the values supplied (None = not supplied).
pub(crate) type Bound = Vec<Option<Vec<ArgumentValue>>>;

fn takes_value(parameter: Parameter) -> bool {
  !parameter.flag() && parameter.value().is_none()
}

fn accepts_many(parameter: Parameter) -> bool {
  parameter.multiple() || parameter.kind().is_variadic()
}

/// A binding error, and where the word it rejects is a bare `--help`/`-h`
/// that is not one of the recipe's options, that word's position.
struct BindFailure {
  error: InvocationError,
  help_word_at: Option<usize>,
}

impl From<InvocationError> for BindFailure {
  fn from(error: InvocationError) -> Self {
    BindFailure { error, help_word_at: None }
  }
}

impl BindFailure {
  fn at(error: InvocationError, word: &str, index: usize) -> Self {
    let unknown = matches!(&error, InvocationError::UnknownOption { option, .. } if option == word);
    let help_word_at = (unknown && is_help_word(word)).then_some(index);
    BindFailure { error, help_word_at }
  }
}

struct Binder<'r, 'src, 'w> {
  recipe: &'r Recipe<'src>,
  words: &'w [String],
  bound: Bound,
  index: usize,
  positional: Vec<usize>,
  next_positional: usize,
  positional_count: usize,
}

impl<'r, 'src, 'w> Binder<'r, 'src, 'w> {
  fn new(recipe: &'r Recipe<'src>, words: &'w [String]) -> Self {
    let positional = recipe
      .parameters()
      .iter()
      .enumerate()
      .filter(|(_, p)| !p.is_option())
      .map(|(i, _)| i)
      .collect();
    Binder {
      recipe,
      words,
      bound: vec![None; recipe.parameters().len()],
      index: 0,
      positional,
      next_positional: 0,
      positional_count: 0,
    }
  }

  fn recipe_name(&self) -> String {
    self.recipe.name().lexeme().to_string()
  }

  /// Puts `word` in the next positional slot; false if all are full.
  fn take_positional(&mut self, word: &str) -> bool {
    let Some(&slot) = self.positional.get(self.next_positional) else {
      return false;
    };
    let values = self.bound[slot].get_or_insert_with(Vec::new);
    values.push(ArgumentValue::Text(word.to_string()));
    if self.recipe.parameters().get(slot).is_some_and(|p| !p.kind().is_variadic()) {
      self.next_positional += 1;
    }
    self.positional_count += 1;
    true
  }

  fn run(mut self) -> Result<(Bound, usize), BindFailure> {
    self.bind_words()?;
    self.check_missing().map_err(BindFailure::from)?;
    self.check_values().map_err(BindFailure::from)?;
    Ok((self.bound, self.index))
  }

  /// Bind words while the recipe takes them, checking nothing missing.
  fn bind_words(&mut self) -> Result<(), BindFailure> {
    let has_options = self.recipe.parameters().iter().any(Parameter::is_option);
    let mut options_ended = !has_options;
    while let Some(word) = self.words.get(self.index) {
      if !options_ended && word == "--" {
        options_ended = true;
        self.index += 1;
      } else if !options_ended && word.starts_with("--") {
        self.index += 1;
        self.long_option(word).map_err(|error| BindFailure::at(error, word, self.index - 1))?;
      } else if !options_ended && word.starts_with('-') && word != "-" {
        self.index += 1;
        self.short_options(word).map_err(|error| BindFailure::at(error, word, self.index - 1))?;
      } else if self.take_positional(word) {
        self.index += 1;
      } else {
        break;
      }
    }
    Ok(())
  }

  fn long_option(&mut self, word: &str) -> Result<(), InvocationError> {
    let body = &word[2..];
    let (name, inline) = match body.split_once('=') {
      Some((name, value)) => (name, Some(value)),
      None => (body, None),
    };
    if name.is_empty() {
      return Err(InvocationError::InvalidOption { argument: word.to_string() });
    }
    let written = format!("--{name}");
    let slot = self.recipe.parameters().iter().position(|p| p.long() == Some(name));
    let Some(slot) = slot else {
      return Err(InvocationError::UnknownOption { recipe: self.recipe_name(), option: written });
    };
    self.apply_option(slot, &written, inline)
  }

  fn short_options(&mut self, word: &str) -> Result<(), InvocationError> {
    let body = &word[1..];
    let (switches, inline) = match body.split_once('=') {
      Some((switches, value)) => (switches, Some(value)),
      None => (body, None),
    };
    if switches.is_empty() {
      return Err(InvocationError::InvalidOption { argument: word.to_string() });
    }
    let count = switches.chars().count();
    for (position, c) in switches.chars().enumerate() {
      let written = format!("-{c}");
      let slot = self.recipe.parameters().iter().position(|p| p.short() == Some(c));
      let Some(slot) = slot else {
        return Err(InvocationError::UnknownOption { recipe: self.recipe_name(), option: written });
      };
      let last = position + 1 == count;
      if !last && self.recipe.parameters().get(slot).is_some_and(takes_value) {
        return Err(InvocationError::ValueOptionNotLast {
          recipe: self.recipe_name(),
          option: written,
        });
      }
      self.apply_option(slot, &written, if last { inline } else { None })?;
    }
    Ok(())
  }

  fn apply_option(
    &mut self,
    slot: usize,
    written: &str,
    inline: Option<&str>,
  ) -> Result<(), InvocationError> {
    let Some(parameter) = self.recipe.parameters().get(slot) else { return Ok(()) };
    let value = if takes_value(parameter) {
      if let Some(value) = inline {
        ArgumentValue::Text(value.to_string())
      } else {
        let Some(next) = self.words.get(self.index) else {
          return Err(InvocationError::MissingOptionValue {
            recipe: self.recipe_name(),
            option: written.to_string(),
          });
        };
        self.index += 1;
        ArgumentValue::Text(next.clone())
      }
    } else if inline.is_some() {
      return Err(InvocationError::FlagTakesNoValue {
        recipe: self.recipe_name(),
        option: written.to_string(),
      });
    } else if parameter.flag() {
      ArgumentValue::Flag
    } else {
      ArgumentValue::Fixed
    };
    if self.bound[slot].is_some() && !accepts_many(parameter) {
      return Err(InvocationError::OptionRepeated {
        recipe: self.recipe_name(),
        option: written.to_string(),
      });
    }
    self.bound[slot].get_or_insert_with(Vec::new).push(value);
    Ok(())
  }

  fn check_missing(&self) -> Result<(), InvocationError> {
    for (parameter, bound) in self.recipe.parameters().iter().zip(&self.bound) {
      let optional = bound.is_some()
        || parameter.default().is_some()
        || parameter.flag()
        || parameter.kind() == ParameterKind::Star;
      if optional {
        continue;
      }
      if parameter.is_option() {
        let option = match (&parameter.long(), parameter.short()) {
          (Some(long), _) => format!("--{long}"),
          (None, Some(short)) => format!("-{short}"),
          (None, None) => String::new(),
        };
        return Err(InvocationError::MissingOption { recipe: self.recipe_name(), option });
      }
      return Err(self.count_error());
    }
    Ok(())
  }

  fn count_error(&self) -> InvocationError {
    let path = self.recipe.namepath.to_string();
    InvocationError::ArgumentCount {
      recipe: self.recipe_name(),
      found: self.positional_count,
      min: self.recipe.min_arguments(),
      max: self.recipe.max_arguments(),
      usage: Box::new(UsageLine {
        plain: crate::output::usage::usage_line(self.recipe, &path, false),
        colored: crate::output::usage::usage_line(self.recipe, &path, true),
      }),
    }
  }

  fn check_values(&self) -> Result<(), InvocationError> {
    for (parameter, bound) in self.recipe.parameters().iter().zip(&self.bound) {
      let Some(values) = bound else { continue };
      self.check_patterns(parameter, values)?;
      // A `value=` switch's count is known once its value is evaluated.
      if values.iter().any(|value| *value != ArgumentValue::Fixed) {
        self.check_value_count(parameter, values.len())?;
      }
    }
    Ok(())
  }

  fn check_patterns(
    &self,
    parameter: Parameter,
    values: &[ArgumentValue],
  ) -> Result<(), InvocationError> {
    let texts = values.iter().filter_map(|value| match value {
      ArgumentValue::Text(text) => Some(text.as_str()),
      _ => None,
    });
    match parameter.first_pattern_mismatch(texts) {
      Some(text) => Err(
        ArgumentError::PatternMismatch {
          argument: text.to_string(),
          recipe: self.recipe_name(),
          parameter: parameter.name().lexeme().to_string(),
          patterns: parameter.patterns().to_vec(),
        }
        .into(),
      ),
      None => Ok(()),
    }
  }

  fn check_value_count(&self, parameter: Parameter, found: usize) -> Result<(), InvocationError> {
    match value_count_error(&self.recipe_name(), parameter, found) {
      Some(error) => Err(error.into()),
      None => Ok(()),
    }
  }
}

/// Binds as many of `words` as the recipe takes; returns the bound values
/// and the number of words consumed.
pub(crate) fn bind_arguments(
  recipe: &Recipe,
  words: &[String],
) -> Result<(Bound, usize), InvocationError> {
  Binder::new(recipe, words).run().map_err(|failure| failure.error)
}

/// Completion: the parameter the word after the ordinary arguments `words`
/// would be bound to, with its recipe; `None` when that word would start
/// another invocation, or `words` name no recipe.
pub(crate) fn parameter_of_next_word<'a, 'src>(
  justfile: &'a Justfile<'src>,
  words: &[String],
) -> Option<(&'a Recipe<'src>, Parameter<'a, 'src>)> {
  /// Stands for the word being completed; no argument is this.
  const NEXT: &str = "\0next word";
  let mut index = 0;
  while index < words.len() {
    let (resolved, used) = resolve_next(&justfile.root, &words[index..]).ok()?;
    index += used;
    let mut rest = words[index..].to_vec();
    rest.push(NEXT.to_string());
    let mut binder = Binder::new(resolved.recipe, &rest);
    binder.bind_words().ok()?;
    if binder.index < rest.len() {
      index += binder.index;
      continue;
    }
    let next = ArgumentValue::Text(NEXT.to_string());
    let slot = binder
      .bound
      .iter()
      .position(|values| values.as_ref().is_some_and(|values| values.contains(&next)))?;
    return Some((resolved.recipe, resolved.recipe.parameters().get(slot)?));
  }
  None
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::analysis::fixtures::*;

  fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
  }

  /// `r a v n="d" m=""` with `-v/--verbose` flag, `-n/--n` and multiple `-m`;
  /// `s x`; `hello`; module `sub` with `bar` and `baz x`; `alias b := sub::bar`.
  fn options_justfile() -> Justfile<'static> {
    let mut root = module(&[]);
    let mut v = param("v");
    v.options_mut().long = Some("verbose".into());
    v.options_mut().short = Some('v');
    v.options_mut().flag = true;
    let mut n = param("n");
    n.options_mut().short = Some('n');
    n.options_mut().long = Some("n".into());
    edit_param(&mut n, |p| p.default = Some(Box::leak(Box::new(string("\"d\"")))));
    let mut m = param("m");
    m.options_mut().short = Some('m');
    m.options_mut().multiple = true;
    edit_param(&mut m, |p| p.default = Some(Box::leak(Box::new(string("\"\"")))));
    let mut level = param("level");
    level.options_mut().long = Some("lvl".into());
    level.options_mut().patterns = vec!["[0-9]+".into()];
    edit_param(&mut level, |p| p.default = Some(Box::leak(Box::new(string("'1'")))));
    add_recipes(
      &mut root,
      vec![
        recipe(&[], "r", vec![param("a"), v, n, m]),
        recipe(&[], "s", vec![param("x")]),
        recipe(&[], "hello", vec![]),
        recipe(&[], "p", vec![level]),
      ],
    );
    let mut sub = module(&["sub"]);
    add_recipes(
      &mut sub,
      vec![recipe(&["sub"], "bar", vec![]), recipe(&["sub"], "baz", vec![param("x")])],
    );
    add_module(&mut root, "sub", sub);
    add_alias(&mut root, alias("b", &["sub", "bar"]));
    root.absent_modules.insert("opt");
    justfile(root)
  }

  fn render(result: Result<Vec<Invocation>, InvocationError>) -> String {
    match result {
      Ok(invocations) => invocations
        .iter()
        .map(|invocation| {
          let arguments: Vec<String> = invocation
            .arguments
            .iter()
            .map(|argument| match argument {
              None => "-".to_string(),
              Some(values) => values
                .iter()
                .map(|value| match value {
                  ArgumentValue::Text(text) => text.clone(),
                  ArgumentValue::Flag => "true".into(),
                  ArgumentValue::Fixed => "fixed".into(),
                })
                .collect::<Vec<_>>()
                .join(","),
            })
            .collect();
          format!("{}({})", invocation.recipe.namepath, arguments.join(" "))
        })
        .collect::<Vec<_>>()
        .join(" "),
      Err(error) => format!("error: {error}{}", error.usage_block(false).unwrap_or_default()),
    }
  }

  #[test]
  fn invocations_match_reference() {
    let justfile = options_justfile();
    let config = Options::default_for("/tmp".into());
    let cases = [
      ("", "r got 0 default"),
      ("r 1", "r(1 - - -)"),
      ("r -v 1", "r(1 true - -)"),
      ("r 1 -v", "r(1 true - -)"),
      ("r -vn 3 1", "r(1 true 3 -)"),
      ("r -nv 3 1", "error: recipe `r` option `-n` takes a value and so must be last when combined with other options"),
      ("r -n=3 1", "r(1 - 3 -)"),
      ("r --n 5 1", "r(1 - 5 -)"),
      ("r --verbose=1 1", "error: recipe `r` flag `--verbose` does not take value"),
      ("r -v=1 x", "error: recipe `r` flag `-v` does not take value"),
      ("r -- -v", "r(-v - - -)"),
      ("r 1 -- s 2", "r(1 - - -) s(2)"),
      ("r 1 s 2", "r(1 - - -) s(2)"),
      ("r 1 --nope", "error: recipe `r` does not have option `--nope`"),
      ("r --=3", "error: argument `--=3` is not a valid option"),
      ("r -n", "error: recipe `r` option `-n` missing value"),
      ("r --n", "error: recipe `r` option `--n` missing value"),
      ("r -n 1 --n 2 x", "error: recipe `r` option `--n` cannot be passed more than once"),
      ("r -m 1 -m 2 x", "r(x - - 1,2)"),
      ("r -", "r(- - - -)"),
      ("r - -v", "r(- true - -)"),
      ("r -vx", "error: recipe `r` does not have option `-x`"),
      ("r 1 s", "error: recipe `s` got 0 positional arguments but takes 1usage:\n    just s x\n"),
      ("r 1 2", "error: justfile does not contain recipe `2`\nDid you mean `p`?"),
      ("hell", "error: justfile does not contain recipe `hell`\nDid you mean `hello`?"),
      ("sub baz", "error: recipe `baz` got 0 positional arguments but takes 1usage:\n    just sub::baz x\n"),
      ("sub", "sub::bar()"),
      ("sub::", "sub::bar()"),
      ("sub:: hello", "error: justfile does not contain recipe `sub::`"),
      ("sub::bar", "sub::bar()"),
      ("b", "sub::bar()"),
      ("sub bxr", "error: justfile does not contain recipe `sub bxr`\nDid you mean `bar`?"),
      ("sbu::bar", "error: justfile does not contain submodule `sbu`\nDid you mean `sub`?"),
      ("hello::x", "error: expected submodule at `hello` but found recipe"),
      ("opt", "error: optional module `opt` is absent"),
      ("opt::x", "error: optional module `opt` is absent"),
      ("p --lvl x", "error: argument `x` passed to recipe `p` parameter `level` does not match pattern `[0-9]+`"),
      ("p --lvl 12", "p(12)"),
    ];
    for (arguments, expected) in cases {
      if arguments.is_empty() {
        continue;
      }
      let result = parse_invocations(&justfile, &words(arguments), &config);
      assert_eq!(render(result), expected, "arguments: {arguments}");
    }
  }

  #[test]
  fn default_recipe_and_one() {
    let justfile = options_justfile();
    let mut config = Options::default_for("/tmp".into());
    assert_eq!(
      render(parse_invocations(&justfile, &[], &config)),
      "error: recipe `r` cannot be used as default recipe since it requires at least 1 argument"
    );
    config.one = true;
    assert_eq!(
      render(parse_invocations(&justfile, &words("hello hello"), &config)),
      "error: expected 1 command-line recipe invocation but found 2"
    );
    let empty = justfile_with_nothing();
    assert_eq!(
      render(parse_invocations(&empty, &[], &config)),
      "error: justfile contains no recipes"
    );
  }

  #[test]
  fn help_requests() {
    let justfile = options_justfile();
    let config = Options::default_for("/tmp".into());
    let cases = [
      ("hello --help", "help hello"),
      ("hello -h hello", "help hello"),
      ("r 1 --help", "help r"),
      ("r 1 -vh", "error"),
      ("r -- --help", "run"),
      ("s --help", "run"),
      ("s x -- --help", "error"),
      ("sub --help", "help module sub"),
      ("sub baz --help", "run"),
      ("sub::bar -h", "help sub::bar"),
    ];
    for (arguments, expected) in cases {
      let outcome = match parse_command_line(&justfile, &words(arguments), &config) {
        Ok(Parsed::Run(_)) => "run".to_string(),
        Ok(Parsed::Help(HelpRequest { recipe: Some(recipe), .. })) => {
          format!("help {}", recipe.namepath)
        }
        Ok(Parsed::Help(HelpRequest { module, recipe: None, .. })) => {
          format!("help module {}", module.path.join("::"))
        }
        Err(_) => "error".to_string(),
      };
      assert_eq!(outcome, expected, "arguments: {arguments}");
    }
  }

  fn justfile_with_nothing() -> Justfile<'static> {
    justfile(module(&[]))
  }

  #[test]
  fn count_wording() {
    let cases = [
      (1, 2, Some(2), "got 1 positional argument but takes 2"),
      (3, 2, Some(2), "got 3 positional arguments but only takes 2"),
      (0, 1, None, "got 0 positional arguments but takes at least 1"),
      (3, 1, Some(2), "got 3 positional arguments but takes at most 2"),
    ];
    for (found, min, max, expected) in cases {
      assert_eq!(count_phrase(found, min, max), expected);
    }
  }

  #[test]
  fn default_listing_paths() {
    let justfile = options_justfile();
    let mut config = Options::default_for("/tmp".into());
    assert_eq!(default_listing(&justfile, &[], &config), None);
    config.default_list = true;
    assert_eq!(default_listing(&justfile, &[], &config), Some(vec![]));
    assert_eq!(default_listing(&justfile, &words("sub::"), &config), Some(vec!["sub".to_string()]));
    assert_eq!(default_listing(&justfile, &words("sub bar"), &config), None);
  }
}
