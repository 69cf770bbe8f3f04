//! The one canonical rendering of expressions, shared by
//! `--dump`, `--fmt`, `--show`, `--list`, `--usage` and `assert` messages.

use std::fmt::{self, Display, Formatter};

use crate::syntax::ast::{Expression, FormatPiece, StringLiteral};
use crate::syntax::token::Token;

/// A string literal exactly as written, with its `x` prefix when shell-expanded.
pub(crate) fn literal_text(literal: &StringLiteral) -> String {
  let mut text = String::new();
  push_literal(&mut text, literal);
  text
}

/// Appends a string literal exactly as written (see `literal_text`).
pub(crate) fn push_literal(out: &mut String, literal: &StringLiteral) {
  push_prefixed(out, literal.expand, 'x', literal.token);
}

/// `prefix` + the token's lexeme, unless the lexeme already carries it
/// (the lexer keeps prefixes as separate identifier tokens).
fn push_prefixed(out: &mut String, enabled: bool, prefix: char, token: Token) {
  let lexeme = token.lexeme();
  if enabled && !lexeme.starts_with(prefix) {
    out.push(prefix);
  }
  out.push_str(lexeme);
}

/// Appends the canonical text of `expression`. Everything printed renders
/// through here, straight into the caller's buffer; `Display` wraps it.
/// Leaves, most of any tree, are written inline; the rest by `push_compound`.
#[inline]
pub(crate) fn push_expression(out: &mut String, expression: &Expression) {
  match expression {
    Expression::Variable { name, .. } => out.push_str(name.lexeme()),
    Expression::StringLiteral(literal) => push_literal(out, literal),
    compound => push_compound(out, compound),
  }
}

fn push_compound(out: &mut String, expression: &Expression) {
  use Expression::*;
  match expression {
    And { lhs, rhs, .. } => push_binary(out, lhs, " && ", rhs),
    Assert { condition, message, .. } => {
      out.push_str("assert(");
      push_expression(out, condition);
      if let Some(message) = message {
        out.push_str(", ");
        push_expression(out, message);
      }
      out.push(')');
    }
    Backtick { token, .. } => out.push_str(token.lexeme()),
    Call { name, arguments, .. } => {
      out.push_str(name.lexeme());
      out.push('(');
      push_separated(out, arguments);
      out.push(')');
    }
    Comparison { lhs, rhs, operator, .. } => {
      push_expression(out, lhs);
      out.push(' ');
      out.push_str(operator.symbol());
      out.push(' ');
      push_expression(out, rhs);
    }
    Concatenation { lhs, rhs, .. } => push_binary(out, lhs, " + ", rhs),
    Conditional { condition, then, otherwise, .. } => {
      push_conditional(out, condition, then, otherwise.as_deref());
    }
    FormatString { start, parts, .. } => push_format_string(out, start, parts),
    Group { contents, .. } => {
      out.push('(');
      push_expression(out, contents);
      out.push(')');
    }
    Join { lhs: Some(lhs), rhs, .. } => push_binary(out, lhs, " / ", rhs),
    Join { lhs: None, rhs, .. } => {
      out.push_str("/ ");
      push_expression(out, rhs);
    }
    List { elements, .. } => {
      out.push('[');
      push_separated(out, elements);
      out.push(']');
    }
    ListConcatenation { lhs, rhs, .. } => push_binary(out, lhs, " ++ ", rhs),
    Not { operand, .. } => {
      out.push('!');
      push_expression(out, operand);
    }
    Or { lhs, rhs, .. } => push_binary(out, lhs, " || ", rhs),
    StringLiteral(literal) => push_literal(out, literal),
    Variable { name, .. } => out.push_str(name.lexeme()),
  }
}

fn push_binary(out: &mut String, lhs: &Expression, operator: &str, rhs: &Expression) {
  push_expression(out, lhs);
  out.push_str(operator);
  push_expression(out, rhs);
}

fn push_separated(out: &mut String, items: &[Expression]) {
  for (i, item) in items.iter().enumerate() {
    if i > 0 {
      out.push_str(", ");
    }
    push_expression(out, item);
  }
}

fn push_format_string(out: &mut String, start: &FormatPiece, parts: &[(Expression, FormatPiece)]) {
  push_prefixed(out, true, 'f', start.token);
  for (expression, piece) in parts {
    out.push(' ');
    push_expression(out, expression);
    out.push(' ');
    out.push_str(piece.token.lexeme());
  }
}

fn push_conditional(
  out: &mut String,
  condition: &Expression,
  then: &Expression,
  otherwise: Option<&Expression>,
) {
  out.push_str("if ");
  push_expression(out, condition);
  out.push_str(" { ");
  push_expression(out, then);
  out.push_str(" }");
  match otherwise {
    None => {}
    Some(nested @ Expression::Conditional { .. }) => {
      out.push_str(" else ");
      push_expression(out, nested);
    }
    Some(otherwise) => {
      out.push_str(" else { ");
      push_expression(out, otherwise);
      out.push_str(" }");
    }
  }
}

impl Display for Expression<'_> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    let mut text = String::new();
    push_expression(&mut text, self);
    f.write_str(&text)
  }
}

#[cfg(test)]
pub(crate) mod tests {
  use super::*;
  use crate::syntax::ast::{ComparisonOperator, Slot, StringKind};
  use crate::syntax::sources::Source;
  use crate::syntax::token::TokenKind;

