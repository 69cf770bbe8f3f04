//! The canonical text of one file, for `--dump` and `--fmt`.

use super::attributes;
use super::expression::{push_expression, push_literal};
use super::recipe;
use crate::analysis::effects::{self, Effects};
use crate::output::sink::Sink;
use crate::syntax::ast::{
  Alias, Assignment, Ast, FunctionDefinition, Import, Item, ModuleItem, Recipe, Set, SettingValue,
};
use crate::syntax::settings::Setting;
use crate::syntax::token::Token;

/// Format a parse tree; recipe bodies are indented with `indentation`.
pub fn format_justfile(ast: &Ast, indentation: &str) -> String {
  let mut out = Sink::whole();
  // Items average under 32 bytes of text (most are line ends).
  out.reserve(ast.items.len() * 32);
  write_justfile(&mut out, ast, indentation);
  out.into_text()
}

/// `format_justfile` into `out`, item by item.
pub fn write_justfile(out: &mut Sink, ast: &Ast, indentation: &str) {
  for (index, item) in ast.items.iter().enumerate() {
    match item {
      // Line ends, most of the items, are not worth a look at the size.
      Item::Eol => {
        push_line_end(out);
        continue;
      }
      Item::Comment(comment) => push_comment(out, &ast.items, index, ast.comment_token(*comment)),
      Item::Recipe(r) => push_recipe(out, r, indentation),
      other => push_item(out, other),
    }
    // The line ends at the end stay: the next line end looks at them and
    // `finish` drops them at the end of the text.
    out.end_piece_writing(|text| text.trim_end_matches('\n').len());
  }
  finish(out);
}

/// A line end, except that no more than one blank line is ever produced.
fn push_line_end(out: &mut String) {
  if !out.ends_with("\n\n") {
    out.push('\n');
  }
}

/// Drop blank lines at the end; a non-empty output ends with one `\n`.
fn finish(out: &mut Sink) {
  if out.produced_nothing() {
    return;
  }
  let trimmed_len = out.trim_end_matches('\n').len();
  out.truncate(trimmed_len);
  out.push('\n');
}

fn push_comment(out: &mut String, items: &[Item], index: usize, token: Token) {
  let text = token.lexeme().trim_end();
  match index.checked_sub(1).map(|i| &items[i]) {
    Some(Item::Recipe(r)) if recipe::has_body(r) && is_header_comment(r, token.line) => {}
    Some(Item::Recipe(r)) if recipe::has_body(r) => line_comment(out, items, index, token),
    Some(Item::Comment(header))
      if matches!(index.checked_sub(2).map(|i| &items[i]),
        Some(Item::Recipe(r)) if recipe::has_body(r) && is_header_comment(r, header.line)) =>
    {
      line_comment(out, items, index, token);
    }
    Some(Item::Eol) | None => line_comment(out, items, index, token),
    Some(_) => {
      out.push(' ');
      out.push_str(text);
    }
  }
}

/// Whether a comment that follows a recipe in the item list trails its
/// header (rather than standing on its own line after the body).
fn is_header_comment(r: &Recipe, comment_line: u32) -> bool {
  r.body.first().is_none_or(|line| comment_line as usize <= line.number())
}

/// A comment standing on its own line: verbatim, or a doc comment.
fn line_comment(out: &mut String, items: &[Item], index: usize, token: Token) {
  match doc_comment_text(items, index, token) {
    Some(doc) => {
      out.push_str("# ");
      out.push_str(doc);
    }
    None => out.push_str(token.lexeme().trim_end()),
  }
}

/// The doc text if the comment at `index` documents the recipe or module
/// on the next line.
fn doc_comment_text<'src>(
  items: &[Item<'src>],
  index: usize,
  token: Token<'src>,
) -> Option<&'src str> {
  let attributes = match (items.get(index + 1), items.get(index + 2)) {
    (Some(Item::Eol), Some(Item::Recipe(r))) => &r.attributes,
    (Some(Item::Eol), Some(Item::Module(m))) => &m.attributes,
    _ => return None,
  };
  if Effects::flags_of(attributes.list).doc() {
    return None;
  }
  let lexeme = token.lexeme();
  if token.line == 0 && lexeme.starts_with("#!") {
    return None;
  }
  let text = lexeme.strip_prefix('#').unwrap_or(lexeme).trim();
  (!text.is_empty()).then_some(text)
}

