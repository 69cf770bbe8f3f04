//! Name resolution: variables (undefined, cycles, function calls) and recipes
//! (dependencies, cycles, names in recipes, argument counts, aliases).

#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};

use super::analyzer::error;
use super::builtins;
use super::compile_error::CompileError;
use super::error::AnalysisErrorKind;
use super::model::{Alias, Assignment, Dependency, Module, Recipe, Settings};
use crate::syntax::ast::{self, Attribute, Expression, Fragment, FunctionDefinition};
use crate::syntax::token::Token;

type CompileResult<'src, T> = Result<T, CompileError<'src>>;
type Assignments<'src> = BTreeMap<&'src str, Assignment<'src>>;
type Functions<'src> = BTreeMap<&'src str, FunctionDefinition<'src>>;

/// Visit every node of an expression in source order: a binary operator
/// between its operands, any other node before its parts. The one expression
/// walk behind name checks, the `set lists` gate and the demand set.
pub(crate) fn walk<'e, 'src, E>(
  expression: &'e Expression<'src>,
  visit: &mut dyn FnMut(&'e Expression<'src>) -> Result<(), E>,
) -> Result<(), E> {
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
fn walk_parts<'e, 'src, E>(
  expression: &'e Expression<'src>,
  visit: &mut dyn FnMut(&'e Expression<'src>) -> Result<(), E>,
) -> Result<(), E> {
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

/// Names in an expression must be variables or constants, and calls must name
/// existing functions with the right arity; checked in one source-order walk.
pub(crate) fn check_names_and_calls<'src>(
  expression: &Expression<'src>,
  assignments: &Assignments<'src>,
  functions: &Functions<'src>,
) -> CompileResult<'src, ()> {
  check_expression(expression, &[], assignments, Some(functions))
}

fn check_expression<'src>(
  expression: &Expression<'src>,
  scope: &[&str],
  assignments: &Assignments,
  functions: Option<&Functions<'src>>,
) -> CompileResult<'src, ()> {
  walk(expression, &mut |expression| match expression {
    Expression::Variable { name } => {
      let variable = name.lexeme();
      if scope.contains(&variable)
        || assignments.contains_key(variable)
        || builtins::constant(variable).is_some()
      {
        Ok(())
      } else {
        Err(error(*name, AnalysisErrorKind::UndefinedVariable { variable }))
      }
    }
    Expression::Call { name, arguments } => match functions {
      Some(functions) => check_call(*name, arguments.len(), functions),
      None => Ok(()),
    },
    _ => Ok(()),
  })
}

struct VariableResolver<'src, 'a> {
  assignments: &'a Assignments<'src>,
  functions: &'a Functions<'src>,
  resolved: super::names::NameSet<'src>,
  stack: Vec<&'src str>,
  /// The names on `stack`, for constant-time cycle checks.
  on_stack: super::names::NameSet<'src>,
  /// User functions whose bodies are being walked (stops recursion).
  calling: Vec<&'src str>,
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
    resolved: super::names::NameSet::default(),
    stack: Vec::new(),
    on_stack: super::names::NameSet::default(),
    calling: Vec::new(),
  };
  for name in assignments.keys() {
    resolver.visit(name)?;
  }
  for function in functions.values() {
    let scope: Vec<&str> = function.parameters.iter().map(|p| p.lexeme()).collect();
    resolver.calling.push(function.name.lexeme());
    resolver.expression(&function.body, &scope)?;
    resolver.calling.pop();
  }
  Ok(())
}

