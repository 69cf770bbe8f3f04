//! Shell selection and spawning lines.

use crate::analysis::model::Settings;
use crate::options::Options;

/// The shell program and its arguments for a module.
pub(crate) fn module_shell(config: &Options, settings: &Settings) -> (String, Vec<String>) {
  if config.shell.is_some() || config.shell_args.is_some() {
    let program = config.shell.clone().unwrap_or_else(|| "sh".into());
    let arguments = config.shell_args.clone().unwrap_or_else(|| vec!["-cu".into()]);
    return (program, arguments);
  }
  if crate::platform::WINDOWS {
    if let Some((program, arguments)) = &settings.windows_shell {
      return (program.clone(), arguments.clone());
    }
    if settings.windows_powershell {
      return ("powershell.exe".into(), vec!["-NoLogo".into(), "-Command".into()]);
    }
  }
  if let Some((program, arguments)) = &settings.shell {
    return (program.clone(), arguments.clone());
  }
  ("sh".into(), vec!["-cu".into()])
}

/// The interpreter for `[script]` and `default-script` recipes.
pub(crate) fn script_interpreter(settings: &Settings) -> (String, Vec<String>) {
  settings.script_interpreter.clone().unwrap_or_else(|| ("sh".into(), vec!["-eu".into()]))
}
