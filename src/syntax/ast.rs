//! The parse tree of one source file. The formatter prints it (`--fmt`,
//! `--dump`, `--show`), the analyzer turns a tree of them into a `Justfile`.
//! Every node keeps the tokens it was built from, so that errors can point at
//! source and strings can be printed verbatim.

// The tree is built once per file and never copied: its nodes, lists of
// nodes and cooked strings live in the `Trees` arena and refer to each other
// with `'src` references (see `trees::Nodes`), so no node owns heap data.
// Node sizes are asserted below `Item`: a large justfile is mostly nodes.

pub(crate) use super::attributes::AttributeKind;
pub(crate) use super::settings::Setting;
use std::sync::LazyLock;

use super::sources::Source;
use super::token::{Token, TokenKind};
pub(crate) use crate::platform::signals::Signal;

/// A name: an identifier token.
pub(crate) type Name<'src> = Token<'src>;

/// A whole file: a flat sequence of top-level entries.
#[derive(Clone, Debug)]
pub struct Ast<'src> {
  /// The file the tree was parsed from.
  pub(crate) source: &'src Source,
  pub(crate) items: Vec<Item<'src>>,
  /// Features that make the module unstable, recorded while parsing, even
  /// for items disabled by OS attributes.
  pub(crate) unstable_features: Vec<UnstableFeature>,
}

/// The tree of an empty token list, from no file.
impl Default for Ast<'_> {
  fn default() -> Self {
    static NO_SOURCE: LazyLock<Source> = LazyLock::new(|| Source::new("", ""));
    Ast { source: &NO_SOURCE, items: Vec::new(), unstable_features: Vec::new() }
  }
}

impl<'src> Ast<'src> {
  /// The token of a comment item.
  pub(crate) fn comment_token(&self, comment: Comment) -> Token<'src> {
    let Comment { offset, length, line } = comment;
    Token { kind: TokenKind::Comment, source: self.source, offset, length, line }
  }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum UnstableFeature {
  CachedRecipes,
  Lists,
  UserDefinedFunctions,
}

/// A top-level entry. A `Comment` directly after another item without an
/// `Eol` in between is that item's trailing comment.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Item<'src> {
  Alias(&'src Alias<'src>),
  Assignment(&'src Assignment<'src>),
  /// A `#` comment (see `Ast::comment_token`).
  Comment(Comment),
  /// One top-level line end.
  Eol,
  Function(&'src FunctionDefinition<'src>),
  Import(&'src Import<'src>),
  Module(&'src ModuleItem<'src>),
  Recipe(&'src Recipe<'src>),
  Set(&'src Set<'src>),
  Unexport(&'src Unexport<'src>),
}

/// Where a `#` comment token is in its file (its lexeme includes the `#`):
/// the token without its file, which the tree knows, so that an item stays
/// two words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Comment {
  pub offset: u32,
  pub length: u32,
  pub line: u32,
}

impl Comment {
  pub(crate) fn new(token: Token) -> Self {
    Comment { offset: token.offset, length: token.length, line: token.line }
  }
}

// A large justfile is mostly these nodes; keep their sizes in view.
const _: () = assert!(std::mem::size_of::<Item>() == 16);
const _: () = assert!(std::mem::size_of::<Recipe>() == 112);
const _: () = assert!(std::mem::size_of::<Dependency>() == 40);
const _: () = assert!(std::mem::size_of::<Line>() == 40);
const _: () = assert!(std::mem::size_of::<Interpolation>() == 16);
const _: () = assert!(std::mem::size_of::<Parameter>() == 40);
// Every interpolation and parameter default holds an expression. The string
// literal variant is the largest and the tag goes in its `kind`, so every
// other variant must fit in 40 bytes: rarely used tokens are behind a reference.
const _: () = assert!(std::mem::size_of::<Expression>() == 48);

