//! Tokens: a kind plus a position, borrowing their text from the loaded source.

use std::fmt::{self, Display, Formatter};
use std::path::Path;

use super::sources::Source;

/// Defines `TokenKind` from one table of kinds and their display names, so
/// the kinds, `TokenKind::ALL` and `name` cannot disagree.
macro_rules! token_kinds {
  ($($kind:ident => $name:literal,)*) => {
    /// Token kinds. The declaration order is the order in which expected
    /// kinds are listed in "expected …, but found …" messages, so `Ord` on
    /// this enum is that order. The byte order mark and
    /// whitespace come last: they are never listed.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum TokenKind {
      $($kind,)*
    }

    impl TokenKind {
      /// Every kind, in declaration (display) order.
      pub(crate) const ALL: &'static [TokenKind] = &[$(TokenKind::$kind,)*];

      /// The kind's name in error messages.
      pub(crate) fn name(self) -> &'static str {
        match self {
          $(TokenKind::$kind => $name,)*
        }
      }
    }
  };
}

token_kinds! {
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
  ByteOrderMark => "byte order mark",
  Whitespace => "whitespace",
}

impl TokenKind {
  pub(crate) fn bit(self) -> u64 {
    1 << (self as u64)
  }

  /// Every kind, in declaration (display) order.
  pub(crate) fn all() -> impl Iterator<Item = TokenKind> {
    TokenKind::ALL.iter().copied()
  }
}

impl Display for TokenKind {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    f.write_str(self.name())
  }
}

/// A set of token kinds, used for the parser's "expected" set.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct KindSet(u64);

impl KindSet {
  pub(crate) fn insert(&mut self, kind: TokenKind) {
    self.0 |= kind.bit();
  }

  pub(crate) fn contains(self, kind: TokenKind) -> bool {
    self.0 & kind.bit() != 0
  }

  pub(crate) fn clear(&mut self) {
    self.0 = 0;
  }

  /// Members in display order, never including the byte order mark or whitespace.
  pub(crate) fn kinds(self) -> impl Iterator<Item = TokenKind> {
    TokenKind::all().filter(move |kind| {
      self.contains(*kind) && !matches!(kind, TokenKind::ByteOrderMark | TokenKind::Whitespace)
    })
  }
}

/// A token. `offset..offset + length` is its lexeme in its file's text.
/// `line` is 0-based, rendered 1-based in diagnostics; the column is
/// computed from the offset when needed (see `column`).
#[derive(Copy, Clone, Debug)]
pub struct Token<'src> {
  pub kind: TokenKind,
  pub(crate) source: &'src Source,
  pub(crate) offset: u32,
  pub(crate) length: u32,
  pub(crate) line: u32,
}

/// The lexer hands out hundreds of thousands of tokens for a large file and
/// the parser copies them around: keep them three words.
const _: () = assert!(std::mem::size_of::<Token>() == 24);

/// Tokens are equal when they are the same stretch of the same file.
impl PartialEq for Token<'_> {
  fn eq(&self, other: &Self) -> bool {
    self.kind == other.kind
      && std::ptr::eq(self.source, other.source)
      && (self.offset, self.length, self.line) == (other.offset, other.length, other.line)
  }
}

impl Eq for Token<'_> {}

impl<'src> Token<'src> {
  /// A token of `kind` spanning `offset..offset + length` of `source`.
  pub(crate) fn new(
    kind: TokenKind,
    source: &'src Source,
    offset: usize,
    length: usize,
    line: usize,
  ) -> Self {
    let narrow = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    Token { kind, source, offset: narrow(offset), length: narrow(length), line: narrow(line) }
  }

  /// The offset where the token's line starts: just after the last `\n`
  /// before the token. A `\n` that ends the file starts no line, so the
  /// tokens after it (dedents, `Eof`) stay on the last line, as `line` says.
  pub(crate) fn line_start(&self) -> usize {
    let text = self.source.text.as_bytes();
    let offset = (self.offset as usize).min(text.len());
    let before = if offset == text.len() { offset.saturating_sub(1) } else { offset };
    memchr::memrchr(b'\n', &text[..before]).map_or(0, |newline| newline + 1)
  }

  /// The 0-based column of the token's start, in bytes.
  pub(crate) fn column(&self) -> usize {
    (self.offset as usize).saturating_sub(self.line_start())
  }

  /// The whole text of the token's file.
  pub(crate) fn src(&self) -> &'src str {
    &self.source.text
  }

  /// The path diagnostics show for the token's file.
  pub(crate) fn path(&self) -> &'src Path {
    &self.source.path
  }

  pub fn lexeme(&self) -> &'src str {
    let start = self.offset as usize;
    self.source.text.get(start..start + self.length as usize).unwrap_or("")
  }
}
