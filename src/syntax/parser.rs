//! The parser: tokens → parse tree.
//!
//! A recursive-descent parser over the significant tokens (whitespace is
//! dropped). Every test of the next token's kind is a "probe" recorded in the
//! expected set, which is cleared whenever a token is consumed, so that an
//! unexpected token is reported with exactly the kinds that were tried since
//! the last consumed token.

use super::ast::*;
use super::attributes::{ItemKind, CONFLICTS};
use super::lexer::{Lexer, BATCH};
use super::parse_error::{arguments, ParseErrorKind};
use super::settings::{Setting, SettingType};
use super::sources::{self, Nodes, Trees};
use super::strings;
use super::syntax_error::{SyntaxError, SyntaxErrorKind};
use super::token::{KindSet, Token, TokenKind};

/// Deepest allowed nesting of expressions.
const MAX_DEPTH: usize = 256;

/// Stack of the parsing thread. Only touched pages are committed.
pub const PARSER_STACK_SIZE: usize = 256 * 1024 * 1024;

/// Parse the tokens of one file (as returned by `lexer::lex`).
#[allow(clippy::result_large_err)]
pub fn parse<'src>(
  tokens: &[Token<'src>],
  trees: &'src Trees<'src>,
) -> Result<Ast<'src>, SyntaxError<'src>> {
  let Some(first) = tokens.first() else {
    return Ok(Ast::default());
  };
  on_parser_thread(|| {
    Parser::new(Source::Slice(tokens.iter()), first.source, trees.nodes()).parse_ast()
  })
}

/// Lex and parse one file, streaming tokens from the lexer to the parser so
/// that the file's tokens are never all in memory. A lexical error anywhere
/// in the file still wins over any parse error. The tree's nodes go into
/// `trees`.
#[allow(clippy::result_large_err)]
pub fn parse_source<'src>(
  file: &'src sources::Source,
  trees: &'src Trees<'src>,
) -> Result<Ast<'src>, SyntaxError<'src>> {
  on_parser_thread(|| {
    let lexer = Source::Lexer(Box::new(Lexer::significant(file)));
    let mut parser = Parser::new(lexer, file, trees.nodes());
    let result = parser.parse_ast();
    if let Some(error) = parser.tokens.finish_lexing() {
      return Err(Box::new(error));
    }
    result
  })
}

/// Deeply nested expressions recurse deeply (up to `MAX_DEPTH` levels, each
/// several frames); parse on a stack that is surely big enough.
#[allow(clippy::result_large_err)]
fn on_parser_thread<'src, F>(parse: F) -> Result<Ast<'src>, SyntaxError<'src>>
where
  F: Fn() -> ParseResult<'src, Ast<'src>> + Sync,
{
  on_parser_stack(&parse).map_err(|error| *error)
}

thread_local! {
  /// Whether this thread was started by `on_parser_stack`.
  // The initializer is `const` already; clippy's lint misreads the macro's
  // expansion for Windows targets.
  #[allow(clippy::missing_const_for_thread_local)]
  static ON_PARSER_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Declare that this thread's stack is at least `PARSER_STACK_SIZE`, so
/// parsing on it runs in place.
pub fn on_large_stack() {
  ON_PARSER_STACK.set(true);
}

/// Run `run` on a thread whose stack is big enough for parsing, or in place
/// if already on one or if no such thread can be started. Callers that parse
/// many files wrap the whole loop in this: one thread, not one per file.
pub fn on_parser_stack<T: Send, F: FnOnce() -> T + Send>(run: F) -> T {
  if ON_PARSER_STACK.get() {
    return run();
  }
  let slot = std::sync::Mutex::new(Some(run));
  let take = || slot.lock().ok().and_then(|mut slot| slot.take());
  let on_thread = std::thread::scope(|scope| {
    let spawned = std::thread::Builder::new()
      .name("parser".into())
      .stack_size(PARSER_STACK_SIZE)
      .spawn_scoped(scope, || {
        ON_PARSER_STACK.set(true);
        take().map(|run| run())
      });
    spawned
      .ok()
      .map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
  });
  match on_thread.flatten() {
    Some(value) => value,
    None => take().map(|run| run()).unwrap_or_else(|| unreachable!("`run` is taken only once")),
  }
}

/// Where the parser's tokens come from.
enum Source<'t, 'src> {
  Slice(std::slice::Iter<'t, Token<'src>>),
  Lexer(Box<Lexer<'src>>),
}

/// Errors are boxed inside the parser to keep its (deeply recursive) frames small.
type ParseResult<'src, T> = std::result::Result<T, Box<SyntaxError<'src>>>;

/// Tokens are read from the source this many at a time. The parser looks
/// at most four tokens ahead (item dispatch).
const BUFFER: usize = BATCH;

/// The significant tokens (whitespace dropped) read but not yet consumed:
/// `lexer.batch()[pos..len]`, never empty, read in place from the lexer's
/// batch. Once the source is exhausted the last of them is an `Eof`, which
/// is never consumed.
struct TokenBuffer<'t, 'src> {
  lexer: Lexer<'src>,
  /// Already lexed tokens to read instead of lexing (`parse`).
  replay: Option<std::slice::Iter<'t, Token<'src>>>,
  pos: usize,
  len: usize,
  exhausted: bool,
}

impl<'t, 'src> TokenBuffer<'t, 'src> {
  fn new(source: Source<'t, 'src>, file: &'src sources::Source) -> Self {
    let (lexer, replay) = match source {
      Source::Slice(tokens) => (Lexer::significant(file), Some(tokens)),
      Source::Lexer(lexer) => (*lexer, None),
    };
    let mut tokens = Self { lexer, replay, pos: 0, len: 0, exhausted: false };
    tokens.fill();
    tokens
  }

  #[inline]
  fn next(&self) -> Token<'src> {
    // `pos` is below `BUFFER`; the remainder only spares a bounds check.
    self.lexer.batch()[self.pos % BUFFER]
  }

  /// The token `n` places after the next one; the `Eof` past the end.
  fn nth(&mut self, n: usize) -> Token<'src> {
    if self.pos + n >= self.len && !self.exhausted {
      self.fill();
    }
    self.lexer.batch()[(self.pos + n).min(self.len.saturating_sub(1)) % BUFFER]
  }

  /// Consume the next token, unless it is the `Eof`.
  #[inline]
  fn consume(&mut self) -> Token<'src> {
    let token = self.next();
    if token.kind != TokenKind::Eof {
      self.pos += 1;
      if self.pos == self.len {
        self.fill();
      }
    }
    token
  }

  /// Keep the unconsumed tokens and read more after them.
  #[inline(never)]
  fn fill(&mut self) {
    self.len = match &mut self.replay {
      Some(tokens) => self.lexer.replay(self.pos, tokens),
      None => self.lexer.refill(self.pos),
    };
    self.pos = 0;
    self.exhausted = self.len == 0 || self.lexer.batch()[self.len - 1].kind == TokenKind::Eof;
  }

  /// Lex the rest of the file; the first lexical error, if any.
  fn finish_lexing(&mut self) -> Option<SyntaxError<'src>> {
    match self.replay {
      Some(_) => None,
      None => self.lexer.lex_rest(),
    }
  }
}

struct Parser<'t, 'src> {
  tokens: TokenBuffer<'t, 'src>,
  /// Where the tree's nodes are allocated.
  nodes: Nodes<'src>,
  /// Whether any token has been consumed (a BOM is only allowed first).
  started: bool,
  /// `[` tokens consumed, to blame extraneous attributes.
  brackets: Vec<Token<'src>>,
  expected: KindSet,
  depth: usize,
  items: Vec<Item<'src>>,
  unstable_features: Vec<UnstableFeature>,
  /// The file being parsed.
  file: &'src sources::Source,
  /// The comment line that would be the doc comment of a following recipe or module.
  doc_candidate: Option<Token<'src>>,
  /// Whether the previous top-level entry ended a line (or there is none).
  at_line_start: bool,
  /// Elements of the sequences being parsed (calls, lists, dependency
  /// arguments, setting lists): collected here and moved out into vectors
  /// of exact size.
  elements: Vec<Expression<'src>>,
  /// Interpolations of the body line being parsed.
  interpolations: Vec<Interpolation<'src>>,
  /// Lines of the body being parsed.
  lines: Vec<Line<'src>>,
  /// Parameters of the recipe being parsed.
  parameters: Vec<Parameter<'src>>,
  /// Dependencies of the recipe being parsed (priors, then subsequents).
  dependencies: Vec<Dependency<'src>>,
}

/// An attribute argument as written: positional, or `KEY[=VALUE]`.
enum AttributeArgument<'src> {
  Positional(Expression<'src>),
  Keyword { key: Name<'src>, value: Option<Expression<'src>> },
}

/// Which item an attribute list is attached to, for the allowed-attribute check.
fn arity_description(min: usize, max: Option<usize>) -> String {
  match max {
    Some(max) if max == min => arguments(min),
    Some(max) if min == 0 => format!("at most {}", arguments(max)),
    Some(max) => format!("{min} to {}", arguments(max)),
    None => format!("at least {}", arguments(min)),
  }
}

fn is_repeatable(attribute: &Attribute) -> bool {
  matches!(
    attribute,
    Attribute::Arg(_) | Attribute::Env(..) | Attribute::Group(_) | Attribute::Metadata(_)
  )
}

impl<'t, 'src> Parser<'t, 'src> {
  fn new(source: Source<'t, 'src>, file: &'src sources::Source, nodes: Nodes<'src>) -> Self {
    Self {
      file,
      tokens: TokenBuffer::new(source, file),
      nodes,
      started: false,
      brackets: Vec::new(),
      expected: KindSet::default(),
      depth: 0,
      items: Vec::new(),
      unstable_features: Vec::new(),
      doc_candidate: None,
      at_line_start: true,
      elements: Vec::new(),
      interpolations: Vec::new(),
      lines: Vec::new(),
      parameters: Vec::new(),
      dependencies: Vec::new(),
    }
  }

  // ---------------------------------------------------------------------
  // Token access

