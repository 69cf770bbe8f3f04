//! Attribute rendering; the order is `syntax::attribute_order`.

use super::expression::literal_text;
use crate::syntax::ast::{
  ArgAttribute, Attribute, AttributeEntry, CacheAttribute, Expression, Interpreter, Keyed,
  StringLiteral,
};
pub(crate) use crate::syntax::attribute_order::sorted;

/// Each attribute on its own line: `[NAME(ARGS)]\n`.
#[cfg(test)]
pub(crate) fn render_lines(entries: &[AttributeEntry]) -> String {
  let mut text = String::new();
  push_lines(&mut text, entries);
  text
}

/// Appends each attribute on its own line (see `render_lines`).
pub(crate) fn push_lines(out: &mut String, entries: &[AttributeEntry]) {
  if entries.is_empty() {
    return;
  }
  for entry in sorted(entries) {
    out.push('[');
    push_render(out, &entry.attribute);
    out.push_str("]\n");
  }
}

/// The text between the brackets: `name` or `name(ARGS)`.
pub(crate) fn render(attribute: &Attribute) -> String {
  let mut text = String::new();
  push_render(&mut text, attribute);
  text
}

fn push_render(out: &mut String, attribute: &Attribute) {
  out.push_str(attribute.name());
  if let Some(arguments) = arguments(attribute) {
    out.push('(');
    for (index, argument) in arguments.iter().enumerate() {
      if index > 0 {
        out.push_str(", ");
      }
      out.push_str(argument);
    }
    out.push(')');
  }
}

fn optional_expression(expression: Option<&Expression>) -> Option<Vec<String>> {
  expression.map(|e| vec![e.to_string()])
}

fn arguments(attribute: &Attribute) -> Option<Vec<String>> {
  use Attribute::*;
  match attribute {
    Arg(arg) => Some(arg_arguments(arg)),
    Cache(cache) => cache_arguments(cache),
    Confirm(e) | Doc(e) | Timestamp(e) => optional_expression(e.as_ref()),
    Continue([]) => None,
    Continue(signals) => Some(signals.iter().map(|s| format!("\"{}\"", s.name())).collect()),
    Env(key, value) => Some(vec![key.to_string(), value.to_string()]),
    Extension(literal) | Group(literal) => Some(vec![literal_text(literal)]),
    Metadata(literals) => Some(literals.iter().map(literal_text).collect()),
    Script(interpreter) => interpreter.as_ref().map(interpreter_arguments),
    WorkingDirectory(e) => Some(vec![e.to_string()]),
    Android | Default | Dragonfly | ExitMessage | Freebsd | Linux | Macos | Netbsd | NoCd
    | NoExitMessage | NoQuiet | Openbsd | Parallel | PositionalArguments | Private | Shell
    | Unix | Windows => None,
  }
}

pub(crate) fn interpreter_arguments(interpreter: &Interpreter) -> Vec<String> {
  std::iter::once(&interpreter.command).chain(interpreter.arguments).map(literal_text).collect()
}

fn cache_arguments(cache: &CacheAttribute) -> Option<Vec<String>> {
  let keys = [("extra", &cache.extra), ("inputs", &cache.inputs), ("outputs", &cache.outputs)];
  let rendered: Vec<String> = keys
    .iter()
    .filter_map(|(name, keyed)| keyed.as_ref().map(|k| format!("{name}={}", k.value)))
    .collect();
  (!rendered.is_empty()).then_some(rendered)
}

fn optional_literal_key(
  name: &str,
  keyed: Option<&Keyed<Option<StringLiteral>>>,
) -> Option<String> {
  keyed.map(|k| match &k.value {
    Some(literal) => format!("{name}={}", literal_text(literal)),
    None => name.to_string(),
  })
}

