//! Recipes: header, parameters, dependencies, body.

use super::*;

impl<'src> Parser<'_, 'src> {
  // ---------------------------------------------------------------------
  // Recipes

  pub(super) fn parse_recipe(
    &mut self,
    attributes: Attributes<'src>,
    doc: Option<&'src str>,
  ) -> ParseResult<'src, ()> {
    let quiet = self.accept(TokenKind::At).is_some();
    let name = self.expect(TokenKind::Identifier)?;
    check_duplicate_options(&attributes, name)?;
    let parameters = self.parameters(&attributes)?;
    check_arg_parameters(&attributes, parameters)?;
    self.expect(TokenKind::Colon)?;
    let (dependencies, prior_count) = self.dependencies()?;

    let comment = self.accept(TokenKind::Comment);
    self.expected.insert(TokenKind::Indent);
    let header_eol = !self.next_is(TokenKind::Eof);
    if header_eol {
      self.expect(TokenKind::Eol)?;
    }
    let (body, trailing_blank_lines) = if header_eol && self.peek_kind() == TokenKind::Indent {
      self.advance();
      self.body()?
    } else {
      (&[][..], 0)
    };
    let shebang = body.first().is_some_and(|line| {
      matches!(line.first_fragment(), Some(Fragment::Text(text)) if text.lexeme().starts_with("#!"))
    });
    let has_body = !body.is_empty();
    check_recipe_attributes(&attributes, name)?;
    self.items.push(Item::Recipe(self.nodes.alloc(Recipe {
      attributes,
      doc,
      quiet,
      name,
      parameters,
      dependencies,
      prior_count,
      body,
      shebang,
    })));
    self.at_line_start = false;
    if let Some(comment) = comment {
      self.items.push(Item::Comment(Comment::new(comment)));
    }
    if has_body {
      self.at_line_start = true;
    } else if header_eol {
      self.push_eol();
    }
    for _ in 0..trailing_blank_lines {
      self.push_eol();
    }
    Ok(())
  }

  pub(super) fn parameters(
    &mut self,
    attributes: &Attributes<'src>,
  ) -> ParseResult<'src, &'src [Parameter<'src>]> {
    self.parameters.clear();
    loop {
      let kind = if self.accept(TokenKind::Plus).is_some() {
        ParameterKind::Plus
      } else if self.accept(TokenKind::Asterisk).is_some() {
        ParameterKind::Star
      } else {
        ParameterKind::Singular
      };
      if kind == ParameterKind::Singular
        && !self.next_is(TokenKind::Dollar)
        && !self.next_is(TokenKind::Identifier)
      {
        return Ok(self.nodes.take(&mut self.parameters, 0));
      }
      let export = self.accept(TokenKind::Dollar).is_some();
      let name = self.expect(TokenKind::Identifier)?;
      let default = if self.accept(TokenKind::Equals).is_some() {
        let value = self.value()?;
        Some(self.nodes.alloc(value))
      } else {
        None
      };
      let parameter = Parameter { name, default, export, kind };
      check_parameter_arg(attributes, &parameter)?;
      self.parameters.push(parameter);
      if kind.is_variadic() {
        let next = self.peek();
        if next.kind == TokenKind::Identifier {
          return Err(error(
            next,
            ParseErrorKind::ParameterFollowsVariadic { parameter: next.lexeme() },
          ));
        }
        return Ok(self.nodes.take(&mut self.parameters, 0));
      }
    }
  }

  /// The dependencies before `&&`, then those after it, and how many come
  /// before.
  pub(super) fn dependencies(&mut self) -> ParseResult<'src, (&'src [Dependency<'src>], u32)> {
    self.dependencies.clear();
    while let Some(dependency) = self.dependency()? {
      self.dependencies.push(dependency);
    }
    let prior_count = u32::try_from(self.dependencies.len()).unwrap_or(u32::MAX);
    if self.accept(TokenKind::AmpersandAmpersand).is_some() {
      match self.dependency()? {
        Some(dependency) => self.dependencies.push(dependency),
        None => return Err(self.unexpected()),
      }
      while let Some(dependency) = self.dependency()? {
        self.dependencies.push(dependency);
      }
    }
    Ok((self.nodes.take(&mut self.dependencies, 0), prior_count))
  }

  pub(super) fn dependency(&mut self) -> ParseResult<'src, Option<Dependency<'src>>> {
    if self.next_is(TokenKind::Identifier) {
      return Ok(Some(Dependency { path: self.path()?, arguments: &[], star: None }));
    }
    if let Some(star) = self.accept(TokenKind::Asterisk) {
      self.expect(TokenKind::ParenL)?;
      return self.dependency_call(Some(star)).map(Some);
    }
    if self.accept(TokenKind::ParenL).is_some() {
      return self.dependency_call(None).map(Some);
    }
    Ok(None)
  }

  /// `PATH ARG… )` after the `(` of a dependency with arguments.
  pub(super) fn dependency_call(
    &mut self,
    mapped: Option<Token<'src>>,
  ) -> ParseResult<'src, Dependency<'src>> {
    let path = self.path()?;
    let base = self.elements.len();
    let mut star = None;
    loop {
      if self.accept(TokenKind::ParenR).is_some() {
        break;
      }
      let argument = if let Some(asterisk) = self.accept(TokenKind::Asterisk) {
        if mapped.is_none() {
          return Err(error(asterisk, ParseErrorKind::StarOutsideMappedDependency));
        }
        if star.is_some() {
          return Err(error(asterisk, ParseErrorKind::MappedDependencyMultipleStars));
        }
        star = Some(u32::try_from(self.elements.len() - base).unwrap_or(u32::MAX));
        self.value()?
      } else {
        self.expression()?
      };
      self.elements.push(argument);
    }
    let arguments = self.take_elements(base);
    if let Some(mapped) = mapped {
      if star.is_none() {
        return Err(error(mapped, ParseErrorKind::MappedDependencyWithoutStar));
      }
    }
    Ok(Dependency { path, arguments, star })
  }

  /// Body lines after the `indent`, up to and including the `dedent`,
  /// without the trailing blank lines, and how many of those there were.
  pub(super) fn body(&mut self) -> ParseResult<'src, (&'src [Line<'src>], usize)> {
    self.lines.clear();
    loop {
      if self.accept(TokenKind::Dedent).is_some() || self.peek_kind() == TokenKind::Eof {
        break;
      }
      let start = self.peek();
      let mut end = start.offset;
      self.interpolations.clear();
      // Text, an interpolation or the end of the line, probed in that order.
      loop {
        match self.peek_kind() {
          TokenKind::Text => {
            let text = self.advance();
            end = text.offset + text.length;
          }
          TokenKind::InterpolationStart => {
            let open = self.advance();
            let expression = self.expression()?;
            let expression = self.nodes.alloc(expression);
            let close = self.expect(TokenKind::InterpolationEnd)?;
            end = close.offset + close.length;
            self.interpolations.push(Interpolation { start: open.offset, end, expression });
          }
          TokenKind::Eol => {
            self.advance();
            break;
          }
          kind => {
            self.probe_all(&[TokenKind::Text, TokenKind::InterpolationStart, TokenKind::Eol]);
            if matches!(kind, TokenKind::Eof | TokenKind::Dedent) {
              break;
            }
            return Err(self.unexpected());
          }
        }
      }
      let text = Token { kind: TokenKind::Text, length: end - start.offset, ..start };
      let interpolations = self.nodes.take(&mut self.interpolations, 0);
      self.lines.push(Line { text, interpolations });
    }
    let mut trailing_blank_lines = 0;
    while self.lines.last().is_some_and(Line::is_empty) {
      self.lines.pop();
      trailing_blank_lines += 1;
    }
    Ok((self.nodes.take(&mut self.lines, 0), trailing_blank_lines))
  }
}
