//! The `[lists]` gate: without `set lists`, the first list-only construct in
//! source order is an error.

use super::body::is_script;
use super::builtins;
use super::compile_error::{error, CompileError};
use super::entries::Entry;
use super::error::AnalysisErrorKind;
use super::model::{Assignment, Functions, Settings, Table};
use super::resolver::{
  check_name, for_each_expression, for_each_site_expression, walk, Scope, Site,
};
use crate::syntax::ast::{ArgAttribute, Attribute, Expression, Item, Recipe, Set, SettingValue};
use crate::syntax::token::Token;

type CompileResult<'src, T> = Result<T, CompileError<'src>>;
/// The key token of one list-only `[arg]` key, when present.
type ArgKey = for<'src> fn(&ArgAttribute<'src>) -> Option<Token<'src>>;

fn gate<'src>(token: Token<'src>, message: &str) -> CompileResult<'src, ()> {
  Err(error(token, AnalysisErrorKind::ListGate { message: message.to_string() }))
}

/// Whether every item passes the gate (with `lists` off) and the names in
/// every recipe's run-time expressions are defined, in one walk over each
/// expression. Usually they are, and the passes that report the first
/// failure in order, `check` and the resolver's name check, can be skipped.
pub(crate) fn all_pass<'src>(
  entries: &[Entry<'src, '_>],
  assignments: &Table<'src, Assignment<'src>>,
  functions: &Functions<'src>,
  settings: &Settings<'src>,
) -> bool {
  let check = Precheck { assignments, functions, gate: !settings.lists };
  // Other items' names are checked already: only the gate is left.
  let expression = |expression| !check.gate || check.passes(expression, Scope::EMPTY, false);
  entries.iter().all(|entry| match entry.item {
    Item::Assignment(assignment) => expression(&assignment.value),
    Item::Function(function) => expression(&function.body),
    Item::Set(set) => match &set.value {
      SettingValue::Expression(value) => expression(value),
      SettingValue::List(elements) => elements.iter().all(expression),
      SettingValue::Boolean { .. } | SettingValue::Literal(_) => true,
    },
    Item::Recipe(recipe) => check.recipe(recipe, settings),
    _ => true,
  })
}

/// The gate and the name check as one yes-or-no walk. It must fail whenever
/// either would: it may fail more often (the exact passes then run), never
/// less.
struct Precheck<'src, 'a> {
  assignments: &'a Table<'src, Assignment<'src>>,
  functions: &'a Functions<'src>,
  /// Whether the list gate applies (no `set lists`).
  gate: bool,
}

