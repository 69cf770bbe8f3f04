//! Name resolution: variables (undefined, cycles, function calls) and recipes
//! (dependencies, cycles, names in recipes, argument counts, aliases).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::builtins;
use super::compile_error::{error, CompileError};
use super::error::AnalysisErrorKind;
use super::model::{
  Alias, Assignment, Dependency, Functions, Module, Named, Pooled, Recipe, Settings, Submodules,
  Table,
};
use super::names::{same_name, token_bytes};
use crate::syntax::ast::{self, Attribute, Expression, Fragment, Name};
use crate::syntax::token::Token;

type CompileResult<'src, T> = Result<T, CompileError<'src>>;
type Assignments<'src> = Table<'src, Assignment<'src>>;

/// Visit every node of an expression in source order: a binary operator
/// between its operands, any other node before its parts. The one expression
/// walk behind name checks, the `set lists` gate and the demand set.
pub(crate) fn walk<'e, 'src, E, F>(expression: &'e Expression<'src>, visit: &mut F) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>) -> Result<(), E>,
{
  use Expression::*;
  match expression {
    And { lhs, rhs, .. }
    | Or { lhs, rhs, .. }
    | Comparison { lhs, rhs, .. }
    | Concatenation { lhs, rhs, .. }
    | ListConcatenation { lhs, rhs, .. } => {
      walk(lhs, visit)?;
      visit(expression)?;
      walk(rhs, visit)
    }
    Join { lhs, rhs, .. } => {
      if let Some(lhs) = lhs {
        walk(lhs, visit)?;
      }
      visit(expression)?;
      walk(rhs, visit)
    }
    _ => {
      visit(expression)?;
      walk_parts(expression, visit)
    }
  }
}

/// The operands of a node that comes before them in source.
fn walk_parts<'e, 'src, E, F>(expression: &'e Expression<'src>, visit: &mut F) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>) -> Result<(), E>,
{
  use Expression::*;
  match expression {
    Assert { condition, message, .. } => {
      walk(condition, visit)?;
      message.as_deref().map_or(Ok(()), |message| walk(message, visit))
    }
    Call { arguments, .. } => arguments.iter().try_for_each(|argument| walk(argument, visit)),
    Conditional { condition, then, otherwise, .. } => {
      walk(condition, visit)?;
      walk(then, visit)?;
      otherwise.as_deref().map_or(Ok(()), |otherwise| walk(otherwise, visit))
    }
    FormatString { parts, .. } => {
      parts.iter().try_for_each(|(expression, _)| walk(expression, visit))
    }
    Group { contents, .. } => walk(contents, visit),
    List { elements, .. } => elements.iter().try_for_each(|element| walk(element, visit)),
    Not { operand, .. } => walk(operand, visit),
    And { .. }
    | Or { .. }
    | Comparison { .. }
    | Concatenation { .. }
    | ListConcatenation { .. }
    | Join { .. }
    | Backtick { .. }
    | StringLiteral(_)
    | Variable { .. } => Ok(()),
  }
}

/// Check a call's function exists and takes that many arguments.
fn check_call<'src>(
  name: Token<'src>,
  arguments: usize,
  functions: &Functions<'src>,
) -> CompileResult<'src, ()> {
  let function = name.lexeme();
  if let Some(definition) = functions.get(function) {
    if definition.parameters.len() != arguments {
      return Err(error(
        name,
        AnalysisErrorKind::FunctionArgumentCount {
          function,
          found: arguments,
          expected: definition.parameters.len().to_string(),
        },
      ));
    }
    return Ok(());
  }
  match builtins::check_arity(function, arguments) {
    None => Err(error(name, AnalysisErrorKind::UndefinedFunction { function })),
    Some(Err(expected)) => Err(error(
      name,
      AnalysisErrorKind::FunctionArgumentCount { function, found: arguments, expected },
    )),
    Some(Ok(())) => Ok(()),
  }
}

/// The names bound where an expression sits, besides the module's variables.
#[derive(Clone, Copy)]
pub(crate) enum Scope<'a, 'src> {
  /// A user function's parameters.
  Names(&'a [Name<'src>]),
  /// The first parameters of a recipe.
  Parameters(&'a [ast::Parameter<'src>]),
}

impl Scope<'_, '_> {
  pub(crate) const EMPTY: Scope<'static, 'static> = Scope::Names(&[]);

