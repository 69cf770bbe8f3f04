from capture import C

RECIPE = """
  a:
    echo hi
  """

NESTED = """
  mod a
  """

NESTED_FILES = {"a/justfile": "mod b\nx:\n", "a/b/justfile": "y:\n"}

CASES = [
  # CLI: empty and odd option values.
  C("empty_chooser_is_rejected", RECIPE, "--chooser", ""),
  C("empty_chooser_environment_is_rejected", RECIPE, "--choose", env={"JUST_CHOOSER": ""}),
  C("empty_cygpath_is_rejected", RECIPE, "--cygpath", ""),
  C("empty_cygpath_environment_is_rejected", RECIPE, env={"JUST_CYGPATH": ""}),
  C("empty_dotenv_path_is_accepted", RECIPE, "--dotenv-path", ""),
  C("empty_dotenv_path_still_searches_for_dotenv", """
    a:
      echo $X
    """, "--dotenv-path", "", files={".env": "X=1\n"}),
  C("empty_dotenv_path_with_dotenv_required_and_no_file", """
    set dotenv-required
    a:
    """, "--dotenv-path", ""),
  # Listing: module paths are checked before the justfile is read.
  C("show_empty_path_is_invalid_module_path", RECIPE, "--show", ""),
  C("show_double_colon_is_invalid_module_path", RECIPE, "--show", "::"),
  C("usage_empty_path_is_invalid_module_path", RECIPE, "--usage", ""),
  C("usage_trailing_double_colon_is_invalid_module_path", RECIPE, "--usage", "a::"),
  C("list_empty_path_is_invalid_module_path", RECIPE, "--list", ""),
  C("clean_double_colon_is_invalid_module_path", RECIPE, "--clean", "::"),
  C("show_invalid_module_path_without_justfile", None, "--show", "::"),
  C("show_non_identifier_is_invalid_module_path", RECIPE, "--show", "$x"),
  C("show_path_word_with_double_colon_among_words_is_invalid", RECIPE, "--show", "a::b", "c"),
  C("show_empty_word_after_module_is_invalid", RECIPE, "--show", "m", ""),
  C("show_blank_path_requires_recipe", RECIPE, "--show", " "),
  C("usage_blank_path_requires_recipe", RECIPE, "--usage", " "),
  C("show_path_with_surrounding_spaces_and_double_colon", NESTED, "--show", " a::x ",
    files=NESTED_FILES),
  C("usage_path_with_extra_spaces_is_normalised", NESTED, "--usage", " a  x ",
    files=NESTED_FILES),
  C("list_path_with_leading_space_and_double_colon", NESTED, "--list", " a::b",
    files=NESTED_FILES),
  # Lexer.
  C("mismatched_delimiter_names_line_of_first_format_interpolation",
    'x := f"abc\n\n{{ a ) }}"\n'),
  C("mismatched_delimiter_in_later_format_interpolation_names_first",
    'x := f"\n{{ b }}\n\n{{ a ) }}"\n'),
  C("mismatched_delimiter_in_indented_format_string",
    'x := f"""\nabc {{ b }}\nx\n{{ a ) }}"""\n'),
  # Evaluation.
  C("backtick_with_non_utf8_stdout", """
    x := `printf '\\377'`
    a:
      echo {{x}}
    """),
  # Execution.
  C("invalid_shebang_keeps_trailing_spaces", "a:\n  #!   \n  echo hi\n"),
  C("invalid_shebang_shows_interpolated_line", "a:\n  #!   {{''}}  \n  echo hi\n"),
  C("invalid_shebang_without_spaces", "a:\n  #!\n  echo hi\n"),
  # Modules: a directory where a module file is expected is read (and fails).
  C("module_justfile_is_a_directory", "mod sub\n", dirs=["sub/justfile"]),
  C("module_dot_just_is_a_directory", "mod sub\n", dirs=["sub.just"]),
  C("module_mod_just_is_a_directory", "mod sub\n", dirs=["sub/mod.just"]),
  C("module_path_justfile_is_a_directory", 'mod s "x"\n', dirs=["x/justfile"]),
  C("module_directory_candidate_counts_for_ambiguity", "mod sub\n", dirs=["sub/justfile"],
    files={"sub/mod.just": ""}),
  C("module_missing_reported_before_directory_read", 'mod sub\nmod s "x"\n',
    dirs=["sub/justfile"]),
  # Which error is reported first.
  C("list_literal_condition_reports_list_literal_first", 'x := if [] { "b" } else { "c" }\n'),
  C("negated_condition_reports_negation_first", 'x := if !"a" { "b" } else { "c" }\n'),
  C("logical_assert_condition_reports_operator_first", 'x := assert("a" && "b", "m")\n'),
  C("grouped_comparison_condition_reports_comparison_first",
    'x := if ("a" == "b") { "b" } else { "c" }\n'),
  C("plain_string_condition_reports_condition", 'x := if ("a") { "b" } else { "c" }\n'),
  C("cache_unknown_keys_reported_alphabetically", '[cache(value="a", short="b")]\na:\n'),
  C("arg_unknown_keys_reported_alphabetically", '[arg("a", zz="a", bb="b")]\na a:\n'),
  C("tempdir_list_caret_on_setting_name", "set lists\nset tempdir := []\n"),
  C("arg_for_undefined_parameter_wins_over_later_parse_error", "[arg('b')]\na: (\n"),
  C("arg_for_undefined_parameter_wins_over_later_item_parse_error",
    "[arg('c')]\nr a:\nx := (\n"),
  C("parameter_parse_error_wins_over_undefined_arg", "[arg('b')]\na c=(:\n"),
  C("setting_function_arity_before_later_undefined_variable", "set shell := [env(), x]\n"),
  C("setting_undefined_function_before_undefined_variable", "set tempdir := nope() + y\n"),
  C("setting_undefined_variable_before_later_call", "set shell := [x, env()]\n"),
]
