//! `--summary`.

use crate::analysis::model::{Justfile, Module};
use crate::output::list::{listed_recipes, listed_submodules};

/// Public recipe paths of the root and, depth-first, of every public
/// submodule, space-separated, with a trailing newline. Empty: `"\n"`
/// (the caller then reports `justfile contains no recipes`).
pub fn summary(justfile: &Justfile, unsorted: bool) -> String {
  let mut paths = Vec::new();
  collect(&justfile.root, unsorted, &mut paths);
  format!("{}\n", paths.join(" "))
}

/// True if `--summary` has nothing to print.
pub fn summary_is_empty(justfile: &Justfile) -> bool {
  let mut paths = Vec::new();
  collect(&justfile.root, false, &mut paths);
  paths.is_empty()
}

fn collect(module: &Module, unsorted: bool, paths: &mut Vec<String>) {
  for recipe in listed_recipes(module, unsorted) {
    paths.push(recipe.namepath.to_string());
  }
  for (_, submodule) in listed_submodules(module, unsorted) {
    collect(submodule, unsorted, paths);
  }
}
