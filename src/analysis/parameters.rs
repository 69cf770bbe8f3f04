//! Recipe parameters and their `[arg(…)]` configuration.

#![allow(clippy::result_large_err)]

use regex::Regex;

use super::analyzer::error;
use super::compile_error::CompileError;
use super::const_eval::ConstEvaluator;
use super::error::AnalysisErrorKind;
use super::model::Parameter;
use crate::syntax::ast::{self, ArgAttribute, Attribute, Recipe};
use crate::syntax::token::Token;

type CompileResult<'src, T> = Result<T, CompileError<'src>>;

fn arg_attributes<'src, 'r>(
  recipe: &'r Recipe<'src>,
) -> impl Iterator<Item = (Token<'src>, &'r ArgAttribute<'src>)> {
  recipe.attributes.list.iter().filter_map(|entry| match &entry.attribute {
    Attribute::Arg(arg) => Some((entry.name, *arg)),
    _ => None,
  })
}

/// Names of parameters made options by `[arg(…, long/short)]`, sorted.
pub(crate) fn option_names<'r>(recipe: &'r Recipe) -> Vec<&'r str> {
  let mut names: Vec<&str> = arg_attributes(recipe)
    .filter(|(_, arg)| arg.long.is_some() || arg.short.is_some())
    .map(|(_, arg)| arg.name.cooked)
    .collect();
  names.sort_unstable();
  names
}

fn plain<'src>(parameter: &'src ast::Parameter<'src>) -> Parameter<'src> {
  Parameter { ast: parameter, options: None }
}

/// The model's parameters: the parse tree's, configured by `[arg]`. The
/// parser has already checked every `[arg]` rule that needs no evaluation
/// (names, keys, combinations); what is left is evaluating `pattern` and
/// `help` as constants.
/// Appended to `parameters`.
pub(crate) fn build<'src>(
  recipe: &'src Recipe<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
  parameters: &mut Vec<Parameter<'src>>,
) -> CompileResult<'src, ()> {
  let start = parameters.len();
  parameters.extend(recipe.parameters.iter().map(plain));
  let own = &mut parameters[start..];
  for (_, arg) in arg_attributes(recipe) {
    if let Some(parameter) = own.iter_mut().find(|p| p.name().lexeme() == arg.name.cooked) {
      configure(parameter, arg, evaluator)?;
    }
  }
  Ok(())
}

fn configure<'src>(
  parameter: &mut Parameter<'src>,
  arg: &'src ArgAttribute<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, ()> {
  let name = parameter.name().lexeme();
  let parameter = parameter.options_mut();
  parameter.long = arg.long.as_ref().map(|long| match &long.value {
    Some(literal) => literal.cooked.to_string(),
    None => name.to_string(),
  });
  parameter.short = arg.short.as_ref().and_then(|short| match &short.value {
    Some(literal) => literal.cooked.chars().next(),
    None => name.chars().next(),
  });
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
  parameter.value = arg.value.as_ref().map(|value| &value.value);
  parameter.flag = arg.flag.is_some();
  parameter.multiple = arg.multiple.is_some();
  parameter.max = arg.max.as_ref().map(|max| max.value.1);
  parameter.min = arg.min.as_ref().map(|min| min.value.1);
  if let Some(help) = &arg.help {
    let value = evaluator.evaluate_const(&help.value)?;
    parameter.help = (!value.elements().is_empty()).then(|| value.joined());
  }
  Ok(())
}
