//! Turning the ordinary command-line arguments into recipe invocations
//! (cli-and-execution.md §3.2–§3.5): path resolution, default recipes,
//! suggestions and binding words to parameters, `[arg]` options included.

use std::fmt::{self, Display, Formatter};

use snafu::Snafu;

use crate::analysis::model::{Alias, Justfile, Module, Parameter, Recipe};
use crate::cli::config::Config;
use crate::syntax::ast::ParameterKind;

/// What the command line supplied for one parameter value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgumentValue {
  Text(String),
  /// A `flag` option was given: its value is `true`.
  Flag,
  /// A `value=` option was given: the runner evaluates its expression.
  Fixed,
}

/// One recipe to run, with the arguments bound to its parameters.
#[derive(Debug)]
pub struct Invocation<'a, 'src> {
  /// Module path of the recipe (`[]` for the root).
  pub module_path: Vec<String>,
  pub module: &'a Module<'src>,
  pub recipe: &'a Recipe<'src>,
  /// One entry per parameter, in declaration order; `None` = not supplied
  /// (the runner evaluates the default).
  pub arguments: Bound,
}

/// A "Did you mean …?" hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
  pub name: String,
  /// For an alias: its target path.
  pub target: Option<String>,
}

impl Display for Suggestion {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    match &self.target {
      Some(target) => write!(f, "Did you mean `{}`, an alias for `{}`?", self.name, target),
      None => write!(f, "Did you mean `{}`?", self.name),
    }
  }
}

fn suggestion_line(suggestion: &Option<Suggestion>) -> String {
  suggestion.as_ref().map(|s| format!("\n{s}")).unwrap_or_default()
}

fn absent_modules_phrase(modules: &[String]) -> String {
  let noun = if modules.len() == 1 { "module" } else { "modules" };
  format!("{noun} {}", crate::text::ticked(modules, "and"))
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
pub struct UsageLine {
  pub plain: String,
  pub colored: String,
}

#[derive(Debug, Snafu)]
pub enum InvocationError {
  #[snafu(display("justfile does not contain recipe `{path}`{}", suggestion_line(suggestion)))]
  UnknownRecipe { path: String, suggestion: Option<Suggestion> },
  #[snafu(display("justfile does not contain submodule `{path}`{}", suggestion_line(suggestion)))]
  UnknownSubmodule { path: String, suggestion: Option<Suggestion> },
  #[snafu(display("expected submodule at `{path}` but found recipe"))]
  ExpectedSubmodule { path: String },
  #[snafu(display("recipe `{name}` depends on absent {}", absent_modules_phrase(modules)))]
  RecipeDependsOnAbsentModule { name: String, modules: Vec<String> },
  #[snafu(display("alias `{name}` depends on absent {}", absent_modules_phrase(modules)))]
  AliasDependsOnAbsentModule { name: String, modules: Vec<String> },
  #[snafu(display("optional module `{path}` is absent"))]
  AbsentModule { path: String },
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
  #[snafu(display(
    "argument `{argument}` passed to recipe `{recipe}` parameter `{parameter}` does not match pattern {}",
    crate::text::ticked(patterns, "or")
  ))]
  PatternMismatch { argument: String, recipe: String, parameter: String, patterns: Vec<String> },
  #[snafu(display(
    "recipe `{recipe}` parameter `{parameter}` got {} but takes {bound}",
    crate::text::count(*found, "value", "values")
  ))]
  ValueCount { recipe: String, parameter: String, found: usize, bound: String },
  #[snafu(display("expected 1 command-line recipe invocation but found {found}"))]
  TooManyInvocations { found: usize },
}

