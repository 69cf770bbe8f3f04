//! Values that a parameter's `[arg]` constraints reject, whatever their
//! source (command line, default, dependency argument).

use snafu::Snafu;

use super::model::Parameter;

#[derive(Debug, Snafu)]
pub(crate) enum ArgumentError {
  #[snafu(display(
    "argument `{argument}` passed to recipe `{recipe}` parameter `{parameter}` does not match pattern {}",
    crate::text::ticked(patterns, "or")
  ))]
  PatternMismatch { argument: String, recipe: String, parameter: String, patterns: Vec<String> },
  #[snafu(display(
    "recipe `{recipe}` parameter `{parameter}` got {} but takes {bound}",
    crate::text::count(*found, "value", "values")
  ))]
  ValueCount { recipe: String, parameter: String, found: usize, bound: String },
}

/// The error for `found` values outside a parameter's `[arg(min, max)]`.
pub(crate) fn value_count_error(
  recipe: &str,
  parameter: Parameter,
  found: usize,
) -> Option<ArgumentError> {
  let bound = match (parameter.min(), parameter.max()) {
    (Some(min), _) if found < min => format!("at least {min}"),
    (_, Some(max)) if found > max => format!("at most {max}"),
    _ => return None,
  };
  Some(ArgumentError::ValueCount {
    recipe: recipe.to_string(),
    parameter: parameter.name().lexeme().to_string(),
    found,
    bound,
  })
}
