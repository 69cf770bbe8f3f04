//! Preparation before running: per module, root
//! first then submodules depth-first by name, load dotenv and evaluate the
//! assignments (all of them, or under `set lazy` only the demanded, eager and
//! exported ones), each after what it references.

use std::collections::{BTreeMap, HashSet};

use super::error::EvaluationError;
use super::evaluator::{referenced_assignments, Evaluator, ModuleState, RunContext, Site, Values};
use crate::analysis::model::{Assignment, Justfile, Module, Recipe};
use crate::analysis::resolver::run_time_expressions;
use crate::builtins::value::Value;
use crate::evaluation::shell::module_shell;

/// The evaluation state of every module, by `Module::id`.
pub(crate) struct States<'a, 'src>(Vec<Option<ModuleState<'a, 'src>>>);

impl<'a, 'src> States<'a, 'src> {
  /// The state of the module with id `id`, if it was prepared.
  pub(crate) fn get(&self, id: usize) -> Option<&ModuleState<'a, 'src>> {
    self.0.get(id).and_then(Option::as_ref)
  }

  fn insert(&mut self, id: usize, state: ModuleState<'a, 'src>) {
    if self.0.len() <= id {
      self.0.resize_with(id + 1, || None);
    }
    if let Some(slot) = self.0.get_mut(id) {
      *slot = Some(state);
    }
  }
}

/// The variables a lazy module must evaluate besides its `eager` and
/// exported ones, by module id.
pub(crate) type Demand = BTreeMap<usize, Demanded>;

/// The variables demanded of one module.
#[derive(Debug)]
pub(crate) enum Demanded {
  /// These, by index in the module's assignments.
  Assignments(HashSet<usize>),
  /// Every public one (`--evaluate` of a whole module).
  Public,
}

impl Demanded {
  fn includes(&self, index: usize, assignment: &Assignment) -> bool {
    match self {
      Demanded::Assignments(indices) => indices.contains(&index),
      Demanded::Public => assignment.is_public(),
    }
  }
}

/// What the recipes invoked on the command line need:
/// the variables referenced statically by them and by all their
/// dependencies, prior and subsequent, transitively, in parameter defaults,
/// dependency arguments, attributes, bodies and called function bodies.
/// Each invoked recipe comes with its module's id.
pub(crate) fn recipe_demand<'a, 'src>(
  justfile: &'a Justfile<'src>,
  invoked: impl IntoIterator<Item = (usize, &'a Recipe<'src>)>,
) -> Demand {
  let mut demand: BTreeMap<usize, HashSet<usize>> = BTreeMap::new();
  // Recipes visited, by module id and address: a recipe is one item of
  // its module's table.
  let mut seen: HashSet<(usize, *const Recipe<'src>)> = HashSet::new();
  let mut pending: Vec<(&'a Module<'src>, &'a Recipe<'src>)> =
    invoked.into_iter().filter_map(|(id, recipe)| Some((justfile.module(id)?, recipe))).collect();
  pending.reverse();
  let bindings = justfile.bindings();
  while let Some((module, recipe)) = pending.pop() {
    if !seen.insert((module.id, std::ptr::from_ref(recipe))) {
      continue;
    }
    justfile.bind_recipe(module, recipe);
    if !demand.contains_key(&module.id) {
      // Assignments referenced only in the bodies of functions the recipe
      // calls are demanded too.
      bindings.bind_functions(module);
    }
    let needed = demand.entry(module.id).or_default();
    let skip_comments = module.settings.ignore_comments && !recipe.script;
    for (expression, _) in run_time_expressions(recipe.ast, skip_comments) {
      needed.extend(referenced_assignments(expression, bindings, &module.functions));
    }
    for dependency in recipe.dependencies.iter().rev() {
      if let Some(target) = justfile.module(dependency.module as usize) {
        if let Some(recipe) = target.recipes.at(dependency.target as usize) {
          pending.push((target, recipe));
        }
      }
    }
  }
  demand.into_iter().map(|(id, indices)| (id, Demanded::Assignments(indices))).collect()
}

#[derive(Debug)]
pub(crate) enum PrepareError<'src> {
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
pub(crate) enum Eagerness {
  /// Evaluate every assignment unless the module is lazy.
  Normal,
  /// `--evaluate`, `--command`: only what is used.
  Lazy,
}

/// Prepare every module; lazy modules evaluate only their `eager` and
/// exported assignments and those in `demand`, each with what it references.
pub(crate) fn prepare<'a, 'src>(
  context: &RunContext<'a, 'src>,
  eagerness: Eagerness,
  demand: &Demand,
) -> Result<States<'a, 'src>, PrepareError<'src>> {
  let mut states = States(Vec::with_capacity(context.justfile.module_paths.len()));
  let root = &context.justfile.root;
  let parent =
    Inherited { dotenv: BTreeMap::new(), exports: Vec::new(), unexports: Vec::new(), lazy: false };
  let overrides = resolve_overrides(context);
  prepare_module(context, root, &parent, eagerness, demand, &overrides, &mut states)?;
  Ok(states)
}

