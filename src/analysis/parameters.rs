//! Recipe parameters and their `[arg(…)]` configuration.

use regex::Regex;

use super::compile_error::{error, CompileError};
use super::const_eval::ConstEvaluator;
use super::effects::ParameterOptions;
use super::error::AnalysisErrorKind;
use crate::syntax::ast::{ArgAttribute, Attribute, Recipe};
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

/// The `[arg]` configuration of each parameter, by position, from the
/// recipe's `[arg]`s (`arguments`, not empty: most recipes have none and
/// skip this). The parser has already checked every `[arg]` rule that needs
/// no evaluation (names, keys, combinations); what is left is evaluating
/// `pattern` and `help` as constants.
pub(crate) fn options<'src>(
  recipe: &'src Recipe<'src>,
  arguments: &[&'src ArgAttribute<'src>],
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, Vec<ParameterOptions<'src>>> {
  let mut options: Vec<ParameterOptions> =
    recipe.parameters.iter().map(|_| ParameterOptions::default()).collect();
  for arg in arguments {
    let mut parameters = recipe.parameters.iter().zip(options.iter_mut());
    if let Some((parameter, options)) = parameters.find(|(p, _)| p.name.lexeme() == arg.name.cooked)
    {
      configure(parameter.name.lexeme(), options, arg, evaluator)?;
    }
  }
  Ok(options)
}

/// Configure the parameter named `name` by its `[arg]`.
fn configure<'src>(
  name: &'src str,
  parameter: &mut ParameterOptions<'src>,
  arg: &'src ArgAttribute<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, ()> {
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
