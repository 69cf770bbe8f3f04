//! Running recipes, the command without a command flag: load the justfile,
//! bind the command line to invocations, run them (`set fallback`: in the
//! next justfile up); `just RECIPE --help`.

use super::config::Config;
use crate::analysis::analyzer::{compile, Arenas, LoadRequest};
use crate::analysis::model::{Justfile, Module, Recipe};
use crate::builtins::value::Value;
use crate::cli::invocation::{self, ArgumentValue, Bound, Invocation, Parsed};
use crate::cli::print::{eprint_line, print, print_list, stdout_painter, Outcome};
use crate::color::Painter;
use crate::evaluation::evaluator::RunContext;
use crate::evaluation::prepare::{prepare, recipe_demand, Eagerness};
use crate::execution::error::ExecutionError;
use crate::execution::run::Run;
use crate::execution::runner::{History, Runner, Supplied};
use crate::platform::supervisor::Supervisor;
use crate::search::{self, Search};
use std::path::Path;

pub(crate) fn load<'src>(
  config: &Config,
  search: &Search,
  unstable: bool,
  arenas: Arenas<'src>,
) -> Outcome<'src, Justfile<'src>> {
  let request = LoadRequest {
    justfile: &search.justfile,
    source: search.source.clone(),
    working_directory: &search.working_directory,
    overrides: &config.overrides,
    unstable,
  };
  Ok(compile(&request, arenas)?)
}

pub(crate) fn context<'a, 'src>(
  config: &'a Config,
  search: &Search,
  justfile: &'a Justfile<'src>,
  supervisor: &'a Supervisor,
) -> RunContext<'a, 'src> {
  RunContext::new(
    config,
    justfile,
    search.justfile.clone(),
    search.working_directory.clone(),
    supervisor,
  )
}

/// Convert what the command line bound into what the runner takes.
fn supplied(recipe: &Recipe, arguments: Bound) -> Vec<Supplied> {
  recipe
    .parameters()
    .iter()
    .zip(arguments)
    .map(|(parameter, bound)| match bound {
      None => Supplied::Missing,
      Some(values) => {
        if values.iter().all(|value| *value == ArgumentValue::Fixed) && !values.is_empty() {
          return Supplied::Switch(values.len());
        }
        let texts: Vec<String> = values
          .into_iter()
          .map(|value| match value {
            ArgumentValue::Text(text) => text,
            ArgumentValue::Flag | ArgumentValue::Fixed => "true".into(),
          })
          .collect();
        if parameter.kind().is_variadic() || parameter.multiple() {
          // Without lists the runner joins the values but keeps them apart
          // for positional arguments.
          Supplied::Value(Value(texts))
        } else {
          Supplied::Value(Value::string(texts.into_iter().next().unwrap_or_default()))
        }
      }
    })
    .collect()
}

/// What a run of recipes needs besides the justfile.
pub(crate) struct RunRequest<'r, 'src> {
  pub config: &'r Config,
  pub arguments: &'r [String],
  pub arenas: Arenas<'src>,
  /// The run's supervisor, output sink, jobserver client and observer.
  pub run: &'r Run,
  /// Leave the model for the process's exit to free (a one-off run) rather
  /// than tearing it down (`--watch`, which runs again).
  pub keep_model: bool,
}

pub(crate) fn run<'src>(
  request: &RunRequest<'_, 'src>,
  search: Search,
  justfile: Justfile<'src>,
) -> Outcome<'src> {
  let mut justfile = justfile;
  let outcome = run_model(request, search, &mut justfile);
  if request.keep_model {
    // The process exits after the run: tearing the tree down would only cost time.
    std::mem::forget(justfile);
  }
  outcome
}

fn run_model<'src>(
  request: &RunRequest<'_, 'src>,
  search: Search,
  justfile: &mut Justfile<'src>,
) -> Outcome<'src> {
  let RunRequest { config, arguments, arenas, run, .. } = *request;
  let origin = search.justfile.parent().unwrap_or(Path::new("/")).to_path_buf();
  let mut search = search;
  loop {
    if let Some(path) = invocation::default_listing(justfile, arguments, config) {
      let color = stdout_painter(config).active;
      return print_list(config, justfile, &path, color);
    }
    let (error, help) = match invocation::parse_command_line(justfile, arguments, config) {
      Ok(Parsed::Run(invocations)) => {
        let context = context(config, &search, justfile, &run.supervisor);
        return run_invocations(&context, run, justfile, invocations);
      }
      Ok(Parsed::Help(request)) => (request.replaces, Some((request.module, request.recipe))),
      Err(error) => (error, None),
    };
    // Help only replaces the error just 1.58 would finally report.
    if error.is_unknown() && search.searched && justfile.root.settings.fallback {
      if let Some((next, next_justfile)) = fallback(config, &search, &origin, arenas)? {
        search = next;
        let previous = std::mem::replace(justfile, next_justfile);
        if request.keep_model {
          std::mem::forget(previous);
        }
        continue;
      }
    }
    if error.is_missing() && config.allow_missing {
      return Ok(());
    }
    return match help {
      Some((module, recipe)) => print_help(config, justfile, module, recipe),
      None => Err(error.into()),
    };
  }
}