impl InvocationError {
  /// The `usage:` block printed after a count error, if any.
  pub fn usage_block(&self, color: bool) -> Option<String> {
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
  pub fn is_missing(&self) -> bool {
    matches!(
      self,
      InvocationError::UnknownRecipe { .. }
        | InvocationError::UnknownSubmodule { .. }
        | InvocationError::AbsentModule { .. }
    )
  }

  pub fn is_unknown(&self) -> bool {
    matches!(self, InvocationError::UnknownRecipe { .. } | InvocationError::UnknownSubmodule { .. })
  }
}

// ---------------------------------------------------------------------------
// Name lookup

/// What an alias points at.
pub enum AliasTarget<'a, 'src> {
  Module(&'a Module<'src>),
  Recipe { module: &'a Module<'src>, recipe: &'a Recipe<'src> },
}

/// Follows an alias declared in `module` to its target.
pub fn resolve_alias<'a, 'src>(
  module: &'a Module<'src>,
  alias: &Alias<'src>,
) -> Option<AliasTarget<'a, 'src>> {
  let (last, init) = alias.target.split_last()?;
  let mut current = module;
  for name in init {
    current = current.modules.get(name.lexeme())?;
  }
  if let Some(recipe) = current.recipes.get(last.lexeme()) {
    Some(AliasTarget::Recipe { module: current, recipe })
  } else {
    current.modules.get(last.lexeme()).map(AliasTarget::Module)
  }
}

/// Result of looking a name up in a module, in the order of §3.2.
pub enum Lookup<'a, 'src> {
  Module(&'a Module<'src>),
  Recipe { module: &'a Module<'src>, recipe: &'a Recipe<'src> },
  DisabledRecipe(Vec<String>),
  DisabledAlias(Vec<String>),
  AbsentModule,
  Unknown,
}

pub fn lookup<'a, 'src>(module: &'a Module<'src>, name: &str) -> Lookup<'a, 'src> {
  if let Some(submodule) = module.modules.get(name) {
    return Lookup::Module(submodule);
  }
  let disabled = module.disabled.get(name);
  let alias_target = module.aliases.get(name).and_then(|alias| resolve_alias(module, alias));
  if let Some(AliasTarget::Module(target)) = alias_target {
    return Lookup::Module(target);
  }
  if disabled.is_none() {
    if let Some(recipe) = module.recipes.get(name) {
      return Lookup::Recipe { module, recipe };
    }
    if let Some(AliasTarget::Recipe { module, recipe }) = alias_target {
      return Lookup::Recipe { module, recipe };
    }
  }
  if let Some(modules) = disabled {
    if module.disabled_aliases.contains(name) {
      return Lookup::DisabledAlias(modules.clone());
    }
    return Lookup::DisabledRecipe(modules.clone());
  }
  if module.absent_modules.contains(name) {
    return Lookup::AbsentModule;
  }
  Lookup::Unknown
}

pub fn is_public_recipe(module: &Module, recipe: &Recipe) -> bool {
  let name = recipe.name.lexeme();
  !recipe.private && !name.starts_with('_') && !module.disabled.contains_key(name)
}

pub fn is_public_alias(module: &Module, alias: &Alias) -> bool {
  let name = alias.name.lexeme();
  !alias.private && !name.starts_with('_') && !module.disabled.contains_key(name)
}

/// The closest public recipe, then recipe alias, within distance 2.
pub fn suggest_recipe(module: &Module, name: &str) -> Option<Suggestion> {
  let recipes = module
    .recipes
    .values()
    .filter(|recipe| is_public_recipe(module, recipe))
    .map(|recipe| (recipe.name.lexeme().to_string(), None));
  let aliases = module
    .aliases
    .values()
    .filter(|alias| is_public_alias(module, alias))
    .filter(|alias| matches!(resolve_alias(module, alias), Some(AliasTarget::Recipe { .. })))
    .map(|alias| (alias.name.lexeme().to_string(), alias_target_name(alias)));
  closest(recipes.chain(aliases), name)
}

fn alias_target_name(alias: &Alias) -> Option<String> {
  alias.target.last().map(|name| name.lexeme().to_string())
}

pub fn suggest_submodule(module: &Module, name: &str) -> Option<Suggestion> {
  closest(module.modules.keys().map(|key| (key.to_string(), None)), name)
}

/// The first candidate with the smallest Levenshtein distance, if < 3.
pub fn closest(
  candidates: impl Iterator<Item = (String, Option<String>)>,
  name: &str,
) -> Option<Suggestion> {
  let name: Vec<char> = name.chars().collect();
  let mut best: Option<(usize, Suggestion)> = None;
  for (candidate, target) in candidates {
    let limit = best.as_ref().map_or(2, |(distance, _)| distance.saturating_sub(1));
    let Some(distance) = bounded_levenshtein(&candidate, &name, limit) else {
      continue;
    };
    if best.as_ref().is_none_or(|(d, _)| distance < *d) {
      best = Some((distance, Suggestion { name: candidate, target }));
    }
  }
  best.map(|(_, suggestion)| suggestion)
}

/// The Levenshtein distance (in chars) between `candidate` and `name`, if it
/// is at most `limit`. Only cells within `limit` of the diagonal can hold
/// such a distance, so the work is O(length × limit), and a length
/// difference above `limit` rules a candidate out without any.
fn bounded_levenshtein(candidate: &str, name: &[char], limit: usize) -> Option<usize> {
  let candidate_length = candidate.chars().count();
  if candidate_length.abs_diff(name.len()) > limit {
    return None;
  }
  let out_of_reach = limit + 1;
  let mut previous: Vec<usize> = (0..=name.len()).map(|j| j.min(out_of_reach)).collect();
  let mut current = vec![out_of_reach; name.len() + 1];
  for (i, c) in candidate.chars().enumerate().map(|(i, c)| (i + 1, c)) {
    let low = i.saturating_sub(limit).max(1);
    let high = (i + limit).min(name.len());
    current[0] = i.min(out_of_reach);
    // The cell left of the band holds a stale value from two rows up.
    current[low - 1] = if low == 1 { current[0] } else { out_of_reach };
    let mut row_minimum = current[0];
    for j in low..=high {
      let substitution = previous[j - 1] + usize::from(name[j - 1] != c);
      let value = substitution.min(previous[j] + 1).min(current[j - 1] + 1).min(out_of_reach);
      current[j] = value;
      row_minimum = row_minimum.min(value);
    }
    if high < name.len() {
      current[high + 1] = out_of_reach;
    }
    if row_minimum > limit {
      return None;
    }
    std::mem::swap(&mut previous, &mut current);
  }
  Some(previous[name.len()]).filter(|distance| *distance <= limit)
}

#[cfg(test)]
mod levenshtein_tests {
  use super::bounded_levenshtein;