  fn contains(self, name: &str) -> bool {
    self.binds(name.as_bytes())
  }

  /// Whether the name token `name` is bound here.
  pub(crate) fn contains_token(self, name: &Token) -> bool {
    self.binds(token_bytes(name))
  }

  fn binds(self, name: &[u8]) -> bool {
    // Lengths first: most names differ in length.
    let named =
      |bound: &Token| bound.length as usize == name.len() && same_name(token_bytes(bound), name);
    match self {
      Scope::Names(names) => names.iter().any(named),
      Scope::Parameters(parameters) => parameters.iter().any(|bound| named(&bound.name)),
    }
  }
}

/// Names in an expression must be variables or constants, and calls must name
/// existing functions with the right arity; checked in one source-order walk.
pub(crate) fn check_names_and_calls<'src>(
  expression: &Expression<'src>,
  assignments: &Assignments<'src>,
  functions: &Functions<'src>,
) -> CompileResult<'src, ()> {
  check_expression(expression, Scope::EMPTY, assignments, functions)
}

fn check_expression<'src>(
  expression: &Expression<'src>,
  scope: Scope<'_, 'src>,
  assignments: &Assignments,
  functions: &Functions<'src>,
) -> CompileResult<'src, ()> {
  walk(expression, &mut |node| check_name(node, scope, assignments, functions))
}

/// A variable must be bound, and a call must name a function taking that
/// many arguments; other nodes pass.
pub(crate) fn check_name<'src>(
  node: &Expression<'src>,
  scope: Scope<'_, 'src>,
  assignments: &Assignments,
  functions: &Functions<'src>,
) -> CompileResult<'src, ()> {
  match node {
    Expression::Variable { name, .. } => {
      let variable = name.lexeme();
      if scope.contains(variable)
        || assignments.contains_key(variable)
        || builtins::constant(variable).is_some()
      {
        Ok(())
      } else {
        Err(error(*name, AnalysisErrorKind::UndefinedVariable { variable }))
      }
    }
    Expression::Call { name, arguments, .. } => check_call(**name, arguments.len(), functions),
    _ => Ok(()),
  }
}

/// Where a depth-first visit stands with an item.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mark {
  Unvisited,
  /// On the current path: reaching it again closes a cycle.
  OnStack,
  Done,
}

struct VariableResolver<'src, 'a> {
  assignments: &'a Assignments<'src>,
  functions: &'a Functions<'src>,
  marks: Vec<Mark>,
  /// The assignments being visited, innermost last.
  stack: Vec<usize>,
  /// User functions whose bodies are being walked (stops recursion).
  calling: Vec<&'src str>,
  /// The variable and call nodes of the expressions being visited: each
  /// visit pushes those of its expression and truncates them afterwards.
  references: Vec<&'src Expression<'src>>,
}

/// Undefined variables, cycles and calls, visiting variables in name order,
/// then the bodies of user functions.
pub(crate) fn resolve_variables<'src>(
  assignments: &Assignments<'src>,
  functions: &Functions<'src>,
) -> CompileResult<'src, ()> {
  let mut resolver = VariableResolver {
    assignments,
    functions,
    marks: Vec::new(),
    stack: Vec::new(),
    calling: Vec::new(),
    references: Vec::new(),
  };
  // Whether there is an error does not depend on the order of the visit;
  // which one is reported does: the first in name order.
  let Err(first) = resolver.resolve(&mut (0..assignments.len())) else { return Ok(()) };
  let mut order = assignments.sorted_indices().iter().map(|&index| index as usize);
  Err(resolver.resolve(&mut order).err().unwrap_or(first))
}

