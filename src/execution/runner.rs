//! Running invocations: parameters, confirmation, dependencies in order with
//! deduplication, then the body.

use std::collections::{HashMap, HashSet};
use std::io::BufRead;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::error::ExecutionError;
use super::jobserver::{self, Jobserver};
use super::keep_going::{KeepGoing, Outcome};
use super::output_mode::RecipeOutput;
use super::run::Run;
use super::{linewise, script};
use crate::analysis::model::{Dependency, Recipe, RecipeId};
use crate::builtins::value::Value;
use crate::evaluation::evaluator::{Evaluator, ModuleState, RecipeScope, RunContext, Site};
use crate::evaluation::prepare::States;
use crate::syntax::ast::ParameterKind;

type Result<'src, T = ()> = std::result::Result<T, ExecutionError<'src>>;

/// What the command line or a dependency supplied for one parameter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Supplied {
  /// Nothing: use the default (or empty for `*`).
  Missing,
  Value(Value),
  /// An `[arg(value=…)]` switch was given this many times: its `value`
  /// expression, once per repetition.
  Switch(usize),
}

/// Identity of a completed run: the recipe and the supplied arguments
/// (shared, so that a record's sets hold it without a copy).
type RunKey = std::sync::Arc<(RecipeId, Vec<Supplied>)>;

/// What the command-line invocations run so far left behind.
#[derive(Default)]
pub(crate) struct History {
  completed: HashSet<RunKey>,
  /// Runs that failed or were skipped: not run again, and their dependents
  /// do not start.
  failed: HashSet<RunKey>,
}

pub(crate) struct Runner<'r, 'a, 'src> {
  pub context: &'r RunContext<'a, 'src>,
  pub run: &'r Run,
  pub states: &'r States<'a, 'src>,
  pub keep_going: KeepGoing<'r, 'src>,
}

impl<'r, 'a, 'src> Runner<'r, 'a, 'src> {
  pub(crate) fn new(
    context: &'r RunContext<'a, 'src>,
    run: &'r Run,
    states: &'r States<'a, 'src>,
  ) -> Self {
    let config = context.config;
    let painter = context.stderr_painter();
    let keep_going = KeepGoing::new(config.keep_going, config.quiet, context.supervisor, painter);
    Runner { context, run, states, keep_going }
  }

  /// `--keep-going`: learn the order in which the invoked recipes would run
  /// one by one (each after its dependencies, before its subsequents), by
  /// which failures are summarised and the exit status is chosen.
  pub(crate) fn plan(&self, invoked: &[&'a Recipe<'src>]) {
    if !self.keep_going.enabled() {
      return;
    }
    enum Step<'a, 'src> {
      Enter(&'a Recipe<'src>),
      Place(&'a Recipe<'src>),
    }
    let mut ranks = HashMap::new();
    let mut entered = HashSet::new();
    let mut steps: Vec<Step> = invoked.iter().rev().map(|&recipe| Step::Enter(recipe)).collect();
    while let Some(step) = steps.pop() {
      match step {
        Step::Place(recipe) => {
          let rank = ranks.len();
          ranks.entry(recipe.id()).or_insert(rank);
        }
        Step::Enter(recipe) if entered.insert(recipe.id()) => {
          let enter = |dependency| self.target(dependency).map(Step::Enter);
          steps.extend(recipe.subsequents().iter().rev().filter_map(enter));
          steps.push(Step::Place(recipe));
          steps.extend(recipe.priors().iter().rev().filter_map(enter));
        }
        Step::Enter(_) => {}
      }
    }
    self.keep_going.plan(ranks);
  }

