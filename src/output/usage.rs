//! `--usage PATH`, the usage line of the
//! argument-count error, and recipe path resolution shared with
//! `--show`.

use nu_ansi_term::{Color as Ansi, Style};

use crate::analysis::lookup::{lookup, suggest_recipe, suggest_submodule, Lookup, LookupError};
use crate::analysis::model::{Alias, Justfile, Module, Parameter, Recipe};
use crate::color::Painter;
use crate::syntax::ast::ParameterKind;

/// A recipe named on the command line by `--show` / `--usage`.
pub(crate) struct RecipePath<'a, 'src> {
  pub module: &'a Module<'src>,
  pub recipe: &'a Recipe<'src>,
  /// The alias named, if the path's last component was a recipe alias.
  pub alias: Option<&'a Alias<'src>>,
  /// The path as typed: words joined by spaces, or the `::` word.
  pub typed: String,
}

/// The components of a path given as words: one `::` word, one word with
/// spaces, or several words.
pub(crate) fn path_components(path: &[String]) -> Vec<String> {
  crate::syntax::path::module_path(path).unwrap_or_else(|| path.to_vec())
}

fn typed_path(path: &[String]) -> String {
  match path {
    [word] => word.split_whitespace().collect::<Vec<_>>().join(" "),
    words => words.join(" "),
  }
}

/// Resolves a `--show` / `--usage` path to a recipe (aliases followed).
pub(crate) fn resolve_recipe_path<'a, 'src>(
  justfile: &'a Justfile<'src>,
  path: &[String],
) -> Result<RecipePath<'a, 'src>, LookupError> {
  let typed = typed_path(path);
  let components = path_components(path);
  let Some((last, init)) = components.split_last() else {
    return Err(LookupError::UnknownRecipe { path: typed, suggestion: None });
  };
  let mut module = &justfile.root;
  for (index, component) in init.iter().enumerate() {
    match lookup(module, component) {
      Lookup::Module(submodule) => module = submodule,
      Lookup::AbsentModule => {
        return Err(LookupError::AbsentModule { path: components[..=index].join("::") });
      }
      _ => {
        let suggestion = suggest_submodule(module, component);
        return Err(LookupError::UnknownSubmodule { path: typed, suggestion });
      }
    }
  }
  let alias = module.aliases.get(last.as_str());
  match lookup(module, last) {
    Lookup::Recipe { module, recipe } => Ok(RecipePath { module, recipe, alias, typed }),
    Lookup::DisabledRecipe(modules) => {
      Err(LookupError::RecipeDependsOnAbsentModule { name: last.clone(), modules })
    }
    Lookup::DisabledAlias(modules) => {
      Err(LookupError::AliasDependsOnAbsentModule { name: last.clone(), modules })
    }
    Lookup::AbsentModule | Lookup::Module(_) | Lookup::Unknown => Err(LookupError::UnknownRecipe {
      path: last.clone(),
      suggestion: suggest_recipe(module, last),
    }),
  }
}

/// Pieces of the usage line with their styles.
struct Line {
  painter: Painter,
  text: String,
}

impl Line {
  fn new(color: bool) -> Self {
    let painter = Painter { active: color, command_color: None, highlight: true };
    Line { painter, text: String::new() }
  }

  fn push(&mut self, style: Style, text: &str) {
    self.text.push_str(&self.painter.paint(style, text));
  }

  fn plain(&mut self, text: &str) {
    self.text.push_str(text);
  }
}

fn word_style() -> Style {
  Ansi::Cyan.normal()
}

fn is_optional_positional(parameter: &Parameter) -> bool {
  parameter.default().is_some() || parameter.kind() == ParameterKind::Star
}

/// `NAME`, `[NAME]`, `NAME...`, `[NAME...]`.
fn push_parameter_token(line: &mut Line, parameter: &Parameter) {
  let optional = is_optional_positional(parameter);
  if optional {
    line.push(word_style(), "[");
  }
  line.push(word_style(), parameter.name().lexeme());
  if parameter.kind().is_variadic() {
    line.push(word_style(), "...");
  }
  if optional {
    line.push(word_style(), "]");
  }
}

fn has_options(recipe: &Recipe) -> bool {
  recipe.parameters().iter().any(Parameter::is_option)
}

/// `just PATH [OPTIONS] A [B] [C...]`, each word painted cyan.
pub(crate) fn usage_line(recipe: &Recipe, path: &str, color: bool) -> String {
  let mut line = Line::new(color);
  line.push(word_style(), "just");
  line.plain(" ");
  line.push(word_style(), path);
  if has_options(recipe) {
    line.plain(" ");
    line.push(word_style(), "[OPTIONS]");
  }
  for parameter in recipe.parameters().iter().filter(|p| !p.is_option()) {
    line.plain(" ");
    push_parameter_token(&mut line, &parameter);
  }
  line.text
}

/// ` HELP [default: EXPR] [pattern: 'P']` for an argument or option line.
fn details(parameter: &Parameter, show_default: bool) -> String {
  let mut out = String::new();
  if let Some(help) = &parameter.help() {
    out.push(' ');
    out.push_str(help);
  }
  if let (true, Some(default)) = (show_default, parameter.default()) {
    out.push_str(&format!(" [default: {default}]"));
  }
  if !parameter.patterns().is_empty() {
    let quoted: Vec<String> = parameter.patterns().iter().map(|p| format!("'{p}'")).collect();
    out.push_str(&format!(" [pattern: {}]", quoted.join(" | ")));
  }
  out
}

pub(crate) fn argument_line(parameter: &Parameter, color: bool) -> String {
  let (name, details) = argument_parts(parameter, color);
  name + &details
}

