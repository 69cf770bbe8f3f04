//! `--tree`: the dependency tree of recipes in the order they would run,
//! and the recipe selection and dependency lookup `--graph` shares.

use std::collections::HashSet;

use nu_ansi_term::{Color as Ansi, Style};

use crate::analysis::lookup::{resolve_alias, AliasTarget, LookupError};
use crate::analysis::model::{Dependency, Justfile, Module, Recipe};
use crate::color::Painter;
use crate::syntax::attributes::AttributeKind;
use crate::syntax::path::split_colon_path;

/// The recipes a `--tree`/`--graph` starts from: the named ones; else the
/// default recipe; else (or with `--all`) every recipe nothing depends on.
pub fn selected_recipes<'a, 'src>(
  justfile: &'a Justfile<'src>,
  paths: &[String],
  all: bool,
  unsorted: bool,
) -> Result<Vec<&'a Recipe<'src>>, LookupError> {
  if !paths.is_empty() {
    let mut selected = Vec::new();
    for path in paths {
      selected.extend(named_recipes(justfile, path, unsorted)?);
    }
    return Ok(selected);
  }
  let root = &justfile.root;
  match root.default.and_then(|name| root.recipes.get(name)) {
    Some(recipe) if !all => Ok(vec![recipe]),
    _ => Ok(undepended_recipes(justfile, root, unsorted)),
  }
}

/// A recipe path (aliases followed), or a module path: the module's default
/// recipe, else the recipes of the module nothing depends on.
fn named_recipes<'a, 'src>(
  justfile: &'a Justfile<'src>,
  path: &str,
  unsorted: bool,
) -> Result<Vec<&'a Recipe<'src>>, LookupError> {
  let components: Option<Vec<String>> =
    split_colon_path(path).map(|components| components.into_iter().map(String::from).collect());
  if let Some(module) = components.and_then(|components| justfile.root.find_module(&components)) {
    return Ok(match module.default.and_then(|name| module.recipes.get(name)) {
      Some(recipe) => vec![recipe],
      None => undepended_recipes(justfile, module, unsorted),
    });
  }
  let resolved = crate::output::usage::resolve_recipe_path(justfile, &[path.to_string()])?;
  Ok(vec![resolved.recipe])
}

/// Every enabled recipe of `module` and its submodules, module by module:
/// by name, or in source order with `unsorted`.
pub fn all_recipes<'a, 'src>(module: &'a Module<'src>, unsorted: bool) -> Vec<&'a Recipe<'src>> {
  let mut recipes: Vec<&Recipe> = module
    .recipes
    .values()
    .filter(|recipe| !module.disabled.contains_key(recipe.name().lexeme()))
    .collect();
  if unsorted {
    recipes.sort_by_key(|recipe| recipe.order);
  }
  let mut names: Vec<&str> = module.modules.keys().copied().collect();
  if unsorted {
    names.sort_by_key(|name| module.module_order.iter().position(|n| n == name));
  }
  for name in names {
    if let Some(submodule) = module.modules.get(name) {
      recipes.extend(all_recipes(submodule, unsorted));
    }
  }
  recipes
}

/// The recipes of `module` (and below) that no recipe of the justfile depends on.
fn undepended_recipes<'a, 'src>(
  justfile: &'a Justfile<'src>,
  module: &'a Module<'src>,
  unsorted: bool,
) -> Vec<&'a Recipe<'src>> {
  let mut depended = HashSet::new();
  for recipe in all_recipes(&justfile.root, false) {
    for dependency in recipe.dependencies.iter() {
      if let Some(target) = dependency_target(justfile, dependency) {
        depended.insert(target.namepath);
      }
    }
  }
  all_recipes(module, unsorted)
    .into_iter()
    .filter(|recipe| !depended.contains(recipe.namepath))
    .collect()
}

/// Every alias of a recipe, as its path (`sub::b`) with its target, module
/// by module in name order.
pub fn recipe_aliases<'a, 'src>(module: &'a Module<'src>) -> Vec<(String, &'a Recipe<'src>)> {
  let mut aliases = Vec::new();
  for alias in module.aliases.values() {
    if module.disabled.contains_key(alias.name.lexeme()) {
      continue;
    }
    if let Some(AliasTarget::Recipe { recipe, .. }) = resolve_alias(module, alias) {
      let mut path = module.path.clone();
      path.push(alias.name.lexeme().to_string());
      aliases.push((path.join("::"), recipe));
    }
  }
  for submodule in module.modules.values() {
    aliases.extend(recipe_aliases(submodule));
  }
  aliases
}

