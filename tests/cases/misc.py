from capture import C

SIMPLE = """
x := "value"

# Say hello
hello name="world":
  echo hello {{name}}

fail:
  @echo failing
  exit 2
"""

CASES = [
  C("version_flag", None, "--version"),
  C("version_short_flag", None, "-V"),
  C("dry_run_prints_without_running", SIMPLE, "--dry-run", "hello"),
  C("dry_run_shows_at_lines", """
    foo:
      @echo quiet
    """, "--dry-run"),
  C("dry_run_shebang_recipe", """
    foo:
      #!/bin/sh
      echo hi
    """, "--dry-run"),
  C("dry_run_short_n", SIMPLE, "-n", "fail"),
  C("quiet_flag_suppresses_echo", SIMPLE, "--quiet", "hello"),
  C("quiet_flag_suppresses_error_message", SIMPLE, "--quiet", "fail"),
  C("quiet_short_q", SIMPLE, "-q", "hello"),
  C("verbose_flag", SIMPLE, "--verbose", "hello"),
  C("verbose_flag_quiet_line", """
    foo:
      @echo x
    """, "-v"),
  C("verbose_twice", SIMPLE, "-vv", "hello"),
  C("color_always_error", SIMPLE, "--color", "always", "nope"),
  C("color_always_echo", SIMPLE, "--color", "always", "hello"),
  C("color_always_compile_error", "x := y\n", "--color", "always"),
  C("color_never", SIMPLE, "--color", "never", "nope"),
  C("color_invalid_value", SIMPLE, "--color", "sometimes"),
  C("just_color_env", SIMPLE, "nope", env={"JUST_COLOR": "always"}),
  C("just_dry_run_env", SIMPLE, "hello", env={"JUST_DRY_RUN": "true"}),
  C("just_quiet_env", SIMPLE, "hello", env={"JUST_QUIET": "true"}),
  C("just_verbose_env", SIMPLE, "hello", env={"JUST_VERBOSE": "1"}),
  C("just_unstable_env", """
    x := "a" || "b"
    """, "--evaluate", env={"JUST_UNSTABLE": "1"}),
  C("unstable_flag", """
    x := "a" || "b"
    """, "--unstable", "--evaluate"),
  C("just_list_heading_env", SIMPLE, "--list", env={"JUST_LIST_HEADING": "Recipes:\n"}),
  C("just_list_prefix_env", SIMPLE, "--list", env={"JUST_LIST_PREFIX": "  * "}),
  C("just_shell_flag", SIMPLE, "--shell", "sh", "--shell-arg", "-c", "hello"),
  C("just_shell_env", SIMPLE, "hello", env={"JUST_SHELL": "sh"}),
  C("choose_without_chooser_fails", SIMPLE, "--choose", env={"JUST_CHOOSER": "false"}),
  C("highlight_flag_echoes", SIMPLE, "--highlight", "hello"),
  C("no_highlight_flag", SIMPLE, "--no-highlight", "hello"),
  C("yes_flag_without_confirm", SIMPLE, "--yes", "hello"),
  C("one_flag_rejects_multiple", SIMPLE, "--one", "hello", "fail"),
  C("explain_flag", SIMPLE, "--explain", "hello"),
  C("command_flag", SIMPLE, "--command", "echo", "direct"),
  C("command_flag_sees_exports", """
    export V := "exported"
    """, "--command", "sh", "-c", "echo $V"),
  C("fmt_check_on_formatted_justfile", "foo:\n    echo hi\n", "--fmt", "--check", "--unstable"),
  C("fmt_check_on_unformatted_justfile", "foo :\n  echo hi\n", "--fmt", "--check", "--unstable"),
  C("fmt_rewrites_justfile", "x:='a'\nfoo :\n  echo hi\n", "--fmt", "--unstable",
    expect_files=["justfile"]),
  C("edit_flag_without_editor", SIMPLE, "--edit", env={"VISUAL": "true"}),
  C("set_and_positional_override", SIMPLE, "--set", "x", "over", "--evaluate", "x"),
  C("dotenv_filename_flag", """
    set dotenv-load
    foo:
      @echo $V
    """, "--dotenv-filename", "x.env", files={"x.env": "V=from-x\n"}),
  C("dotenv_path_flag", """
    foo:
      @echo $V
    """, "--dotenv-path", "y.env", files={"y.env": "V=from-y\n"}),
  C("working_directory_flag_requires_justfile", SIMPLE, "--working-directory", "."),
  C("init_on_existing_justfile", SIMPLE, "--init"),
  C("init_creates_default_justfile", None, "--init", env={"JUST_CEILING": "{{TMP}}"},
    expect_files=["justfile"]),
  C("conflicting_subcommands", SIMPLE, "--list", "--summary"),
  C("list_with_argument_for_unknown_module", SIMPLE, "--list", "nope"),
  C("evaluate_and_recipe_conflict", SIMPLE, "--evaluate", "hello"),
  C("variables_with_overrides", SIMPLE, "x=1", "--variables"),
  C("comments_between_recipes", """
    # comment one
    a:
      @echo a
    # comment two

    # doc for b
    b:
      @echo b # not a comment for just
    """, "b"),
  C("export_assignment_to_backtick", """
    export A := "x"
    b := `echo ${A:-unset}-backtick`
    foo:
      @echo {{b}}
    """),
  C("recipe_env_includes_justfile_exports_only", """
    foo:
      @echo "${A:-unset}"
    """),
  C("module_recipe_invocation", """
    mod sub
    """, "sub", "inner", files={"sub.just": "inner:\n  @echo inner ran\n"}),
  C("module_path_invocation", """
    mod sub
    """, "sub::inner", files={"sub.just": "inner:\n  @echo inner ran\n"}),
  C("module_in_directory", """
    mod sub
    """, "sub::inner", files={"sub/mod.just": "inner:\n  @pwd\n"}),
  C("import_adds_recipes", """
    import 'other.just'
    top:
      @echo top
    """, "imported", files={"other.just": "imported:\n  @echo imported\n"}),
  C("optional_import_missing_ok", """
    import? 'missing.just'
    top:
      @echo top
    """),
]