impl<'src> VariableResolver<'src, '_> {
  fn resolve(&mut self, order: &mut dyn Iterator<Item = usize>) -> CompileResult<'src, ()> {
    self.marks.clear();
    self.marks.resize(self.assignments.len(), Mark::Unvisited);
    self.stack.clear();
    self.calling.clear();
    self.references.clear();
    for index in order {
      self.visit(index)?;
    }
    for function in self.functions.values() {
      self.calling.push(function.name.lexeme());
      self.expression(&function.body, Scope::Names(function.parameters))?;
      self.calling.pop();
    }
    Ok(())
  }

  fn visit(&mut self, index: usize) -> CompileResult<'src, ()> {
    if self.marks[index] == Mark::Done {
      return Ok(());
    }
    let Some(assignment) = self.assignments.at(index) else { return Ok(()) };
    self.marks[index] = Mark::OnStack;
    self.stack.push(index);
    self.expression(assignment.value, Scope::EMPTY)?;
    self.stack.pop();
    self.marks[index] = Mark::Done;
    Ok(())
  }

  fn expression(
    &mut self,
    expression: &'src Expression<'src>,
    scope: Scope<'src, 'src>,
  ) -> CompileResult<'src, ()> {
    let start = self.references.len();
    let references = &mut self.references;
    walk::<CompileError, _>(expression, &mut |expression| {
      if matches!(expression, Expression::Variable { .. } | Expression::Call { .. }) {
        references.push(expression);
      }
      Ok(())
    })?;
    for position in start..self.references.len() {
      match self.references[position] {
        Expression::Variable { name, .. } => self.variable(*name, scope)?,
        Expression::Call { name, arguments, .. } => self.call(**name, arguments.len())?,
        _ => {}
      }
    }
    self.references.truncate(start);
    Ok(())
  }

  fn variable(&mut self, name: Token<'src>, scope: Scope<'_, 'src>) -> CompileResult<'src, ()> {
    let variable = name.lexeme();
    if scope.contains(variable) {
      return Ok(());
    }
    let Some(index) = self.assignments.index_of(variable) else {
      if builtins::constant(variable).is_some() {
        return Ok(());
      }
      return Err(error(name, AnalysisErrorKind::UndefinedVariable { variable }));
    };
    if self.marks[index] == Mark::OnStack {
      if let Some(start) = self.stack.iter().position(|on_stack| *on_stack == index) {
        let mut circle: Vec<String> =
          self.stack[start..].iter().map(|&index| self.name(index).to_string()).collect();
        circle.push(variable.to_string());
        let kind = if circle.len() == 2 {
          AnalysisErrorKind::CircularVariableSelf { variable }
        } else {
          AnalysisErrorKind::CircularVariable { variable, circle }
        };
        let token = self.assignments.at(index).map_or(name, |assignment| assignment.name);
        return Err(error(token, kind));
      }
    }
    self.visit(index)
  }

  fn name(&self, index: usize) -> &'src str {
    self.assignments.name_at(index).unwrap_or("")
  }

  fn call(&mut self, name: Token<'src>, arguments: usize) -> CompileResult<'src, ()> {
    check_call(name, arguments, self.functions)?;
    let function = name.lexeme();
    let Some(definition) = self.functions.get(function) else { return Ok(()) };
    if self.calling.contains(&function) {
      return Ok(());
    }
    self.calling.push(function);
    self.expression(&definition.body, Scope::Names(definition.parameters))?;
    self.calling.pop();
    Ok(())
  }
}

/// Where a dependency or alias path leads.
enum Target<'src, 'm> {
  /// A recipe of another module: that module's id, the recipe's index there
  /// and the recipe.
  Recipe(usize, usize, &'m Recipe<'src>),
  /// A recipe of this module, by index.
  Local(usize),
  Module,
  /// Needs these absent optional modules.
  Disabled(Vec<String>),
  Unknown,
}

/// The resolved recipes and aliases of a module, without the disabled ones.
pub(crate) struct Resolved<'src> {
  pub recipes: Table<'src, Recipe<'src>>,
  pub aliases: BTreeMap<&'src str, Alias<'src>>,
  /// Disabled recipes and aliases: name → the absent modules they need.
  pub disabled: BTreeMap<&'src str, Vec<String>>,
  pub disabled_aliases: BTreeSet<&'src str>,
}

struct RecipeResolver<'src, 'a> {
  /// The module's id.
  module: usize,
  recipes: Table<'src, Recipe<'src>>,
  assignments: &'a Assignments<'src>,
  functions: &'a Functions<'src>,
  modules: &'a Submodules<'src>,
  absent: &'a BTreeSet<&'src str>,
  settings: &'a Settings<'src>,
  /// The names in every recipe are known to be defined.
  names_checked: bool,
  marks: Vec<Mark>,
  /// How many arguments each recipe visited takes.
  bounds: Vec<Bounds>,
  /// The recipes being visited, innermost last.
  stack: Vec<usize>,
  disabled: BTreeMap<&'src str, Vec<String>>,
  /// The resolved dependencies of every recipe, each recipe's together.
  dependencies: Vec<Dependency<'src>>,
  /// The dependencies of the recipes being visited, innermost last.
  pending: Vec<Dependency<'src>>,
}

