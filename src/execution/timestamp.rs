//! `--timestamp` and `[timestamp]`.

use chrono::format::{Item, StrftimeItems};

use super::error::ExecutionError;
use crate::analysis::model::Recipe;
use crate::evaluation::evaluator::{Evaluator, RunContext};

/// The timestamp format in effect for a recipe, validated; None if off.
pub(crate) fn format<'src>(
  context: &RunContext<'_, 'src>,
  evaluator: &Evaluator<'_, '_, 'src>,
  recipe: &Recipe<'src>,
) -> Result<Option<String>, ExecutionError<'src>> {
  let timestamp = recipe.effects.values().timestamp;
  let format = match timestamp.map(|timestamp| (timestamp.token, timestamp.format)) {
    Some((token, Some(expression))) => {
      let value = evaluator.evaluate(expression)?;
      let Some(format) = value.as_single() else {
        return Err(ExecutionError::Evaluation {
          error: crate::evaluation::error::EvaluationError::WithToken {
            token,
            message: format!("list value {} used as a `[timestamp]` attribute", value.show()),
          },
        });
      };
      Some(format.to_string())
    }
    Some((_, None)) => Some(context.config.timestamp_format.clone()),
    None if context.config.timestamp => Some(context.config.timestamp_format.clone()),
    None => None,
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