/// The attributes written above an item, in source order.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Attributes<'src> {
  pub list: &'src [AttributeEntry<'src>],
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct AttributeEntry<'src> {
  /// The attribute's name token (for errors, line numbers, sorting ties).
  pub name: Name<'src>,
  pub attribute: Attribute<'src>,
}

#[derive(Copy, Clone, Debug)]
pub(crate) enum Attribute<'src> {
  Android,
  Arg(&'src ArgAttribute<'src>),
  Cache(&'src CacheAttribute<'src>),
  Confirm(Option<Expression<'src>>),
  /// Signals, deduplicated, in SIGHUP, SIGINT, SIGQUIT order. Empty = bare `[continue]`.
  Continue(&'src [Signal]),
  Default,
  Doc(Option<Expression<'src>>),
  Dragonfly,
  Env(Expression<'src>, Expression<'src>),
  ExitMessage,
  Extension(StringLiteral<'src>),
  Freebsd,
  Group(StringLiteral<'src>),
  Linux,
  Macos,
  Metadata(&'src [StringLiteral<'src>]),
  Netbsd,
  NoCd,
  NoExitMessage,
  NoQuiet,
  Openbsd,
  Parallel,
  PositionalArguments,
  Private,
  /// `[script]` (None) or `[script(CMD, ARG…)]`.
  Script(Option<Interpreter<'src>>),
  Shell,
  Timestamp(Option<Expression<'src>>),
  Unix,
  Windows,
  WorkingDirectory(Expression<'src>),
}

impl Attribute<'_> {
  pub(crate) fn kind(&self) -> AttributeKind {
    use Attribute::*;
    match self {
      Android => AttributeKind::Android,
      Arg(_) => AttributeKind::Arg,
      Cache(_) => AttributeKind::Cache,
      Confirm(_) => AttributeKind::Confirm,
      Continue(_) => AttributeKind::Continue,
      Default => AttributeKind::Default,
      Doc(_) => AttributeKind::Doc,
      Dragonfly => AttributeKind::Dragonfly,
      Env(..) => AttributeKind::Env,
      ExitMessage => AttributeKind::ExitMessage,
      Extension(_) => AttributeKind::Extension,
      Freebsd => AttributeKind::Freebsd,
      Group(_) => AttributeKind::Group,
      Linux => AttributeKind::Linux,
      Macos => AttributeKind::Macos,
      Metadata(_) => AttributeKind::Metadata,
      Netbsd => AttributeKind::Netbsd,
      NoCd => AttributeKind::NoCd,
      NoExitMessage => AttributeKind::NoExitMessage,
      NoQuiet => AttributeKind::NoQuiet,
      Openbsd => AttributeKind::Openbsd,
      Parallel => AttributeKind::Parallel,
      PositionalArguments => AttributeKind::PositionalArguments,
      Private => AttributeKind::Private,
      Script(_) => AttributeKind::Script,
      Shell => AttributeKind::Shell,
      Timestamp(_) => AttributeKind::Timestamp,
      Unix => AttributeKind::Unix,
      Windows => AttributeKind::Windows,
      WorkingDirectory(_) => AttributeKind::WorkingDirectory,
    }
  }

  /// Kebab-case attribute name, from the attribute table.
  pub(crate) fn name(&self) -> &'static str {
    self.kind().name()
  }

  /// Whether an OS attribute names this platform (`unix` matches every Unix).
  pub(crate) fn matches_platform(&self) -> bool {
    self.kind().matches_platform()
  }
}

/// A key of an attribute written as `KEY` or `KEY=VALUE`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Keyed<'src, T> {
  pub key: Name<'src>,
  pub value: T,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct ArgAttribute<'src> {
  /// The parameter name literal.
  pub name: StringLiteral<'src>,
  /// `long` bare (value None) or `long="NAME"`.
  pub long: Option<Keyed<'src, Option<StringLiteral<'src>>>>,
  pub short: Option<Keyed<'src, Option<StringLiteral<'src>>>>,
  pub pattern: Option<Keyed<'src, Expression<'src>>>,
  pub value: Option<Keyed<'src, Expression<'src>>>,
  pub flag: Option<Keyed<'src, ()>>,
  pub multiple: Option<Keyed<'src, ()>>,
  pub min: Option<Keyed<'src, (StringLiteral<'src>, usize)>>,
  pub max: Option<Keyed<'src, (StringLiteral<'src>, usize)>>,
  pub help: Option<Keyed<'src, Expression<'src>>>,
}

#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct CacheAttribute<'src> {
  pub extra: Option<Keyed<'src, Expression<'src>>>,
  pub inputs: Option<Keyed<'src, Expression<'src>>>,
  pub outputs: Option<Keyed<'src, Expression<'src>>>,
}

