//! `--variables`.

use crate::analysis::model::{Assignment, Justfile, Module};

/// The non-private variables of a module, sorted by name.
pub fn public_assignments<'a, 'src>(module: &'a Module<'src>) -> Vec<&'a Assignment<'src>> {
  module.assignments.values().filter(|assignment| !is_private(assignment)).collect()
}

fn is_private(assignment: &Assignment) -> bool {
  assignment.private || assignment.name.lexeme().starts_with('_')
}

/// Names of the root's non-private variables, space-separated, then `\n`.
pub fn variables(justfile: &Justfile) -> String {
  let names: Vec<&str> =
    public_assignments(&justfile.root).iter().map(|assignment| assignment.name.lexeme()).collect();
  format!("{}\n", names.join(" "))
}