/// Dependencies (each target resolved to its index), cycles, names in
/// recipes, argument counts, then alias targets; drops the recipes and
/// aliases that need an absent optional module.
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve_recipes<'src>(
  module: usize,
  recipes: Table<'src, Recipe<'src>>,
  mut aliases: BTreeMap<&'src str, Alias<'src>>,
  assignments: &Assignments<'src>,
  functions: &Functions<'src>,
  modules: &Submodules<'src>,
  absent: &BTreeSet<&'src str>,
  settings: &Settings<'src>,
  names_checked: bool,
) -> CompileResult<'src, Resolved<'src>> {
  let mut resolver = RecipeResolver {
    module,
    recipes,
    assignments,
    functions,
    modules,
    absent,
    settings,
    names_checked,
    marks: Vec::new(),
    bounds: Vec::new(),
    stack: Vec::new(),
    disabled: BTreeMap::new(),
    dependencies: Vec::new(),
    pending: Vec::new(),
  };
  // Whether there is an error does not depend on the order of the visit;
  // which one is reported does: the first in name order.
  if let Err(first) = resolver.resolve(&mut (0..resolver.recipes.len())) {
    let order: Vec<usize> =
      resolver.recipes.sorted_indices().iter().map(|&index| index as usize).collect();
    return Err(resolver.resolve(&mut order.into_iter()).err().unwrap_or(first));
  }
  let mut disabled = resolver.disabled_closure();
  let mut disabled_aliases = BTreeMap::new();
  for (name, alias) in &aliases {
    match resolver.target(&alias.target, true) {
      Target::Unknown => {
        return Err(error(
          alias.name,
          AnalysisErrorKind::UnknownAliasTarget { alias: name, target: alias.target_path() },
        ))
      }
      Target::Disabled(modules) => {
        disabled_aliases.insert(*name, modules);
      }
      Target::Local(index) => {
        let recipe = resolver.recipes.name_at(index);
        if let Some(modules) = recipe.and_then(|recipe| disabled.get(recipe)) {
          disabled_aliases.insert(*name, modules.clone());
        }
      }
      Target::Recipe(..) | Target::Module => {}
    }
  }
  let RecipeResolver { mut recipes, mut dependencies, .. } = resolver;
  if !disabled.is_empty() {
    drop_disabled(module, &mut recipes, &mut dependencies, &disabled);
  }
  let pool = Arc::new(dependencies);
  for index in 0..recipes.len() {
    if let Some(recipe) = recipes.at_mut(index) {
      recipe.dependencies.attach(&pool);
    }
  }
  for name in disabled_aliases.keys() {
    aliases.remove(name);
  }
  let alias_names = disabled_aliases.keys().copied().collect();
  disabled.extend(disabled_aliases);
  Ok(Resolved { recipes, aliases, disabled, disabled_aliases: alias_names })
}

/// Remove the disabled recipes, renumbering the dependencies on the others.
fn drop_disabled<'src>(
  module: usize,
  recipes: &mut Table<'src, Recipe<'src>>,
  dependencies: &mut [Dependency<'src>],
  disabled: &BTreeMap<&'src str, Vec<String>>,
) {
  let renumbered = recipes.retain(|recipe| !disabled.contains_key(recipe.key()));
  for dependency in dependencies {
    if dependency.module as usize == module {
      if let Some(Some(target)) = renumbered.get(dependency.target as usize) {
        dependency.target = *target;
      }
    }
  }
}

