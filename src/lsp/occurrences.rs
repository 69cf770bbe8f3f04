//! The names a justfile uses where `just` reads them, from the lexer's
//! tokens: definitions, recipe references (dependencies, alias targets) and
//! expression references (values, defaults, dependency and attribute
//! arguments, `{{…}}` in recipe bodies and format strings) — never shell
//! text, strings or comments. A parameter is only itself in its recipe or
//! function, where it hides a variable of the same name.
//!
//! Files that do not lex are read too: the rest of the line where the lexer
//! stops (or where a group opens that is never closed) is blanked and the
//! text lexed again, so one error costs the names of that line's rest only.

use std::borrow::Cow;
use std::path::Path;

use crate::syntax::attributes::AttributeKind;
use crate::syntax::lexer::Lexer;
use crate::syntax::sources::Source;
use crate::syntax::token::TokenKind;

/// What a name at a place is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
  /// A recipe or alias: definition, dependency, alias target.
  Recipe,
  /// A variable (assignment).
  Variable,
  /// A user function (definition or call).
  Function,
  /// A parameter of the recipe or function defined on line `.0`.
  Parameter(usize),
  Module,
}

#[derive(Clone, Debug)]
pub(super) struct Occurrence {
  pub start: usize,
  pub end: usize,
  pub role: Role,
  pub definition: bool,
  /// Where the `module::` path before the name starts (`start` without one).
  pub qualifier: usize,
}

/// Words an expression reads as themselves, never as a variable.
pub(super) const KEYWORDS: &[&str] = &["if", "else", "assert", "true", "false"];

/// Every occurrence of a name in `text` that `just` reads as one.
pub(super) fn occurrences(text: &str) -> Vec<Occurrence> {
  let mut reader = Reader { text, tokens: significant_tokens(text), next: 0, found: Vec::new() };
  reader.items();
  reader.found
}

/// A token of the text: kind, span and line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
  pub(super) kind: TokenKind,
  pub(super) start: usize,
  pub(super) end: usize,
  line: usize,
}

/// Lexical errors recovered from before the tokens are taken as they are:
/// each recovery lexes the file again.
const RECOVERIES: usize = 64;

/// The significant tokens of `text`: what the parser reads, no
/// whitespace or comments.
fn significant_tokens(text: &str) -> Vec<Token> {
  let mut all = tokens(text);
  all.retain(|token| !matches!(token.kind, TokenKind::Whitespace | TokenKind::Comment));
  all
}

/// The tokens of `text` but the byte order mark and the end of file. Where
/// the lexer meets an error or a group opens that is never closed, the rest
/// of that line is blanked and the text lexed again, up to `RECOVERIES`
/// times; then the tokens before the error are all there is.
pub(super) fn tokens(text: &str) -> Vec<Token> {
  let mut current = Cow::Borrowed(text);
  for _ in 0..RECOVERIES {
    let (tokens, error) = lex_to_error(&current);
    let error = error.or_else(|| unclosed_group(&tokens));
    let Some(blanked) = error.and_then(|offset| blank_rest_of_line(&current, offset)) else {
      return tokens;
    };
    current = Cow::Owned(blanked);
  }
  lex_to_error(&current).0
}

/// Where the outermost group that is never closed opens. The lexer leaves
/// that to the parser, but everything after such a `(` would be read as
/// one expression, as it is while one is typing it: it is an error too.
fn unclosed_group(tokens: &[Token]) -> Option<usize> {
  let mut open = Vec::new();
  for token in tokens {
    if opens_group(token.kind) {
      open.push(token.start);
    } else if closes_group(token.kind) {
      open.pop();
    }
  }
  open.first().copied()
}

