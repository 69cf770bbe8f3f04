//! The `[lists]` gate: without `set lists`, the first list-only construct in
//! source order is an error.

#![allow(clippy::result_large_err)]

use super::analyzer::{error, Entry};
use super::builtins;
use super::compile_error::CompileError;
use super::error::AnalysisErrorKind;
use super::model::Functions;
use super::resolver::{for_each_site_expression, walk, Site};
use crate::syntax::ast::{ArgAttribute, Attribute, Expression, Item, Recipe, Set, SettingValue};
use crate::syntax::token::Token;

type CompileResult<'src, T> = Result<T, CompileError<'src>>;
/// The key token of one list-only `[arg]` key, when present.
type ArgKey = for<'src> fn(&ArgAttribute<'src>) -> Option<Token<'src>>;

fn gate<'src>(token: Token<'src>, message: &str) -> CompileResult<'src, ()> {
  Err(error(token, AnalysisErrorKind::ListGate { message: message.to_string() }))
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
    let mut comparisons = Vec::new();
    walk(expression, &mut |node| self.node(node, &mut comparisons))
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
          gate(*token, "comparison operators require `set lists`")
        }
      }
      Conditional { keyword, condition, otherwise, .. } => {
        if otherwise.is_none() {
          return gate(*keyword, "`if` without `else` requires `set lists`");
        }
        self.condition(condition, comparisons)
      }
      Assert { condition, .. } => self.condition(condition, comparisons),
      Call { name, .. } => {
        let function = name.lexeme();
        if !self.functions.contains_key(function)
          && builtins::requires_lists(&builtins::canonical_name(function))
        {
          return Err(error(*name, AnalysisErrorKind::FunctionRequiresLists { function }));
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