fn push_recipe(out: &mut String, r: &Recipe, indentation: &str) {
  attributes::push_lines(out, r.attributes.list);
  recipe::push_header(out, r);
  let printed = recipe::printed_lines(r);
  if !printed.is_empty() {
    out.push('\n');
    recipe::push_lines(out, printed, indentation);
    // Blank lines after the body separate it from what follows.
    if printed.len() < r.body.len() {
      out.push('\n');
    }
  }
}

fn push_item(out: &mut String, item: &Item) {
  let attributes = match item {
    Item::Alias(alias) => &alias.attributes,
    Item::Assignment(assignment) => &assignment.attributes,
    Item::Function(function) => &function.attributes,
    Item::Import(import) => &import.attributes,
    Item::Module(module) => &module.attributes,
    Item::Set(set) => &set.attributes,
    Item::Unexport(unexport) => &unexport.attributes,
    Item::Comment(_) | Item::Eol | Item::Recipe(_) => return,
  };
  attributes::push_lines(out, attributes.list);
  match item {
    Item::Alias(alias) => push_alias(out, alias),
    Item::Assignment(assignment) => push_assignment(out, assignment),
    Item::Function(function) => push_function(out, function),
    Item::Import(import) => push_import(out, import),
    Item::Module(module) => push_module(out, module),
    Item::Set(set) => push_set(out, set),
    Item::Unexport(unexport) => {
      out.push_str("unexport ");
      out.push_str(unexport.name.lexeme());
    }
    Item::Comment(_) | Item::Eol | Item::Recipe(_) => {}
  }
}

/// `names` joined by `separator`.
fn push_joined(out: &mut String, names: &[Token], separator: &str) {
  for (index, name) in names.iter().enumerate() {
    if index > 0 {
      out.push_str(separator);
    }
    out.push_str(name.lexeme());
  }
}

fn push_alias(out: &mut String, alias: &Alias) {
  out.push_str("alias ");
  out.push_str(alias.name.lexeme());
  out.push_str(" := ");
  push_joined(out, alias.target, "::");
}

fn push_assignment(out: &mut String, assignment: &Assignment) {
  if assignment.eager {
    out.push_str("eager ");
  }
  if assignment.export {
    out.push_str("export ");
  }
  out.push_str(assignment.name.lexeme());
  out.push_str(" := ");
  push_expression(out, &assignment.value);
}

fn push_function(out: &mut String, function: &FunctionDefinition) {
  out.push_str(function.name.lexeme());
  out.push('(');
  push_joined(out, function.parameters, ", ");
  out.push_str(") := ");
  push_expression(out, &function.body);
}

fn optional_mark(optional: bool) -> &'static str {
  if optional {
    "?"
  } else {
    ""
  }
}

fn push_import(out: &mut String, import: &Import) {
  out.push_str("import");
  out.push_str(optional_mark(import.optional));
  out.push(' ');
  push_literal(out, &import.path);
}

fn push_module(out: &mut String, module: &ModuleItem) {
  out.push_str("mod");
  out.push_str(optional_mark(module.optional));
  out.push(' ');
  out.push_str(module.name.lexeme());
  if let Some(path) = &module.path {
    out.push(' ');
    push_literal(out, path);
  }
}

fn push_set(out: &mut String, set: &Set) {
  out.push_str("set ");
  out.push_str(set.name.lexeme());
  match &set.value {
    SettingValue::Boolean { value: true, .. } => {}
    SettingValue::Boolean { value: false, .. } => out.push_str(" := false"),
    SettingValue::Expression(expression) => {
      out.push_str(" := ");
      push_expression(out, expression);
    }
    SettingValue::List(elements) => {
      out.push_str(" := [");
      for (index, element) in elements.iter().enumerate() {
        if index > 0 {
          out.push_str(", ");
        }
        push_expression(out, element);
      }
      out.push(']');
    }
    SettingValue::Literal(literal) => {
      out.push_str(" := ");
      push_literal(out, literal);
    }
  }
}