  /// A token whose lexeme is `text` (its own source).
  pub(crate) fn token(kind: TokenKind, text: &'static str) -> Token<'static> {
    // Fixtures live for the whole test process.
    let source: &'static Source = Box::leak(Box::new(Source::new(text, "justfile")));
    Token::new(kind, source, 0, text.len(), 0)
  }

  pub(crate) fn var(name: &'static str) -> Expression<'static> {
    Expression::Variable { name: token(TokenKind::Identifier, name), slot: Slot::NONE }
  }

  pub(crate) fn string(text: &'static str, expand: bool) -> Expression<'static> {
    let kind = if text.starts_with('"') { StringKind::CookedDouble } else { StringKind::RawSingle };
    Expression::StringLiteral(StringLiteral {
      token: token(TokenKind::StringToken, text),
      kind,
      expand,
      cooked: text.trim_matches(|c| c == '"' || c == '\'').to_string().leak(),
    })
  }

  fn boxed(e: Expression<'static>) -> &'static Expression<'static> {
    Box::leak(Box::new(e))
  }

  fn concat(lhs: Expression<'static>, rhs: Expression<'static>) -> Expression<'static> {
    Expression::Concatenation {
      lhs: boxed(lhs),
      rhs: boxed(rhs),
      operator: token(TokenKind::Plus, "+"),
    }
  }

  fn group(e: Expression<'static>) -> Expression<'static> {
    Expression::Group { open: token(TokenKind::ParenL, "("), contents: boxed(e) }
  }

  fn call(name: &'static str, arguments: Vec<Expression<'static>>) -> Expression<'static> {
    Expression::Call {
      name: Box::leak(Box::new(token(TokenKind::Identifier, name))),
      arguments: arguments.leak(),
      slot: Slot::NONE,
    }
  }

  fn equal(lhs: Expression<'static>, rhs: Expression<'static>) -> Expression<'static> {
    Expression::Comparison {
      lhs: boxed(lhs),
      rhs: boxed(rhs),
      operator: ComparisonOperator::Equal,
      token: Box::leak(Box::new(token(TokenKind::EqualsEquals, "=="))),
    }
  }

  fn conditional(
    c: Expression<'static>,
    t: Expression<'static>,
    e: Option<Expression<'static>>,
  ) -> Expression<'static> {
    Expression::Conditional {
      keyword: Box::leak(Box::new(token(TokenKind::Identifier, "if"))),
      condition: boxed(c),
      then: boxed(t),
      otherwise: e.map(boxed),
    }
  }

  fn piece(text: &'static str, kind: TokenKind) -> FormatPiece<'static> {
    FormatPiece { token: token(kind, text), cooked: "" }
  }

  #[test]
  fn renders_expressions() {
    let slash = || token(TokenKind::Slash, "/");
    let cases: Vec<(Expression<'static>, &str)> = vec![
      (string("'raw\\n'", false), "'raw\\n'"),
      (string("'~/bin'", true), "x'~/bin'"),
      (string("\"\"\"a\n  b\"\"\"", false), "\"\"\"a\n  b\"\"\""),
      (
        Expression::Backtick { token: token(TokenKind::Backtick, "`echo   hi`"), command: "" },
        "`echo   hi`",
      ),
      (var("x"), "x"),
      (call("os", vec![]), "os()"),
      (call("join", vec![string("\"a\"", false), string("\"b\"", false)]), "join(\"a\", \"b\")"),
      (
        Expression::Join {
          lhs: Some(boxed(group(concat(string("\"x\"", false), string("\"y\"", false))))),
          rhs: boxed(string("\"z\"", false)),
          operator: slash(),
        },
        "(\"x\" + \"y\") / \"z\"",
      ),
      (Expression::Join { lhs: None, rhs: boxed(var("a")), operator: slash() }, "/ a"),
      (group(group(group(string("\"x\"", false)))), "(((\"x\")))"),
      (
        Expression::Not {
          operator: token(TokenKind::Bang, "!"),
          operand: boxed(Expression::Not {
            operator: token(TokenKind::Bang, "!"),
            operand: boxed(string("\"a\"", false)),
          }),
        },
        "!!\"a\"",
      ),
      (Expression::List { bracket: token(TokenKind::BracketL, "["), elements: &[] }, "[]"),
      (
        Expression::List {
          bracket: token(TokenKind::BracketL, "["),
          elements: vec![var("a"), var("b")].leak(),
        },
        "[a, b]",
      ),
      (
        Expression::Assert {
          keyword: token(TokenKind::Identifier, "assert"),
          condition: boxed(var("c")),
          message: Some(boxed(var("m"))),
        },
        "assert(c, m)",
      ),
      (
        conditional(
          equal(call("os", vec![]), string("\"linux\"", false)),
          string("\"l\"", false),
          Some(conditional(var("c"), string("\"m\"", false), Some(string("\"w\"", false)))),
        ),
        "if os() == \"linux\" { \"l\" } else if c { \"m\" } else { \"w\" }",
      ),
      (
        conditional(var("c"), var("t"), Some(group(conditional(var("d"), var("x"), None)))),
        "if c { t } else { (if d { x }) }",
      ),
      (
        Expression::FormatString {
          start: Box::leak(Box::new(piece("'v{{", TokenKind::FormatStringStart))),
          kind: StringKind::RawSingle,
          parts: vec![
            (var("s1"), piece("}}-{{", TokenKind::FormatStringContinue)),
            (concat(var("s2"), var("s3")), piece("}}'", TokenKind::FormatStringEnd)),
          ]
          .leak(),
        },
        "f'v{{ s1 }}-{{ s2 + s3 }}'",
      ),
      (
        Expression::FormatString {
          start: Box::leak(Box::new(piece("''", TokenKind::StringToken))),
          kind: StringKind::RawSingle,
          parts: &[],
        },
        "f''",
      ),
    ];
    for (expression, expected) in cases {
      assert_eq!(expression.to_string(), expected);
    }
  }
}
