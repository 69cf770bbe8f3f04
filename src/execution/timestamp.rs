//! `--timestamp` and `[timestamp]`.

use chrono::format::{Item, StrftimeItems};

use super::error::ExecutionError;
use crate::analysis::model::Recipe;
use crate::evaluation::evaluator::{Evaluator, RunContext};
use crate::syntax::ast::Attribute;
use crate::syntax::attributes::AttributeKind;

/// The timestamp format in effect for a recipe, validated; None if off.
pub(crate) fn format<'src>(
  context: &RunContext<'_, 'src>,
  evaluator: &Evaluator<'_, '_, 'src>,
  recipe: &Recipe<'src>,
) -> Result<Option<String>, ExecutionError<'src>> {
  let entry =
    recipe.attributes().iter().find(|entry| entry.attribute.kind() == AttributeKind::Timestamp);
  let format = match entry.map(|entry| (entry, &entry.attribute)) {
    Some((entry, Attribute::Timestamp(Some(expression)))) => {
      let value = evaluator.evaluate(expression)?;
      let Some(format) = value.as_single() else {
        return Err(ExecutionError::Evaluation {
          error: crate::evaluation::error::EvaluationError::WithToken {
            token: entry.name,
            message: format!("list value {} used as a `[timestamp]` attribute", value.show()),
          },
        });
      };
      Some(format.to_string())
    }
    Some((_, Attribute::Timestamp(None))) => Some(context.config.timestamp_format.clone()),
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

pub(crate) fn validate<'src>(format: &str) -> Result<(), ExecutionError<'src>> {
  if StrftimeItems::new(format).any(|item| matches!(item, Item::Error)) {
    return Err(ExecutionError::TimestampFormat { format: format.to_string() });
  }
  Ok(())
}
