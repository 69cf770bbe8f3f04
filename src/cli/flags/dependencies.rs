//! The dependency views: `--tree` and `--graph`.

use super::{choice, command, nothing, option, Command, Completer, Flag, Takes, DEPENDENCY_VIEW};
use crate::options::GraphFormat;

/// The rows of this file.
pub(crate) const ROWS: &[Flag] = &[TREE, GRAPH, GRAPH_FORMAT, ALL];

pub(crate) const TREE: Flag = Flag {
  completer: Completer::RecipePaths,
  ..command(
    "tree",
    Takes::Words("RECIPE_PATH", 0),
    Command::Tree,
    "Print the dependency tree of recipes (default: every recipe nothing depends on)",
  )
};

pub(crate) const GRAPH: Flag = Flag {
  completer: Completer::RecipePaths,
  ..command(
    "graph",
    Takes::Words("RECIPE_PATH", 0),
    Command::Graph,
    "Print the dependency graph of recipes for tools (see --graph-format)",
  )
};

pub(crate) const GRAPH_FORMAT: Flag = Flag {
  late_env: Some("JUST_GRAPH_FORMAT"),
  default: Some(GraphFormat::Dot.word()),
  requires: Some("graph"),
  ..choice::<GraphFormat>(
    "graph-format",
    "FORMAT",
    "Output format of `--graph` (else $JUST_GRAPH_FORMAT)",
    nothing,
  )
};

pub(crate) const ALL: Flag = Flag {
  requires: Some(DEPENDENCY_VIEW),
  ..option(
    "all",
    Takes::Switch,
    "With `--tree`/`--graph` and no recipe: include private recipes among the roots",
    nothing,
  )
};

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::config::Subcommand;
  use crate::cli::flags::testing::{command, error, strings, MISSING};

  #[test]
  fn tree_takes_recipe_paths() {
    let tree = Subcommand::Tree { paths: strings(&["a", "b"]), all: false };
    assert_eq!(command(&["--tree", "a", "b"]), tree);
  }

  #[test]
  fn graph_is_dot_by_default() {
    let graph = Subcommand::Graph { paths: Vec::new(), all: false, format: GraphFormat::Dot };
    assert_eq!(command(&["--graph"]), graph);
  }

  #[test]
  fn graph_format_needs_graph() {
    let graph = Subcommand::Graph { paths: Vec::new(), all: false, format: GraphFormat::Json };
    assert_eq!(command(&["--graph", "--graph-format", "json"]), graph);
    assert_eq!(error(&["--graph-format", "json"]), MISSING);
  }

  #[test]
  fn all_needs_a_view_and_no_recipe() {
    assert_eq!(command(&["--tree", "--all"]), Subcommand::Tree { paths: Vec::new(), all: true });
    assert_eq!(error(&["--all"]), MISSING);
    assert_eq!(error(&["--tree", "a", "--all"]), "`--all` used with unexpected argument: `a`");
  }
}
