//! One case per behaviour: a text and the names read in it, in order, as
//! (name, role, definition). Where `just`'s reading was in question, the
//! case was checked with just 1.58 (`--evaluate`, `--dry-run`).

use super::*;
use Role::{Function, Module, Parameter, Recipe, Variable};

const DEFINES: bool = true;
const USES: bool = false;

fn read(text: &str) -> Vec<(&str, Role, bool)> {
  let mut found = occurrences(text);
  found.sort_by_key(|occurrence| occurrence.start);
  found.iter().map(|found| (&text[found.start..found.end], found.role, found.definition)).collect()
}

macro_rules! cases {
  ($($name:ident: $text:expr => [$($expected:expr),* $(,)?],)*) => {
    $(
      #[test]
      fn $name() {
        let expected: Vec<(&str, Role, bool)> = vec![$($expected),*];
        assert_eq!(read($text), expected, "{:?}", $text);
      }
    )*
  };
}

cases! {
  hash_in_a_string_is_not_a_comment:
    "x := \"a # b\" + y\n" => [("x", Variable, DEFINES), ("y", Variable, USES)],
  escaped_quote_does_not_end_a_string:
    "x := \"a\\\" # b\" + y\n" => [("x", Variable, DEFINES), ("y", Variable, USES)],
  comment_after_a_value_is_not_read:
    "x := y # uses z\n" => [("x", Variable, DEFINES), ("y", Variable, USES)],
  comment_line_is_not_read:
    "# uses x\nx := 'v'\n" => [("x", Variable, DEFINES)],
  expression_continues_inside_parentheses:
    "foo := (\"a\" +\n  b)\n" => [("foo", Variable, DEFINES), ("b", Variable, USES)],
  expression_continues_after_a_backslash:
    "foo := \"a\" + \\\n  b\n" => [("foo", Variable, DEFINES), ("b", Variable, USES)],
  function_parameters_continue_inside_parentheses:
    "f(a,\n  b) := a + b\n" => [
      ("f", Function, DEFINES),
      ("a", Parameter(0), DEFINES),
      ("b", Parameter(0), DEFINES),
      ("a", Parameter(0), USES),
      ("b", Parameter(0), USES),
    ],
  interpolation_inside_a_string_value_is_text:
    "x := \"{{ y }}\"\n" => [("x", Variable, DEFINES)],
  format_string_interpolations_are_read:
    "x := f'a{{ y }}b{{ g(z) }}'\n" => [
      ("x", Variable, DEFINES),
      ("y", Variable, USES),
      ("g", Function, USES),
      ("z", Variable, USES),
    ],
  string_prefixes_are_not_names:
    "p := x'~/a' + y\n" => [("p", Variable, DEFINES), ("y", Variable, USES)],
  lines_of_a_triple_quoted_string_are_text:
    "x := \"\"\"\nfoo:\n  a := {{ b }}\n\"\"\"\ny := z\n" => [
      ("x", Variable, DEFINES),
      ("y", Variable, DEFINES),
      ("z", Variable, USES),
    ],
  lines_of_a_backtick_are_text:
    "x := ```\nfoo := bar\n```\n" => [("x", Variable, DEFINES)],
  escaped_braces_in_a_body_are_text:
    "b := 'v'\nr:\n  echo {{{{b}}\n" => [("b", Variable, DEFINES), ("r", Recipe, DEFINES)],
  body_interpolations_after_a_hash_are_read:
    "r:\n  echo {{ x }} # {{ y }}\n" => [
      ("r", Recipe, DEFINES),
      ("x", Variable, USES),
      ("y", Variable, USES),
    ],
  closing_braces_in_a_string_do_not_end_an_interpolation:
    "r:\n  echo '{{ \"}}\" + x }}'\n" => [("r", Recipe, DEFINES), ("x", Variable, USES)],
  shebang_body_interpolations_read_parameters:
    "r p:\n  #!/bin/sh\n  echo {{ p }}\n" => [
      ("r", Recipe, DEFINES),
      ("p", Parameter(0), DEFINES),
      ("p", Parameter(0), USES),
    ],
  parameter_hides_a_variable_in_its_recipe_only:
    "p := 'v'\nr p: (d p)\n  echo {{ p }}\ns:\n  echo {{ p }}\n" => [
      ("p", Variable, DEFINES),
      ("r", Recipe, DEFINES),
      ("p", Parameter(1), DEFINES),
      ("d", Recipe, USES),
      ("p", Parameter(1), USES),
      ("p", Parameter(1), USES),
      ("s", Recipe, DEFINES),
      ("p", Variable, USES),
    ],
  default_reads_an_earlier_parameter:
    "a := 'v'\nr a b=a:\n" => [
      ("a", Variable, DEFINES),
      ("r", Recipe, DEFINES),
      ("a", Parameter(1), DEFINES),
      ("b", Parameter(1), DEFINES),
      ("a", Parameter(1), USES),
    ],
  default_reads_the_variable_before_its_parameter:
    "s b=a a='x':\n" => [
      ("s", Recipe, DEFINES),
      ("b", Parameter(0), DEFINES),
      ("a", Variable, USES),
      ("a", Parameter(0), DEFINES),
    ],
  header_with_variadics_exports_and_calls:
    "@r $a='x' +b=f(c) *d: e (m::g a 'z') && h\n" => [
      ("r", Recipe, DEFINES),
      ("a", Parameter(0), DEFINES),
      ("b", Parameter(0), DEFINES),
      ("f", Function, USES),
      ("c", Variable, USES),
      ("d", Parameter(0), DEFINES),
      ("e", Recipe, USES),
      ("m", Module, USES),
      ("g", Recipe, USES),
      ("a", Parameter(0), USES),
      ("h", Recipe, USES),
    ],
  colon_in_a_default_string_is_not_the_header_colon:
    "r a=':=' : b\n" => [
      ("r", Recipe, DEFINES),
      ("a", Parameter(0), DEFINES),
      ("b", Recipe, USES),
    ],
  attribute_arguments_read_variables_not_keys:
    "[working-directory(d)]\n[arg('a', long, pattern=p), doc(q)]\nr a:\n" => [
      ("d", Variable, USES),
      ("p", Variable, USES),
      ("q", Variable, USES),
      ("r", Recipe, DEFINES),
      ("a", Parameter(2), DEFINES),
    ],
  keywords_and_items_without_names:
    "set shell := ['sh', x]\nset quiet\nexport e := if a == 'b' { c } else { d }\n\
     eager g := assert(h, 'm')\nunexport u\nimport? 'i.just'\nmod? m 'p.just'\n" => [
      ("x", Variable, USES),
      ("e", Variable, DEFINES),
      ("a", Variable, USES),
      ("c", Variable, USES),
      ("d", Variable, USES),
      ("g", Variable, DEFINES),
      ("h", Variable, USES),
      ("m", Module, DEFINES),
    ],
  keywords_are_names_where_no_item_follows_them:
    "alias:\nexport: alias\nset := mod\n" => [
      ("alias", Recipe, DEFINES),
      ("export", Recipe, DEFINES),
      ("alias", Recipe, USES),
      ("set", Variable, DEFINES),
      ("mod", Variable, USES),
    ],
  byte_order_mark_and_crlf_line_ends:
    "\u{feff}x := y\r\nr p:\r\n  echo {{ p }} {{ x }}\r\n" => [
      ("x", Variable, DEFINES),
      ("y", Variable, USES),
      ("r", Recipe, DEFINES),
      ("p", Parameter(1), DEFINES),
      ("p", Parameter(1), USES),
      ("x", Variable, USES),
    ],
  alias_targets_are_paths:
    "alias b := m::n::r\n" => [
      ("b", Recipe, DEFINES),
      ("m", Module, USES),
      ("n", Module, USES),
      ("r", Recipe, USES),
    ],
  body_of_a_header_that_cannot_be_read_is_read:
    "@:\n  echo {{ a }} {{ b }}\n" => [("a", Variable, USES), ("b", Variable, USES)],
  line_after_an_unclosed_function_header_is_read:
    "f(a\nx := y\n" => [("f", Recipe, DEFINES), ("x", Variable, DEFINES), ("y", Variable, USES)],
  function_parameters_end_at_what_is_not_one:
    "f(a 'b') := a\nx := y\n" => [
      ("f", Function, DEFINES),
      ("a", Parameter(0), DEFINES),
      ("x", Variable, DEFINES),
      ("y", Variable, USES),
    ],
  line_after_a_missing_default_is_read:
    "r a=\nx := y\n" => [
      ("r", Recipe, DEFINES),
      ("a", Parameter(0), DEFINES),
      ("x", Variable, DEFINES),
      ("y", Variable, USES),
    ],
  names_after_an_unterminated_string_are_read:
    "x := \"abc\ny := z\n" => [("x", Variable, DEFINES), ("y", Variable, DEFINES), ("z", Variable, USES)],
  body_lines_after_an_unterminated_interpolation_are_read:
    "r p:\n  echo {{ y\n  echo {{ p }}\nq := w\n" => [
      ("r", Recipe, DEFINES),
      ("p", Parameter(0), DEFINES),
      ("p", Parameter(0), USES),
      ("q", Variable, DEFINES),
      ("w", Variable, USES),
    ],
  items_after_an_unclosed_parenthesis_are_read:
    "x := (a +\nb := c\n\nr p:\n  echo {{p}}\n" => [
      ("x", Variable, DEFINES),
      ("b", Variable, DEFINES),
      ("c", Variable, USES),
      ("r", Recipe, DEFINES),
      ("p", Parameter(3), DEFINES),
      ("p", Parameter(3), USES),
    ],
  items_after_a_stray_bracket_are_read:
    "x := 'a' ] b\ny := z\n" => [("x", Variable, DEFINES), ("y", Variable, DEFINES), ("z", Variable, USES)],
  items_after_inconsistent_indentation_are_read:
    "c:\n\techo\n    echo {{ x }}\nx := y\n" => [
      ("c", Recipe, DEFINES),
      ("x", Variable, DEFINES),
      ("y", Variable, USES),
    ],
}

