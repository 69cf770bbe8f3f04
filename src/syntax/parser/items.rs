//! Items: the item loop, comments and docs, assignments, aliases,
//! `unexport`, user functions, imports, modules, and settings.

use super::*;

impl<'src> Parser<'_, 'src> {
  // ---------------------------------------------------------------------
  // Items

  pub(super) fn parse_ast(&mut self) -> ParseResult<'src, Ast<'src>> {
    if self.peek_kind() == TokenKind::ByteOrderMark && !self.started {
      self.advance();
    }
    loop {
      let attributes = self.parse_attribute_lines()?;
      if attributes.list.is_empty() {
        if self.next_is(TokenKind::Eof) {
          break;
        }
        if let Some(comment) = self.accept(TokenKind::Comment) {
          self.comment_line(comment)?;
          continue;
        }
        if let Some(eol) = self.accept(TokenKind::Eol) {
          let _ = eol;
          self.doc_candidate = None;
          self.push_eol();
          continue;
        }
      } else if self.next_is(TokenKind::Comment) | self.next_is(TokenKind::Eol) {
        let count = attributes.list.len();
        return Err(error(
          self.first_bracket(&attributes),
          ParseErrorKind::ExtraneousAttributes { count },
        ));
      }
      let doc = self.doc_candidate.take().and_then(doc_text);
      self.parse_item(attributes, doc)?;
    }
    self.items.shrink_to_fit();
    Ok(Ast {
      source: self.file,
      items: std::mem::take(&mut self.items),
      unstable_features: std::mem::take(&mut self.unstable_features),
    })
  }

  /// The `[` before an attribute list's first name.
  pub(super) fn first_bracket(&self, attributes: &Attributes<'src>) -> Token<'src> {
    let first = attributes.list[0].name;
    self.brackets.iter().rev().find(|token| token.offset < first.offset).copied().unwrap_or(first)
  }

  pub(super) fn push_eol(&mut self) {
    self.items.push(Item::Eol);
    self.at_line_start = true;
  }

  pub(super) fn comment_line(&mut self, comment: Token<'src>) -> ParseResult<'src, ()> {
    let file_shebang = comment.line == 0 && comment.lexeme().starts_with("#!");
    self.doc_candidate = (self.at_line_start && !file_shebang).then_some(comment);
    self.items.push(Item::Comment(Comment::new(comment)));
    self.at_line_start = false;
    if !self.next_is(TokenKind::Eof) {
      self.expect(TokenKind::Eol)?;
      self.items.push(Item::Eol);
      self.at_line_start = true;
    }
    Ok(())
  }

  /// Optional trailing comment, then end of line or end of file; pushes the
  /// item, its comment and the line end.
  pub(super) fn finish_item(&mut self, item: Item<'src>) -> ParseResult<'src, ()> {
    let comment = self.accept(TokenKind::Comment);
    let eol = if self.next_is(TokenKind::Eof) {
      false
    } else {
      self.expect(TokenKind::Eol)?;
      true
    };
    self.items.push(item);
    self.at_line_start = false;
    if let Some(comment) = comment {
      self.items.push(Item::Comment(Comment::new(comment)));
    }
    if eol {
      self.push_eol();
    }
    Ok(())
  }

  pub(super) fn parse_item(
    &mut self,
    attributes: Attributes<'src>,
    doc: Option<&'src str>,
  ) -> ParseResult<'src, ()> {
    use TokenKind::*;
    if self.next_is(At) {
      return self.parse_recipe(attributes, doc);
    }
    if !self.next_is(Identifier) {
      return Err(self.unexpected());
    }
    let word = self.peek().lexeme();
    let ends = [Eol, Comment, Eof];
    let keyword_item = match word {
      "alias" if self.next_are(&[Identifier, Identifier, ColonEquals]) => Some("alias"),
      "export" | "eager" if self.next_are(&[Identifier, Identifier, ColonEquals]) => {
        Some("assignment")
      }
      "unexport" if ends.iter().any(|end| self.next_are(&[Identifier, Identifier, *end])) => {
        Some("unexport")
      }
      "set"
        if self.next_are(&[Identifier, Identifier, ColonEquals])
          || ends.iter().any(|end| self.next_are(&[Identifier, Identifier, *end])) =>
      {
        Some("set")
      }
      "import"
        if self.next_are(&[Identifier, QuestionMark])
          || self.next_are(&[Identifier, StringToken])
          || self.next_are(&[Identifier, Identifier, StringToken]) =>
      {
        Some("import")
      }
      "mod"
        if self.next_are(&[Identifier, QuestionMark])
          || ends.iter().any(|end| self.next_are(&[Identifier, Identifier, *end]))
          || self.next_are(&[Identifier, Identifier, StringToken])
          || self.next_are(&[Identifier, Identifier, Identifier, StringToken]) =>
      {
        Some("mod")
      }
      _ => None,
    };
    match keyword_item {
      Some("alias") => self.parse_alias(attributes),
      Some("assignment") => {
        let keyword = self.advance();
        self.parse_assignment(attributes, keyword.lexeme())
      }
      Some("unexport") => self.parse_unexport(attributes),
      Some("set") => self.parse_set(attributes),
      Some("import") => self.parse_import(attributes),
      Some("mod") => self.parse_module(attributes, doc),
      _ if self.next_are(&[Identifier, ParenL]) => self.parse_function(attributes),
      _ if self.next_are(&[Identifier, ColonEquals]) => self.parse_assignment(attributes, ""),
      _ => self.parse_recipe(attributes, doc),
    }
  }

  pub(super) fn check_attributes(
    &self,
    attributes: &Attributes<'src>,
    kind: ItemKind,
    name: Token<'src>,
  ) -> ParseResult<'src, ()> {
    // The first invalid one in canonical (name) order, not source order.
    let invalid = attributes
      .list
      .iter()
      .map(|entry| &entry.attribute)
      .filter(|attribute| !attribute.kind().annotates(kind))
      .min_by_key(|attribute| attribute.name());
    match invalid {
      Some(attribute) => Err(error(
        name,
        ParseErrorKind::InvalidAttribute {
          item_kind: kind.name(),
          name: name.lexeme(),
          attribute: attribute.name(),
        },
      )),
      None => Ok(()),
    }
  }

  pub(super) fn parse_assignment(
    &mut self,
    attributes: Attributes<'src>,
    keyword: &str,
  ) -> ParseResult<'src, ()> {
    let name = self.expect(TokenKind::Identifier)?;
    self.check_attributes(&attributes, ItemKind::Assignment, name)?;
    self.expect(TokenKind::ColonEquals)?;
    let value = self.expression()?;
    self.finish_item(Item::Assignment(self.nodes.alloc(Assignment {
      attributes,
      name,
      value,
      export: keyword == "export",
      eager: keyword == "eager",
    })))
  }

  pub(super) fn parse_alias(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
    self.advance();
    let name = self.expect(TokenKind::Identifier)?;
    self.check_attributes(&attributes, ItemKind::Alias, name)?;
    self.expect(TokenKind::ColonEquals)?;
    let target = self.path()?;
    self.finish_item(Item::Alias(self.nodes.alloc(Alias { attributes, name, target })))
  }

  pub(super) fn parse_unexport(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
    self.advance();
    let name = self.expect(TokenKind::Identifier)?;
    self.check_attributes(&attributes, ItemKind::Unexport, name)?;
    self.finish_item(Item::Unexport(self.nodes.alloc(Unexport { attributes, name })))
  }

  pub(super) fn parse_function(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
    let name = self.expect(TokenKind::Identifier)?;
    self.check_attributes(&attributes, ItemKind::Function, name)?;
    self.unstable_features.push(UnstableFeature::UserDefinedFunctions);
    self.expect(TokenKind::ParenL)?;
    let mut parameters = Vec::new();
    loop {
      if self.accept(TokenKind::ParenR).is_some() {
        break;
      }
      parameters.push(self.expect(TokenKind::Identifier)?);
      if self.accept(TokenKind::Comma).is_none() {
        self.expect(TokenKind::ParenR)?;
        break;
      }
    }
    self.expect(TokenKind::ColonEquals)?;
    let body = self.expression()?;
    let parameters = self.nodes.slice(parameters);
    self.finish_item(Item::Function(self.nodes.alloc(FunctionDefinition {
      attributes,
      name,
      parameters,
      body,
    })))
  }

  pub(super) fn parse_import(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
    self.advance();
    let optional = self.accept(TokenKind::QuestionMark).is_some();
    let path = self.path_literal()?;
    self.check_attributes(&attributes, ItemKind::Import, path.token)?;
    self.finish_item(Item::Import(self.nodes.alloc(Import { attributes, optional, path })))
  }

  pub(super) fn parse_module(
    &mut self,
    attributes: Attributes<'src>,
    doc: Option<&'src str>,
  ) -> ParseResult<'src, ()> {
    self.advance();
    let optional = self.accept(TokenKind::QuestionMark).is_some();
    let name = self.expect(TokenKind::Identifier)?;
    self.check_attributes(&attributes, ItemKind::Module, name)?;
    let path = if self.next_is(TokenKind::Identifier) | self.next_is(TokenKind::StringToken) {
      Some(self.path_literal()?)
    } else {
      None
    };
    self.finish_item(Item::Module(self.nodes.alloc(ModuleItem {
      attributes,
      doc,
      name,
      optional,
      path,
    })))
  }

  /// An import/module path: a string, optionally `x`-prefixed.
  pub(super) fn path_literal(&mut self) -> ParseResult<'src, StringLiteral<'src>> {
    if self.next_is(TokenKind::Identifier) {
      let prefix = self.advance();
      if prefix.lexeme() != "x" {
        return Err(error(
          prefix,
          ParseErrorKind::ExpectedKeyword { expected: "x", found: prefix.lexeme() },
        ));
      }
      let token = self.expect(TokenKind::StringToken)?;
      return string_literal(&self.nodes, token, true);
    }
    let token = self.expect(TokenKind::StringToken)?;
    string_literal(&self.nodes, token, false)
  }

  /// Names joined by `::`.
  pub(super) fn path(&mut self) -> ParseResult<'src, &'src [Name<'src>]> {
    let first = self.expect(TokenKind::Identifier)?;
    if !self.next_is(TokenKind::ColonColon) {
      return Ok(self.nodes.slice([first]));
    }
    let mut path = vec![first];
    while self.accept(TokenKind::ColonColon).is_some() {
      path.push(self.expect(TokenKind::Identifier)?);
    }
    Ok(self.nodes.slice(path))
  }

  // ---------------------------------------------------------------------
  // Settings

  pub(super) fn parse_set(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
    self.advance();
    let name = self.expect(TokenKind::Identifier)?;
    let Some(setting) = Setting::from_name(name.lexeme()) else {
      return Err(error(name, ParseErrorKind::UnknownSetting { setting: name.lexeme() }));
    };
    self.check_attributes(&attributes, ItemKind::Setting, name)?;
    if setting == Setting::Lists {
      self.unstable_features.push(UnstableFeature::Lists);
    }
    let value = match setting.value_type() {
      SettingType::Boolean => self.boolean_setting()?,
      SettingType::Expression => {
        self.expect(TokenKind::ColonEquals)?;
        SettingValue::Expression(self.expression()?)
      }
      SettingType::List => {
        self.expect(TokenKind::ColonEquals)?;
        SettingValue::List(self.setting_list()?)
      }
      SettingType::Literal => {
        self.expect(TokenKind::ColonEquals)?;
        SettingValue::Literal(self.literal_setting(setting, name)?)
      }
    };
    self.finish_item(Item::Set(self.nodes.alloc(Set { attributes, name, setting, value })))
  }

  pub(super) fn boolean_setting(&mut self) -> ParseResult<'src, SettingValue<'src>> {
    if self.accept(TokenKind::ColonEquals).is_none() {
      return Ok(SettingValue::Boolean { value: true });
    }
    let word = self.expect(TokenKind::Identifier)?;
    let value = match word.lexeme() {
      "true" => true,
      "false" => false,
      found => return Err(error(word, ParseErrorKind::ExpectedBoolean { found })),
    };
    Ok(SettingValue::Boolean { value })
  }

  pub(super) fn setting_list(&mut self) -> ParseResult<'src, &'src [Expression<'src>]> {
    self.expect(TokenKind::BracketL)?;
    let base = self.elements.len();
    let first = self.expression()?;
    self.elements.push(first);
    loop {
      if self.accept(TokenKind::Comma).is_some() {
        if self.accept(TokenKind::BracketR).is_some() {
          break;
        }
        let element = self.expression()?;
        self.elements.push(element);
      } else {
        self.expect(TokenKind::BracketR)?;
        break;
      }
    }
    Ok(self.take_elements(base))
  }

  pub(super) fn literal_setting(
    &mut self,
    setting: Setting,
    name: Name<'src>,
  ) -> ParseResult<'src, StringLiteral<'src>> {
    let value = self.expression()?;
    let literal = match value {
      Expression::StringLiteral(literal) if !literal.expand && !literal.kind.is_indented() => {
        literal
      }
      _ => {
        return Err(error(name, ParseErrorKind::SettingNotPlainLiteral { setting: name.lexeme() }))
      }
    };
    let check = if setting == Setting::Indentation {
      check_indentation(literal.cooked)
    } else {
      check_minimum_version(literal.cooked)
    };
    check.map_err(|kind| error(literal.token, kind))?;
    Ok(literal)
  }
}

