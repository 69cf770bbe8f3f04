//! The canonical text of one file, for `--dump` and `--fmt`.

use super::attributes;
use super::expression::literal_text;
use super::recipe;
use crate::syntax::ast::{
  Alias, Assignment, Ast, Attribute, Attributes, FunctionDefinition, Import, Item, ModuleItem,
  Recipe, Set, SettingValue, Unexport,
};
use crate::syntax::settings::Setting;
use crate::syntax::token::Token;

/// Format a parse tree; recipe bodies are indented with `indentation`.
pub fn format_justfile(ast: &Ast, indentation: &str) -> String {
  let mut out = String::new();
  for (index, item) in ast.items.iter().enumerate() {
    match item {
      Item::Eol => push_line_end(&mut out),
      Item::Comment(token) => push_comment(&mut out, &ast.items, index, *token),
      Item::Recipe(r) => push_recipe(&mut out, r, indentation),
      other => out.push_str(&item_text(other)),
    }
  }
  finish(out)
}

/// A line end, except that no more than one blank line is ever produced.
fn push_line_end(out: &mut String) {
  if !out.ends_with("\n\n") {
    out.push('\n');
  }
}

/// Drop blank lines at the end; a non-empty output ends with one `\n`.
fn finish(mut out: String) -> String {
  if out.is_empty() {
    return out;
  }
  let trimmed_len = out.trim_end_matches('\n').len();
  out.truncate(trimmed_len);
  out.push('\n');
  out
}

