//! Settings: incompatibilities, name checks and const evaluation into
//! `model::Settings`.

#![allow(clippy::result_large_err)]

use super::analyzer::error;
use super::compile_error::CompileError;
use super::const_eval::ConstEvaluator;
use super::error::AnalysisErrorKind;
use super::model::{Assignment, Functions, Settings, Table};
use super::resolver::check_names_and_calls;
use crate::syntax::ast::{Expression, Set, SettingValue};
use crate::syntax::settings::Setting;

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
  use Setting::*;
  let conflicts = |a: Setting, b: Setting, b_set: &Set| match (a, b) {
    (DotenvCommand, DotenvFilename | DotenvPath) => true,
    (DotenvCommand, DotenvLoad | DotenvRequired) => boolean(b_set),
    (WorkingDirectory, NoCd) => boolean(b_set),
    _ => false,
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
  let name = set.name.lexeme();
  match &set.value {
    SettingValue::Boolean { value, .. } => set_boolean(settings, set.setting, *value),
    SettingValue::Literal(literal) => {
      if set.setting == Setting::Indentation {
        settings.indentation = Some(literal.cooked.to_string());
      }
    }
    SettingValue::List(elements) => {
      let mut values = Vec::new();
      for element in elements.iter() {
        values.extend(evaluator.evaluate_const(element)?.0);
      }
      let mut values = values.into_iter();
      let Some(command) = values.next() else {
        return Err(error(set.name, AnalysisErrorKind::EmptyListSetting { setting: name }));
      };
      let interpreter = Some((command, values.collect()));
      match set.setting {
        Setting::Shell => settings.shell = interpreter,
        Setting::WindowsShell => settings.windows_shell = interpreter,
        Setting::ScriptInterpreter => settings.script_interpreter = interpreter,
        _ => {}
      }
    }
    SettingValue::Expression(expression) => {
      let value = evaluator.evaluate_const(expression)?;
      let single = || match value.as_single() {
        Some(single) => Ok(single.to_string()),
        None => Err(error(
          set.name,
          AnalysisErrorKind::ListSettingValue { value: value.show(), setting: name },
        )),
      };
      match set.setting {
        Setting::DotenvCommand => settings.dotenv_command = value.0.clone(),
        Setting::DotenvFilename => settings.dotenv_filename = value.0.clone(),
        Setting::DotenvPath => settings.dotenv_path = value.0.clone(),
        Setting::Tempdir => settings.tempdir = Some(single()?),
        Setting::WorkingDirectory => settings.working_directory = Some(single()?),
        _ => {}
      }
    }
  }
  Ok(())
}

fn set_boolean<'src>(settings: &mut Settings<'src>, setting: Setting, value: bool) {
  use Setting::*;
  let field = match setting {
    AllowDuplicateRecipes => &mut settings.allow_duplicate_recipes,
    AllowDuplicateVariables => &mut settings.allow_duplicate_variables,
    DefaultList => &mut settings.default_list,
    DefaultScript => &mut settings.default_script,
    DotenvLoad => &mut settings.dotenv_load,
    DotenvOverride => &mut settings.dotenv_override,
    DotenvRequired => &mut settings.dotenv_required,
    Export => &mut settings.export,
    Fallback => &mut settings.fallback,
    Guards => &mut settings.guards,
    IgnoreComments => &mut settings.ignore_comments,
    Lazy => &mut settings.lazy,
    Lists => &mut settings.lists,
    NoCd => &mut settings.no_cd,
    NoExitMessage => &mut settings.no_exit_message,
    PositionalArguments => &mut settings.positional_arguments,
    Quiet => &mut settings.quiet,
    Unstable => &mut settings.unstable,
    WindowsPowershell => &mut settings.windows_powershell,
    _ => return,
  };
  *field = value;
}