  /// The state of the module with id `module`.
  pub(crate) fn state(&self, module: usize) -> Option<&'r ModuleState<'a, 'src>> {
    self.states.get(module).or_else(|| self.states.get(0))
  }

  /// Run an invocation with the record of what already completed in this
  /// run; `ran` is updated afterwards.
  pub(crate) fn run(
    &self,
    module: usize,
    recipe: &'a Recipe<'src>,
    supplied: Vec<Supplied>,
    is_dependency: bool,
    ran: &mut History,
  ) -> Result<'src> {
    let record = Record::new(std::mem::take(ran));
    let config = self.context.config;
    let slots = Slots::new(config.jobs, config.remote_jobs, &self.run.jobserver);
    let result = self.run_recorded(module, recipe, supplied, is_dependency, &record, &slots);
    *ran = record.into_history();
    result
  }

  fn run_recorded(
    &self,
    module: usize,
    recipe: &'a Recipe<'src>,
    supplied: Vec<Supplied>,
    is_dependency: bool,
    record: &Record,
    slots: &Slots<'_>,
  ) -> Result<'src> {
    let key = std::sync::Arc::new((recipe.id(), supplied.clone()));
    match record.claim(&key) {
      Claim::Run => {}
      Claim::Done => return Ok(()),
      Claim::Failed => {
        return Err(ExecutionError::Unsuccessful { recipe: recipe.namepath.to_string() })
      }
    }
    let result = self.run_claimed(module, recipe, supplied, is_dependency, record, slots);
    record.finish(key, result.is_ok());
    self.keep_going.absorb(recipe, result)
  }

  fn run_claimed(
    &self,
    module: usize,
    recipe: &'a Recipe<'src>,
    supplied: Vec<Supplied>,
    is_dependency: bool,
    record: &Record,
    slots: &Slots<'_>,
  ) -> Result<'src> {
    // `prepare` gives every module a state.
    // The recipe's names were bound when the run's demand was computed
    // (`prepare::recipe_demand`, over every recipe it can run).
    let Some(state) = self.state(module) else { return Ok(()) };
    let (scope, positional) = self.scope(state, recipe, supplied, is_dependency)?;

    if !self.context.config.yes && !self.context.config.up_to_date {
      if let Some(confirm) = recipe.effects.values().confirm {
        self.confirm(state, &scope, confirm.prompt)?;
      }
    }

    let config = self.context.config;
    let parallel = recipe.effects.flags.parallel();
    if !config.no_deps {
      let priors = self.run_dependencies(state, &scope, recipe.priors(), record, slots, parallel);
      if let Err(ExecutionError::Unsuccessful { recipe: blocker }) = &priors {
        self.keep_going.skip(recipe, format!("needs `{blocker}`"));
        self.skip_subsequents(recipe);
      }
      priors?;
    }

    let result = if self.runs_remotely(recipe) {
      // A remote action holds no local slot (`--remote-jobs`).
      let _slot = slots.acquire_remote();
      self.run_body(state, &scope, &positional)
    } else {
      let _slot = slots.acquire()?;
      self.run_body(state, &scope, &positional)
    };
    self.report_time(recipe);
    if let Err(error) = result {
      if self.keep_going.enabled() && !config.no_deps {
        self.skip_subsequents(recipe);
      }
      return Err(self.suppress_if_silent(recipe, state, error));
    }

    if !config.no_deps {
      let subsequent_record = Record::new(History::default());
      self.run_dependencies(
        state,
        &scope,
        recipe.subsequents(),
        &subsequent_record,
        slots,
        parallel,
      )?;
    }
    Ok(())
  }

  /// Whether the recipe's body goes to the `--remote-executor`.
  fn runs_remotely(&self, recipe: &Recipe<'src>) -> bool {
    let config = self.context.config;
    config.remote_executor.is_some()
      && !config.no_cache
      && !config.dry_run
      && recipe.effects.values().cache.is_some()
  }

  /// `--keep-going`: the subsequents of a recipe that failed or was skipped
  /// (those of an absent optional module never run, and are not reported).
  fn skip_subsequents(&self, recipe: &Recipe<'src>) {
    for subsequent in recipe.subsequents().iter().filter_map(|dependency| self.target(dependency)) {
      self.keep_going.skip(subsequent, format!("runs after `{}`", recipe.namepath));
    }
  }

  /// Run dependencies in order, or each on its own thread for `[parallel]`
  /// (all awaited; the first error in declaration order wins).
  fn run_dependencies(
    &self,
    state: &ModuleState<'a, 'src>,
    scope: &RecipeScope<'a, 'src>,
    dependencies: &'a [Dependency<'src>],
    record: &Record,
    slots: &Slots<'_>,
    parallel: bool,
  ) -> Result<'src> {
    let mut outcome = Outcome::new(self.keep_going.enabled());
    if !parallel || dependencies.len() < 2 {
      for dependency in dependencies {
        outcome.add(self.run_dependency(state, scope, dependency, record, slots))?;
      }
      return outcome.finish();
    }
    let results: Vec<Result<'src>> = std::thread::scope(|threads| {
      let handles: Vec<_> = dependencies
        .iter()
        .map(|dependency| {
          threads.spawn(move || self.run_dependency(state, scope, dependency, record, slots))
        })
        .collect();
      handles
        .into_iter()
        .map(|handle| {
          handle.join().unwrap_or_else(|_| {
            Err(ExecutionError::Message { message: "dependency thread panicked".into() })
          })
        })
        .collect()
    });
    outcome.settle(results)
  }

  fn report_time(&self, _recipe: &Recipe<'src>) {}

  fn suppress_if_silent(
    &self,
    recipe: &Recipe<'src>,
    state: &ModuleState<'a, 'src>,
    error: ExecutionError<'src>,
  ) -> ExecutionError<'src> {
    let flags = recipe.effects.flags;
    let silent =
      flags.no_exit_message() || (state.module.settings.no_exit_message && !flags.exit_message());
    if silent && error.is_recipe_failure() {
      ExecutionError::Silent { status: error.status() }
    } else {
      error
    }
  }

  /// Evaluate `[env]` attributes and the parameters.
  fn scope(
    &self,
    state: &'r ModuleState<'a, 'src>,
    recipe: &'a Recipe<'src>,
    supplied: Vec<Supplied>,
    is_dependency: bool,
  ) -> Result<'src, (RecipeScope<'a, 'src>, Vec<String>)> {
    let mut positional = Vec::new();
    let mut scope = RecipeScope { recipe, parameters: Vec::new(), env: Vec::new(), is_dependency };
    self.evaluate_env(state, &mut scope)?;
    let lists = state.lists();
    for (parameter, supplied) in recipe
      .parameters()
      .iter()
      .zip(supplied.into_iter().chain(std::iter::repeat(Supplied::Missing)))
    {
      let many = parameter.kind().is_variadic() || parameter.multiple();
      // An empty list from a dependency stands for no value at all.
      let supplied = match supplied {
        Supplied::Value(value) if lists && value.0.is_empty() => Supplied::Missing,
        supplied => supplied,
      };
      let missing = supplied == Supplied::Missing && parameter.default().is_none();
      let value = match supplied {
        Supplied::Value(value) if many && !lists => {
          check_patterns(recipe, parameter, &value)?;
          positional.extend(value.0.iter().cloned());
          scope.parameters.push((parameter.name().lexeme(), Value::string(value.joined())));
          continue;
        }
        Supplied::Value(value) => value,
        Supplied::Switch(times) => match &parameter.value() {
          Some(expression) => {
            let value = Evaluator::new(self.context, state, Some(&scope), Site::Default)
              .evaluate(expression)?;
            Value(std::iter::repeat_n(value.0, times).flatten().collect())
          }
          None => Value::string("true"),
        },
        Supplied::Missing => self.missing_value(state, &scope, parameter)?,
      };
      if !missing {
        check_patterns(recipe, parameter, &value)?;
      }
      if lists {
        check_value_count(recipe, parameter, &value)?;
      }
      if many && lists {
        positional.extend(value.0.iter().cloned());
      } else if !(many && missing) {
        positional.push(value.joined());
      }
      scope.parameters.push((parameter.name().lexeme(), value));
    }
    Ok((scope, positional))
  }

  /// Evaluate the recipe's `[env]` variables into `scope`. The recipe
  /// scope (without parameters yet) gives `recipe_name()`,
  /// `is_dependency()` and the earlier `[env]` variables.
  fn evaluate_env(
    &self,
    state: &'r ModuleState<'a, 'src>,
    scope: &mut RecipeScope<'a, 'src>,
  ) -> Result<'src> {
    for env in &scope.recipe.effects.values().environment {
      let evaluator = Evaluator::new(self.context, state, Some(scope), Site::Body);
      let key = evaluator.evaluate(env.name)?;
      let key = single(key, "env` attribute name", env.token)?;
      let value = evaluator.evaluate(env.value)?;
      scope.env.push((key, if value.0.is_empty() { None } else { Some(value.joined()) }));
    }
    Ok(())
  }

  /// The value of a parameter given no argument: its default, else what
  /// its kind stands for when empty (an error for a `+` one under `set lists`).
  fn missing_value(
    &self,
    state: &'r ModuleState<'a, 'src>,
    scope: &RecipeScope<'a, 'src>,
    parameter: crate::analysis::model::Parameter<'_, 'src>,
  ) -> Result<'src, Value> {
    let lists = state.lists();
    Ok(match parameter.default() {
      Some(default) => {
        Evaluator::new(self.context, state, Some(scope), Site::Default).evaluate(default)?
      }
      None if parameter.flag() => Value::empty_list(),
      None if lists && !(parameter.kind() == ParameterKind::Star) => {
        return Err(ExecutionError::EmptyList {
          recipe: scope.recipe.name().lexeme().to_string(),
          parameter: parameter.name().lexeme().to_string(),
        })
      }
      None if parameter.kind() == ParameterKind::Star || parameter.multiple() => {
        if lists {
          Value::empty_list()
        } else {
          Value::string("")
        }
      }
      None => Value::string(""),
    })
  }

  fn confirm(
    &self,
    state: &ModuleState<'a, 'src>,
    scope: &RecipeScope<'a, 'src>,
    prompt: Option<&crate::syntax::ast::Expression<'src>>,
  ) -> Result<'src> {
    let recipe = scope.recipe;
    let text = match prompt {
      Some(prompt) => Evaluator::new(self.context, state, Some(scope), Site::Dependency)
        .evaluate(prompt)?
        .joined(),
      None => format!("Run recipe `{}`?", recipe.name().lexeme()),
    };
    crate::platform::stdio::stderr(&format!("{text} "))
      .map_err(|source| ExecutionError::Stderr { source })?;
    let mut answer = String::new();
    std::io::stdin()
      .lock()
      .read_line(&mut answer)
      .map_err(|source| ExecutionError::Confirmation { source })?;
    let answer = answer.trim().to_lowercase();
    if answer == "y" || answer == "yes" {
      Ok(())
    } else {
      Err(ExecutionError::NotConfirmed { recipe: recipe.name().lexeme().to_string() })
    }
  }

  fn run_dependency(
    &self,
    state: &ModuleState<'a, 'src>,
    scope: &RecipeScope<'a, 'src>,
    dependency: &'a Dependency<'src>,
    record: &Record,
    slots: &Slots<'_>,
  ) -> Result<'src> {
    let evaluator = Evaluator::new(self.context, state, Some(scope), Site::Dependency);
    let mut arguments = Vec::with_capacity(dependency.arguments().len());
    for argument in dependency.arguments() {
      arguments.push(evaluator.evaluate(argument)?);
    }
    let Some(target) = self.target(dependency) else {
      return Ok(());
    };
    let module = dependency.module as usize;
    let target_lists = self.state(module).is_some_and(ModuleState::lists);
    if let Some(star) = dependency.star() {
      let elements = arguments[star].0.clone();
      let mut outcome = Outcome::new(self.keep_going.enabled());
      for element in elements {
        let mut arguments = arguments.clone();
        arguments[star] = Value::string(element);
        let supplied = bind_positional(target, arguments, target_lists);
        outcome.add(self.run_recorded(module, target, supplied, true, record, slots))?;
      }
      outcome.finish()
    } else {
      let supplied = bind_positional(target, arguments, target_lists);
      self.run_recorded(module, target, supplied, true, record, slots)
    }
  }

  fn target(&self, dependency: &Dependency<'src>) -> Option<&'a Recipe<'src>> {
    self.state(dependency.module as usize)?.module.recipes.at(dependency.target as usize)
  }

  fn run_body(
    &self,
    state: &ModuleState<'a, 'src>,
    scope: &RecipeScope<'a, 'src>,
    positional: &[String],
  ) -> Result<'src> {
    let recipe = scope.recipe;
    if self.context.config.up_to_date {
      return self.question(state, scope, positional);
    }
    // A signal that comes while the body runs is the recipe's to take
    // (`[continue]`, `-` lines) or to stop at; another recipe taking it
    // lets this one go on no further.
    let supervisor = self.run.supervisor.for_recipe();
    let context = &self.context.with_supervisor(&supervisor);
    let output = RecipeOutput::new(&self.run.output, &supervisor, context.config, recipe);
    if context.config.verbosity >= 1 && !context.config.quiet {
      let painter = context.stderr_painter();
      output
        .stderr_line(&painter.banner(&format!("===> running recipe `{}`...", recipe.namepath)))?;
    }
    if context.config.explain {
      if let Some(doc) = &recipe.doc {
        output.stderr_line(&context.stderr_painter().banner(&format!("#### {doc}")))?;
      }
    }
    let start = std::time::Instant::now();
    let result = if recipe.script {
      script::run(context, self.run, state, scope, positional, &output)
    } else {
      linewise::run(context, self.run, state, scope, positional, &output)
    };
    let timing = if context.config.time {
      let painter = context.stderr_painter();
      let line = format!(
        "---> {} completed in {:.3}s",
        recipe.name().lexeme(),
        start.elapsed().as_secs_f64()
      );
      output.stderr_line(&painter.paint(painter.command_style(), &line))
    } else {
      Ok(())
    };
    // The recipe's own failure is reported first; the held output is written
    // either way.
    let finished = output.finish();
    result.and(timing).and(finished)
  }
}

