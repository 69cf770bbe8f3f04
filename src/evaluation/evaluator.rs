//! Evaluation of expressions: assignments (on demand, memoised per module),
//! parameter defaults, dependency arguments, attributes and body
//! interpolations.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::error::EvaluationError;
use crate::analysis::model::{Binding, Bindings, Functions, Justfile, Module, Recipe};
use crate::analysis::resolver::walk;
use crate::builtins::constants;
use crate::builtins::expression::{self, ExpressionContext};
use crate::builtins::functions;
use crate::builtins::process::CommandEnvironment;
use crate::builtins::value::Value;
use crate::options::Options;
use crate::platform::supervisor::Supervisor;
use crate::syntax::ast::{Expression, FunctionDefinition, Slot};
use crate::syntax::token::Token;

type Result<'src, T> = std::result::Result<T, EvaluationError<'src>>;

const MAX_FUNCTION_DEPTH: usize = 256;

/// What one run shares: the configuration and the whole justfile.
pub(crate) struct RunContext<'a, 'src> {
  pub config: &'a Options,
  pub justfile: &'a Justfile<'src>,
  /// Absolute path of the root justfile (what `justfile()` returns).
  pub justfile_path: PathBuf,
  /// The root module's base directory (the search working directory).
  pub working_directory: PathBuf,
  /// Painter for stderr (errors, echoed lines, banners), decided once per
  /// run rather than per echoed line: see `stderr_painter_for`.
  pub stderr_painter: crate::color::Painter,
  /// Starts and tracks every process of the run.
  pub supervisor: &'a Supervisor,
}

impl<'a, 'src> RunContext<'a, 'src> {
  pub(crate) fn new(
    config: &'a Options,
    justfile: &'a Justfile<'src>,
    justfile_path: PathBuf,
    working_directory: PathBuf,
    supervisor: &'a Supervisor,
  ) -> Self {
    let stderr_painter = Self::stderr_painter_for(config);
    RunContext { config, justfile, justfile_path, working_directory, stderr_painter, supervisor }
  }

  /// The same context with processes started by `supervisor` (one
  /// recipe's view of the run's).
  pub(crate) fn with_supervisor<'b>(&self, supervisor: &'b Supervisor) -> RunContext<'b, 'src>
  where
    'a: 'b,
  {
    RunContext {
      config: self.config,
      justfile: self.justfile,
      justfile_path: self.justfile_path.clone(),
      working_directory: self.working_directory.clone(),
      stderr_painter: self.stderr_painter,
      supervisor,
    }
  }

  fn stderr_painter_for(config: &Options) -> crate::color::Painter {
    let mut painter = crate::color::Painter::new(config.color, crate::color::Stream::Stderr);
    painter.highlight = config.highlight;
    painter.command_color = config.command_color.map(crate::color::CommandColor::ansi);
    painter
  }
}

impl RunContext<'_, '_> {
  /// Directory of the root justfile; token display paths are relative to it.
  pub(crate) fn root_directory(&self) -> &Path {
    self.justfile_path.parent().unwrap_or(Path::new("/"))
  }

  /// Painter for stderr (errors, echoed lines, banners).
  pub(crate) fn stderr_painter(&self) -> crate::color::Painter {
    self.stderr_painter
  }

  /// Absolute path of the file a token came from.
  pub(crate) fn token_file(&self, token: &Token) -> PathBuf {
    self.root_directory().join(token.path())
  }
}

/// Per-module evaluation state.
pub(crate) struct ModuleState<'a, 'src> {
  pub module: &'a Module<'src>,
  /// Dotenv variables, merged over the parent module's.
  pub dotenv: BTreeMap<String, String>,
  /// Evaluated assignments (and overrides, stored up front).
  pub values: Values,
  /// Module working directory W.
  pub working_directory: PathBuf,
  /// Shell program and arguments for lines and backticks.
  pub shell: (String, Vec<String>),
  /// Exported variables of ancestor modules (already evaluated).
  pub inherited_exports: Vec<(String, String)>,
  /// Names unexported in this module or an ancestor.
  pub unexports: Vec<String>,
}

impl ModuleState<'_, '_> {
  pub(crate) fn lists(&self) -> bool {
    self.module.settings.lists
  }
}

/// The values of a module's assignments, by index in its assignment table,
/// filled as they are evaluated.
pub(crate) struct Values(Mutex<Vec<Option<Value>>>);