  #[inline]
  fn peek(&self) -> Token<'src> {
    self.tokens.next()
  }

  /// The token `n` places after the next one (`peek_nth(0)` is `peek()`).
  fn peek_nth(&mut self, n: usize) -> Token<'src> {
    self.tokens.nth(n)
  }

  #[inline]
  fn peek_kind(&self) -> TokenKind {
    self.peek().kind
  }

  /// Probe: record `kind` as expected and test the next token.
  #[inline]
  fn next_is(&mut self, kind: TokenKind) -> bool {
    self.expected.insert(kind);
    self.peek_kind() == kind
  }

  /// Probe each of `kinds`, none of which is the next token's kind.
  #[inline]
  fn probe_all(&mut self, kinds: &[TokenKind]) {
    for kind in kinds {
      self.expected.insert(*kind);
    }
  }

  /// Test the next token for a contextual keyword, without probing.
  fn next_is_word(&self, word: &str) -> bool {
    let next = self.peek();
    next.kind == TokenKind::Identifier && next.lexeme() == word
  }

  /// Lookahead for item dispatch: probes only the first kind.
  fn next_are(&mut self, kinds: &[TokenKind]) -> bool {
    if let Some(first) = kinds.first() {
      self.expected.insert(*first);
    }
    kinds.iter().enumerate().all(|(i, kind)| self.peek_nth(i).kind == *kind)
  }

  #[inline]
  fn advance(&mut self) -> Token<'src> {
    let token = self.tokens.consume();
    if token.kind == TokenKind::BracketL {
      self.brackets.push(token);
    }
    self.started = true;
    self.expected.clear();
    token
  }

  #[inline]
  fn accept(&mut self, kind: TokenKind) -> Option<Token<'src>> {
    if self.next_is(kind) {
      Some(self.advance())
    } else {
      None
    }
  }

  fn expect(&mut self, kind: TokenKind) -> ParseResult<'src, Token<'src>> {
    self.accept(kind).ok_or_else(|| self.unexpected())
  }

  #[cold]
  fn unexpected(&self) -> Box<SyntaxError<'src>> {
    let found = self.peek();
    error(found, ParseErrorKind::UnexpectedToken { expected: self.expected, found: found.kind })
  }

  /// Whether the next token is a string touching `prefix` (an `x`/`f` prefix).
  fn string_touches(&mut self, prefix: Token<'src>, kinds: &[TokenKind]) -> bool {
    let next = self.peek_nth(1);
    kinds.contains(&next.kind) && prefix.offset + prefix.length == next.offset
  }

  // ---------------------------------------------------------------------
  // Items

  fn parse_ast(&mut self) -> ParseResult<'src, Ast<'src>> {
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
  fn first_bracket(&self, attributes: &Attributes<'src>) -> Token<'src> {
    let first = attributes.list[0].name;
    self.brackets.iter().rev().find(|token| token.offset < first.offset).copied().unwrap_or(first)
  }

  fn push_eol(&mut self) {
    self.items.push(Item::Eol);
    self.at_line_start = true;
  }

  fn comment_line(&mut self, comment: Token<'src>) -> ParseResult<'src, ()> {
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
  fn finish_item(&mut self, item: Item<'src>) -> ParseResult<'src, ()> {
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

  fn parse_item(
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

  fn check_attributes(
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

  fn parse_assignment(
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

  fn parse_alias(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
    self.advance();
    let name = self.expect(TokenKind::Identifier)?;
    self.check_attributes(&attributes, ItemKind::Alias, name)?;
    self.expect(TokenKind::ColonEquals)?;
    let target = self.path()?;
    self.finish_item(Item::Alias(self.nodes.alloc(Alias { attributes, name, target })))
  }

  fn parse_unexport(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
    self.advance();
    let name = self.expect(TokenKind::Identifier)?;
    self.check_attributes(&attributes, ItemKind::Unexport, name)?;
    self.finish_item(Item::Unexport(self.nodes.alloc(Unexport { attributes, name })))
  }

  fn parse_function(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
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

  fn parse_import(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
    let keyword = self.advance();
    let optional = self.accept(TokenKind::QuestionMark).is_some();
    let path = self.path_literal()?;
    self.check_attributes(&attributes, ItemKind::Import, path.token)?;
    self.finish_item(Item::Import(self.nodes.alloc(Import { attributes, keyword, optional, path })))
  }

  fn parse_module(
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
  fn path_literal(&mut self) -> ParseResult<'src, StringLiteral<'src>> {
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
  fn path(&mut self) -> ParseResult<'src, &'src [Name<'src>]> {
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

  fn parse_set(&mut self, attributes: Attributes<'src>) -> ParseResult<'src, ()> {
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

  fn boolean_setting(&mut self) -> ParseResult<'src, SettingValue<'src>> {
    if self.accept(TokenKind::ColonEquals).is_none() {
      return Ok(SettingValue::Boolean { value: true, written: false });
    }
    let word = self.expect(TokenKind::Identifier)?;
    let value = match word.lexeme() {
      "true" => true,
      "false" => false,
      found => return Err(error(word, ParseErrorKind::ExpectedBoolean { found })),
    };
    Ok(SettingValue::Boolean { value, written: true })
  }

  fn setting_list(&mut self) -> ParseResult<'src, &'src [Expression<'src>]> {
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

  fn literal_setting(
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

  // ---------------------------------------------------------------------
  // Recipes

  fn parse_recipe(
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

  fn parameters(
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
  fn dependencies(&mut self) -> ParseResult<'src, (&'src [Dependency<'src>], u32)> {
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

  fn dependency(&mut self) -> ParseResult<'src, Option<Dependency<'src>>> {
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
  fn dependency_call(
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
  fn body(&mut self) -> ParseResult<'src, (&'src [Line<'src>], usize)> {
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

  // ---------------------------------------------------------------------
  // Attributes

  fn parse_attribute_lines(&mut self) -> ParseResult<'src, Attributes<'src>> {
    // Most items have none: skip the list and the arena.
    if !self.next_is(TokenKind::BracketL) {
      return Ok(Attributes::default());
    }
    let mut list = Vec::new();
    while self.accept(TokenKind::BracketL).is_some() {
      loop {
        let entry = self.attribute()?;
        check_duplicate(&list, &entry)?;
        if matches!(entry.attribute, Attribute::Cache(_)) {
          self.unstable_features.push(UnstableFeature::CachedRecipes);
        }
        list.push(entry);
        if self.accept(TokenKind::Comma).is_none() {
          self.expect(TokenKind::BracketR)?;
          break;
        }
      }
      self.accept(TokenKind::Comment);
      if !self.next_is(TokenKind::Eof) {
        self.expect(TokenKind::Eol)?;
      }
    }
    Ok(Attributes { list: self.nodes.slice(list) })
  }

  fn attribute(&mut self) -> ParseResult<'src, AttributeEntry<'src>> {
    let name = self.expect(TokenKind::Identifier)?;
    let Some(kind) = AttributeKind::from_name(name.lexeme()) else {
      return Err(error(name, ParseErrorKind::UnknownAttribute { attribute: name.lexeme() }));
    };
    let (min, max) = kind.arity();
    let keyed = kind.is_keyed();
    let mut positional = Vec::new();
    let mut keywords = Vec::new();
    if self.accept(TokenKind::Colon).is_some() {
      positional.push(self.expression()?);
    } else if self.accept(TokenKind::ParenL).is_some() {
      loop {
        if self.accept(TokenKind::ParenR).is_some() {
          break;
        }
        match self.attribute_argument(keyed)? {
          AttributeArgument::Positional(expression) => {
            if !keywords.is_empty() {
              return Err(error(
                expression_start(&expression),
                ParseErrorKind::PositionalAfterKeyword,
              ));
            }
            positional.push(expression);
          }
          AttributeArgument::Keyword { key, value } => {
            let duplicate = keywords
              .iter()
              .any(|(existing, _): &(Name, Option<Expression>)| existing.lexeme() == key.lexeme());
            if duplicate {
              return Err(error(
                key,
                ParseErrorKind::DuplicateAttributeKey { key: key.lexeme(), attribute: kind.name() },
              ));
            }
            keywords.push((key, value));
          }
        }
        if self.accept(TokenKind::Comma).is_none() {
          self.expect(TokenKind::ParenR)?;
          break;
        }
      }
    }
    let count = positional.len();
    if count < min || max.is_some_and(|max| count > max) {
      return Err(error(
        name,
        ParseErrorKind::AttributeArgumentCount {
          attribute: kind.name(),
          found: count,
          expected: arity_description(min, max),
        },
      ));
    }
    let attribute = build_attribute(&self.nodes, kind, name, positional, keywords)?;
    Ok(AttributeEntry { name, attribute })
  }

  fn attribute_argument(&mut self, keyed: bool) -> ParseResult<'src, AttributeArgument<'src>> {
    if keyed && self.next_is(TokenKind::Identifier) {
      let token = self.peek();
      // Only an `x` prefix makes a positional argument; `f` is read as a key.
      let prefixed = token.lexeme() == "x"
        && self.string_touches(token, &[TokenKind::StringToken, TokenKind::FormatStringStart]);
      if !prefixed {
        let key = self.advance();
        let value =
          if self.accept(TokenKind::Equals).is_some() { Some(self.expression()?) } else { None };
        return Ok(AttributeArgument::Keyword { key, value });
      }
    }
    Ok(AttributeArgument::Positional(self.expression()?))
  }

  // ---------------------------------------------------------------------
  // Expressions

  fn expression(&mut self) -> ParseResult<'src, Expression<'src>> {
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
  fn next_is_lone_atom(&mut self) -> bool {
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
  fn lone_atom(&mut self) -> ParseResult<'src, Expression<'src>> {
    use TokenKind::*;
    let token = self.advance();
    let atom = if token.kind == StringToken {
      Expression::StringLiteral(string_literal(&self.nodes, token, false)?)
    } else {
      self.expected.insert(ParenL);
      Expression::Variable { name: token }
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

  fn disjunction(&mut self) -> ParseResult<'src, Expression<'src>> {
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

  fn conjunction(&mut self) -> ParseResult<'src, Expression<'src>> {
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

  fn comparison(&mut self) -> ParseResult<'src, Expression<'src>> {
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
  fn operand(&mut self) -> ParseResult<'src, Expression<'src>> {
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

  fn conditional(&mut self) -> ParseResult<'src, Expression<'src>> {
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
  fn value(&mut self) -> ParseResult<'src, Expression<'src>> {
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

  fn atom(&mut self) -> ParseResult<'src, Expression<'src>> {
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
  fn sequence(&mut self, close: TokenKind) -> ParseResult<'src, &'src [Expression<'src>]> {
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
  fn take_elements(&mut self, base: usize) -> &'src [Expression<'src>] {
    self.nodes.take(&mut self.elements, base)
  }

  fn identifier_value(&mut self) -> ParseResult<'src, Expression<'src>> {
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
      return Ok(Expression::Call { name, arguments });
    }
    Ok(Expression::Variable { name })
  }

  fn assert(&mut self) -> ParseResult<'src, Expression<'src>> {
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
  fn format_string(&mut self) -> ParseResult<'src, Expression<'src>> {
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

// -------------------------------------------------------------------------
// Helpers that need no parser state

/// The first token of an expression as written, including an `x`/`f`
/// prefix (which the tree does not keep as a token).
fn expression_start<'src>(expression: &Expression<'src>) -> Token<'src> {
  let token = expression.first_token();
  let prefixed = match expression {
    Expression::FormatString { .. } => true,
    Expression::StringLiteral(literal) => literal.expand,
    _ => false,
  };
  if prefixed && token.offset > 0 && token.column() > 0 {
    Token { kind: TokenKind::Identifier, offset: token.offset - 1, length: 1, ..token }
  } else {
    token
  }
}

fn error<'src>(token: Token<'src>, kind: ParseErrorKind<'src>) -> Box<SyntaxError<'src>> {
  Box::new(SyntaxError::new(token, SyntaxErrorKind::Parse(kind)))
}

/// The doc text of a comment line: after `#`, trimmed, non-empty.
fn doc_text(comment: Token<'_>) -> Option<&str> {
  let text = comment.lexeme().get(1..)?.trim();
  (!text.is_empty()).then_some(text)
}

fn string_literal<'src>(
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
fn cook<'src>(
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

fn format_piece<'src>(
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

fn backtick<'src>(nodes: &Nodes<'src>, token: Token<'src>) -> ParseResult<'src, Expression<'src>> {
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

fn check_indentation<'src>(value: &str) -> std::result::Result<(), ParseErrorKind<'src>> {
  strings::check_indentation(value).map_err(|problem| match problem {
    strings::IndentationProblem::Empty => ParseErrorKind::IndentationEmpty,
    strings::IndentationProblem::NotWhitespace => ParseErrorKind::IndentationNotWhitespace,
    strings::IndentationProblem::Mixed => ParseErrorKind::IndentationMixed,
  })
}

/// `MAJOR.MINOR.PATCH`, each `0` or 1–9 digits without a leading zero.
fn parse_version(version: &str) -> Option<[u64; 3]> {
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

fn check_minimum_version<'src>(value: &str) -> std::result::Result<(), ParseErrorKind<'src>> {
  let required = parse_version(value)
    .ok_or_else(|| ParseErrorKind::InvalidMinimumVersion { version: value.to_string() })?;
  let current = parse_version(env!("CARGO_PKG_VERSION")).unwrap_or([0; 3]);
  if required > current {
    return Err(ParseErrorKind::MinimumVersionNotMet { version: value.to_string() });
  }
  Ok(())
}

fn literal_argument<'src>(
  attribute: &'static str,
  expression: Expression<'src>,
) -> ParseResult<'src, StringLiteral<'src>> {
  match expression {
    Expression::StringLiteral(literal) => Ok(literal),
    other => Err(error(
      expression_start(&other),
      ParseErrorKind::AttributeArgumentNotLiteral { attribute },
    )),
  }
}

fn build_attribute<'src>(
  nodes: &Nodes<'src>,
  kind: AttributeKind,
  name: Name<'src>,
  positional: Vec<Expression<'src>>,
  keywords: Vec<(Name<'src>, Option<Expression<'src>>)>,
) -> ParseResult<'src, Attribute<'src>> {
  let literals = |arguments: Vec<Expression<'src>>| -> ParseResult<'src, Vec<StringLiteral<'src>>> {
    arguments.into_iter().map(|argument| literal_argument(kind.name(), argument)).collect()
  };
  let mut arguments = positional.into_iter();
  let attribute = match kind {
    AttributeKind::Android => Attribute::Android,
    AttributeKind::Arg => {
      let literal = single(name, literals(arguments.collect())?)?;
      Attribute::Arg(nodes.alloc(build_arg(literal, keywords)?))
    }
    AttributeKind::Cache => Attribute::Cache(nodes.alloc(build_cache(keywords)?)),
    AttributeKind::Confirm => Attribute::Confirm(arguments.next()),
    AttributeKind::Continue => {
      Attribute::Continue(nodes.slice(signals(literals(arguments.collect())?)?))
    }
    AttributeKind::Default => Attribute::Default,
    AttributeKind::Doc => Attribute::Doc(arguments.next()),
    AttributeKind::Dragonfly => Attribute::Dragonfly,
    AttributeKind::Env => match (arguments.next(), arguments.next()) {
      (Some(key), Some(value)) => Attribute::Env(key, value),
      _ => return Err(arity_bug(name)),
    },
    AttributeKind::ExitMessage => Attribute::ExitMessage,
    AttributeKind::Extension => Attribute::Extension(single(name, literals(arguments.collect())?)?),
    AttributeKind::Freebsd => Attribute::Freebsd,
    AttributeKind::Group => Attribute::Group(single(name, literals(arguments.collect())?)?),
    AttributeKind::Linux => Attribute::Linux,
    AttributeKind::Macos => Attribute::Macos,
    AttributeKind::Metadata => Attribute::Metadata(nodes.slice(literals(arguments.collect())?)),
    AttributeKind::Netbsd => Attribute::Netbsd,
    AttributeKind::NoCd => Attribute::NoCd,
    AttributeKind::NoExitMessage => Attribute::NoExitMessage,
    AttributeKind::NoQuiet => Attribute::NoQuiet,
    AttributeKind::Openbsd => Attribute::Openbsd,
    AttributeKind::Parallel => Attribute::Parallel,
    AttributeKind::PositionalArguments => Attribute::PositionalArguments,
    AttributeKind::Private => Attribute::Private,
    AttributeKind::Script => {
      let mut literals = literals(arguments.collect())?.into_iter();
      Attribute::Script(
        literals.next().map(|command| Interpreter { command, arguments: nodes.slice(literals) }),
      )
    }
    AttributeKind::Shell => Attribute::Shell,
    AttributeKind::Timestamp => Attribute::Timestamp(arguments.next()),
    AttributeKind::Unix => Attribute::Unix,
    AttributeKind::Windows => Attribute::Windows,
    AttributeKind::WorkingDirectory => match arguments.next() {
      Some(path) => Attribute::WorkingDirectory(path),
      None => return Err(arity_bug(name)),
    },
  };
  Ok(attribute)
}

/// Arity is checked before attributes are built; this only avoids a panic.
fn arity_bug(name: Name<'_>) -> Box<SyntaxError<'_>> {
  error(name, ParseErrorKind::UnknownAttribute { attribute: name.lexeme() })
}

fn single<'src>(
  name: Name<'src>,
  literals: Vec<StringLiteral<'src>>,
) -> ParseResult<'src, StringLiteral<'src>> {
  literals.into_iter().next().ok_or_else(|| arity_bug(name))
}

fn signals(literals: Vec<StringLiteral<'_>>) -> ParseResult<'_, Vec<Signal>> {
  let mut signals = Vec::new();
  for literal in literals {
    let Some(signal) = Signal::continuable(literal.cooked) else {
      return Err(error(
        literal.token,
        ParseErrorKind::InvalidSignal { signal: literal.cooked.to_string() },
      ));
    };
    signals.push(signal);
  }
  signals.sort();
  signals.dedup();
  Ok(signals)
}

type Keywords<'src> = Vec<(Name<'src>, Option<Expression<'src>>)>;

fn take_key<'src>(
  keywords: &mut Keywords<'src>,
  key: &str,
) -> Option<(Name<'src>, Option<Expression<'src>>)> {
  let index = keywords.iter().position(|(name, _)| name.lexeme() == key)?;
  Some(keywords.remove(index))
}

fn required_value<'src>(
  entry: Option<(Name<'src>, Option<Expression<'src>>)>,
) -> ParseResult<'src, Option<Keyed<'src, Expression<'src>>>> {
  match entry {
    None => Ok(None),
    Some((key, Some(value))) => Ok(Some(Keyed { key, value })),
    Some((key, None)) => {
      Err(error(key, ParseErrorKind::AttributeKeyRequiresValue { key: key.lexeme() }))
    }
  }
}

/// The first unknown key in alphabetical order is reported, as the reference does.
fn unknown_keys<'src>(keywords: &Keywords<'src>, attribute: &'static str) -> ParseResult<'src, ()> {
  match keywords.iter().min_by_key(|(key, _)| key.lexeme()) {
    Some((key, _)) => {
      Err(error(*key, ParseErrorKind::UnknownAttributeKey { key: key.lexeme(), attribute }))
    }
    None => Ok(()),
  }
}

fn build_cache<'src>(mut keywords: Keywords<'src>) -> ParseResult<'src, CacheAttribute<'src>> {
  let extra = required_value(take_key(&mut keywords, "extra"))?;
  let inputs = required_value(take_key(&mut keywords, "inputs"))?;
  let outputs = required_value(take_key(&mut keywords, "outputs"))?;
  unknown_keys(&keywords, AttributeKind::Cache.name())?;
  Ok(CacheAttribute { extra, inputs, outputs })
}

/// `long`/`short`: bare or `=LITERAL`; the option name is validated.
fn option_key<'src>(
  entry: Option<(Name<'src>, Option<Expression<'src>>)>,
  parameter: &str,
  short: bool,
) -> ParseResult<'src, Option<Keyed<'src, Option<StringLiteral<'src>>>>> {
  let Some((key, value)) = entry else {
    return Ok(None);
  };
  let literal = match value {
    None => None,
    Some(Expression::StringLiteral(literal)) => Some(literal),
    Some(_) => {
      return Err(error(
        key,
        ParseErrorKind::AttributeArgumentNotLiteral { attribute: AttributeKind::Arg.name() },
      ))
    }
  };
  let option = match &literal {
    Some(literal) => literal.cooked.to_string(),
    None if short => parameter.chars().next().map(String::from).unwrap_or_default(),
    None => parameter.to_string(),
  };
  let parameter = parameter.to_string();
  // No parameter is named ``: that is reported, not the name derived from it.
  let problem = if parameter.is_empty() && literal.is_none() {
    None
  } else if option.is_empty() {
    Some(ParseErrorKind::OptionNameEmpty { parameter })
  } else if option.contains('=') {
    Some(ParseErrorKind::OptionNameContainsEqualSign { parameter })
  } else if option.starts_with('-') {
    Some(ParseErrorKind::OptionNameStartsWithDash { parameter })
  } else if short && option.chars().count() > 1 {
    Some(ParseErrorKind::ShortOptionMultipleCharacters { parameter })
  } else {
    None
  };
  if let Some(problem) = problem {
    let token = literal.as_ref().map_or(key, |literal| literal.token);
    return Err(error(token, problem));
  }
  Ok(Some(Keyed { key, value: literal }))
}

/// A switch key (`flag`, `multiple`) that takes no value.
fn switch_key<'src>(
  entry: Option<(Name<'src>, Option<Expression<'src>>)>,
  parameter: &str,
) -> ParseResult<'src, Option<Keyed<'src, ()>>> {
  match entry {
    None => Ok(None),
    Some((key, None)) => Ok(Some(Keyed { key, value: () })),
    Some((key, Some(_))) if key.lexeme() == "flag" => {
      Err(error(key, ParseErrorKind::FlagTakesNoValue { argument: parameter.to_string() }))
    }
    Some((key, Some(_))) => {
      Err(error(key, ParseErrorKind::AttributeKeyTakesNoValue { key: key.lexeme() }))
    }
  }
}

fn bound_key<'src>(
  entry: Option<(Name<'src>, Option<Expression<'src>>)>,
  name: &'static str,
) -> ParseResult<'src, Option<Keyed<'src, (StringLiteral<'src>, usize)>>> {
  let Some(Keyed { key, value }) = required_value(entry)? else {
    return Ok(None);
  };
  let Expression::StringLiteral(literal) = value else {
    return Err(error(
      key,
      ParseErrorKind::AttributeArgumentNotLiteral { attribute: AttributeKind::Arg.name() },
    ));
  };
  let text = literal.cooked;
  let well_formed = !text.is_empty()
    && text.bytes().all(|b| b.is_ascii_digit())
    && (text == "0" || !text.starts_with('0'));
  let invalid = |detail: Option<String>| {
    error(
      literal.token,
      ParseErrorKind::InvalidArgBound { key: name, value: text.to_string(), detail },
    )
  };
  if !well_formed {
    return Err(invalid(None));
  }
  let number =
    text.parse::<usize>().map_err(|parse_error| invalid(Some(parse_error.to_string())))?;
  Ok(Some(Keyed { key, value: (literal, number) }))
}

fn build_arg<'src>(
  name: StringLiteral<'src>,
  mut keywords: Keywords<'src>,
) -> ParseResult<'src, ArgAttribute<'src>> {
  let parameter = name.cooked.to_string();
  let long = option_key(take_key(&mut keywords, "long"), &parameter, false)?;
  let short = option_key(take_key(&mut keywords, "short"), &parameter, true)?;
  let pattern = required_value(take_key(&mut keywords, "pattern"))?;
  let value = required_value(take_key(&mut keywords, "value"))?;
  let is_option = long.is_some() || short.is_some();
  if let Some(value) = &value {
    if !is_option {
      return Err(error(value.key, ParseErrorKind::ArgKeyRequiresOption { key: "value" }));
    }
  }
  let flag = switch_key(take_key(&mut keywords, "flag"), &parameter)?;
  if let Some(flag) = &flag {
    if !is_option {
      return Err(error(flag.key, ParseErrorKind::ArgKeyRequiresOption { key: "flag" }));
    }
    let conflict = if value.is_some() {
      Some("value")
    } else if pattern.is_some() {
      Some("pattern")
    } else {
      None
    };
    if let Some(other) = conflict {
      return Err(error(
        flag.key,
        ParseErrorKind::FlagConflict { argument: parameter.clone(), other },
      ));
    }
  }
  let multiple = switch_key(take_key(&mut keywords, "multiple"), &parameter)?;
  if let Some(multiple) = &multiple {
    if !is_option {
      return Err(error(multiple.key, ParseErrorKind::ArgKeyRequiresOption { key: "multiple" }));
    }
  }
  let max = bound_key(take_key(&mut keywords, "max"), "max")?;
  let min = bound_key(take_key(&mut keywords, "min"), "min")?;
  if let (Some(min), Some(max)) = (&min, &max) {
    if min.value.1 > max.value.1 {
      return Err(error(
        min.key,
        ParseErrorKind::ArgMinExceedsMax { min: min.value.1, max: max.value.1 },
      ));
    }
  }
  let help = required_value(take_key(&mut keywords, "help"))?;
  unknown_keys(&keywords, AttributeKind::Arg.name())?;
  Ok(ArgAttribute { name, long, short, pattern, value, flag, multiple, min, max, help })
}

/// Which attributes may be repeated on one item, checked as each is added.
fn check_duplicate<'src>(
  list: &[AttributeEntry<'src>],
  entry: &AttributeEntry<'src>,
) -> ParseResult<'src, ()> {
  let first = |entries: &mut dyn Iterator<Item = &AttributeEntry<'src>>| {
    entries.next().map(|existing| existing.name.line as usize + 1)
  };
  let second = entry.name.line as usize + 1;
  let same_name =
    list.iter().filter(|existing| existing.attribute.kind() == entry.attribute.kind());
  match &entry.attribute {
    Attribute::Arg(arg) => {
      let mut same = same_name.filter(|existing| {
        matches!(&existing.attribute, Attribute::Arg(other) if other.name.cooked == arg.name.cooked)
      });
      if let Some(first) = first(&mut same) {
        return Err(error(
          entry.name,
          ParseErrorKind::DuplicateArgAttribute {
            argument: arg.name.cooked.to_string(),
            first,
            second,
          },
        ));
      }
    }
    Attribute::Group(group) => {
      let mut same = same_name.filter(|existing| {
        matches!(&existing.attribute, Attribute::Group(other) if other.cooked == group.cooked)
      });
      if let Some(first) = first(&mut same) {
        return Err(error(
          entry.name,
          ParseErrorKind::DuplicateGroup { group: group.token.lexeme(), first, second },
        ));
      }
    }
    attribute if is_repeatable(attribute) => {}
    attribute => {
      let mut same = same_name;
      if let Some(first) = first(&mut same) {
        return Err(error(
          entry.name,
          ParseErrorKind::DuplicateAttribute {
            attribute: attribute.name().to_string(),
            first,
            second,
          },
        ));
      }
    }
  }
  Ok(())
}

/// Pairs of recipe attributes that exclude each other.
/// Every `[arg]` names a parameter; checked as soon as the parameters are
/// parsed, so it wins over later parse errors.
fn check_arg_parameters<'src>(
  attributes: &Attributes<'src>,
  parameters: &[Parameter<'src>],
) -> ParseResult<'src, ()> {
  for entry in attributes.list {
    if let Attribute::Arg(arg) = &entry.attribute {
      let argument = &arg.name.cooked;
      if !parameters.iter().any(|parameter| parameter.name.lexeme() == *argument) {
        return Err(error(
          arg.name.token,
          ParseErrorKind::UndefinedArgument { argument: argument.to_string() },
        ));
      }
    }
  }
  Ok(())
}

/// The `[arg]` rules about the parameter itself, checked as soon as it is
/// parsed, so they win over later parse errors.
fn check_parameter_arg<'src>(
  attributes: &Attributes<'src>,
  parameter: &Parameter<'src>,
) -> ParseResult<'src, ()> {
  for entry in attributes.list {
    let Attribute::Arg(arg) = &entry.attribute else {
      continue;
    };
    let name = parameter.name.lexeme();
    if arg.name.cooked != name {
      continue;
    }
    if arg.flag.is_some() && parameter.default.is_some() {
      return Err(error(parameter.name, ParseErrorKind::FlagDefault { parameter: name }));
    }
    if arg.multiple.is_none() && !parameter.kind.is_variadic() {
      if let Some(max) = &arg.max {
        return Err(error(max.key, ParseErrorKind::BoundRequiresMultiple { key: "max" }));
      }
      if let Some(min) = &arg.min {
        return Err(error(min.key, ParseErrorKind::BoundRequiresMultiple { key: "min" }));
      }
    }
  }
  Ok(())
}

/// Two `[arg]`s claiming one option, checked once the recipe's name is
/// parsed. The attribute later in canonical order is
/// blamed, as if they were processed in that order.
fn check_duplicate_options<'src>(
  attributes: &Attributes<'src>,
  recipe: Name<'src>,
) -> ParseResult<'src, ()> {
  let mut options: Vec<(String, Token<'src>, &ArgAttribute<'src>)> = Vec::new();
  for entry in attributes.list {
    let Attribute::Arg(arg) = &entry.attribute else {
      continue;
    };
    let parameter = arg.name.cooked;
    let long = arg.long.as_ref().map(|long| match &long.value {
      Some(literal) => (format!("--{}", literal.cooked), literal.token),
      None => (format!("--{parameter}"), long.key),
    });
    let short = arg.short.as_ref().map(|short| match &short.value {
      Some(literal) => (format!("-{}", literal.cooked), literal.token),
      None => (format!("-{}", parameter.chars().next().unwrap_or_default()), short.key),
    });
    for (option, token) in long.into_iter().chain(short) {
      if let Some((_, first_token, first_arg)) =
        options.iter().find(|(claimed, _, _)| *claimed == option)
      {
        let blamed = if super::attribute_order::compare_args(arg, first_arg).is_lt() {
          *first_token
        } else {
          token
        };
        return Err(error(
          blamed,
          ParseErrorKind::DuplicateOption { recipe: recipe.lexeme(), option },
        ));
      }
      options.push((option, token, arg));
    }
  }
  Ok(())
}

fn check_recipe_attributes<'src>(
  attributes: &Attributes<'src>,
  name: Name<'src>,
) -> ParseResult<'src, ()> {
  let has = |wanted| attributes.list.iter().any(|entry| entry.attribute.kind() == wanted);
  for (first, second) in CONFLICTS {
    if has(first) && has(second) {
      return Err(error(
        name,
        ParseErrorKind::ConflictingAttributes {
          recipe: name.lexeme(),
          first: first.name(),
          second: second.name(),
        },
      ));
    }
  }
  Ok(())
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::syntax::lexer::lex;

  fn parse_text(src: &str) -> std::result::Result<Ast<'static>, String> {
    let source: &'static sources::Source =
      Box::leak(Box::new(sources::Source::new(src, "justfile")));
    let trees: &'static Trees<'static> = Box::leak(Box::new(Trees::new()));
    let tokens = lex(source).map_err(|e| format!("lex: {e}"))?;
    parse(&tokens, trees).map_err(|e| format!("{e} {}:{}", e.token.line + 1, e.token.column() + 1))
  }

  /// (source, message, 1-based line, 1-based column), checked against the reference binary.
  #[test]
  fn errors() {
    #[rustfmt::skip]
    let cases: &[(&str, &str, usize, usize)] = &[
      ("foo", "expected '*', ':', '$', identifier, or '+', but found end of file", 1, 4),
      ("foo bar", "expected '*', ':', '$', '=', identifier, or '+', but found end of file", 1, 8),
      ("foo x=y 'z':", "expected '*', ':', '$', identifier, '(', or '+', but found string", 1, 9),
      ("foo: 'x'", "expected '&&', '*', comment, end of file, end of line, identifier, indent, or '(', but found string", 1, 6),
      ("foo: bar 'x'", "expected '&&', '*', '::', comment, end of file, end of line, identifier, indent, or '(', but found string", 1, 10),
      ("foo: (bar", "expected '*', backtick, '!', '[', '::', identifier, '(', ')', '/', or string, but found end of file", 1, 10),
      ("x :=", "expected backtick, '!', '[', identifier, '(', '/', or string, but found end of file", 1, 5),
      ("x := 'a' foo:", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', '=~', '+', '++', or '/', but found identifier", 1, 10),
      ("p := x \"$HOME\"", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', '=~', '(', '+', '++', or '/', but found string", 1, 8),
      ("x := 'a' == 'b' == 'c'", "expected '&&', '||', comment, end of file, end of line, '+', '++', or '/', but found '=='", 1, 17),
      ("x := if 'p' q 'r' { 'a' } else { 'b' }", "expected '&&', '!=', '!~', '||', '{', '==', '=~', '+', '++', or '/', but found identifier", 1, 13),
      ("x := if 'a' == 'b' { 'c' 'd' } else { 'e' }", "expected '&&', '!=', '!~', '||', '}', '==', '=~', '+', '++', or '/', but found string", 1, 26),
      ("x := if 'a' == 'b' { 'c' } else 'd'", "expected '{', but found string", 1, 33),
      ("x := if 'a' == 'b' { 'c' } elze { 'd' }", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', or '=~', but found identifier", 1, 28),
      ("x := ('a' 'b')", "expected '&&', '!=', '!~', '||', '==', '=~', ')', '+', '++', or '/', but found string", 1, 11),
      ("x := f(a b)", "expected '&&', '!=', '!~', '||', ',', '==', '=~', '(', ')', '+', '++', or '/', but found identifier", 1, 10),
      ("foo:\n  echo {{ 'a' 'b' }}", "expected '&&', '!=', '!~', '||', '==', '=~', '}}', '+', '++', or '/', but found string", 2, 15),
      ("foo:\n  echo {{ }}", "expected backtick, '!', '[', identifier, '(', '/', or string, but found '}}'", 2, 11),
      ("y := f'{{ z w }}'", "expected '&&', '!=', '!~', '||', '==', '=~', format string continue, format string end, '(', '+', '++', or '/', but found identifier", 1, 13),
      ("x := !", "expected backtick, '!', '[', identifier, '(', or string, but found end of file", 1, 7),
      ("foo: (bar 'x'\n  echo", "expected '&&', '*', backtick, '!', '!=', '!~', '||', '[', '==', '=~', identifier, '(', ')', '+', '++', '/', or string, but found end of file", 2, 7),
      ("[private,linux unix]\nfoo:", "expected ']', ':', ',', or '(', but found identifier", 1, 16),
      ("[a,b c]", "unknown attribute `a`", 1, 2),
      ("[private]", "expected '@', '[', comment, end of file, end of line, or identifier, but found end of file", 1, 10),
      (":", "expected '@', '[', comment, end of file, end of line, or identifier, but found ':'", 1, 1),
      ("foo: &&", "expected '*', identifier, or '(', but found end of file", 1, 8),
      ("alias a := foo bar", "expected '::', comment, end of file, or end of line, but found identifier", 1, 16),
      ("f(a b) := a", "expected ',' or ')', but found identifier", 1, 5),
      ("set shell := 'sh'", "expected '[', but found string", 1, 14),
      ("x = 'a'", "expected '*', ':', '$', identifier, or '+', but found '='", 1, 3),
      ("[private] [linux]\nfoo:", "expected comment, end of file, or end of line, but found '['", 1, 11),
      ("[private,]\nfoo:", "expected identifier, but found ']'", 1, 10),
      ("[private]\n\nfoo:", "extraneous attribute", 1, 1),
      ("[private]\n[linux]\n# c\nfoo:", "extraneous attributes", 1, 1),
      ("foo:\n\n  echo", "expected '@', '[', comment, end of file, end of line, or identifier, but found indent", 3, 1),
      ("set foo := 'x'", "unknown setting `foo`", 1, 5),
      ("set if := 'x'", "unknown setting `if`", 1, 5),
      ("set quiet := yes", "expected keyword `true` or `false` but found identifier `yes`", 1, 14),
      ("set quiet := 'true'", "expected identifier, but found string", 1, 14),
      ("set tempdir", "expected ':=', but found end of file", 1, 12),
      ("set shell := []", "expected backtick, '!', '[', identifier, '(', '/', or string, but found ']'", 1, 15),
      ("set indentation := x'  '", "`indentation` setting must be a plain string literal", 1, 5),
      ("set indentation := ''", "indentation must not be empty", 1, 20),
      ("set indentation := 'a'", "indentation must be spaces or tabs", 1, 20),
      ("set indentation := ' \t'", "indentation may not be mixed", 1, 20),
      ("set minimum-version := '1.58'", "`minimum-version` setting has invalid version `1.58`: expected `MAJOR.MINOR.PATCH`", 1, 24),
      ("set minimum-version := '999.0.0'", "justfile requires just 999.0.0 or later, but using 1.58.0", 1, 24),
      ("set minimum-version := '01.2.3'", "`minimum-version` setting has invalid version `01.2.3`: expected `MAJOR.MINOR.PATCH`", 1, 24),
      ("foo $+p:", "expected identifier, but found '+'", 1, 6),
      ("foo *a +b:", "expected ':' or '=', but found '+'", 1, 8),
      ("foo *a b:", "parameter `b` follows variadic parameter", 1, 8),
      ("foo +a=x b:", "parameter `b` follows variadic parameter", 1, 10),
      ("foo: *(bar x)", "mapped dependencies must have starred argument", 1, 6),
      ("foo: *(bar *x *y)", "mapped dependencies may not have multiple starred arguments", 1, 15),
      ("foo: (bar *x)", "starred arguments may not be used outside mapped dependencies", 1, 11),
      ("import foo 'bar'", "expected keyword `x` but found identifier `foo`", 1, 8),
      ("import f'bar'", "expected keyword `x` but found identifier `f`", 1, 8),
      ("x := `#!a`", "backticks may not start with `#!`", 1, 6),
      ("x := \"\\q\"", "`\\q` is not a valid escape sequence", 1, 6),
      ("x := \"\"\"\n  hello\n  \\z\n\"\"\"", "`\\z` is not a valid escape sequence", 1, 6),
      ("x := ( # c\n)", "expected backtick, '!', '[', identifier, '(', '/', or string, but found comment", 1, 8),
      ("[doc(\"x\")]\nalias a := b c", "alias `a` has invalid attribute `doc`", 2, 7),
      ("[group(\"x\")]\nimport \"foo\"", "import `\"foo\"` has invalid attribute `group`", 2, 8),
      ("[doc(\"x\")]\nset lists := x", "setting `lists` has invalid attribute `doc`", 2, 5),
      ("[private]\nunexport FOO", "unexport `FOO` has invalid attribute `private`", 2, 10),
      ("[no-cd]\nmod foo", "module `foo` has invalid attribute `no-cd`", 2, 5),
      ("[linux]\n[linux]\nfoo:", "attribute `linux` first used on line 1 is duplicated on line 2", 2, 2),
      ("[group('a')]\n[group(\"a\")]\nfoo:", "`[group(\"a\")]` attribute first used on line 1 is duplicated on line 2", 2, 2),
      ("[arg('a')]\n[arg('a')]\nfoo a:", "attribute for argument `a` first used on line 1 is duplicated on line 2", 2, 2),
      ("[no-cd, working-directory('x')]\nfoo:", "recipe `foo` has both `[no-cd]` and `[working-directory]` attributes", 2, 1),
      ("[exit-message]\n[no-exit-message]\nfoo:", "recipe `foo` has both `[exit-message]` and `[no-exit-message]` attributes", 3, 1),
      ("[script, shell]\nfoo:", "recipe `foo` has both `[script]` and `[shell]` attributes", 2, 1),
      ("[env('a')]\nfoo:", "attribute `env` got 1 argument but takes 2 arguments", 1, 2),
      ("[confirm('a', 'b')]\nfoo:", "attribute `confirm` got 2 arguments but takes at most 1 argument", 1, 2),
      ("[private: 'x']\nfoo:", "attribute `private` got 1 argument but takes 0 arguments", 1, 2),
      ("[group(a)]\nfoo:", "attribute `group` arguments must be string literals", 1, 8),
      ("[continue('SIGTERM')]\nfoo:", "invalid signal `SIGTERM`: expected `SIGHUP`, `SIGINT`, or `SIGQUIT`", 1, 11),
      ("[metadata]\nfoo:", "attribute `metadata` got 0 arguments but takes at least 1 argument", 1, 2),
      ("[cache(extra)]\nfoo:\n  #!sh", "attribute key `extra` requires value", 1, 8),
      ("[cache(foo='a')]\nfoo:\n  #!sh", "unknown key `foo` for `cache` attribute", 1, 8),
      ("[arg('a', long='x', long)]\nfoo a:", "duplicate key `long` for `arg` attribute", 1, 21),
      ("[arg('a', long, 'b')]\nfoo a:", "positional attribute arguments cannot follow keyword attribute arguments", 1, 17),
      ("[arg('a', foo)]\nfoo a:", "unknown key `foo` for `arg` attribute", 1, 11),
      ("[arg('a', help)]\nfoo a:", "attribute key `help` requires value", 1, 11),
      ("[arg('a', multiple='x')]\nfoo a:", "attribute key `multiple` takes no value", 1, 11),
      ("[arg('a', flag='x')]\nfoo a:", "`flag` attribute for argument `a` takes no value", 1, 11),
      ("[arg('a', long='=')]\nfoo a:", "option name for parameter `a` contains equal sign", 1, 16),
      ("[arg('a', long='')]\nfoo a:", "option name for parameter `a` is empty", 1, 16),
      ("[arg('a', short='-x')]\nfoo a:", "option name for parameter `a` starts with dash", 1, 17),
      ("[arg('a', short='xy')]\nfoo a:", "short option name for parameter `a` contains multiple characters", 1, 17),
      ("[arg('a', value='y')]\nfoo a:", "argument attribute `value` only valid with `long` or `short`", 1, 11),
      ("[arg('a', long, flag, value='y')]\nfoo a:", "argument `a` may not have both `flag` and `value` attributes", 1, 17),
      ("[arg('a', long, flag, pattern='y')]\nfoo a:", "argument `a` may not have both `flag` and `pattern` attributes", 1, 17),
      ("[arg('a', long, max='01')]\nfoo a:", "invalid `max` value `01`", 1, 21),
      ("[arg('a', long, max='18446744073709551616')]\nfoo a:", "invalid `max` value `18446744073709551616`: number too large to fit in target type", 1, 21),
      ("[arg('a', long, max='2', min='3')]\nfoo a:", "argument attribute `min` `3` exceeds `max` `2`", 1, 26),
      ("[arg('a', long=a)]\nfoo a:", "attribute `arg` arguments must be string literals", 1, 11),
      ("x := \u{feff}y", "expected backtick, '!', '[', identifier, '(', '/', or string, but found byte order mark", 1, 6),
      ("x := 'a' + if 'a' == 'b' { 'c' } else { 'd' } + 'e'", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', or '=~', but found '+'", 1, 47),
      ("x := assert", "expected '(', but found end of file", 1, 12),
      ("x := f'x{{", "expected backtick, '!', '[', identifier, '(', '/', or string, but found end of file", 1, 11),
      ("set shell := ['a' 'b']", "expected '&&', '!=', '!~', '||', ']', ',', '==', '=~', '+', '++', or '/', but found string", 1, 19),
      ("mod foo y'bar'", "expected keyword `x` but found identifier `y`", 1, 9),
      ("import x'$NOPE_Y'", "shell expansion failed: error looking key 'NOPE_Y' up: environment variable not found", 1, 9),
      ("export eager x := 'a'", "expected '*', ':', '$', '=', identifier, or '+', but found ':='", 1, 16),
      ("unexport X Y", "expected '*', ':', '$', '=', identifier, or '+', but found end of file", 1, 13),
      ("alias f = g", "expected '*', ':', '$', identifier, '(', or '+', but found end of file", 1, 12),
      ("x := 'a' &&", "expected backtick, '!', '[', identifier, '(', '/', or string, but found end of file", 1, 12),
      ("f(a b", "expected ',' or ')', but found identifier", 1, 5),
      ("[private]\nf(a) := a", "function `f` has invalid attribute `private`", 2, 1),
      ("x := \"\"\"\\u{}\"\"\"", "unicode escape sequences must not be empty", 1, 6),
      ("x := \"\\u{D800}\"", "unicode escape sequence value `D800` greater than maximum valid code point `10FFFF`", 1, 6),
      ("[doc]\n[doc]\nfoo:", "attribute `doc` first used on line 1 is duplicated on line 2", 2, 2),
      ("x := 'a' +\n  'b'", "expected backtick, '!', '[', identifier, '(', '/', or string, but found end of line", 1, 11),
      ("foo:\n  echo a\n# c\n  echo b", "expected '@', '[', comment, end of file, end of line, or identifier, but found indent", 4, 1),
      ("x := 'a'\n\u{feff}y := 'b'", "expected '@', '[', comment, end of file, end of line, or identifier, but found byte order mark", 2, 1),
      ("[private]\n[linux]\n\nfoo:", "extraneous attributes", 1, 1),
      ("[private]\nfoo: (", "expected identifier, but found end of file", 2, 7),
      ("foo +a *b:", "expected ':' or '=', but found '*'", 1, 8),
      ("foo $+p:", "expected identifier, but found '+'", 1, 6),
      ("foo: && bar &&", "expected '*', '::', comment, end of file, end of line, identifier, indent, or '(', but found '&&'", 1, 13),
      ("foo: bar && baz (qux", "expected '*', backtick, '!', '[', '::', identifier, '(', ')', '/', or string, but found end of file", 1, 21),
      ("foo: *bar", "expected '(', but found identifier", 1, 7),
      ("foo: *(bar", "expected '*', backtick, '!', '[', '::', identifier, '(', ')', '/', or string, but found end of file", 1, 11),
      ("x := 'a' == 'b' + 'c' != 'd'", "expected '&&', '||', comment, end of file, end of line, '+', '++', or '/', but found '!='", 1, 23),
      ("x := if 'a' == 'b' { 'c' } else { 'd' } + 'e'", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', or '=~', but found '+'", 1, 41),
      ("x := assert 'a'", "expected '(', but found string", 1, 13),
      ("x := assert('a' == 'b',)", "expected backtick, '!', '[', identifier, '(', '/', or string, but found ')'", 1, 24),
      ("x := f 'a'", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', '=~', '(', '+', '++', or '/', but found string", 1, 8),
      ("x := x 'a'", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', '=~', '(', '+', '++', or '/', but found string", 1, 8),
      ("x := f`a`", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', '=~', '(', '+', '++', or '/', but found backtick", 1, 7),
      ("set shell := 'sh' + 'x'", "expected '[', but found string", 1, 14),
      ("set shell", "expected ':=', but found end of file", 1, 10),
      ("set minimum-version := x'1.0.0'", "`minimum-version` setting must be a plain string literal", 1, 5),
      ("set minimum-version := '1.0.0' + ''", "`minimum-version` setting must be a plain string literal", 1, 5),
      ("set minimum-version := '1.58.1'", "justfile requires just 1.58.1 or later, but using 1.58.0", 1, 24),
      ("set minimum-version := '1.2.3-rc1'", "`minimum-version` setting has invalid version `1.2.3-rc1`: expected `MAJOR.MINOR.PATCH`", 1, 24),
      ("set indentation := '''  '''", "`indentation` setting must be a plain string literal", 1, 5),
      ("import 'a' 'b'", "expected comment, end of file, or end of line, but found string", 1, 12),
      ("import", "expected '*', ':', '$', identifier, or '+', but found end of file", 1, 7),
      ("mod", "expected '*', ':', '$', identifier, or '+', but found end of file", 1, 4),
      ("mod foo 'a' 'b'", "expected comment, end of file, or end of line, but found string", 1, 13),
      ("unexport", "expected '*', ':', '$', identifier, or '+', but found end of file", 1, 9),
      ("alias a := b::c::", "expected identifier, but found end of file", 1, 18),
      ("[arg('a', long='x', min='3', max='x')]\nfoo a:", "invalid `max` value `x`", 1, 34),
      ("[arg('a', long='x', min='x', max='3')]\nfoo a:", "invalid `min` value `x`", 1, 25),
      ("[arg('a', long='x', value)]\nfoo a:", "attribute key `value` requires value", 1, 21),
      ("[arg('a', flag)]\nfoo a:", "argument attribute `flag` only valid with `long` or `short`", 1, 11),
      ("[arg('a', multiple)]\nfoo a:", "argument attribute `multiple` only valid with `long` or `short`", 1, 11),
      ("[group(f'x')]\nfoo:", "attribute `group` arguments must be string literals", 1, 8),
      ("[arg('a', long, help='x', help='y')]\nfoo a:", "duplicate key `help` for `arg` attribute", 1, 27),
      ("[cache, cache]\nfoo:", "attribute `cache` first used on line 1 is duplicated on line 1", 1, 9),
      ("[cache('a')]\nfoo:", "attribute `cache` got 1 argument but takes 0 arguments", 1, 2),
      ("[doc('a', 'b')]\nfoo:", "attribute `doc` got 2 arguments but takes at most 1 argument", 1, 2),
      ("[metadata(a)]\nfoo:", "attribute `metadata` arguments must be string literals", 1, 11),
      ("[extension('a', 'b')]\nfoo:", "attribute `extension` got 2 arguments but takes 1 argument", 1, 2),
      ("[working-directory]\nfoo:", "attribute `working-directory` got 0 arguments but takes 1 argument", 1, 2),
      ("[timestamp('a')]\n[timestamp]\nfoo:", "attribute `timestamp` first used on line 1 is duplicated on line 2", 2, 2),
      ("[Private]\nfoo:", "unknown attribute `Private`", 1, 2),
      ("[private:]\nfoo:", "expected backtick, '!', '[', identifier, '(', '/', or string, but found ']'", 1, 10),
      ("[private:'a' 'b']\nfoo:", "attribute `private` got 1 argument but takes 0 arguments", 1, 2),
      ("x := \"a\" \"b\"", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', '=~', '+', '++', or '/', but found string", 1, 10),
      ("x := 'a' +", "expected backtick, '!', '[', identifier, '(', '/', or string, but found end of file", 1, 11),
      ("foo: bar::", "expected identifier, but found end of file", 1, 11),
      ("foo: = 'x'", "expected '&&', '*', comment, end of file, end of line, identifier, indent, or '(', but found '='", 1, 6),
      ("@", "expected identifier, but found end of file", 1, 2),
      ("@foo x := 'a'", "expected '*', ':', '$', '=', identifier, or '+', but found ':='", 1, 8),
      ("x := (", "expected backtick, '!', '[', identifier, '(', '/', or string, but found end of file", 1, 7),
      ("x := [", "expected backtick, '!', '[', ']', identifier, '(', '/', or string, but found end of file", 1, 7),
      ("x := f(", "expected backtick, '!', '[', identifier, '(', ')', '/', or string, but found end of file", 1, 8),
      ("x := f(,)", "expected backtick, '!', '[', identifier, '(', ')', '/', or string, but found ','", 1, 8),
      ("x := ['a' 'b']", "expected '&&', '!=', '!~', '||', ']', ',', '==', '=~', '+', '++', or '/', but found string", 1, 11),
      ("[private]\n[linux]\n# c\nfoo:", "extraneous attributes", 1, 1),
      ("[private, linux]\n# c\nfoo:", "extraneous attributes", 1, 1),
      ("x := f\"a{{ 'b' }}\\q\"", "`\\q` is not a valid escape sequence", 1, 16),
      ("x := f\"\\q{{ 'b' }}\"", "`\\q` is not a valid escape sequence", 1, 7),
      ("x := f\"a{{ 'b' }}c{{ 'd' }}\\z\"", "`\\z` is not a valid escape sequence", 1, 26),
      ("x := f'a{{ }}'", "expected backtick, '!', '[', identifier, '(', '/', or string, but found format string end", 1, 12),
      ("x := f'{{ 'a' }}{{ 'b' 'c' }}'", "expected '&&', '!=', '!~', '||', '==', '=~', format string continue, format string end, '+', '++', or '/', but found string", 1, 24),
      ("x := x\"\\q\"", "`\\q` is not a valid escape sequence", 1, 7),
      ("import?", "expected identifier or string, but found end of file", 1, 8),
      ("import? x", "expected string, but found end of file", 1, 10),
      ("mod foo x", "expected '*', ':', '$', '=', identifier, or '+', but found end of file", 1, 10),
      ("mod? foo y 'a'", "expected keyword `x` but found identifier `y`", 1, 10),
      ("set shell := [", "expected backtick, '!', '[', identifier, '(', '/', or string, but found end of file", 1, 15),
      ("set quiet := true false", "expected comment, end of file, or end of line, but found identifier", 1, 19),
      ("set quiet :=", "expected identifier, but found end of file", 1, 13),
      ("set dotenv-path := 'a' 'b'", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', '=~', '+', '++', or '/', but found string", 1, 24),
      ("x := 'a' ++", "expected backtick, '!', '[', identifier, '(', '/', or string, but found end of file", 1, 12),
      ("foo a='b' + 'c':", "expected '$' or identifier, but found string", 1, 13),
      ("foo: (bar *x)", "starred arguments may not be used outside mapped dependencies", 1, 11),
      ("[unix] [windows]", "expected comment, end of file, or end of line, but found '['", 1, 8),
      ("[env: 'a']\nfoo:", "attribute `env` got 1 argument but takes 2 arguments", 1, 2),
      ("[doc(),]\nfoo:", "expected identifier, but found ']'", 1, 8),
      ("[arg(long)]\nfoo a:", "attribute `arg` got 0 arguments but takes 1 argument", 1, 2),
      ("[arg('a', long='b', 'c')]\nfoo a:", "positional attribute arguments cannot follow keyword attribute arguments", 1, 21),
      ("export x := 'a' 'b'", "expected '&&', '!=', '!~', '||', comment, end of file, end of line, '==', '=~', '+', '++', or '/', but found string", 1, 17),
      ("unexport 'a'", "expected '*', ':', '$', identifier, or '+', but found string", 1, 10),
      ("set", "expected '*', ':', '$', identifier, or '+', but found end of file", 1, 4),
      ("export", "expected '*', ':', '$', identifier, or '+', but found end of file", 1, 7),
      ("mod\nfoo:\n", "expected '*', ':', '$', identifier, or '+', but found end of line", 1, 4),
    ];
    let mut failures = Vec::new();
    for (src, message, line, column) in cases {
      let expected = format!("{message} {line}:{column}");
      match parse_text(src) {
        Ok(_) => failures.push(format!("{src:?}: parsed, expected {expected}")),
        Err(actual) if actual != expected => {
          failures.push(format!("{src:?}:\n  expected {expected}\n  actual   {actual}"))
        }
        Err(_) => {}
      }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
  }

  /// Sources the reference accepts syntactically (some fail later, in analysis).
  #[test]
  fn successes() {
    #[rustfmt::skip]
    let cases: &[&str] = &[
      "[private]\nx := 'a'",
      "[group('a')]\nmod foo",
      "[doc: 'x']\nfoo:",
      "[arg(x'a', long)]\nfoo a:\n",
      "\u{feff}x := y",
      "foo:\n  echo\n    bar",
      "foo a b=a c:",
      "foo a a:",
      "x := / 'a' + / 'b'",
      "x := 'a' / 'b' ++ 'c' + 'd'",
      "x := assert('a' == 'b', 'c') + f'a{{ x }}b{{ y }}c'",
      "x := [\n  'a',\n  'b',\n]",
      "foo: (\n  bar 'x'\n)",
      "foo: a::b (c::d 'x') && e *(f *x)",
      "set shell := ['a', 'b',]",
      "set dotenv-load := true # c",
      "mod? foo 'bar' # c",
      "mod foo x'bar'",
      "import? 'a'",
      "eager x := 'a'",
      "unexport X # c",
      "set a b:",
      "export foo='bar':",
      "mod foo:",
      "x := 'a' # c\ny := 'b'#c",
      "@foo +$a='b':",
      "foo: \\\n  # a comment\n  cc main.c",
      "x := \"a\\\nb\"",
      "x := 'a' || 'b' && 'c' == 'd'",
      "x := !'a' == !!'b'",
      "f() := 'a'\ng(a,) := a\nh(a, b) := a + b",
      "[linux]\nf(a) := a",
      "x := if 'a' { 'b' }",
      "x := if 'a' == 'b' { 'c' } else if 'd' == 'e' { 'f' } else { 'g' }",
      "x := '''\n  a\n'''",
      "[arg('a', pattern='x', help='y', long='l', short='s', value='v', multiple, min='1', max='2')]\nfoo a:",
      "[script('python3', '-u')]\nfoo:\n  print(1)",
      "[script(x'a')]\nfoo:",
      "[cache(extra='a', inputs='b', outputs='c')]\nfoo:\n  #!sh",
      "[env('A', 'b')]\n[env('A', 'c')]\n[metadata('a', 'b')]\n[metadata('a')]\nfoo:",
      "[continue('SIGINT', 'SIGHUP', 'SIGINT')]\nfoo:",
      "foo *xs: *(bar *xs)",
      "set lists\nset unstable\nx := ['a'] ++ ['b']",
      "foo:\n  echo {{{{ hi }}",
      "foo:\n  echo {{ if 'a' == 'b' { 'c' } else { 'd' } }}",
      "[\nprivate]\nfoo:",
      "[private\n]\nfoo:",
      "foo +a=x:",
      "set lists := false\nset quiet\nset quiet",
      "set minimum-version := '1.58.0'",
      "alias a := b # c\nalias b := c",
      "foo: # c\n  echo",
      "[arg('a', long='x', max=x'2')]\nfoo +a:",
      "[arg('abc', short)]\nfoo abc:",
      "[arg('a'), arg('b')]\nfoo a b:",
      "[doc(foo)]\nfoo:",
      "foo:=bar",
      "@ foo x:\n  echo",
      "x := if 'a' == 'b' { 'c' } else if 'd' { 'e' }\n",
      "x := x''",
      "mod ? foo",
      "set shell := ['a',\n  'b']",
      "x := (\n  'a'\n  +\n  'b'\n)",
      "foo:\n  echo {{\n    'a'\n  }}",
      "foo:\n  {{ 'a' }} b {{ 'c' }}",
      "foo a='b' *c='d':",
      "foo a=('b' + 'c') b=x'd':",
      "foo a=f'x{{y}}':",
      "foo: (bar\n  'x'\n  'y')",
      "foo: bar\n  ()",
      "[confirm: 'a' + 'b']\nfoo:",
      "[confirm()]\nfoo:",
      "[metadata('a',)]\nfoo:",
      "[arg('a',) , private]\nfoo a:",
      "[cache()]\nfoo:\n  #!sh",
      "alias a := b\n[private]\nalias c := d",
      "[private]\neager x := 'a'",
      "alias := 'a'",
      "set := 'a'",
    ];
    for src in cases {
      if let Err(error) = parse_text(src) {
        panic!("{src:?}: {error}");
      }
    }
  }

  fn entries(src: &str) -> Vec<String> {
    let ast = parse_text(src).unwrap();
    ast
      .items
      .iter()
      .map(|item| match item {
        Item::Alias(alias) => format!("alias {}", alias.name.lexeme()),
        Item::Assignment(assignment) => format!("assignment {}", assignment.name.lexeme()),
        Item::Comment(comment) => format!("comment {}", ast.comment_token(*comment).lexeme()),
        Item::Eol => "eol".to_string(),
        Item::Function(function) => format!("function {}", function.name.lexeme()),
        Item::Import(import) => format!("import {}", import.path.cooked),
        Item::Module(module) => format!("mod {} {:?}", module.name.lexeme(), module.doc),
        Item::Recipe(recipe) => format!("recipe {} {:?}", recipe.name.lexeme(), recipe.doc),
        Item::Set(set) => format!("set {}", set.name.lexeme()),
        Item::Unexport(unexport) => format!("unexport {}", unexport.name.lexeme()),
      })
      .collect()
  }

  #[test]
  fn items_comments_and_docs() {
    let cases: &[(&str, &[&str])] = &[
      ("", &[]),
      ("\n\n", &["eol", "eol"]),
      (
        "x := 'a' # note\nfoo:\n",
        &["assignment x", "comment # note", "eol", "recipe foo None", "eol"],
      ),
      (
        "# one\n# two\nfoo:",
        &["comment # one", "eol", "comment # two", "eol", "recipe foo Some(\"two\")"],
      ),
      (
        "# builds\n[private]\nfoo:\n",
        &["comment # builds", "eol", "recipe foo Some(\"builds\")", "eol"],
      ),
      ("# builds\n\nfoo:\n", &["comment # builds", "eol", "eol", "recipe foo None", "eol"]),
      ("#!/bin/just\nfoo:\n", &["comment #!/bin/just", "eol", "recipe foo None", "eol"]),
      ("#\nfoo:\n", &["comment #", "eol", "recipe foo None", "eol"]),
      (
        "foo: # c\n  echo\n# doc\nbar:\n\n\nbaz:\n  echo\n\n\n",
        &[
          "recipe foo None",
          "comment # c",
          "comment # doc",
          "eol",
          "recipe bar Some(\"doc\")",
          "eol",
          "eol",
          "eol",
          "recipe baz None",
          "eol",
          "eol",
        ],
      ),
      (
        "# tools\nmod tools # c\nimport 'a.just'\nset quiet\nunexport A\nalias b := foo\nf(x) := x",
        &[
          "comment # tools",
          "eol",
          "mod tools Some(\"tools\")",
          "comment # c",
          "eol",
          "import a.just",
          "eol",
          "set quiet",
          "eol",
          "unexport A",
          "eol",
          "alias b",
          "eol",
          "function f",
        ],
      ),
    ];
    for (src, expected) in cases {
      assert_eq!(entries(src), *expected, "{src:?}");
    }
  }

  fn only_recipe(src: &str) -> Recipe<'_> {
    let ast = parse_text(src).unwrap();
    ast
      .items
      .into_iter()
      .find_map(|item| match item {
        Item::Recipe(recipe) => Some(*recipe),
        _ => None,
      })
      .unwrap()
  }

  #[test]
  fn recipe_shape() {
    let recipe = only_recipe(
      "@foo a $b='x' +c: d (e::f 'y' z) && *(g *c)\n\t#!/bin/sh\n\techo {{a}} {{{{\n\n\t  x\n\n",
    );
    assert!(recipe.quiet);
    let names: Vec<_> = recipe.parameters.iter().map(|p| p.name.lexeme()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert!(recipe.parameters[1].export && recipe.parameters[1].default.is_some());
    assert_eq!(recipe.parameters[2].kind, ParameterKind::Plus);
    assert_eq!(recipe.priors().len(), 2);
    assert_eq!(recipe.priors()[1].path.len(), 2);
    assert_eq!(recipe.priors()[1].arguments.len(), 2);
    assert_eq!(recipe.subsequents()[0].star, Some(0));
    assert!(recipe.subsequents()[0].is_mapped());
    assert!(recipe.shebang);
    let numbers: Vec<_> = recipe.body.iter().map(|line| line.number()).collect();
    assert_eq!(numbers, [1, 2, 3, 4]);
    assert!(recipe.body[2].is_empty());
    assert_eq!(recipe.body[1].fragments().count(), 3);
  }

  /// A body line stores its interpolations only; the text pieces between
  /// them are cut from the line's text, each on its own line.
  #[test]
  fn body_line_fragments_are_its_text_pieces_and_interpolations() {
    let recipe = only_recipe("foo:\n\t{{a}}{{b}} x {{{{ y {{\nc\n}}\\\n\t{{d}}\n");
    let shape = |line: &Line| -> Vec<String> {
      line
        .fragments()
        .map(|fragment| match fragment {
          Fragment::Text(text) => format!("{:?}@{}", text.lexeme(), text.line),
          Fragment::Interpolation { expression } => {
            format!("{{{}}}", expression.first_token().lexeme())
          }
        })
        .collect()
    };
    assert_eq!(shape(&recipe.body[0]), ["{a}", "{b}", "\" x {{{{ y \"@1", "{c}", "\"\\\\\"@3"]);
    assert_eq!(shape(&recipe.body[1]), ["{d}"]);
    let last =
      |line: &Line| line.last_fragment().map(|fragment| matches!(fragment, Fragment::Text(_)));
    assert_eq!((last(&recipe.body[0]), last(&recipe.body[1])), (Some(true), Some(false)));
    assert_eq!(
      recipe.body[0].first_fragment().map(|f| matches!(f, Fragment::Text(_))),
      Some(false)
    );
  }

  fn assignment_value(src: &str) -> Expression<'_> {
    let ast = parse_text(src).unwrap();
    match ast.items.into_iter().next() {
      Some(Item::Assignment(assignment)) => assignment.value,
      _ => panic!("not an assignment"),
    }
  }

  fn joined(expressions: &[Expression]) -> String {
    expressions.iter().map(shape).collect::<Vec<_>>().join(" ")
  }

  /// A compact rendering of the tree, to check precedence and associativity.
  fn shape(expression: &Expression) -> String {
    use Expression::*;
    match expression {
      And { lhs, rhs, .. } => format!("(&& {} {})", shape(lhs), shape(rhs)),
      Or { lhs, rhs, .. } => format!("(|| {} {})", shape(lhs), shape(rhs)),
      Assert { condition, .. } => format!("(assert {})", shape(condition)),
      Backtick { command, .. } => format!("`{command}`"),
      Call { name, arguments } => format!("({} {})", name.lexeme(), joined(arguments)),
      Comparison { lhs, rhs, operator, .. } => {
        format!("({} {} {})", operator.symbol(), shape(lhs), shape(rhs))
      }
      Concatenation { lhs, rhs, .. } => format!("(+ {} {})", shape(lhs), shape(rhs)),
      ListConcatenation { lhs, rhs, .. } => format!("(++ {} {})", shape(lhs), shape(rhs)),
      Conditional { condition, then, otherwise, .. } => format!(
        "(if {} {} {})",
        shape(condition),
        shape(then),
        otherwise.as_ref().map_or("-".into(), |o| shape(o))
      ),
      FormatString { start, parts, .. } => {
        let mut text = format!("f[{}", start.cooked);
        for (expression, piece) in parts.iter() {
          text += &format!(" {} {}", shape(expression), piece.cooked);
        }
        text + "]"
      }
      Group { contents, .. } => shape(contents),
      Join { lhs: Some(lhs), rhs, .. } => format!("(/ {} {})", shape(lhs), shape(rhs)),
      Join { lhs: None, rhs, .. } => format!("(/ {})", shape(rhs)),
      List { elements, .. } => format!("[{}]", joined(elements)),
      Not { operand, .. } => format!("(! {})", shape(operand)),
      StringLiteral(literal) => literal.cooked.to_string(),
      Variable { name } => name.lexeme().to_string(),
    }
  }

  #[test]
  fn expression_shapes() {
    let cases = [
      ("a + b / c", "(+ a (/ b c))"),
      ("'x' + / 'y'", "(+ x (/ y))"),
      ("a ++ b + c", "(++ a (+ b c))"),
      ("a + b == c", "(== (+ a b) c)"),
      ("a || b || c && d && e", "(|| a (|| b (&& c (&& d e))))"),
      ("!!a != b", "(!= (! (! a)) b)"),
      ("if a == b { c } else if d =~ e { f } else { g }", "(if (== a b) c (if (=~ d e) f g))"),
      ("if a { b }", "(if a b -)"),
      ("assert(a !~ b, 'm')", "(assert (!~ a b))"),
      ("f(a, b,) + g()", "(+ (f a b) (g ))"),
      ("[a, [b], ]", "[a [b]]"),
      ("(a + b) + c", "(+ (+ a b) c)"),
      (r#""\t\u{41}" + '\t'"#, "(+ \tA \\t)"),
      ("'''\n  a\n  b\n'''", "a\nb\n"),
      ("```\n  ls\n```", "`ls\n`"),
      ("f'a{{{{b{{ x }}c{{ f'[{{y}}]' }}d'", "f[a{{b x c f[[ y ]] d]"),
      (r#"f"\n""#, "f[\n]"),
      ("x'$$a'", "$a"),
    ];
    for (src, expected) in cases {
      let text = format!("v := {src}\n");
      assert_eq!(shape(&assignment_value(&text)), expected, "{src}");
    }
  }

  #[test]
  fn unstable_features() {
    let ast =
      parse_text("[windows]\nset lists := false\n[cache]\nfoo:\n  #!sh\nf() := ''\n").unwrap();
    assert_eq!(
      ast.unstable_features,
      [
        UnstableFeature::Lists,
        UnstableFeature::CachedRecipes,
        UnstableFeature::UserDefinedFunctions
      ]
    );
  }

  #[test]
  fn settings() {
    let ast = parse_text(
      "set quiet\nset export := false\nset shell := ['a', 'b',]\nset indentation := '\t'\n",
    )
    .unwrap();
    let values: Vec<String> = ast
      .items
      .iter()
      .filter_map(|item| match item {
        Item::Set(set) => Some(format!("{:?}", set.value)),
        _ => None,
      })
      .collect();
    assert!(values[0].starts_with("Boolean { value: true, written: false"));
    assert!(values[1].starts_with("Boolean { value: false, written: true"));
    assert!(values[2].starts_with("List"));
    assert!(values[3].starts_with("Literal"));
  }

  #[test]
  fn attributes() {
    let recipe = only_recipe(
      "[group('x'), continue('SIGQUIT', 'SIGHUP', 'SIGQUIT')]\n[script('py', '-u')]\n\
       [arg('a', long, short='b', help='h')]\nfoo a:\n",
    );
    let names: Vec<_> = recipe.attributes.list.iter().map(|e| e.attribute.name()).collect();
    assert_eq!(names, ["group", "continue", "script", "arg"]);
    match &recipe.attributes.list[1].attribute {
      Attribute::Continue(signals) => assert_eq!(signals, &[Signal::HANGUP, Signal::QUIT]),
      other => panic!("{other:?}"),
    }
    match &recipe.attributes.list[2].attribute {
      Attribute::Script(Some(interpreter)) => {
        assert_eq!(interpreter.command.cooked, "py");
        assert_eq!(interpreter.arguments.len(), 1);
      }
      other => panic!("{other:?}"),
    }
    match &recipe.attributes.list[3].attribute {
      Attribute::Arg(arg) => {
        assert_eq!(arg.name.cooked, "a");
        assert!(arg.long.as_ref().is_some_and(|long| long.value.is_none()));
        assert!(arg.short.as_ref().is_some_and(|short| short.value.is_some()));
        assert!(arg.help.is_some() && arg.pattern.is_none());
      }
      other => panic!("{other:?}"),
    }
  }

  #[test]
  fn recursion_depth() {
    let ok = format!("x := {}'a'{}", "(".repeat(255), ")".repeat(255));
    assert!(parse_text(&ok).is_ok());
    let deep = format!("x := {}'a'{}", "(".repeat(256), ")".repeat(256));
    assert_eq!(parse_text(&deep).unwrap_err(), "parsing recursion depth exceeded 1:262");
    let or_chain = format!("x := {}", vec!["'a'"; 300].join(" || "));
    assert_eq!(parse_text(&or_chain).unwrap_err(), "parsing recursion depth exceeded 1:1798");
    let long_chains = format!("x := {}'a' + {}", "!".repeat(5000), vec!["'a'"; 5000].join(" + "));
    assert!(parse_text(&long_chains).is_ok());
  }

  /// Differential-testing helper: `PARSE_PROBE=file1:file2 cargo test … probe -- --ignored`.
  #[test]
  #[ignore]
  fn probe() {
    let files = std::env::var("PARSE_PROBE").unwrap_or_default();
    for file in files.split(':').filter(|f| !f.is_empty()) {
      let src = std::fs::read_to_string(file).unwrap();
      match parse_text(&src) {
        Ok(_) => println!("PROBE {file}: ok"),
        Err(e) => println!("PROBE {file}: {e}"),
      }
    }
  }
}

#[cfg(test)]
mod streaming_tests {
  use super::*;

  #[test]
  fn lexical_error_after_a_parse_error_wins() {
    let source = sources::Source::new("x :=\n\nfoo:\n  echo\n%\n", "justfile");
    let trees = Trees::new();
    let error = parse_source(&source, &trees).unwrap_err();
    assert_eq!(error.to_string(), "unknown start of token '%'");
    assert_eq!((error.token.line, error.token.column()), (4, 0));
  }

  /// Parsing `src` from the lexer and from its lexed tokens gives the same tree.
  fn assert_streaming_and_slice_parsing_agree(src: String) {
    let source = sources::Source::new(src, "justfile");
    let trees = Trees::new();
    let tokens = crate::syntax::lexer::lex(&source).unwrap();
    let from_slice = format!("{:?}", parse(&tokens, &trees).unwrap());
    let streamed = format!("{:?}", parse_source(&source, &trees).unwrap());
    assert_eq!(from_slice, streamed);
  }

  #[test]
  fn streaming_and_slice_parsing_agree() {
    let src = "# doc\n[private]\na x='1' *y: (b x) && c\n  echo {{x}}\n\nb z:\nc:\n";
    assert_streaming_and_slice_parsing_agree(src.into());
  }

  /// Items whose dispatch looks several tokens ahead, repeated so that the
  /// lookahead crosses the ends of the token buffer at every offset.
  fn long_source() -> String {
    (0..3 * BUFFER)
      .map(|i| match i % 4 {
        0 => format!("alias a{i} := r{i}\n"),
        1 => format!("export v{i} := 'x' + v{i}\n"),
        2 => format!("mod m{i} 'p{i}'\n"),
        _ => format!("r{i} p='d': r{i} (r{i} 'a')\n  echo {{{{p}}}}\n"),
      })
      .collect()
  }

  #[test]
  fn streaming_and_slice_parsing_agree_across_buffer_refills() {
    assert_streaming_and_slice_parsing_agree(long_source());
  }

  #[test]
  fn tokens_without_eof_end_as_if_they_had_one() {
    let src = "a := 'x'\nb:\n  echo {{a}}\n";
    let source = sources::Source::new(src, "justfile");
    let trees = Trees::new();
    let tokens = crate::syntax::lexer::lex(&source).unwrap();
    assert_eq!(tokens.last().map(|token| token.kind), Some(TokenKind::Eof));
    let with_eof = format!("{:?}", parse(&tokens, &trees).unwrap());
    let without_eof = format!("{:?}", parse(&tokens[..tokens.len() - 1], &trees).unwrap());
    assert_eq!(with_eof, without_eof);
    let truncated = parse(&tokens[..3], &trees).unwrap_err();
    let last = tokens[2];
    assert_eq!(truncated.token.kind, TokenKind::Eof);
    assert_eq!(truncated.token.offset, last.offset + last.length);
  }

  #[test]
  fn lexical_error_after_buffer_refills_wins() {
    let source = sources::Source::new(format!("{}x :=\n%\n", long_source()), "justfile");
    let trees = Trees::new();
    let error = parse_source(&source, &trees).unwrap_err();
    assert_eq!(error.to_string(), "unknown start of token '%'");
  }
}

#[cfg(test)]
mod layout_tests {
  use super::*;

  #[test]
  fn dependency_paths_list_their_names() {
    let source = sources::Source::new("a: b (c::d 'x')\nb:\n", "justfile");
    let trees = Trees::new();
    let ast = parse_source(&source, &trees).unwrap();
    let Some(Item::Recipe(recipe)) = ast.items.first() else { panic!("not a recipe") };
    let paths: Vec<Vec<&str>> = recipe
      .priors()
      .iter()
      .map(|dependency| dependency.path.iter().map(|name| name.lexeme()).collect())
      .collect();
    assert_eq!(paths, [vec!["b"], vec!["c", "d"]]);
  }

  #[test]
  fn literals_borrow_the_source_unless_cooking_changes_them() {
    let src = "a := 'x\\n' + \"y\" + \"z\\t\" + '''\n  w\n'''\n";
    let source = sources::Source::new(src, "justfile");
    let trees = Trees::new();
    let ast = parse_source(&source, &trees).unwrap();
    let Some(Item::Assignment(assignment)) = ast.items.first() else { panic!("not an assignment") };
    let mut literals = Vec::new();
    let mut pending = vec![&assignment.value];
    while let Some(expression) = pending.pop() {
      match expression {
        Expression::Concatenation { lhs, rhs, .. } => pending.extend([*rhs, *lhs]),
        Expression::StringLiteral(literal) => literals.push(literal),
        other => panic!("unexpected {other:?}"),
      }
    }
    let cooked: Vec<(&str, bool)> = literals
      .iter()
      .map(|literal| {
        let in_source = source.text.as_bytes().as_ptr_range().contains(&literal.cooked.as_ptr());
        (literal.cooked, in_source)
      })
      .collect();
    assert_eq!(cooked, [("x\\n", true), ("y", true), ("z\t", false), ("w\n", false)]);
  }
}