/// `just RECIPE --help` / `just MODULE --help`.
fn print_help<'src>(
  config: &Config,
  justfile: &Justfile<'src>,
  module: &Module,
  recipe: Option<&Recipe>,
) -> Outcome<'src> {
  let color = stdout_painter(config).active;
  if let Some(recipe) = recipe {
    print(&crate::output::recipe_help::recipe_help(justfile, recipe, color))
  } else {
    if let Some(doc) = module.doc.as_deref().filter(|_| !module.path.is_empty()) {
      let painter = Painter { active: color, command_color: None, highlight: true };
      print(&format!("{}\n\n", painter.doc(doc)))?;
    }
    print_list(config, justfile, &module.path, color)
  }
}

/// `just --help PATH`: the help of the module or recipe at `PATH`, in any
/// spelling running takes (`api serve`, `api::serve`, an alias).
pub(crate) fn help_for_path<'src>(
  config: &Config,
  justfile: &Justfile<'src>,
  path: &[String],
) -> Outcome<'src> {
  let components = crate::output::usage::path_components(path);
  if let Some(module) = justfile.root.find_module(&components) {
    return print_help(config, justfile, module, None);
  }
  let resolved = crate::output::usage::resolve_recipe_path(justfile, path)?;
  print_help(config, justfile, resolved.module, Some(resolved.recipe))
}

/// `set fallback`: the next justfile up, compiled.
fn fallback<'src>(
  config: &Config,
  search: &Search,
  origin: &Path,
  arenas: Arenas<'src>,
) -> Outcome<'src, Option<(Search, Justfile<'src>)>> {
  let directory = search.justfile.parent().unwrap_or(Path::new("/"));
  let Some(parent) = directory.parent() else {
    return Ok(None);
  };
  let Some(next) = search::find_upward(parent, config)? else {
    return Ok(None);
  };
  if config.verbosity >= 1 {
    let next_directory = next.parent().unwrap_or(Path::new("/"));
    let levels = origin.components().count().saturating_sub(next_directory.components().count());
    let name = next.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    eprint_line(&format!("Trying {}{name}", "../".repeat(levels)))?;
  }
  let working_directory = next.parent().unwrap_or(Path::new("/")).to_path_buf();
  let next_search = Search {
    justfile: next,
    working_directory,
    source: None,
    searched: true,
    _temporary_directory: None,
  };
  let justfile = load(config, &next_search, config.unstable, arenas)?;
  Ok(Some((next_search, justfile)))
}

pub(crate) fn run_invocations<'src>(
  context: &RunContext<'_, 'src>,
  run: &Run,
  justfile: &Justfile<'src>,
  invocations: Vec<Invocation<'_, 'src>>,
) -> Outcome<'src> {
  let invoked = invocations.iter().map(|invocation| (invocation.module, invocation.recipe));
  let demand = recipe_demand(justfile, invoked);
  let states = prepare(context, Eagerness::Normal, &demand)?;
  run.jobserver.start(context.config)?;
  let outcome = run_with(context, run, &states, invocations);
  // Every jobserver token goes back before `just` exits.
  run.jobserver.stop();
  outcome
}

fn run_with<'src>(
  context: &RunContext<'_, 'src>,
  run: &Run,
  states: &crate::evaluation::prepare::States<'_, 'src>,
  invocations: Vec<Invocation<'_, 'src>>,
) -> Outcome<'src> {
  let runner = Runner::new(context, run, states);
  let invoked: Vec<_> = invocations.iter().map(|invocation| invocation.recipe).collect();
  runner.plan(&invoked);
  let mut ran = History::default();
  for invocation in invocations {
    let supplied = supplied(invocation.recipe, invocation.arguments);
    match runner.run(invocation.module, invocation.recipe, supplied, false, &mut ran) {
      Ok(()) => {}
      Err(ExecutionError::Unsuccessful { .. }) if runner.keep_going.enabled() => {}
      Err(error) if runner.keep_going.enabled() => {
        return Err(runner.keep_going.interrupted(error).into())
      }
      Err(error) => return Err(error.into()),
    }
  }
  Ok(runner.keep_going.finish()?)
}
