//! Recipe parameters and their `[arg(…)]` configuration (reference.md §4.4).

#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use super::analyzer::error;
use super::const_eval::ConstEvaluator;
use super::error::AnalysisErrorKind;
use super::model::Parameter;
use crate::syntax::ast::{self, ArgAttribute, Attribute, Recipe};
use crate::syntax::compile_error::CompileError;
use crate::syntax::token::Token;

type CompileResult<T> = Result<T, CompileError<'static>>;

fn arg_attributes<'r>(
  recipe: &'r Recipe<'static>,
) -> impl Iterator<Item = (Token<'static>, &'r ArgAttribute<'static>)> {
  recipe.attributes.list.iter().filter_map(|entry| match &entry.attribute {
    Attribute::Arg(arg) => Some((entry.name, arg.as_ref())),
    _ => None,
  })
}

/// Names of parameters made options by `[arg(…, long/short)]`.
pub(crate) fn option_names(recipe: &Recipe<'static>) -> BTreeSet<String> {
  arg_attributes(recipe)
    .filter(|(_, arg)| arg.long.is_some() || arg.short.is_some())
    .map(|(_, arg)| arg.name.cooked.clone())
    .collect()
}

fn plain(parameter: &'static ast::Parameter<'static>) -> Parameter<'static> {
  Parameter {
    name: parameter.name,
    default: parameter.default.as_ref(),
    export: parameter.export,
    kind: parameter.kind,
    long: None,
    short: None,
    patterns: Vec::new(),
    value: None,
    flag: false,
    multiple: false,
    min: None,
    max: None,
    help: None,
  }
}

pub(crate) fn build(
  recipe: &'static Recipe<'static>,
  evaluator: &ConstEvaluator<'_, 'static>,
) -> CompileResult<Vec<Parameter<'static>>> {
  let mut parameters: Vec<Parameter<'static>> = recipe.parameters.iter().map(plain).collect();
  let mut configured: BTreeMap<String, Token<'static>> = BTreeMap::new();
  for (attribute_name, arg) in arg_attributes(recipe) {
    let argument = arg.name.cooked.clone();
    let Some(parameter) = parameters.iter_mut().find(|p| p.name.lexeme() == argument) else {
      return Err(error(arg.name.token, AnalysisErrorKind::UndefinedArgument { argument }));
    };
    if let Some(first) = configured.insert(argument.clone(), attribute_name) {
      return Err(error(
        attribute_name,
        AnalysisErrorKind::DuplicateArgAttribute {
          argument,
          first: first.line as usize + 1,
          second: attribute_name.line as usize + 1,
        },
      ));
    }
    configure(parameter, arg, evaluator)?;
  }
  Ok(parameters)
}

fn configure(
  parameter: &mut Parameter<'static>,
  arg: &'static ArgAttribute<'static>,
  evaluator: &ConstEvaluator<'_, 'static>,
) -> CompileResult<()> {
  let name = parameter.name.lexeme();
  if let Some(long) = &arg.long {
    let (value, token) = match &long.value {
      Some(literal) => (literal.cooked.clone(), literal.token),
      None => (name.to_string(), long.key),
    };
    check_option_name(&value, name, token)?;
    parameter.long = Some(value);
  }
  if let Some(short) = &arg.short {
    let (value, token) = match &short.value {
      Some(literal) => (literal.cooked.clone(), literal.token),
      None => (name.chars().next().map(String::from).unwrap_or_default(), short.key),
    };
    check_option_name(&value, name, token)?;
    let mut chars = value.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
      return Err(error(token, AnalysisErrorKind::ShortOptionMultiple { parameter: name }));
    };
    parameter.short = Some(c);
  }
  let is_option = parameter.long.is_some() || parameter.short.is_some();
  if let Some(pattern) = &arg.pattern {
    for element in evaluator.evaluate_const(&pattern.value)?.0 {
      if let Err(regex_error) =
        Regex::new(&element).and_then(|_| Regex::new(&format!("^(?:{element})$")))
      {
        return Err(error(
          pattern.key,
          AnalysisErrorKind::ArgumentPattern { cause: regex_error.to_string() },
        ));
      }
      parameter.patterns.push(element);
    }
  }
  if let Some(value) = &arg.value {
    if !is_option {
      return Err(error(value.key, AnalysisErrorKind::ArgKeyRequiresOption { key: "value" }));
    }
    parameter.value = Some(&value.value);
  }
  if let Some(flag) = &arg.flag {
    if !is_option {
      return Err(error(flag.key, AnalysisErrorKind::ArgKeyRequiresOption { key: "flag" }));
    }
    if arg.value.is_some() {
      return Err(error(
        flag.key,
        AnalysisErrorKind::FlagConflict { parameter: name, other: "value" },
      ));
    }
    if arg.pattern.is_some() {
      return Err(error(
        flag.key,
        AnalysisErrorKind::FlagConflict { parameter: name, other: "pattern" },
      ));
    }
    parameter.flag = true;
  }
  if let Some(multiple) = &arg.multiple {
    if !is_option {
      return Err(error(multiple.key, AnalysisErrorKind::ArgKeyRequiresOption { key: "multiple" }));
    }
    parameter.multiple = true;
  }
  if let Some(max) = &arg.max {
    parameter.max = Some(max.value.1);
  }
  if let Some(min) = &arg.min {
    parameter.min = Some(min.value.1);
    if let Some(max) = parameter.max.filter(|max| *max < min.value.1) {
      return Err(error(min.key, AnalysisErrorKind::MinExceedsMax { min: min.value.1, max }));
    }
  }
  if let Some(help) = &arg.help {
    let value = evaluator.evaluate_const(&help.value)?;
    parameter.help = (!value.elements().is_empty()).then(|| value.joined());
  }
  Ok(())
}

fn check_option_name(
  value: &str,
  parameter: &'static str,
  token: Token<'static>,
) -> CompileResult<()> {
  let kind = if value.is_empty() {
    AnalysisErrorKind::OptionNameEmpty { parameter }
  } else if value.contains('=') {
    AnalysisErrorKind::OptionNameEquals { parameter }
  } else if value.starts_with('-') {
    AnalysisErrorKind::OptionNameDash { parameter }
  } else {
    return Ok(());
  };
  Err(error(token, kind))
}
