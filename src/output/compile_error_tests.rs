//! Compile errors of the analysis stage as the user sees them: each case
//! compiles a set of files and renders the error with its excerpt.

use crate::analysis::analyzer::*;
use crate::color::Painter;
use crate::output::diagnostic::excerpt;
use crate::syntax::sources::Sources;
use crate::syntax::trees::Trees;

/// Compile `files` (the first is the root justfile) and render the result
/// as the reference prints it: `ok` or the error with its excerpt.
fn render(
  files: &[(&str, &str)],
  unstable: bool,
  overrides: &[crate::options::Override],
) -> (String, String) {
  let directory = tempfile::tempdir().expect("temporary directory");
  for (path, text) in files {
    let path = directory.path().join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("create directory");
    std::fs::write(&path, text).expect("write file");
  }
  let justfile = directory.path().join("justfile");
  let request = LoadRequest {
    justfile: &justfile,
    source: None,
    working_directory: directory.path(),
    overrides,
    unstable,
  };
  let (sources, trees) = (Sources::new(), Trees::new());
  let rendered = match compile(&request, Arenas { sources: &sources, trees: &trees }) {
    Ok(_) => "ok\n".to_string(),
    Err(LoadError::Compile(error)) => {
      let caused_by =
        error.caused_by().map(|cause| format!("caused by: {cause}\n")).unwrap_or_default();
      format!("error: {error}\n{}{caused_by}", excerpt(&Painter::plain(), &error.token))
    }
    Err(other) => format!("error: {other}\n"),
  };
  (rendered, directory.path().display().to_string())
}

