//! `--summary`.

use crate::analysis::lookup::is_public_recipe;
use crate::analysis::model::{Justfile, Module};
use crate::output::list::{listed_recipes, listed_submodules};

/// Public recipe paths of the root and, depth-first, of every public
/// submodule, space-separated, with a trailing newline. Empty: `"\n"`
/// (the caller then reports `justfile contains no recipes`).
pub(crate) fn summary(justfile: &Justfile, unsorted: bool) -> String {
  let mut out = String::with_capacity(justfile.root.recipes.len() * 16 + 1);
  collect(&justfile.root, unsorted, &mut out);
  out.push('\n');
  out
}

/// True if `--summary` has nothing to print.
pub(crate) fn summary_is_empty(justfile: &Justfile) -> bool {
  !has_listed_recipe(&justfile.root)
}

fn has_listed_recipe(module: &Module) -> bool {
  module.recipes.values().any(|recipe| is_public_recipe(module, recipe))
    || listed_submodules(module, false).into_iter().any(|(_, m)| has_listed_recipe(m))
}

fn collect(module: &Module, unsorted: bool, out: &mut String) {
  for recipe in listed_recipes(module, unsorted) {
    if !out.is_empty() {
      out.push(' ');
    }
    out.push_str(recipe.namepath);
  }
  for (_, submodule) in listed_submodules(module, unsorted) {
    collect(submodule, unsorted, out);
  }
}
