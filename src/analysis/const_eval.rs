//! Compile-time evaluation of const contexts: setting values, `[doc]`, `arg`
//! `help`/`pattern`.

#![allow(clippy::result_large_err)]

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use crate::builtins::operators;

use super::builtins as constants;
use super::compile_error::{CompileError, CompileErrorKind};
use super::error::AnalysisErrorKind;
use super::model::Assignment;
use crate::builtins::value::Value;
use crate::syntax::ast::{ComparisonOperator, Expression, StringKind};
use crate::syntax::token::Token;

/// Why const evaluation failed: something non-const was reached (which a
/// variable reference turns into "cannot access non-const variable"), or an
/// ordinary error.
pub(crate) enum Failure<'src> {
  NonConst(CompileError<'src>),
  Error(CompileError<'src>),
}

impl<'src> Failure<'src> {
  pub fn into_error(self) -> CompileError<'src> {
    match self {
      Failure::NonConst(error) | Failure::Error(error) => error,
    }
  }
}

type Result<'src, T> = std::result::Result<T, Failure<'src>>;

pub(crate) struct ConstEvaluator<'a, 'src> {
  pub assignments: &'a BTreeMap<&'src str, Assignment<'src>>,
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

fn failure<'src, T>(token: Token<'src>, message: String) -> Result<'src, T> {
  Err(Failure::Error(error(token, AnalysisErrorKind::ConstEvaluation { message })))
}

impl<'a, 'src> ConstEvaluator<'a, 'src> {
  pub fn new(
    assignments: &'a BTreeMap<&'src str, Assignment<'src>>,
    overrides: &'a BTreeMap<String, String>,
    lists: bool,
  ) -> Self {
    ConstEvaluator { assignments, overrides, lists, values: RefCell::default() }
  }

  /// Evaluate a const expression, reporting the first error.
  pub fn evaluate_const(
    &self,
    expression: &Expression<'src>,
  ) -> std::result::Result<Value, CompileError<'src>> {
    self.evaluate(expression).map_err(Failure::into_error)
  }

  pub fn evaluate(&self, expression: &Expression<'src>) -> Result<'src, Value> {
    use Expression::*;
    match expression {
      StringLiteral(literal) => Ok(Value::string(literal.cooked.clone())),
      FormatString { start, kind, parts } => self.format_string(&start.cooked, *kind, parts),
      Backtick { token, .. } => {
        Err(Failure::NonConst(error(*token, AnalysisErrorKind::ConstBacktick)))
      }
      Call { name, .. } => {
        Err(Failure::NonConst(error(*name, AnalysisErrorKind::ConstFunctionCall)))
      }
      Variable { name } => self.variable(*name),
      Group { contents, .. } => self.evaluate(contents),
      Concatenation { lhs, rhs, operator } => {
        let (lhs, rhs) = (self.evaluate(lhs)?, self.evaluate(rhs)?);
        broadcast(&lhs, &rhs, *operator, |a, b| format!("{a}{b}"))
      }
      Join { lhs, rhs, operator } => {
        let lhs = match lhs {
          Some(lhs) => self.evaluate(lhs)?,
          None => Value::string(""),
        };
        let rhs = self.evaluate(rhs)?;
        broadcast(&lhs, &rhs, *operator, |a, b| format!("{a}/{b}"))
      }
      ListConcatenation { lhs, rhs, .. } => {
        let mut elements = self.evaluate(lhs)?.0;
        elements.extend(self.evaluate(rhs)?.0);
        Ok(Value(elements))
      }
      List { elements, .. } => {
        let mut flattened = Vec::new();
        for element in elements {
          flattened.extend(self.evaluate(element)?.0);
        }
        Ok(Value(flattened))
      }
      Conditional { condition, then, otherwise, .. } => {
        if self.condition(condition)? {
          self.evaluate(then)
        } else {
          match otherwise {
            Some(otherwise) => self.evaluate(otherwise),
            None => Ok(Value::empty_list()),
          }
        }
      }
      Comparison { .. } => Ok(Value::boolean(self.condition(expression)?, self.lists)),
      Assert { keyword, condition, message } => {
        self.assert(*keyword, condition, message.as_deref())
      }
      And { lhs, rhs, .. } => {
        let lhs = self.evaluate(lhs)?;
        if lhs.is_truthy() {
          self.evaluate(rhs)
        } else {
          Ok(Value::empty_list())
        }
      }
      Or { lhs, rhs, .. } => {
        let lhs = self.evaluate(lhs)?;
        if lhs.is_truthy() {
          Ok(lhs)
        } else {
          self.evaluate(rhs)
        }
      }
      Not { operand, .. } => Ok(Value::boolean(!self.evaluate(operand)?.is_truthy(), true)),
    }
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
      return match self.evaluate(&assignment.value) {
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

  fn format_string(
    &self,
    start: &str,
    kind: StringKind,
    parts: &[(Expression<'src>, crate::syntax::ast::FormatPiece<'src>)],
  ) -> Result<'src, Value> {
    let mut text = start.to_string();
    for (expression, piece) in parts {
      text.push_str(&self.evaluate(expression)?.joined());
      text.push_str(&piece.cooked);
    }
    if kind.is_indented() {
      text = crate::syntax::strings::unindent(&text);
    }
    Ok(Value::string(text))
  }

  /// An `if`/`assert` condition: a comparison, or (with lists) any value's truthiness.
  fn condition(&self, expression: &Expression<'src>) -> Result<'src, bool> {
    let Expression::Comparison { lhs, rhs, operator, token } = expression else {
      return Ok(self.evaluate(expression)?.is_truthy());
    };
    let (lhs, rhs) = (self.evaluate(lhs)?, self.evaluate(rhs)?);
    match operator {
      ComparisonOperator::Equal => Ok(lhs == rhs),
      ComparisonOperator::NotEqual => Ok(lhs != rhs),
      ComparisonOperator::RegexMatch => regex_match(&lhs, &rhs, *token),
      ComparisonOperator::RegexMismatch => regex_match(&lhs, &rhs, *token).map(|matched| !matched),
    }
  }

  fn assert(
    &self,
    keyword: Token<'src>,
    condition: &Expression<'src>,
    message: Option<&Expression<'src>>,
  ) -> Result<'src, Value> {
    if self.condition(condition)? {
      return Ok(if self.lists { self.evaluate(condition)? } else { Value::string("") });
    }
    let message = match message {
      Some(message) => self.evaluate(message)?.joined(),
      None => format!("`{condition}`"),
    };
    Err(Failure::Error(error(keyword, AnalysisErrorKind::AssertFailed { message })))
  }
}

fn regex_match<'src>(lhs: &Value, rhs: &Value, token: Token<'src>) -> Result<'src, bool> {
  operators::regex_matches(lhs, rhs).or_else(|message| failure(token, message))
}

/// `+` and `/` on lists: one element against many, or pairwise.
fn broadcast<'src>(
  lhs: &Value,
  rhs: &Value,
  operator: Token<'src>,
  combine: impl Fn(&str, &str) -> String,
) -> Result<'src, Value> {
  operators::broadcast(lhs, rhs, operator.lexeme(), combine)
    .or_else(|message| failure(operator, message))
}