fn arg_arguments(arg: &ArgAttribute) -> Vec<String> {
  let expression_key = |name: &str, keyed: &Option<Keyed<Expression>>| {
    keyed.as_ref().map(|k| format!("{name}={}", k.value))
  };
  let bound_key = |name: &str, keyed: &Option<Keyed<(StringLiteral, usize)>>| {
    keyed.as_ref().map(|k| format!("{name}='{}'", k.value.1))
  };
  let present = |name: &str, keyed: &Option<Keyed<()>>| keyed.as_ref().map(|_| name.to_string());
  [
    Some(literal_text(&arg.name)),
    optional_literal_key("long", arg.long.as_ref()),
    optional_literal_key("short", arg.short.as_ref()),
    expression_key("pattern", &arg.pattern),
    expression_key("value", &arg.value),
    present("flag", &arg.flag),
    present("multiple", &arg.multiple),
    bound_key("min", &arg.min),
    bound_key("max", &arg.max),
    expression_key("help", &arg.help),
  ]
  .into_iter()
  .flatten()
  .collect()
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::output::format::expression::tests::{string, token, var};
  use crate::syntax::sources::Source;
  use crate::syntax::token::{Token, TokenKind};

  fn at(text: &'static str, line: usize, column: usize) -> Token<'static> {
    placed(token(TokenKind::Identifier, text), line, column)
  }

  /// `token` moved to `line` and `column`: its source gets `column` blanks
  /// before its lexeme, as the column is measured in the source text.
  fn placed(token: Token<'static>, line: usize, column: usize) -> Token<'static> {
    let text = format!("{}{}", " ".repeat(column), token.lexeme());
    // Fixtures live for the whole test process.
    let source: &'static Source = Box::leak(Box::new(Source::new(&text, "justfile")));
    Token::new(token.kind, source, column, token.length as usize, line)
  }

  fn literal(
    text: &'static str,
    expand: bool,
    line: usize,
    column: usize,
  ) -> StringLiteral<'static> {
    match string(text, expand) {
      Expression::StringLiteral(mut literal) => {
        literal.token = placed(literal.token, line, column);
        literal
      }
      _ => unreachable!(),
    }
  }

  fn entry(attribute: Attribute<'static>) -> AttributeEntry<'static> {
    AttributeEntry { name: at(attribute.name(), 0, 0), attribute }
  }

  fn lines(attributes: Vec<Attribute<'static>>) -> String {
    render_lines(&attributes.into_iter().map(entry).collect::<Vec<_>>())
  }

  fn keyed<T>(
    key: &'static str,
    line: usize,
    column: usize,
    value: T,
  ) -> Option<Keyed<'static, T>> {
    Some(Keyed { key: at(key, line, column), value })
  }

  fn arg(line: usize, name: &'static str) -> ArgAttribute<'static> {
    ArgAttribute {
      name: literal(name, false, line, 5),
      long: None,
      short: None,
      pattern: None,
      value: None,
      flag: None,
      multiple: None,
      min: None,
      max: None,
      help: None,
    }
  }

  #[test]
  fn orders_groups_metadata_and_env() {
    use Attribute::*;
    let attributes = vec![
      Metadata(vec![literal("\"b\"", false, 0, 10)].leak()),
      Metadata(vec![literal("\"a\"", false, 1, 10), literal("\"z\"", false, 1, 15)].leak()),
      Metadata(vec![literal("\"a\"", false, 2, 10)].leak()),
      Metadata(vec![literal("'a'", false, 3, 10), literal("\"c\"", false, 3, 15)].leak()),
      Metadata(vec![literal("\"a\"", false, 4, 10), literal("'c'", false, 4, 15)].leak()),
      Metadata(vec![literal("\"a\"", true, 5, 10)].leak()),
      Group(literal("'b'", false, 6, 7)),
      Group(literal("\"B\"", false, 7, 7)),
      Env(var("FOO"), string("\"1\"", false)),
      Env(string("\"Z\"", false), string("\"1\"", false)),
      Private,
      Env(string("\"A\"", false), string("\"1\"", false)),
    ];
    let expected =
      "[env(\"A\", \"1\")]\n[env(\"Z\", \"1\")]\n[env(FOO, \"1\")]\n[group(\"B\")]\n[group('b')]\n\
      [metadata(\"a\", \"z\")]\n[metadata(\"a\")]\n[metadata(\"a\", 'c')]\n[metadata('a', \"c\")]\n\
      [metadata(x\"a\")]\n[metadata(\"b\")]\n[private]\n";
    assert_eq!(lines(attributes), expected);
  }

  #[test]
  // `a`, `b`, … are the `[arg]`s in the order they are written.
  #[allow(clippy::many_single_char_names)]
  fn orders_and_renders_args() {
    let bound = |line, column, n: usize| (literal("\"n\"", false, line, column), n);
    let mut args = vec![];
    let mut a = arg(0, "\"a\"");
    a.long = keyed("long", 0, 10, Some(literal("\"z\"", false, 0, 15)));
    args.push(a);
    let mut b = arg(1, "\"b\"");
    b.long = keyed("long", 1, 10, None);
    args.push(b);
    let mut c = arg(2, "\"c\"");
    c.help = keyed("help", 2, 10, string("\"x\"", false));
    args.push(c);
    let mut d = arg(3, "\"d\"");
    d.flag = keyed("flag", 3, 10, ());
    d.long = keyed("long", 3, 16, Some(literal("\"d\"", false, 3, 21)));
    args.push(d);
    let mut e = arg(4, "\"e\"");
    e.short = keyed("short", 4, 10, Some(literal("\"e\"", false, 4, 16)));
    args.push(e);
    let mut f = arg(5, "\"f\"");
    f.long = keyed("long", 5, 10, Some(literal("\"c\"", false, 5, 15)));
    f.max = keyed("max", 5, 20, bound(5, 24, 2));
    f.multiple = keyed("multiple", 5, 30, ());
    args.push(f);
    let mut i = arg(6, "\"i\"");
    i.short = keyed("short", 6, 10, Some(literal("\"i\"", false, 6, 16)));
    i.max = keyed("max", 6, 20, bound(6, 24, 2));
    i.multiple = keyed("multiple", 6, 30, ());
    args.push(i);
    let mut h = arg(7, "\"h\"");
    h.short = keyed("short", 7, 10, Some(literal("\"h\"", false, 7, 16)));
    h.max = keyed("max", 7, 20, bound(7, 24, 3));
    h.min = keyed("min", 7, 30, bound(7, 34, 1));
    h.multiple = keyed("multiple", 7, 40, ());
    h.value = keyed("value", 7, 50, string("\"v\"", false));
    h.pattern = keyed("pattern", 7, 60, string("'p'", false));
    args.push(h);
    let expected = "[arg(\"e\", short=\"e\")]\n[arg(\"i\", short=\"i\", multiple, max='2')]\n\
      [arg(\"h\", short=\"h\", pattern='p', value=\"v\", multiple, min='1', max='3')]\n[arg(\"b\", long)]\n\
      [arg(\"f\", long=\"c\", multiple, max='2')]\n[arg(\"a\", long=\"z\")]\n[arg(\"c\", help=\"x\")]\n\
      [arg(\"d\", long=\"d\", flag)]\n";
    assert_eq!(
      lines(args.into_iter().map(|arg| Attribute::Arg(Box::leak(Box::new(arg)))).collect()),
      expected
    );
  }

  #[test]
  fn renders_arguments() {
    use crate::syntax::ast::Signal;
    use Attribute::*;
    let cases = vec![
      (Confirm(None), "confirm"),
      (Continue(&[]), "continue"),
      (Continue(vec![Signal::HANGUP, Signal::QUIT].leak()), "continue(\"SIGHUP\", \"SIGQUIT\")"),
      (Cache(Box::leak(Box::default())), "cache"),
      (
        Cache(Box::leak(Box::new(CacheAttribute {
          extra: keyed("extra", 0, 0, var("e")),
          inputs: None,
          outputs: keyed("outputs", 0, 0, var("o")),
        }))),
        "cache(extra=e, outputs=o)",
      ),
      (Script(None), "script"),
      (
        Script(Some(Interpreter {
          command: literal("'python3'", false, 0, 0),
          arguments: vec![literal("\"-u\"", false, 0, 0)].leak(),
        })),
        "script('python3', \"-u\")",
      ),
      (WorkingDirectory(string("'~'", true)), "working-directory(x'~')"),
      (Extension(literal("'.py'", false, 0, 0)), "extension('.py')"),
      (NoExitMessage, "no-exit-message"),
    ];
    for (attribute, expected) in cases {
      assert_eq!(render(&attribute), expected);
    }
  }
}