/// The recipe a dependency names; None only for a recipe disabled by an
/// absent optional module.
pub fn dependency_target<'a, 'src>(
  justfile: &'a Justfile<'src>,
  dependency: &Dependency<'src>,
) -> Option<&'a Recipe<'src>> {
  justfile.dependency_target(dependency)
}

/// The path of the recipe a dependency names, as resolved; as written when
/// the target is unavailable.
pub fn dependency_path(justfile: &Justfile, dependency: &Dependency) -> String {
  match dependency_target(justfile, dependency) {
    Some(target) => target.namepath.to_string(),
    None => dependency.path_string(),
  }
}

/// The arguments a dependency passes, as written (`*` marks the one mapped over).
pub fn dependency_arguments(dependency: &Dependency) -> Vec<String> {
  dependency
    .arguments()
    .iter()
    .enumerate()
    .map(|(index, argument)| {
      let star = if dependency.star() == Some(index) { "*" } else { "" };
      format!("{star}{argument}")
    })
    .collect()
}

/// How a node reaches the tree.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
  Root,
  Prior,
  Subsequent,
}

/// What already ran: the recipe path and its arguments as written.
type Record = HashSet<(String, Vec<String>)>;

struct TreeWriter<'a, 'src> {
  justfile: &'a Justfile<'src>,
  painter: Painter,
  out: String,
}

/// The `--tree` text for `recipes`, which run in this order as one
/// command line would run them.
pub fn tree(justfile: &Justfile, recipes: &[&Recipe], color: bool) -> String {
  let painter = Painter { active: color, command_color: None, highlight: true };
  let mut writer = TreeWriter { justfile, painter, out: String::new() };
  let mut record = Record::new();
  for recipe in recipes {
    let node = Node { recipe: Some(recipe), path: recipe.namepath, arguments: Vec::new() };
    writer.node(&node, Edge::Root, false, "", "", &mut record);
  }
  writer.out
}

struct Node<'r, 'a, 'src> {
  /// None: the target is disabled by an absent optional module.
  recipe: Option<&'a Recipe<'src>>,
  path: &'r str,
  arguments: Vec<String>,
}

impl TreeWriter<'_, '_> {
  fn mark(&self, text: &str) -> String {
    self.painter.paint(Ansi::Purple.normal(), text)
  }

  /// Writes the node's line after `branch`, then (unless it already ran)
  /// its dependencies, each line starting with `indent`.
  fn node(
    &mut self,
    node: &Node,
    edge: Edge,
    parallel: bool,
    branch: &str,
    indent: &str,
    record: &mut Record,
  ) {
    let key = (node.path.to_string(), node.arguments.clone());
    let repeated = record.contains(&key);
    let mut line = format!("{indent}{branch}");
    if edge == Edge::Subsequent {
      line.push_str(&self.mark("&&"));
      line.push(' ');
    }
    line.push_str(&self.painter.paint(Style::new().bold(), node.path));
    for argument in &node.arguments {
      line.push(' ');
      line.push_str(&self.painter.paint(Ansi::Cyan.normal(), argument));
    }
    if parallel {
      line.push_str(&format!(" {}", self.mark("(parallel)")));
    }
    let Some(recipe) = node.recipe else {
      self.out.push_str(&format!("{line} {}\n", self.mark("(unavailable)")));
      return;
    };
    if repeated {
      self.out.push_str(&format!("{line} {}\n", self.mark("(see above)")));
      return;
    }
    self.out.push_str(&line);
    self.out.push('\n');
    record.insert(key);
    self.dependencies(recipe, branch, indent, record);
  }

  fn dependencies(&mut self, recipe: &Recipe, branch: &str, indent: &str, record: &mut Record) {
    let child_indent = match branch {
      "" => indent.to_string(),
      "└── " => format!("{indent}    "),
      _ => format!("{indent}│   "),
    };
    let parallel = recipe.has_attribute(AttributeKind::Parallel);
    let count = recipe.priors().len() + recipe.subsequents().len();
    let edges = (recipe.priors().iter().map(|d| (d, Edge::Prior)))
      .chain(recipe.subsequents().iter().map(|d| (d, Edge::Subsequent)));
    // Subsequents run with a fresh record of their own.
    let mut subsequent_record = Record::new();
    for (index, (dependency, edge)) in edges.enumerate() {
      let branch = if index + 1 == count { "└── " } else { "├── " };
      let target = dependency_target(self.justfile, dependency);
      let path = dependency_path(self.justfile, dependency);
      let node = Node { recipe: target, path: &path, arguments: dependency_arguments(dependency) };
      let record = if edge == Edge::Prior { &mut *record } else { &mut subsequent_record };
      self.node(&node, edge, parallel, branch, &child_indent, record);
    }
  }
}
