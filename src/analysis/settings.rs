//! Settings: incompatibilities, name checks and const evaluation into
//! `model::Settings`.

use super::compile_error::{error, CompileError};
use super::const_eval::ConstEvaluator;
use super::error::AnalysisErrorKind;
use super::model::{Assignment, Functions, Settings, Table};
use super::resolver::check_names_and_calls;
use crate::builtins::value::Value;
use crate::syntax::ast::{Expression, Set, SettingValue};
use crate::syntax::settings::{Conflict, Setting, CONFLICTS};

type CompileResult<'src, T> = Result<T, CompileError<'src>>;

/// `set NAME` / `set NAME := true|false`.
pub(crate) fn boolean(set: &Set) -> bool {
  matches!(set.value, SettingValue::Boolean { value: true, .. })
}

/// Whether `later` may not appear together with `earlier` (in either order).
pub(crate) fn incompatible(
  earlier: Setting,
  earlier_set: &Set,
  later: Setting,
  later_set: &Set,
) -> bool {
  let conflicts = |a: Setting, b: Setting, b_set: &Set| {
    CONFLICTS.iter().any(|&(first, second, conflict)| {
      first == a
        && second == b
        && match conflict {
          Conflict::Always => true,
          Conflict::WhenTrue => boolean(b_set),
        }
    })
  };
  conflicts(earlier, later, later_set) || conflicts(later, earlier, earlier_set)
}

fn expressions<'src, 's>(set: &'s Set<'src>) -> Vec<&'s Expression<'src>> {
  match &set.value {
    SettingValue::Expression(expression) => vec![expression],
    SettingValue::List(elements) => elements.iter().collect(),
    SettingValue::Boolean { .. } | SettingValue::Literal(_) => Vec::new(),
  }
}

/// Names referenced by a setting's value must be variables or constants.
pub(crate) fn check_setting_names<'src>(
  set: &Set<'src>,
  assignments: &Table<'src, Assignment<'src>>,
  functions: &Functions<'src>,
) -> CompileResult<'src, ()> {
  for expression in expressions(set) {
    check_names_and_calls(expression, assignments, functions)?;
  }
  Ok(())
}

pub(crate) fn evaluate<'src>(
  sets: &[&Set<'src>],
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, Settings<'src>> {
  let mut settings = Settings::default();
  for set in sets {
    apply(&mut settings, set, evaluator)?;
  }
  Ok(settings)
}

fn apply<'src>(
  settings: &mut Settings<'src>,
  set: &Set<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, ()> {
  use Setting::*;
  // One arm per setting: a new one does not compile until it is applied
  // here. The parser has checked that the value has the setting's type
  // (`Setting::value_type`).
  match set.setting {
    AllowDuplicateRecipes => settings.allow_duplicate_recipes = boolean(set),
    AllowDuplicateVariables => settings.allow_duplicate_variables = boolean(set),
    DefaultList => settings.default_list = boolean(set),
    DefaultScript => settings.default_script = boolean(set),
    DotenvCommand => settings.dotenv_command = values(set, evaluator)?,
    DotenvFilename => settings.dotenv_filename = values(set, evaluator)?,
    DotenvLoad => settings.dotenv_load = boolean(set),
    DotenvOverride => settings.dotenv_override = boolean(set),
    DotenvPath => settings.dotenv_path = values(set, evaluator)?,
    DotenvRequired => settings.dotenv_required = boolean(set),
    Export => settings.export = boolean(set),
    Fallback => settings.fallback = boolean(set),
    Guards => settings.guards = boolean(set),
    IgnoreComments => settings.ignore_comments = boolean(set),
    Indentation => settings.indentation = literal(set).map(str::to_string),
    Lazy => settings.lazy = boolean(set),
    Lists => settings.lists = boolean(set),
    // Checked against this version by the parser.
    MinimumVersion => {}
    NoCd => settings.no_cd = boolean(set),
    NoExitMessage => settings.no_exit_message = boolean(set),
    PositionalArguments => settings.positional_arguments = boolean(set),
    Quiet => settings.quiet = boolean(set),
    ScriptInterpreter => settings.script_interpreter = interpreter(set, evaluator)?,
    Shell => settings.shell = interpreter(set, evaluator)?,
    Tempdir => settings.tempdir = single(set, evaluator)?,
    Unstable => settings.unstable = boolean(set),
    WindowsPowershell => settings.windows_powershell = boolean(set),
    WindowsShell => settings.windows_shell = interpreter(set, evaluator)?,
    WorkingDirectory => settings.working_directory = single(set, evaluator)?,
  }
  Ok(())
}

/// The text of `set NAME := 'LITERAL'`.
fn literal<'src>(set: &Set<'src>) -> Option<&'src str> {
  match &set.value {
    SettingValue::Literal(literal) => Some(literal.cooked),
    SettingValue::Boolean { .. } | SettingValue::Expression(_) | SettingValue::List(_) => None,
  }
}

/// The values of `set NAME := EXPRESSION` (a list when `lists` is set).
fn values<'src>(
  set: &Set<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, Vec<String>> {
  Ok(value(set, evaluator)?.map(|value| value.0).unwrap_or_default())
}

fn value<'src>(
  set: &Set<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, Option<Value>> {
  match &set.value {
    SettingValue::Expression(expression) => evaluator.evaluate_const(expression).map(Some),
    SettingValue::Boolean { .. } | SettingValue::Literal(_) | SettingValue::List(_) => Ok(None),
  }
}

/// The value of `set NAME := EXPRESSION`, which must be a single string.
fn single<'src>(
  set: &Set<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, Option<String>> {
  let Some(value) = value(set, evaluator)? else {
    return Ok(None);
  };
  match value.as_single() {
    Some(single) => Ok(Some(single.to_string())),
    None => Err(error(
      set.name,
      AnalysisErrorKind::ListSettingValue { value: value.show(), setting: set.name.lexeme() },
    )),
  }
}

/// The command and arguments of `set NAME := [COMMAND, ARGUMENT…]`.
fn interpreter<'src>(
  set: &Set<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, Option<(String, Vec<String>)>> {
  let mut values = Vec::new();
  for element in expressions(set) {
    values.extend(evaluator.evaluate_const(element)?.0);
  }
  let mut values = values.into_iter();
  let Some(command) = values.next() else {
    return Err(error(
      set.name,
      AnalysisErrorKind::EmptyListSetting { setting: set.name.lexeme() },
    ));
  };
  Ok(Some((command, values.collect())))
}
