//! `--tree`: the dependency tree of recipes in the order they would run,
//! and the recipe selection and dependency lookup `--graph` shares.

use std::collections::HashSet;

use nu_ansi_term::{Color as Ansi, Style};

use crate::analysis::const_eval::constant_value;
use crate::analysis::lookup::{resolve_alias, AliasTarget, LookupError};
use crate::analysis::model::{Dependency, Justfile, Module, Recipe};
use crate::color::Painter;
use crate::output::sink::Sink;
use crate::syntax::ast::Expression;
use crate::syntax::path::split_colon_path;

/// The recipes a `--tree`/`--graph` starts from: the named ones; else every
/// public recipe nothing depends on (with `all`, private ones too).
pub(crate) fn selected_recipes<'a, 'src>(
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
  let roots = undepended_recipes(justfile, &justfile.root, unsorted);
  Ok(roots.into_iter().filter(|recipe| all || !recipe.private).collect())
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
    return Ok(match module.default_recipe() {
      Some(recipe) => vec![recipe],
      None => undepended_recipes(justfile, module, unsorted),
    });
  }
  let resolved = crate::output::usage::resolve_recipe_path(justfile, &[path.to_string()])?;
  Ok(vec![resolved.recipe])
}

/// Every enabled recipe of `module` and its submodules, module by module:
/// by name, or in source order with `unsorted`.
pub(crate) fn all_recipes<'a, 'src>(
  module: &'a Module<'src>,
  unsorted: bool,
) -> Vec<&'a Recipe<'src>> {
  let mut recipes: Vec<&Recipe> = module
    .recipes
    .values()
    .filter(|recipe| !module.disabled.contains_key(recipe.name().lexeme()))
    .collect();
  if unsorted {
    recipes.sort_by_key(|recipe| recipe.order);
  }
  for (_, submodule) in module.modules.ordered(unsorted) {
    recipes.extend(all_recipes(submodule, unsorted));
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
    for dependency in &recipe.dependencies {
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
pub(crate) fn recipe_aliases<'a, 'src>(
  module: &'a Module<'src>,
) -> Vec<(String, &'a Recipe<'src>)> {
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
pub(crate) fn dependency_target<'a, 'src>(
  justfile: &'a Justfile<'src>,
  dependency: &Dependency<'src>,
) -> Option<&'a Recipe<'src>> {
  justfile.dependency_target(dependency)
}

/// The path of the recipe a dependency names, as resolved; as written when
/// the target is unavailable.
pub(crate) fn dependency_path(justfile: &Justfile, dependency: &Dependency) -> String {
  match dependency_target(justfile, dependency) {
    Some(target) => target.namepath.to_string(),
    None => dependency.path_string(),
  }
}

/// The arguments a dependency passes, as written (`*` marks the one mapped over).
pub(crate) fn dependency_arguments(dependency: &Dependency) -> Vec<String> {
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

/// What already ran: the recipe path and its arguments, each by its value
/// where it is a constant, else as written.
type Record = HashSet<(String, Vec<String>)>;

struct TreeWriter<'o, 'w, 'a, 'src> {
  justfile: &'a Justfile<'src>,
  painter: Painter,
  out: &'o mut Sink<'w>,
  /// The indentation of the current line: one shared buffer, grown and cut
  /// back as the walk goes down and up, so a deep tree costs memory in
  /// proportion to its depth, not to its depth squared.
  indent: String,
}

/// Append the `--tree` text for `recipes` to `out`, a line at a time; stops
/// early once `out` cannot be written any more.
pub(crate) fn write_tree(out: &mut Sink, justfile: &Justfile, recipes: &[&Recipe], color: bool) {
  let painter = Painter { active: color, command_color: None, highlight: true };
  let mut writer = TreeWriter { justfile, painter, out, indent: String::new() };
  let mut record = Record::new();
  for recipe in recipes {
    let node = Node {
      recipe: Some(recipe),
      module: module_of(justfile, recipe),
      path: recipe.namepath,
      arguments: Vec::new(),
      key: Vec::new(),
    };
    writer.node(&node, Edge::Root, false, "", &mut record);
  }
}

struct Node<'r, 'a, 'src> {
  /// None: the target is disabled by an absent optional module.
  recipe: Option<&'a Recipe<'src>>,
  /// The recipe's module.
  module: Option<&'a Module<'src>>,
  path: &'r str,
  /// As written, for display.
  arguments: Vec<String>,
  /// As compared, for `(see above)`.
  key: Vec<String>,
}

impl TreeWriter<'_, '_, '_, '_> {
  fn mark(&self, text: &str) -> String {
    self.painter.paint(Ansi::Purple.normal(), text)
  }

  /// Writes the node's line after `branch`, then (unless it already ran)
  /// its dependencies.
  fn node(&mut self, node: &Node, edge: Edge, parallel: bool, branch: &str, record: &mut Record) {
    if self.out.failed() {
      return;
    }
    let key = (node.path.to_string(), node.key.clone());
    let repeated = record.contains(&key);
    self.out.push_str(&self.indent);
    self.out.push_str(branch);
    if edge == Edge::Subsequent {
      let mark = self.mark("&&");
      self.out.push_str(&mark);
      self.out.push(' ');
    }
    let path = self.painter.paint(Style::new().bold(), node.path);
    self.out.push_str(&path);
    for argument in &node.arguments {
      let argument = self.painter.paint(Ansi::Cyan.normal(), argument);
      self.out.push(' ');
      self.out.push_str(&argument);
    }
    if parallel {
      let mark = self.mark("(parallel)");
      self.out.push(' ');
      self.out.push_str(&mark);
    }
    let note = match node.recipe {
      None => Some("(unavailable)"),
      Some(_) if repeated => Some("(see above)"),
      Some(_) => None,
    };
    if let Some(note) = note {
      let mark = self.mark(note);
      self.out.push(' ');
      self.out.push_str(&mark);
    }
    self.out.push('\n');
    self.out.end_piece();
    let Some(recipe) = node.recipe.filter(|_| !repeated) else {
      return;
    };
    record.insert(key);
    let depth = self.indent.len();
    match branch {
      "" => {}
      "└── " => self.indent.push_str("    "),
      _ => self.indent.push_str("│   "),
    }
    self.dependencies(recipe, node.module, record);
    self.indent.truncate(depth);
  }

  fn dependencies(&mut self, recipe: &Recipe, module: Option<&Module>, record: &mut Record) {
    let parallel = recipe.effects.flags.parallel();
    let count = recipe.priors().len() + recipe.subsequents().len();
    let edges = (recipe.priors().iter().map(|d| (d, Edge::Prior)))
      .chain(recipe.subsequents().iter().map(|d| (d, Edge::Subsequent)));
    // Subsequents run with a fresh record of their own.
    let mut subsequent_record = Record::new();
    for (index, (dependency, edge)) in edges.enumerate() {
      let branch = if index + 1 == count { "└── " } else { "├── " };
      let target = dependency_target(self.justfile, dependency);
      let path = dependency_path(self.justfile, dependency);
      let key =
        dependency.arguments().iter().map(|argument| argument_key(module, recipe, argument));
      let node = Node {
        recipe: target,
        module: self.justfile.module(dependency.module as usize),
        path: &path,
        arguments: dependency_arguments(dependency),
        key: key.collect(),
      };
      let record = if edge == Edge::Prior { &mut *record } else { &mut subsequent_record };
      self.node(&node, edge, parallel, branch, record);
    }
  }
}

/// The module of a recipe a tree starts from.
fn module_of<'a, 'src>(justfile: &'a Justfile<'src>, recipe: &Recipe) -> Option<&'a Module<'src>> {
  let mut path: Vec<String> = recipe.namepath.split("::").map(String::from).collect();
  path.pop();
  justfile.root.find_module(&path)
}

/// How a dependency argument is compared: its value when it is a constant
/// (`'x'`, `"x"` and `'' + 'x'` are the same), else its text, which is all
/// that is known before the recipe's parameters have values.
fn argument_key(module: Option<&Module>, recipe: &Recipe, argument: &Expression) -> String {
  let text = || format!("text {argument}");
  let parameters: Vec<&str> =
    recipe.parameters().iter().map(|parameter| parameter.name().lexeme()).collect();
  match module.and_then(|module| constant_value(module, &parameters, argument)) {
    Some(value) => format!("value {:?}", value.0),
    None => text(),
  }
}