impl<'src> Precheck<'src, '_> {
  fn recipe(&self, recipe: &Recipe<'src>, settings: &Settings<'src>) -> bool {
    if self.gate && argument_keys(recipe).is_err() {
      return false;
    }
    let skip_comments = settings.ignore_comments && !is_script(recipe, settings);
    let mut visit = |expression: &Expression<'src>, in_scope: usize, run_time: bool| {
      let scope = Scope::Parameters(&recipe.parameters[..in_scope]);
      if self.passes(expression, scope, run_time) {
        Ok(())
      } else {
        Err(())
      }
    };
    for_each_expression(recipe, skip_comments, &mut visit).is_ok()
  }

  /// Whether `expression` passes the gate and, with `names`, the name check:
  /// the usual leaves here, the rest in `passes_node`.
  #[inline]
  fn passes(&self, expression: &Expression<'src>, scope: Scope<'_, 'src>, names: bool) -> bool {
    match expression {
      Expression::StringLiteral(_) | Expression::Backtick { .. } => true,
      Expression::Variable { name, .. } if !names || scope.contains_token(name) => true,
      _ => self.passes_node(expression, scope, names),
    }
  }

  fn passes_node(
    &self,
    expression: &Expression<'src>,
    scope: Scope<'_, 'src>,
    names: bool,
  ) -> bool {
    use Expression::*;
    let all = |expressions: &[&Expression<'src>]| {
      expressions.iter().all(|expression| self.passes(expression, scope, names))
    };
    let named =
      || !names || check_name(expression, scope, self.assignments, self.functions).is_ok();
    match expression {
      StringLiteral(_) | Backtick { .. } => true,
      Variable { name, .. } => {
        !names
          || scope.contains_token(name)
          || self.assignments.index_of_token(name).is_some()
          || named()
      }
      Call { name, arguments, .. } => {
        !(self.gate && self.requires_lists(name.lexeme()))
          && named()
          && arguments.iter().all(|argument| self.passes(argument, scope, names))
      }
      Concatenation { lhs, rhs, .. } => all(&[lhs, rhs]),
      Join { lhs, rhs, .. } => {
        lhs.as_deref().is_none_or(|lhs| self.passes(lhs, scope, names)) && all(&[rhs])
      }
      Group { contents, .. } => all(&[contents]),
      FormatString { parts, .. } => {
        parts.iter().all(|(expression, _)| self.passes(expression, scope, names))
      }
      Conditional { condition, then, otherwise, .. } => {
        let otherwise = otherwise.as_deref();
        !(self.gate && otherwise.is_none())
          && self.condition(condition, scope, names)
          && all(&[then])
          && otherwise.is_none_or(|otherwise| self.passes(otherwise, scope, names))
      }
      Assert { condition, message, .. } => {
        self.condition(condition, scope, names)
          && message.as_deref().is_none_or(|message| self.passes(message, scope, names))
      }
      And { .. }
      | Or { .. }
      | Comparison { .. }
      | ListConcatenation { .. }
      | List { .. }
      | Not { .. }
        if self.gate =>
      {
        false
      }
      And { lhs, rhs, .. }
      | Or { lhs, rhs, .. }
      | Comparison { lhs, rhs, .. }
      | ListConcatenation { lhs, rhs, .. } => all(&[lhs, rhs]),
      List { elements, .. } => elements.iter().all(|element| self.passes(element, scope, names)),
      Not { operand, .. } => all(&[operand]),
    }
  }

  /// An `if`/`assert` condition: through the gate only as a comparison.
  fn condition(&self, condition: &Expression<'src>, scope: Scope<'_, 'src>, names: bool) -> bool {
    match condition {
      Expression::Comparison { lhs, rhs, .. } => {
        self.passes(lhs, scope, names) && self.passes(rhs, scope, names)
      }
      _ => !self.gate && self.passes(condition, scope, names),
    }
  }

  fn requires_lists(&self, function: &str) -> bool {
    !self.functions.contains_key(function) && builtins::requires_lists(function)
  }
}

pub(crate) fn check<'src>(
  entries: &[Entry<'src, '_>],
  functions: &Functions<'src>,
) -> CompileResult<'src, ()> {
  let gate = Gate { functions };
  for entry in entries {
    match entry.item {
      Item::Assignment(assignment) => gate.expression(&assignment.value)?,
      Item::Function(function) => gate.expression(&function.body)?,
      Item::Set(set) => gate.setting(set)?,
      Item::Recipe(recipe) => gate.recipe(recipe)?,
      _ => {}
    }
  }
  Ok(())
}

struct Gate<'src, 'a> {
  functions: &'a Functions<'src>,
}

