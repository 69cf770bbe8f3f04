from capture import C

GREET = """
greet name greeting="hello":
  @echo {{greeting}} {{name}}
"""

VARIADIC_PLUS = """
build +targets:
  @echo building {{targets}}
"""

VARIADIC_STAR = """
test *flags:
  @echo "flags=[{{flags}}]"
"""

CASES = [
  C("required_parameter_passed", GREET, "greet", "bob"),
  C("default_parameter_used", GREET, "greet", "bob"),
  C("default_parameter_overridden", GREET, "greet", "bob", "hi"),
  C("missing_required_argument_usage", GREET, "greet"),
  C("too_many_arguments_become_recipe_names", GREET, "greet", "a", "b", "c"),
  C("exact_argument_count_usage", """
    two a b:
      @echo {{a}} {{b}}
    """, "two", "x"),
  C("plus_variadic_one", VARIADIC_PLUS, "build", "x"),
  C("plus_variadic_many", VARIADIC_PLUS, "build", "x", "y", "z"),
  C("plus_variadic_none_is_error", VARIADIC_PLUS, "build"),
  C("star_variadic_none", VARIADIC_STAR, "test"),
  C("star_variadic_many", VARIADIC_STAR, "test", "-v", "--fast"),
  C("variadic_with_default", """
    f +xs='a b':
      @echo {{xs}}
    """),
  C("parameter_default_from_variable", """
    v := "dflt"
    f x=v:
      @echo {{x}}
    """),
  C("parameter_default_expression", """
    v := "d"
    f x=(v + "-suffix"):
      @echo {{x}}
    """),
  C("parameter_default_backtick", """
    f x=`echo computed`:
      @echo {{x}}
    """),
  C("dollar_parameter_is_env_var", """
    f $X:
      @echo "env X=$X"
    """, "f", "exported"),
  C("dollar_variadic_parameter", """
    f +$XS:
      @echo "XS=$XS"
    """, "f", "a", "b"),
  C("argument_with_spaces_kept_in_interpolation", GREET, "greet", "two words"),
  C("argument_containing_equals_is_not_override", GREET, "greet", "a=b"),
  C("override_variable_with_name_equals_value", """
    x := "default"
    f:
      @echo {{x}}
    """, "x=override", "f"),
  C("override_with_set_flag", """
    x := "default"
    f:
      @echo {{x}}
    """, "--set", "x", "flagged", "f"),
  C("override_unknown_variable_error", """
    x := "default"
    f:
      @echo {{x}}
    """, "y=1", "f"),
  C("override_only_runs_default_recipe", """
    x := "default"
    f:
      @echo {{x}}
    """, "x=1"),
  C("recipe_with_args_then_other_recipe", """
    a x:
      @echo a {{x}}
    b:
      @echo b
    """, "a", "1", "b"),
  C("positional_arguments_setting", """
    set positional-arguments
    f a b:
      @echo "$0 $1 $2"
    """, "f", "one", "two"),
  C("positional_arguments_attribute", """
    [positional-arguments]
    f a:
      @echo "$1"
    """, "f", "pos"),
  C("positional_arguments_variadic_all", """
    set positional-arguments
    f *args:
      @echo "$@"
    """, "f", "x", "y"),
  C("parameter_used_in_dependency_argument", """
    a x:
      @echo a got {{x}}
    b y: (a y)
      @echo b got {{y}}
    """, "b", "val"),
  C("usage_shows_default_values", """
    f a b='x' +c='y z':
      @echo hi
    """, "f"),
  C("usage_for_star_variadic", """
    f a *rest:
      @echo hi
    """, "f"),
  C("arg_attribute_pattern_accepts", """
    [arg('n', pattern='[0-9]+')]
    f n:
      @echo {{n}}
    """, "f", "123"),
  C("arg_attribute_pattern_rejects", """
    [arg('n', pattern='[0-9]+')]
    f n:
      @echo {{n}}
    """, "f", "abc"),
  C("double_dash_is_argument", """
    f *a:
      @echo {{a}}
    """, "f", "--", "x"),
  C("flag_after_recipe_is_argument", """
    f *a:
      @echo {{a}}
    """, "f", "--foo"),
  C("set_flag_for_unknown_variable", """
    f:
      @echo hi
    """, "--set", "nope", "1"),
  C("parameter_shadows_variable", """
    x := "global"
    f x:
      @echo {{x}}
    """, "f", "local"),
  C("argument_with_quote_characters", """
    f a:
      @echo "{{a}}"
    """, "f", "it's"),
  C("quote_function_on_argument", """
    f a:
      @echo {{quote(a)}}
    """, "f", "it's"),
]
