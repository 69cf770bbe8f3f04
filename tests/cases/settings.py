from capture import C

CASES = [
  C("set_export_exports_assignments", """
    set export
    greeting := "hi"
    foo:
      @echo $greeting
    """),
  C("set_export_exports_parameters", """
    set export
    foo p:
      @echo $p
    """, "foo", "param"),
  C("unexport_removes_variable", """
    unexport HOME
    foo:
      @echo "home=${HOME:-unset}"
    """),
  C("set_shell", """
    set shell := ["sh", "-c"]
    foo:
      @echo custom shell
    """),
  C("set_shell_with_extra_argument", """
    set shell := ["sh", "-e", "-c"]
    foo:
      @false; echo not reached
    """),
  C("set_shell_affects_backticks", """
    set shell := ["sh", "-c"]
    x := `echo from backtick`
    foo:
      @echo {{x}}
    """),
  C("set_dotenv_load", """
    set dotenv-load
    foo:
      @echo $DOTENV_VALUE
    """, files={".env": "DOTENV_VALUE=loaded\n"}),
  C("dotenv_not_loaded_by_default", """
    foo:
      @echo "v=${DOTENV_VALUE:-none}"
    """, files={".env": "DOTENV_VALUE=loaded\n"}),
  C("set_dotenv_filename", """
    set dotenv-filename := "custom.env"
    foo:
      @echo $CUSTOM
    """, files={"custom.env": "CUSTOM=from-custom\n"}),
  C("set_dotenv_path", """
    set dotenv-path := "conf/vars.env"
    foo:
      @echo $FROM_PATH
    """, files={"conf/vars.env": "FROM_PATH=yes\n"}),
  C("dotenv_required_missing_error", """
    set dotenv-required
    set dotenv-load
    foo:
    """),
  C("dotenv_quoted_values", """
    set dotenv-load
    foo:
      @echo "$A|$B"
    """, files={".env": "A='single quoted'\nB=\"double\"\n"}),
  C("set_positional_arguments", """
    set positional-arguments
    foo a:
      @echo $1
    """, "foo", "first"),
  C("set_quiet", """
    set quiet
    foo:
      echo quiet
    """),
  C("no_quiet_attribute_overrides_set_quiet", """
    set quiet
    [no-quiet]
    foo:
      echo loud
    """),
  C("set_ignore_comments", """
    set ignore-comments
    foo:
      # not passed to shell
      @echo ran
    """),
  C("set_fallback_searches_parent", """
    parent:
      @echo parent recipe
    """, "parent", files={"sub/justfile": "set fallback\nchild:\n  @echo child\n"}, cwd="sub"),
  C("fallback_not_set_is_error", """
    parent:
      @echo parent recipe
    """, "parent", files={"sub/justfile": "child:\n  @echo child\n"}, cwd="sub"),
  C("set_working_directory", """
    set working-directory := "wd"
    foo:
      @pwd
    """, dirs=["wd"]),
  C("set_tempdir", """
    set tempdir := "tmpdir"
    foo:
      #!/bin/sh
      case "$0" in */tmpdir/*) echo in tempdir ;; *) echo elsewhere ;; esac
    """, dirs=["tmpdir"]),
  C("set_allow_duplicate_variables", """
    set allow-duplicate-variables
    x := "a"
    x := "b"
    foo:
      @echo {{x}}
    """),
  C("set_bool_explicit_false", """
    set quiet := false
    foo:
      echo shown
    """),
  C("set_bool_explicit_true", """
    set quiet := true
    foo:
      echo hidden
    """),
  C("set_string_setting_needs_string", """
    set tempdir := true
    """),
  C("set_shell_needs_string_list", """
    set shell := ["sh", 1]
    """),
  C("set_script_interpreter", """
    set unstable
    set script-interpreter := ["sh", "-eu"]
    [script]
    foo:
      echo scripted
    """),
  C("set_export_with_dollar_variable", """
    export FOO := "exported"
    foo:
      @echo $FOO
    """),
  C("env_var_visible_to_recipe", """
    foo:
      @echo $CUSTOM_VAR
    """, env={"CUSTOM_VAR": "from-env"}),
  C("just_env_vars_set_for_recipes", """
    foo:
      @echo "${JUST_JUSTFILE:-unset}"
    """),
  C("set_windows_shell_ignored_on_unix", """
    set windows-shell := ["cmd", "/c"]
    foo:
      @echo unix shell used
    """),
  C("set_no_exit_message", """
    set no-exit-message
    foo:
      @exit 3
    """),
  C("set_lists_requires_unstable", """
    set lists
    """),
  C("set_unstable_enables_features", """
    set unstable
    x := "a" || "b"
    """, "--evaluate"),
]
