//! The `[lists]` gate: without `set lists`, the first list-only construct in
//! source order is an error.

#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;

use super::analyzer::{error, Entry};
use super::builtins;
use super::compile_error::CompileError;
use super::error::AnalysisErrorKind;
use crate::syntax::ast::{
  Attribute, Expression, Fragment, FunctionDefinition, Item, Recipe, Set, SettingValue,
};
use crate::syntax::token::Token;

type CompileResult<T> = Result<T, CompileError<'static>>;
type Functions = BTreeMap<&'static str, FunctionDefinition<'static>>;

fn gate(token: Token<'static>, message: &str) -> CompileResult<()> {
  Err(error(token, AnalysisErrorKind::ListGate { message: message.to_string() }))
}

pub(crate) fn check(entries: &[Entry], functions: &Functions) -> CompileResult<()> {
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

struct Gate<'a> {
  functions: &'a Functions,
}

impl Gate<'_> {
  fn setting(&self, set: &Set<'static>) -> CompileResult<()> {
    match &set.value {
      SettingValue::Expression(expression) => self.expression(expression),
      SettingValue::List(elements) => {
        elements.iter().try_for_each(|element| self.expression(element))
      }
      SettingValue::Boolean { .. } | SettingValue::Literal(_) => Ok(()),
    }
  }

  fn recipe(&self, recipe: &Recipe<'static>) -> CompileResult<()> {
    for entry in &recipe.attributes.list {
      self.attribute(&entry.attribute)?;
    }
    for parameter in &recipe.parameters {
      if let Some(default) = &parameter.default {
        self.expression(default)?;
      }
    }
    // Mapped dependencies themselves are gated by the resolver, once their
    // targets are known.
    for dependency in recipe.priors.iter().chain(&recipe.subsequents) {
      dependency.arguments.iter().try_for_each(|argument| self.expression(argument))?;
    }
    for line in &recipe.body {
      for fragment in &line.fragments {
        if let Fragment::Interpolation { expression, .. } = fragment {
          self.expression(expression)?;
        }
      }
    }
    Ok(())
  }

  fn attribute(&self, attribute: &Attribute<'static>) -> CompileResult<()> {
    match attribute {
      Attribute::Arg(arg) => {
        if let Some(keyed) = &arg.pattern {
          self.expression(&keyed.value)?;
        }
        if let Some(keyed) = &arg.value {
          self.expression(&keyed.value)?;
        }
        if let Some(keyed) = &arg.flag {
          return gate(keyed.key, "`flag` arguments require `set lists`");
        }
        if let Some(keyed) = &arg.multiple {
          return gate(keyed.key, "`[arg(multiple)]` requires `set lists`");
        }
        if let Some(keyed) = &arg.min {
          return gate(keyed.key, "`[arg(min)]` requires `set lists`");
        }
        if let Some(keyed) = &arg.max {
          return gate(keyed.key, "`[arg(max)]` requires `set lists`");
        }
        if let Some(keyed) = &arg.help {
          self.expression(&keyed.value)?;
        }
        Ok(())
      }
      Attribute::Confirm(Some(expression))
      | Attribute::Doc(Some(expression))
      | Attribute::Timestamp(Some(expression))
      | Attribute::WorkingDirectory(expression) => self.expression(expression),
      Attribute::Env(name, value) => {
        self.expression(name)?;
        self.expression(value)
      }
      Attribute::Cache(cache) => [&cache.extra, &cache.inputs, &cache.outputs]
        .into_iter()
        .flatten()
        .try_for_each(|keyed| self.expression(&keyed.value)),
      _ => Ok(()),
    }
  }

  /// An `if`/`assert` condition: one comparison. Anything else is checked
  /// itself first, then refused.
  fn condition(&self, condition: &Expression<'static>) -> CompileResult<()> {
    match condition {
      Expression::Comparison { lhs, rhs, .. } => {
        self.expression(lhs)?;
        self.expression(rhs)
      }
      other => {
        self.expression(other)?;
        gate(
          other.first_token(),
          "`if` and `assert` conditions other than comparisons require `set lists`",
        )
      }
    }
  }

  fn expression(&self, expression: &Expression<'static>) -> CompileResult<()> {
    use Expression::*;
    match expression {
      List { bracket, .. } => gate(*bracket, "list literals require `set lists`"),
      ListConcatenation { lhs, operator, .. } => {
        self.expression(lhs)?;
        gate(*operator, "list concatenation operator `++` requires `set lists`")
      }
      And { lhs, operator, .. } | Or { lhs, operator, .. } => {
        self.expression(lhs)?;
        gate(*operator, "logical operators require `set lists`")
      }
      Not { operator, .. } => gate(*operator, "negation operator requires `set lists`"),
      Comparison { lhs, token, .. } => {
        self.expression(lhs)?;
        gate(*token, "comparison operators require `set lists`")
      }
      Conditional { keyword, condition, then, otherwise } => {
        let Some(otherwise) = otherwise else {
          return gate(*keyword, "`if` without `else` requires `set lists`");
        };
        self.condition(condition)?;
        self.expression(then)?;
        self.expression(otherwise)
      }
      Assert { condition, message, .. } => {
        self.condition(condition)?;
        message.as_deref().map_or(Ok(()), |message| self.expression(message))
      }
      Call { name, arguments } => {
        let function = name.lexeme();
        if !self.functions.contains_key(function)
          && builtins::requires_lists(&builtins::canonical_name(function))
        {
          return Err(error(*name, AnalysisErrorKind::FunctionRequiresLists { function }));
        }
        arguments.iter().try_for_each(|argument| self.expression(argument))
      }
      Concatenation { lhs, rhs, .. } => {
        self.expression(lhs)?;
        self.expression(rhs)
      }
      Join { lhs, rhs, .. } => {
        if let Some(lhs) = lhs {
          self.expression(lhs)?;
        }
        self.expression(rhs)
      }
      FormatString { parts, .. } => {
        parts.iter().try_for_each(|(expression, _)| self.expression(expression))
      }
      Group { contents, .. } => self.expression(contents),
      Backtick { .. } | StringLiteral(_) | Variable { .. } => Ok(()),
    }
  }
}
