//! Recipe headers and bodies and `--show`.

use nu_ansi_term::Color as Ansi;

use super::attributes;
use super::expression::push_expression;
use crate::analysis::model;
use crate::syntax::ast::{Dependency, Fragment, Line, Name, Parameter, ParameterKind, Recipe};

/// Paints parameter pieces for `--show` when colour is on.
#[derive(Copy, Clone)]
struct Palette {
  color: bool,
}

impl Palette {
  #[inline]
  fn push(self, out: &mut String, color: Ansi, text: &str) {
    if self.color {
      Self::push_painted(out, color, text);
    } else {
      out.push_str(text);
    }
  }

  #[inline(never)]
  fn push_painted(out: &mut String, color: Ansi, text: &str) {
    out.push_str(&color.paint(text).to_string());
  }
}

fn push_parameter(out: &mut String, parameter: &Parameter, palette: Palette) {
  match parameter.kind {
    ParameterKind::Singular => {}
    ParameterKind::Plus => palette.push(out, Ansi::Purple, "+"),
    ParameterKind::Star => palette.push(out, Ansi::Purple, "*"),
  }
  if parameter.export {
    out.push('$');
  }
  palette.push(out, Ansi::Cyan, parameter.name.lexeme());
  if let Some(default) = &parameter.default {
    out.push('=');
    if palette.color {
      palette.push(out, Ansi::Green, &default.to_string());
    } else {
      push_expression(out, default);
    }
  }
}

fn push_path(out: &mut String, path: &[Name]) {
  if let [name] = path {
    out.push_str(name.lexeme());
    return;
  }
  for (index, name) in path.iter().enumerate() {
    if index > 0 {
      out.push_str("::");
    }
    out.push_str(name.lexeme());
  }
}

/// A dependency: its bare path, `(PATH ARG…)`, or mapped `*(PATH … *ARG …)`.
fn push_dependency(out: &mut String, dependency: &Dependency) {
  if dependency.arguments.is_empty() && !dependency.is_mapped() {
    push_path(out, dependency.path);
    return;
  }
  if dependency.is_mapped() {
    out.push('*');
  }
  out.push('(');
  push_path(out, dependency.path);
  for (index, argument) in dependency.arguments.iter().enumerate() {
    out.push(' ');
    if dependency.star_index() == Some(index) {
      out.push('*');
    }
    push_expression(out, argument);
  }
  out.push(')');
}

fn push_header_with(out: &mut String, recipe: &Recipe, palette: Palette) {
  if recipe.quiet {
    out.push('@');
  }
  out.push_str(recipe.name.lexeme());
  for p in recipe.parameters {
    out.push(' ');
    push_parameter(out, p, palette);
  }
  out.push(':');
  for prior in recipe.priors() {
    out.push(' ');
    push_dependency(out, prior);
  }
  if !recipe.subsequents().is_empty() {
    out.push_str(" &&");
    for subsequent in recipe.subsequents() {
      out.push(' ');
      push_dependency(out, subsequent);
    }
  }
}

#[cfg(test)]
fn header_with(recipe: &Recipe, palette: Palette) -> String {
  let mut text = String::new();
  push_header_with(&mut text, recipe, palette);
  text
}

/// The header line without its line end.
#[cfg(test)]
pub(crate) fn header(recipe: &Recipe) -> String {
  header_with(recipe, Palette { color: false })
}

/// Appends the header line without its line end.
pub(crate) fn push_header(out: &mut String, recipe: &Recipe) {
  push_header_with(out, recipe, Palette { color: false });
}

fn is_blank(line: &Line) -> bool {
  line.interpolations.is_empty()
    && line.text.lexeme().bytes().all(|byte| byte == b' ' || byte == b'\t')
}

/// The body lines that are printed: everything up to the last non-blank line.
pub(crate) fn printed_lines<'a, 'src>(recipe: &'a Recipe<'src>) -> &'a [Line<'src>] {
  let end = recipe.body.iter().rposition(|line| !is_blank(line)).map_or(0, |i| i + 1);
  &recipe.body[..end]
}

pub(crate) fn has_body(recipe: &Recipe) -> bool {
  !printed_lines(recipe).is_empty()
}

fn push_line_content(out: &mut String, line: &Line) {
  for fragment in line.fragments() {
    match fragment {
      Fragment::Text(token) => out.push_str(token.lexeme()),
      Fragment::Interpolation { expression, .. } => {
        out.push_str("{{ ");
        push_expression(out, expression);
        out.push_str(" }}");
      }
    }
  }
}

/// Appends the body lines, each ending in `\n`; blank lines stay empty.
pub(crate) fn push_body(out: &mut String, recipe: &Recipe, indentation: &str) {
  push_lines(out, printed_lines(recipe), indentation);
}