impl<'src, 'a> RecipeResolver<'src, 'a> {
  fn resolve(&mut self, order: &mut dyn Iterator<Item = usize>) -> CompileResult<'src, ()> {
    self.marks.clear();
    self.marks.resize(self.recipes.len(), Mark::Unvisited);
    self.bounds.clear();
    self.bounds.resize(self.recipes.len(), Bounds::default());
    self.stack.clear();
    self.disabled.clear();
    self.dependencies.clear();
    let count = self.recipes.values_added().map(|recipe| recipe.ast.dependencies.len());
    self.dependencies.reserve_exact(count.sum());
    self.pending.clear();
    for index in order {
      self.visit(index)?;
    }
    Ok(())
  }

  fn target(&self, path: &[Token<'src>], alias: bool) -> Target<'src, 'a> {
    let Some((last, modules)) = path.split_last() else { return Target::Unknown };
    let mut module: Option<&'a Module<'src>> = None;
    let mut walked: Vec<&str> = Vec::new();
    for component in modules {
      let name = component.lexeme();
      walked.push(name);
      let (submodules, absent) = match module {
        None => (self.modules, self.absent),
        Some(module) => (&module.modules, &module.absent_modules),
      };
      match submodules.get(name) {
        Some(submodule) => module = Some(submodule),
        None if absent.contains(name) => return Target::Disabled(vec![walked.join("::")]),
        None => return Target::Unknown,
      }
    }
    let name = last.lexeme();
    let (submodules, absent) = match module {
      None => {
        if let Some(index) = self.recipes.index_of(name) {
          return Target::Local(index);
        }
        (self.modules, self.absent)
      }
      Some(module) => {
        if let Some(index) = module.recipes.index_of(name) {
          if let Some(recipe) = module.recipes.at(index) {
            return Target::Recipe(module.id, index, recipe);
          }
        }
        if let Some(needed) = module.disabled.get(name) {
          return Target::Disabled(needed.clone());
        }
        (&module.modules, &module.absent_modules)
      }
    };
    if alias {
      if submodules.contains_key(name) {
        return Target::Module;
      }
      if absent.contains(name) {
        walked.push(name);
        return Target::Disabled(vec![walked.join("::")]);
      }
    }
    Target::Unknown
  }

  fn name(&self, index: usize) -> &'src str {
    self.recipes.name_at(index).unwrap_or("")
  }

  fn visit(&mut self, index: usize) -> CompileResult<'src, ()> {
    if self.marks[index] == Mark::Done {
      return Ok(());
    }
    let Some(recipe) = self.recipes.at(index) else { return Ok(()) };
    let (ast, script) = (recipe.ast, recipe.script);
    // For errors only.
    let name = || ast.name.lexeme();
    self.marks[index] = Mark::OnStack;
    self.stack.push(index);
    let base = self.pending.len();
    // The targets in other modules, in order, for the argument counts below.
    let mut foreign: Vec<&'a Recipe<'src>> = Vec::new();
    // How many dependencies come before `&&`.
    let mut priors: u32 = 0;
    // The last path component of the first mapped dependency.
    let mut mapped = None;
    for (position, dependency) in ast.dependencies.iter().enumerate() {
      let Some(last) = dependency.path.last() else { continue };
      // Most dependencies are recipes of the same module.
      let local = match dependency.path {
        [only] => self.recipes.index_of_token(only).map(Target::Local),
        _ => None,
      };
      let target = local.unwrap_or_else(|| self.target(dependency.path, false));
      let (module, target) = match target {
        Target::Local(target) => {
          self.check_not_circular(index, target, *last)?;
          self.visit(target)?;
          (self.module, target)
        }
        Target::Disabled(modules) => {
          self.disabled.entry(name()).or_default().extend(modules);
          continue;
        }
        Target::Unknown | Target::Module => {
          return Err(error(
            *last,
            AnalysisErrorKind::UnknownDependency {
              recipe: name(),
              dependency: path_string(dependency.path),
            },
          ));
        }
        Target::Recipe(module, target, recipe) => {
          foreign.push(recipe);
          (module, target)
        }
      };
      self.pending.push(Dependency {
        ast: dependency,
        module: narrow(module),
        target: narrow(target),
      });
      if mapped.is_none() && dependency.is_mapped() {
        mapped = Some(*last);
      }
      if position < ast.prior_count as usize {
        priors += 1;
      }
    }
    let lists = self.settings.lists;
    if let (false, Some(last)) = (lists, mapped) {
      let message = "mapped dependencies require `set lists`".to_string();
      return Err(error(last, AnalysisErrorKind::ListGate { message }));
    }
    if !self.names_checked {
      self.check_recipe_names(ast, script)?;
    }
    self.check_argument_counts(base, foreign, lists)?;
    self.finish(index, base, priors, lists);
    Ok(())
  }

  /// Recipe `index` is resolved: record its bounds and its dependencies
  /// (pending from `base` on), and take it off the stack.
  fn finish(&mut self, index: usize, base: usize, priors: u32, lists: bool) {
    if let (Some(bounds), Some(recipe)) = (self.bounds.get_mut(index), self.recipes.at(index)) {
      *bounds = Bounds::of(recipe, lists);
    }
    let start = self.dependencies.len();
    self.dependencies.extend_from_slice(&self.pending[base..]);
    self.pending.truncate(base);
    let end = self.dependencies.len();
    if let Some(recipe) = self.recipes.at_mut(index) {
      recipe.dependencies = Pooled::pending(start..end);
      recipe.prior_count = priors;
    }
    self.stack.pop();
    self.marks[index] = Mark::Done;
  }

  /// A dependency of recipe `index` on recipe `target` of the same module,
  /// named by `last`, must not close a circle.
  fn check_not_circular(
    &self,
    index: usize,
    target: usize,
    last: Token<'src>,
  ) -> CompileResult<'src, ()> {
    let name = || self.name(index);
    if target == index {
      return Err(error(last, AnalysisErrorKind::CircularRecipeSelf { recipe: name() }));
    }
    if self.marks[target] == Mark::OnStack {
      if let Some(start) = self.stack.iter().position(|on_stack| *on_stack == target) {
        let mut circle: Vec<String> =
          self.stack[start..].iter().map(|&index| self.name(index).to_string()).collect();
        circle.push(self.name(target).to_string());
        let kind = AnalysisErrorKind::CircularRecipe { recipe: name(), circle };
        return Err(error(last, kind));
      }
    }
    Ok(())
  }

  /// The pending dependencies from `base` on pass as many arguments as
  /// their targets take (`foreign`: the targets in other modules, in order).
  fn check_argument_counts(
    &self,
    base: usize,
    foreign: Vec<&'a Recipe<'src>>,
    lists: bool,
  ) -> CompileResult<'src, ()> {
    let mut foreign = foreign.into_iter();
    for dependency in &self.pending[base..] {
      let bounds = if dependency.module as usize == self.module {
        self.bounds.get(dependency.target as usize).copied()
      } else {
        foreign.next().map(|target| Bounds::of(target, lists))
      };
      if let (Some(bounds), Some(last)) = (bounds, dependency.path().last()) {
        bounds.check(dependency.ast, *last)?;
      }
    }
    Ok(())
  }

  /// Names in defaults, dependency arguments, attributes and the body.
  fn check_recipe_names(
    &self,
    recipe: &ast::Recipe<'src>,
    script: bool,
  ) -> CompileResult<'src, ()> {
    let skip_comments = self.settings.ignore_comments && !script;
    for_each_run_time_expression(recipe, skip_comments, &mut |expression, in_scope| {
      let scope = Scope::Parameters(&recipe.parameters[..in_scope]);
      check_expression(expression, scope, self.assignments, self.functions)
    })
  }

  /// Recipes disabled directly, plus those depending on them; each with the
  /// sorted union of the absent modules it needs, directly or transitively.
  fn disabled_closure(&self) -> BTreeMap<&'src str, Vec<String>> {
    let mut disabled = self.disabled.clone();
    if disabled.is_empty() {
      return disabled;
    }
    for modules in disabled.values_mut() {
      modules.sort();
      modules.dedup();
    }
    loop {
      let mut changed = false;
      for recipe in self.recipes.values_added() {
        let name = recipe.key();
        let mut needed: Vec<String> = disabled.get(name).cloned().unwrap_or_default();
        for dependency in recipe.ast.dependencies {
          if let [single] = dependency.path {
            if let Some(modules) = disabled.get(single.lexeme()) {
              needed.extend(modules.iter().cloned());
            }
          }
        }
        needed.sort();
        needed.dedup();
        if !needed.is_empty() && disabled.get(name) != Some(&needed) {
          disabled.insert(name, needed);
          changed = true;
        }
      }
      if !changed {
        return disabled;
      }
    }
  }
}