/// An `Arguments:` line in two parts: `  NAME` and its details (help text,
/// default, pattern), each starting with a space.
pub(crate) fn argument_parts(parameter: &Parameter, color: bool) -> (String, String) {
  let mut line = Line::new(color);
  line.plain("  ");
  push_parameter_token(&mut line, parameter);
  (line.text, details(parameter, true))
}

pub(crate) fn option_line(parameter: &Parameter, color: bool) -> String {
  let (flags, details) = option_parts(parameter, color);
  flags + &details
}

/// An `Options:` line in two parts: `  -s, --long VALUE` and its details.
pub(crate) fn option_parts(parameter: &Parameter, color: bool) -> (String, String) {
  let mut line = Line::new(color);
  let style = Ansi::Green.normal();
  line.plain("  ");
  match parameter.short() {
    Some(short) => line.push(style, &format!("-{short}")),
    None => line.plain("  "),
  }
  if let Some(long) = &parameter.long() {
    line.plain(if parameter.short().is_some() { ", " } else { "  " });
    line.push(style, &format!("--{long}"));
  }
  let takes_value = !parameter.flag() && parameter.value().is_none();
  if takes_value {
    line.plain(" ");
    line.push(word_style(), parameter.name().lexeme());
  }
  (line.text, details(parameter, parameter.value().is_none()))
}

pub(crate) fn heading(text: &str, color: bool) -> String {
  let mut line = Line::new(color);
  line.push(Ansi::Yellow.bold(), text);
  line.text
}

/// The `--usage` text of `recipe` named as `path` (without the alias line).
pub(crate) fn usage(recipe: &Recipe, path: &str, color: bool) -> String {
  let mut out = format!("{} {}\n", heading("Usage:", color), usage_line(recipe, path, color));
  let positionals: Vec<Parameter> = recipe.parameters().iter().filter(|p| !p.is_option()).collect();
  let options: Vec<Parameter> = recipe.parameters().iter().filter(|p| p.is_option()).collect();
  if !positionals.is_empty() {
    out.push_str(&format!("\n{}\n", heading("Arguments:", color)));
    for parameter in &positionals {
      out.push_str(&argument_line(parameter, color));
      out.push('\n');
    }
  }
  if !options.is_empty() {
    if !positionals.is_empty() {
      out.push('\n');
    }
    out.push_str(&format!("{}\n", heading("Options:", color)));
    for parameter in &options {
      out.push_str(&option_line(parameter, color));
      out.push('\n');
    }
  }
  out
}

/// The whole `--usage PATH` output: alias declaration (if an alias was
/// named) then the usage text.
pub(crate) fn usage_for_path(
  justfile: &Justfile,
  path: &[String],
  color: bool,
) -> Result<String, LookupError> {
  let resolved = resolve_recipe_path(justfile, path)?;
  let mut out = String::new();
  if let Some(alias) = resolved.alias {
    out.push_str(&format!("alias {} := {}\n", alias.name.lexeme(), alias.target_path()));
  }
  out.push_str(&usage(resolved.recipe, &resolved.typed, color));
  Ok(out)
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::analysis::fixtures::*;

  /// `opts v="" level='1' *files` with `-v/--verbose value="1"` and `--lvl`.
  fn opts() -> Recipe<'static> {
    let mut v = param("v");
    v.options_mut().long = Some("verbose".into());
    v.options_mut().short = Some('v');
    v.options_mut().value = Some(Box::leak(Box::new(string("\"1\""))));
    v.options_mut().help = Some("be loud".into());
    edit_param(&mut v, |p| p.default = Some(Box::leak(Box::new(string("\"\"")))));
    let mut level = param("level");
    level.options_mut().long = Some("lvl".into());
    level.options_mut().help = Some("the level".into());
    level.options_mut().patterns = vec!["[0-9]+".into()];
    edit_param(&mut level, |p| p.default = Some(Box::leak(Box::new(string("'1'")))));
    let mut files = param("files");
    edit_param(&mut files, |p| p.kind = ParameterKind::Star);
    recipe(&[], "opts", vec![v, level, files])
  }

  #[test]
  fn usage_texts() {
    let mut n = param("n");
    n.options_mut().short = Some('n');
    let mut b = param("b");
    edit_param(&mut b, |p| p.default = Some(Box::leak(Box::new(string("'x'")))));
    let mut c = param("c");
    edit_param(&mut c, |p| p.kind = ParameterKind::Plus);
    let cases = [
      (
        opts(),
        "Usage: just opts [OPTIONS] [files...]\n\nArguments:\n  [files...]\n\nOptions:\n  -v, --verbose be loud\n      --lvl level the level [default: '1'] [pattern: '[0-9]+']\n",
      ),
      (recipe(&[], "req", vec![n]), "Usage: just req [OPTIONS]\nOptions:\n  -n n\n"),
      (recipe(&[], "a", vec![]), "Usage: just a\n"),
      (
        recipe(&[], "both", vec![param("a"), b, c]),
        "Usage: just both a [b] c...\n\nArguments:\n  a\n  [b] [default: 'x']\n  c...\n",
      ),
    ];
    for (recipe, expected) in cases {
      assert_eq!(usage(&recipe, recipe.name().lexeme(), false), expected);
    }
  }

  #[test]
  fn colored_usage_line() {
    assert_eq!(
      usage_line(&opts(), "opts", true),
      "\x1b[36mjust\x1b[0m \x1b[36mopts\x1b[0m \x1b[36m[OPTIONS]\x1b[0m \x1b[36m[\x1b[0m\x1b[36mfiles\x1b[0m\x1b[36m...\x1b[0m\x1b[36m]\x1b[0m"
    );
  }
}