/// Appends `lines` (a recipe's `printed_lines`) as `push_body` does.
pub(crate) fn push_lines(out: &mut String, lines: &[Line], indentation: &str) {
  for line in lines {
    if !is_blank(line) {
      out.push_str(indentation);
      push_line_content(out, line);
    }
    out.push('\n');
  }
}

/// `--show`: optional alias line, doc comment, attributes, header and body.
pub(crate) fn show_recipe(
  recipe: &model::Recipe,
  alias: Option<&model::Alias>,
  alias_target_path: &str,
  indentation: &str,
  color: bool,
) -> String {
  let mut text = String::new();
  if let Some(alias) = alias {
    text.push_str("alias ");
    text.push_str(alias.name.lexeme());
    text.push_str(" := ");
    text.push_str(alias_target_path);
    text.push('\n');
  }
  if let Some(doc) = recipe.doc_comment().filter(|_| !recipe.effects.flags.doc()) {
    text.push_str("# ");
    text.push_str(doc);
    text.push('\n');
  }
  attributes::push_lines(&mut text, recipe.attributes());
  push_header_with(&mut text, recipe.ast, Palette { color });
  text.push('\n');
  push_body(&mut text, recipe.ast, indentation);
  text
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::analysis::effects::Effects;
  use crate::output::format::expression::tests::{string, token, var};
  use crate::syntax::ast::{Attribute, AttributeEntry, Attributes};
  use crate::syntax::token::{Token, TokenKind};

  fn name(text: &'static str) -> Token<'static> {
    token(TokenKind::Identifier, text)
  }

  fn parameter(
    n: &'static str,
    kind: ParameterKind,
    export: bool,
    default: Option<&'static str>,
  ) -> Parameter<'static> {
    Parameter {
      name: name(n),
      default: default.map(|d| &*Box::leak(Box::new(string(d, false)))),
      export,
      kind,
    }
  }

  fn build() -> Recipe<'static> {
    Recipe {
      attributes: Attributes::default(),
      doc: Some("doc"),
      quiet: true,
      name: name("build"),
      parameters: vec![
        parameter("target", ParameterKind::Singular, false, None),
        parameter("mode", ParameterKind::Singular, true, Some("'debug'")),
        parameter("flags", ParameterKind::Star, false, None),
      ]
      .leak(),
      dependencies: vec![
        Dependency {
          path: vec![name("dep")].leak(),
          arguments: vec![string("\"a\"", false), var("x")].leak(),
          star: None,
        },
        Dependency { path: vec![name("post")].leak(), arguments: &[], star: None },
      ]
      .leak(),
      prior_count: 1,
      body: vec![Line { text: token(TokenKind::Text, "echo hi"), interpolations: &[] }].leak(),
      shebang: false,
    }
  }

  fn model_recipe(
    ast: Recipe<'static>,
    attributes: Vec<Attribute<'static>>,
  ) -> model::Recipe<'static> {
    let entries: Vec<AttributeEntry> = attributes
      .into_iter()
      .map(|attribute| AttributeEntry { name: name(attribute.name()), attribute })
      .collect();
    let ast = Recipe { attributes: Attributes { list: entries.leak() }, ..ast };
    let ast: &'static Recipe<'static> = Box::leak(Box::new(ast));
    model::Recipe {
      namepath: "build",
      doc: ast.doc,
      effects: Effects::of(ast.attributes.list),
      dependencies: model::Pooled::default(),
      ast,
      prior_count: 0,
      order: 0,
      private: false,
      script: false,
    }
  }

  #[test]
  fn headers() {
    let plain = "@build target $mode='debug' *flags: (dep \"a\" x) && post";
    let colored = "@build \x1b[36mtarget\x1b[0m $\x1b[36mmode\x1b[0m=\x1b[32m'debug'\x1b[0m \
      \x1b[35m*\x1b[0m\x1b[36mflags\x1b[0m: (dep \"a\" x) && post";
    assert_eq!(header(&build()), plain);
    assert_eq!(header_with(&build(), Palette { color: true }), colored);
  }

  #[test]
  fn shows_recipes() {
    let alias = model::Alias {
      name: name("b"),
      attributes: vec![],
      target: vec![name("build")],
      private: true,
    };
    let cases = [
      (
        model_recipe(build(), vec![Attribute::Private, Attribute::NoCd]),
        Some(&alias),
        "alias b := foo::build\n# doc\n[no-cd]\n[private]\n\
         @build target $mode='debug' *flags: (dep \"a\" x) && post\n    echo hi\n",
      ),
      (
        model_recipe(build(), vec![Attribute::Doc(Some(string("'x'", false)))]),
        None,
        "[doc('x')]\n@build target $mode='debug' *flags: (dep \"a\" x) && post\n    echo hi\n",
      ),
    ];
    for (recipe, alias, expected) in cases {
      assert_eq!(show_recipe(&recipe, alias, "foo::build", "    ", false), expected);
    }
  }
}