/// Where in a recipe an expression sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Site {
  Attribute,
  Default,
  DependencyArgument,
  Body,
}

/// The one walk over a recipe's expressions: those of one site, in source
/// order, each with how many of the recipe's parameters are in scope there
/// and whether it is evaluated when the recipe runs — not when it is only
/// evaluated at load time (`[doc]`, `[arg(pattern, help)]`), nor on a comment
/// line that `set ignore-comments` skips (`skip_comments`).
pub(crate) fn for_each_site_expression<'e, 'src, E, F>(
  recipe: &'e ast::Recipe<'src>,
  site: Site,
  skip_comments: bool,
  visit: &mut F,
) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>, usize, bool) -> Result<(), E>,
{
  match site {
    Site::Attribute => attribute_site(recipe, visit),
    Site::Default => default_site(recipe, visit),
    Site::DependencyArgument => dependency_site(recipe, visit),
    Site::Body => body_site(recipe, skip_comments, visit),
  }
}

/// `for_each_site_expression` over every site in declaration order:
/// attributes, defaults, dependency arguments, then the body.
pub(crate) fn for_each_expression<'e, 'src, E, F>(
  recipe: &'e ast::Recipe<'src>,
  skip_comments: bool,
  visit: &mut F,
) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>, usize, bool) -> Result<(), E>,
{
  attribute_site(recipe, visit)?;
  default_site(recipe, visit)?;
  dependency_site(recipe, visit)?;
  body_site(recipe, skip_comments, visit)
}