  /// Agrees with the plain distance on every pair of short strings over a
  /// small alphabet, for every limit.
  #[test]
  fn bounded_levenshtein_agrees_with_the_full_distance() {
    let words: Vec<String> = (0..400)
      .map(|n: u32| {
        let length = n % 6;
        (0..length).map(|k| ['a', 'b', 'é'][((n / 6 + k * 7 + k * k) % 3) as usize]).collect()
      })
      .collect();
    for a in &words {
      for b in words.iter().step_by(7) {
        let chars: Vec<char> = b.chars().collect();
        let full = strsim::levenshtein(a, b);
        for limit in 0..4 {
          let expected = (full <= limit).then_some(full);
          assert_eq!(bounded_levenshtein(a, &chars, limit), expected, "{a:?} {b:?} {limit}");
        }
      }
    }
  }
}

pub fn is_identifier(text: &str) -> bool {
  let mut chars = text.chars();
  matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
    && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Splits `a::b::c` into identifiers; None if any component is not one.
pub fn split_colon_path(word: &str) -> Option<Vec<&str>> {
  let components: Vec<&str> = word.split("::").collect();
  components.iter().all(|c| is_identifier(c)).then_some(components)
}

// ---------------------------------------------------------------------------
// Recipe resolution

/// A resolved recipe path: the recipe and its module, plus the module path.
struct Resolved<'a, 'src> {
  module_path: Vec<String>,
  module: &'a Module<'src>,
  recipe: &'a Recipe<'src>,
  /// The recipe is a module's default (no explicit recipe named).
  default: bool,
}

fn lookup_failure(lookup: Lookup, name: &str, path: &str) -> InvocationError {
  match lookup {
    Lookup::DisabledRecipe(modules) => {
      InvocationError::RecipeDependsOnAbsentModule { name: name.into(), modules }
    }
    Lookup::DisabledAlias(modules) => {
      InvocationError::AliasDependsOnAbsentModule { name: name.into(), modules }
    }
    Lookup::AbsentModule => InvocationError::AbsentModule { path: path.into() },
    _ => InvocationError::UnknownRecipe { path: path.into(), suggestion: None },
  }
}

fn default_recipe<'a, 'src>(
  module: &'a Module<'src>,
  module_path: Vec<String>,
) -> Result<Resolved<'a, 'src>, InvocationError> {
  let recipe = match module.default.and_then(|name| module.recipes.get(name)) {
    Some(recipe) => recipe,
    None if module.recipes.is_empty() => return Err(InvocationError::NoRecipes),
    None => return Err(InvocationError::NoDefaultRecipe),
  };
  Ok(Resolved { module_path, module, recipe, default: true })
}

fn recipe_module_path(recipe: &Recipe) -> Vec<String> {
  let mut path: Vec<String> = recipe.namepath.split("::").map(str::to_string).collect();
  path.pop();
  path
}

/// Resolves one colon-form word (`a::b::c`).
fn resolve_colon_word<'a, 'src>(
  root: &'a Module<'src>,
  word: &str,
  is_last: bool,
) -> Result<Resolved<'a, 'src>, InvocationError> {
  let trimmed = if is_last { word.strip_suffix("::").unwrap_or(word) } else { word };
  let unknown = || InvocationError::UnknownRecipe { path: word.to_string(), suggestion: None };
  let components = split_colon_path(trimmed).ok_or_else(unknown)?;
  let mut module = root;
  let mut module_path = Vec::new();
  for (index, component) in components.iter().enumerate() {
    let so_far = components[..=index].join("::");
    let last = index + 1 == components.len();
    match lookup(module, component) {
      Lookup::Module(submodule) => {
        module = submodule;
        module_path.clone_from(&submodule.path);
      }
      Lookup::Recipe { module, recipe } if last => {
        let module_path = recipe_module_path(recipe);
        return Ok(Resolved { module_path, module, recipe, default: false });
      }
      Lookup::Recipe { .. } => return Err(InvocationError::ExpectedSubmodule { path: so_far }),
      Lookup::Unknown if !last => {
        let suggestion = suggest_submodule(module, component);
        return Err(InvocationError::UnknownSubmodule { path: so_far, suggestion });
      }
      Lookup::Unknown => {
        let suggestion = suggest_recipe(module, component);
        return Err(InvocationError::UnknownRecipe { path: so_far, suggestion });
      }
      other => return Err(lookup_failure(other, component, &so_far)),
    }
  }
  default_recipe(module, module_path)
}

/// Resolves word-form paths (`foo bar`); returns the number of words used.
fn resolve_words<'a, 'src>(
  root: &'a Module<'src>,
  words: &[String],
) -> Result<(Resolved<'a, 'src>, usize), InvocationError> {
  let mut module = root;
  let mut module_path = Vec::new();
  for (index, word) in words.iter().enumerate() {
    let so_far = words[..=index].join(" ");
    match lookup(module, word) {
      Lookup::Module(submodule) => {
        module = submodule;
        module_path.clone_from(&submodule.path);
      }
      Lookup::Recipe { module, recipe } => {
        let module_path = recipe_module_path(recipe);
        return Ok((Resolved { module_path, module, recipe, default: false }, index + 1));
      }
      Lookup::Unknown => {
        let suggestion = suggest_recipe(module, word);
        return Err(InvocationError::UnknownRecipe { path: so_far, suggestion });
      }
      Lookup::AbsentModule => {
        let mut path = module_path.clone();
        path.push(word.clone());
        return Err(InvocationError::AbsentModule { path: path.join("::") });
      }
      other => return Err(lookup_failure(other, word, &so_far)),
    }
  }
  Ok((default_recipe(module, module_path)?, words.len()))
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

/// Turns the ordinary arguments into invocations (§3.2–§3.4).
pub fn parse_invocations<'a, 'src>(
  justfile: &'a Justfile<'src>,
  arguments: &[String],
  config: &Config,
) -> Result<Vec<Invocation<'a, 'src>>, InvocationError> {
  let root = &justfile.root;
  let mut invocations = Vec::new();
  if arguments.is_empty() {
    let resolved = default_recipe(root, Vec::new())?;
    invocations.push(bind_default(resolved)?);
  }
  let mut rest = arguments;
  while !rest.is_empty() {
    let (resolved, used) = resolve_next(root, rest)?;
    rest = &rest[used..];
    if resolved.default && rest.is_empty() {
      invocations.push(bind_default(resolved)?);
      continue;
    }
    let (arguments, used) = bind_arguments(resolved.recipe, rest)?;
    rest = &rest[used..];
    invocations.push(Invocation {
      module_path: resolved.module_path,
      module: resolved.module,
      recipe: resolved.recipe,
      arguments,
    });
  }
  if config.one && invocations.len() > 1 {
    return Err(InvocationError::TooManyInvocations { found: invocations.len() });
  }
  Ok(invocations)
}

fn bind_default<'a, 'src>(
  resolved: Resolved<'a, 'src>,
) -> Result<Invocation<'a, 'src>, InvocationError> {
  // Required options count here too; flags never do.
  let min = (resolved.recipe.parameters.iter())
    .filter(|p| {
      !p.flag && p.default.is_none() && (p.kind != ParameterKind::Star || p.min.unwrap_or(0) > 0)
    })
    .count();
  if min > 0 {
    return Err(InvocationError::DefaultRecipeRequiresArguments {
      recipe: resolved.recipe.name.lexeme().to_string(),
      min,
    });
  }
  let (arguments, _) = bind_arguments(resolved.recipe, &[])?;
  Ok(Invocation {
    module_path: resolved.module_path,
    module: resolved.module,
    recipe: resolved.recipe,
    arguments,
  })
}

/// When the run should list a module instead (§3.5): the module path to list.
pub fn default_listing(
  justfile: &Justfile,
  arguments: &[String],
  config: &Config,
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
pub type Bound = Vec<Option<Vec<ArgumentValue>>>;

fn takes_value(parameter: &Parameter) -> bool {
  !parameter.flag && parameter.value.is_none()
}

fn accepts_many(parameter: &Parameter) -> bool {
  parameter.multiple || parameter.kind.is_variadic()
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
      .parameters
      .iter()
      .enumerate()
      .filter(|(_, p)| !p.is_option())
      .map(|(i, _)| i)
      .collect();
    Binder {
      recipe,
      words,
      bound: vec![None; recipe.parameters.len()],
      index: 0,
      positional,
      next_positional: 0,
      positional_count: 0,
    }
  }

  fn recipe_name(&self) -> String {
    self.recipe.name.lexeme().to_string()
  }

  /// Puts `word` in the next positional slot; false if all are full.
  fn take_positional(&mut self, word: &str) -> bool {
    let Some(&slot) = self.positional.get(self.next_positional) else {
      return false;
    };
    let values = self.bound[slot].get_or_insert_with(Vec::new);
    values.push(ArgumentValue::Text(word.to_string()));
    if !self.recipe.parameters[slot].kind.is_variadic() {
      self.next_positional += 1;
    }
    self.positional_count += 1;
    true
  }

  fn run(mut self) -> Result<(Bound, usize), InvocationError> {
    let has_options = self.recipe.parameters.iter().any(Parameter::is_option);
    let mut options_ended = !has_options;
    while let Some(word) = self.words.get(self.index) {
      if !options_ended && word == "--" {
        options_ended = true;
        self.index += 1;
      } else if !options_ended && word.starts_with("--") {
        self.index += 1;
        self.long_option(word)?;
      } else if !options_ended && word.starts_with('-') && word != "-" {
        self.index += 1;
        self.short_options(word)?;
      } else if self.take_positional(word) {
        self.index += 1;
      } else {
        break;
      }
    }
    self.check_missing()?;
    self.check_values()?;
    Ok((self.bound, self.index))
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
    let slot = self.recipe.parameters.iter().position(|p| p.long.as_deref() == Some(name));
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
      let slot = self.recipe.parameters.iter().position(|p| p.short == Some(c));
      let Some(slot) = slot else {
        return Err(InvocationError::UnknownOption { recipe: self.recipe_name(), option: written });
      };
      let last = position + 1 == count;
      if !last && takes_value(&self.recipe.parameters[slot]) {
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
    let parameter = &self.recipe.parameters[slot];
    let value = if takes_value(parameter) {
      match inline {
        Some(value) => ArgumentValue::Text(value.to_string()),
        None => {
          let Some(next) = self.words.get(self.index) else {
            return Err(InvocationError::MissingOptionValue {
              recipe: self.recipe_name(),
              option: written.to_string(),
            });
          };
          self.index += 1;
          ArgumentValue::Text(next.clone())
        }
      }
    } else if inline.is_some() {
      return Err(InvocationError::FlagTakesNoValue {
        recipe: self.recipe_name(),
        option: written.to_string(),
      });
    } else if parameter.flag {
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
    for (parameter, bound) in self.recipe.parameters.iter().zip(&self.bound) {
      let optional = bound.is_some()
        || parameter.default.is_some()
        || parameter.flag
        || (parameter.kind == ParameterKind::Star && parameter.min.unwrap_or(0) == 0);
      if optional {
        continue;
      }
      if parameter.is_option() {
        let option = match (&parameter.long, parameter.short) {
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
    let path = self.recipe.namepath.clone();
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
    for (parameter, bound) in self.recipe.parameters.iter().zip(&self.bound) {
      let Some(values) = bound else { continue };
      self.check_patterns(parameter, values)?;
      self.check_value_count(parameter, values.len())?;
    }
    Ok(())
  }

  fn check_patterns(
    &self,
    parameter: &Parameter,
    values: &[ArgumentValue],
  ) -> Result<(), InvocationError> {
    let texts = values.iter().filter_map(|value| match value {
      ArgumentValue::Text(text) => Some(text.as_str()),
      _ => None,
    });
    match parameter.first_pattern_mismatch(texts) {
      Some(text) => Err(InvocationError::PatternMismatch {
        argument: text.to_string(),
        recipe: self.recipe_name(),
        parameter: parameter.name.lexeme().to_string(),
        patterns: parameter.patterns.clone(),
      }),
      None => Ok(()),
    }
  }

  fn check_value_count(&self, parameter: &Parameter, found: usize) -> Result<(), InvocationError> {
    let bound = match (parameter.min, parameter.max) {
      (Some(min), _) if found < min => format!("at least {min}"),
      (_, Some(max)) if found > max => format!("at most {max}"),
      _ => return Ok(()),
    };
    Err(InvocationError::ValueCount {
      recipe: self.recipe_name(),
      parameter: parameter.name.lexeme().to_string(),
      found,
      bound,
    })
  }
}

/// Binds as many of `words` as the recipe takes; returns the bound values
/// and the number of words consumed.
pub fn bind_arguments(
  recipe: &Recipe,
  words: &[String],
) -> Result<(Bound, usize), InvocationError> {
  Binder::new(recipe, words).run()
}

/// Hand-built models for unit tests of the listing and invocation code.
#[cfg(test)]
pub(crate) mod fixtures {
  use std::collections::{BTreeMap, BTreeSet};
  use std::path::{Path, PathBuf};

  use crate::analysis::model::{Alias, Justfile, Module, Parameter, Recipe, Settings};
  use crate::syntax::ast::{self, Expression, ParameterKind, StringKind, StringLiteral};
  use crate::syntax::token::{Token, TokenKind};

  pub fn token(text: &str, kind: TokenKind) -> Token<'static> {
    let src: &'static str = Box::leak(text.to_string().into_boxed_str());
    let file = crate::syntax::sources::register(src, Path::new("justfile")).unwrap_or(u32::MAX);
    Token::new(kind, file, 0, src.len(), 0, 0)
  }

  pub fn name(text: &str) -> Token<'static> {
    token(text, TokenKind::Identifier)
  }

  /// A string literal expression written as `source` (quotes included).
  pub fn string(source: &str) -> Expression<'static> {
    let cooked = source[1..source.len() - 1].to_string();
    let kind =
      if source.starts_with('"') { StringKind::CookedDouble } else { StringKind::RawSingle };
    Expression::StringLiteral(StringLiteral {
      token: token(source, TokenKind::StringToken),
      kind,
      expand: false,
      cooked,
    })
  }

  pub fn param(text: &str) -> Parameter<'static> {
    Parameter {
      name: name(text),
      default: None,
      export: false,
      kind: ParameterKind::Singular,
      long: None,
      short: None,
      patterns: Vec::new(),
      value: None,
      flag: false,
      multiple: false,
      min: None,
      max: None,
      help: None,
    }
  }

  pub fn recipe(
    module_path: &[&str],
    text: &str,
    parameters: Vec<Parameter<'static>>,
  ) -> Recipe<'static> {
    let mut namepath: Vec<&str> = module_path.to_vec();
    namepath.push(text);
    Recipe {
      name: name(text),
      namepath: namepath.join("::"),
      attributes: Vec::new(),
      doc: None,
      doc_comment: None,
      quiet: false,
      private: text.starts_with('_'),
      parameters,
      priors: Vec::new(),
      subsequents: Vec::new(),
      body: &[],
      indentation: "",
      shebang: false,
      script: false,
      order: 0,
      ast: Box::leak(Box::new(ast::Recipe {
        attributes: ast::Attributes::default(),
        doc: None,
        quiet: false,
        name: name(text),
        parameters: Vec::new(),
        priors: Vec::new(),
        subsequents: Vec::new(),
        body: Vec::new(),
        shebang: false,
        indentation: "",
      })),
    }
  }

  pub fn group(recipe: &mut Recipe<'static>, group: &str) {
    let source = format!("'{group}'");
    let literal = StringLiteral {
      token: token(&source, TokenKind::StringToken),
      kind: StringKind::RawSingle,
      expand: false,
      cooked: group.to_string(),
    };
    recipe
      .attributes
      .push(ast::AttributeEntry { name: name("group"), attribute: ast::Attribute::Group(literal) });
  }

  pub fn alias(text: &str, target: &[&str]) -> Alias<'static> {
    Alias {
      name: name(text),
      attributes: Vec::new(),
      target: target.iter().map(|t| name(t)).collect(),
      private: false,
    }
  }

  pub fn module(path: &[&str]) -> Module<'static> {
    Module {
      path: path.iter().map(|p| p.to_string()).collect(),
      source: PathBuf::from("/tmp/justfile"),
      base_directory: PathBuf::from("/tmp"),
      ast: Box::leak(Box::default()),
      doc: None,
      groups: Vec::new(),
      private: false,
      assignments: BTreeMap::new(),
      functions: BTreeMap::new(),
      recipes: BTreeMap::new(),
      aliases: BTreeMap::new(),
      modules: BTreeMap::new(),
      absent_modules: BTreeSet::new(),
      disabled: BTreeMap::new(),
      settings: Settings::default(),
      unexports: BTreeSet::new(),
      default: None,
      unstable_features: BTreeSet::new(),
      module_order: Vec::new(),
      module_positions: BTreeMap::new(),
      disabled_aliases: BTreeSet::new(),
    }
  }

  fn leak(text: &str) -> &'static str {
    Box::leak(text.to_string().into_boxed_str())
  }

