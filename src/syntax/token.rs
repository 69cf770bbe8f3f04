//! Tokens: a kind plus a position, borrowing their text from the loaded source.

use std::fmt::{self, Display, Formatter};
use std::path::Path;

/// Token kinds. The declaration order is the order in which expected kinds are
/// listed in "expected …, but found …" messages (language.md §12.2), so `Ord`
/// on this enum is that order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TokenKind {
  AmpersandAmpersand,
  Asterisk,
  At,
  Backtick,
  Bang,
  BangEquals,
  BangTilde,
  BarBar,
  BraceL,
  BraceR,
  BracketL,
  BracketR,
  Colon,
  ColonColon,
  ColonEquals,
  Comma,
  Comment,
  Dedent,
  Dollar,
  Eof,
  Eol,
  Equals,
  EqualsEquals,
  EqualsTilde,
  FormatStringContinue,
  FormatStringEnd,
  FormatStringStart,
  Identifier,
  Indent,
  InterpolationEnd,
  InterpolationStart,
  ParenL,
  ParenR,
  Plus,
  PlusPlus,
  QuestionMark,
  Slash,
  StringToken,
  Text,
  /// Never listed among expected kinds.
  ByteOrderMark,
  /// Ignored by the parser.
  Whitespace,
}

impl TokenKind {
  /// All kinds that may appear in an expected set, in display order.
  pub const COUNT: usize = TokenKind::Whitespace as usize + 1;

  pub fn bit(self) -> u64 {
    1 << (self as u64)
  }

  pub fn name(self) -> &'static str {
    use TokenKind::*;
    match self {
      AmpersandAmpersand => "'&&'",
      Asterisk => "'*'",
      At => "'@'",
      Backtick => "backtick",
      Bang => "'!'",
      BangEquals => "'!='",
      BangTilde => "'!~'",
      BarBar => "'||'",
      BraceL => "'{'",
      BraceR => "'}'",
      BracketL => "'['",
      BracketR => "']'",
      ByteOrderMark => "byte order mark",
      Colon => "':'",
      ColonColon => "'::'",
      ColonEquals => "':='",
      Comma => "','",
      Comment => "comment",
      Dedent => "dedent",
      Dollar => "'$'",
      Eof => "end of file",
      Eol => "end of line",
      Equals => "'='",
      EqualsEquals => "'=='",
      EqualsTilde => "'=~'",
      FormatStringContinue => "format string continue",
      FormatStringEnd => "format string end",
      FormatStringStart => "format string",
      Identifier => "identifier",
      Indent => "indent",
      InterpolationEnd => "'}}'",
      InterpolationStart => "'{{'",
      ParenL => "'('",
      ParenR => "')'",
      Plus => "'+'",
      PlusPlus => "'++'",
      QuestionMark => "?",
      Slash => "'/'",
      StringToken => "string",
      Text => "command text",
      Whitespace => "whitespace",
    }
  }

  /// Every kind, in declaration (display) order.
  pub fn all() -> impl Iterator<Item = TokenKind> {
    use TokenKind::*;
    [
      AmpersandAmpersand,
      Asterisk,
      At,
      Backtick,
      Bang,
      BangEquals,
      BangTilde,
      BarBar,
      BraceL,
      BraceR,
      BracketL,
      BracketR,
      Colon,
      ColonColon,
      ColonEquals,
      Comma,
      Comment,
      Dedent,
      Dollar,
      Eof,
      Eol,
      Equals,
      EqualsEquals,
      EqualsTilde,
      FormatStringContinue,
      FormatStringEnd,
      FormatStringStart,
      Identifier,
      Indent,
      InterpolationEnd,
      InterpolationStart,
      ParenL,
      ParenR,
      Plus,
      PlusPlus,
      QuestionMark,
      Slash,
      StringToken,
      Text,
      ByteOrderMark,
      Whitespace,
    ]
    .into_iter()
  }
}

impl Display for TokenKind {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    f.write_str(self.name())
  }
}

/// A set of token kinds, used for the parser's "expected" set.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct KindSet(u64);

impl KindSet {
  pub fn insert(&mut self, kind: TokenKind) {
    self.0 |= kind.bit();
  }

  pub fn contains(self, kind: TokenKind) -> bool {
    self.0 & kind.bit() != 0
  }

  pub fn clear(&mut self) {
    self.0 = 0;
  }

  pub fn is_empty(self) -> bool {
    self.0 == 0
  }

  /// Members in display order, never including the byte order mark or whitespace.
  pub fn kinds(self) -> impl Iterator<Item = TokenKind> {
    TokenKind::all().filter(move |kind| {
      self.contains(*kind) && !matches!(kind, TokenKind::ByteOrderMark | TokenKind::Whitespace)
    })
  }
}

/// A token. `src` is the whole source text of the file it was lexed from;
/// `offset..offset + length` is its lexeme. `line` and `column` are 0-based
/// (column in bytes), rendered 1-based in diagnostics.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Token<'src> {
  pub kind: TokenKind,
  pub src: &'src str,
  pub offset: usize,
  pub length: usize,
  pub line: usize,
  pub column: usize,
  pub path: &'src Path,
}

impl<'src> Token<'src> {
  pub fn lexeme(&self) -> &'src str {
    &self.src[self.offset..self.offset + self.length]
  }
}