impl<'a, 'src> Runner<'_, 'a, 'src> {
  /// `--up-to-date`: an error naming the recipe if it would run — it has
  /// a body and is not cached, or its `[cache]` entry would miss. A recipe
  /// without a body runs nothing.
  fn question(
    &self,
    state: &ModuleState<'a, 'src>,
    scope: &RecipeScope<'a, 'src>,
    positional: &[String],
  ) -> Result<'src> {
    let recipe = scope.recipe;
    let config = self.context.config;
    if recipe.body().is_empty() {
      return Ok(());
    }
    let cache = super::cache::attribute(scope).filter(|_| !config.no_cache);
    let reason = match cache {
      None => Some("not cached".to_string()),
      Some(cache) if recipe.script => {
        script::question(self.context, self.run, state, scope, positional, cache)?
      }
      Some(cache) => linewise::question(self.context, self.run, state, scope, positional, cache)?,
    };
    match reason {
      Some(reason) => Err(ExecutionError::WouldRun { recipe: recipe.namepath.to_string(), reason }),
      None if config.verbosity >= 1 && !config.quiet => {
        let painter = self.context.stderr_painter();
        let line = painter.banner(&format!("===> recipe `{}` is up to date", recipe.namepath));
        super::error::stderr_line(&line)
      }
      None => Ok(()),
    }
  }
}