/// The tokens of `text` up to its first lexical error, and where the error is.
fn lex_to_error(text: &str) -> (Vec<Token>, Option<usize>) {
  let source = Source::new(text, Path::new(""));
  let mut lexer = Lexer::new(&source);
  let mut tokens = Vec::new();
  loop {
    match lexer.next_token() {
      Ok(token) if token.kind == TokenKind::Eof => return (tokens, None),
      Ok(token) => {
        if token.kind != TokenKind::ByteOrderMark {
          let start = token.offset as usize;
          let end = start + token.length as usize;
          tokens.push(Token { kind: token.kind, start, end, line: token.line as usize });
        }
      }
      Err(error) => return (tokens, Some(error.token.offset as usize)),
    }
  }
}

/// `text` with spaces from `offset` to the end of its line, byte for byte
/// (offsets stay), or `None` when that changes nothing.
fn blank_rest_of_line(text: &str, offset: usize) -> Option<String> {
  let rest = text.get(offset..)?;
  let end = offset + rest.find('\n').unwrap_or(rest.len());
  if text.as_bytes()[offset..end].iter().all(|&byte| byte == b' ') {
    return None;
  }
  let mut blanked = String::with_capacity(text.len());
  blanked.push_str(&text[..offset]);
  blanked.push_str(&" ".repeat(end - offset));
  blanked.push_str(&text[end..]);
  Some(blanked)
}

/// The parameters in scope: the line of the recipe or function declaring
/// them, and their names.
struct Scope<'a> {
  line: usize,
  names: Vec<&'a str>,
}

/// Reads the tokens item by item, as the parser would, without ever
/// failing: what it does not understand, it skips to the end of the line.
struct Reader<'a> {
  text: &'a str,
  tokens: Vec<Token>,
  next: usize,
  found: Vec<Occurrence>,
}

impl<'a> Reader<'a> {
  fn peek(&self) -> Option<Token> {
    self.tokens.get(self.next).copied()
  }

  fn kind_at(&self, ahead: usize) -> Option<TokenKind> {
    self.tokens.get(self.next + ahead).map(|token| token.kind)
  }

  fn next_is(&self, kind: TokenKind) -> bool {
    self.kind_at(0) == Some(kind)
  }

  /// Whether the next tokens are of `kinds`.
  fn next_are(&self, kinds: &[TokenKind]) -> bool {
    kinds.iter().enumerate().all(|(ahead, &kind)| self.kind_at(ahead) == Some(kind))
  }

  /// Whether the next tokens are of `kinds`, and the line ends after them.
  fn next_are_then_end(&self, kinds: &[TokenKind]) -> bool {
    self.next_are(kinds) && matches!(self.kind_at(kinds.len()), None | Some(TokenKind::Eol))
  }