#[inline]
fn attribute_site<'e, 'src, E, F>(recipe: &'e ast::Recipe<'src>, visit: &mut F) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>, usize, bool) -> Result<(), E>,
{
  let all = recipe.parameters.len();
  for entry in recipe.attributes.list {
    for (expression, scope) in attribute_expressions(&entry.attribute) {
      match scope {
        AttributeScope::Parameters => visit(expression, all, true)?,
        AttributeScope::Empty => visit(expression, 0, true)?,
        AttributeScope::LoadTime => visit(expression, 0, false)?,
      }
    }
  }
  Ok(())
}

#[inline]
fn default_site<'e, 'src, E, F>(recipe: &'e ast::Recipe<'src>, visit: &mut F) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>, usize, bool) -> Result<(), E>,
{
  for (index, parameter) in recipe.parameters.iter().enumerate() {
    if let Some(default) = &parameter.default {
      visit(default, index, true)?;
    }
  }
  Ok(())
}

#[inline]
fn dependency_site<'e, 'src, E, F>(recipe: &'e ast::Recipe<'src>, visit: &mut F) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>, usize, bool) -> Result<(), E>,
{
  let all = recipe.parameters.len();
  for dependency in recipe.dependencies {
    for argument in dependency.arguments {
      visit(argument, all, true)?;
    }
  }
  Ok(())
}

#[inline]
fn body_site<'e, 'src, E, F>(
  recipe: &'e ast::Recipe<'src>,
  skip_comments: bool,
  visit: &mut F,
) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>, usize, bool) -> Result<(), E>,
{
  let all = recipe.parameters.len();
  let mut continued = false;
  for line in recipe.body {
    let comment = skip_comments
      && !continued
      && matches!(line.first_fragment(), Some(Fragment::Text(text)) if text.lexeme().trim_start().starts_with('#'));
    for interpolation in line.interpolations {
      visit(interpolation.expression, all, !comment)?;
    }
    continued = skip_comments
      && matches!(line.last_fragment(), Some(Fragment::Text(text)) if text.lexeme().ends_with('\\'));
  }
  Ok(())
}

/// The expressions a recipe evaluates when it runs, with how many of its
/// parameters are in scope there, in the order names are checked: parameter
/// defaults, dependency arguments, attributes, then the body.
pub(crate) fn for_each_run_time_expression<'e, 'src, E, F>(
  recipe: &'e ast::Recipe<'src>,
  skip_comments: bool,
  visit: &mut F,
) -> Result<(), E>
where
  F: FnMut(&'e Expression<'src>, usize) -> Result<(), E>,
{
  for site in [Site::Default, Site::DependencyArgument, Site::Attribute, Site::Body] {
    for_each_site_expression(
      recipe,
      site,
      skip_comments,
      &mut |expression, in_scope, run_time| {
        if run_time {
          visit(expression, in_scope)
        } else {
          Ok(())
        }
      },
    )?;
  }
  Ok(())
}

/// `for_each_run_time_expression`, collected.
pub(crate) fn run_time_expressions<'e, 'src>(
  recipe: &'e ast::Recipe<'src>,
  skip_comments: bool,
) -> Vec<(&'e Expression<'src>, usize)> {
  let mut expressions = Vec::new();
  let _ =
    for_each_run_time_expression::<(), _>(recipe, skip_comments, &mut |expression, in_scope| {
      expressions.push((expression, in_scope));
      Ok(())
    });
  expressions
}