/// (name, files with the root justfile first, expected output).
type Case = (&'static str, &'static [(&'static str, &'static str)], &'static str);

#[rustfmt::skip]
  const CASES: &[Case] = &[
    (r#"unknown_dependency"#, &[(r#"justfile"#, r#"a:
b:
c:
d:
e:
f:
g:
h:
i:
build: test
"#)], r#"error: recipe `build` has unknown dependency `test`
  ——▶ justfile:10:8
   │
10 │ build: test
   │        ^^^^
"#),
    (r#"undefined_variable"#, &[(r#"justfile"#, r#"a:
	echo {{greting}}
"#)], r#"error: variable `greting` not defined
 ——▶ justfile:2:9
  │
2 │     echo {{greting}}
  │            ^^^^^^^
"#),
    (r#"undefined_function"#, &[(r#"justfile"#, r#"x := nope()
"#)], r#"error: call to undefined function `nope`
 ——▶ justfile:1:6
  │
1 │ x := nope()
  │      ^^^^
"#),
    (r#"function_arity"#, &[(r#"justfile"#, r#"x := env()
"#)], r#"error: function `env` called with 0 arguments but takes 1 to 2
 ——▶ justfile:1:6
  │
1 │ x := env()
  │      ^^^
"#),
    (r#"recipe_redefined"#, &[(r#"justfile"#, r#"a:
b:
a:
"#)], r#"error: recipe `a` first defined on line 1 is redefined on line 3
 ——▶ justfile:3:1
  │
3 │ a:
  │ ^
"#),
    (r#"alias_redefined"#, &[(r#"justfile"#, r#"a:
alias b := a
alias b := a
"#)], r#"error: alias `b` first defined on line 2 is redefined on line 3
 ——▶ justfile:3:7
  │
3 │ alias b := a
  │       ^
"#),
    (r#"recipe_as_alias"#, &[(r#"justfile"#, r#"foo:
alias foo := foo
"#)], r#"error: recipe `foo` defined on line 1 is redefined as an alias on line 2
 ——▶ justfile:2:7
  │
2 │ alias foo := foo
  │       ^^^
"#),
    (r#"alias_then_recipe"#, &[(r#"justfile"#, r#"alias foo := bar
bar:
foo:
"#)], r#"error: alias `foo` defined on line 1 is redefined as a recipe on line 3
 ——▶ justfile:3:1
  │
3 │ foo:
  │ ^^^
"#),
    (r#"duplicate_variable"#, &[(r#"justfile"#, r#"x := 'a'
x := 'b'
"#)], r#"error: variable `x` has multiple definitions
 ——▶ justfile:2:1
  │
2 │ x := 'b'
  │ ^
"#),
    (r#"allow_duplicate_variable"#, &[(r#"justfile"#, r#"set allow-duplicate-variables
x := 'a'
x := 'b'
"#)], r#"ok
"#),
    (r#"self_dependency"#, &[(r#"justfile"#, r#"a: a
"#)], r#"error: recipe `a` depends on itself
 ——▶ justfile:1:4
  │
1 │ a: a
  │    ^
"#),
    (r#"circular_dependency"#, &[(r#"justfile"#, r#"a: b
b: c
c: a
"#)], r#"error: recipe `c` has circular dependency `a -> b -> c -> a`
 ——▶ justfile:3:4
  │
3 │ c: a
  │    ^
"#),
    (r#"self_variable"#, &[(r#"justfile"#, r#"x := x
"#)], r#"error: variable `x` is defined in terms of itself
 ——▶ justfile:1:1
  │
1 │ x := x
  │ ^
"#),
    (r#"circular_variable"#, &[(r#"justfile"#, r#"a := b
b := c
c := b
"#)], r#"error: variable `b` depends on its own value: `b -> c -> b`
 ——▶ justfile:2:1
  │
2 │ b := c
  │ ^
"#),
    (r#"dependency_arguments"#, &[(r#"justfile"#, r#"a x y='z':
b: (a '1' '2' '3')
"#)], r#"error: dependency `a` got 3 arguments but takes at most 2 arguments
 ——▶ justfile:2:5
  │
2 │ b: (a '1' '2' '3')
  │     ^
"#),
    (r#"dependency_arguments_few"#, &[(r#"justfile"#, r#"a x y:
b: (a '1')
"#)], r#"error: dependency `a` got 1 argument but takes 2 arguments
 ——▶ justfile:2:5
  │
2 │ b: (a '1')
  │     ^
"#),
    (r#"dependency_arguments_exact"#, &[(r#"justfile"#, r#"a x:
b: a
"#)], r#"error: dependency `a` got 0 arguments but takes 1 argument
 ——▶ justfile:2:4
  │
2 │ b: a
  │    ^
"#),
    (r#"duplicate_parameter"#, &[(r#"justfile"#, r#"a x x:
"#)], r#"error: recipe `a` has duplicate parameter `x`
 ——▶ justfile:1:5
  │
1 │ a x x:
  │     ^
"#),
    (r#"required_after_default"#, &[(r#"justfile"#, r#"a x='1' y:
"#)], r#"error: non-default parameter `y` follows default parameter
 ——▶ justfile:1:9
  │
1 │ a x='1' y:
  │         ^
"#),
    (r#"duplicate_setting"#, &[(r#"justfile"#, r#"set quiet
set quiet := false
"#)], r#"error: setting `quiet` first set on line 1 is redefined on line 2
 ——▶ justfile:2:5
  │
2 │ set quiet := false
  │     ^^^^^
"#),
    (r#"alias_unknown_target"#, &[(r#"justfile"#, r#"alias b := nope
"#)], r#"error: alias `b` has an unknown target `nope`
 ——▶ justfile:1:7
  │
1 │ alias b := nope
  │       ^
"#),
    (r#"unexport_twice"#, &[(r#"justfile"#, r#"unexport X
unexport X
"#)], r#"error: variable `X` is unexported multiple times
 ——▶ justfile:2:10
  │
2 │ unexport X
  │          ^
"#),
    (r#"export_unexported"#, &[(r#"justfile"#, r#"unexport X
X := 'a'
"#)], r#"error: variable X is both exported and unexported
 ——▶ justfile:2:1
  │
2 │ X := 'a'
  │ ^
"#),
    (r#"function_duplicate_parameter"#, &[(r#"justfile"#, r#"set unstable
f(a, a) := a
"#)], r#"error: function `f` has duplicate parameter `a`
 ——▶ justfile:2:6
  │
2 │ f(a, a) := a
  │      ^
"#),
    (r#"function_redefined"#, &[(r#"justfile"#, r#"set unstable
f() := 'a'
f() := 'b'
"#)], r#"error: function `f` first defined on line 2 is redefined on line 3
 ——▶ justfile:3:1
  │
3 │ f() := 'b'
  │ ^
"#),
    (r#"incompatible_settings"#, &[(r#"justfile"#, r#"set dotenv-load
set dotenv-command := 'x'
"#)], r#"error: `dotenv-load` set on line 1 is incompatible with `dotenv-command`
 ——▶ justfile:2:5
  │
2 │ set dotenv-command := 'x'
  │     ^^^^^^^^^^^^^^
"#),
    (r#"extra_whitespace"#, &[(r#"justfile"#, r#"a:
  echo a
    echo b
"#)], r#"error: recipe line has extra leading whitespace
 ——▶ justfile:3:3
  │
3 │     echo b
  │   ^^^^^^^^
"#),
    (r#"guard_sigils"#, &[(r#"justfile"#, r#"set guards
a:
  -?echo
"#)], r#"error: the guard `?` and infallible `-` sigils may not be used together
 ——▶ justfile:3:3
  │
3 │   -?echo
  │   ^^^^^^
"#),
    (r#"script_attribute"#, &[(r#"justfile"#, r#"[extension('.sh')]
a:
  echo
"#)], r#"error: shell recipe `a` has script recipe attribute `extension`
 ——▶ justfile:2:1
  │
2 │ a:
  │ ^
"#),
    (r#"import_not_found"#, &[(r#"justfile"#, r#"import 'nope.just'
"#)], r#"error: could not find source file for import
 ——▶ justfile:1:8
  │
1 │ import 'nope.just'
  │        ^^^^^^^^^^^
"#),
    (r#"module_not_found"#, &[(r#"justfile"#, r#"mod foo
"#)], r#"error: could not find source file for module `foo`
 ——▶ justfile:1:5
  │
1 │ mod foo
  │     ^^^
"#),
    (r#"module_ambiguous"#, &[(r#"justfile"#, r#"mod foo
"#), (r#"foo.just"#, r#"a:
"#), (r#"foo/justfile"#, r#"b:
"#)], r#"error: found multiple source files for module `foo`: `foo/justfile` and `foo.just`
 ——▶ justfile:1:5
  │
1 │ mod foo
  │     ^^^
"#),
    (r#"const_backtick"#, &[(r#"justfile"#, r#"set tempdir := `echo hi`
"#)], r#"error: cannot call backticks in const context
 ——▶ justfile:1:16
  │
1 │ set tempdir := `echo hi`
  │                ^^^^^^^^^
"#),
    (r#"const_function"#, &[(r#"justfile"#, r#"set tempdir := env('X')
"#)], r#"error: cannot call functions in const context
 ——▶ justfile:1:16
  │
1 │ set tempdir := env('X')
  │                ^^^
"#),
    (r#"const_variable"#, &[(r#"justfile"#, r#"x := y
y := `echo`
set tempdir := x
"#)], r#"error: cannot access non-const variable `x` in const context
 ——▶ justfile:3:16
  │
3 │ set tempdir := x
  │                ^
"#),
    (r#"const_ok"#, &[(r#"justfile"#, r#"x := 'a' + HEX
set tempdir := x / 'b'
[doc(x)]
a:
"#)], r#"ok
"#),
    (r#"const_assert"#, &[(r#"justfile"#, r#"set tempdir := assert('a' == 'b')
"#)], r#"error: assert failed: `'a' == 'b'`
 ——▶ justfile:1:16
  │
1 │ set tempdir := assert('a' == 'b')
  │                ^^^^^^
"#),
    (r#"list_literal"#, &[(r#"justfile"#, r#"x := ['a']
"#)], r#"error: list literals require `set lists`
 ——▶ justfile:1:6
  │
1 │ x := ['a']
  │      ^
"#),
    (r#"list_concat"#, &[(r#"justfile"#, r#"x := 'a' ++ 'b'
"#)], r#"error: list concatenation operator `++` requires `set lists`
 ——▶ justfile:1:10
  │
1 │ x := 'a' ++ 'b'
  │          ^^
"#),
    (r#"logical"#, &[(r#"justfile"#, r#"x := 'a' && 'b'
"#)], r#"error: logical operators require `set lists`
 ——▶ justfile:1:10
  │
1 │ x := 'a' && 'b'
  │          ^^
"#),
    (r#"negation"#, &[(r#"justfile"#, r#"x := !'a'
"#)], r#"error: negation operator requires `set lists`
 ——▶ justfile:1:6
  │
1 │ x := !'a'
  │      ^
"#),
    (r#"comparison_outside"#, &[(r#"justfile"#, r#"x := 'a' == 'b'
"#)], r#"error: comparison operators require `set lists`
 ——▶ justfile:1:10
  │
1 │ x := 'a' == 'b'
  │          ^^
"#),
    (r#"condition_non_comparison"#, &[(r#"justfile"#, r#"x := if 'a' { 'b' } else { 'c' }
"#)], r#"error: `if` and `assert` conditions other than comparisons require `set lists`
 ——▶ justfile:1:9
  │
1 │ x := if 'a' { 'b' } else { 'c' }
  │         ^^^
"#),
    (r#"if_without_else"#, &[(r#"justfile"#, r#"x := if 'a' == 'b' { 'b' }
"#)], r#"error: `if` without `else` requires `set lists`
 ——▶ justfile:1:6
  │
1 │ x := if 'a' == 'b' { 'b' }
  │      ^^
"#),
    (r#"function_requires_lists"#, &[(r#"justfile"#, r#"x := show('a')
"#)], r#"error: the `show()` function requires `set lists`
 ——▶ justfile:1:6
  │
1 │ x := show('a')
  │      ^^^^
"#),
    (r#"default_duplicate"#, &[(r#"justfile"#, r#"[default]
a:
[default]
b:
"#)], r#"error: recipe `b` has duplicate `[default]` attribute, which may only appear once per module
 ——▶ justfile:4:1
  │
4 │ b:
  │ ^
"#),
    (r#"variable_in_setting"#, &[(r#"justfile"#, r#"set tempdir := nope
"#)], r#"error: variable `nope` not defined
 ——▶ justfile:1:16
  │
1 │ set tempdir := nope
  │                ^^^^
"#),
    (r#"unstable_function"#, &[(r#"justfile"#, r#"f() := 'a'
"#)], r#"ok
"#),
    (r#"unstable_lists"#, &[(r#"justfile"#, r#"[windows]
set lists
"#)], r#"ok
"#),
    (r#"submodule_error"#, &[(r#"justfile"#, r#"mod foo
a x x:
"#), (r#"foo.just"#, r#"b y y:
"#)], r#"error: recipe `b` has duplicate parameter `y`
 ——▶ foo.just:1:5
  │
1 │ b y y:
  │     ^
"#),
    (r#"import_error"#, &[(r#"justfile"#, r#"import 'sub/x.just'
"#), (r#"sub/x.just"#, r#"a:
  echo {{nope}}
"#)], r#"error: variable `nope` not defined
 ——▶ sub/x.just:2:10
  │
2 │   echo {{nope}}
  │          ^^^^
"#),
    (r#"circular_import"#, &[(r#"justfile"#, r#"import 'a.just'
"#), (r#"a.just"#, r#"import 'justfile'
"#)], r#"error: import `$DIR/justfile` in `$DIR/a.just` is circular
"#),
    (r#"duplicate_across_import"#, &[(r#"justfile"#, r#"import 'a.just'
x := 'a'
"#), (r#"a.just"#, r#"x := 'b'
"#)], r#"error: variable `x` has multiple definitions
 ——▶ a.just:1:1
  │
1 │ x := 'b'
  │ ^
"#),
    (r#"recipe_dup_import"#, &[(r#"justfile"#, r#"import 'a.just'
foo:
"#), (r#"a.just"#, r#"

foo:
"#)], r#"error: recipe `foo` first defined on line 2 is redefined on line 3
 ——▶ a.just:3:1
  │
3 │ foo:
  │ ^^^
"#),
    (r#"module_dependency"#, &[(r#"justfile"#, r#"mod foo
a: foo::b
"#), (r#"foo.just"#, r#"b x:
"#)], r#"error: dependency `foo::b` got 0 arguments but takes 1 argument
 ——▶ justfile:2:9
  │
2 │ a: foo::b
  │         ^
"#),
    (r#"module_unknown_dependency"#, &[(r#"justfile"#, r#"mod foo
a: foo::c
"#), (r#"foo.just"#, r#"b:
"#)], r#"error: recipe `a` has unknown dependency `foo::c`
 ——▶ justfile:2:9
  │
2 │ a: foo::c
  │         ^
"#),
    (r#"optional_module_ok"#, &[(r#"justfile"#, r#"mod? foo
a: foo::b
alias c := foo::b
"#)], r#"ok
"#),
    (r#"os_disabled"#, &[(r#"justfile"#, r#"[windows]
x := 'a'
x := 'b'
[windows]
set shell := ['a']
set shell := ['b']
"#)], r#"ok
"#),
    (r#"invalid_attribute"#, &[(r#"justfile"#, r#"[group('a')]
x := 'a'
"#)], r#"error: assignment `x` has invalid attribute `group`
 ——▶ justfile:2:1
  │
2 │ x := 'a'
  │ ^
"#),
    (r#"arg_undefined"#, &[(r#"justfile"#, r#"[arg('nope', long)]
a x:
"#)], r#"error: argument attribute for undefined argument `nope`
 ——▶ justfile:1:6
  │
1 │ [arg('nope', long)]
  │      ^^^^^^
"#),
    (r#"arg_value_no_option"#, &[(r#"justfile"#, r#"[arg('x', value='a')]
a x:
"#)], r#"error: argument attribute `value` only valid with `long` or `short`
 ——▶ justfile:1:11
  │
1 │ [arg('x', value='a')]
  │           ^^^^^
"#),
    (r#"arg_duplicate_option"#, &[(r#"justfile"#, r#"[arg('x', long='o')]
[arg('y', long='o')]
a x y:
"#)], r#"error: recipe `a` defines option `--o` multiple times
 ——▶ justfile:2:16
  │
2 │ [arg('y', long='o')]
  │                ^^^
"#),
    (r#"arg_pattern"#, &[(r#"justfile"#, r#"[arg('x', pattern='(')]
a x:
"#)], r#"error: failed to parse argument pattern
 ——▶ justfile:1:11
  │
1 │ [arg('x', pattern='(')]
  │           ^^^^^^^
caused by: regex parse error:
    (
    ^
error: unclosed group
"#),
    (r#"param_default_later"#, &[(r#"justfile"#, r#"a b=c c='x':
"#)], r#"error: variable `c` not defined
 ——▶ justfile:1:5
  │
1 │ a b=c c='x':
  │     ^
"#),
    (r#"user_function_cycle"#, &[(r#"justfile"#, r#"set unstable
a := f()
f() := a
"#)], r#"error: variable `a` is defined in terms of itself
 ——▶ justfile:2:1
  │
2 │ a := f()
  │ ^
"#),
    (r#"ignore_comments"#, &[(r#"justfile"#, r#"set ignore-comments
a:
  # {{nope}}
  echo
"#)], r#"ok
"#),
    (r#"mod_path_in_subdir"#, &[(r#"justfile"#, r#"import 'sub/x.just'
"#), (r#"sub/x.just"#, r#"mod y
"#), (r#"sub/y.just"#, r#"a:
  echo {{nope}}
"#)], r#"error: variable `nope` not defined
 ——▶ sub/y.just:2:10
  │
2 │   echo {{nope}}
  │          ^^^^
"#),
    (r#"env_no_params"#, &[(r#"justfile"#, r#"[env('A', x)]
a x:
"#)], r#"error: variable `x` not defined
 ——▶ justfile:1:11
  │
1 │ [env('A', x)]
  │           ^
"#),
    (r#"list_setting_empty"#, &[(r#"justfile"#, r#"set lists
set unstable
set shell := [[]]
"#)], r#"error: `shell` setting requires at least one element but evaluated to empty list
 ——▶ justfile:3:5
  │
3 │ set shell := [[]]
  │     ^^^^^
"#),
  ];

#[test]
fn catalogue() {
  let mut failures = Vec::new();
  for (name, files, expected) in CASES {
    let (actual, directory) = render(files, true, &[]);
    let expected = expected.replace("$DIR", &directory);
    if actual != expected {
      failures.push(format!("{name}:\n--- expected\n{expected}--- actual\n{actual}"));
    }
  }
  assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn unstable_features() {
  let cases: &[(&str, &str)] = &[
      ("f() := 'a'\n", "error: user-defined functions are currently unstable, invoke `just` with `--unstable`, set the `JUST_UNSTABLE` environment variable, or add `set unstable` to your `justfile` to enable unstable features\n"),
      ("[windows]\nset lists\n", "error: the `lists` setting is currently unstable, invoke `just` with `--unstable`, set the `JUST_UNSTABLE` environment variable, or add `set unstable` to your `justfile` to enable unstable features\n"),
      ("set unstable\nf() := 'a'\n", "ok\n"),
    ];
  for (text, expected) in cases {
    assert_eq!(render(&[("justfile", text)], false, &[]).0, *expected, "{text}");
  }
}

#[test]
fn unknown_overrides() {
  let override_of = |module: &[&str], name: &str| crate::options::Override {
    module_path: module.iter().map(|s| s.to_string()).collect(),
    name: name.into(),
    value: "1".into(),
  };
  let overrides =
    [override_of(&[], "z"), override_of(&["s"], "a"), override_of(&[], "b"), override_of(&[], "x")];
  let (actual, _) = render(&[("justfile", "x := 'a'\nmod s\n"), ("s.just", "")], true, &overrides);
  assert_eq!(actual, "error: variables `b`, `z`, and `s::a` overridden on the command line but not present in justfile\n");
}

/// Load `justfile` from disk, without overrides or unstable features.
fn stable_request<'a>(
  justfile: &'a std::path::Path,
  directory: &'a std::path::Path,
) -> LoadRequest<'a> {
  LoadRequest {
    justfile,
    source: None,
    working_directory: directory,
    overrides: &[],
    unstable: false,
  }
}

#[test]
fn model_facts() {
  let directory = tempfile::tempdir().expect("temporary directory");
  let files = [
    ("justfile", "import 'lib.just'\nmod sub\n# builds\nb:\n[private]\na:\nx := 'v'\n"),
    ("lib.just", "c:\n"),
    ("sub.just", "[doc('subdoc')]\n[default]\nz:\ny:\n"),
  ];
  for (path, text) in files {
    std::fs::write(directory.path().join(path), text).expect("write file");
  }
  let justfile = directory.path().join("justfile");
  let request = stable_request(&justfile, directory.path());
  let (sources, trees) = (Sources::new(), Trees::new());
  let root = compile(&request, Arenas { sources: &sources, trees: &trees }).expect("compiles").root;
  assert_eq!(root.default_recipe().map(|recipe| recipe.name().lexeme()), Some("b"));
  assert_eq!(root.recipes["b"].doc, Some("builds"));
  assert!(root.recipes["a"].private);
  assert_eq!(root.recipes["c"].order, 2);
  assert_eq!(root.base_directory, directory.path());
  let sub = root.modules.get("sub").expect("submodule");
  assert_eq!(sub.default_recipe().map(|recipe| recipe.name().lexeme()), Some("z"));
  assert_eq!(sub.recipes["z"].doc, Some("subdoc"));
  assert_eq!(sub.recipes["y"].namepath, "sub::y");
  assert_eq!(sub.path, vec!["sub".to_string()]);
  assert_eq!(
    root.modules.in_source_order().iter().map(|(name, _)| *name).collect::<Vec<_>>(),
    ["sub"]
  );
}

/// Each run owns its sources and trees: a second run in the same process,
/// after the first one's arenas are gone, sees only its own files.
#[test]
fn pipeline_runs_twice_in_one_process() {
  let directory = tempfile::tempdir().expect("temporary directory");
  let justfile = directory.path().join("justfile");
  let mut defaults = Vec::new();
  for text in ["first:\n  echo 1\n", "second:\n  echo 2\n"] {
    std::fs::write(&justfile, text).expect("write file");
    let request = stable_request(&justfile, directory.path());
    let (sources, trees) = (Sources::new(), Trees::new());
    let root =
      compile(&request, Arenas { sources: &sources, trees: &trees }).expect("compiles").root;
    defaults.push(root.default_recipe().map(|recipe| recipe.name().lexeme().to_owned()));
    assert_eq!(sources.iter().map(|source| source.text.as_str()).collect::<Vec<_>>(), [text]);
  }
  assert_eq!(defaults, [Some("first".to_owned()), Some("second".to_owned())]);
}
