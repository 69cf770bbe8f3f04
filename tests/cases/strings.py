from capture import C

def ev(name, body, *args, **kw):
  """An `--evaluate` case: print every assignment of `body`."""
  return C(name, body, "--evaluate", *args, **kw)

CASES = [
  ev("single_quoted_is_raw", r"""
    x := 'a\tb\n'
    """),
  ev("double_quoted_escapes", r"""
    x := "tab\there"
    y := "quote\"inside"
    z := "back\\slash"
    """),
  ev("double_quoted_newline_and_cr_escapes", r"""
    x := "a\nb\rc"
    """),
  ev("escaped_line_break_in_double_quotes", 'x := "one \\\n   two"\n'),
  ev("unicode_escape", r"""
    x := "\u{1F916} \u{41}"
    """),
  ev("triple_single_quoted_unindented", """
    x := '''
      line one
        line two
    '''
    """),
  ev("triple_double_quoted_escapes_and_unindent", r'''
    x := """
      a\tb
      c
    """
    '''),
  ev("triple_quoted_first_newline_stripped", """
    x := '''
    kept'''
    """),
  ev("backtick_captures_stdout_trimmed", """
    x := `echo "  padded  "`
    """),
  ev("backtick_strips_single_trailing_newline", """
    x := `printf 'a\\n\\n'`
    """),
  ev("triple_backtick_unindented", """
    x := ```
      echo one
      echo two
    ```
    """),
  ev("backtick_failure_status", """
    x := `exit 3`
    """),
  ev("backtick_sees_exported_vars", """
    export A := "exported"
    b := `echo ${A:-unset}`
    """),
  ev("concatenation", """
    x := "a" + 'b' + `echo c`
    """),
  ev("path_join_operator", """
    x := "a" / "b"
    y := "a/" / "/b"
    z := / "root"
    """),
  ev("path_join_precedence_with_plus", """
    x := "a" + "b" / "c"
    """),
  ev("format_string_interpolation", """
    name := "world"
    x := f'hello {{name}}!'
    """),
  ev("format_string_double_quoted_escape", r"""
    v := "V"
    x := f"tab\t{{v}}"
    """),
  ev("format_string_escaped_braces", """
    x := f'{{{{literal}}'
    """),
  ev("format_string_expression", """
    a := "1"
    x := f'{{a + "2"}} and {{ uppercase("z") }}'
    """),
  ev("shell_expanded_string_env", """
    x := x'${HOME}/dir'
    y := x'$HOME'
    """, env={"HOME": "/home/tester"}),
  ev("shell_expanded_string_tilde", """
    x := x'~/sub'
    """, env={"HOME": "/home/tester"}),
  ev("shell_expanded_default_value", """
    x := x'${UNSET_VARIABLE_FOR_TEST:-fallback}'
    """),
  ev("shell_expanded_unset_is_error", """
    x := x'$UNSET_VARIABLE_FOR_TEST'
    """),
  C("interpolation_double_brace_escape_in_recipe", """
    foo:
      @echo '{{{{ x }}'
    """),
  C("interpolation_string_literal", """
    foo:
      @echo {{ "lit" }}
    """),
  C("interpolation_nested_quotes", """
    foo:
      @echo {{ 'a "b" c' }}
    """),
  C("interpolation_concatenation", """
    a := "x"
    foo:
      @echo {{ a + "y" + a }}
    """),
  C("invalid_escape_sequence", r"""
    x := "\q"
    """),
  C("unterminated_string", """
    x := "abc
    """),
  C("unterminated_single_quoted_string", """
    x := 'abc
    """),
  C("unterminated_backtick", """
    x := `abc
    """),
  C("unterminated_interpolation", """
    foo:
      echo {{ x
    """),
  C("backtick_starting_with_shebang", """
    x := `#!/bin/sh`
    """),
  C("unterminated_format_string", """
    x := f'abc {{ "d" }}
    """),
  ev("empty_strings", """
    a := ''
    b := ""
    c := ''''''
    """),
  ev("string_with_hash_is_not_comment", """
    x := "a # b" # real comment
    """),
  ev("evaluate_single_variable", """
    a := "1"
    b := "2"
    """, "b"),
  ev("utf8_content", """
    x := "héllo wörld ✓"
    """),
  ev("unicode_escape_too_long_error", r"""
    x := "\u{1234567}"
    """),
  ev("unicode_escape_unterminated_error", r"""
    x := "\u{41"
    """),
]