#[test]
fn module_paths_are_modules_then_a_recipe() {
  let text = "a: x::y::z (m::r 'arg' v)\nalias b := m::r\n";
  let found: Vec<(&str, Role, &str)> = occurrences(text)
    .iter()
    .map(|found| (&text[found.start..found.end], found.role, &text[found.qualifier..found.start]))
    .collect();
  assert_eq!(
    found,
    [
      ("a", Recipe, ""),
      ("x", Module, ""),
      ("y", Module, "x::"),
      ("z", Recipe, "x::y::"),
      ("m", Module, ""),
      ("r", Recipe, "m::"),
      ("v", Variable, ""),
      ("b", Recipe, ""),
      ("m", Module, ""),
      ("r", Recipe, "m::"),
    ]
  );
}

/// Texts an editor passes through while one is typed: every prefix of each
/// reads without panicking, and every occurrence is a name of the text.
#[test]
fn every_prefix_reads_to_names_of_the_text() {
  let texts = [
    "[arg('a', pattern=p)]\n@r $a='x' +b=f(c): e (m::g a f'{{ z }}') && h # c\n  echo {{ a }} {{{{\n",
    "x := \"\"\"\nfoo:\n\"\"\" + ```\nbar\n``` + (a +\n  b) + \\\n  c\nf(a, b) := if a == b { x'~' } else { b }\n",
    "mod? m 'p'\nalias b := m::r\nset shell := ['sh', x]\nr:\n\t#!/bin/sh\n    echo {{ y\n  é {{ \"}}\" }}\n",
  ];
  for text in texts {
    for (end, _) in text.char_indices() {
      let prefix = &text[..end];
      for found in occurrences(prefix) {
        let name = &prefix[found.start..found.end];
        assert!(
          name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            && found.qualifier <= found.start,
          "{found:?} in {prefix:?}"
        );
      }
    }
  }
}