pub(super) fn check_indentation<'src>(
  value: &str,
) -> std::result::Result<(), ParseErrorKind<'src>> {
  strings::check_indentation(value).map_err(|problem| match problem {
    strings::IndentationProblem::Empty => ParseErrorKind::IndentationEmpty,
    strings::IndentationProblem::NotWhitespace => ParseErrorKind::IndentationNotWhitespace,
    strings::IndentationProblem::Mixed => ParseErrorKind::IndentationMixed,
  })
}

/// `MAJOR.MINOR.PATCH`, each `0` or 1–9 digits without a leading zero.
pub(super) fn parse_version(version: &str) -> Option<[u64; 3]> {
  let mut parts = version.split('.');
  let mut numbers = [0; 3];
  for number in &mut numbers {
    let part = parts.next()?;
    let valid = part == "0"
      || (!part.is_empty()
        && part.len() <= 9
        && part.bytes().all(|b| b.is_ascii_digit())
        && !part.starts_with('0'));
    if !valid {
      return None;
    }
    *number = part.parse().ok()?;
  }
  parts.next().is_none().then_some(numbers)
}

pub(super) fn check_minimum_version<'src>(
  value: &str,
) -> std::result::Result<(), ParseErrorKind<'src>> {
  let required = parse_version(value)
    .ok_or_else(|| ParseErrorKind::InvalidMinimumVersion { version: value.to_string() })?;
  let current = parse_version(env!("CARGO_PKG_VERSION")).unwrap_or([0; 3]);
  if required > current {
    return Err(ParseErrorKind::MinimumVersionNotMet { version: value.to_string() });
  }
  Ok(())
}