/// A command and its arguments: `[script('python3', '-u')]`, `set shell := […]`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Interpreter<'src> {
  pub command: StringLiteral<'src>,
  pub arguments: &'src [StringLiteral<'src>],
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Alias<'src> {
  pub attributes: Attributes<'src>,
  pub name: Name<'src>,
  /// The target path, one name per `::` component.
  pub target: &'src [Name<'src>],
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Assignment<'src> {
  pub attributes: Attributes<'src>,
  pub name: Name<'src>,
  pub value: Expression<'src>,
  pub export: bool,
  pub eager: bool,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Unexport<'src> {
  pub attributes: Attributes<'src>,
  pub name: Name<'src>,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct FunctionDefinition<'src> {
  pub attributes: Attributes<'src>,
  pub name: Name<'src>,
  pub parameters: &'src [Name<'src>],
  pub body: Expression<'src>,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Import<'src> {
  pub attributes: Attributes<'src>,
  pub optional: bool,
  pub path: StringLiteral<'src>,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct ModuleItem<'src> {
  pub attributes: Attributes<'src>,
  /// Doc comment text (trimmed, non-empty) from the line above, if any.
  pub doc: Option<&'src str>,
  pub name: Name<'src>,
  pub optional: bool,
  pub path: Option<StringLiteral<'src>>,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Set<'src> {
  pub attributes: Attributes<'src>,
  pub name: Name<'src>,
  /// The setting `name` names.
  pub setting: Setting,
  pub value: SettingValue<'src>,
}

#[derive(Copy, Clone, Debug)]
pub(crate) enum SettingValue<'src> {
  /// `set NAME` or `set NAME := true|false`.
  Boolean { value: bool },
  /// String-valued settings: dotenv-*, tempdir, working-directory.
  Expression(Expression<'src>),
  /// shell, windows-shell, script-interpreter: `[E, E, …]`.
  List(&'src [Expression<'src>]),
  /// indentation, minimum-version: a plain literal.
  Literal(StringLiteral<'src>),
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Recipe<'src> {
  pub attributes: Attributes<'src>,
  /// Doc comment text (trimmed, non-empty) from the line above, if any.
  pub doc: Option<&'src str>,
  /// The `@` token of a quiet recipe.
  pub quiet: bool,
  pub name: Name<'src>,
  pub parameters: &'src [Parameter<'src>],
  /// The dependencies before `&&`, then those after it.
  pub dependencies: &'src [Dependency<'src>],
  /// How many of `dependencies` come before `&&`.
  pub prior_count: u32,
  pub body: &'src [Line<'src>],
  /// Whether the body's first line starts with `#!`.
  pub shebang: bool,
}

impl<'src> Recipe<'src> {
  /// The dependencies before `&&`.
  pub(crate) fn priors(&self) -> &'src [Dependency<'src>] {
    self.dependencies.get(..self.prior_count as usize).unwrap_or(self.dependencies)
  }

  /// The dependencies after `&&`.
  pub(crate) fn subsequents(&self) -> &'src [Dependency<'src>] {
    self.dependencies.get(self.prior_count as usize..).unwrap_or(&[])
  }
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Parameter<'src> {
  pub name: Name<'src>,
  /// Behind a reference: most parameters have none.
  pub default: Option<&'src Expression<'src>>,
  pub export: bool,
  pub kind: ParameterKind,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParameterKind {
  Singular,
  Plus,
  Star,
}

