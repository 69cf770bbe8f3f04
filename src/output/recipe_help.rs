//! `just RECIPE --help`: everything about calling one recipe.

use crate::analysis::model::{Justfile, Parameter, Recipe};
use crate::color::Painter;
use crate::output::usage::{argument_parts, heading, option_parts, usage_line};
use crate::syntax::ast::{Attribute, ParameterKind};

/// Doc, usage line, parameters and options, dependencies, group,
/// attributes and aliases of `recipe`.
pub(crate) fn recipe_help(justfile: &Justfile, recipe: &Recipe, color: bool) -> String {
  let painter = Painter { active: color, command_color: None, highlight: true };
  let mut sections = Vec::new();
  if let Some(doc) = &recipe.doc {
    sections.push(format!("{}\n", painter.doc(doc)));
  }
  sections.push(format!(
    "{} {}\n",
    heading("Usage:", color),
    usage_line(recipe, recipe.namepath, color)
  ));
  let positionals: Vec<Parameter> = recipe.parameters().iter().filter(|p| !p.is_option()).collect();
  if !positionals.is_empty() {
    let lines = aligned(&positionals, argument_parts, color);
    sections.push(section("Arguments:", lines.into_iter(), color));
  }
  let options: Vec<Parameter> = recipe.parameters().iter().filter(|p| p.is_option()).collect();
  if !options.is_empty() {
    let lines = aligned(&options, option_parts, color);
    sections.push(section("Options:", lines.into_iter(), color));
  }
  let dependencies = dependency_lines(justfile, recipe);
  if !dependencies.is_empty() {
    sections.push(section("Dependencies:", dependencies.into_iter(), color));
  }
  let details = detail_lines(justfile, recipe, color);
  if !details.is_empty() {
    sections.push(details.concat());
  }
  sections.join("\n")
}

/// Parameter lines with their details in one column, two spaces after the
/// widest name (widths measured without colour).
fn aligned(
  parameters: &[Parameter],
  parts: fn(&Parameter, bool) -> (String, String),
  color: bool,
) -> Vec<String> {
  let width = |parameter: &Parameter| parts(parameter, false).0.chars().count();
  let column = parameters.iter().map(width).max().unwrap_or(0) + 2;
  parameters
    .iter()
    .map(|parameter| {
      let (name, details) = parts(parameter, color);
      let details = details + &markers(parameter);
      let details = details.trim_start();
      if details.is_empty() {
        name
      } else {
        format!("{name}{}{details}", " ".repeat(column - width(parameter)))
      }
    })
    .collect()
}

fn section(title: &str, lines: impl Iterator<Item = String>, color: bool) -> String {
  let mut out = format!("{}\n", heading(title, color));
  for line in lines {
    out.push_str(&line);
    out.push('\n');
  }
  out
}

/// ` [variadic: …] [exported] [repeatable]` after a parameter line.
fn markers(parameter: &Parameter) -> String {
  let mut out = String::new();
  match parameter.kind() {
    ParameterKind::Singular => {}
    ParameterKind::Plus => out.push_str(" [variadic: one or more]"),
    ParameterKind::Star => out.push_str(" [variadic: zero or more]"),
  }
  if parameter.multiple() {
    out.push_str(" [repeatable]");
  }
  if parameter.export() {
    out.push_str(" [exported]");
  }
  out
}

/// `  NAME ARG…`, `&&` before the subsequents.
fn dependency_lines(justfile: &Justfile, recipe: &Recipe) -> Vec<String> {
  let line = |dependency, subsequent: bool| {
    let mut words = vec![crate::output::tree::dependency_path(justfile, dependency)];
    words.extend(crate::output::tree::dependency_arguments(dependency));
    format!("  {}{}", if subsequent { "&& " } else { "" }, words.join(" "))
  };
  (recipe.priors().iter().map(|d| line(d, false)))
    .chain(recipe.subsequents().iter().map(|d| line(d, true)))
    .collect()
}

/// Whether the `Attributes:` line lists an attribute: `[arg]`, `[doc]` and
/// `[group]` show elsewhere in the help.
fn listed(attribute: &Attribute) -> bool {
  match attribute {
    Attribute::Arg(_) | Attribute::Doc(_) | Attribute::Group(_) => false,
    Attribute::Android
    | Attribute::Cache(_)
    | Attribute::Confirm(_)
    | Attribute::Continue(_)
    | Attribute::Default
    | Attribute::Dragonfly
    | Attribute::Env(..)
    | Attribute::ExitMessage
    | Attribute::Extension(_)
    | Attribute::Freebsd
    | Attribute::Linux
    | Attribute::Macos
    | Attribute::Metadata(_)
    | Attribute::Netbsd
    | Attribute::NoCd
    | Attribute::NoExitMessage
    | Attribute::NoQuiet
    | Attribute::Openbsd
    | Attribute::Parallel
    | Attribute::PositionalArguments
    | Attribute::Private
    | Attribute::Script(_)
    | Attribute::Shell
    | Attribute::Timestamp(_)
    | Attribute::Unix
    | Attribute::Windows
    | Attribute::WorkingDirectory(_) => true,
  }
}

/// `Group:`, `Attributes:` and `Aliases:` lines, those that apply.
fn detail_lines(justfile: &Justfile, recipe: &Recipe, color: bool) -> Vec<String> {
  let mut lines = Vec::new();
  let groups = recipe.groups();
  if !groups.is_empty() {
    let title = if groups.len() == 1 { "Group:" } else { "Groups:" };
    lines.push(format!("{} {}\n", heading(title, color), groups.join(", ")));
  }
  let attributes: Vec<String> = crate::syntax::attribute_order::sorted(recipe.attributes())
    .into_iter()
    .filter(|entry| listed(&entry.attribute))
    .map(|entry| format!("[{}]", crate::output::format::attributes::render(&entry.attribute)))
    .collect();
  let private = recipe.private && !recipe.effects.flags.private();
  let attributes = if private {
    [attributes, vec!["private (name starts with `_`)".to_string()]].concat()
  } else {
    attributes
  };
  if !attributes.is_empty() {
    lines.push(format!("{} {}\n", heading("Attributes:", color), attributes.join(" ")));
  }
  let aliases: Vec<String> = crate::output::tree::recipe_aliases(&justfile.root)
    .into_iter()
    .filter(|(_, target)| std::ptr::eq(*target, recipe))
    .map(|(alias, _)| alias)
    .collect();
  if !aliases.is_empty() {
    let title = if aliases.len() == 1 { "Alias:" } else { "Aliases:" };
    lines.push(format!("{} {}\n", heading(title, color), aliases.join(", ")));
  }
  lines
}
