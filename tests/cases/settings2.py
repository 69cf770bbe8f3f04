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
]