impl ParameterKind {
  pub(crate) fn is_variadic(self) -> bool {
    self != ParameterKind::Singular
  }
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Dependency<'src> {
  /// `a::b::c`, one name per component.
  pub path: &'src [Name<'src>],
  pub arguments: &'src [Expression<'src>],
  /// For a mapped dependency `*(path … *ARG …)`, and only for one: the
  /// index of the starred argument in `arguments`.
  pub star: Option<u32>,
}

impl Dependency<'_> {
  /// Written `*(path … *ARG …)`.
  pub(crate) fn is_mapped(&self) -> bool {
    self.star.is_some()
  }

  /// The index of the starred argument of a mapped dependency.
  pub(crate) fn star_index(&self) -> Option<usize> {
    self.star.map(|star| star as usize)
  }
}

/// One physical body line (after the recipe's indentation). `text` spans
/// the line up to its line end, interpolations included; only the
/// interpolations are stored, the text between them is cut from `text` on
/// demand (see `fragments`), which keeps a line of a large body small. A
/// line without text or interpolations is a blank line.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Line<'src> {
  pub text: Token<'src>,
  pub interpolations: &'src [Interpolation<'src>],
}

/// `{{ expression }}` in a body line: `start..end` is its span in the file,
/// from `{{` to just past `}}`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Interpolation<'src> {
  pub start: u32,
  pub end: u32,
  pub expression: &'src Expression<'src>,
}

impl<'src> Line<'src> {
  pub(crate) fn is_empty(&self) -> bool {
    self.text.length == 0
  }

  /// The 0-based source line.
  pub(crate) fn number(&self) -> usize {
    self.text.line as usize
  }

  /// The line's text pieces and interpolations, in order; a text piece is
  /// never empty and never next to another one.
  pub(crate) fn fragments(&self) -> Fragments<'src> {
    self.fragments_from(self.text.offset, self.interpolations)
  }

  pub(crate) fn first_fragment(&self) -> Option<Fragment<'src>> {
    self.fragments().next()
  }

  pub(crate) fn last_fragment(&self) -> Option<Fragment<'src>> {
    let Some(last) = self.interpolations.last() else {
      return self.fragments().next();
    };
    let interpolation = Fragment::Interpolation { expression: last.expression };
    self.fragments_from(last.end, &[]).next().or(Some(interpolation))
  }

  /// The fragments from `position` on, which is the start of a text piece
  /// or of `interpolations`' first.
  fn fragments_from(
    &self,
    position: u32,
    interpolations: &'src [Interpolation<'src>],
  ) -> Fragments<'src> {
    Fragments { line: self.text, counted: self.text.offset, position, interpolations }
  }
}

/// The fragments of a body line (see `Line::fragments`).
#[derive(Clone)]
pub(crate) struct Fragments<'src> {
  /// The line's text; its `line` is that of offset `counted`.
  line: Token<'src>,
  counted: u32,
  position: u32,
  interpolations: &'src [Interpolation<'src>],
}

impl<'src> Fragments<'src> {
  /// The text from the current position to `end`, as a text token. Only
  /// interpolations span lines, so its line is the line's first plus the
  /// line ends in the interpolations before it.
  fn piece(&mut self, end: u32) -> Token<'src> {
    let passed =
      self.line.source.text.as_bytes().get(self.counted as usize..self.position as usize);
    // The pieces are short: a plain count costs less than memchr's set-up.
    #[allow(clippy::naive_bytecount)]
    let newlines = passed.unwrap_or_default().iter().filter(|&&byte| byte == b'\n').count();
    self.line.line += u32::try_from(newlines).unwrap_or(0);
    self.counted = self.position;
    let kind = super::token::TokenKind::Text;
    Token { kind, offset: self.position, length: end - self.position, ..self.line }
  }
}