impl<'src> VariableResolver<'src, '_> {
  fn visit(&mut self, name: &'src str) -> CompileResult<'src, ()> {
    if self.resolved.contains(name) {
      return Ok(());
    }
    let Some(assignment) = self.assignments.get(name) else { return Ok(()) };
    self.stack.push(name);
    self.on_stack.insert(name);
    self.expression(&assignment.value, &[])?;
    self.stack.pop();
    self.on_stack.remove(name);
    self.resolved.insert(name);
    Ok(())
  }

  fn expression(
    &mut self,
    expression: &Expression<'src>,
    scope: &[&str],
  ) -> CompileResult<'src, ()> {
    let mut references: Vec<&Expression<'src>> = Vec::new();
    walk::<CompileError>(expression, &mut |expression| {
      if matches!(expression, Expression::Variable { .. } | Expression::Call { .. }) {
        references.push(expression);
      }
      Ok(())
    })?;
    for reference in references {
      match reference {
        Expression::Variable { name } => self.variable(*name, scope)?,
        Expression::Call { name, arguments } => self.call(*name, arguments.len())?,
        _ => {}
      }
    }
    Ok(())
  }

  fn variable(&mut self, name: Token<'src>, scope: &[&str]) -> CompileResult<'src, ()> {
    let variable = name.lexeme();
    if scope.contains(&variable) {
      return Ok(());
    }
    let Some(assignment) = self.assignments.get(variable) else {
      if builtins::constant(variable).is_some() {
        return Ok(());
      }
      return Err(error(name, AnalysisErrorKind::UndefinedVariable { variable }));
    };
    let start = if self.on_stack.contains(variable) {
      self.stack.iter().position(|on_stack| *on_stack == variable)
    } else {
      None
    };
    if let Some(start) = start {
      let mut circle: Vec<String> = self.stack[start..].iter().map(|s| s.to_string()).collect();
      circle.push(variable.to_string());
      let kind = if circle.len() == 2 {
        AnalysisErrorKind::CircularVariableSelf { variable }
      } else {
        AnalysisErrorKind::CircularVariable { variable, circle }
      };
      return Err(error(assignment.name, kind));
    }
    self.visit(variable)
  }

  fn call(&mut self, name: Token<'src>, arguments: usize) -> CompileResult<'src, ()> {
    check_call(name, arguments, self.functions)?;
    let function = name.lexeme();
    let Some(definition) = self.functions.get(function) else { return Ok(()) };
    if self.calling.contains(&function) {
      return Ok(());
    }
    let scope: Vec<&str> = definition.parameters.iter().map(|p| p.lexeme()).collect();
    self.calling.push(function);
    self.expression(&definition.body, &scope)?;
    self.calling.pop();
    Ok(())
  }
}

/// Where a dependency or alias path leads.
enum Target<'src, 'm> {
  Recipe(&'m Recipe<'src>),
  /// A recipe of this module, by name.
  Local(&'src str),
  Module,
  /// Needs these absent optional modules.
  Disabled(Vec<String>),
  Unknown,
}

pub(crate) struct RecipeResolver<'src, 'a> {
  pub path: &'a [String],
  /// The module's recipes by name, hashed: looked up once or twice per dependency.
  pub recipes: super::names::NameMap<'src, &'a Recipe<'src>>,
  pub assignments: &'a Assignments<'src>,
  pub functions: &'a Functions<'src>,
  pub modules: &'a BTreeMap<&'src str, Module<'src>>,
  pub absent: &'a BTreeSet<&'src str>,
  pub settings: &'a Settings<'src>,
  resolved: super::names::NameSet<'src>,
  stack: Vec<&'src str>,
  /// The names on `stack`, for constant-time cycle checks.
  on_stack: super::names::NameSet<'src>,
  disabled: BTreeMap<&'src str, Vec<String>>,
}

type Resolved<'src> = (
  BTreeMap<&'src str, Recipe<'src>>,
  BTreeMap<&'src str, Alias<'src>>,
  BTreeMap<&'src str, Vec<String>>,
  BTreeSet<&'src str>,
);

#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve_recipes<'src>(
  path: &[String],
  mut recipes: BTreeMap<&'src str, Recipe<'src>>,
  mut aliases: BTreeMap<&'src str, Alias<'src>>,
  assignments: &Assignments<'src>,
  functions: &Functions<'src>,
  modules: &BTreeMap<&'src str, Module<'src>>,
  absent: &BTreeSet<&'src str>,
  settings: &Settings<'src>,
) -> CompileResult<'src, Resolved<'src>> {
  let mut resolver = RecipeResolver {
    path,
    recipes: recipes.iter().map(|(name, recipe)| (*name, recipe)).collect(),
    assignments,
    functions,
    modules,
    absent,
    settings,
    resolved: super::names::NameSet::default(),
    stack: Vec::new(),
    on_stack: super::names::NameSet::default(),
    disabled: BTreeMap::new(),
  };
  let names: Vec<&'src str> = recipes.keys().copied().collect();
  for name in &names {
    resolver.visit(name)?;
  }
  let dependencies: Vec<_> = recipes
    .values()
    .map(|recipe| {
      (resolver.dependencies(&recipe.ast.priors), resolver.dependencies(&recipe.ast.subsequents))
    })
    .collect();
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
      Target::Local(recipe) if disabled.contains_key(recipe) => {
        disabled_aliases.insert(*name, disabled[recipe].clone());
      }
      _ => {}
    }
  }
  drop(resolver);
  for (recipe, (priors, subsequents)) in recipes.values_mut().zip(dependencies) {
    recipe.priors = priors;
    recipe.subsequents = subsequents;
  }
  for name in disabled.keys() {
    recipes.remove(name);
  }
  for name in disabled_aliases.keys() {
    aliases.remove(name);
  }
  let alias_names = disabled_aliases.keys().copied().collect();
  disabled.extend(disabled_aliases);
  Ok((recipes, aliases, disabled, alias_names))
}