impl Values {
  /// No value yet for any of `count` assignments.
  pub(crate) fn new(count: usize) -> Self {
    Values(Mutex::new(vec![None; count]))
  }

  pub(crate) fn get(&self, index: usize) -> Option<Value> {
    self.lock().get(index).cloned().flatten()
  }

  pub(crate) fn contains(&self, index: usize) -> bool {
    self.lock().get(index).is_some_and(Option::is_some)
  }

  /// Every value so far, by index, for reading many without copying them.
  pub(crate) fn all(&self) -> std::sync::MutexGuard<'_, Vec<Option<Value>>> {
    self.lock()
  }

  pub(crate) fn set(&self, index: usize, value: Value) {
    if let Some(slot) = self.lock().get_mut(index) {
      *slot = Some(value);
    }
  }

  fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<Value>>> {
    match self.0.lock() {
      Ok(guard) => guard,
      Err(poisoned) => poisoned.into_inner(),
    }
  }
}

/// Which exported names a command evaluated here sees.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Site {
  /// A top-level assignment: only dotenv and ancestors' exports.
  Assignment,
  /// A parameter default: own exports and `[env]`, no exported parameters.
  Default,
  /// A dependency argument or `[confirm]` prompt: exports and exported parameters.
  Dependency,
  /// A recipe body, `[working-directory]`, `[timestamp]`: everything.
  Body,
}

/// The recipe-level part of a scope.
pub(crate) struct RecipeScope<'a, 'src> {
  pub recipe: &'a Recipe<'src>,
  pub parameters: Vec<(&'src str, Value)>,
  /// `[env]` variables, in application order.
  pub env: Vec<(String, Option<String>)>,
  pub is_dependency: bool,
}

pub(crate) struct Evaluator<'e, 'a, 'src> {
  pub context: &'e RunContext<'a, 'src>,
  pub state: &'e ModuleState<'a, 'src>,
  pub recipe: Option<&'e RecipeScope<'a, 'src>>,
  pub site: Site,
  /// The user function being evaluated, if any, and its arguments by
  /// parameter index.
  function: Option<&'src FunctionDefinition<'src>>,
  function_parameters: Option<Vec<Value>>,
  depth: usize,
}

impl<'e, 'a, 'src> Evaluator<'e, 'a, 'src> {
  pub(crate) fn new(
    context: &'e RunContext<'a, 'src>,
    state: &'e ModuleState<'a, 'src>,
    recipe: Option<&'e RecipeScope<'a, 'src>>,
    site: Site,
  ) -> Self {
    Evaluator { context, state, recipe, site, function: None, function_parameters: None, depth: 0 }
  }

