//! Preparation before running (cli-and-execution.md §6): per module, root
//! first then submodules depth-first by name, load dotenv and evaluate the
//! assignments (all of them, or under `set lazy` only the eager and exported
//! ones up front, the rest on first use).

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::error::EvaluationError;
use super::evaluator::{Evaluator, ModuleState, RunContext, Site};
use super::value::Value;
use crate::analysis::model::Module;
use crate::execution::shell::module_shell;

pub type States<'a, 'src> = BTreeMap<Vec<String>, ModuleState<'a, 'src>>;

#[derive(Debug)]
pub enum PrepareError<'src> {
  Evaluation(EvaluationError<'src>),
  Dotenv { message: String, status: i32 },
}

impl<'src> From<EvaluationError<'src>> for PrepareError<'src> {
  fn from(error: EvaluationError<'src>) -> Self {
    PrepareError::Evaluation(error)
  }
}

/// Which modules to prepare and how eagerly.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eagerness {
  /// Evaluate every assignment unless the module is lazy.
  Normal,
  /// `--evaluate`, `--command`: only what is used.
  Lazy,
}

pub fn prepare<'a, 'src>(
  context: &RunContext<'a, 'src>,
  eagerness: Eagerness,
) -> Result<States<'a, 'src>, PrepareError<'src>> {
  let mut states = BTreeMap::new();
  let root = &context.justfile.root;
  let parent =
    Inherited { dotenv: BTreeMap::new(), exports: Vec::new(), unexports: Vec::new(), lazy: false };
  prepare_module(context, root, &parent, eagerness, &mut states)?;
  Ok(states)
}

struct Inherited {
  dotenv: BTreeMap<String, String>,
  exports: Vec<(String, String)>,
  unexports: Vec<String>,
  lazy: bool,
}

fn prepare_module<'a, 'src>(
  context: &RunContext<'a, 'src>,
  module: &'a Module<'src>,
  parent: &Inherited,
  eagerness: Eagerness,
  states: &mut States<'a, 'src>,
) -> Result<(), PrepareError<'src>> {
  let settings = &module.settings;
  let shell = module_shell(context.config, settings);

  let mut dotenv = parent.dotenv.clone();
  let options = super::dotenv::DotenvOptions {
    base_directory: &module.base_directory,
    is_root: module.path.is_empty(),
    lists: settings.lists,
    dry_run: context.config.dry_run,
    quiet: context.config.quiet,
    shell_program: &shell.0,
    shell_arguments: &shell.1,
  };
  let own = super::dotenv::load(&options, settings, context.config).map_err(|error| {
    PrepareError::Dotenv { message: error.to_string(), status: error.exit_status() }
  })?;
  dotenv.extend(own);

  let working_directory = match &settings.working_directory {
    Some(directory) => module.base_directory.join(directory),
    None => module.base_directory.clone(),
  };

  // Overrides by (path as written, name), the last of equal ones winning;
  // applied in that order, so that through module aliases the greatest path wins.
  let mut overrides = BTreeMap::new();
  for override_ in &context.config.overrides {
    overrides.insert((&override_.module_path, &override_.name), &override_.value);
  }
  let mut values: BTreeMap<&'src str, Value> = BTreeMap::new();
  for ((path, name), value) in overrides {
    let target = context.justfile.root.find_module(path);
    if target.is_some_and(|target| target.path == module.path) {
      if let Some((name, _)) = module.assignments.get_key_value(name.as_str()) {
        values.insert(name, Value::string(value.clone()));
      }
    }
  }

  let mut unexports = parent.unexports.clone();
  unexports.extend(module.unexports.iter().map(|name| name.to_string()));

  let state = ModuleState {
    module,
    dotenv,
    values: Mutex::new(values),
    working_directory,
    shell,
    inherited_exports: parent.exports.clone(),
    unexports,
  };

  let lazy = parent.lazy || settings.lazy || eagerness == Eagerness::Lazy;
  let evaluator = Evaluator::new(context, &state, None, Site::Assignment);
  if lazy {
    evaluator.evaluate_exports()?;
  } else {
    for (name, assignment) in &module.assignments {
      evaluator.variable(name, assignment.name)?;
    }
  }

  let mut exports = parent.exports.clone();
  for (name, assignment) in &module.assignments {
    if assignment.export || settings.export {
      let value = evaluator.variable(name, assignment.name)?;
      if !value.0.is_empty() {
        exports.push((name.to_string(), value.joined()));
      }
    }
  }
  let inherited = Inherited {
    dotenv: state.dotenv.clone(),
    exports,
    unexports: state.unexports.clone(),
    lazy: parent.lazy || settings.lazy,
  };
  states.insert(module.path.clone(), state);

  for submodule in module.modules.values() {
    prepare_module(context, submodule, &inherited, eagerness, states)?;
  }
  Ok(())
}
