//! Recipe headers and bodies and `--show`.

use nu_ansi_term::Color as Ansi;

use super::attributes;
use crate::analysis::model;
use crate::syntax::ast::{Dependency, Fragment, Line, Parameter, ParameterKind, Recipe};
use crate::syntax::attributes::AttributeKind;

/// Paints parameter pieces for `--show` when colour is on.
#[derive(Copy, Clone)]
struct Palette {
  color: bool,
}

impl Palette {
  fn paint(self, color: Ansi, text: &str) -> String {
    if self.color {
      color.paint(text).to_string()
    } else {
      text.to_string()
    }
  }
}

fn parameter(parameter: &Parameter, palette: Palette) -> String {
  let mut text = String::new();
  match parameter.kind {
    ParameterKind::Singular => {}
    ParameterKind::Plus => text.push_str(&palette.paint(Ansi::Purple, "+")),
    ParameterKind::Star => text.push_str(&palette.paint(Ansi::Purple, "*")),
  }
  if parameter.export {
    text.push('$');
  }
  text.push_str(&palette.paint(Ansi::Cyan, parameter.name.lexeme()));
  if let Some(default) = &parameter.default {
    text.push('=');
    text.push_str(&palette.paint(Ansi::Green, &default.to_string()));
  }
  text
}

/// A dependency: its bare path, `(PATH ARG…)`, or mapped `*(PATH … *ARG …)`.
pub fn dependency(dependency: &Dependency) -> String {
  let path = dependency.path.iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::");
  if dependency.arguments.is_empty() && dependency.mapped.is_none() {
    return path;
  }
  let mut text = String::new();
  if dependency.mapped.is_some() {
    text.push('*');
  }
  text.push('(');
  text.push_str(&path);
  for (index, argument) in dependency.arguments.iter().enumerate() {
    text.push(' ');
    if dependency.star == Some(index) {
      text.push('*');
    }
    text.push_str(&argument.to_string());
  }
  text.push(')');
  text
}

fn header_with(recipe: &Recipe, palette: Palette) -> String {
  let mut text = String::new();
  if recipe.quiet {
    text.push('@');
  }
  text.push_str(recipe.name.lexeme());
  for p in &recipe.parameters {
    text.push(' ');
    text.push_str(&parameter(p, palette));
  }
  text.push(':');
  for prior in &recipe.priors {
    text.push(' ');
    text.push_str(&dependency(prior));
  }
  if !recipe.subsequents.is_empty() {
    text.push_str(" &&");
    for subsequent in &recipe.subsequents {
      text.push(' ');
      text.push_str(&dependency(subsequent));
    }
  }
  text
}

/// The header line without its line end.
pub fn header(recipe: &Recipe) -> String {
  header_with(recipe, Palette { color: false })
}

fn is_blank(line: &Line) -> bool {
  line.fragments.iter().all(|fragment| match fragment {
    Fragment::Text(token) => token.lexeme().trim_matches([' ', '\t']).is_empty(),
    Fragment::Interpolation { .. } => false,
  })
}

/// The body lines that are printed: everything up to the last non-blank line.
fn printed_lines<'a, 'src>(recipe: &'a Recipe<'src>) -> &'a [Line<'src>] {
  let end = recipe.body.iter().rposition(|line| !is_blank(line)).map_or(0, |i| i + 1);
  &recipe.body[..end]
}

pub fn has_body(recipe: &Recipe) -> bool {
  !printed_lines(recipe).is_empty()
}

/// Whether the body ends with blank lines (they separate it from what follows).
pub fn has_trailing_blank_lines(recipe: &Recipe) -> bool {
  printed_lines(recipe).len() < recipe.body.len()
}

fn line_content(line: &Line) -> String {
  line
    .fragments
    .iter()
    .map(|fragment| match fragment {
      Fragment::Text(token) => token.lexeme().to_string(),
      Fragment::Interpolation { expression, .. } => format!("{{{{ {expression} }}}}"),
    })
    .collect()
}

/// Body lines, each ending in `\n`; blank lines stay empty.
pub fn body(recipe: &Recipe, indentation: &str) -> String {
  printed_lines(recipe)
    .iter()
    .map(|line| {
      if is_blank(line) {
        "\n".to_string()
      } else {
        format!("{indentation}{}\n", line_content(line))
      }
    })
    .collect()
}

/// `--show`: optional alias line, doc comment, attributes, header and body.
pub fn show_recipe(
  recipe: &model::Recipe,
  alias: Option<&model::Alias>,
  alias_target_path: &str,
  indentation: &str,
  color: bool,
) -> String {
  let mut text = String::new();
  if let Some(alias) = alias {
    text.push_str(&format!("alias {} := {alias_target_path}\n", alias.name.lexeme()));
  }
  if let Some(doc) = recipe.doc_comment().filter(|_| !recipe.has_attribute(AttributeKind::Doc)) {
    text.push_str(&format!("# {doc}\n"));
  }
  text.push_str(&attributes::render_lines(&recipe.attributes));
  text.push_str(&header_with(recipe.ast, Palette { color }));
  text.push('\n');
  text.push_str(&body(recipe.ast, indentation));
  text
}

#[cfg(test)]
mod tests {
  use super::*;
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
    Parameter { name: name(n), default: default.map(|d| string(d, false)), export, kind }
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
      ],
      priors: vec![Dependency {
        path: vec![name("dep")],
        arguments: vec![string("\"a\"", false), var("x")],
        star: None,
        mapped: None,
      }],
      subsequents: vec![Dependency {
        path: vec![name("post")],
        arguments: vec![],
        star: None,
        mapped: None,
      }],
      body: vec![Line {
        fragments: vec![Fragment::Text(token(TokenKind::Text, "echo hi"))],
        number: 1,
      }],
      shebang: false,
      indentation: "  ",
    }
  }

  fn model_recipe(
    ast: Recipe<'static>,
    attributes: Vec<Attribute<'static>>,
  ) -> model::Recipe<'static> {
    let ast: &'static Recipe<'static> = Box::leak(Box::new(ast));
    model::Recipe {
      name: ast.name,
      namepath: "build".into(),
      attributes: attributes
        .into_iter()
        .map(|attribute| AttributeEntry { name: name(attribute.name()), attribute })
        .collect(),
      doc: ast.doc.map(Into::into),
      private: false,
      parameters: Default::default(),
      priors: Default::default(),
      subsequents: Default::default(),
      script: false,
      order: 0,
      ast,
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