/// An override on the command line, as the module id and assignment index
/// it sets and the value.
type Override<'c> = (usize, usize, &'c str);

/// The overrides in the order they apply: by (path as written, name), the
/// last of equal ones winning, so that through module aliases the greatest
/// path wins. Names are looked up here, once.
fn resolve_overrides<'c>(context: &RunContext<'c, '_>) -> Vec<Override<'c>> {
  let mut overrides = BTreeMap::new();
  for override_ in &context.config.overrides {
    overrides.insert((&override_.module_path, &override_.name), &override_.value);
  }
  overrides
    .into_iter()
    .filter_map(|((path, name), value)| {
      let module = context.justfile.root.find_module(path)?;
      Some((module.id, module.assignments.index_of(name)?, value.as_str()))
    })
    .collect()
}

struct Inherited {
  dotenv: BTreeMap<String, String>,
  exports: Vec<(String, String)>,
  unexports: Vec<String>,
  lazy: bool,
}

/// The dotenv variables of `module`: its parent's, and its own file's.
fn module_dotenv<'src>(
  context: &RunContext<'_, 'src>,
  module: &Module<'src>,
  parent: &Inherited,
  shell: &(String, Vec<String>),
) -> Result<BTreeMap<String, String>, PrepareError<'src>> {
  let options = super::dotenv::DotenvOptions {
    base_directory: &module.base_directory,
    is_root: module.path.is_empty(),
    lists: module.settings.lists,
    dry_run: context.config.dry_run,
    quiet: context.config.quiet,
    shell_program: &shell.0,
    shell_arguments: &shell.1,
    supervisor: context.supervisor,
  };
  let own = super::dotenv::load(&options, &module.settings, context.config).map_err(|error| {
    PrepareError::Dotenv { message: error.to_string(), status: error.exit_status() }
  })?;
  let mut dotenv = parent.dotenv.clone();
  dotenv.extend(own);
  Ok(dotenv)
}

/// The variables `module`'s recipes export: its parent's, and its own
/// exported assignments with a value.
fn module_exports<'src>(
  evaluator: &Evaluator<'_, '_, 'src>,
  module: &Module<'src>,
  parent: &Inherited,
) -> Result<Vec<(String, String)>, PrepareError<'src>> {
  let mut exports = parent.exports.clone();
  for (index, assignment) in module.assignments.indexed() {
    if assignment.export || module.settings.export {
      let name = assignment.name.lexeme();
      let value = evaluator.assignment_value(index)?;
      if !value.0.is_empty() {
        exports.push((name.to_string(), value.joined()));
      }
    }
  }
  Ok(exports)
}

fn prepare_module<'a, 'src>(
  context: &RunContext<'a, 'src>,
  module: &'a Module<'src>,
  parent: &Inherited,
  eagerness: Eagerness,
  demand: &Demand,
  overrides: &[Override<'_>],
  states: &mut States<'a, 'src>,
) -> Result<(), PrepareError<'src>> {
  let settings = &module.settings;
  let shell = module_shell(context.config, settings);
  context.justfile.bind_module(module);

  let dotenv = module_dotenv(context, module, parent, &shell)?;
  let working_directory = match &settings.working_directory {
    Some(directory) => module.base_directory.join(directory),
    None => module.base_directory.clone(),
  };

  let values = Values::new(module.assignments.len());
  for (id, index, value) in overrides {
    if *id == module.id {
      values.set(*index, Value::string(value.to_string()));
    }
  }

  let mut unexports = parent.unexports.clone();
  unexports.extend(module.unexports.iter().map(|name| name.to_string()));

  let state = ModuleState {
    module,
    dotenv,
    values,
    working_directory,
    shell,
    inherited_exports: parent.exports.clone(),
    unexports,
  };

  let lazy = parent.lazy || settings.lazy || eagerness == Eagerness::Lazy;
  let evaluator = Evaluator::new(context, &state, None, Site::Assignment);
  let demanded = demand.get(&module.id);
  for (index, assignment) in module.assignments.indexed() {
    if !lazy
      || assignment.export
      || settings.export
      || assignment.eager
      || demanded.is_some_and(|demanded| demanded.includes(index, assignment))
    {
      evaluator.visit(index)?;
    }
  }

  let exports = module_exports(&evaluator, module, parent)?;
  let inherited = Inherited {
    dotenv: state.dotenv.clone(),
    exports,
    unexports: state.unexports.clone(),
    lazy: parent.lazy || settings.lazy,
  };
  states.insert(module.id, state);

  for submodule in module.modules.values() {
    prepare_module(context, submodule, &inherited, eagerness, demand, overrides, states)?;
  }
  Ok(())
}
