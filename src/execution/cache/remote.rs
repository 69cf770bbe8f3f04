//! `--remote-executor`: a `[cache]` recipe the shared store has no result
//! for runs on the executor's workers (`shared/execute.rs`), and its result
//! is restored as a hit's is. The run's other recipes run here.

use std::sync::Arc;

use serde_json::{json, Value as Json};

use super::shared::{print_streams, shown_server, Executed, Shared};
use super::warning::{warn, CacheWarning};
use super::{message, restore_shared, Entry, Result, Stores};
use crate::evaluation::evaluator::RunContext;
use crate::execution::error::{stderr_line, ExecutionError};
use crate::options::Options;

/// The run's executor, if it has one: an error when it cannot be reached,
/// unless `--remote-fallback` asks for local runs then (warned).
pub(super) fn executor<'src>(
  stores: &Stores,
  config: &Options,
) -> Result<'src, Option<Arc<Shared>>> {
  match stores.for_executor(config) {
    None => Ok(None),
    Some(Ok(executor)) => Ok(Some(executor)),
    Some(Err(why)) if config.remote_fallback => {
      warn(&CacheWarning::RemoteFallback { why }, config.quiet)?;
      Ok(None)
    }
    Some(Err(why)) => Err(message(why)),
  }
}

/// The worker properties asked for (`--remote-property KEY=VALUE`) beside
/// the OS and processor, and the action's timeout (`--remote-timeout`),
/// added to an action's description: they are part of the Action, so of
/// its cache key.
pub(super) fn with_platform(mut spec: Json, config: &Options) -> Json {
  if config.remote_executor.is_none() {
    return spec;
  }
  if let Some(platform) = spec["platform"].as_array_mut() {
    for property in &config.remote_properties {
      let (key, value) = property.split_once('=').unwrap_or((property, ""));
      platform.push(json!([key, value]));
    }
  }
  if let Some(seconds) = config.remote_timeout {
    spec["timeout"] = json!(seconds);
  }
  spec
}

/// Plan the recipe's run on `executor`: its action described there.
pub(super) fn plan<'src>(
  context: &RunContext<'_, 'src>,
  namepath: &str,
  spec: std::result::Result<Json, String>,
  executor: Arc<Shared>,
  entry: &mut Entry,
) -> Result<'src> {
  let config = context.config;
  let spec = spec
    .map(|spec| with_platform(spec, config))
    .map_err(|why| message(format!("recipe `{namepath}` cannot run remotely: {why}")))?;
  let Some(action) = executor.prepare_action(spec)? else {
    return Err(message(format!(
      "recipe `{namepath}` cannot run remotely: remote executor `{}` failed",
      executor.shown()
    )));
  };
  entry.publish = None;
  entry.execute = Some((executor, action));
  Ok(())
}

impl Entry {
  /// Whether the recipe runs on the executor.
  pub(crate) fn runs_remotely(&self) -> bool {
    self.execute.is_some()
  }

  /// Run the recipe on the executor: its result restored as a hit's, its
  /// output printed, its exit status the run's, as a local run's would be.
  pub(crate) fn run_remotely<'src>(
    mut self,
    context: &RunContext<'_, 'src>,
    recipe: &crate::analysis::model::Recipe<'src>,
  ) -> Result<'src> {
    let Some((executor, action)) = self.execute.take() else {
      return Ok(());
    };
    let config = context.config;
    let name = recipe.name().lexeme().to_string();
    let server = executor.shown().to_string();
    if (config.verbosity >= 1 || config.explain) && !config.quiet {
      let painter = context.stderr_painter();
      stderr_line(&painter.banner(&format!("===> running remotely on `{server}`")))?;
    }
    // A signal is recorded rather than ending `just` at once, so that the
    // operation is cancelled first.
    let busy = context.supervisor.busy().map_err(crate::execution::error::refused)?;
    let interrupted = || context.supervisor.pending().is_some();
    let executed = executor.execute_action(&action, &self.outputs, &interrupted);
    drop(busy);
    let executed = executed?;
    match executed {
      Executed::Succeeded(found) => {
        if !restore_shared(context, recipe, &executor, Some(found), &mut self)? {
          return Err(message(format!(
            "recipe `{name}` ran remotely on `{server}`, but its outputs could not be restored"
          )));
        }
        self.record(recipe.namepath)?;
        if let Some(restored) = self.restored.take() {
          let (stdout, stderr) = restored.replay();
          stdout.map_err(|source| ExecutionError::Stdout { source })?;
          stderr.map_err(|source| ExecutionError::Stderr { source })?;
        }
        Ok(())
      }
      Executed::Failed { code, stdout, stderr, .. } => {
        let (out, err) = print_streams(&stdout, &stderr);
        out.map_err(|source| ExecutionError::Stdout { source })?;
        err.map_err(|source| ExecutionError::Stderr { source })?;
        if !config.quiet {
          stderr_line(&format!(
            "note: recipe `{name}` ran remotely on `{server}`; a worker has only the recipe's declared `[cache]` inputs"
          ))?;
        }
        Err(ExecutionError::ScriptCode { recipe: name, code })
      }
      Executed::Cancelled => {
        crate::execution::body::check_interrupted(context, recipe, false)?;
        Err(message(format!("recipe `{name}` was cancelled on `{server}`")))
      }
      Executed::Error(why) => Err(message(format!(
        "recipe `{name}` failed to run remotely on `{server}`: {why}; a worker has only the recipe's declared `[cache]` inputs"
      ))),
    }
  }
}

/// `HOST:PORT` of the executor the options name, for `--dry-run`.
pub(crate) fn executor_shown(config: &Options) -> Option<String> {
  config.remote_executor.as_deref().map(shown_server)
}