  /// Adds recipes in source order; the first becomes the default.
  pub fn add_recipes(module: &mut Module<'static>, recipes: Vec<Recipe<'static>>) {
    for mut recipe in recipes {
      recipe.order = module.recipes.len();
      let key = leak(recipe.name.lexeme());
      if module.default.is_none() {
        module.default = Some(key);
      }
      module.recipes.insert(key, recipe);
    }
  }

  pub fn add_alias(module: &mut Module<'static>, alias: Alias<'static>) {
    module.aliases.insert(leak(alias.name.lexeme()), alias);
  }

  pub fn add_module(parent: &mut Module<'static>, text: &str, child: Module<'static>) {
    let key = leak(text);
    parent.module_order.push(key);
    parent.modules.insert(key, child);
  }

  pub fn justfile(root: Module<'static>) -> Justfile<'static> {
    Justfile { root }
  }
}

#[cfg(test)]
mod tests {
  use super::fixtures::*;
  use super::*;

  fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
  }

  /// `r a v n="d" m=""` with `-v/--verbose` flag, `-n/--n` and multiple `-m`;
  /// `s x`; `hello`; module `sub` with `bar` and `baz x`; `alias b := sub::bar`.
  fn options_justfile() -> Justfile<'static> {
    let mut root = module(&[]);
    let mut v = param("v");
    v.long = Some("verbose".into());
    v.short = Some('v');
    v.flag = true;
    let mut n = param("n");
    n.short = Some('n');
    n.long = Some("n".into());
    n.default = Some(Box::leak(Box::new(string("\"d\""))));
    let mut m = param("m");
    m.short = Some('m');
    m.multiple = true;
    m.default = Some(Box::leak(Box::new(string("\"\""))));
    let mut level = param("level");
    level.long = Some("lvl".into());
    level.patterns = vec!["[0-9]+".into()];
    level.default = Some(Box::leak(Box::new(string("'1'"))));
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
    let config = Config::default_for("/tmp".into());
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
    let mut config = Config::default_for("/tmp".into());
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
    let mut config = Config::default_for("/tmp".into());
    assert_eq!(default_listing(&justfile, &[], &config), None);
    config.default_list = true;
    assert_eq!(default_listing(&justfile, &[], &config), Some(vec![]));
    assert_eq!(default_listing(&justfile, &words("sub::"), &config), Some(vec!["sub".to_string()]));
    assert_eq!(default_listing(&justfile, &words("sub bar"), &config), None);
  }
}