/// Bind evaluated dependency arguments to parameters by position. Without
/// lists the surplus goes to the variadic parameter (joined when the scope is
/// built, kept apart for positional arguments); with lists each
/// argument binds one parameter.
/// `[arg(pattern=…)]`: every value, whatever its source (command line,
/// default, `value`, dependency argument), must fully match one pattern.
fn check_patterns<'src>(
  recipe: &Recipe<'src>,
  parameter: crate::analysis::model::Parameter<'_, 'src>,
  value: &Value,
) -> Result<'src> {
  match parameter.first_pattern_mismatch(value.0.iter().map(String::as_str)) {
    Some(text) => Err(ExecutionError::Message {
      message: crate::analysis::argument_error::ArgumentError::PatternMismatch {
        argument: text.to_string(),
        recipe: recipe.name().lexeme().to_string(),
        parameter: parameter.name().lexeme().to_string(),
        patterns: parameter.patterns().to_vec(),
      }
      .to_string(),
    }),
    None => Ok(()),
  }
}

/// `[arg(min=…, max=…)]`: the final value, whatever its source, is bounded.
fn check_value_count<'src>(
  recipe: &Recipe<'src>,
  parameter: crate::analysis::model::Parameter<'_, 'src>,
  value: &Value,
) -> Result<'src> {
  let recipe = recipe.name().lexeme();
  match crate::analysis::argument_error::value_count_error(recipe, parameter, value.0.len()) {
    Some(error) => Err(ExecutionError::Message { message: error.to_string() }),
    None => Ok(()),
  }
}

