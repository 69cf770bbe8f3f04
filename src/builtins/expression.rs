//! The one expression walker: const evaluation (analysis) and run-time
//! evaluation (evaluation) are contexts over it, so an expression means the
//! same in both. A context decides what the walker cannot: what a variable
//! is, whether backticks and function calls may run, and how errors look.

use super::operators;
use super::value::Value;
use crate::syntax::ast::{ComparisonOperator, Expression, FormatPiece, Slot, StringKind};
use crate::syntax::strings::unindent;
use crate::syntax::token::Token;

/// What an expression is evaluated against.
pub(crate) trait ExpressionContext<'src> {
  type Error;

  /// Whether `set lists` is on where the expression is written.
  fn lists(&self) -> bool;

  /// A variable reference: `slot` is where analysis recorded its binding.
  fn variable(&self, name: Token<'src>, slot: Slot) -> Result<Value, Self::Error>;

  fn backtick(&self, token: Token<'src>, command: &str) -> Result<Value, Self::Error>;

  /// A call of a built-in or user function; the context evaluates the
  /// arguments (with `evaluate`) if it allows the call at all.
  fn call(
    &self,
    name: Token<'src>,
    slot: Slot,
    arguments: &[Expression<'src>],
  ) -> Result<Value, Self::Error>;

  /// An operator (`+`, `/`, `=~`) refused its operands.
  fn operator_error(&self, operator: Token<'src>, message: String) -> Self::Error;

  fn assert_failed(&self, keyword: Token<'src>, message: String) -> Self::Error;
}

pub(crate) fn evaluate<'src, C: ExpressionContext<'src> + ?Sized>(
  context: &C,
  expression: &Expression<'src>,
) -> Result<Value, C::Error> {
  use Expression::*;
  match expression {
    StringLiteral(literal) => Ok(Value::string(literal.cooked)),
    FormatString { start, kind, parts } => format_string(context, start.cooked, *kind, parts),
    Backtick { token, command } => context.backtick(*token, command),
    Call { name, arguments, slot } => context.call(**name, *slot, arguments),
    Variable { name, slot } => context.variable(*name, *slot),
    Group { contents, .. } => evaluate(context, contents),
    Concatenation { lhs, rhs, operator } => {
      let (lhs, rhs) = (evaluate(context, lhs)?, evaluate(context, rhs)?);
      broadcast(context, &lhs, &rhs, *operator, |a, b| format!("{a}{b}"))
    }
    Join { lhs, rhs, operator } => {
      let lhs = match lhs {
        Some(lhs) => evaluate(context, lhs)?,
        None => Value::string(""),
      };
      let rhs = evaluate(context, rhs)?;
      broadcast(context, &lhs, &rhs, *operator, |a, b| format!("{a}/{b}"))
    }
    ListConcatenation { lhs, rhs, .. } => {
      let mut elements = evaluate(context, lhs)?.0;
      elements.extend(evaluate(context, rhs)?.0);
      Ok(Value(elements))
    }
    List { elements, .. } => {
      let mut flattened = Vec::new();
      for element in *elements {
        flattened.extend(evaluate(context, element)?.0);
      }
      Ok(Value(flattened))
    }
    Conditional { condition: test, then, otherwise, .. } => {
      if condition(context, test)? {
        evaluate(context, then)
      } else {
        match otherwise {
          Some(otherwise) => evaluate(context, otherwise),
          None => Ok(Value::empty_list()),
        }
      }
    }
    // Comparisons and `!` as values pass analysis only under `set lists`,
    // so their false is the empty list.
    Comparison { .. } => Ok(Value::boolean(condition(context, expression)?, true)),
    Not { operand, .. } => Ok(Value::boolean(!evaluate(context, operand)?.is_truthy(), true)),
    And { lhs, rhs, .. } => {
      let lhs = evaluate(context, lhs)?;
      if lhs.is_truthy() {
        evaluate(context, rhs)
      } else {
        Ok(Value::empty_list())
      }
    }
    Or { lhs, rhs, .. } => {
      let lhs = evaluate(context, lhs)?;
      if lhs.is_truthy() {
        Ok(lhs)
      } else {
        evaluate(context, rhs)
      }
    }
    Assert { keyword, condition, message } => {
      assert(context, *keyword, condition, message.as_deref())
    }
  }
}

/// An `if`/`assert` condition: a comparison, or (with lists) any value's
/// truthiness.
pub(crate) fn condition<'src, C: ExpressionContext<'src> + ?Sized>(
  context: &C,
  expression: &Expression<'src>,
) -> Result<bool, C::Error> {
  let Expression::Comparison { lhs, rhs, operator, token } = expression else {
    return Ok(evaluate(context, expression)?.is_truthy());
  };
  let (lhs, rhs) = (evaluate(context, lhs)?, evaluate(context, rhs)?);
  match operator {
    ComparisonOperator::Equal => Ok(lhs == rhs),
    ComparisonOperator::NotEqual => Ok(lhs != rhs),
    ComparisonOperator::RegexMatch => regex_matches(context, &lhs, &rhs, **token),
    ComparisonOperator::RegexMismatch => Ok(!regex_matches(context, &lhs, &rhs, **token)?),
  }
}

/// `assert(condition, message)`: the condition's value with lists, the empty
/// string without.
fn assert<'src, C: ExpressionContext<'src> + ?Sized>(
  context: &C,
  keyword: Token<'src>,
  test: &Expression<'src>,
  message: Option<&Expression<'src>>,
) -> Result<Value, C::Error> {
  if context.lists() {
    let value = evaluate(context, test)?;
    if value.is_truthy() {
      return Ok(value);
    }
  } else if condition(context, test)? {
    return Ok(Value::string(""));
  }
  let message = match message {
    Some(message) => evaluate(context, message)?.joined(),
    None => format!("`{test}`"),
  };
  Err(context.assert_failed(keyword, message))
}

fn format_string<'src, C: ExpressionContext<'src> + ?Sized>(
  context: &C,
  start: &str,
  kind: StringKind,
  parts: &[(Expression<'src>, FormatPiece<'src>)],
) -> Result<Value, C::Error> {
  let mut text = start.to_string();
  for (expression, piece) in parts {
    text.push_str(&evaluate(context, expression)?.joined());
    text.push_str(piece.cooked);
  }
  if kind.is_indented() {
    text = unindent(&text);
  }
  Ok(Value::string(text))
}

fn regex_matches<'src, C: ExpressionContext<'src> + ?Sized>(
  context: &C,
  lhs: &Value,
  rhs: &Value,
  token: Token<'src>,
) -> Result<bool, C::Error> {
  operators::regex_matches(lhs, rhs).map_err(|message| context.operator_error(token, message))
}

fn broadcast<'src, C: ExpressionContext<'src> + ?Sized>(
  context: &C,
  lhs: &Value,
  rhs: &Value,
  operator: Token<'src>,
  combine: impl Fn(&str, &str) -> String,
) -> Result<Value, C::Error> {
  operators::broadcast(lhs, rhs, operator.lexeme(), combine)
    .map_err(|message| context.operator_error(operator, message))
}
