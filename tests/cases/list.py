from capture import C

RICH = """
# Build the project
build target="all" *flags:
  echo build {{target}}

# Run the tests
[group('checks')]
test: build
  echo test

[private]
hidden:

_underscore:

alias b := build
alias t := test

[doc('Deploy it')]
deploy env:
  echo {{env}}

[group('checks')]
[group('misc')]
lint:
"""

CASES = [
  C("list_simple", """
    a:
    b:
    """, "--list"),
  C("list_short_flag", """
    a:
    """, "-l"),
  C("list_rich", RICH, "--list"),
  C("list_unsorted", RICH, "--list", "--unsorted"),
  C("list_heading_and_prefix", RICH, "--list", "--list-heading", "Commands:\n", "--list-prefix", "-> "),
  C("list_empty_heading", RICH, "--list", "--list-heading", ""),
  C("list_doc_comments_aligned", """
    # short
    a:
    # longer name's doc
    longer-name x:
    """, "--list"),
  C("list_parameters_with_defaults", """
    f a b='x y' +c="z" $d='e':
    """, "--list"),
  C("list_default_expressions", """
    v := "1"
    f a=v b=(v + "2") c=`echo x` d=uppercase(v):
    """, "--list"),
  C("list_aliases_shown_next_to_recipe", """
    alias x := build
    alias y := build
    build:
    """, "--list"),
  C("list_groups_flag", RICH, "--groups"),
  C("list_modules", """
    mod sub
    top:
    """, "--list", files={"sub.just": "# inner doc\ninner:\n"}),
  C("list_modules_recursively", """
    mod sub
    top:
    """, "--list", "--list-submodules", files={"sub.just": "inner:\n"}),
  C("list_specific_module", """
    mod sub
    top:
    """, "--list", "sub", files={"sub.just": "inner:\n"}),
  C("list_empty_justfile", "\n", "--list"),
  C("list_only_private", """
    _a:
    """, "--list"),
  C("list_multiline_doc_attribute", """
    [doc("first line")]
    a:
    """, "--list"),
  C("summary_simple", RICH, "--summary"),
  C("summary_empty", "\n", "--summary"),
  C("summary_with_modules", """
    mod sub
    top:
    """, "--summary", files={"sub.just": "inner:\n"}),
  C("show_recipe", RICH, "--show", "build"),
  C("show_recipe_with_attributes", RICH, "--show", "test"),
  C("show_alias_shows_target", RICH, "--show", "b"),
  C("show_unknown_recipe", RICH, "--show", "nope"),
  C("show_unknown_recipe_suggestion", RICH, "--show", "biuld"),
  C("show_shebang_recipe", """
    foo:
      #!/bin/sh
      echo {{ "x" }}
    """, "--show", "foo"),
  C("dump_rich", RICH, "--dump"),
  C("dump_normalizes_formatting", """
    x:='a'
    export   Y  :=  "b"+x
    set   export
    f   a   b  =  'c':   x
        echo  {{a}}   {{  b  }}
    """, "--dump"),
  C("dump_json", """
    x := "a"
    # doc
    f a b='c': g
      echo {{a}}
    g:
    """, "--dump", "--dump-format", "json"),
  C("dump_conditionals_and_functions", """
    x := if "a" == "b" { "c" } else if "d" =~ "e" { "f" } else { uppercase("g") }
    y := x / "z" + `echo q`
    """, "--dump"),
  C("dump_comments_and_settings", """
    # leading comment

    set shell := ["bash", "-c"]
    set dotenv-load

    # a doc comment
    foo:
      echo hi
    """, "--dump"),
  C("dump_strings_round_trip", r'''
    a := 'single'
    b := "dou\"ble\t"
    c := """
      triple
    """
    d := f'fmt {{a}}'
    e := x'~/shell'
    ''', "--dump"),
  C("variables_sorted", """
    zebra := "z"
    apple := "a"
    export mid := "m"
    """, "--variables"),
  C("variables_empty", "foo:\n", "--variables"),
  C("evaluate_all", """
    b := "2"
    a := "1"
    long_name := "x"
    """, "--evaluate"),
  C("evaluate_one_variable_prints_raw", """
    a := "line1\\nline2"
    """, "--evaluate", "a"),
  C("evaluate_with_override", """
    a := "1"
    """, "--evaluate", "a=9"),
  C("evaluate_empty", "foo:\n", "--evaluate"),
  C("usage_subcommand", RICH, "--usage", "build"),
  C("list_with_color_always", RICH, "--list", "--color", "always"),
  C("list_recipe_with_long_param_list_and_doc", """
    # documented
    f aaa bbb ccc='ddd' *eee:
    """, "--list"),
]