fn push_comment(out: &mut String, items: &[Item], index: usize, token: Token) {
  let text = token.lexeme().trim_end();
  match index.checked_sub(1).map(|i| &items[i]) {
    Some(Item::Recipe(r)) if recipe::has_body(r) && is_header_comment(r, token) => {}
    Some(Item::Recipe(r)) if recipe::has_body(r) => line_comment(out, items, index, token),
    Some(Item::Comment(header))
      if matches!(index.checked_sub(2).map(|i| &items[i]),
        Some(Item::Recipe(r)) if recipe::has_body(r) && is_header_comment(r, *header)) =>
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
fn is_header_comment(r: &Recipe, token: Token) -> bool {
  r.body.first().is_none_or(|line| token.line as usize <= line.number)
}

/// A comment standing on its own line: verbatim, or a doc comment.
fn line_comment(out: &mut String, items: &[Item], index: usize, token: Token) {
  let text = token.lexeme().trim_end();
  match doc_comment_text(items, index, token) {
    Some(doc) => out.push_str(&format!("# {doc}")),
    None => out.push_str(text),
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
  if has_doc_attribute(attributes) {
    return None;
  }
  let lexeme = token.lexeme();
  if token.line == 0 && lexeme.starts_with("#!") {
    return None;
  }
  let text = lexeme.strip_prefix('#').unwrap_or(lexeme).trim();
  (!text.is_empty()).then_some(text)
}

fn has_doc_attribute(attributes: &Attributes) -> bool {
  attributes.list.iter().any(|entry| matches!(entry.attribute, Attribute::Doc(_)))
}

fn push_recipe(out: &mut String, r: &Recipe, indentation: &str) {
  out.push_str(&attributes::render_lines(&r.attributes.list));
  out.push_str(&recipe::header(r));
  if recipe::has_body(r) {
    out.push('\n');
    out.push_str(&recipe::body(r, indentation));
    if recipe::has_trailing_blank_lines(r) {
      out.push('\n');
    }
  }
}

fn item_text(item: &Item) -> String {
  let (attributes, text) = match item {
    Item::Alias(alias) => (&alias.attributes, alias_text(alias)),
    Item::Assignment(assignment) => (&assignment.attributes, assignment_text(assignment)),
    Item::Function(function) => (&function.attributes, function_text(function)),
    Item::Import(import) => (&import.attributes, import_text(import)),
    Item::Module(module) => (&module.attributes, module_text(module)),
    Item::Set(set) => (&set.attributes, set_text(set)),
    Item::Unexport(unexport) => (&unexport.attributes, unexport_text(unexport)),
    Item::Comment(_) | Item::Eol | Item::Recipe(_) => return String::new(),
  };
  attributes::render_lines(&attributes.list) + &text
}

fn alias_text(alias: &Alias) -> String {
  let target = alias.target.iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::");
  format!("alias {} := {target}", alias.name.lexeme())
}

fn assignment_text(assignment: &Assignment) -> String {
  let eager = if assignment.eager { "eager " } else { "" };
  let export = if assignment.export { "export " } else { "" };
  format!("{eager}{export}{} := {}", assignment.name.lexeme(), assignment.value)
}

fn function_text(function: &FunctionDefinition) -> String {
  let parameters = function.parameters.iter().map(|p| p.lexeme()).collect::<Vec<_>>().join(", ");
  format!("{}({parameters}) := {}", function.name.lexeme(), function.body)
}

fn optional_mark(optional: bool) -> &'static str {
  if optional {
    "?"
  } else {
    ""
  }
}

fn import_text(import: &Import) -> String {
  format!("import{} {}", optional_mark(import.optional), literal_text(&import.path))
}

fn module_text(module: &ModuleItem) -> String {
  let mut text = format!("mod{} {}", optional_mark(module.optional), module.name.lexeme());
  if let Some(path) = &module.path {
    text.push(' ');
    text.push_str(&literal_text(path));
  }
  text
}

fn set_text(set: &Set) -> String {
  let name = set.name.lexeme();
  match &set.value {
    SettingValue::Boolean { value: true, .. } => format!("set {name}"),
    SettingValue::Boolean { value: false, .. } => format!("set {name} := false"),
    SettingValue::Expression(expression) => format!("set {name} := {expression}"),
    SettingValue::List(elements) => {
      let elements = elements.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
      format!("set {name} := [{elements}]")
    }
    SettingValue::Literal(literal) => format!("set {name} := {}", literal_text(literal)),
  }
}

fn unexport_text(unexport: &Unexport) -> String {
  format!("unexport {}", unexport.name.lexeme())
}

/// The value of the first enabled `set indentation` of this file (the
/// `--fmt` indentation default).
pub fn indentation_setting(ast: &Ast) -> Option<String> {
  ast.items.iter().find_map(|item| match item {
    Item::Set(set) if set.setting == Setting::Indentation && set.attributes.enabled() => {
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
  use crate::syntax::ast::{
    AttributeEntry, Dependency, Expression, Fragment, Line, Parameter, ParameterKind,
  };
  use crate::syntax::token::{Token, TokenKind};

  fn name(text: &'static str) -> Token<'static> {
    token(TokenKind::Identifier, text)
  }

  fn comment(text: &'static str, line: usize) -> Item<'static> {
    Item::Comment(Token { line: line as u32, ..token(TokenKind::Comment, text) })
  }

  fn assignment(n: &'static str, value: Expression<'static>, export: bool) -> Item<'static> {
    Item::Assignment(Box::new(Assignment {
      attributes: Attributes::default(),
      name: name(n),
      value,
      export,
      eager: false,
    }))
  }

  fn entry(attribute: Attribute<'static>) -> AttributeEntry<'static> {
    AttributeEntry { name: name(attribute.name()), attribute }
  }

  fn text_line(text: &'static str) -> Line<'static> {
    Line { fragments: vec![Fragment::Text(token(TokenKind::Text, text))], number: 0 }
  }

  fn blank_line() -> Line<'static> {
    Line { fragments: vec![], number: 0 }
  }

  fn recipe(n: &'static str, body: Vec<Line<'static>>) -> Recipe<'static> {
    Recipe {
      attributes: Attributes::default(),
      doc: None,
      quiet: false,
      name: name(n),
      parameters: vec![],
      priors: vec![],
      subsequents: vec![],
      body,
      shebang: false,
      indentation: "\t",
    }
  }

  fn ast(items: Vec<Item<'static>>) -> Ast<'static> {
    Ast { items, unstable_features: vec![] }
  }

  fn eols(n: usize) -> Vec<Item<'static>> {
    (0..n).map(|_| Item::Eol).collect()
  }

  #[test]
  fn blank_lines_and_settings() {
    use Item::Eol;
    let set = |n: &'static str, value| {
      let setting = crate::syntax::settings::Setting::from_name(n).expect("a known setting");
      Item::Set(Box::new(Set { attributes: Attributes::default(), name: name(n), setting, value }))
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
          Item::Alias(Box::new(Alias { attributes: Attributes::default(), name: name("t"), target: vec![name("m"), name("test")] })),
          Eol,
          set("export", SettingValue::Boolean { value: true, written: true }),
          Eol,
          set("quiet", SettingValue::Boolean { value: false, written: true }),
          Eol,
          set("shell", SettingValue::List(vec![string("\"bash\"", false), string("\"-uc\"", false)])),
          Eol,
          Eol,
          Eol,
          Eol,
          Item::Recipe(Box::new(recipe("test", vec![]))),
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
      Item::Recipe(Box::new(r))
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
          fragments: vec![
            Fragment::Text(token(TokenKind::Text, "echo ")),
            Fragment::Interpolation {
              open: token(TokenKind::InterpolationStart, "{{"),
              expression: Box::new(var("x")),
            },
            Fragment::Text(token(TokenKind::Text, " {{{{ braces")),
          ],
          number: 0,
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
    ];
    build.parameters = vec![Parameter {
      name: name("rest"),
      default: Some(var("x")),
      export: true,
      kind: ParameterKind::Plus,
    }];
    build.priors = vec![
      Dependency {
        path: vec![name("check")].into(),
        arguments: vec![var("env")],
        star: None,
        mapped: None,
      },
      Dependency {
        path: vec![name("m"), name("dep")].into(),
        arguments: vec![],
        star: None,
        mapped: None,
      },
    ];
    build.subsequents = vec![Dependency {
      path: vec![name("clean")].into(),
      arguments: vec![var("a"), var("b")],
      star: Some(1),
      mapped: Some(name("*")),
    }];
    let items = vec![
      Item::Recipe(Box::new(build)),
      comment("# header comment", 0),
      Item::Recipe(Box::new(recipe("test", vec![text_line("x")]))),
      Eol,
    ];
    let expected = "[confirm(\"Really?\")]\n[env(\"A\", \"1\")]\n[env(\"B\", \"2\")]\n[linux]\n[private]\n\
      build +$rest=x: (check env) m::dep && *(clean a *b)\n  cargo build \\\n      --release\n\n\n  echo {{ x }} {{{{ braces\n\ntest:\n  x\n";
    assert_eq!(format_justfile(&ast(items), "  "), expected);
  }
}
