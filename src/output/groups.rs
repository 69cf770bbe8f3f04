//! `--groups`.

use crate::analysis::model::Justfile;
use crate::options::Options;
use crate::output::list::module_groups;

/// `Recipe groups:` then one prefixed line per public group of the root.
pub(crate) fn groups(justfile: &Justfile, config: &Options) -> String {
  let mut out = String::from("Recipe groups:\n");
  for group in module_groups(&justfile.root, config.unsorted) {
    out.push_str(&config.list_prefix);
    out.push_str(&group);
    out.push('\n');
  }
  out
}
