//! Expressions: operators by precedence, atoms, strings, backticks and
//! format strings.

use super::*;

impl<'src> Parser<'_, 'src> {
  // ---------------------------------------------------------------------
  // Expressions

  pub(super) fn expression(&mut self) -> ParseResult<'src, Expression<'src>> {
    if self.depth >= MAX_DEPTH {
      return Err(error(self.peek(), ParseErrorKind::RecursionDepthExceeded));
    }
    if self.next_is_lone_atom() {
      return self.lone_atom();
    }
    self.depth += 1;
    let result = self.disjunction();
    self.depth -= 1;
    result
  }

  /// Whether the next token is a whole expression: a string or variable
  /// that nothing after it continues (no operator, call or `x`/`f` prefix).
  pub(super) fn next_is_lone_atom(&mut self) -> bool {
    use TokenKind::*;
    let after = self.peek_nth(1).kind;
    if matches!(
      after,
      Slash
        | PlusPlus
        | Plus
        | BangEquals
        | EqualsTilde
        | BangTilde
        | EqualsEquals
        | AmpersandAmpersand
        | BarBar
        | ParenL
        | StringToken
        | FormatStringStart
    ) {
      return false;
    }
    let next = self.peek();
    match next.kind {
      StringToken => true,
      // The length test spares most lexeme lookups.
      Identifier => !(matches!(next.length, 2 | 6) && matches!(next.lexeme(), "if" | "assert")),
      _ => false,
    }
  }

  /// A lone atom, as the precedence levels would parse it, with the probes
  /// they would leave behind.
  pub(super) fn lone_atom(&mut self) -> ParseResult<'src, Expression<'src>> {
    use TokenKind::*;
    let token = self.advance();
    let atom = if token.kind == StringToken {
      Expression::StringLiteral(string_literal(&self.nodes, token, false)?)
    } else {
      self.expected.insert(ParenL);
      Expression::Variable { name: token, slot: self.nodes.slot() }
    };
    self.probe_all(&[
      Slash,
      PlusPlus,
      Plus,
      BangEquals,
      EqualsTilde,
      BangTilde,
      EqualsEquals,
      AmpersandAmpersand,
      BarBar,
    ]);
    Ok(atom)
  }

  pub(super) fn disjunction(&mut self) -> ParseResult<'src, Expression<'src>> {
    let lhs = self.conjunction()?;
    if let Some(operator) = self.accept(TokenKind::BarBar) {
      let rhs = self.expression()?;
      return Ok(Expression::Or {
        lhs: self.nodes.alloc(lhs),
        rhs: self.nodes.alloc(rhs),
        operator,
      });
    }
    Ok(lhs)
  }

  pub(super) fn conjunction(&mut self) -> ParseResult<'src, Expression<'src>> {
    let mut result = self.comparison()?;
    if !self.next_is(TokenKind::AmpersandAmpersand) {
      return Ok(result);
    }
    let mut pending = Vec::new();
    while let Some(operator) = self.accept(TokenKind::AmpersandAmpersand) {
      pending.push((result, operator));
      result = self.comparison()?;
    }
    while let Some((lhs, operator)) = pending.pop() {
      result =
        Expression::And { lhs: self.nodes.alloc(lhs), rhs: self.nodes.alloc(result), operator };
    }
    Ok(result)
  }

  pub(super) fn comparison(&mut self) -> ParseResult<'src, Expression<'src>> {
    let lhs = self.operand()?;
    let operator = match self.peek_kind() {
      TokenKind::BangEquals => ComparisonOperator::NotEqual,
      TokenKind::EqualsTilde => ComparisonOperator::RegexMatch,
      TokenKind::BangTilde => ComparisonOperator::RegexMismatch,
      TokenKind::EqualsEquals => ComparisonOperator::Equal,
      _ => {
        self.probe_all(&[
          TokenKind::BangEquals,
          TokenKind::EqualsTilde,
          TokenKind::BangTilde,
          TokenKind::EqualsEquals,
        ]);
        return Ok(lhs);
      }
    };
    let token = self.advance();
    let rhs = self.operand()?;
    Ok(Expression::Comparison {
      lhs: self.nodes.alloc(lhs),
      rhs: self.nodes.alloc(rhs),
      operator,
      token: self.nodes.alloc(token),
    })
  }

  /// Level 4: a conditional, `/ a`, or `v (+|/|++) a`, right-associative.
  /// Built iteratively so that long chains cannot exhaust the stack.
  pub(super) fn operand(&mut self) -> ParseResult<'src, Expression<'src>> {
    let mut pending: Vec<(Option<Expression<'src>>, Token<'src>)> = Vec::new();
    // `(None, '/')` is a prefix join; `(Some(v), op)` an infix operator.
    let mut result = loop {
      if self.next_is_word("if") {
        break self.conditional()?;
      }
      if let Some(slash) = self.accept(TokenKind::Slash) {
        pending.push((None, slash));
        continue;
      }
      let value = self.value()?;
      match self.peek_kind() {
        TokenKind::Slash | TokenKind::PlusPlus | TokenKind::Plus => {
          pending.push((Some(value), self.advance()));
        }
        _ => {
          self.probe_all(&[TokenKind::Slash, TokenKind::PlusPlus, TokenKind::Plus]);
          break value;
        }
      }
    };
    while let Some((lhs, operator)) = pending.pop() {
      let rhs = self.nodes.alloc(result);
      result = match (lhs, operator.kind) {
        (Some(lhs), TokenKind::PlusPlus) => {
          Expression::ListConcatenation { lhs: self.nodes.alloc(lhs), rhs, operator }
        }
        (Some(lhs), TokenKind::Plus) => {
          Expression::Concatenation { lhs: self.nodes.alloc(lhs), rhs, operator }
        }
        (lhs, _) => Expression::Join { lhs: lhs.map(|lhs| self.nodes.alloc(lhs)), rhs, operator },
      };
    }
    Ok(result)
  }

  pub(super) fn conditional(&mut self) -> ParseResult<'src, Expression<'src>> {
    let keyword = self.advance();
    let condition = self.expression()?;
    self.expect(TokenKind::BraceL)?;
    let then = self.expression()?;
    self.expect(TokenKind::BraceR)?;
    let otherwise = if self.next_is_word("else") {
      self.advance();
      if self.next_is_word("if") {
        Some(self.conditional()?)
      } else {
        self.expect(TokenKind::BraceL)?;
        let otherwise = self.expression()?;
        self.expect(TokenKind::BraceR)?;
        Some(otherwise)
      }
    } else {
      None
    };
    Ok(Expression::Conditional {
      keyword: self.nodes.alloc(keyword),
      condition: self.nodes.alloc(condition),
      then: self.nodes.alloc(then),
      otherwise: otherwise.map(|otherwise| self.nodes.alloc(otherwise)),
    })
  }

  /// Level 5. `!` chains are built iteratively.
  pub(super) fn value(&mut self) -> ParseResult<'src, Expression<'src>> {
    if !self.next_is(TokenKind::Bang) {
      return self.atom();
    }
    let mut negations = Vec::new();
    while let Some(bang) = self.accept(TokenKind::Bang) {
      negations.push(bang);
    }
    let mut result = self.atom()?;
    while let Some(operator) = negations.pop() {
      result = Expression::Not { operator, operand: self.nodes.alloc(result) };
    }
    Ok(result)
  }

  pub(super) fn atom(&mut self) -> ParseResult<'src, Expression<'src>> {
    // Each kind is probed in turn until one matches; a match is consumed,
    // which clears the probes.
    match self.peek_kind() {
      TokenKind::StringToken => {
        let token = self.advance();
        Ok(Expression::StringLiteral(string_literal(&self.nodes, token, false)?))
      }
      TokenKind::Backtick => {
        let token = self.advance();
        backtick(&self.nodes, token)
      }
      TokenKind::Identifier => self.identifier_value(),
      TokenKind::ParenL => {
        let open = self.advance();
        let contents = self.expression()?;
        self.expect(TokenKind::ParenR)?;
        Ok(Expression::Group { open, contents: self.nodes.alloc(contents) })
      }
      TokenKind::BracketL => {
        let bracket = self.advance();
        let elements = self.sequence(TokenKind::BracketR)?;
        Ok(Expression::List { bracket, elements })
      }
      _ => {
        self.probe_all(&[
          TokenKind::StringToken,
          TokenKind::Backtick,
          TokenKind::Identifier,
          TokenKind::ParenL,
          TokenKind::BracketL,
        ]);
        Err(self.unexpected())
      }
    }
  }

  /// Comma-separated expressions up to `close` (trailing comma allowed).
  pub(super) fn sequence(
    &mut self,
    close: TokenKind,
  ) -> ParseResult<'src, &'src [Expression<'src>]> {
    let base = self.elements.len();
    loop {
      if self.accept(close).is_some() {
        return Ok(self.take_elements(base));
      }
      let element = self.expression()?;
      self.elements.push(element);
      if self.accept(TokenKind::Comma).is_none() {
        self.expect(close)?;
        return Ok(self.take_elements(base));
      }
    }
  }

  /// The elements collected since `base`, moved into the arena.
  pub(super) fn take_elements(&mut self, base: usize) -> &'src [Expression<'src>] {
    self.nodes.take(&mut self.elements, base)
  }

  pub(super) fn identifier_value(&mut self) -> ParseResult<'src, Expression<'src>> {
    let token = self.peek();
    match token.lexeme() {
      "assert" => return self.assert(),
      "x" if self.string_touches(token, &[TokenKind::StringToken]) => {
        self.advance();
        let string = self.advance();
        return Ok(Expression::StringLiteral(string_literal(&self.nodes, string, true)?));
      }
      "f"
        if self.string_touches(token, &[TokenKind::StringToken, TokenKind::FormatStringStart]) =>
      {
        self.advance();
        return self.format_string();
      }
      _ => {}
    }
    let name = self.advance();
    if self.accept(TokenKind::ParenL).is_some() {
      let arguments = self.sequence(TokenKind::ParenR)?;
      let name = self.nodes.alloc(name);
      return Ok(Expression::Call { name, arguments, slot: self.nodes.slot() });
    }
    Ok(Expression::Variable { name, slot: self.nodes.slot() })
  }

  pub(super) fn assert(&mut self) -> ParseResult<'src, Expression<'src>> {
    let keyword = self.advance();
    self.expect(TokenKind::ParenL)?;
    let condition = self.expression()?;
    let message = if self.accept(TokenKind::Comma).is_some() {
      let message = self.expression()?;
      Some(self.nodes.alloc(message))
    } else {
      None
    };
    self.expect(TokenKind::ParenR)?;
    Ok(Expression::Assert { keyword, condition: self.nodes.alloc(condition), message })
  }

  /// After the `f` prefix: a plain string, or start/continue/end pieces.
  pub(super) fn format_string(&mut self) -> ParseResult<'src, Expression<'src>> {
    let first = self.advance();
    let kind = strings::string_kind(first.lexeme());
    let delimiter = kind.delimiter().len();
    if first.kind == TokenKind::StringToken {
      let start = self.nodes.alloc(format_piece(&self.nodes, first, kind, delimiter, delimiter)?);
      return Ok(Expression::FormatString { start, kind, parts: &[] });
    }
    let start = self.nodes.alloc(format_piece(&self.nodes, first, kind, delimiter, 2)?);
    let mut parts = Vec::new();
    loop {
      let expression = self.expression()?;
      if let Some(piece) = self.accept(TokenKind::FormatStringContinue) {
        parts.push((expression, format_piece(&self.nodes, piece, kind, 2, 2)?));
        continue;
      }
      let end = self.expect(TokenKind::FormatStringEnd)?;
      parts.push((expression, format_piece(&self.nodes, end, kind, 2, delimiter)?));
      let parts = self.nodes.slice(std::mem::take(&mut parts));
      return Ok(Expression::FormatString { start, kind, parts });
    }
  }
}