impl<'src, 'a> RecipeResolver<'src, 'a> {
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
    let (recipes, submodules, absent) = match module {
      None => (None, self.modules, self.absent),
      Some(module) => (Some(&module.recipes), &module.modules, &module.absent_modules),
    };
    match recipes {
      None if self.recipes.contains_key(name) => return Target::Local(name),
      Some(recipes) => {
        if let Some(recipe) = recipes.get(name) {
          return Target::Recipe(recipe);
        }
        if let Some(needed) = module.and_then(|module| module.disabled.get(name)) {
          return Target::Disabled(needed.clone());
        }
      }
      None => {}
    }
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

  fn visit(&mut self, name: &'src str) -> CompileResult<'src, ()> {
    if self.resolved.contains(name) {
      return Ok(());
    }
    let Some(&recipe) = self.recipes.get(name) else { return Ok(()) };
    self.stack.push(name);
    self.on_stack.insert(name);
    // Each dependency's target, looked up once, for the argument counts below.
    let mut targets = Vec::with_capacity(recipe.ast.priors.len() + recipe.ast.subsequents.len());
    for dependency in recipe.ast.priors.iter().chain(&recipe.ast.subsequents) {
      let Some(last) = dependency.path.last() else { continue };
      match self.target(&dependency.path, false) {
        Target::Local(target) => {
          targets.push((dependency, *last, self.recipes.get(target).copied()));
          if target == name {
            return Err(error(*last, AnalysisErrorKind::CircularRecipeSelf { recipe: name }));
          }
          let start = if self.on_stack.contains(target) {
            self.stack.iter().position(|on_stack| *on_stack == target)
          } else {
            None
          };
          if let Some(start) = start {
            let mut circle: Vec<String> =
              self.stack[start..].iter().map(|s| s.to_string()).collect();
            circle.push(target.to_string());
            return Err(error(*last, AnalysisErrorKind::CircularRecipe { recipe: name, circle }));
          }
          self.visit(target)?;
        }
        Target::Disabled(modules) => {
          self.disabled.entry(name).or_default().extend(modules);
        }
        Target::Unknown | Target::Module => {
          return Err(error(
            *last,
            AnalysisErrorKind::UnknownDependency {
              recipe: name,
              dependency: path_string(&dependency.path),
            },
          ));
        }
        Target::Recipe(target) => targets.push((dependency, *last, Some(target))),
      }
    }
    if !self.settings.lists {
      if let Some((_, last, _)) =
        targets.iter().find(|(dependency, ..)| dependency.mapped.is_some())
      {
        let message = "mapped dependencies require `set lists`".to_string();
        return Err(error(*last, AnalysisErrorKind::ListGate { message }));
      }
    }
    self.check_recipe_names(recipe)?;
    for (dependency, last, target) in targets {
      if let Some(target) = target {
        check_argument_count(dependency, target, last, self.settings.lists)?;
      }
    }
    self.stack.pop();
    self.on_stack.remove(name);
    self.resolved.insert(name);
    Ok(())
  }

  /// Names in defaults, dependency arguments, attributes and the body.
  fn check_recipe_names(&self, recipe: &Recipe<'src>) -> CompileResult<'src, ()> {
    let all: Vec<&str> = recipe.ast.parameters.iter().map(|p| p.name.lexeme()).collect();
    let skip_comments = self.settings.ignore_comments && !recipe.script;
    for (expression, in_scope) in run_time_expressions(recipe.ast, skip_comments) {
      check_expression(expression, &all[..in_scope], self.assignments, Some(self.functions))?;
    }
    Ok(())
  }

  fn dependencies(&self, dependencies: &'src [ast::Dependency<'src>]) -> Vec<Dependency<'src>> {
    dependencies
      .iter()
      .filter_map(|dependency| {
        let (last, modules) = dependency.path.split_last()?;
        let mut module = self.path.to_vec();
        module.extend(modules.iter().map(|name| name.lexeme().to_string()));
        Some(Dependency {
          path: &dependency.path,
          module,
          recipe: last.lexeme(),
          arguments: &dependency.arguments,
          star: dependency.star,
        })
      })
      .collect()
  }

