from capture import C

CASES = [
  C("first_recipe_is_default", """
    first:
      echo first
    second:
      echo second
    """),
  C("named_recipe_runs", """
    first:
      echo first
    second:
      echo second
    """, "second"),
  C("multiple_recipes_run_in_order", """
    a:
      @echo a
    b:
      @echo b
    """, "b", "a"),
  C("recipe_runs_once_when_named_twice", """
    a:
      @echo a
    """, "a", "a"),
  C("lines_echoed_to_stderr", """
    foo:
      echo hello
      echo world
    """),
  C("at_prefix_suppresses_echo", """
    foo:
      @echo quiet
      echo loud
    """),
  C("quiet_recipe_suppresses_all_echo", """
    @foo:
      echo one
      echo two
    """),
  C("at_line_in_quiet_recipe_is_echoed", """
    @foo:
      @echo inverted
      echo normal
    """),
  C("failing_line_stops_recipe", """
    foo:
      echo before
      exit 3
      echo after
    """),
  C("failing_line_exit_code_propagates", """
    foo:
      @exit 42
    """),
  C("minus_prefix_ignores_failure", """
    foo:
      -exit 1
      @echo continued
    """),
  C("minus_and_at_prefix_combined", """
    foo:
      -@exit 1
      @-exit 2
      @echo done
    """),
  C("empty_recipe_does_nothing", """
    foo:
    """),
  C("recipe_with_only_comment_body", """
    foo:
      # a comment line is passed to the shell
    """),
  C("line_continuation_joins_lines", """
    foo:
      echo a \\
        b \\
        c
    """),
  C("each_line_runs_in_own_shell", """
    foo:
      @x=1
      @echo "x=${x:-unset}"
    """),
  C("shebang_recipe_runs_as_script", """
    foo:
      #!/bin/sh
      x=hello
      echo "$x from script"
    """),
  C("shebang_recipe_not_echoed", """
    foo:
      #!/usr/bin/env sh
      echo script
    """),
  C("shebang_recipe_failure_exit_code", """
    foo:
      #!/bin/sh
      echo before
      exit 7
    """),
  C("shebang_recipe_with_interpolation", """
    name := "world"
    foo:
      #!/bin/sh
      echo "hello {{name}}"
    """),
  C("shebang_recipe_preserves_indentation", """
    foo:
      #!/usr/bin/env python3
      if True:
          print("indented")
    """),
  C("recipe_interpolation_of_variable", """
    x := "value"
    foo:
      echo {{x}}
    """),
  C("interpolation_with_spaces", """
    x := "value"
    foo:
      @echo {{ x }}
    """),
  C("double_brace_escape_in_recipe", """
    foo:
      @echo '{{{{literal}}'
    """),
  C("blank_lines_in_body_are_kept", """
    foo:
      @echo a

      @echo b
    """),
  C("private_underscore_recipe_runs", """
    _helper:
      @echo helper
    """, "_helper"),
  C("alias_runs_target", """
    alias b := build
    build:
      @echo building
    """, "b"),
  C("alias_before_target_definition", """
    build:
      @echo building
    alias b := build
    """, "b"),
  C("unknown_recipe_error", """
    build:
      @echo building
    """, "biuld"),
  C("unknown_recipe_no_suggestion", """
    build:
      @echo building
    """, "xyzzy"),
  C("unknown_recipe_alias_suggestion", """
    alias deploy := build
    build:
      @echo building
    """, "deplyo"),
  C("empty_justfile_error", "\n"),
  C("comment_only_justfile_error", "# nothing here\n"),
  C("default_recipe_with_required_params_error", """
    foo a:
      echo {{a}}
    """),
  C("recipe_line_can_use_positional_shell_args", """
    set positional-arguments
    foo a b:
      @echo $1 $2
    """, "foo", "x", "y"),
  C("crlf_line_endings", "foo:\r\n  @echo crlf\r\n"),
  C("tab_indented_body", "foo:\n\t@echo tabs\n"),
  C("no_trailing_newline", "foo:\n  @echo end"),
  C("recipe_stdin_is_inherited", """
    foo:
      @cat
    """, stdin="piped input\n"),
  C("recipe_runs_in_justfile_directory", """
    foo:
      @pwd
    """, cwd="x/y"),
  C("exported_variable_in_recipe_env", """
    export GREETING := "hi"
    foo:
      @echo $GREETING
    """),
  C("dollar_parameter_exported", """
    foo $NAME:
      @echo $NAME
    """, "foo", "bob"),
  C("recipe_doc_comment_ignored_when_running", """
    # does a thing
    foo:
      @echo thing
    """),
  C("comment_in_body_after_shebang", """
    foo:
      #!/bin/sh
      # just a comment
      echo ok
    """),
  C("interpolation_at_line_start", """
    cmd := "echo"
    foo:
      @{{cmd}} hi
    """),
  C("recipe_name_with_dash", """
    build-all:
      @echo built
    """, "build-all"),
  C("recipe_failure_message_names_line", """
    build:
      @echo step1
      false
    """),
  C("script_attribute_recipe", """
    [script('sh')]
    foo:
      x=1
      echo "x is $x"
    """),
  C("confirm_attribute_with_yes", """
    [confirm]
    foo:
      @echo confirmed
    """, "--yes"),
  C("confirm_attribute_declined", """
    [confirm]
    foo:
      @echo confirmed
    """, stdin="n\n"),
  C("confirm_attribute_accepted_from_stdin", """
    [confirm("Really?")]
    foo:
      @echo confirmed
    """, stdin="y\n"),
  C("no_exit_message_attribute", """
    [no-exit-message]
    foo:
      @exit 5
    """),
  C("private_attribute_recipe_runs", """
    [private]
    foo:
      @echo private
    """, "foo"),
  C("no_cd_attribute", """
    [no-cd]
    foo:
      @pwd
    """, cwd="sub"),
  C("working_directory_attribute", """
    [working-directory('sub')]
    foo:
      @pwd
    """, dirs=["sub"]),
  C("linux_unix_attributes_enable_recipe", """
    [unix]
    foo:
      @echo unix
    [windows]
    foo:
      @echo windows
    """),
  C("doc_attribute_does_not_affect_running", """
    [doc('documented')]
    foo:
      @echo ran
    """),
  C("group_attribute_does_not_affect_running", """
    [group('g')]
    foo:
      @echo ran
    """),
  C("recipe_can_be_redefined_with_allow_duplicate", """
    set allow-duplicate-recipes
    foo:
      @echo one
    foo:
      @echo two
    """),
  C("parallel_attribute_runs_dependencies", """
    [parallel]
    all: a
    a:
      @echo a
    """),
]
