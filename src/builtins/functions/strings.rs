//! String manipulation, case conversion and list functions.

use heck::{
  ToKebabCase, ToLowerCamelCase, ToShoutyKebabCase, ToShoutySnakeCase, ToSnakeCase, ToTitleCase,
  ToUpperCamelCase,
};
use regex::Regex;

use super::{text, FunctionContext};
use crate::builtins::value::Value;

type Result = std::result::Result<Value, String>;

fn single(arguments: &[Value], index: usize, convert: impl Fn(&str) -> String) -> Result {
  Ok(Value::string(convert(text(arguments, index))))
}

fn value_argument(arguments: &[Value], index: usize) -> &[String] {
  arguments.get(index).map_or(&[], Value::elements)
}

/// Apply `affix` to every word (splitting on whitespace without lists) or
/// to every element (with lists).
fn affix_each(
  arguments: &[Value],
  context: &FunctionContext,
  affix: impl Fn(&str) -> String,
) -> Result {
  let elements = value_argument(arguments, 1);
  if context.lists {
    Ok(Value(elements.iter().map(|element| affix(element)).collect()))
  } else {
    let joined = elements.join(" ");
    let words: Vec<String> = joined.split_whitespace().map(affix).collect();
    Ok(Value::string(words.join(" ")))
  }
}

pub(super) fn append(arguments: &[Value], context: &FunctionContext) -> Result {
  let suffix = text(arguments, 0);
  affix_each(arguments, context, |word| format!("{word}{suffix}"))
}

pub(super) fn prepend(arguments: &[Value], context: &FunctionContext) -> Result {
  let prefix = text(arguments, 0);
  affix_each(arguments, context, |word| format!("{prefix}{word}"))
}

pub(super) fn encode_uri_component(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, |s| {
    let mut encoded = String::with_capacity(s.len());
    for byte in s.bytes() {
      if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
        encoded.push(char::from(byte));
      } else {
        encoded.push_str(&format!("%{byte:02X}"));
      }
    }
    encoded
  })
}

fn shell_quote(s: &str) -> String {
  format!("'{}'", s.replace('\'', "'\\''"))
}

pub(super) fn quote(arguments: &[Value], _: &FunctionContext) -> Result {
  Ok(Value(value_argument(arguments, 0).iter().map(|s| shell_quote(s)).collect()))
}

pub(super) fn replace(arguments: &[Value], _: &FunctionContext) -> Result {
  let (from, to) = (text(arguments, 1), text(arguments, 2));
  single(arguments, 0, |s| s.replace(from, to))
}

pub(super) fn replace_regex(arguments: &[Value], _: &FunctionContext) -> Result {
  let regex = Regex::new(text(arguments, 1)).map_err(|error| error.to_string())?;
  let replacement = text(arguments, 2);
  single(arguments, 0, |s| regex.replace_all(s, replacement).into_owned())
}

pub(super) fn trim(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, |s| s.trim().to_owned())
}

pub(super) fn trim_start(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, |s| s.trim_start().to_owned())
}

pub(super) fn trim_end(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, |s| s.trim_end().to_owned())
}

pub(super) fn trim_start_match(arguments: &[Value], _: &FunctionContext) -> Result {
  let pattern = text(arguments, 1);
  single(arguments, 0, |s| s.strip_prefix(pattern).unwrap_or(s).to_owned())
}

pub(super) fn trim_start_matches(arguments: &[Value], _: &FunctionContext) -> Result {
  let pattern = text(arguments, 1);
  single(arguments, 0, |s| s.trim_start_matches(pattern).to_owned())
}

pub(super) fn trim_end_match(arguments: &[Value], _: &FunctionContext) -> Result {
  let pattern = text(arguments, 1);
  single(arguments, 0, |s| s.strip_suffix(pattern).unwrap_or(s).to_owned())
}

pub(super) fn trim_end_matches(arguments: &[Value], _: &FunctionContext) -> Result {
  let pattern = text(arguments, 1);
  single(arguments, 0, |s| s.trim_end_matches(pattern).to_owned())
}

pub(super) fn len(arguments: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(value_argument(arguments, 0).len().to_string()))
}

pub(super) fn lowercase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_lowercase)
}

pub(super) fn uppercase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_uppercase)
}

pub(super) fn capitalize(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, |s| {
    let mut chars = s.chars();
    match chars.next() {
      Some(first) => first.to_uppercase().chain(chars.flat_map(char::to_lowercase)).collect(),
      None => String::new(),
    }
  })
}

