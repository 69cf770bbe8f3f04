//! `--list` and the other listings of recipes, groups and variables.

use super::{
  choice, command, option, switch, text, Command, Completer, Flag, Kind, Takes, ARGUMENTS,
};
use crate::options::AliasStyle;

/// The rows of this file.
pub(crate) const ROWS: &[Flag] = &[
  LIST,
  LIST_HEADING,
  LIST_PREFIX,
  LIST_SUBMODULES,
  ALIAS_STYLE,
  NO_ALIASES,
  UNSORTED,
  GROUP,
  GROUPS,
  DEFAULT_LIST,
  SUMMARY,
  VARIABLES,
];

pub(crate) const LIST: Flag = Flag {
  short: Some('l'),
  conflicts: &[ARGUMENTS],
  ..command(
    "list",
    Takes::Words("MODULE", 0),
    Command::List,
    "List the recipes of MODULE, or of the root module",
  )
};

pub(crate) const LIST_HEADING: Flag = Flag {
  env: Some("JUST_LIST_HEADING"),
  default: Some("Available recipes:\n"),
  ..text("list-heading", "TEXT", "Text printed before the recipe list", |o, v| {
    if let Some(heading) = v.string() {
      o.list_heading = heading;
    }
  })
};

pub(crate) const LIST_PREFIX: Flag = Flag {
  env: Some("JUST_LIST_PREFIX"),
  default: Some("    "),
  ..text("list-prefix", "TEXT", "Text printed before each listed recipe", |o, v| {
    if let Some(prefix) = v.string() {
      o.list_prefix = prefix;
    }
  })
};

pub(crate) const LIST_SUBMODULES: Flag = Flag {
  requires: Some("list"),
  ..switch("list-submodules", "JUST_LIST_SUBMODULES", "Also list recipes of submodules", |o, v| {
    o.list_submodules = v.switch();
  })
};

pub(crate) const ALIAS_STYLE: Flag = Flag {
  env: Some("JUST_ALIAS_STYLE"),
  default: Some(AliasStyle::Right.word()),
  conflicts: &["no-aliases"],
  ..choice::<AliasStyle>("alias-style", "ALIAS_STYLE", "How `--list` shows aliases", |o, v| {
    o.alias_style = v.choice().unwrap_or_default();
  })
};

pub(crate) const NO_ALIASES: Flag =
  switch("no-aliases", "JUST_NO_ALIASES", "Leave aliases out of listings", |o, v| {
    o.no_aliases = v.switch();
  });

pub(crate) const UNSORTED: Flag = Flag {
  short: Some('u'),
  ..switch("unsorted", "JUST_UNSORTED", "Keep source order in listings", |o, v| {
    o.unsorted = v.switch();
  })
};

pub(crate) const GROUP: Flag = Flag {
  env: Some("JUST_GROUP"),
  requires: Some("list"),
  completer: Completer::Groups,
  ..option(
    "group",
    Takes::Values("GROUP", Kind::Text),
    "Only list recipes of this group",
    |o, v| o.groups = v.strings(),
  )
};

pub(crate) const GROUPS: Flag =
  command("groups", Takes::Switch, Command::Groups, "List the recipe groups");

pub(crate) const DEFAULT_LIST: Flag =
  switch("default-list", "JUST_DEFAULT_LIST", "List recipes when none is given", |o, v| {
    o.default_list = v.switch();
  });

pub(crate) const SUMMARY: Flag =
  command("summary", Takes::Switch, Command::Summary, "Print the names of the recipes on one line");

pub(crate) const VARIABLES: Flag =
  command("variables", Takes::Switch, Command::Variables, "Print the names of the variables");

#[cfg(test)]
mod tests {
  use super::*;
  use crate::cli::config::Subcommand;
  use crate::cli::flags::testing::{command, error, options, strings, MISSING};

  #[test]
  fn list_takes_a_module_path() {
    assert_eq!(command(&["-l"]), Subcommand::List { path: Vec::new() });
    assert_eq!(command(&["--list", "a b"]), Subcommand::List { path: strings(&["a", "b"]) });
  }

  #[test]
  fn list_heading_and_prefix_have_defaults() {
    assert_eq!(options(&[]).list_heading, "Available recipes:\n");
    assert_eq!(options(&[]).list_prefix, "    ");
    assert_eq!(options(&["--list-heading", "R:"]).list_heading, "R:");
    assert_eq!(options(&["--list-prefix", "* "]).list_prefix, "* ");
  }

  #[test]
  fn list_submodules_and_group_need_list() {
    assert!(options(&["-l", "--list-submodules"]).list_submodules);
    assert_eq!(options(&["-l", "--group", "g"]).groups, strings(&["g"]));
    assert_eq!(error(&["--list-submodules"]), MISSING);
    assert_eq!(error(&["--group", "g"]), MISSING);
  }

  #[test]
  fn alias_style_excludes_no_aliases() {
    assert_eq!(options(&[]).alias_style, AliasStyle::Right);
    assert_eq!(options(&["--alias-style", "left"]).alias_style, AliasStyle::Left);
    assert!(options(&["--no-aliases"]).no_aliases);
    assert_eq!(
      error(&["--alias-style", "left", "--no-aliases"]),
      "error: the argument '--alias-style <ALIAS_STYLE>' cannot be used with '--no-aliases'"
    );
  }

  #[test]
  fn unsorted_and_default_list() {
    assert!(options(&["-u"]).unsorted);
    assert!(options(&["--default-list"]).default_list);
  }

  #[test]
  fn groups_summary_and_variables_are_commands() {
    assert_eq!(command(&["--groups"]), Subcommand::Groups);
    assert_eq!(command(&["--summary"]), Subcommand::Summary);
    assert_eq!(command(&["--variables"]), Subcommand::Variables);
  }
}
