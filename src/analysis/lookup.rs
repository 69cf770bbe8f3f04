//! Finding recipes and modules by name: lookup in a module, aliases,
//! visibility, and "did you mean" suggestions.

use std::fmt::{self, Display, Formatter};

use snafu::Snafu;

use super::model::{Alias, Module, Recipe};

/// A "Did you mean …?" hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Suggestion {
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

fn suggestion_line(suggestion: Option<&Suggestion>) -> String {
  suggestion.as_ref().map(|s| format!("\n{s}")).unwrap_or_default()
}

fn absent_modules_phrase(modules: &[String]) -> String {
  let noun = if modules.len() == 1 { "module" } else { "modules" };
  format!("{noun} {}", crate::text::ticked(modules, "and"))
}

/// A path on the command line that names nothing runnable.
#[derive(Debug, Snafu)]
pub(crate) enum LookupError {
  #[snafu(display("justfile does not contain recipe `{path}`{}", suggestion_line(suggestion.as_ref())))]
  UnknownRecipe { path: String, suggestion: Option<Suggestion> },
  #[snafu(display("justfile does not contain submodule `{path}`{}", suggestion_line(suggestion.as_ref())))]
  UnknownSubmodule { path: String, suggestion: Option<Suggestion> },
  #[snafu(display("expected submodule at `{path}` but found recipe"))]
  ExpectedSubmodule { path: String },
  #[snafu(display("recipe `{name}` depends on absent {}", absent_modules_phrase(modules)))]
  RecipeDependsOnAbsentModule { name: String, modules: Vec<String> },
  #[snafu(display("alias `{name}` depends on absent {}", absent_modules_phrase(modules)))]
  AliasDependsOnAbsentModule { name: String, modules: Vec<String> },
  #[snafu(display("optional module `{path}` is absent"))]
  AbsentModule { path: String },
}

impl LookupError {
  /// Unknown recipe / submodule / absent module: what `--allow-missing` and
  /// `set fallback` react to.
  pub(crate) fn is_missing(&self) -> bool {
    matches!(
      self,
      LookupError::UnknownRecipe { .. }
        | LookupError::UnknownSubmodule { .. }
        | LookupError::AbsentModule { .. }
    )
  }

  pub(crate) fn is_unknown(&self) -> bool {
    matches!(self, LookupError::UnknownRecipe { .. } | LookupError::UnknownSubmodule { .. })
  }
}

/// What an alias points at.
pub(crate) enum AliasTarget<'a, 'src> {
  Module(&'a Module<'src>),
  Recipe { module: &'a Module<'src>, recipe: &'a Recipe<'src> },
}

/// Follows an alias declared in `module` to its target.
pub(crate) fn resolve_alias<'a, 'src>(
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

/// Result of looking a name up in a module; modules win over recipes.
pub(crate) enum Lookup<'a, 'src> {
  Module(&'a Module<'src>),
  Recipe { module: &'a Module<'src>, recipe: &'a Recipe<'src> },
  DisabledRecipe(Vec<String>),
  DisabledAlias(Vec<String>),
  AbsentModule,
  Unknown,
}

pub(crate) fn lookup<'a, 'src>(module: &'a Module<'src>, name: &str) -> Lookup<'a, 'src> {
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

pub(crate) fn is_public_recipe(module: &Module, recipe: &Recipe) -> bool {
  // `private` covers names starting with `_`.
  !recipe.private
    && (module.disabled.is_empty() || !module.disabled.contains_key(recipe.name().lexeme()))
}

pub(crate) fn is_public_alias(module: &Module, alias: &Alias) -> bool {
  // `private` covers names starting with `_`.
  !alias.private && !module.disabled.contains_key(alias.name.lexeme())
}

/// The closest public recipe, then recipe alias, within distance 2.
pub(crate) fn suggest_recipe(module: &Module, name: &str) -> Option<Suggestion> {
  let recipes = module
    .recipes
    .values()
    .filter(|recipe| is_public_recipe(module, recipe))
    .map(|recipe| (recipe.name().lexeme().to_string(), None));
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

pub(crate) fn suggest_submodule(module: &Module, name: &str) -> Option<Suggestion> {
  closest(module.modules.keys().map(|key| (key.to_string(), None)), name)
}

/// The first candidate with the smallest Levenshtein distance, if < 3.
pub(crate) fn closest(
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
