//! Compile-time evaluation of const contexts: setting values, `[doc]`, `arg`
//! `help`/`pattern` (language.md §5.4).

#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;

use regex::Regex;

use super::builtins as constants;
use super::error::AnalysisErrorKind;
use super::model::Assignment;
use crate::evaluation::value::Value;
use crate::syntax::ast::{ComparisonOperator, Expression, StringKind};
use crate::syntax::compile_error::{CompileError, CompileErrorKind};
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
}

fn error<'src>(token: Token<'src>, kind: AnalysisErrorKind<'src>) -> CompileError<'src> {
  CompileError::new(token, CompileErrorKind::Analysis(kind))
}

fn failure<'src, T>(token: Token<'src>, message: String) -> Result<'src, T> {
  Err(Failure::Error(error(token, AnalysisErrorKind::ConstEvaluation { message })))
}

impl<'src> ConstEvaluator<'_, 'src> {
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
    if let Some(assignment) = self.assignments.get(variable) {
      return match self.evaluate(&assignment.value) {
        Ok(value) => Ok(value),
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
      text = unindent(&text);
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
      None => format!("`{}`", render(condition)),
    };
    Err(Failure::Error(error(keyword, AnalysisErrorKind::AssertFailed { message })))
  }
}

fn regex_match<'src>(lhs: &Value, rhs: &Value, token: Token<'src>) -> Result<'src, bool> {
  for pattern in rhs.elements() {
    let regex = match Regex::new(pattern) {
      Ok(regex) => regex,
      Err(regex_error) => return failure(token, regex_error.to_string()),
    };
    if lhs.elements().iter().any(|element| regex.is_match(element)) {
      return Ok(true);
    }
  }
  Ok(false)
}

/// `+` and `/` on lists: one element against many, or pairwise.
fn broadcast<'src>(
  lhs: &Value,
  rhs: &Value,
  operator: Token<'src>,
  combine: impl Fn(&str, &str) -> String,
) -> Result<'src, Value> {
  let (a, b) = (lhs.elements(), rhs.elements());
  let symbol = operator.lexeme();
  let combined = match (a.len(), b.len()) {
    (0, 0) => Vec::new(),
    (0, _) | (_, 0) => {
      return failure(operator, format!("operator `{symbol}` cannot be applied to empty lists"))
    }
    (1, _) => b.iter().map(|y| combine(&a[0], y)).collect(),
    (_, 1) => a.iter().map(|x| combine(x, &b[0])).collect(),
    (n, m) if n == m => a.iter().zip(b).map(|(x, y)| combine(x, y)).collect(),
    _ => {
      return failure(
        operator,
        format!(
          "operator `{symbol}` cannot be applied to lists of different lengths: {} {symbol} {}",
          lhs.show(),
          rhs.show()
        ),
      )
    }
  };
  Ok(Value(combined))
}

/// Unindentation of triple-quoted text (language.md §3.3).
pub(crate) fn unindent(text: &str) -> String {
  let lines: Vec<&str> = text.split_inclusive('\n').collect();
  let is_blank = |line: &str| line.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'));
  let leading =
    |line: &str| -> String { line.chars().take_while(|c| matches!(c, ' ' | '\t')).collect() };
  let common =
    lines.iter().filter(|line| !is_blank(line)).map(|line| leading(line)).reduce(|a, b| {
      a.chars().zip(b.chars()).take_while(|(x, y)| x == y).map(|(x, _)| x).collect()
    });
  let common = common.unwrap_or_default();
  let last = lines.len().saturating_sub(1);
  let mut out = String::new();
  for (index, line) in lines.iter().enumerate() {
    if is_blank(line) {
      if index != 0 && index != last {
        let terminator = if line.ends_with("\r\n") {
          "\r\n"
        } else if line.ends_with('\n') {
          "\n"
        } else {
          ""
        };
        out.push_str(terminator);
      }
    } else {
      out.push_str(line.strip_prefix(common.as_str()).unwrap_or(line));
    }
  }
  out
}

/// Canonical rendering of an expression (formatting.md §5), for `assert` messages.
pub(crate) fn render(expression: &Expression) -> String {
  use Expression::*;
  match expression {
    And { lhs, rhs, .. } => format!("{} && {}", render(lhs), render(rhs)),
    Or { lhs, rhs, .. } => format!("{} || {}", render(lhs), render(rhs)),
    Assert { condition, message, .. } => match message {
      Some(message) => format!("assert({}, {})", render(condition), render(message)),
      None => format!("assert({})", render(condition)),
    },
    Backtick { token, .. } => token.lexeme().to_string(),
    Call { name, arguments } => {
      let arguments: Vec<String> = arguments.iter().map(render).collect();
      format!("{}({})", name.lexeme(), arguments.join(", "))
    }
    Comparison { lhs, rhs, operator, .. } => {
      format!("{} {} {}", render(lhs), operator.symbol(), render(rhs))
    }
    Concatenation { lhs, rhs, .. } => format!("{} + {}", render(lhs), render(rhs)),
    ListConcatenation { lhs, rhs, .. } => format!("{} ++ {}", render(lhs), render(rhs)),
    Conditional { condition, then, otherwise, .. } => {
      let head = format!("if {} {{ {} }}", render(condition), render(then));
      match otherwise.as_deref() {
        None => head,
        Some(otherwise @ Conditional { .. }) => format!("{head} else {}", render(otherwise)),
        Some(otherwise) => format!("{head} else {{ {} }}", render(otherwise)),
      }
    }
    FormatString { start, parts, .. } => {
      let mut out = format!("f{}", start.token.lexeme());
      for (expression, piece) in parts {
        out.push_str(&format!(" {} {}", render(expression), piece.token.lexeme()));
      }
      out
    }
    Group { contents, .. } => format!("({})", render(contents)),
    Join { lhs: Some(lhs), rhs, .. } => format!("{} / {}", render(lhs), render(rhs)),
    Join { lhs: None, rhs, .. } => format!("/ {}", render(rhs)),
    List { elements, .. } => {
      let elements: Vec<String> = elements.iter().map(render).collect();
      format!("[{}]", elements.join(", "))
    }
    Not { operand, .. } => format!("!{}", render(operand)),
    StringLiteral(literal) => {
      let prefix = if literal.expand { "x" } else { "" };
      format!("{prefix}{}", literal.token.lexeme())
    }
    Variable { name } => name.lexeme().to_string(),
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn unindents() {
    let cases = [
      ("\n  a\n    b\n\n  c\n  ", "a\n  b\n\nc\n"),
      ("  foo  ", "foo  "),
      ("\n\tfoo\n  bar", "\tfoo\n  bar"),
      ("", ""),
    ];
    for (input, expected) in cases {
      assert_eq!(unindent(input), expected, "{input:?}");
    }
  }
}
