//! Attributes: `[name(arguments)]` lines, and building and checking each
//! attribute from its arguments.

use std::collections::hash_map::{Entry, HashMap};

use super::*;
use crate::syntax::attributes::AttributeKind;

/// An attribute argument as written: positional, or `KEY[=VALUE]`.
pub(super) enum AttributeArgument<'src> {
  Positional(Expression<'src>),
  Keyword { key: Name<'src>, value: Option<Expression<'src>> },
}

/// How many arguments an attribute takes, as its arity error says it
/// (`1 argument`, `at most 2 arguments`, `1 to 3 arguments`, …).
pub(super) fn arity_description(min: usize, max: Option<usize>) -> String {
  match max {
    Some(max) if max == min => arguments(min),
    Some(max) if min == 0 => format!("at most {}", arguments(max)),
    Some(max) => format!("{min} to {}", arguments(max)),
    None => format!("at least {}", arguments(min)),
  }
}

impl<'src> Parser<'_, 'src> {
  // ---------------------------------------------------------------------
  // Attributes

  pub(super) fn parse_attribute_lines(&mut self) -> ParseResult<'src, Attributes<'src>> {
    // Most items have none: skip the list and the arena.
    if !self.next_is(TokenKind::BracketL) {
      return Ok(Attributes::default());
    }
    let mut list = Vec::new();
    let mut duplicates = Duplicates::default();
    while self.accept(TokenKind::BracketL).is_some() {
      loop {
        let entry = self.attribute()?;
        duplicates.check(&list, &entry)?;
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

  pub(super) fn attribute(&mut self) -> ParseResult<'src, AttributeEntry<'src>> {
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

  pub(super) fn attribute_argument(
    &mut self,
    keyed: bool,
  ) -> ParseResult<'src, AttributeArgument<'src>> {
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
}

pub(super) fn literal_argument<'src>(
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

pub(super) fn build_attribute<'src>(
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
pub(super) fn arity_bug(name: Name<'_>) -> Box<SyntaxError<'_>> {
  error(name, ParseErrorKind::UnknownAttribute { attribute: name.lexeme() })
}

pub(super) fn single<'src>(
  name: Name<'src>,
  literals: Vec<StringLiteral<'src>>,
) -> ParseResult<'src, StringLiteral<'src>> {
  literals.into_iter().next().ok_or_else(|| arity_bug(name))
}

pub(super) fn signals(literals: Vec<StringLiteral<'_>>) -> ParseResult<'_, Vec<Signal>> {
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

pub(super) type Keywords<'src> = Vec<(Name<'src>, Option<Expression<'src>>)>;

pub(super) fn take_key<'src>(
  keywords: &mut Keywords<'src>,
  key: &str,
) -> Option<(Name<'src>, Option<Expression<'src>>)> {
  let index = keywords.iter().position(|(name, _)| name.lexeme() == key)?;
  Some(keywords.remove(index))
}

pub(super) fn required_value<'src>(
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
pub(super) fn unknown_keys<'src>(
  keywords: &Keywords<'src>,
  attribute: &'static str,
) -> ParseResult<'src, ()> {
  match keywords.iter().min_by_key(|(key, _)| key.lexeme()) {
    Some((key, _)) => {
      Err(error(*key, ParseErrorKind::UnknownAttributeKey { key: key.lexeme(), attribute }))
    }
    None => Ok(()),
  }
}

pub(super) fn build_cache(mut keywords: Keywords<'_>) -> ParseResult<'_, CacheAttribute<'_>> {
  let extra = required_value(take_key(&mut keywords, "extra"))?;
  let inputs = required_value(take_key(&mut keywords, "inputs"))?;
  let outputs = required_value(take_key(&mut keywords, "outputs"))?;
  unknown_keys(&keywords, AttributeKind::Cache.name())?;
  if let Some(outputs) = &outputs {
    let literals = match &outputs.value {
      Expression::StringLiteral(_) => std::slice::from_ref(&outputs.value),
      Expression::List { elements, .. } => elements,
      _ => &[],
    };
    for element in literals {
      let Expression::StringLiteral(literal) = element else {
        continue;
      };
      if let Some(problem) = cache_output_problem(literal.cooked) {
        return Err(error(
          literal.token,
          ParseErrorKind::InvalidCacheOutput { output: literal.cooked, problem },
        ));
      }
    }
  }
  Ok(CacheAttribute { extra, inputs, outputs })
}

/// `long`/`short`: bare or `=LITERAL`; the option name is validated.
pub(super) fn option_key<'src>(
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
pub(super) fn switch_key<'src>(
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

pub(super) fn bound_key<'src>(
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

pub(super) fn build_arg<'src>(
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

/// What makes two attributes of one item duplicates: their kind and, for
/// the kinds that may repeat with different arguments, the argument that
/// must differ (an `[arg]`'s parameter, a `[group]`'s name). Kinds that may
/// repeat freely have none.
fn duplicate_key<'src>(attribute: &Attribute<'src>) -> Option<(AttributeKind, &'src str)> {
  match attribute {
    Attribute::Arg(arg) => Some((AttributeKind::Arg, arg.name.cooked)),
    Attribute::Group(group) => Some((AttributeKind::Group, group.cooked)),
    attribute if attribute.kind().is_repeatable() => None,
    attribute => Some((attribute.kind(), "")),
  }
}

/// Lists longer than this are checked for duplicates through an index, so
/// thousands of `[group]`s on one recipe cost linear time.
const INDEXED_AFTER: usize = 16;

/// Which attributes may be repeated on one item, checked as each is added:
/// a duplicate is blamed with the line of the first attribute it repeats.
#[derive(Default)]
pub(super) struct Duplicates<'src> {
  /// The key of each attribute of a long list, with its first line.
  index: HashMap<(AttributeKind, &'src str), u32>,
}

impl<'src> Duplicates<'src> {
  pub(super) fn check(
    &mut self,
    list: &[AttributeEntry<'src>],
    entry: &AttributeEntry<'src>,
  ) -> ParseResult<'src, ()> {
    let Some(key) = duplicate_key(&entry.attribute) else {
      return Ok(());
    };
    let first = if list.len() < INDEXED_AFTER {
      list
        .iter()
        .find(|existing| duplicate_key(&existing.attribute) == Some(key))
        .map(|existing| existing.name.line)
    } else {
      if self.index.is_empty() {
        for existing in list.iter().rev() {
          if let Some(existing_key) = duplicate_key(&existing.attribute) {
            self.index.insert(existing_key, existing.name.line);
          }
        }
      }
      match self.index.entry(key) {
        Entry::Occupied(first) => Some(*first.get()),
        Entry::Vacant(vacant) => {
          vacant.insert(entry.name.line);
          None
        }
      }
    };
    match first {
      Some(first) => Err(duplicate_error(entry, first as usize + 1)),
      None => Ok(()),
    }
  }
}

fn duplicate_error<'src>(entry: &AttributeEntry<'src>, first: usize) -> Box<SyntaxError<'src>> {
  let second = entry.name.line as usize + 1;
  let kind = match &entry.attribute {
    Attribute::Arg(arg) => {
      ParseErrorKind::DuplicateArgAttribute { argument: arg.name.cooked.to_string(), first, second }
    }
    Attribute::Group(group) => {
      ParseErrorKind::DuplicateGroup { group: group.token.lexeme(), first, second }
    }
    attribute => {
      ParseErrorKind::DuplicateAttribute { attribute: attribute.name().to_string(), first, second }
    }
  };
  error(entry.name, kind)
}

