"""Minimal cases for discrepancies found by bench/difffuzz.py."""

from capture import C

COMMENT_AFTER_BODY = """
a:
  echo a
#doc b
b:
  echo b
c: # header
  echo c
#  e
#tail
"""

CASES = [
  C("dump_keeps_comment_line_after_recipe_body", COMMENT_AFTER_BODY, "--dump"),
  C("fmt_check_comment_line_after_recipe_body", COMMENT_AFTER_BODY, "--fmt", "--check",
    "--unstable"),
  C("list_doc_comment_after_recipe_body", COMMENT_AFTER_BODY, "--list"),
  C("dump_comment_after_body_then_blank_line", """
    a:
      echo a
    #!x

    d:
    """, "--dump"),
  C("json_body_keeps_escaped_braces", """
    a:
      echo {{{{x}} {{{{{ y
    """, "--dump", "--dump-format", "json"),
  C("list_width_counts_line_ends_in_default", '''
    # doc
    k:
    b arg0=("""
      x/y
        indented
      """):
    ''', "--list"),
  C("list_width_counts_control_characters", "# doc\nk:\nb arg0='a\x1bb\rc':\n", "--list"),
  C("list_width_counts_crlf_once", "# doc\nk:\nb arg0='a\r\nb':\n", "--list"),
  C("show_invalid_module_path_checked_before_reading_justfile", "a\x00:\n", "--show", "1x"),
  C("show_non_ascii_path_is_invalid", "a:\n", "--show", "d\u00e9j\u00e0"),
  C("show_empty_path_is_invalid", "a:\n", "--show", ""),
  C("show_trailing_separator_path_is_invalid", "a:\n", "--show", "a::"),
  C("show_words_are_joined_into_one_path", "a:\n", "--show", "a", "b::c"),
  C("show_spaced_path_is_submodule_lookup", "a:\n", "--show", "a b"),
  C("usage_invalid_module_path", "a:\n", "--usage", "1x"),
  C("error_excerpt_keeps_lone_carriage_return_at_end_of_file", "a:\n\r", "--dump"),
  C("error_excerpt_drops_crlf_line_end", "a := b\r\n", "--dump"),
  C("backtick_in_missing_working_directory_reports_io_error", """
    set working-directory := "nope"
    x := `echo hi`
    a:
      echo {{x}}
    """),
  C("indentation_setting_starting_with_space_is_mixed", "set indentation := ' ,'\n", "--dump"),
  C("indentation_setting_starting_with_other_is_not_whitespace",
    "set indentation := ', '\n", "--dump"),
  C("indentation_flag_starting_with_tab_is_mixed", "a:\n", "--indentation", "\t,", "--dump"),
]
