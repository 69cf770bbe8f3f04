from capture import C

J = "--json"

CASES = [
  # ---- allow-duplicate-recipes / variables
  C("dup_recipe_error_same_file", """
    a:
      echo 1
    a:
      echo 2
    """),
  C("dup_recipe_allowed_last_wins", """
    set allow-duplicate-recipes
    a:
      @echo 1
    a:
      @echo 2
    """),
  C("dup_recipe_allowed_false_errors", """
    set allow-duplicate-recipes := false
    a:
    a:
    """),
  C("dup_recipe_error_in_import", """
    import 'x.just'
    a:
      @echo root
    """, files={"x.just": "a:\n  @echo import\n"}),
  C("dup_recipe_import_shallower_wins", """
    set allow-duplicate-recipes
    import 'x.just'
    a:
      @echo root
    """, files={"x.just": "a:\n  @echo import\n"}),
  C("dup_recipe_import_before_root_shallower_wins", """
    set allow-duplicate-recipes
    a:
      @echo root
    import 'x.just'
    """, files={"x.just": "a:\n  @echo import\n"}),
  C("dup_recipe_sibling_imports_earlier_wins", """
    set allow-duplicate-recipes
    import 'x.just'
    import 'y.just'
    """, files={"x.just": "a:\n  @echo x\n", "y.just": "a:\n  @echo y\n"}),
  C("dup_recipe_nested_import_depth", """
    set allow-duplicate-recipes
    import 'x.just'
    import 'y.just'
    """, files={"x.just": "import 'z.just'\n", "y.just": "a:\n  @echo y\n",
                "z.just": "a:\n  @echo z\n"}),
  C("dup_recipe_vs_alias_never_allowed", """
    set allow-duplicate-recipes
    alias a := b
    b:
    a:
    """),
  C("dup_recipe_allowed_json", """
    set allow-duplicate-recipes
    a:
      echo 1
    a x:
      echo 2
    """, J),
  C("dup_variable_error", """
    x := 'a'
    x := 'b'
    a:
    """),
  C("dup_variable_allowed_last_wins", """
    set allow-duplicate-variables
    x := 'a'
    x := 'b'
    a:
      @echo {{x}}
    """),
  C("dup_variable_import_shallower_wins", """
    set allow-duplicate-variables
    import 'x.just'
    x := 'root'
    a:
      @echo {{x}}
    """, files={"x.just": "x := 'import'\n"}),
  C("dup_variable_sibling_imports", """
    set allow-duplicate-variables
    import 'x.just'
    import 'y.just'
    a:
      @echo {{x}}
    """, files={"x.just": "x := 'x'\n", "y.just": "x := 'y'\n"}),
  C("dup_variable_error_in_import", """
    import 'x.just'
    x := 'root'
    a:
    """, files={"x.just": "x := 'import'\n"}),
  C("dup_variable_export_mismatch", """
    set allow-duplicate-variables
    export x := 'a'
    x := 'b'
    a:
      @echo "${x:-unset}"
    """),
  # ---- default-list
  C("default_list_lists", """
    set default-list
    # build it
    build:
    test:
    """),
  C("default_list_false_runs", """
    set default-list := false
    build:
      @echo built
    """),
  C("default_list_with_args_runs", """
    set default-list
    build:
      @echo built
    """, "build"),
  C("default_list_submodule", """
    mod sub
    a:
    """, "sub", files={"sub.just": "set default-list\nx:\ny:\n"}),
  C("default_list_json", "set default-list\na:\n", J),
  # ---- default-script
  C("default_script_runs_as_script", """
    set default-script
    a:
      x=1
      echo $x
    """),
  C("default_script_shell_attr_linewise", """
    set default-script
    [shell]
    a:
      echo linewise
    """),
  C("default_script_uses_script_interpreter", """
    set default-script
    set script-interpreter := ['bash']
    a:
      echo ${BASH_VERSION:+bash}
    """),
  C("default_script_error_message", """
    set default-script
    a:
      exit 3
    """),
  C("default_script_quiet_recipe_echo", """
    set default-script
    @a:
      echo hi
    """),
  C("default_script_json_shebang_flag", "set default-script\na:\n  echo\n", J),
  C("default_script_extension_allowed", """
    set default-script
    [extension('.sh')]
    a:
      echo $(basename "$0")
    """),
  # ---- dotenv
  C("dotenv_load_false", """
    set dotenv-load := false
    a:
      @echo "${A:-none}"
    """, files={".env": "A=1\n"}),
  C("dotenv_override_enables_loading", """
    set dotenv-override
    a:
      @echo "$A"
    """, files={".env": "A=file\n"}, env={"A": "env"}),
  C("dotenv_no_override_env_wins", """
    set dotenv-load
    a:
      @echo "$A"
    """, files={".env": "A=file\n"}, env={"A": "env"}),
  C("dotenv_required_found", """
    set dotenv-required
    a:
      @echo "$A"
    """, files={".env": "A=1\n"}),
  C("dotenv_required_alone_missing", """
    set dotenv-required
    a:
    """),
  C("dotenv_filename_list_requires_lists", """
    set dotenv-filename := ['a.env', 'b.env']
    a:
    """),
  C("dotenv_path_missing_falls_back", """
    set dotenv-path := 'nope.env'
    a:
      @echo "$A"
    """, files={".env": "A=root\n"}),
  C("dotenv_path_missing_no_env", """
    set dotenv-path := 'nope.env'
    a:
      @echo "${A:-none}"
    """),
  C("dotenv_path_missing_required", """
    set dotenv-path := 'nope.env'
    set dotenv-required
    a:
    """),
  C("dotenv_filename_in_parent", """
    set dotenv-filename := '.custom'
    a:
      @echo "$B"
    """, files={"../.custom_never": ""}, ),
  C("dotenv_command", """
    set dotenv-command := 'echo C=cmd'
    a:
      @echo "$C"
    """),
  C("dotenv_command_failure", """
    set dotenv-command := 'exit 4'
    a:
    """),
  C("dotenv_command_parse_failure", """
    set dotenv-command := 'echo A B'
    a:
    """),
  C("dotenv_command_with_load_incompatible", """
    set dotenv-command := 'echo'
    set dotenv-load
    a:
    """),
  C("dotenv_load_then_command_incompatible", """
    set dotenv-load
    set dotenv-command := 'echo'
    a:
    """),
  C("dotenv_command_with_load_false_ok", """
    set dotenv-command := 'echo A=x'
    set dotenv-load := false
    a:
      @echo $A
    """),
  C("dotenv_command_with_filename_incompatible", """
    set dotenv-command := 'echo'
    set dotenv-filename := 'x'
    a:
    """),
  C("dotenv_command_with_path_incompatible", """
    set dotenv-path := 'x'
    set dotenv-command := 'echo'
    a:
    """),
  C("dotenv_command_with_required_incompatible", """
    set dotenv-required
    set dotenv-command := 'echo'
    a:
    """),
  C("dotenv_command_with_override_ok", """
    set dotenv-override
    set dotenv-command := 'echo A=cmd'
    a:
      @echo $A
    """, env={"A": "env"}),
  C("dotenv_settings_json", """
    set dotenv-filename := 'f.env'
    set dotenv-path := 'p.env'
    set dotenv-load
    set dotenv-override
    set dotenv-required
    a:
    """, J, files={"p.env": "X=1\n"}),
  C("dotenv_command_json", "set dotenv-command := 'echo A=1'\na:\n", J),
  C("dotenv_filename_variable", """
    name := 'v.env'
    set dotenv-filename := name
    a:
      @echo $V
    """, files={"v.env": "V=var\n"}),
  C("dotenv_filename_undefined_variable", """
    set dotenv-filename := nope
    a:
    """),
  C("dotenv_filename_override_variable", """
    name := 'v.env'
    set dotenv-filename := name
    a:
      @echo $V
    """, "name=w.env", "a", files={"v.env": "V=v\n", "w.env": "V=w\n"}),
  C("dotenv_export_prefix_and_comment", """
    set dotenv-load
    a:
      @echo "$A $B"
    """, files={".env": "# comment\nexport A=1\nB=${A}2\n"}),
  C("dotenv_parse_error", """
    set dotenv-load
    a:
    """, files={".env": "A B\n"}),
  C("dotenv_env_function", """
    set dotenv-load
    x := env('A')
    a:
      @echo {{x}}
    """, files={".env": "A=fromfile\n"}),
  C("dotenv_backtick_sees_value", """
    set dotenv-load
    x := `echo $A`
    a:
      @echo {{x}}
    """, files={".env": "A=fromfile\n"}),
  C("dotenv_no_dotenv_flag", """
    set dotenv-load
    a:
      @echo "${A:-none}"
    """, "--no-dotenv", files={".env": "A=1\n"}),
  # ---- export
  C("export_false", """
    set export := false
    x := 'a'
    a:
      @echo "${x:-unset}"
    """),
  C("export_backtick_does_not_see_own_module", """
    set export
    x := 'a'
    y := `echo ${x:-unset}`
    a:
      @echo {{y}}
    """),
  C("export_unexport", """
    set export
    x := 'a'
    unexport x
    a:
      @echo "${x:-unset}"
    """),
  C("export_constants_not_exported", """
    set export
    a:
      @echo "${HEX:-unset}"
    """),
  C("export_shell_function_in_recipe", """
    set export
    x := 'v'
    a:
      @echo {{shell('echo $x')}}
    """),
  C("export_json", "set export\nx := 'a'\nunexport Y\na:\n", J),
  # ---- fallback
  C("fallback_false", """
    set fallback := false
    """, "b", files={"../never": ""}),
  C("fallback_json", "set fallback\na:\n", J),
  # ---- guards
  C("guards_exit_one_stops_recipe", """
    set guards
    a:
      ?exit 1
      echo not reached
    b: a
      @echo b ran
    """, "b"),
  C("guards_exit_zero_continues", """
    set guards
    a:
      ?true
      echo reached
    """),
  C("guards_reserved_code", """
    set guards
    a:
      ?exit 2
    """),
  C("guards_off_passed_to_shell", """
    a:
      ?echo hi
    """),
  C("guards_with_infallible_error", """
    set guards
    a:
      -?exit 1
    """),
  C("guards_with_quiet_sigil", """
    set guards
    a:
      @?exit 1
      echo no
    """),
  C("guards_json", "set guards\na:\n", J),
  # ---- ignore-comments
  C("ignore_comments_skips_interpolation", """
    set ignore-comments
    a:
      # {{nope}}
      echo hi
    """),
  C("ignore_comments_false", """
    set ignore-comments := false
    a:
      # comment
      echo hi
    """),
  C("ignore_comments_continuation_not_comment", """
    set ignore-comments
    a:
      echo a \\
      # b
    """),
  C("ignore_comments_shebang_unaffected", """
    set ignore-comments
    a:
      #!/bin/sh
      # hi
      echo ok
    """),
  C("ignore_comments_json", "set ignore-comments\na:\n", J),
  # ---- indentation
  C("indentation_dump", "set indentation := '  '\na:\n    echo hi\n", "--dump"),
  C("indentation_tabs_dump", "set indentation := '\t'\na:\n    echo hi\n", "--dump"),
  C("indentation_empty", "set indentation := ''\na:\n"),
  C("indentation_mixed", "set indentation := ' \t'\na:\n"),
  C("indentation_other_chars", "set indentation := 'ab'\na:\n"),
  C("indentation_expression_rejected", "set indentation := '  ' + ' '\na:\n"),
  C("indentation_json", "set indentation := '  '\na:\n", J),
  C("indentation_show_unaffected", "set indentation := '  '\na:\n    echo hi\n", "--show", "a"),
  C("indentation_cli_overrides", "set indentation := '  '\na:\n    echo hi\n",
    "--dump", "--indentation", "\t"),
  # ---- lazy
  C("lazy_skips_unused", """
    set lazy
    x := `exit 1`
    a:
      @echo ok
    """),
  C("lazy_false_evaluates", """
    set lazy := false
    x := `exit 1`
    a:
      @echo ok
    """),
  C("lazy_json", "set lazy\na:\n", J),
  # ---- lists / unstable
  C("lists_false_still_unstable", "set lists := false\na:\n"),
  C("lists_json", "set unstable\nset lists\na:\n", J),
  C("unstable_json", "set unstable\na:\n", J),
  C("unstable_false_json", "set unstable := false\na:\n", J),
  # ---- minimum-version
  C("minimum_version_ok", "set minimum-version := '1.0.0'\na:\n  @echo ok\n"),
  C("minimum_version_equal", "set minimum-version := '1.58.0'\na:\n  @echo ok\n"),
  C("minimum_version_too_new", "set minimum-version := '999.0.0'\na:\n"),
  C("minimum_version_too_new_minor", "set minimum-version := '1.59.0'\na:\n"),
  C("minimum_version_two_parts", "set minimum-version := '1.58'\na:\n"),
  C("minimum_version_v_prefix", "set minimum-version := 'v1.2.3'\na:\n"),
  C("minimum_version_prerelease", "set minimum-version := '1.2.3-rc1'\na:\n"),
  C("minimum_version_leading_zero", "set minimum-version := '01.2.3'\na:\n"),
  C("minimum_version_leading_space", "set minimum-version := ' 1.2.3'\na:\n"),
  C("minimum_version_expression", "set minimum-version := '1.0' + '.0'\na:\n"),
  C("minimum_version_json", "set minimum-version := '1.0.0'\na:\n", J),
  C("minimum_version_dump", "set minimum-version := \"1.0.0\"\na:\n", "--dump"),
  C("minimum_version_double_quoted", "set minimum-version := \"1.0.0\"\na:\n  @echo ok\n"),
  C("minimum_version_huge", "set minimum-version := '99999999999999999999.0.0'\na:\n"),
  # ---- no-cd
  C("no_cd_runs_in_invocation_dir", """
    set no-cd
    a:
      @pwd
    """, dirs=["sub"], cwd="sub"),
  C("no_cd_backtick_uses_justfile_dir", """
    set no-cd
    x := `pwd`
    a:
      @echo {{x}}
    """, dirs=["sub"], cwd="sub"),
  C("no_cd_false_with_working_directory", """
    set no-cd := false
    set working-directory := 'sub'
    a:
      @pwd
    """, dirs=["sub"]),
  C("no_cd_with_working_directory_incompatible", """
    set no-cd
    set working-directory := 'sub'
    a:
    """),
  C("working_directory_with_no_cd_incompatible", """
    set working-directory := 'sub'
    set no-cd
    a:
    """),
  C("no_cd_recipe_working_directory_wins", """
    set no-cd
    [working-directory('w')]
    a:
      @pwd
    """, dirs=["sub", "w"], cwd="sub"),
  C("no_cd_json", "set no-cd\na:\n", J),
  # ---- no-exit-message
  C("no_exit_message_false", """
    set no-exit-message := false
    a:
      @exit 3
    """),
  C("no_exit_message_exit_message_attr", """
    set no-exit-message
    [exit-message]
    a:
      @exit 3
    """),
  C("no_exit_message_script", """
    set no-exit-message
    a:
      #!/bin/sh
      exit 4
    """),
  C("no_exit_message_json", "set no-exit-message\na:\n", J),
  # ---- positional-arguments
  C("positional_arguments_dollar_zero", """
    set positional-arguments
    a x y='dflt':
      @echo "$0|$1|$2|$#"
    """, "a", "one"),
  C("positional_arguments_variadic", """
    set positional-arguments
    a *xs:
      @echo "$#:$@"
    """, "a", "1", "2 3"),
  C("positional_arguments_shebang", """
    set positional-arguments
    a x:
      #!/bin/sh
      echo "$1"
    """, "a", "val"),
  C("positional_arguments_backtick_none", """
    set positional-arguments
    a x:
      @echo {{`echo "[$#]"`}}
    """, "a", "v"),
  C("positional_arguments_false", """
    set positional-arguments := false
    a x:
      @echo "[$#]"
    """, "a", "v"),
  C("positional_arguments_json", "set positional-arguments\na:\n", J),
  # ---- quiet
  C("quiet_false", "set quiet := false\na:\n  echo hi\n"),
  C("quiet_dry_run_echoes", "set quiet\na:\n  echo hi\n", "--dry-run"),
  C("quiet_verbose_echoes", "set quiet\na:\n  echo hi\n", "--verbose"),
  C("quiet_no_quiet_with_at_line", """
    set quiet
    [no-quiet]
    a:
      @echo silent
      echo loud
    """),
  C("quiet_no_quiet_at_recipe", """
    set quiet
    [no-quiet]
    @a:
      @echo loud
      echo silent
    """),
  C("quiet_shebang_at_recipe", """
    set quiet
    @a:
      #!/bin/sh
      echo hi
    """),
  C("quiet_json", "set quiet\na:\n", J),
  C("quiet_not_inherited_by_submodule", """
    set quiet
    mod sub
    """, "sub::b", files={"sub.just": "b:\n  echo sub\n"}),
  # ---- script-interpreter
  C("script_interpreter_script_attr", """
    set script-interpreter := ['bash', '-eu']
    [script]
    a:
      echo $BASH_VERSION | cut -c1-0
      echo bash
    """),
  C("script_interpreter_not_for_shebang", """
    set script-interpreter := ['false']
    a:
      #!/bin/sh
      echo shebang
    """),
  C("script_interpreter_empty_list", "set script-interpreter := []\na:\n"),
  C("script_interpreter_not_list", "set script-interpreter := 'sh'\na:\n"),
  C("script_interpreter_trailing_comma", """
    set script-interpreter := ['sh', '-eu',]
    [script]
    a:
      echo ok
    """),
  C("script_interpreter_dump", "set script-interpreter := ['sh', '-eu',]\na:\n", "--dump"),
  C("script_interpreter_json", "set script-interpreter := ['sh']\na:\n", J),
  # ---- shell
  C("shell_json", "set shell := ['bash', '-c']\na:\n", J),
  C("shell_variable_elements", """
    sh := 'bash'
    set shell := [sh, '-c']
    a:
      @echo $BASH_VERSION | cut -c1-0
      @echo ok
    """),
  C("shell_empty_list", "set shell := []\na:\n"),
  C("shell_not_list", "set shell := 'sh'\na:\n"),
  C("shell_only_command", """
    set shell := ['echo']
    a:
      hello
    """),
  C("shell_missing_program", """
    set shell := ['/nonexistent/sh', '-c']
    a:
      echo hi
    """),
  C("shell_cli_overrides", """
    set shell := ['false']
    a:
      @echo cli
    """, "--shell", "sh", "--shell-arg", "-c"),
  C("shell_affects_shell_function", """
    set shell := ['bash', '-c']
    x := shell('echo ${BASH_VERSION:+bash}')
    a:
      @echo {{x}}
    """),
  C("shell_dump", "set shell := [\"bash\", '-c']\na:\n", "--dump"),
  C("shell_set_twice", "set shell := ['a']\nset shell := ['b']\na:\n"),
  C("shell_linux_and_windows", """
    [windows]
    set shell := ['cmd', '/c']
    [linux]
    set shell := ['bash', '-c']
    a:
      @echo ${BASH_VERSION:+bash}
    """),
  C("shell_twice_disabled_ok", """
    [windows]
    set shell := ['cmd', '/c']
    set shell := ['sh', '-c']
    a:
      @echo ok
    """),
  # ---- tempdir
  C("tempdir_relative", """
    set tempdir := 'tmp'
    a:
      #!/bin/sh
      case "$0" in "{{justfile_directory()}}"/tmp/just-*) echo yes;; *) echo "no $0";; esac
    """, dirs=["tmp"]),
  C("tempdir_json", "set tempdir := 'tmp'\na:\n", J),
  C("tempdir_cli_overrides", """
    set tempdir := 'nope'
    a:
      #!/bin/sh
      echo hi
    """, "--tempdir", "tmp", dirs=["tmp"]),
  C("tempdir_list_value", """
    set unstable
    set lists
    set tempdir := ['a', 'b']
    a:
    """),
  # ---- windows settings
  C("windows_powershell_ignored", """
    set windows-powershell
    a:
      @echo ok
    """),
  C("windows_powershell_json", "set windows-powershell\na:\n", J),
  C("windows_shell_json", "set windows-shell := ['cmd', '/c']\na:\n", J),
  # ---- working-directory
  C("working_directory_backtick", """
    set working-directory := 'sub'
    x := `pwd`
    a:
      @echo {{x}}
    """, dirs=["sub"]),
  C("working_directory_path_functions", """
    set working-directory := 'sub'
    a:
      @echo {{invocation_directory()}} {{justfile_directory()}}
    """, dirs=["sub"]),
  C("working_directory_dotenv_unaffected", """
    set working-directory := 'sub'
    set dotenv-load
    a:
      @echo $A
    """, dirs=["sub"], files={".env": "A=root\n", "sub/.env": "A=sub\n"}),
  C("working_directory_json", "set working-directory := 'sub'\na:\n", J),
  C("working_directory_missing_dir", """
    set working-directory := 'nope'
    a:
      echo hi
    """),
  C("working_directory_absolute", """
    set working-directory := '/'
    a:
      @pwd
    """),
  C("working_directory_recipe_attr_joins", """
    set working-directory := 'sub'
    [working-directory('inner')]
    a:
      @pwd
    """, dirs=["sub/inner"]),
  C("working_directory_variable", """
    d := 'sub'
    set working-directory := d
    a:
      @pwd
    """, dirs=["sub"]),
  # ---- general syntax errors
  C("unknown_setting", "set foo\na:\n"),
  C("unknown_setting_keyword", "set if := 'x'\na:\n"),
  C("bool_setting_string_value", "set quiet := 'true'\na:\n"),
  C("bool_setting_identifier_value", "set quiet := yes\na:\n"),
  C("string_setting_without_value", "set tempdir\na:\n"),
  C("setting_set_twice", "set quiet\nset quiet := false\na:\n"),
  C("setting_set_twice_via_import", "set quiet\nimport 'x.just'\na:\n",
    files={"x.just": "set quiet\n"}),
  C("setting_with_private_attribute", "[private]\nset quiet\na:\n"),
  C("setting_with_group_attribute", "[group('x')]\nset quiet\na:\n"),
  C("setting_comment_after", "set quiet # comment\na:\n  echo hi\n"),
  C("setting_trailing_garbage", "set quiet true\na:\n"),
  C("set_recipe_named_set", "set a b:\n  @echo {{a}}{{b}}\n", "set", "1", "2"),
  C("string_setting_list_value", "set tempdir := ['x']\na:\n"),
  C("all_settings_json_default", "a:\n", J),
  C("all_settings_dump", """
    set allow-duplicate-recipes
    set allow-duplicate-variables
    set default-list := false
    set dotenv-load
    set export
    set fallback
    set ignore-comments
    set positional-arguments
    set quiet
    set shell := ['sh', '-cu']
    set tempdir := 'x' + 'y'
    set windows-shell := ['a', 'b']
    set working-directory := 'w'
    a:
    """, "--dump"),
  C("submodule_settings_json", "mod sub\n", J, files={"sub.just": "set quiet\nset shell := ['bash', '-c']\nb:\n"}),
  C("submodule_export_not_inherited", """
    set export
    x := 'root'
    mod sub
    """, "sub::b", files={"sub.just": "y := 'sub'\nb:\n  @echo \"${x:-unset} ${y:-unset}\"\n"}),
  C("submodule_positional_not_inherited", """
    set positional-arguments
    mod sub
    """, "sub::b", "v", files={"sub.just": "b x:\n  @echo \"[$#]\"\n"}),
  # ---- batch 2: interactions
  C("dup_recipe_allowed_list_shows_winner", "set allow-duplicate-recipes\n# first\na:\n# second\na x:\n", "--list"),
  C("dup_recipe_import_json_winner", "set allow-duplicate-recipes\nimport 'x.just'\na:\n  echo root\n", J,
    files={"x.just": "a y:\n  echo import\n"}),
  C("dup_recipe_in_module_not_allowed_by_root", "set allow-duplicate-recipes\nmod sub\n", "sub::a",
    files={"sub.just": "a:\na:\n"}),
  C("dup_recipe_setting_in_import_applies", "import 'x.just'\na:\n  @echo 1\na:\n  @echo 2\n",
    files={"x.just": "set allow-duplicate-recipes\n"}),
  C("dup_recipe_vs_module", "set allow-duplicate-recipes\nmod a\na:\n", files={"a.just": ""}),
  C("dup_variable_json_winner", "set allow-duplicate-variables\nx := 'a'\nexport x := 'b'\n", J),
  C("dup_variable_override_cli", "set allow-duplicate-variables\nx := 'a'\nx := 'b'\na:\n  @echo {{x}}\n", "x=c", "a"),
  C("dup_variable_evaluate", "set allow-duplicate-variables\nx := 'a'\nx := 'b'\n", "--evaluate"),
  C("dup_variable_uses_earlier_definition", "set allow-duplicate-variables\nx := 'a'\ny := x\nx := 'b'\n", "--evaluate"),
  C("default_list_root_no_args_with_sub", "set default-list\nmod sub\na:\n", files={"sub.just": "b:\n"}),
  C("default_list_sub_without_setting_runs_default", "mod sub\na:\n", "sub", files={"sub.just": "b:\n  @echo b\n"}),
  C("default_list_with_default_attr", "set default-list\n[default]\nb:\n  @echo b\n"),
  C("default_list_private_only", "set default-list\n_a:\n"),
  C("default_list_no_recipes", "set default-list\n"),
  C("default_script_positional_arguments", "set default-script\nset positional-arguments\na x:\n  echo \"$1\"\n", "a", "val"),
  C("default_script_shebang_still_shebang", "set default-script\nset script-interpreter := ['false']\na:\n  #!/bin/sh\n  echo shebang\n"),
  C("default_script_dry_run", "set default-script\na:\n  echo {{'x'}}\n", "--dry-run"),
  C("default_script_ignore_comments_no_effect", "set default-script\nset ignore-comments\na:\n  # comment\n  echo ok\n"),
  C("dotenv_filename_cli_overrides", "set dotenv-filename := 'a.env'\na:\n  @echo $A\n", "--dotenv-filename", "b.env",
    files={"a.env": "A=a\n", "b.env": "A=b\n"}),
  C("dotenv_path_cli_overrides", "set dotenv-path := 'a.env'\na:\n  @echo $A\n", "--dotenv-path", "b.env",
    files={"a.env": "A=a\n", "b.env": "A=b\n"}),
  C("dotenv_multiple_cli_without_lists", "a:\n", "-F", "a", "-F", "b"),
  C("dotenv_filename_list_with_lists", "set unstable\nset lists\nset dotenv-filename := ['a.env', 'b.env']\na:\n  @echo $A $B\n",
    files={"a.env": "A=a\nB=a\n", "b.env": "B=b\n"}),
  C("dotenv_filename_list_json", "set unstable\nset lists\nset dotenv-filename := ['a.env', 'b.env']\nset dotenv-path := ['p']\na:\n", J),
  C("dotenv_command_list_json", "set unstable\nset lists\nset dotenv-command := ['echo A=1', 'echo B=2']\na:\n  @echo $A $B\n", J),
  C("dotenv_command_list_runs", "set unstable\nset lists\nset dotenv-command := ['echo A=1', 'echo A=2 B=3']\na:\n  @echo $A $B\n"),
  C("dotenv_command_empty_string", "set dotenv-command := ''\na:\n  @echo ok\n"),
  C("dotenv_command_dry_run", "set dotenv-command := 'exit 3'\na:\n  echo ok\n", "--dry-run"),
  C("dotenv_command_uses_shell_setting", "set shell := ['bash', '-c']\nset dotenv-command := 'echo A=${BASH_VERSION:+bash}'\na:\n  @echo $A\n"),
  C("dotenv_command_cli", "a:\n  @echo $A\n", "--dotenv-command", "echo A=cli"),
  C("dotenv_submodule_merged", "set dotenv-load\nmod sub\n", "sub::b",
    files={".env": "A=root\nB=root\n", "sub/mod.just": "set dotenv-load\nb:\n  @echo $A $B\n", "sub/.env": "B=sub\n"}),
  C("dotenv_submodule_not_loaded_without_setting", "set dotenv-load\nmod sub\n", "sub::b",
    files={".env": "A=root\n", "sub/mod.just": "b:\n  @echo $A\n", "sub/.env": "A=sub\n"}),
  C("dotenv_directory_named_env_skipped", "set dotenv-load\na:\n  @echo ${A:-none}\n", dirs=[".env"]),
  C("dotenv_parent_directory", "set dotenv-load\na:\n  @echo $A\n", files={"sub/justfile": "set dotenv-load\na:\n  @echo $A\n", ".env": "A=parent\n"}, cwd="sub"),
  C("dotenv_required_message_with_path", "set dotenv-required\nset dotenv-path := 'x.env'\na:\n"),
  C("dotenv_required_dry_run", "set dotenv-required\na:\n  echo\n", "--dry-run"),
  C("dotenv_evaluate_sees", "set dotenv-load\nx := env('A', 'none')\n", "--evaluate", files={".env": "A=1\n"}),
  C("export_parameters_and_assignments", "set export\nx := 'v'\na p:\n  @echo $x $p\n", "a", "arg"),
  C("export_empty_list_not_exported", "set unstable\nset lists\nset export\nx := []\na:\n  @echo ${x:-unset}\n"),
  C("export_unexport_of_parameter", "set export\nunexport p\na p:\n  @echo ${p:-unset}\n", "a", "v"),
  C("export_to_submodule_recipes", "set export\nx := 'root'\nmod sub\n", "sub::b",
    files={"sub.just": "b:\n  @echo ${x:-unset}\n"}),
  C("export_script_recipe", "set export\nx := 'v'\na:\n  #!/bin/sh\n  echo $x\n"),
  C("export_command_flag", "set export\nx := 'v'\n", "--command", "sh", "-c", "echo $x"),
  C("export_default_backtick_sees_module", "set export\nx := 'v'\na p=`echo $x`:\n  @echo {{p}}\n"),
  C("fallback_with_submodule_path", "set fallback\n", "sub::b", files={"../never": ""}),
  C("fallback_only_when_searched", "set fallback\na:\n", "--justfile", "justfile", "b"),
  C("guards_script_not_affected", "set guards\na:\n  #!/bin/sh\n  echo ?x\n"),
  C("guards_dry_run", "set guards\na:\n  ?exit 1\n  echo after\n", "--dry-run"),
  C("guards_exit_one_subsequents_run", "set guards\na: && b\n  ?exit 1\nb:\n  @echo b\n"),
  C("guards_in_submodule_needs_own_setting", "set guards\nmod sub\n", "sub::a", files={"sub.just": "a:\n  ?echo guard-off\n"}),
  C("guards_sigil_order", "set guards\na:\n  ?@exit 1\n  echo no\n"),
  C("guards_double_question", "set guards\na:\n  ??echo x\n"),
  C("ignore_comments_indented_comment", "set ignore-comments\na:\n  echo a\n  # {{x}}\n"),
  C("ignore_comments_at_comment_sigil", "set ignore-comments\na:\n  @# comment\n"),
  C("ignore_comments_comment_with_continuation", "set ignore-comments\na:\n  # c \\\n  echo next\n"),
  C("ignore_comments_dry_run", "set ignore-comments\na:\n  # c\n  echo hi\n", "--dry-run"),
  C("ignore_comments_script_attr", "set ignore-comments\n[script]\na:\n  # c\n  echo ok\n"),
  C("indentation_fmt", "set indentation := '  '\na:\n    echo hi\n", "--fmt", "--check"),
  C("indentation_double_quoted_escape", "set indentation := \"\\t\"\na:\n  echo hi\n", "--dump"),
  C("indentation_triple_quoted", "set indentation := '''  '''\na:\n  echo hi\n", "--dump"),
  C("indentation_env_var", "a:\n  echo hi\n", "--dump", env={"JUST_INDENTATION": " "}),
  C("indentation_in_import", "import 'x.just'\na:\n  echo hi\n", "--dump", files={"x.just": "set indentation := ' '\n"}),
  C("lazy_submodule_lazy", "set lazy\nmod sub\na:\n  @echo a\n", files={"sub.just": "x := `exit 1`\nb:\n"}),
  C("lazy_exported_evaluated", "set lazy\nexport x := `exit 3`\na:\n  @echo a\n"),
  C("lazy_eager_evaluated", "set lazy\neager x := `exit 3`\na:\n  @echo a\n"),
  C("lazy_needed_by_recipe", "set lazy\nx := `echo X`\ny := `exit 1`\na:\n  @echo {{x}}\n"),
  C("minimum_version_in_import", "import 'x.just'\na:\n", files={"x.just": "set minimum-version := '999.0.0'\n"}),
  C("minimum_version_in_disabled", "[windows]\nset minimum-version := '999.0.0'\na:\n  @echo ok\n"),
  C("minimum_version_triple", "set minimum-version := '''1.0.0'''\na:\n  @echo ok\n"),
  C("minimum_version_raw_list", "set minimum-version := ['1.0.0']\na:\n"),
  C("no_cd_not_inherited_by_submodule", "set no-cd\nmod sub\n", "sub::b", files={"sub/mod.just": "b:\n  @pwd\n"}),
  C("no_cd_in_submodule", "mod sub\n", "sub::b", files={"sub/mod.just": "set no-cd\nb:\n  @pwd\n"}),
  C("no_cd_script_recipe", "set no-cd\na:\n  #!/bin/sh\n  pwd\n", dirs=["sub"], cwd="sub"),
  C("no_exit_message_signal", "set no-exit-message\na:\n  @kill -TERM $$\n"),
  C("no_exit_message_dependency", "set no-exit-message\na: b\nb:\n  @exit 2\n"),
  C("no_exit_message_not_for_evaluation_error", "set no-exit-message\na:\n  @echo {{error('boom')}}\n"),
  C("no_exit_message_shell_not_found", "set no-exit-message\nset shell := ['/nonexistent']\na:\n  echo\n"),
  C("positional_arguments_star_lists", "set unstable\nset lists\nset positional-arguments\na *xs:\n  @echo \"$#:$@\"\n", "a", "1", "2 3"),
  C("positional_arguments_star_missing", "set positional-arguments\na x *xs:\n  @echo \"$#\"\n", "a", "1"),
  C("positional_arguments_script_attr", "set positional-arguments\n[script]\na x:\n  echo \"$1 $#\"\n", "a", "v"),
  C("positional_arguments_dependency_args", "set positional-arguments\nb: (a 'dep')\na x:\n  @echo \"$1\"\n", "b"),
  C("positional_arguments_option_value", "set positional-arguments\n[arg('x', long)]\na x='d':\n  @echo \"$1\"\n", "a", "--x", "o"),
  C("quiet_recipe_at_with_set_quiet", "set quiet\n@a:\n  @echo x\n  echo y\n"),
  C("quiet_timestamp_echoes", "set quiet\n[timestamp('T')]\na:\n  echo hi\n"),
  C("quiet_in_import_applies", "import 'x.just'\na:\n  echo hi\n", files={"x.just": "set quiet\n"}),
  C("quiet_flag_script_echo", "@a:\n  #!/bin/sh\n  echo hi\n", "--quiet"),
  C("script_interpreter_list_with_lists", "set unstable\nset lists\ni := ['sh', '-eu']\nset script-interpreter := [i]\n[script]\na:\n  echo ok\n"),
  C("script_interpreter_flatten_empty", "set unstable\nset lists\nset script-interpreter := [[]]\na:\n"),
  C("shell_flatten_empty_list", "set unstable\nset lists\nset shell := [[], []]\na:\n"),
  C("shell_flatten_list", "set unstable\nset lists\ns := ['sh', '-c']\nset shell := [s]\na:\n  @echo flat\n", J),
  C("shell_clear_shell_args", "set shell := ['false']\na:\n  @echo x\n", "--clear-shell-args", "--shell", "echo"),
  C("shell_arg_without_shell", "a:\n  @echo x\n", "--shell-arg", "-c"),
  C("shell_expression_elements_json", "x := 'sh'\nset shell := [x + '', '-c' + '']\na:\n", J),
  C("shell_undefined_variable", "set shell := [nope, '-c']\na:\n"),
  C("shell_command_flag_uses_setting", "set shell := ['bash', '-c']\na:\n", "--shell-command", "--command", "echo ${BASH_VERSION:+bash}"),
  C("shell_not_inherited_by_submodule", "set shell := ['bash', '-c']\nmod sub\n", "sub::b", files={"sub.just": "b:\n  @echo ${BASH_VERSION:-nobash}\n"}),
  C("tempdir_in_submodule_relative_to_root", "mod sub\n", "sub::b", dirs=["tmp"],
    files={"sub/mod.just": "set tempdir := 'tmp'\nb:\n  #!/bin/sh\n  case \"$0\" in \"{{justfile_directory()}}\"/tmp/*) echo sub;; \"{{justfile_directory()}}\"/../tmp/*) echo root;; *) echo other;; esac\n"}),
  C("tempdir_variable", "d := 'tmp'\nset tempdir := d\na:\n  #!/bin/sh\n  echo ok\n", dirs=["tmp"]),
  C("unstable_enables_cache", "set unstable\n[cache]\na:\n  #!/bin/sh\n", "--dry-run", "a"),
  C("unstable_in_submodule_only", "mod sub\n[cache]\na:\n  #!/bin/sh\n", "a", files={"sub.just": "set unstable\n"}),
  C("windows_shell_and_shell_json", "set shell := ['sh', '-c']\nset windows-shell := ['cmd']\na:\n", J),
  C("windows_shell_empty_list", "set windows-shell := []\na:\n"),
  C("working_directory_in_submodule", "mod sub\n", "sub::b", dirs=["sub/w"],
    files={"sub/mod.just": "set working-directory := 'w'\nb:\n  @pwd\n"}),
  C("working_directory_command_flag_unaffected", "set working-directory := 'sub'\n", "--command", "pwd", dirs=["sub"]),
  C("working_directory_shell_function", "set working-directory := 'sub'\nx := shell('pwd')\na:\n  @echo {{x}}\n", dirs=["sub"]),
  C("working_directory_which", "set working-directory := 'sub'\na:\n  @echo {{which('./tool')}}\n",
    files={"sub/tool": "#!/bin/sh\n"}),
  C("working_directory_path_exists", "set working-directory := 'sub'\na:\n  @echo {{path_exists('f')}}\n", files={"sub/f": ""}),
  C("working_directory_list_value", "set unstable\nset lists\nset working-directory := ['a']\na:\n"),
  C("working_directory_empty_string", "set working-directory := ''\na:\n  @pwd\n"),
  C("working_directory_cli_override", "d := 'a'\nset working-directory := d\nx:\n  @pwd\n", "d=b", dirs=["a", "b"]),
  C("setting_override_syntax_set", "set shell := ['sh', '-c']\nset shell := ['sh', '-c']\na:\n"),
  C("setting_true_with_spaces", "set quiet   :=   true\na:\n  echo hi\n"),
  C("setting_name_continuation", "set \\\nquiet\na:\n  echo hi\n"),
  C("setting_bool_expression", "set quiet := true + ''\na:\n"),
  C("setting_bool_parenthesized", "set quiet := (true)\na:\n"),
  C("setting_list_for_bool", "set quiet := ['x']\na:\n"),
  C("setting_missing_value", "set shell :=\na:\n"),
  C("setting_eof", "set"),
  C("setting_unknown_at_eof", "set nope"),
  C("setting_export_keyword_value", "set export := export\na:\n"),
  C("setting_in_import_twice", "import 'x.just'\nimport 'y.just'\n", files={"x.just": "set quiet\n", "y.just": "set quiet\n"}),
  C("setting_in_import_incompatible", "set no-cd\nimport 'x.just'\na:\n", files={"x.just": "set working-directory := 'x'\n"}),
  C("setting_after_use_applies", "a:\n  echo hi\nset quiet\n"),
  C("dotenv_single_element_lists_json", "set unstable\nset lists\nset dotenv-filename := ['a.env']\nset dotenv-path := ['p']\na:\n", J),
  C("unexport_exported_parameter_kept", "unexport p\na $p:\n  @echo ${p:-unset}\n", "a", "v"),
  C("unexport_ancestor_export_in_submodule", "export x := 'r'\nmod sub\n", "sub::b", files={"sub.just": "unexport x\nb:\n  @echo ${x:-unset}\n"}),
  C("unexport_dotenv_variable", "set dotenv-load\nunexport A\nb:\n  @echo ${A:-unset}\n", files={".env": "A=1\n"}),
  C("unexport_env_attribute_wins", "unexport A\n[env('A', 'e')]\nb:\n  @echo ${A:-unset}\n"),
]