/// What an attribute's expression sees.
enum AttributeScope {
  /// Evaluated at run time with the recipe's parameters.
  Parameters,
  /// Evaluated at run time without them.
  Empty,
  /// Evaluated once, at load time.
  LoadTime,
}

/// An attribute's expressions in source order.
fn attribute_expressions<'e, 'src>(
  attribute: &'e Attribute<'src>,
) -> Vec<(&'e Expression<'src>, AttributeScope)> {
  use AttributeScope::*;
  match attribute {
    Attribute::Confirm(Some(expression))
    | Attribute::Timestamp(Some(expression))
    | Attribute::WorkingDirectory(expression) => vec![(expression, Parameters)],
    Attribute::Doc(Some(expression)) => vec![(expression, LoadTime)],
    Attribute::Env(name, value) => vec![(name, Empty), (value, Empty)],
    Attribute::Arg(arg) => {
      let mut keyed: Vec<_> =
        [(&arg.pattern, LoadTime), (&arg.value, Parameters), (&arg.help, LoadTime)]
          .into_iter()
          .filter_map(|(keyed, scope)| keyed.as_ref().map(|keyed| (keyed, scope)))
          .collect();
      keyed.sort_by_key(|(keyed, _)| keyed.key.offset);
      keyed.into_iter().map(|(keyed, scope)| (&keyed.value, scope)).collect()
    }
    Attribute::Cache(cache) => [&cache.extra, &cache.inputs, &cache.outputs]
      .into_iter()
      .flatten()
      .map(|keyed| (&keyed.value, Parameters))
      .collect(),
    Attribute::Android
    | Attribute::Confirm(None)
    | Attribute::Continue(_)
    | Attribute::Default
    | Attribute::Doc(None)
    | Attribute::Dragonfly
    | Attribute::ExitMessage
    | Attribute::Extension(_)
    | Attribute::Freebsd
    | Attribute::Group(_)
    | Attribute::Linux
    | Attribute::Macos
    | Attribute::Metadata(_)
    | Attribute::Netbsd
    | Attribute::NoCd
    | Attribute::NoExitMessage
    | Attribute::NoQuiet
    | Attribute::Openbsd
    | Attribute::Parallel
    | Attribute::PositionalArguments
    | Attribute::Private
    | Attribute::Script(_)
    | Attribute::Shell
    | Attribute::Timestamp(None)
    | Attribute::Unix
    | Attribute::Windows => Vec::new(),
  }
}

/// A module id or recipe index as the model stores it.
fn narrow(index: usize) -> u32 {
  u32::try_from(index).unwrap_or(u32::MAX)
}

fn path_string(path: &[Token]) -> String {
  path.iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::")
}

/// How many arguments a recipe takes as a dependency.
#[derive(Copy, Clone, Default)]
struct Bounds {
  min: u32,
  /// None: any number.
  max: Option<u32>,
}

impl Bounds {
  /// With `set lists` a dependency passes one value per parameter (a
  /// variadic parameter takes a list), a flag may be left out, and a `*`
  /// parameter with `[arg(min)]` must be given.
  fn of(target: &Recipe, lists: bool) -> Self {
    let parameters = target.parameters();
    let mut min = 0;
    let mut variadic = false;
    for parameter in parameters.iter() {
      let (ast, kind) = (parameter.ast, parameter.kind());
      variadic |= kind.is_variadic();
      let required = if lists {
        !parameter.flag()
          && ast.default.is_none()
          && (kind != ast::ParameterKind::Star || parameter.min().unwrap_or(0) > 0)
      } else {
        ast.default.is_none() && kind != ast::ParameterKind::Star
      };
      min += u32::from(required);
    }
    let max = (lists || !variadic).then(|| narrow(parameters.len()));
    Bounds { min, max }
  }

  fn check<'src>(
    self,
    dependency: &ast::Dependency<'src>,
    last: Token<'src>,
  ) -> CompileResult<'src, ()> {
    let found = dependency.arguments.len();
    let (min, max) = (self.min as usize, self.max.map(|max| max as usize));
    if found < min || max.is_some_and(|max| found > max) {
      return Err(error(
        last,
        AnalysisErrorKind::DependencyArgumentCount {
          dependency: path_string(dependency.path),
          found,
          min,
          max,
        },
      ));
    }
    Ok(())
  }
}