pub(crate) fn bind_positional(
  recipe: &Recipe<'_>,
  arguments: Vec<Value>,
  lists: bool,
) -> Vec<Supplied> {
  let mut supplied = Vec::with_capacity(recipe.parameters().len());
  let mut arguments = arguments.into_iter();
  for parameter in recipe.parameters().iter() {
    if parameter.kind().is_variadic() && !lists {
      let rest: Vec<String> = arguments.by_ref().map(|value| value.joined()).collect();
      if rest.is_empty() {
        supplied.push(Supplied::Missing);
      } else {
        supplied.push(Supplied::Value(Value(rest)));
      }
    } else {
      supplied.push(arguments.next().map_or(Supplied::Missing, Supplied::Value));
    }
  }
  supplied
}

fn single<'src>(
  value: Value,
  what: &str,
  token: crate::syntax::token::Token<'src>,
) -> std::result::Result<String, ExecutionError<'src>> {
  match value.as_single() {
    Some(single) => Ok(single.to_string()),
    None => Err(ExecutionError::Evaluation {
      error: crate::evaluation::error::EvaluationError::WithToken {
        token,
        message: format!("list value {} used as `{what}", value.show()),
      },
    }),
  }
}

/// Which runs completed (or are running) in one scope of deduplication.
struct Record {
  state: Mutex<RecordState>,
  changed: Condvar,
}

