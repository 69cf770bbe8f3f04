//! Compile-time evaluation of const contexts: setting values, `[doc]`, `arg`
//! `help`/`pattern`.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use crate::builtins::expression::{self, ExpressionContext};

use super::builtins as constants;
use super::compile_error::{CompileError, CompileErrorKind};
use super::error::AnalysisErrorKind;
use super::model::{Assignment, Table};
use crate::builtins::value::Value;
use crate::syntax::ast::{Expression, Slot};
use crate::syntax::token::Token;

/// Why const evaluation failed: something non-const was reached (which a
/// variable reference turns into "cannot access non-const variable"), or an
/// ordinary error.
pub(crate) enum Failure<'src> {
  NonConst(CompileError<'src>),
  Error(CompileError<'src>),
}

impl<'src> Failure<'src> {
  pub(crate) fn into_error(self) -> CompileError<'src> {
    match self {
      Failure::NonConst(error) | Failure::Error(error) => error,
    }
  }
}

type Result<'src, T> = std::result::Result<T, Failure<'src>>;

pub(crate) struct ConstEvaluator<'a, 'src> {
  pub assignments: &'a Table<'src, Assignment<'src>>,
  pub overrides: &'a BTreeMap<String, String>,
  pub lists: bool,
  /// Values of the assignments evaluated so far: each is evaluated at most
  /// once, however often it is referenced. Failures are not kept: the first
  /// one ends the analysis.
  values: RefCell<HashMap<&'src str, Value>>,
}

fn error<'src>(token: Token<'src>, kind: AnalysisErrorKind<'src>) -> CompileError<'src> {
  CompileError::new(token, CompileErrorKind::Analysis(kind))
}

impl<'a, 'src> ConstEvaluator<'a, 'src> {
  pub(crate) fn new(
    assignments: &'a Table<'src, Assignment<'src>>,
    overrides: &'a BTreeMap<String, String>,
    lists: bool,
  ) -> Self {
    ConstEvaluator { assignments, overrides, lists, values: RefCell::default() }
  }

  /// Evaluate a const expression, reporting the first error.
  pub(crate) fn evaluate_const(
    &self,
    expression: &Expression<'src>,
  ) -> std::result::Result<Value, CompileError<'src>> {
    self.evaluate(expression).map_err(Failure::into_error)
  }

  pub(crate) fn evaluate(&self, expression: &Expression<'src>) -> Result<'src, Value> {
    expression::evaluate(self, expression)
  }

  fn variable(&self, name: Token<'src>) -> Result<'src, Value> {
    let variable = name.lexeme();
    if let Some(value) = self.overrides.get(variable) {
      return Ok(Value::string(value.clone()));
    }
    if let Some(value) = self.values.borrow().get(variable) {
      return Ok(value.clone());
    }
    if let Some(assignment) = self.assignments.get(variable) {
      return match self.evaluate(assignment.value) {
        Ok(value) => {
          self.values.borrow_mut().insert(variable, value.clone());
          Ok(value)
        }
        Err(Failure::NonConst(_)) => {
          Err(Failure::NonConst(error(name, AnalysisErrorKind::ConstVariable { variable })))
        }
        Err(other) => Err(other),
      };
    }
    match constants::constant(variable) {
      Some(value) => Ok(Value::string(value)),
      None => Err(Failure::Error(error(name, AnalysisErrorKind::UndefinedVariable { variable }))),
    }
  }
}

impl<'src> ExpressionContext<'src> for ConstEvaluator<'_, 'src> {
  // Const evaluation is part of analysis, which resolves names: it looks
  // them up by name and ignores the slots it has not filled yet.
  type Error = Failure<'src>;

  fn lists(&self) -> bool {
    self.lists
  }

  fn variable(&self, name: Token<'src>, _slot: Slot) -> Result<'src, Value> {
    ConstEvaluator::variable(self, name)
  }

  fn backtick(&self, token: Token<'src>, _command: &str) -> Result<'src, Value> {
    Err(Failure::NonConst(error(token, AnalysisErrorKind::ConstBacktick)))
  }

  fn call(
    &self,
    name: Token<'src>,
    _slot: Slot,
    _arguments: &[Expression<'src>],
  ) -> Result<'src, Value> {
    Err(Failure::NonConst(error(name, AnalysisErrorKind::ConstFunctionCall)))
  }

  fn operator_error(&self, operator: Token<'src>, message: String) -> Failure<'src> {
    Failure::Error(error(operator, AnalysisErrorKind::ConstEvaluation { message }))
  }

  fn assert_failed(&self, keyword: Token<'src>, message: String) -> Failure<'src> {
    Failure::Error(error(keyword, AnalysisErrorKind::AssertFailed { message }))
  }
}

/// The value of `expression` in `module` when it is a constant: no
/// backtick, no function call, and no variable among `unknown` (the
/// parameters of the recipe it appears in, which have no value yet). None
/// otherwise. Overrides from the command line are not applied.
pub(crate) fn constant_value<'src>(
  module: &super::model::Module<'src>,
  unknown: &[&str],
  expression: &Expression<'src>,
) -> Option<Value> {
  let mut names_unknown = false;
  let _ = super::resolver::walk(expression, &mut |node| {
    if let Expression::Variable { name, .. } = node {
      names_unknown |= unknown.contains(&name.lexeme());
    }
    Ok::<(), ()>(())
  });
  if names_unknown {
    return None;
  }
  let overrides = BTreeMap::new();
  ConstEvaluator::new(&module.assignments, &overrides, module.settings.lists)
    .evaluate(expression)
    .ok()
}
