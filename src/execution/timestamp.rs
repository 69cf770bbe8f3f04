//! `--timestamp` and `[timestamp]` (reference.md §4.11).

use chrono::format::{Item, StrftimeItems};

use super::error::ExecutionError;
use crate::analysis::model::Recipe;
use crate::evaluation::evaluator::{Evaluator, RunContext};
use crate::syntax::ast::Attribute;

/// The timestamp format in effect for a recipe, validated; None if off.
pub fn format<'src>(
  context: &RunContext<'_, 'src>,
  evaluator: &Evaluator<'_, '_, 'src>,
  recipe: &Recipe<'src>,
) -> Result<Option<String>, ExecutionError<'src>> {
  let format = match recipe.attribute("timestamp") {
    Some(Attribute::Timestamp(Some(expression))) => Some(evaluator.evaluate(expression)?.joined()),
    Some(Attribute::Timestamp(None)) => Some(context.config.timestamp_format.clone()),
    _ if context.config.timestamp => Some(context.config.timestamp_format.clone()),
    _ => None,
  };
  match format {
    Some(format) => {
      validate(&format)?;
      Ok(Some(format))
    }
    None => Ok(None),
  }
}

pub fn validate<'src>(format: &str) -> Result<(), ExecutionError<'src>> {
  if StrftimeItems::new(format).any(|item| matches!(item, Item::Error)) {
    return Err(ExecutionError::TimestampFormat { format: format.to_string() });
  }
  Ok(())
}