  /// Recipes disabled directly, plus those depending on them; each with the
  /// sorted union of the absent modules it needs, directly or transitively.
  fn disabled_closure(&self) -> BTreeMap<&'src str, Vec<String>> {
    let mut disabled = self.disabled.clone();
    for modules in disabled.values_mut() {
      modules.sort();
      modules.dedup();
    }
    loop {
      let mut changed = false;
      for (&name, recipe) in &self.recipes {
        let mut needed: Vec<String> = disabled.get(name).cloned().unwrap_or_default();
        for dependency in recipe.ast.priors.iter().chain(&recipe.ast.subsequents) {
          if let [single] = dependency.path.as_slice() {
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

/// One expression of a recipe.
pub(crate) struct RecipeExpression<'e, 'src> {
  pub expression: &'e Expression<'src>,
  pub site: Site,
  /// How many of the recipe's parameters are in scope.
  pub in_scope: usize,
  /// Evaluated when the recipe runs: not when it is only evaluated at load
  /// time (`[doc]`, `[arg(pattern, help)]`), nor on a comment line that
  /// `set ignore-comments` skips.
  pub run_time: bool,
}

/// Every expression of a recipe, in source order: attributes, parameter
/// defaults, dependency arguments, then body interpolations. `skip_comments`:
/// comment lines are skipped by `set ignore-comments`.
pub(crate) fn recipe_expressions<'e, 'src>(
  recipe: &'e ast::Recipe<'src>,
  skip_comments: bool,
) -> Vec<RecipeExpression<'e, 'src>> {
  let all = recipe.parameters.len();
  let mut expressions = Vec::new();
  let mut push = |expression, site, in_scope, run_time| {
    expressions.push(RecipeExpression { expression, site, in_scope, run_time });
  };
  for entry in &recipe.attributes.list {
    for (expression, scope) in attribute_expressions(&entry.attribute) {
      match scope {
        AttributeScope::Parameters => push(expression, Site::Attribute, all, true),
        AttributeScope::Empty => push(expression, Site::Attribute, 0, true),
        AttributeScope::LoadTime => push(expression, Site::Attribute, 0, false),
      }
    }
  }
  for (index, parameter) in recipe.parameters.iter().enumerate() {
    if let Some(default) = &parameter.default {
      push(default, Site::Default, index, true);
    }
  }
  for dependency in recipe.priors.iter().chain(&recipe.subsequents) {
    for argument in &dependency.arguments {
      push(argument, Site::DependencyArgument, all, true);
    }
  }
  let mut continued = false;
  for line in &recipe.body {
    let comment = skip_comments
      && !continued
      && matches!(line.fragments.first(), Some(Fragment::Text(text)) if text.lexeme().trim_start().starts_with('#'));
    for fragment in &line.fragments {
      if let Fragment::Interpolation { expression, .. } = fragment {
        push(expression, Site::Body, all, !comment);
      }
    }
    continued =
      matches!(line.fragments.last(), Some(Fragment::Text(text)) if text.lexeme().ends_with('\\'));
  }
  expressions
}

/// The expressions a recipe evaluates when it runs, with how many of its
/// parameters are in scope there, in the order names are checked: parameter
/// defaults, dependency arguments, attributes, then the body.
pub(crate) fn run_time_expressions<'e, 'src>(
  recipe: &'e ast::Recipe<'src>,
  skip_comments: bool,
) -> Vec<(&'e Expression<'src>, usize)> {
  let mut expressions: Vec<_> = recipe_expressions(recipe, skip_comments)
    .into_iter()
    .filter(|expression| expression.run_time)
    .collect();
  expressions.sort_by_key(|expression| match expression.site {
    Site::Default => 0,
    Site::DependencyArgument => 1,
    Site::Attribute => 2,
    Site::Body => 3,
  });
  expressions.into_iter().map(|expression| (expression.expression, expression.in_scope)).collect()
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
    _ => Vec::new(),
  }
}

fn path_string(path: &[Token]) -> String {
  path.iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::")
}

/// With `set lists` a dependency passes one value per parameter (a variadic
/// parameter takes a list), a flag may be left out, and a `*` parameter
/// with `[arg(min)]` must be given.
fn check_argument_count<'src>(
  dependency: &ast::Dependency<'src>,
  target: &Recipe<'src>,
  last: Token<'src>,
  lists: bool,
) -> CompileResult<'src, ()> {
  let found = dependency.arguments.len();
  let required = |p: &&super::model::Parameter<'src>| {
    if !lists {
      return p.default.is_none() && p.kind != ast::ParameterKind::Star;
    }
    !p.flag && p.default.is_none() && (p.kind != ast::ParameterKind::Star || p.min.unwrap_or(0) > 0)
  };
  let min = target.parameters.iter().filter(required).count();
  let max = if !lists && target.parameters.iter().any(|p| p.kind.is_variadic()) {
    None
  } else {
    Some(target.parameters.len())
  };
  if found < min || max.is_some_and(|max| found > max) {
    return Err(error(
      last,
      AnalysisErrorKind::DependencyArgumentCount {
        dependency: path_string(&dependency.path),
        found,
        min,
        max,
      },
    ));
  }
  Ok(())
}
