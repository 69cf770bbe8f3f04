//! What running a recipe's body needs, whichever runner runs it (linewise or
//! script): the directory it runs in, the check for a signal after each
//! child, and the errors of a shell that would not start.

use super::error::ExecutionError;
use crate::analysis::model::Recipe;
use crate::evaluation::evaluator::{Evaluator, ModuleState, RecipeScope, RunContext, Site};
use crate::platform::signals;

type Result<'src, T = ()> = std::result::Result<T, ExecutionError<'src>>;

/// After a child succeeded: a recorded signal ends the run unless the line
/// had `-` or the recipe continues on that signal.
pub(crate) fn check_interrupted<'src>(
  context: &RunContext<'_, 'src>,
  recipe: &Recipe<'src>,
  infallible: bool,
) -> Result<'src> {
  let Some(signal) = context.supervisor.pending() else {
    return Ok(());
  };
  if infallible || continues_on(recipe, signal) {
    // This recipe goes on past the signal; the rest of the run does only
    // if no other recipe stops at it (`context` is this recipe's view).
    context.supervisor.resume();
    return Ok(());
  }
  // Left pending, so that no other recipe of the run (`[parallel]`) starts
  // a process while the run stops.
  Err(ExecutionError::Interrupted { signal: signals::name(signal), number: signal })
}

fn continues_on(recipe: &Recipe<'_>, signal: i32) -> bool {
  recipe.effects.values().continue_on.contains(&crate::syntax::ast::Signal(signal))
}

pub(crate) fn spawn_error<'src>(
  recipe: String,
  shell: &str,
  source: std::io::Error,
) -> ExecutionError<'src> {
  let shell = shell.to_string();
  match source.kind() {
    std::io::ErrorKind::NotFound => ExecutionError::ShellNotFound { recipe, shell, source },
    std::io::ErrorKind::PermissionDenied => {
      ExecutionError::ShellPermission { recipe, shell, source }
    }
    _ => ExecutionError::ShellIo { recipe, shell, source },
  }
}

/// The directory a recipe's commands run in.
pub(crate) fn recipe_directory<'src>(
  context: &RunContext<'_, 'src>,
  state: &ModuleState<'_, 'src>,
  scope: &RecipeScope<'_, 'src>,
) -> Result<'src, std::path::PathBuf> {
  let recipe = scope.recipe;
  if let Some(directory) = recipe.effects.values().working_directory {
    let value = Evaluator::new(context, state, Some(scope), Site::Body).evaluate(directory.path)?;
    let Some(path) = value.as_single() else {
      let message =
        format!("list value {} used as a `[working-directory]` attribute", value.show());
      return Err(ExecutionError::Evaluation {
        error: crate::evaluation::error::EvaluationError::WithToken {
          token: directory.token,
          message,
        },
      });
    };
    return Ok(state.working_directory.join(path));
  }
  if recipe.effects.flags.no_cd() || state.module.settings.no_cd {
    return Ok(context.config.invocation_directory.clone());
  }
  Ok(state.working_directory.clone())
}
