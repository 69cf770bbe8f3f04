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
]