/// Pairs of recipe attributes that exclude each other.
/// Every `[arg]` names a parameter; checked as soon as the parameters are
/// parsed, so it wins over later parse errors.
pub(super) fn check_arg_parameters<'src>(
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
pub(super) fn check_parameter_arg<'src>(
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
pub(super) fn check_duplicate_options<'src>(
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
        let blamed = if crate::syntax::attribute_order::compare_args(arg, first_arg).is_lt() {
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

pub(super) fn check_recipe_attributes<'src>(
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

/// What is wrong with a declared `[cache]` output, if anything: it must be
/// a plain relative path (`/`-separated names, none empty, `.` or `..`),
/// so that restoring it can never replace the working directory, a parent
/// of it or anything outside it. Checked for literals when the justfile is
/// parsed and for every value when the recipe runs.
pub(crate) fn cache_output_problem(output: &str) -> Option<&'static str> {
  if output.is_empty() {
    Some("is empty")
  } else if output.starts_with('/') || output.contains(['\\', ':']) {
    Some("is not a relative path")
  } else if output.split('/').any(|part| part == "..") {
    Some("climbs out of the working directory with `..`")
  } else if output.split('/').any(|part| part.is_empty() || part == "." || part.contains('\0')) {
    Some("is not a plain path (it has an empty or `.` component)")
  } else {
    None
  }
}