pub(super) fn snakecase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_snake_case)
}

pub(super) fn kebabcase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_kebab_case)
}

pub(super) fn shoutysnakecase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_shouty_snake_case)
}

pub(super) fn shoutykebabcase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_shouty_kebab_case)
}

pub(super) fn lowercamelcase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_lower_camel_case)
}

pub(super) fn uppercamelcase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_upper_camel_case)
}

pub(super) fn titlecase(arguments: &[Value], _: &FunctionContext) -> Result {
  single(arguments, 0, str::to_title_case)
}

pub(super) fn bool(arguments: &[Value], _: &FunctionContext) -> Result {
  match value_argument(arguments, 0) {
    [] => Ok(Value::boolean(false, true)),
    [single] => match single.as_str() {
      "" | "0" | "false" => Ok(Value::boolean(false, true)),
      "1" | "true" => Ok(Value::boolean(true, true)),
      other => Err(format!("`{other}` is not a valid boolean string")),
    },
    _ => Err("multi-element lists cannot be converted into booleans".into()),
  }
}

pub(super) fn join_list(arguments: &[Value], _: &FunctionContext) -> Result {
  let separator = if arguments.len() > 1 { text(arguments, 1) } else { " " };
  Ok(Value::string(value_argument(arguments, 0).join(separator)))
}

pub(super) fn show(arguments: &[Value], _: &FunctionContext) -> Result {
  Ok(Value::string(arguments.first().map(Value::show).unwrap_or_default()))
}

pub(super) fn split(arguments: &[Value], _: &FunctionContext) -> Result {
  let s = text(arguments, 0);
  let pieces: Vec<String> = if arguments.len() < 2 {
    s.split_whitespace().map(str::to_owned).collect()
  } else {
    match text(arguments, 1) {
      "" => s.chars().map(String::from).collect(),
      separator => s.split(separator).map(str::to_owned).collect(),
    }
  };
  Ok(Value(pieces))
}

#[cfg(test)]
mod tests {
  use std::path::Path;

  use super::super::call;
  use super::super::tests::{eval, strings};
  use super::*;

  fn check(name: &str, cases: &[(&[&str], &str)]) {
    for (arguments, expected) in cases {
      assert_eq!(eval(name, arguments).as_deref(), Ok(*expected), "{name}{arguments:?}");
    }
  }

  fn eval_lists(name: &str, arguments: Vec<Value>) -> std::result::Result<Value, String> {
    let mut context = FunctionContext::new(Path::new("/tmp"), Path::new("/tmp/justfile"));
    context.lists = true;
    call(name, arguments, &context)
  }

  fn list(elements: &[&str]) -> Value {
    Value(elements.iter().map(|element| element.to_string()).collect())
  }

  #[test]
  fn string_functions() {
    check("append", &[(&["/src", "foo  bar baz"], "foo/src bar/src baz/src"), (&["x", "  "], "")]);
    check("prepend", &[(&["src/", " foo bar "], "src/foo src/bar"), (&["x", ""], "")]);
    check(
      "encode_uri_component",
      &[(&["a b&c/d?é"], "a%20b%26c%2Fd%3F%C3%A9"), (&["-_.!~*'()Az09"], "-_.!~*'()Az09")],
    );
    check("quote", &[(&["it's"], "'it'\\''s'"), (&[""], "''")]);
    check("replace", &[(&["aaa", "a", "bb"], "bbbbbb"), (&["ab", "", "-"], "-a-b-")]);
    check(
      "replace_regex",
      &[(&["abc123", "([a-z]+)([0-9]+)", "${2}-$1"], "123-abc"), (&["ab", "a", "$1a"], "b")],
    );
    check("trim", &[(&["  x  "], "x")]);
    check("trim_start", &[(&["  x  "], "x  ")]);
    check("trim_end", &[(&["  x  "], "  x")]);
    check("trim_start_match", &[(&["aaab", "a"], "aab")]);
    check("trim_start_matches", &[(&["aaab", "a"], "b"), (&["aaa", ""], "aaa")]);
    check("trim_end_match", &[(&["foo.txt.txt", ".txt"], "foo.txt")]);
    check("trim_end_matches", &[(&["foo.txt.txt", ".txt"], "foo")]);
    check("len", &[(&["abc"], "1")]);
  }