pub(super) fn string_literal<'src>(
  nodes: &Nodes<'src>,
  token: Token<'src>,
  expand: bool,
) -> ParseResult<'src, StringLiteral<'src>> {
  let lexeme = token.lexeme();
  let kind = strings::string_kind(lexeme);
  let raw = strings::contents(lexeme, kind.delimiter().len());
  let mut cooked = cook(nodes, kind, raw).map_err(|kind| error(token, kind))?;
  if expand {
    cooked = nodes.str(&strings::shell_expand(cooked).map_err(|kind| error(token, kind))?);
  }
  Ok(StringLiteral { token, kind, expand, cooked })
}

/// `strings::cook`, borrowing `raw` when cooking would not change it.
pub(super) fn cook<'src>(
  nodes: &Nodes<'src>,
  kind: StringKind,
  raw: &'src str,
) -> std::result::Result<&'src str, ParseErrorKind<'src>> {
  match kind {
    StringKind::RawSingle => Ok(raw),
    StringKind::CookedDouble if !raw.contains('\\') => Ok(raw),
    StringKind::CookedDouble => strings::process_escapes(raw).map(|cooked| nodes.str(&cooked)),
    StringKind::RawIndented | StringKind::CookedIndented => {
      strings::cook(kind, raw).map(|cooked| nodes.str(&cooked))
    }
  }
}

pub(super) fn format_piece<'src>(
  nodes: &Nodes<'src>,
  token: Token<'src>,
  kind: StringKind,
  open: usize,
  close: usize,
) -> ParseResult<'src, FormatPiece<'src>> {
  let lexeme = token.lexeme();
  let raw = lexeme.get(open..lexeme.len().saturating_sub(close)).unwrap_or("");
  let cooked = strings::cook_format_piece(kind, raw).map_err(|kind| error(token, kind))?;
  Ok(FormatPiece { token, cooked: nodes.str(&cooked) })
}

pub(super) fn backtick<'src>(
  nodes: &Nodes<'src>,
  token: Token<'src>,
) -> ParseResult<'src, Expression<'src>> {
  let lexeme = token.lexeme();
  let indented = lexeme.starts_with("```") && lexeme.len() >= 6;
  let command = if indented {
    nodes.str(&strings::unindent(strings::contents(lexeme, 3)))
  } else {
    strings::contents(lexeme, 1)
  };
  if command.starts_with("#!") {
    return Err(error(token, ParseErrorKind::BacktickShebang));
  }
  Ok(Expression::Backtick { token, command })
}
