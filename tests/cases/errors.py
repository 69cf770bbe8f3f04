from capture import C

CASES = [
  C("unknown_dependency", """
    a:
    b:
    c:
    d:
    e:
    f:
    g:
    h:
    i:
    build: test
    """),
  C("undefined_variable_in_recipe", "foo:\n\techo {{greting}}\n"),
  C("undefined_variable_in_assignment", """
    x := y
    """),
  C("undefined_variable_in_default", """
    f a=nope:
    """),
  C("call_to_undefined_function", """
    foo:
      echo {{ nope() }}
    """),
  C("function_wrong_argument_count", """
    x := replace("a")
    """),
  C("function_takes_zero_arguments", """
    x := arch("a")
    """),
  C("recipe_redefined", """
    foo:
    foo:
    """),
  C("alias_redefined", """
    foo:
    alias a := foo
    alias a := foo
    """),
  C("alias_shadows_recipe", """
    foo:
    alias foo := foo
    """),
  C("recipe_after_alias_same_name", """
    bar:
    alias foo := bar
    foo:
    """),
  C("variable_multiple_definitions", """
    x := "a"
    x := "b"
    """),
  C("mixed_tabs_and_spaces", "foo:\n\t echo hi\n"),
  C("inconsistent_leading_whitespace", "foo:\n\techo a\n  echo b\n"),
  C("extra_leading_whitespace", "foo:\n  echo a\n      echo b\n"),
  C("recipe_depends_on_itself", """
    foo: foo
    """),
  C("circular_dependency", """
    a: b
    b: c
    c: a
    """),
  C("variable_defined_in_terms_of_itself", """
    x := x + "a"
    """),
  C("variable_circular_dependency", """
    a := b
    b := c
    c := a
    """),
  C("dependency_too_many_arguments", """
    a x y='z':
    b: (a '1' '2' '3')
    """),
  C("dependency_too_few_arguments", """
    a x y:
    b: (a '1')
    """),
  C("dependency_arguments_to_zero_param_recipe", """
    a:
    b: (a '1')
    """),
  C("dependency_missing_required_argument", """
    a x:
    b: a
    """),
  C("duplicate_parameter", """
    foo a a:
    """),
  C("non_default_after_default", """
    foo a='x' b:
    """),
  C("parameter_after_variadic", """
    foo +a b:
    """),
  C("unknown_setting", """
    set nonsense := true
    """),
  C("setting_redefined", """
    set export
    set export := false
    """),
  C("unknown_attribute", """
    [nonsense]
    foo:
    """),
  C("duplicate_attribute", """
    [private]
    [private]
    foo:
    """),
  C("attribute_argument_count", """
    [private('x')]
    foo:
    """),
  C("attribute_on_alias_invalid", """
    foo:
    [linux]
    alias f := foo
    """),
  C("extraneous_attribute", """
    foo:
    [private]
    """),
  C("alias_unknown_target", """
    alias a := nope
    """),
  C("invalid_escape_in_string", r"""
    x := "\z"
    """),
  C("invalid_escape_in_triple_string", 'x := """\n  hello\n  \\z\n"""\n'),
  C("unknown_start_of_token", """
    x := ^
    """),
  C("unknown_start_of_token_unicode", """
    x := ¿
    """),
  C("mismatched_closing_delimiter", """
    x := ("a"]
    """),
  C("unexpected_closing_delimiter", """
    x := "a")
    """),
  C("unpaired_carriage_return", "x := 'a'\rfoo:\n"),
  C("expected_keyword_true_false", """
    set export := yes
    """),
  C("backtick_cannot_start_with_shebang", """
    x := `#!/bin/sh`
    """),
  C("unexported_multiple_times", """
    unexport FOO
    unexport FOO
    """),
  C("exported_and_unexported", """
    export FOO := "a"
    unexport FOO
    """),
  C("shell_recipe_with_script_attribute", """
    [extension('.sh')]
    foo:
      echo hi
    """),
  C("no_cd_and_working_directory", """
    [no-cd]
    [working-directory('x')]
    foo:
    """),
  C("import_missing_file", """
    import 'missing.just'
    """),
  C("module_missing_file", """
    mod missing
    """),
  C("expected_recipe_body_token", """
    foo
    """),
  C("missing_colon_in_recipe", """
    foo bar
    """),
  C("string_in_parameter_list", """
    foo x=y 'z':
    """),
  C("string_in_dependency_list", """
    foo: 'x'
    """),
  C("unclosed_dependency_paren", "foo: (bar"),
  C("assignment_missing_value", "x :=\n"),
  C("assignment_trailing_junk", "x := 'a' foo:\n"),
  C("chained_comparison", "x := 'a' == 'b' == 'c'\n"),
  C("else_without_brace", "x := if 'a' == 'b' { 'c' } else 'd'\n"),
  C("misspelled_else", "x := if 'a' == 'b' { 'c' } elze { 'd' }\n"),
  C("group_with_two_values", "x := ('a' 'b')\n"),
  C("call_missing_comma", "x := f(a b)\n"),
  C("interpolation_two_values", "foo:\n  echo {{ 'a' 'b' }}\n"),
  C("empty_interpolation", "foo:\n  echo {{ }}\n"),
  C("lone_colon", ":\n"),
  C("dependency_list_only_andand", "foo: &&\n"),
  C("alias_trailing_identifier", "alias a := foo bar\n"),
  C("set_shell_needs_list", "set shell := 'sh'\n"),
  C("attribute_missing_close", "[private,linux unix]\n"),
  C("attribute_at_eof", "[private]\n"),
  C("error_column_after_tab", "foo:\n\techo {{nope}}\n"),
  C("error_line_number_two_digits", "\n" * 11 + "x := nope\n"),
  C("lexer_error_wins_over_parse_error", "x := 'a' )\nfoo: (\n"),
  C("unknown_dependency_in_second_recipe", """
    a: b c
    b:
    """),
  C("unterminated_string_in_recipe_default", """
    foo a="x:
    """),
  C("single_ampersand", "foo: a & b\n"),
  C("bang_without_equals", "x := !\n"),
  C("wide_characters_in_excerpt", 'x := "日本" + nope\n'),
  C("recipe_failure_exit_code", """
    foo:
      @exit 9
    """),
  C("recipe_failure_in_dependency_message", """
    a:
      @exit 4
    b: a
    """, "b"),
  C("shebang_failure_message", """
    foo:
      #!/bin/sh
      exit 6
    """),
  C("unknown_recipe_with_suggestion", """
    hello:
    """, "helo"),
  C("second_unknown_recipe", """
    hello:
    """, "hello", "nope"),
  C("unknown_flag_is_usage_error", """
    hello:
    """, "--frobnicate"),
  C("unstable_feature_without_flag", """
    mod? foo
    x := "a" || "b"
    """),
  C("import_cycle", """
    import 'a.just'
    """, files={"a.just": "import 'justfile'\n"}),
]