impl<'src> Gate<'src, '_> {
  fn setting(&self, set: &Set<'src>) -> CompileResult<'src, ()> {
    match &set.value {
      SettingValue::Expression(expression) => self.expression(expression),
      SettingValue::List(elements) => {
        elements.iter().try_for_each(|element| self.expression(element))
      }
      SettingValue::Boolean { .. } | SettingValue::Literal(_) => Ok(()),
    }
  }

  /// A recipe's attribute expressions, then its `[arg]` keys, then its other
  /// expressions, including those on comment lines `set ignore-comments` skips.
  fn recipe(&self, recipe: &Recipe<'src>) -> CompileResult<'src, ()> {
    let mut visit = |expression: &Expression<'src>, _, _| self.expression(expression);
    for_each_site_expression(recipe, Site::Attribute, false, &mut visit)?;
    argument_keys(recipe)?;
    // Mapped dependencies themselves are gated by the resolver, once their
    // targets are known.
    for site in [Site::Default, Site::DependencyArgument, Site::Body] {
      for_each_site_expression(recipe, site, false, &mut visit)?;
    }
    Ok(())
  }

  /// An `if`/`assert` condition: one comparison, which the walk then lets
  /// through. Anything else is checked itself first, then refused.
  fn condition<'e>(
    &self,
    condition: &'e Expression<'src>,
    comparisons: &mut Vec<&'e Expression<'src>>,
  ) -> CompileResult<'src, ()> {
    if matches!(condition, Expression::Comparison { .. }) {
      comparisons.push(condition);
      return Ok(());
    }
    self.expression(condition)?;
    gate(
      condition.first_token(),
      "`if` and `assert` conditions other than comparisons require `set lists`",
    )
  }

  /// The first list-only construct of an expression, in source order.
  fn expression(&self, expression: &Expression<'src>) -> CompileResult<'src, ()> {
    self.expression_and(expression, &mut |_| Ok(()))
  }

  /// `expression`, also checking each node that passes with `also`.
  fn expression_and<'e, F>(
    &self,
    expression: &'e Expression<'src>,
    also: &mut F,
  ) -> CompileResult<'src, ()>
  where
    F: FnMut(&'e Expression<'src>) -> CompileResult<'src, ()>,
  {
    let mut comparisons = Vec::new();
    walk(expression, &mut |node| {
      self.node(node, &mut comparisons)?;
      also(node)
    })
  }

  /// `comparisons`: the conditions seen so far, where a comparison is allowed.
  fn node<'e>(
    &self,
    node: &'e Expression<'src>,
    comparisons: &mut Vec<&'e Expression<'src>>,
  ) -> CompileResult<'src, ()> {
    use Expression::*;
    match node {
      List { bracket, .. } => gate(*bracket, "list literals require `set lists`"),
      ListConcatenation { operator, .. } => {
        gate(*operator, "list concatenation operator `++` requires `set lists`")
      }
      And { operator, .. } | Or { operator, .. } => {
        gate(*operator, "logical operators require `set lists`")
      }
      Not { operator, .. } => gate(*operator, "negation operator requires `set lists`"),
      Comparison { token, .. } => {
        if comparisons.iter().any(|condition| std::ptr::eq(*condition, node)) {
          Ok(())
        } else {
          gate(**token, "comparison operators require `set lists`")
        }
      }
      Conditional { keyword, condition, otherwise, .. } => {
        if otherwise.is_none() {
          return gate(**keyword, "`if` without `else` requires `set lists`");
        }
        self.condition(condition, comparisons)
      }
      Assert { condition, .. } => self.condition(condition, comparisons),
      Call { name, .. } => {
        let function = name.lexeme();
        if !self.functions.contains_key(function) && builtins::requires_lists(function) {
          return Err(error(**name, AnalysisErrorKind::FunctionRequiresLists { function }));
        }
        Ok(())
      }
      Concatenation { .. }
      | Join { .. }
      | FormatString { .. }
      | Group { .. }
      | Backtick { .. }
      | StringLiteral(_)
      | Variable { .. } => Ok(()),
    }
  }
}

/// The list-only `[arg]` keys of a recipe, each kind across all its `[arg]`
/// attributes before the next kind.
fn argument_keys<'src>(recipe: &Recipe<'src>) -> CompileResult<'src, ()> {
  if recipe.attributes.list.is_empty() {
    return Ok(());
  }
  let arguments: Vec<_> = recipe
    .attributes
    .list
    .iter()
    .filter_map(|entry| match &entry.attribute {
      Attribute::Arg(arg) => Some(arg),
      _ => None,
    })
    .collect();
  let keys: [(ArgKey, &str); 4] = [
    (|arg| arg.multiple.as_ref().map(|keyed| keyed.key), "`[arg(multiple)]` requires `set lists`"),
    (|arg| arg.max.as_ref().map(|keyed| keyed.key), "`[arg(max)]` requires `set lists`"),
    (|arg| arg.min.as_ref().map(|keyed| keyed.key), "`[arg(min)]` requires `set lists`"),
    (|arg| arg.flag.as_ref().map(|keyed| keyed.key), "`flag` arguments require `set lists`"),
  ];
  for (key, message) in keys {
    if let Some(token) = arguments.iter().find_map(|arg| key(arg)) {
      return gate(token, message);
    }
  }
  Ok(())
}
