//! Turning hand-written test functions into trials, and checking names.

use std::collections::BTreeMap;

use libtest_mimic::{Failed, Trial};

/// Whether the suite runs against another binary than ours (`TEST_JUST_BIN`).
pub(crate) fn against_other_binary() -> bool {
  std::env::var_os("TEST_JUST_BIN").is_some()
}

/// A trial for a plain test function, which fails by panicking. `module` is
/// the caller's `module_path!()`; the crate name is dropped from it. While
/// recording expected outputs only table cases run. A test whose
/// requirement does not hold here (`runnable` false: it needs root, a mount
/// or a program this machine lacks) is ignored, so the summary counts it as
/// not run instead of passed.
pub(crate) fn trial(
  module: &str,
  name: &str,
  test: fn(),
  extension: bool,
  runnable: bool,
  requirement: &[&str],
) -> Trial {
  let module = module.split_once("::").map_or(module, |(_, rest)| rest);
  if !runnable && required_everywhere() && !requirement.iter().any(|name| PRIVILEGES.contains(name))
  {
    return Trial::test(format!("{module}::{name}"), || {
      Err(Failed::from(
        "a program this test needs is missing here, and JUST_TEST_REQUIRE_ALL is set: CI \
         installs every program the tests drive, so none may be ignored",
      ))
    });
  }
  Trial::test(format!("{module}::{name}"), move || {
    test();
    Ok(())
  })
  .with_ignored_flag(
    (extension && against_other_binary()) || crate::cases::recording() || !runnable,
  )
}

/// Requirements that are privileges of the machine (root, mounting), not
/// programs CI installs: their tests may be ignored even in CI.
const PRIVILEGES: &[&str] = &["is_root", "can_mount"];

/// Whether a test that needs a program this machine lacks fails instead of
/// being ignored (`JUST_TEST_REQUIRE_ALL=1`, which `.ci/run` sets).
fn required_everywhere() -> bool {
  std::env::var_os("JUST_TEST_REQUIRE_ALL").is_some_and(|value| value == "1")
}

/// Replaces every group of trials sharing a name by one failing trial of that
/// name, so a duplicate can neither hide a test nor go unnoticed.
pub(crate) fn reject_duplicate_names(trials: Vec<Trial>) -> Vec<Trial> {
  let mut by_name: BTreeMap<String, Vec<Trial>> = BTreeMap::new();
  for trial in trials {
    by_name.entry(trial.name().to_owned()).or_default().push(trial);
  }
  by_name
    .into_iter()
    .flat_map(|(name, group)| {
      if group.len() == 1 {
        group
      } else {
        let count = group.len();
        vec![Trial::test(name.clone(), move || {
          Err(Failed::from(format!("{count} tests are named `{name}`; names must be unique")))
        })]
      }
    })
    .collect()
}