  /// The value of the module variable or constant `name`, evaluating an
  /// assignment on first use.
  fn variable_by_name(&self, name: &'src str, token: Token<'src>) -> Result<'src, Value> {
    if let Some(index) = self.state.module.assignments.index_of(name) {
      return self.assignment_value(index);
    }
    if let Some(constant) = constants::constant(name) {
      return Ok(Value::string(constant));
    }
    Err(EvaluationError::WithToken { token, message: format!("variable `{name}` not defined") })
  }

  /// The value of the module's assignment at `index`, evaluated on first use.
  pub(crate) fn assignment_value(&self, index: usize) -> Result<'src, Value> {
    if let Some(value) = self.state.values.get(index) {
      return Ok(value);
    }
    let value = self.evaluate_assignment(index)?;
    self.state.values.set(index, value.clone());
    Ok(value)
  }

  /// The value of the module's assignment at `index`, evaluated afresh.
  fn evaluate_assignment(&self, index: usize) -> Result<'src, Value> {
    let Some(assignment) = self.state.module.assignments.at(index) else {
      return Ok(Value::default());
    };
    Evaluator::new(self.context, self.state, None, Site::Assignment).evaluate(assignment.value)
  }

  /// The value of a variable reference, by what analysis bound it to.
  fn lookup(&self, name: Token<'src>, slot: Slot) -> Result<'src, Value> {
    let value = match self.context.justfile.bindings().get(slot) {
      Binding::FunctionParameter(index) => {
        self.function_parameters.as_ref().and_then(|values| values.get(index as usize)).cloned()
      }
      Binding::Parameter(index) if self.function_parameters.is_none() => self
        .recipe
        .and_then(|scope| scope.parameters.get(index as usize))
        .map(|(_, value)| value.clone()),
      Binding::Assignment(index) => return self.assignment_value(index as usize),
      Binding::Constant(id) => constants::value(id).map(Value::string),
      _ => None,
    };
    match value {
      Some(value) => Ok(value),
      None => self.lookup_by_name(name),
    }
  }

  /// A reference whose binding does not apply here, looked up by name: a
  /// supported path, not a fallback for names analysis missed. Every
  /// expression a run evaluates is bound, and a binding applies except in
  /// one case: an `[arg(value)]` naming a later parameter of its recipe is
  /// bound to that parameter (the parameters are in scope for the resolver,
  /// as in just 1.58), but is evaluated while the parameters before it are
  /// bound, so the name means the module's variable or constant of that
  /// name, and is an error (`variable … not defined`) without one (the
  /// cases `arg_value_naming_a_later_parameter_*` in
  /// `tests/cases/name_binding.toml`). The whole test suite reaches it
  /// there only. (An index too large to pack in a binding, over 2^29 items,
  /// also leaves a name unbound, to be found here.)
  fn lookup_by_name(&self, name: Token<'src>) -> Result<'src, Value> {
    let text = name.lexeme();
    if let Some(function) = self.function {
      let values = self.function_parameters.as_deref().unwrap_or(&[]);
      if let Some(index) = function.parameters.iter().position(|p| p.lexeme() == text) {
        return Ok(values.get(index).cloned().unwrap_or_default());
      }
    } else if let Some(scope) = self.recipe {
      if let Some((_, value)) = scope.parameters.iter().rev().find(|(n, _)| *n == text) {
        return Ok(value.clone());
      }
    }
    self.variable_by_name(text, name)
  }

  pub(crate) fn evaluate(&self, expression: &Expression<'src>) -> Result<'src, Value> {
    expression::evaluate(self, expression)
  }

  fn call_function(
    &self,
    name: Token<'src>,
    slot: Slot,
    arguments: &[Expression<'src>],
  ) -> Result<'src, Value> {
    let mut values = Vec::with_capacity(arguments.len());
    for argument in arguments {
      values.push(self.evaluate(argument)?);
    }
    let functions = &self.state.module.functions;
    let user = match self.context.justfile.bindings().get(slot) {
      Binding::UserFunction(index) => functions.at(index as usize),
      Binding::Builtin(function) => return self.call_builtin(name, Some(function), values),
      _ => functions.get(name.lexeme()),
    };
    let Some(function) = user else { return self.call_builtin(name, None, values) };
    if self.depth + 1 >= MAX_FUNCTION_DEPTH {
      return Err(EvaluationError::Recursion { function: name.lexeme().to_string() });
    }
    let inner = Evaluator {
      context: self.context,
      state: self.state,
      recipe: self.recipe,
      site: self.site,
      function: Some(function),
      function_parameters: Some(values),
      depth: self.depth + 1,
    };
    inner.evaluate(&function.body)
  }

  fn run_backtick(&self, token: Token<'src>, command: &str) -> Result<'src, Value> {
    if self.context.config.dry_run {
      return Ok(Value::string(format!("`{command}`")));
    }
    let mut process = self.shell_command(command);
    let supervisor = self.context.supervisor;
    crate::builtins::process::capture_stdout(supervisor, &mut process, self.context.config.quiet)
      .map(Value::string)
      .map_err(|error| backtick_error(token, error))
  }

  /// A `std::process::Command` running `command` through the module's shell
  /// in W with the environment of this site.
  pub(crate) fn shell_command(&self, command: &str) -> std::process::Command {
    let (program, arguments) = &self.state.shell;
    let mut process = std::process::Command::new(program);
    process.args(arguments).arg(command).current_dir(&self.state.working_directory);
    self.apply_environment(&mut process);
    process
  }

  /// Environment changes for commands evaluated at this site.
  pub(crate) fn environment(&self) -> CommandEnvironment {
    let mut environment = CommandEnvironment::new();
    for (key, value) in &self.state.dotenv {
      environment.set(key.clone(), value.clone());
    }
    for (key, value) in &self.state.inherited_exports {
      environment.set(key.clone(), value.clone());
    }
    if self.site != Site::Assignment {
      for (key, value) in self.own_exports() {
        environment.set(key, value);
      }
    }
    for name in &self.state.unexports {
      environment.remove(name.clone());
    }
    // Exported parameters and `[env]` are not affected by `unexport`.
    if let Some(scope) = self.recipe.filter(|_| self.site != Site::Assignment) {
      if self.site != Site::Default {
        let export_all = self.state.module.settings.export;
        for (parameter, (name, value)) in scope.recipe.parameters().iter().zip(&scope.parameters) {
          if (parameter.export() || export_all) && !value.0.is_empty() {
            environment.set(name.to_string(), value.joined());
          }
        }
      }
      if matches!(self.site, Site::Default | Site::Body) {
        for (key, value) in &scope.env {
          match value {
            Some(value) => environment.set(key.clone(), value.clone()),
            None => environment.remove(key.clone()),
          }
        }
      }
    }
    environment
  }

  pub(crate) fn apply_environment(&self, process: &mut std::process::Command) {
    self.environment().apply(process);
  }

  /// Built-in `function` (as bound by analysis), else the one `name` names.
  fn call_builtin(
    &self,
    name: Token<'src>,
    function: Option<functions::Function>,
    arguments: Vec<Value>,
  ) -> Result<'src, Value> {
    let context = self.context;
    let config = context.config;
    let written = name.lexeme();
    let function = function.or_else(|| functions::Function::from_name(written));
    // Only `shell()` starts a process; the rest need no environment, which
    // costs an evaluation of every export to build.
    let environment = if function == Some(functions::Function::Shell) {
      self.environment()
    } else {
      CommandEnvironment::new()
    };
    let source_file = context.token_file(&name);
    let module_path = &self.state.module.path;
    let stdout = crate::color::Painter::new(config.color, crate::color::Stream::Stdout);
    let stderr = context.stderr_painter();
    let function_context = functions::FunctionContext {
      working_directory: &self.state.working_directory,
      invocation_directory: &config.invocation_directory,
      cygpath: &config.cygpath,
      justfile: &context.justfile_path,
      source_file: &source_file,
      module_file: &self.state.module.source,
      module_path,
      recipe_name: self.recipe.map(|scope| scope.recipe.name().lexeme()),
      is_dependency: self.recipe.is_some_and(|scope| scope.is_dependency),
      dotenv: &self.state.dotenv,
      lists: self.lists(),
      dry_run: config.dry_run,
      jobs: config.jobs,
      stdout_color: stdout.active,
      stderr_color: stderr.active,
      command_color: stderr.command_color,
      shell_program: &self.state.shell.0,
      shell_arguments: &self.state.shell.1,
      environment: &environment,
      quiet: config.quiet,
      supervisor: Some(context.supervisor),
    };
    if let Some(function) = function {
      functions::check_function_list_arguments(function, written, &arguments)
        .map_err(|message| EvaluationError::WithToken { token: name, message })?;
    }
    let result = match function {
      Some(function) => functions::call_function(function, written, arguments, &function_context),
      None => functions::call(written, arguments, &function_context),
    };
    result.map_err(|message| EvaluationError::FunctionCall {
      token: name,
      function: written.to_string(),
      message,
    })
  }

  /// Exported variables of this module: `export` ones, or all under `set export`.
  fn own_exports(&self) -> Vec<(String, String)> {
    let module = self.state.module;
    let mut out = Vec::new();
    for (index, assignment) in module.assignments.indexed() {
      if assignment.export || module.settings.export {
        let name = assignment.name.lexeme();
        if let Ok(value) = self.assignment_value(index) {
          if !value.0.is_empty() {
            out.push((name.to_string(), value.joined()));
          }
        }
      }
    }
    out
  }

  /// Evaluate the assignment at `index` the way preparation visits it:
  /// first, depth-first, the variables its expression references statically
  /// (in order of appearance, through user-function bodies, whether or not a
  /// branch is taken), then the assignment itself. Overridden and already
  /// evaluated assignments are left alone.
  pub(crate) fn visit(&self, index: usize) -> Result<'src, ()> {
    if self.state.values.contains(index) {
      return Ok(());
    }
    let Some(assignment) = self.state.module.assignments.at(index) else { return Ok(()) };
    // Most values are plain strings, which reference nothing.
    if !matches!(assignment.value, Expression::StringLiteral(_)) {
      let bindings = self.context.justfile.bindings();
      let functions = &self.state.module.functions;
      for reference in referenced_assignments(assignment.value, bindings, functions) {
        self.visit(reference)?;
      }
    }
    if !self.state.values.contains(index) {
      let value = self.evaluate_assignment(index)?;
      self.state.values.set(index, value);
    }
    Ok(())
  }
}

impl<'src> ExpressionContext<'src> for Evaluator<'_, '_, 'src> {
  type Error = EvaluationError<'src>;

  fn lists(&self) -> bool {
    self.state.lists()
  }

  fn variable(&self, name: Token<'src>, slot: Slot) -> Result<'src, Value> {
    self.lookup(name, slot)
  }

  fn backtick(&self, token: Token<'src>, command: &str) -> Result<'src, Value> {
    self.run_backtick(token, command)
  }

  fn call(
    &self,
    name: Token<'src>,
    slot: Slot,
    arguments: &[Expression<'src>],
  ) -> Result<'src, Value> {
    self.call_function(name, slot, arguments)
  }

  fn operator_error(&self, token: Token<'src>, message: String) -> EvaluationError<'src> {
    EvaluationError::WithToken { token, message }
  }

  fn assert_failed(&self, token: Token<'src>, message: String) -> EvaluationError<'src> {
    EvaluationError::Assert { token, message }
  }
}

/// The module assignments an expression references statically, by index,
/// in order of appearance, including those in the bodies of the user
/// functions it calls (each function body walked once per call chain).
pub(crate) fn referenced_assignments(
  expression: &Expression<'_>,
  bindings: &Bindings,
  functions: &Functions<'_>,
) -> Vec<usize> {
  let mut out = Vec::new();
  collect_references(expression, bindings, functions, &mut Vec::new(), &mut out);
  out
}

fn collect_references(
  expression: &Expression<'_>,
  bindings: &Bindings,
  functions: &Functions<'_>,
  calling: &mut Vec<u32>,
  out: &mut Vec<usize>,
) {
  let mut references = Vec::new();
  let _ = walk(expression, &mut |expression| -> std::result::Result<(), ()> {
    if let Expression::Variable { slot, .. } | Expression::Call { slot, .. } = expression {
      references.push(bindings.get(*slot));
    }
    Ok(())
  });
  for reference in references {
    match reference {
      Binding::Assignment(index) => out.push(index as usize),
      Binding::UserFunction(function) => {
        let Some(definition) = functions.at(function as usize) else { continue };
        if calling.contains(&function) {
          continue;
        }
        calling.push(function);
        collect_references(&definition.body, bindings, functions, calling, out);
        calling.pop();
      }
      _ => {}
    }
  }
}

pub(crate) fn backtick_error(
  token: Token<'_>,
  error: crate::builtins::process::ProcessError,
) -> EvaluationError<'_> {
  use crate::builtins::process::ProcessError;
  match error {
    ProcessError::ExitCode { code } => EvaluationError::BacktickCode { token, code },
    ProcessError::Signal { signal } => EvaluationError::BacktickSignal { token, signal },
    ProcessError::Interrupted { name, signal } => EvaluationError::BacktickOther {
      token,
      status: crate::platform::exit::signal_status(signal),
      message: format!("succeeded but `just` was interrupted by signal {name}"),
    },
    other => EvaluationError::BacktickOther {
      token,
      status: other.exit_status(),
      message: match &other {
        ProcessError::Io { source } => backtick_io_message(source),
        ProcessError::Utf8 { source } => format!("succeeded but stdout was not utf8: {source}"),
        _ => other.to_string(),
      },
    },
  }
}

/// Why a backtick's shell did not start, as just 1.58 words it, except that
/// a command (with the environment) over the system's limit says so: the
/// shell was found, the system refused the command line.
fn backtick_io_message(source: &std::io::Error) -> String {
  use std::io::ErrorKind;
  match source.kind() {
    ErrorKind::NotFound => {
      format!("could not be run because just could not find the shell:\n{source}")
    }
    ErrorKind::PermissionDenied => {
      format!("could not be run because just could not run the shell:\n{source}")
    }
    ErrorKind::ArgumentListTooLong => format!(
      "could not be run because its command or the environment is too long to pass to the \
       shell:\n{source}"
    ),
    _ => format!("could not be run because of an IO error while launching the shell:\n{source}"),
  }
}