  #[test]
  fn replace_regex_error() {
    assert_eq!(
      eval("replace_regex", &["a", "(", ""]).unwrap_err(),
      "regex parse error:\n    (\n    ^\nerror: unclosed group"
    );
  }

  #[test]
  fn case_conversion() {
    check("lowercase", &[(&["ÀBC"], "àbc")]);
    check("uppercase", &[(&["àbc ß"], "ÀBC SS")]);
    check(
      "capitalize",
      &[(&["hELLO wORLD"], "Hello world"), (&["ßa"], "SSa"), (&["1ABC"], "1abc"), (&[""], "")],
    );
    check(
      "snakecase",
      &[
        (&["FooBar bazQux"], "foo_bar_baz_qux"),
        (&["HTTPServer"], "http_server"),
        (&["Foo2Bar"], "foo2_bar"),
        (&["__a--b  c__"], "a_b_c"),
        (&["A2Bc HTTP2Server 2Ab ÀbcDéf"], "a2_bc_http2_server_2ab_àbc_déf"),
      ],
    );
    check("kebabcase", &[(&["XMLHttpRequest"], "xml-http-request")]);
    check("shoutysnakecase", &[(&["fooBar baz"], "FOO_BAR_BAZ")]);
    check("shoutykebabcase", &[(&["fooBar baz"], "FOO-BAR-BAZ")]);
    check("lowercamelcase", &[(&["foo_bar baz"], "fooBarBaz")]);
    check(
      "uppercamelcase",
      &[
        (&["foo_bar baz"], "FooBarBaz"),
        (&["hello-wORLD"], "HelloWOrld"),
        (&["ÀbcDéf 2ab x2Y"], "ÀbcDéf2abX2Y"),
      ],
    );
    check(
      "titlecase",
      &[
        (&["foo_bar bazQux"], "Foo Bar Baz Qux"),
        (&["hello-wORLD"], "Hello W Orld"),
        (&["a.b,c"], "A B C"),
      ],
    );
  }

  #[test]
  fn list_functions() {
    let cases: Vec<(&str, Vec<Value>, std::result::Result<Value, &str>)> = vec![
      ("bool", vec![list(&[])], Ok(list(&[]))),
      ("bool", strings(&[""]), Ok(list(&[]))),
      ("bool", strings(&["0"]), Ok(list(&[]))),
      ("bool", strings(&["false"]), Ok(list(&[]))),
      ("bool", strings(&["1"]), Ok(list(&["true"]))),
      ("bool", strings(&["true"]), Ok(list(&["true"]))),
      ("bool", strings(&["yes"]), Err("`yes` is not a valid boolean string")),
      (
        "bool",
        vec![list(&["a", "b"])],
        Err("multi-element lists cannot be converted into booleans"),
      ),
      ("join_list", vec![list(&["a", "b"])], Ok(list(&["a b"]))),
      ("join_list", vec![list(&["a", "b"]), Value::string(",")], Ok(list(&["a,b"]))),
      ("join_list", vec![list(&[])], Ok(list(&[""]))),
      ("show", vec![list(&["a", "b\"c\n"])], Ok(list(&["[\"a\", \"b\\\"c\\n\"]"]))),
      ("show", vec![list(&[])], Ok(list(&["[]"]))),
      ("show", strings(&["a"]), Ok(list(&["\"a\""]))),
      ("split", strings(&[" a  b c "]), Ok(list(&["a", "b", "c"]))),
      ("split", strings(&[""]), Ok(list(&[]))),
      ("split", strings(&["abc", ""]), Ok(list(&["a", "b", "c"]))),
      ("split", strings(&["a,b,,c", ","]), Ok(list(&["a", "b", "", "c"]))),
      ("split", strings(&["", ","]), Ok(list(&[""]))),
      ("len", vec![list(&[])], Ok(list(&["0"]))),
      ("len", vec![list(&["a", "b"])], Ok(list(&["2"]))),
      ("append", vec![Value::string(".c"), list(&["a b", "c"])], Ok(list(&["a b.c", "c.c"]))),
      ("prepend", vec![Value::string("x"), list(&[])], Ok(list(&[]))),
      ("quote", vec![list(&["a", "b'"])], Ok(list(&["'a'", "'b'\\'''"]))),
    ];
    for (name, arguments, expected) in cases {
      let description = format!("{name}{arguments:?}");
      assert_eq!(eval_lists(name, arguments), expected.map_err(str::to_owned), "{description}");
    }
  }
}
