//! The one canonical rendering of expressions, shared by
//! `--dump`, `--fmt`, `--show`, `--list`, `--usage` and `assert` messages.

use std::fmt::{self, Display, Formatter};

use crate::syntax::ast::{Expression, FormatPiece, StringLiteral};
use crate::syntax::token::Token;

/// A string literal exactly as written, with its `x` prefix when shell-expanded.
pub fn literal_text(literal: &StringLiteral) -> String {
  prefixed(literal.expand, 'x', literal.token)
}

/// `prefix` + the token's lexeme, unless the lexeme already carries it
/// (the lexer keeps prefixes as separate identifier tokens).
fn prefixed(enabled: bool, prefix: char, token: Token) -> String {
  let lexeme = token.lexeme();
  if enabled && !lexeme.starts_with(prefix) {
    format!("{prefix}{lexeme}")
  } else {
    lexeme.to_string()
  }
}

fn write_separated(f: &mut Formatter, items: &[Expression]) -> fmt::Result {
  for (i, item) in items.iter().enumerate() {
    if i > 0 {
      f.write_str(", ")?;
    }
    write!(f, "{item}")?;
  }
  Ok(())
}

fn write_format_string(
  f: &mut Formatter,
  start: &FormatPiece,
  parts: &[(Expression, FormatPiece)],
) -> fmt::Result {
  f.write_str(&prefixed(true, 'f', start.token))?;
  for (expression, piece) in parts {
    write!(f, " {expression} {}", piece.token.lexeme())?;
  }
  Ok(())
}

fn write_conditional(
  f: &mut Formatter,
  condition: &Expression,
  then: &Expression,
  otherwise: Option<&Expression>,
) -> fmt::Result {
  write!(f, "if {condition} {{ {then} }}")?;
  match otherwise {
    None => Ok(()),
    Some(nested @ Expression::Conditional { .. }) => write!(f, " else {nested}"),
    Some(otherwise) => write!(f, " else {{ {otherwise} }}"),
  }
}

impl Display for Expression<'_> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    use Expression::*;
    match self {
      And { lhs, rhs, .. } => write!(f, "{lhs} && {rhs}"),
      Assert { condition, message: None, .. } => write!(f, "assert({condition})"),
      Assert { condition, message: Some(message), .. } => {
        write!(f, "assert({condition}, {message})")
      }
      Backtick { token, .. } => f.write_str(token.lexeme()),
      Call { name, arguments } => {
        write!(f, "{}(", name.lexeme())?;
        write_separated(f, arguments)?;
        f.write_str(")")
      }
      Comparison { lhs, rhs, operator, .. } => write!(f, "{lhs} {} {rhs}", operator.symbol()),
      Concatenation { lhs, rhs, .. } => write!(f, "{lhs} + {rhs}"),
      Conditional { condition, then, otherwise, .. } => {
        write_conditional(f, condition, then, otherwise.as_deref())
      }
      FormatString { start, parts, .. } => write_format_string(f, start, parts),
      Group { contents, .. } => write!(f, "({contents})"),
      Join { lhs: Some(lhs), rhs, .. } => write!(f, "{lhs} / {rhs}"),
      Join { lhs: None, rhs, .. } => write!(f, "/ {rhs}"),
      List { elements, .. } => {
        f.write_str("[")?;
        write_separated(f, elements)?;
        f.write_str("]")
      }
      ListConcatenation { lhs, rhs, .. } => write!(f, "{lhs} ++ {rhs}"),
      Not { operand, .. } => write!(f, "!{operand}"),
      Or { lhs, rhs, .. } => write!(f, "{lhs} || {rhs}"),
      StringLiteral(literal) => f.write_str(&literal_text(literal)),
      Variable { name } => f.write_str(name.lexeme()),
    }
  }
}

#[cfg(test)]
pub(crate) mod tests {
  use super::*;
  use crate::syntax::ast::{ComparisonOperator, StringKind};
  use crate::syntax::sources::Source;
  use crate::syntax::token::TokenKind;

  /// A token whose lexeme is `text` (its own source).
  pub fn token(kind: TokenKind, text: &'static str) -> Token<'static> {
    // Fixtures live for the whole test process.
    let source: &'static Source = Box::leak(Box::new(Source::new(text, "justfile")));
    Token::new(kind, source, 0, text.len(), 0, 0)
  }

  pub fn var(name: &'static str) -> Expression<'static> {
    Expression::Variable { name: token(TokenKind::Identifier, name) }
  }

  pub fn string(text: &'static str, expand: bool) -> Expression<'static> {
    let kind = if text.starts_with('"') { StringKind::CookedDouble } else { StringKind::RawSingle };
    Expression::StringLiteral(StringLiteral {
      token: token(TokenKind::StringToken, text),
      kind,
      expand,
      cooked: text.trim_matches(|c| c == '"' || c == '\'').to_string().into(),
    })
  }

  fn boxed(e: Expression<'static>) -> Box<Expression<'static>> {
    Box::new(e)
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
    Expression::Call { name: token(TokenKind::Identifier, name), arguments }
  }

  fn equal(lhs: Expression<'static>, rhs: Expression<'static>) -> Expression<'static> {
    Expression::Comparison {
      lhs: boxed(lhs),
      rhs: boxed(rhs),
      operator: ComparisonOperator::Equal,
      token: token(TokenKind::EqualsEquals, "=="),
    }
  }

  fn conditional(
    c: Expression<'static>,
    t: Expression<'static>,
    e: Option<Expression<'static>>,
  ) -> Expression<'static> {
    Expression::Conditional {
      keyword: token(TokenKind::Identifier, "if"),
      condition: boxed(c),
      then: boxed(t),
      otherwise: e.map(boxed),
    }
  }

  fn piece(text: &'static str, kind: TokenKind) -> FormatPiece<'static> {
    FormatPiece { token: token(kind, text), cooked: String::new() }
  }

  #[test]
  fn renders_expressions() {
    let slash = || token(TokenKind::Slash, "/");
    let cases: Vec<(Expression<'static>, &str)> = vec![
      (string("'raw\\n'", false), "'raw\\n'"),
      (string("'~/bin'", true), "x'~/bin'"),
      (string("\"\"\"a\n  b\"\"\"", false), "\"\"\"a\n  b\"\"\""),
      (
        Expression::Backtick {
          token: token(TokenKind::Backtick, "`echo   hi`"),
          command: String::new(),
        },
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
      (Expression::List { bracket: token(TokenKind::BracketL, "["), elements: vec![] }, "[]"),
      (
        Expression::List {
          bracket: token(TokenKind::BracketL, "["),
          elements: vec![var("a"), var("b")],
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
          start: Box::new(piece("'v{{", TokenKind::FormatStringStart)),
          kind: StringKind::RawSingle,
          parts: vec![
            (var("s1"), piece("}}-{{", TokenKind::FormatStringContinue)),
            (concat(var("s2"), var("s3")), piece("}}'", TokenKind::FormatStringEnd)),
          ],
        },
        "f'v{{ s1 }}-{{ s2 + s3 }}'",
      ),
      (
        Expression::FormatString {
          start: Box::new(piece("''", TokenKind::StringToken)),
          kind: StringKind::RawSingle,
          parts: vec![],
        },
        "f''",
      ),
    ];
    for (expression, expected) in cases {
      assert_eq!(expression.to_string(), expected);
    }
  }
}