impl<'src> Iterator for Fragments<'src> {
  type Item = Fragment<'src>;

  #[inline]
  fn next(&mut self) -> Option<Fragment<'src>> {
    let end = self.line.offset + self.line.length;
    match self.interpolations.split_first() {
      Some((next, _)) if self.position < next.start => {
        let text = self.piece(next.start);
        self.position = next.start;
        Some(Fragment::Text(text))
      }
      Some((next, rest)) => {
        self.position = next.end;
        self.interpolations = rest;
        Some(Fragment::Interpolation { expression: next.expression })
      }
      None if self.position < end => {
        let text = self.piece(end);
        self.position = end;
        Some(Fragment::Text(text))
      }
      None => None,
    }
  }
}

#[derive(Copy, Clone, Debug)]
pub(crate) enum Fragment<'src> {
  /// Body text; `{{{{` inside it stands for `{{`.
  Text(Token<'src>),
  /// `{{ expression }}`.
  Interpolation { expression: &'src Expression<'src> },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum StringKind {
  /// `'…'`
  RawSingle,
  /// `"…"`
  CookedDouble,
  /// `'''…'''`
  RawIndented,
  /// `"""…"""`
  CookedIndented,
}

impl StringKind {
  pub(crate) fn is_indented(self) -> bool {
    matches!(self, StringKind::RawIndented | StringKind::CookedIndented)
  }

  pub(crate) fn processes_escapes(self) -> bool {
    matches!(self, StringKind::CookedDouble | StringKind::CookedIndented)
  }

  pub(crate) fn delimiter(self) -> &'static str {
    match self {
      StringKind::RawSingle => "'",
      StringKind::CookedDouble => "\"",
      StringKind::RawIndented => "'''",
      StringKind::CookedIndented => "\"\"\"",
    }
  }
}

/// A string literal: the source token (printed verbatim by the formatter)
/// and its value after unindentation, escapes and `x` expansion.
#[derive(Copy, Clone, Debug)]
pub(crate) struct StringLiteral<'src> {
  pub token: Token<'src>,
  pub kind: StringKind,
  /// `x'…'`: shell-expanded at parse time.
  pub expand: bool,
  /// Borrowed from the source when cooking changes nothing.
  pub cooked: &'src str,
}

/// A piece of a format string `f'…{{ e }}…'`: the literal text pieces are
/// tokens (`FormatStringStart` / Continue / End, or a plain string for `f'…'`
/// without interpolations); `cooked` is the escape-processed text.
#[derive(Copy, Clone, Debug)]
pub(crate) struct FormatPiece<'src> {
  pub token: Token<'src>,
  pub cooked: &'src str,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ComparisonOperator {
  Equal,
  NotEqual,
  RegexMatch,
  RegexMismatch,
}

impl ComparisonOperator {
  pub(crate) fn symbol(self) -> &'static str {
    match self {
      ComparisonOperator::Equal => "==",
      ComparisonOperator::NotEqual => "!=",
      ComparisonOperator::RegexMatch => "=~",
      ComparisonOperator::RegexMismatch => "!~",
    }
  }
}