  fn lexeme(&self, token: Token) -> &'a str {
    self.text.get(token.start..token.end).unwrap_or_default()
  }

  fn advance(&mut self) -> Option<Token> {
    let token = self.peek()?;
    self.next += 1;
    Some(token)
  }

  fn accept(&mut self, kind: TokenKind) -> Option<Token> {
    if self.next_is(kind) {
      self.advance()
    } else {
      None
    }
  }

  /// Past the end of the current line.
  fn skip_line(&mut self) {
    while let Some(token) = self.advance() {
      if token.kind == TokenKind::Eol {
        return;
      }
    }
  }

  fn push(&mut self, token: Token, role: Role, definition: bool) {
    let (start, end) = (token.start, token.end);
    self.found.push(Occurrence { start, end, role, definition, qualifier: start });
  }

  fn items(&mut self) {
    while let Some(token) = self.peek() {
      match token.kind {
        TokenKind::Eol
        | TokenKind::Indent
        | TokenKind::Dedent
        | TokenKind::Text
        | TokenKind::InterpolationEnd => self.next += 1,
        // A body line of a recipe whose header could not be read.
        TokenKind::InterpolationStart => {
          self.next += 1;
          self.expression(&[TokenKind::InterpolationEnd], None);
        }
        TokenKind::BracketL => self.attributes(),
        TokenKind::At => self.recipe(),
        TokenKind::Identifier => self.item(),
        _ => self.skip_line(),
      }
    }
  }

  /// An item starting with a name, told apart as the parser does.
  fn item(&mut self) {
    use TokenKind::{ColonEquals, Identifier, ParenL};
    let Some(first) = self.peek() else { return };
    let assignment = self.next_are(&[Identifier, Identifier, ColonEquals]);
    match self.lexeme(first) {
      "alias" if assignment => self.alias(),
      "export" | "eager" if assignment => {
        self.next += 1;
        self.assignment();
      }
      "set" if assignment => {
        self.next += 3;
        self.expression(&[], None);
      }
      "unexport" | "set" if self.next_are_then_end(&[Identifier, Identifier]) => {}
      "import" if self.is_import() => {}
      "mod" if self.is_module() => self.module(),
      _ if self.next_are(&[Identifier, ParenL]) => self.function(),
      _ if self.next_are(&[Identifier, ColonEquals]) => self.assignment(),
      _ => {
        self.recipe();
        return;
      }
    }
    self.skip_line();
  }

  fn is_import(&self) -> bool {
    use TokenKind::{Identifier, QuestionMark, StringToken};
    self.next_are(&[Identifier, QuestionMark])
      || self.next_are(&[Identifier, StringToken])
      || self.next_are(&[Identifier, Identifier, StringToken])
  }

  fn is_module(&self) -> bool {
    use TokenKind::{Identifier, QuestionMark, StringToken};
    self.next_are(&[Identifier, QuestionMark])
      || self.next_are_then_end(&[Identifier, Identifier])
      || self.next_are(&[Identifier, Identifier, StringToken])
      || self.next_are(&[Identifier, Identifier, Identifier, StringToken])
  }

  /// `mod`, `?`, the module's name.
  fn module(&mut self) {
    self.next += 1;
    self.accept(TokenKind::QuestionMark);
    if let Some(name) = self.accept(TokenKind::Identifier) {
      self.push(name, Role::Module, true);
    }
  }

  /// `alias NAME := PATH`.
  fn alias(&mut self) {
    self.next += 1;
    if let Some(name) = self.advance() {
      self.push(name, Role::Recipe, true);
    }
    self.next += 1;
    self.path(Role::Recipe);
  }

  /// `NAME := EXPRESSION`.
  fn assignment(&mut self) {
    if let Some(name) = self.advance() {
      self.push(name, Role::Variable, true);
    }
    self.next += 1;
    self.expression(&[], None);
  }

  /// `NAME(PARAMETER, …) := EXPRESSION`, its parameters in scope.
  fn function(&mut self) {
    let Some(name) = self.advance() else { return };
    self.push(name, Role::Function, true);
    self.next += 1;
    let mut scope = Scope { line: name.line, names: Vec::new() };
    loop {
      if let Some(parameter) = self.accept(TokenKind::Identifier) {
        self.push(parameter, Role::Parameter(name.line), true);
        scope.names.push(self.lexeme(parameter));
      } else if self.accept(TokenKind::Comma).is_none() {
        break;
      }
    }
    if self.accept(TokenKind::ParenR).is_some() && self.accept(TokenKind::ColonEquals).is_some() {
      self.expression(&[], Some(&scope));
    }
  }

  /// A `module::…::name` path: modules, then a name of `last`'s role.
  fn path(&mut self, last: Role) {
    let Some(first) = self.accept(TokenKind::Identifier) else { return };
    let mut name = first;
    loop {
      let more = self.next_are(&[TokenKind::ColonColon, TokenKind::Identifier]);
      let role = if more { Role::Module } else { last };
      let (start, end) = (name.start, name.end);
      self.found.push(Occurrence { start, end, role, definition: false, qualifier: first.start });
      if !more {
        return;
      }
      self.next += 1;
      let Some(following) = self.advance() else { return };
      name = following;
    }
  }

  /// `[ATTRIBUTE, …]` lines: the names their arguments read.
  fn attributes(&mut self) {
    self.next += 1;
    while let Some(name) = self.accept(TokenKind::Identifier) {
      let keyed = AttributeKind::from_name(self.lexeme(name)).is_some_and(AttributeKind::is_keyed);
      if self.accept(TokenKind::Colon).is_some() {
        self.expression(&[TokenKind::Comma, TokenKind::BracketR], None);
      } else if self.accept(TokenKind::ParenL).is_some() {
        self.attribute_arguments(keyed);
      }
      if self.accept(TokenKind::Comma).is_none() {
        break;
      }
    }
    self.skip_line();
  }

  /// An attribute's arguments after its `(`, through the `)`; in a keyed
  /// attribute, a name that starts an argument is a key, not a variable.
  fn attribute_arguments(&mut self, keyed: bool) {
    let ends = [TokenKind::Comma, TokenKind::ParenR];
    loop {
      if keyed && self.next_is(TokenKind::Identifier) && !self.prefixes_string(self.next) {
        self.next += 1;
        if self.accept(TokenKind::Equals).is_some() {
          self.expression(&ends, None);
        }
      } else {
        self.expression(&ends, None);
      }
      match self.peek().map(|token| token.kind) {
        Some(TokenKind::Comma) => self.next += 1,
        Some(TokenKind::ParenR) => {
          self.next += 1;
          return;
        }
        _ => return,
      }
    }
  }

  /// A recipe: header, dependencies and, when the next line is indented,
  /// its body, with the parameters in scope.
  fn recipe(&mut self) {
    self.accept(TokenKind::At);
    let Some(name) = self.accept(TokenKind::Identifier) else {
      self.skip_line();
      return;
    };
    self.push(name, Role::Recipe, true);
    let mut scope = Scope { line: name.line, names: Vec::new() };
    self.parameters(&mut scope);
    if self.accept(TokenKind::Colon).is_some() {
      self.dependencies(&scope);
    }
    self.skip_line();
    if self.accept(TokenKind::Indent).is_some() {
      self.body(&scope);
    }
  }

  /// `+`, `*`, `$`, names and `=` defaults, each default reading the
  /// parameters before it.
  fn parameters(&mut self, scope: &mut Scope<'a>) {
    loop {
      if self.accept(TokenKind::Plus).is_none() {
        self.accept(TokenKind::Asterisk);
      }
      self.accept(TokenKind::Dollar);
      let Some(parameter) = self.accept(TokenKind::Identifier) else { return };
      self.push(parameter, Role::Parameter(scope.line), true);
      if self.accept(TokenKind::Equals).is_some() {
        let end = self.value_end();
        self.expression_before(end, Some(scope));
      }
      scope.names.push(self.lexeme(parameter));
    }
  }

  /// Where the value (`!`s and an atom) starting at the next token ends.
  fn value_end(&self) -> usize {
    let mut index = self.next;
    while self.tokens.get(index).is_some_and(|token| token.kind == TokenKind::Bang) {
      index += 1;
    }
    let Some(token) = self.tokens.get(index).filter(|token| token.kind != TokenKind::Eol) else {
      return index;
    };
    let call = self.tokens.get(index + 1).is_some_and(|after| after.kind == TokenKind::ParenL);
    if token.kind == TokenKind::Identifier && (call || self.prefixes_string(index)) {
      index += 1;
    }
    if self.tokens.get(index).is_some_and(|token| opens_group(token.kind)) {
      return self.group_end(index);
    }
    index + 1
  }

  /// The index after the token closing the group that `open` opens.
  fn group_end(&self, open: usize) -> usize {
    let mut depth = 0_usize;
    for (index, token) in self.tokens.iter().enumerate().skip(open) {
      match token.kind {
        kind if opens_group(kind) => depth += 1,
        kind if closes_group(kind) => {
          depth = depth.saturating_sub(1);
          if depth == 0 {
            return index + 1;
          }
        }
        TokenKind::Eol => return index,
        _ => {}
      }
    }
    self.tokens.len()
  }

  /// After a header's `:`: `NAME`, `(NAME ARGUMENT…)`, `*(…)` and `&&`,
  /// the arguments reading the recipe's parameters.
  fn dependencies(&mut self, scope: &Scope) {
    loop {
      match self.peek().map(|token| token.kind) {
        Some(TokenKind::Identifier) => self.path(Role::Recipe),
        Some(TokenKind::AmpersandAmpersand | TokenKind::Asterisk) => self.next += 1,
        Some(TokenKind::ParenL) => {
          self.next += 1;
          self.path(Role::Recipe);
          self.expression(&[TokenKind::ParenR], Some(scope));
          self.accept(TokenKind::ParenR);
        }
        _ => return,
      }
    }
  }

  /// Body lines up to the dedent: names only in `{{…}}`.
  fn body(&mut self, scope: &Scope) {
    while let Some(token) = self.advance() {
      match token.kind {
        TokenKind::Dedent => return,
        TokenKind::InterpolationStart => {
          self.expression(&[TokenKind::InterpolationEnd], Some(scope));
        }
        _ => {}
      }
    }
  }

  /// The names of an expression from the next token up to one of `ends`
  /// outside any group, or the end of the line.
  fn expression(&mut self, ends: &[TokenKind], scope: Option<&Scope>) {
    let mut depth = 0_usize;
    let mut end = self.next;
    while let Some(token) = self.tokens.get(end) {
      if token.kind == TokenKind::Eol || depth == 0 && ends.contains(&token.kind) {
        break;
      }
      if opens_group(token.kind) {
        depth += 1;
      } else if closes_group(token.kind) {
        depth = depth.saturating_sub(1);
      }
      end += 1;
    }
    self.expression_before(end, scope);
  }

  /// The names the tokens from the next up to `end` read; the next token
  /// is then `end`.
  fn expression_before(&mut self, end: usize, scope: Option<&Scope>) {
    let end = end.min(self.tokens.len());
    for index in self.next..end {
      if let Some(role) = self.reference(index, scope) {
        self.push(self.tokens[index], role, false);
      }
    }
    self.next = end.max(self.next);
  }

  /// What the token at `index` of an expression reads, if it is a name.
  fn reference(&self, index: usize, scope: Option<&Scope>) -> Option<Role> {
    let token = self.tokens[index];
    let kind_of = |index: usize| self.tokens.get(index).map(|token| token.kind);
    let beside_path = index.checked_sub(1).and_then(kind_of) == Some(TokenKind::ColonColon)
      || kind_of(index + 1) == Some(TokenKind::ColonColon);
    let name = self.lexeme(token);
    if token.kind != TokenKind::Identifier
      || KEYWORDS.contains(&name)
      || beside_path
      || self.prefixes_string(index)
    {
      return None;
    }
    if kind_of(index + 1) == Some(TokenKind::ParenL) {
      return Some(Role::Function);
    }
    match scope {
      Some(scope) if scope.names.contains(&name) => Some(Role::Parameter(scope.line)),
      _ => Some(Role::Variable),
    }
  }

  /// Whether the token at `index` is an `x` or `f` touching the string
  /// after it: a prefix, not a name.
  fn prefixes_string(&self, index: usize) -> bool {
    let (Some(&token), Some(after)) = (self.tokens.get(index), self.tokens.get(index + 1)) else {
      return false;
    };
    matches!(self.lexeme(token), "x" | "f")
      && after.start == token.end
      && matches!(after.kind, TokenKind::StringToken | TokenKind::FormatStringStart)
  }
}

fn opens_group(kind: TokenKind) -> bool {
  matches!(
    kind,
    TokenKind::ParenL | TokenKind::BracketL | TokenKind::BraceL | TokenKind::FormatStringStart
  )
}

fn closes_group(kind: TokenKind) -> bool {
  matches!(
    kind,
    TokenKind::ParenR | TokenKind::BracketR | TokenKind::BraceR | TokenKind::FormatStringEnd
  )
}

#[cfg(test)]
mod tests;
