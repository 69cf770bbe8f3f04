//! Settings: incompatibilities, name checks and const evaluation into
//! `model::Settings` (language.md §7).

#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;

use super::analyzer::error;
use super::compile_error::CompileError;
use super::const_eval::ConstEvaluator;
use super::error::AnalysisErrorKind;
use super::model::{Assignment, Settings};
use super::resolver::check_names_and_calls;
use crate::syntax::ast::{Expression, FunctionDefinition, Set, SettingValue};

type CompileResult<T> = Result<T, CompileError<'static>>;

/// `set NAME` / `set NAME := true|false`.
pub(crate) fn boolean(set: &Set) -> bool {
  matches!(set.value, SettingValue::Boolean { value: true, .. })
}

/// Whether `later` may not appear together with `earlier` (in either order).
pub(crate) fn incompatible(earlier: &str, earlier_set: &Set, later: &str, later_set: &Set) -> bool {
  let conflicts = |a: &str, b: &str, b_set: &Set| match (a, b) {
    ("dotenv-command", "dotenv-filename" | "dotenv-path") => true,
    ("dotenv-command", "dotenv-load" | "dotenv-required") => boolean(b_set),
    ("working-directory", "no-cd") => boolean(b_set),
    _ => false,
  };
  conflicts(earlier, later, later_set) || conflicts(later, earlier, earlier_set)
}

fn expressions<'s>(set: &'s Set<'static>) -> Vec<&'s Expression<'static>> {
  match &set.value {
    SettingValue::Expression(expression) => vec![expression],
    SettingValue::List(elements) => elements.iter().collect(),
    SettingValue::Boolean { .. } | SettingValue::Literal(_) => Vec::new(),
  }
}

/// Names referenced by a setting's value must be variables or constants.
pub(crate) fn check_setting_names(
  set: &Set<'static>,
  assignments: &BTreeMap<&'static str, Assignment<'static>>,
  functions: &BTreeMap<&'static str, FunctionDefinition<'static>>,
) -> CompileResult<()> {
  for expression in expressions(set) {
    check_names_and_calls(expression, assignments, functions)?;
  }
  Ok(())
}

pub(crate) fn evaluate(
  sets: &[&Set<'static>],
  evaluator: &ConstEvaluator<'_, 'static>,
) -> CompileResult<Settings<'static>> {
  let mut settings = Settings::default();
  for set in sets {
    apply(&mut settings, set, evaluator)?;
  }
  Ok(settings)
}

fn apply(
  settings: &mut Settings<'static>,
  set: &Set<'static>,
  evaluator: &ConstEvaluator<'_, 'static>,
) -> CompileResult<()> {
  let name = set.name.lexeme();
  match &set.value {
    SettingValue::Boolean { value, .. } => set_boolean(settings, name, *value),
    SettingValue::Literal(literal) => {
      if name == "indentation" {
        settings.indentation = Some(literal.cooked.clone());
      }
    }
    SettingValue::List(elements) => {
      let mut values = Vec::new();
      for element in elements {
        values.extend(evaluator.evaluate_const(element)?.0);
      }
      let mut values = values.into_iter();
      let Some(command) = values.next() else {
        return Err(error(set.name, AnalysisErrorKind::EmptyListSetting { setting: name }));
      };
      let interpreter = Some((command, values.collect()));
      match name {
        "shell" => settings.shell = interpreter,
        "windows-shell" => settings.windows_shell = interpreter,
        "script-interpreter" => settings.script_interpreter = interpreter,
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
      match name {
        "dotenv-command" => settings.dotenv_command = value.0.clone(),
        "dotenv-filename" => settings.dotenv_filename = value.0.clone(),
        "dotenv-path" => settings.dotenv_path = value.0.clone(),
        "tempdir" => settings.tempdir = Some(single()?),
        "working-directory" => settings.working_directory = Some(single()?),
        _ => {}
      }
    }
  }
  Ok(())
}

fn set_boolean(settings: &mut Settings<'static>, name: &str, value: bool) {
  let field = match name {
    "allow-duplicate-recipes" => &mut settings.allow_duplicate_recipes,
    "allow-duplicate-variables" => &mut settings.allow_duplicate_variables,
    "default-list" => &mut settings.default_list,
    "default-script" => &mut settings.default_script,
    "dotenv-load" => &mut settings.dotenv_load,
    "dotenv-override" => &mut settings.dotenv_override,
    "dotenv-required" => &mut settings.dotenv_required,
    "export" => &mut settings.export,
    "fallback" => &mut settings.fallback,
    "guards" => &mut settings.guards,
    "ignore-comments" => &mut settings.ignore_comments,
    "lazy" => &mut settings.lazy,
    "lists" => &mut settings.lists,
    "no-cd" => &mut settings.no_cd,
    "no-exit-message" => &mut settings.no_exit_message,
    "positional-arguments" => &mut settings.positional_arguments,
    "quiet" => &mut settings.quiet,
    "unstable" => &mut settings.unstable,
    "windows-powershell" => &mut settings.windows_powershell,
    _ => return,
  };
  *field = value;
}
