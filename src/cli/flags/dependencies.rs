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
