//! Parse errors.

use snafu::Snafu;

use super::token::KindSet;
use super::token::TokenKind;

#[derive(Debug, Clone, Snafu)]
pub(crate) enum ParseErrorKind<'src> {
  #[snafu(display("expected {}, but found {found}", expected_list(*expected)))]
  UnexpectedToken { expected: KindSet, found: TokenKind },
  #[snafu(display("unknown setting `{setting}`"))]
  UnknownSetting { setting: &'src str },

  // Strings.
  #[snafu(display("`\\{character}` is not a valid escape sequence"))]
  InvalidEscapeSequence { character: String },
  #[snafu(display("expected unicode escape sequence delimiter `{{` but found `{character}`"))]
  UnicodeEscapeDelimiter { character: char },
  #[snafu(display("unicode escape sequences must not be empty"))]
  UnicodeEscapeEmpty,
  #[snafu(display("expected hex digit [0-9A-Fa-f] but found `{character}`"))]
  UnicodeEscapeCharacter { character: char },
  #[snafu(display(
    "unicode escape sequence starting with `\\u{{{digits}` longer than six hex digits"
  ))]
  UnicodeEscapeLength { digits: String },
  #[snafu(display(
    "unicode escape sequence value `{digits}` greater than maximum valid code point `10FFFF`"
  ))]
  UnicodeEscapeRange { digits: String },
  #[snafu(display("unterminated unicode escape sequence"))]
  UnicodeEscapeUnterminated,
  #[snafu(display("shell expansion failed: {message}"))]
  ShellExpansion { message: String },
  #[snafu(display("backticks may not start with `#!`"))]
  BacktickShebang,
  #[snafu(display("expected keyword `{expected}` but found identifier `{found}`"))]
  ExpectedKeyword { expected: &'static str, found: &'src str },
  #[snafu(display("parsing recursion depth exceeded"))]
  RecursionDepthExceeded,

  // Items and attributes.
  #[snafu(display("extraneous attribute{}", if *count == 1 { "" } else { "s" }))]
  ExtraneousAttributes { count: usize },
  #[snafu(display("unknown attribute `{attribute}`"))]
  UnknownAttribute { attribute: &'src str },
  #[snafu(display(
    "attribute `{attribute}` got {} but takes {expected}",
    arguments(*found)
  ))]
  AttributeArgumentCount { attribute: &'static str, found: usize, expected: String },
  #[snafu(display(
    "attribute `{attribute}` first used on line {first} is duplicated on line {second}"
  ))]
  DuplicateAttribute { attribute: String, first: usize, second: usize },
  #[snafu(display(
    "`[group({group})]` attribute first used on line {first} is duplicated on line {second}"
  ))]
  DuplicateGroup { group: &'src str, first: usize, second: usize },
  #[snafu(display(
    "attribute for argument `{argument}` first used on line {first} is duplicated on line {second}"
  ))]
  DuplicateArgAttribute { argument: String, first: usize, second: usize },
  #[snafu(display("argument attribute for undefined argument `{argument}`"))]
  UndefinedArgument { argument: String },
  #[snafu(display("{item_kind} `{name}` has invalid attribute `{attribute}`"))]
  InvalidAttribute { item_kind: &'static str, name: &'src str, attribute: &'static str },
  #[snafu(display("attribute `{attribute}` arguments must be string literals"))]
  AttributeArgumentNotLiteral { attribute: &'static str },
  #[snafu(display("positional attribute arguments cannot follow keyword attribute arguments"))]
  PositionalAfterKeyword,
  #[snafu(display("duplicate key `{key}` for `{attribute}` attribute"))]
  DuplicateAttributeKey { key: &'src str, attribute: &'static str },
  #[snafu(display("unknown key `{key}` for `{attribute}` attribute"))]
  UnknownAttributeKey { key: &'src str, attribute: &'static str },
  #[snafu(display("attribute key `{key}` requires value"))]
  AttributeKeyRequiresValue { key: &'src str },
  #[snafu(display("attribute key `{key}` takes no value"))]
  AttributeKeyTakesNoValue { key: &'src str },
  #[snafu(display("cache output `{output}` {problem}"))]
  InvalidCacheOutput { output: &'src str, problem: &'static str },
  #[snafu(display("`flag` attribute for argument `{argument}` takes no value"))]
  FlagTakesNoValue { argument: String },
  #[snafu(display("invalid signal `{signal}`: expected `SIGHUP`, `SIGINT`, or `SIGQUIT`"))]
  InvalidSignal { signal: String },
  #[snafu(display("option name for parameter `{parameter}` is empty"))]
  OptionNameEmpty { parameter: String },
  #[snafu(display("option name for parameter `{parameter}` contains equal sign"))]
  OptionNameContainsEqualSign { parameter: String },
  #[snafu(display("option name for parameter `{parameter}` starts with dash"))]
  OptionNameStartsWithDash { parameter: String },
  #[snafu(display("short option name for parameter `{parameter}` contains multiple characters"))]
  ShortOptionMultipleCharacters { parameter: String },
  #[snafu(display("argument attribute `{key}` only valid with `long` or `short`"))]
  ArgKeyRequiresOption { key: &'static str },
  #[snafu(display("argument `{argument}` may not have both `flag` and `{other}` attributes"))]
  FlagConflict { argument: String, other: &'static str },
  #[snafu(display("invalid `{key}` value `{value}`{}", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default()))]
  InvalidArgBound { key: &'static str, value: String, detail: Option<String> },
  #[snafu(display("argument attribute `min` `{min}` exceeds `max` `{max}`"))]
  ArgMinExceedsMax { min: usize, max: usize },
  #[snafu(display("recipe `{recipe}` defines option `{option}` multiple times"))]
  DuplicateOption { recipe: &'src str, option: String },
  #[snafu(display(
    "argument attribute `{key}` only valid with `multiple` or a variadic parameter"
  ))]
  BoundRequiresMultiple { key: &'static str },
  #[snafu(display("flag parameter `{parameter}` may not have a default"))]
  FlagDefault { parameter: &'src str },
  #[snafu(display("recipe `{recipe}` has both `[{first}]` and `[{second}]` attributes"))]
  ConflictingAttributes { recipe: &'src str, first: &'static str, second: &'static str },

  // Settings.
  #[snafu(display("expected keyword `true` or `false` but found identifier `{found}`"))]
  ExpectedBoolean { found: &'src str },
  #[snafu(display("`{setting}` setting must be a plain string literal"))]
  SettingNotPlainLiteral { setting: &'src str },
  #[snafu(display("indentation must not be empty"))]
  IndentationEmpty,
  #[snafu(display("indentation must be spaces or tabs"))]
  IndentationNotWhitespace,
  #[snafu(display("indentation may not be mixed"))]
  IndentationMixed,
  #[snafu(display(
    "`minimum-version` setting has invalid version `{version}`: expected `MAJOR.MINOR.PATCH`"
  ))]
  InvalidMinimumVersion { version: String },
  #[snafu(display("justfile requires just {version} or later, but using {}", env!("CARGO_PKG_VERSION")))]
  MinimumVersionNotMet { version: String },

  // Recipes.
  #[snafu(display("parameter `{parameter}` follows variadic parameter"))]
  ParameterFollowsVariadic { parameter: &'src str },
  #[snafu(display("mapped dependencies must have starred argument"))]
  MappedDependencyWithoutStar,
  #[snafu(display("mapped dependencies may not have multiple starred arguments"))]
  MappedDependencyMultipleStars,
  #[snafu(display("starred arguments may not be used outside mapped dependencies"))]
  StarOutsideMappedDependency,
}

/// `0 arguments`, `1 argument`, `2 arguments`, …
pub(crate) fn arguments(count: usize) -> String {
  if count == 1 {
    "1 argument".to_string()
  } else {
    format!("{count} arguments")
  }
}

/// `a`, `a or b`, `a, b, or c`.
pub(crate) fn expected_list(expected: KindSet) -> String {
  let names: Vec<&str> = expected.kinds().map(TokenKind::name).collect();
  match names.as_slice() {
    [] => String::new(),
    [one] => (*one).to_string(),
    [a, b] => format!("{a} or {b}"),
    [init @ .., last] => format!("{}, or {last}", init.join(", ")),
  }
}