/// The value of the first enabled `set indentation` of this file (the
/// `--fmt` indentation default).
pub fn indentation_setting(ast: &Ast) -> Option<String> {
  ast.items.iter().find_map(|item| match item {
    Item::Set(set) if set.setting == Setting::Indentation && effects::enabled(&set.attributes) => {
      match &set.value {
        SettingValue::Literal(literal) => Some(literal.cooked.to_string()),
        _ => None,
      }
    }
    _ => None,
  })
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::output::format::expression::tests::{string, token, var};
  use crate::syntax::ast::Comment;
  use crate::syntax::ast::{
    Attribute, AttributeEntry, Attributes, Dependency, Expression, Interpolation, Line, Parameter,
    ParameterKind,
  };
  use crate::syntax::sources::Source;
  use crate::syntax::token::{Token, TokenKind};
  use std::sync::LazyLock;

  fn name(text: &'static str) -> Token<'static> {
    token(TokenKind::Identifier, text)
  }

  /// The comments the tests use, in one file that every test tree is
  /// parsed from: a comment item is a span of its tree's file.
  const COMMENTS: &str = "# header comment\n#   Build it\n#   trailing   \n#!/usr/bin/env -S just --justfile\n#!also\n#not a doc   \n";
  static COMMENT_SOURCE: LazyLock<Source> = LazyLock::new(|| Source::new(COMMENTS, "justfile"));

  fn comment(text: &'static str, line: u32) -> Item<'static> {
    let offset = COMMENTS.find(text).expect("the comment is one of COMMENTS") as u32;
    Item::Comment(Comment { offset, length: text.len() as u32, line })
  }

  fn assignment(n: &'static str, value: Expression<'static>, export: bool) -> Item<'static> {
    Item::Assignment(Box::leak(Box::new(Assignment {
      attributes: Attributes::default(),
      name: name(n),
      value,
      export,
      eager: false,
    })))
  }

  fn entry(attribute: Attribute<'static>) -> AttributeEntry<'static> {
    AttributeEntry { name: name(attribute.name()), attribute }
  }

  fn text_line(text: &'static str) -> Line<'static> {
    Line { text: token(TokenKind::Text, text), interpolations: &[] }
  }

  fn blank_line() -> Line<'static> {
    Line { text: token(TokenKind::Text, ""), interpolations: &[] }
  }

  fn recipe(n: &'static str, body: Vec<Line<'static>>) -> Recipe<'static> {
    Recipe {
      attributes: Attributes::default(),
      doc: None,
      quiet: false,
      name: name(n),
      parameters: &[],
      dependencies: &[],
      prior_count: 0,
      body: body.leak(),
      shebang: false,
    }
  }

  fn ast(items: Vec<Item<'static>>) -> Ast<'static> {
    Ast { source: &COMMENT_SOURCE, items, unstable_features: vec![] }
  }

  fn eols(n: usize) -> Vec<Item<'static>> {
    (0..n).map(|_| Item::Eol).collect()
  }

  #[test]
  fn blank_lines_and_settings() {
    use Item::Eol;
    let set = |n: &'static str, value| {
      let setting = crate::syntax::settings::Setting::from_name(n).expect("a known setting");
      Item::Set(Box::leak(Box::new(Set {
        attributes: Attributes::default(),
        name: name(n),
        setting,
        value,
      })))
    };
    let cases: Vec<(Vec<Item<'static>>, &str)> = vec![
      (vec![], ""),
      (eols(3), "\n"),
      (
        [eols(3), vec![comment("# header", 3), Eol], eols(3), vec![assignment("x", string("\"1\"", false), false)], eols(3)].concat(),
        "\n\n# header\n\nx := \"1\"\n",
      ),
      (
        vec![
          assignment("PATH_X", string("\"bin\"", false), true),
          Eol,
          Item::Alias(Box::leak(Box::new(Alias { attributes: Attributes::default(), name: name("t"), target: vec![name("m"), name("test")].leak() }))),
          Eol,
          set("export", SettingValue::Boolean { value: true }),
          Eol,
          set("quiet", SettingValue::Boolean { value: false }),
          Eol,
          set("shell", SettingValue::List(vec![string("\"bash\"", false), string("\"-uc\"", false)].leak())),
          Eol,
          Eol,
          Eol,
          Eol,
          Item::Recipe(Box::leak(Box::new(recipe("test", vec![])))),
          Eol,
        ],
        "export PATH_X := \"bin\"\nalias t := m::test\nset export\nset quiet := false\nset shell := [\"bash\", \"-uc\"]\n\ntest:\n",
      ),
    ];
    for (items, expected) in cases {
      assert_eq!(format_justfile(&ast(items), "    "), expected);
    }
  }

  #[test]
  fn comments_and_doc_comments() {
    use Item::Eol;
    let documented = |n| {
      let mut r = recipe(n, vec![]);
      r.doc = Some("doc");
      Item::Recipe(Box::leak(Box::new(r)))
    };
    let items = vec![
      comment("#!/usr/bin/env -S just --justfile", 0),
      Eol,
      comment("#   Build it", 1),
      Eol,
      documented("build"),
      Eol,
      Eol,
      comment("#not a doc   ", 4),
      Eol,
      Eol,
      comment("#!also", 6),
      Eol,
      documented("run"),
      Eol,
      assignment("x", string("\"1\"", false), false),
      comment("#   trailing   ", 8),
      Eol,
      comment("#", 9),
      Eol,
      documented("a"),
      comment("# header", 10),
      Eol,
    ];
    let expected = "#!/usr/bin/env -S just --justfile\n# Build it\nbuild:\n\n#not a doc\n\n# !also\nrun:\nx := \"1\" #   trailing\n#\na: # header\n";
    assert_eq!(format_justfile(&ast(items), "    "), expected);
  }

  #[test]
  fn recipes_with_bodies() {
    use Item::Eol;
    let mut build = recipe(
      "build",
      vec![
        text_line("cargo build \\"),
        text_line("    --release"),
        blank_line(),
        blank_line(),
        Line {
          text: token(TokenKind::Text, "echo {{x}} {{{{ braces"),
          interpolations: vec![Interpolation {
            start: 5,
            end: 10,
            expression: Box::leak(Box::new(var("x"))),
          }]
          .leak(),
        },
        blank_line(),
        blank_line(),
      ],
    );
    build.attributes.list = vec![
      entry(Attribute::Private),
      entry(Attribute::Env(string("\"B\"", false), string("\"2\"", false))),
      entry(Attribute::Linux),
      entry(Attribute::Env(string("\"A\"", false), string("\"1\"", false))),
      entry(Attribute::Confirm(Some(string("\"Really?\"", false)))),
    ]
    .leak();
    build.parameters = vec![Parameter {
      name: name("rest"),
      default: Some(Box::leak(Box::new(var("x")))),
      export: true,
      kind: ParameterKind::Plus,
    }]
    .leak();
    build.dependencies = vec![
      Dependency {
        path: vec![name("check")].leak(),
        arguments: vec![var("env")].leak(),
        star: None,
      },
      Dependency { path: vec![name("m"), name("dep")].leak(), arguments: &[], star: None },
      Dependency {
        path: vec![name("clean")].leak(),
        arguments: vec![var("a"), var("b")].leak(),
        star: Some(1),
      },
    ]
    .leak();
    build.prior_count = 2;
    let items = vec![
      Item::Recipe(Box::leak(Box::new(build))),
      comment("# header comment", 0),
      Item::Recipe(Box::leak(Box::new(recipe("test", vec![text_line("x")])))),
      Eol,
    ];
    let expected = "[confirm(\"Really?\")]\n[env(\"A\", \"1\")]\n[env(\"B\", \"2\")]\n[linux]\n[private]\n\
      build +$rest=x: (check env) m::dep && *(clean a *b)\n  cargo build \\\n      --release\n\n\n  echo {{ x }} {{{{ braces\n\ntest:\n  x\n";
    assert_eq!(format_justfile(&ast(items), "  "), expected);
  }
}