struct RecordState {
  history: History,
  running: HashSet<RunKey>,
}

/// What the caller of `Record::claim` should do.
enum Claim {
  Run,
  Done,
  /// It failed or was skipped.
  Failed,
}

impl Record {
  fn new(history: History) -> Self {
    Record {
      state: Mutex::new(RecordState { history, running: HashSet::new() }),
      changed: Condvar::new(),
    }
  }

  fn lock(&self) -> MutexGuard<'_, RecordState> {
    self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
  }

  /// Run `key` unless it already completed or finished running elsewhere
  /// (failures are reported by that runner). A run that failed is not
  /// repeated, and what waited for it learns that it failed.
  fn claim(&self, key: &RunKey) -> Claim {
    let mut state = self.lock();
    if state.history.completed.contains(key) {
      return Claim::Done;
    }
    if state.history.failed.contains(key) {
      return Claim::Failed;
    }
    if !state.running.contains(key) {
      state.running.insert(key.clone());
      return Claim::Run;
    }
    while state.running.contains(key) {
      state = self.changed.wait(state).unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    if state.history.failed.contains(key) {
      Claim::Failed
    } else {
      Claim::Done
    }
  }

  fn finish(&self, key: RunKey, success: bool) {
    let mut state = self.lock();
    state.running.remove(&key);
    if success {
      state.history.completed.insert(key);
    } else {
      state.history.failed.insert(key);
    }
    drop(state);
    self.changed.notify_all();
  }

  fn into_history(self) -> History {
    self.state.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).history
  }
}

/// `--jobs N`: at most N recipe bodies run at once (unlimited if None);
/// `--remote-jobs N`: at most N remote actions in flight, apart.
struct Slots<'j> {
  limit: Option<usize>,
  jobserver: &'j Jobserver,
  used: Mutex<usize>,
  freed: Condvar,
  remote: Counter,
}

/// A bound on things in flight.
struct Counter {
  limit: usize,
  used: Mutex<usize>,
  freed: Condvar,
}

/// A remote action's place, given back on drop.
struct RemoteSlot<'s>(&'s Counter);

impl Drop for RemoteSlot<'_> {
  fn drop(&mut self) {
    *self.0.used.lock().unwrap_or_else(std::sync::PoisonError::into_inner) -= 1;
    self.0.freed.notify_one();
  }
}

struct Slot<'s> {
  slots: Option<&'s Slots<'s>>,
  /// `--jobserver`: the pool's slot, released on drop.
  _token: jobserver::Token<'s>,
}

impl<'j> Slots<'j> {
  fn new(limit: Option<usize>, remote: usize, jobserver: &'j Jobserver) -> Self {
    let remote = Counter { limit: remote.max(1), used: Mutex::new(0), freed: Condvar::new() };
    Slots { limit, jobserver, used: Mutex::new(0), freed: Condvar::new(), remote }
  }

  /// A place among the remote actions in flight.
  fn acquire_remote(&self) -> RemoteSlot<'_> {
    let counter = &self.remote;
    let mut used = counter.used.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    while *used >= counter.limit {
      used = counter.freed.wait(used).unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    *used += 1;
    RemoteSlot(counter)
  }

  fn lock(&self) -> MutexGuard<'_, usize> {
    self.used.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
  }

  /// A local slot (`--jobs`), then one of the jobserver pool.
  fn acquire<'src>(&self) -> Result<'src, Slot<'_>> {
    let Some(limit) = self.limit else {
      return Ok(Slot { slots: None, _token: self.jobserver.acquire()? });
    };
    let mut used = self.lock();
    while *used >= limit {
      used = self.freed.wait(used).unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    *used += 1;
    drop(used);
    let mut slot = Slot { slots: Some(self), _token: jobserver::Token::Unused };
    // The slot exists first, so that a failure to acquire still gives its
    // place back when the slot drops.
    #[allow(clippy::used_underscore_binding)]
    {
      slot._token = self.jobserver.acquire()?;
    }
    Ok(slot)
  }
}

impl Drop for Slot<'_> {
  fn drop(&mut self) {
    if let Some(slots) = self.slots {
      *slots.lock() -= 1;
      slots.freed.notify_one();
    }
  }
}