#[derive(Copy, Clone, Debug)]
pub(crate) enum Expression<'src> {
  /// `a && b` [lists]
  And {
    lhs: &'src Expression<'src>,
    rhs: &'src Expression<'src>,
    operator: Token<'src>,
  },
  /// `assert(condition[, message])`
  Assert {
    keyword: Token<'src>,
    condition: &'src Expression<'src>,
    message: Option<&'src Expression<'src>>,
  },
  /// `` `cmd` `` / ```` ```cmd``` ````; `command` is unindented.
  Backtick {
    token: Token<'src>,
    command: &'src str,
  },
  /// `name(arguments…)`; resolved to a built-in or user function during
  /// analysis, which records what in its binding table at `slot`. The name
  /// is behind a reference to keep every expression small.
  Call {
    name: &'src Name<'src>,
    arguments: &'src [Expression<'src>],
    slot: Slot,
  },
  Comparison {
    lhs: &'src Expression<'src>,
    rhs: &'src Expression<'src>,
    operator: ComparisonOperator,
    token: &'src Token<'src>,
  },
  /// `a + b`
  Concatenation {
    lhs: &'src Expression<'src>,
    rhs: &'src Expression<'src>,
    operator: Token<'src>,
  },
  /// `if c { a } else { b }`; `otherwise` None only with [lists].
  Conditional {
    keyword: &'src Token<'src>,
    condition: &'src Expression<'src>,
    then: &'src Expression<'src>,
    otherwise: Option<&'src Expression<'src>>,
  },
  /// `f'…'`: `start` is the first text piece, then (interpolation, following
  /// text piece) pairs. Triple-quoted ones are unindented after evaluation.
  /// `start` is boxed to keep every expression small.
  FormatString {
    start: &'src FormatPiece<'src>,
    kind: StringKind,
    parts: &'src [(Expression<'src>, FormatPiece<'src>)],
  },
  /// `( e )`
  Group {
    open: Token<'src>,
    contents: &'src Expression<'src>,
  },
  /// `a / b`, or `/ b` with `lhs` None.
  Join {
    lhs: Option<&'src Expression<'src>>,
    rhs: &'src Expression<'src>,
    operator: Token<'src>,
  },
  /// `[a, b]` [lists]
  List {
    bracket: Token<'src>,
    elements: &'src [Expression<'src>],
  },
  /// `a ++ b` [lists]
  ListConcatenation {
    lhs: &'src Expression<'src>,
    rhs: &'src Expression<'src>,
    operator: Token<'src>,
  },
  /// `!a` [lists]
  Not {
    operator: Token<'src>,
    operand: &'src Expression<'src>,
  },
  /// `a || b` [lists]
  Or {
    lhs: &'src Expression<'src>,
    rhs: &'src Expression<'src>,
    operator: Token<'src>,
  },
  StringLiteral(StringLiteral<'src>),
  /// A name; analysis records what it is bound to (a parameter, an
  /// assignment, a constant) in its binding table at `slot`.
  Variable {
    name: Name<'src>,
    slot: Slot,
  },
}

/// The number of a variable reference or call in a run: the parser numbers
/// them (see `Nodes::slot`), and analysis keeps what each is bound to in a
/// table indexed by it, so later stages never look a name up again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Slot(pub u32);

impl Slot {
  /// A node made outside the parser (tests, the formatter's fixtures):
  /// bound to nothing.
  #[cfg(test)]
  pub(crate) const NONE: Slot = Slot(u32::MAX);

  pub(crate) fn index(self) -> usize {
    self.0 as usize
  }
}

impl<'src> Expression<'src> {
  /// The first token of the expression, used to place carets.
  pub(crate) fn first_token(&self) -> Token<'src> {
    use Expression::*;
    match self {
      And { lhs, .. }
      | Comparison { lhs, .. }
      | Concatenation { lhs, .. }
      | ListConcatenation { lhs, .. }
      | Or { lhs, .. } => lhs.first_token(),
      Assert { keyword, .. } => *keyword,
      Conditional { keyword, .. } => **keyword,
      Backtick { token, .. } => *token,
      Call { name, .. } => **name,
      Variable { name, .. } => *name,
      FormatString { start, .. } => start.token,
      Group { open, .. } => *open,
      Join { lhs, operator, .. } => lhs.as_ref().map_or(*operator, |lhs| lhs.first_token()),
      List { bracket, .. } => *bracket,
      Not { operator, .. } => *operator,
      StringLiteral(literal) => literal.token,
    }
  }
}
