//! `--variables`.

use crate::analysis::model::{Assignment, Justfile, Module};

/// The non-private variables of a module, sorted by name.
pub(crate) fn public_assignments<'a, 'src>(module: &'a Module<'src>) -> Vec<&'a Assignment<'src>> {
  module.assignments.values().filter(|assignment| assignment.is_public()).collect()
}

/// The indices in the module's assignment table of `public_assignments`.
pub(crate) fn public_assignment_indices(module: &Module) -> Vec<usize> {
  let assignments = &module.assignments;
  let public = |index: &usize| assignments.at(*index).is_some_and(Assignment::is_public);
  assignments.sorted_indices().iter().map(|&index| index as usize).filter(public).collect()
}

/// Names of the root's non-private variables, space-separated, then `\n`.
pub(crate) fn variables(justfile: &Justfile) -> String {
  let names: Vec<&str> =
    public_assignments(&justfile.root).iter().map(|assignment| assignment.name.lexeme()).collect();
  format!("{}\n", names.join(" "))
}
