from capture import C

CASES = [
  # linewise sigils and echo
  C("echo_rules_default", """
    a:
      echo one
      @echo two
      -exit 4
      echo three
    """),
  C("dry_run_echoes_everything", """
    a:
      echo one
      @echo two
      -exit 4
    """, "-n", "a"),
  C("quiet_recipe_inverts_at", """
    @a:
      echo one
      @echo two
    """),
  C("set_quiet_silences_lines", """
    set quiet
    a:
      echo one
      @echo two
    [no-quiet]
    b:
      echo three
      @echo four
    """, "a", "b"),
  C("quiet_flag_discards_output_and_errors", """
    a:
      echo out
      echo err >&2
      exit 3
    """, "--quiet"),
  C("verbose_banner_and_echo", """
    # the doc
    a: b
      @echo a
    b:
      @echo b
    """, "-v", "--explain", "a"),
  C("explain_without_verbose", """
    # the doc
    a:
      @echo a
    """, "--explain"),
  C("sigils_any_order_repeated_ends", """
    a:
      -@exit 1
      @-exit 2
      @@echo double
      --echo x
    """),
  C("guard_sigil_stops_recipe", """
    set guards
    a: && b
      ?test -f nope
      echo not reached
    b:
      echo b ran
    """),
  C("guard_reserved_code", """
    set guards
    a:
      echo x
      ?exit 2
    """),
  C("guard_without_setting_is_passed_to_shell", """
    a:
      ?true
    """),
  C("guard_zero_continues", """
    set guards
    a:
      @?true
      @echo after
    """),
  C("continuation_line_number_is_last", """
    a:
      echo a \\
        b \\
        && exit 7
    """),
  C("ignore_comments_skips_hash_lines", """
    set ignore-comments
    a:
      # {{ nope }}
      echo hi \\
      # not a comment
    """),
  C("comment_without_ignore_comments", """
    a:
      # comment {{ "x" }}
      echo hi
    """),
  C("interpolation_error_after_earlier_lines", """
    a:
      echo one
      echo {{ error("boom") }}
    """),
  C("empty_command_after_sigil_skipped", """
    a:
      @
      echo x
    """),
  C("signal_killed_line", """
    a:
      echo before
      kill -TERM $$
    """),
  C("signal_killed_line_ignored", """
    a:
      -kill -TERM $$
      echo survived
    """),
  C("timestamp_attribute_format", """
    [timestamp("X%%Y")]
    a:
      @echo hi
    """),
  C("timestamp_bad_format", """
    a:
      echo hi
    """, "--timestamp", "--timestamp-format", "%Q"),
  C("timestamp_script_recipe", """
    [timestamp("T")]
    a:
      #!/bin/sh
      echo hi
    """),
  C("no_deps_flag", """
    a: b && c
      @echo a
    b:
      @echo b
    c:
      @echo c
    """, "--no-deps", "a"),
  C("exit_code_and_message", """
    fail:
      @echo start
      @exit 13
    """, "fail"),
  C("no_exit_message_attribute", """
    [no-exit-message]
    a:
      exit 3
    """),
  C("set_no_exit_message_and_exit_message", """
    set no-exit-message
    a:
      exit 3
    [exit-message]
    b:
      exit 4
    """, "a"),
  C("exit_message_overrides_setting", """
    set no-exit-message
    [exit-message]
    b:
      exit 4
    """, "b"),
  C("no_exit_message_signal", """
    [no-exit-message]
    a:
      kill -TERM $$
    """),
  C("no_exit_message_script", """
    [no-exit-message]
    a:
      #!/bin/sh
      exit 5
    """),
  C("shell_not_found", """
    set shell := ["nonexistent-shell-xyz", "-c"]
    a:
      echo hi
    """),
  C("working_directory_missing_reports_shell_error", """
    [working-directory("nope")]
    a:
      echo hi
    """),
  # scripts
  C("shebang_recipe_runs", """
    a:
      #!/bin/sh
      echo hello from script
      exit 0
    """),
  C("shebang_quiet_recipe_echoes", """
    @a:
      #!/bin/sh
      echo hi
    """),
  C("shebang_dry_run_echoes", """
    a:
      #!/bin/sh
      echo {{ "x" }}
    """, "-n"),
  C("shebang_failure_message", """
    a:
      #!/bin/sh
      exit 9
    """),
  C("shebang_signal", """
    a:
      #!/bin/sh
      kill -TERM $$
    """),
  C("shebang_line_numbers_preserved", """
    a:
      #!/bin/sh

      sed 's/^/|/' "$0"

      echo {{ "x" }}
    """),
  C("script_line_numbers_preserved", """
    [script("cat")]
    a:
      echo one

      echo two
    """),
  C("script_attribute_command", """
    [script("python3", "-c", "import sys; print(open(sys.argv[1]).read().count(chr(10)))")]
    a:
      one
      two
    """),
  C("script_interpreter_setting", """
    set script-interpreter := ["bash", "-c", "echo interp $(basename $0)"]
    [script]
    a:
      echo body
    """),
  C("default_script_setting", """
    set default-script
    a:
      x=1
      echo $x
    [shell]
    b:
      x=1
      echo ${x:-unset}
    """, "a", "b"),
  C("invalid_shebang", """
    a:
      #!
      echo hi
    """),
  C("shebang_spawn_error", """
    a:
      #!/bin/shh -x
      echo hi
    """),
  C("script_spawn_error", """
    [script("nonexistent-interp-xyz", "-a")]
    a:
      echo hi
    """),
  C("shebang_positional_arguments", """
    set positional-arguments
    a x *rest:
      #!/bin/sh
      echo "$0" | sed 's|.*/||'
      echo "$@"
    """, "a", "one", "two", "three"),
  C("linewise_positional_arguments", """
    [positional-arguments]
    a x y="d":
      echo $0 $1 $2
    """, "a", "one"),
  C("extension_attribute", """
    [extension(".sh")]
    a:
      #!/bin/sh
      basename "$0"
    """),
  C("shebang_file_name_is_recipe_name", """
    build:
      #!/bin/sh
      basename "$0"
    """),
  C("tempdir_flag", """
    a:
      #!/bin/sh
      dirname "$(dirname "$0")"
    """, "--tempdir", "tmp", dirs=["tmp"]),
  C("tempdir_setting", """
    set tempdir := "tmp"
    a:
      #!/bin/sh
      dirname "$(dirname "$0")"
    """, dirs=["tmp"]),
  C("xdg_runtime_dir_used", """
    a:
      #!/bin/sh
      dirname "$(dirname "$0")"
    """, env={"XDG_RUNTIME_DIR": "{{TMP}}/run"}, dirs=["run"]),
  C("script_quiet_flag_not_silenced", """
    a:
      #!/bin/sh
      echo out
    """, "--quiet"),
  C("vv_dumps_script", """
    a:
      #!/bin/sh

      echo hi
    """, "-vv"),
  C("shell_attribute_on_shebang_body", """
    set default-script
    [shell]
    a:
      #!/bin/sh
      echo linewise
    """),
  # environment
  C("export_variable_and_param", """
    export A := "a"
    b := "b"
    x $p="param":
      echo $A ${b:-nob} $p
    """),
  C("set_export_exports_all", """
    set export
    b := "b"
    x p="param":
      echo $b $p
    """),
  C("unexport_removes", """
    unexport HOME
    a:
      echo ${HOME:-gone}
    """),
  C("env_attribute", """
    export A := "a"
    [env("A", "over")]
    [env("B", "bee")]
    x:
      echo $A $B
    """),
  C("env_attribute_empty_list_not_set", """
    set lists
    set unstable
    [env("B", [])]
    x:
      echo ${B:-unset}
    """),
  C("backtick_in_assignment_does_not_see_own_exports", """
    export A := "x"
    b := `echo ${A:-none}`
    r:
      echo {{b}} `echo $A`
    """),
  C("dotenv_load_setting", """
    set dotenv-load
    a:
      echo $X
    """, files={".env": "X=dot\n"}),
  C("dotenv_filename_flag", """
    a:
      echo ${X:-unset}
    """, "-F", ".custom", files={".custom": "X=custom\n"}),
  C("dotenv_path_flag", """
    a:
      echo ${X:-unset}
    """, "-E", "sub/p.env", files={"sub/p.env": "X=path\n"}),
  C("dotenv_no_flags_nothing", """
    a:
      echo ${X:-unset}
    """, files={".env": "X=dot\n"}),
  C("dotenv_env_preset_wins", """
    a:
      echo $X
    """, "-F", ".env", files={".env": "X=dot\n"}, env={"X": "preset"}),
  C("dotenv_override", """
    set dotenv-override
    a:
      echo $X
    """, files={".env": "X=dot\n"}, env={"X": "preset"}),
  C("dotenv_required_missing", """
    set dotenv-required
    a:
      echo hi
    """),
  C("dotenv_command_flag", """
    a:
      echo ${C:-unset}
    """, "--dotenv-command", "echo C=cmd"),
  C("dotenv_command_failure", """
    set dotenv-command := "exit 4"
    a:
      echo hi
    """),
  C("no_dotenv_flag", """
    set dotenv-load
    a:
      echo ${X:-unset}
    """, "--no-dotenv", files={".env": "X=dot\n"}),
  # working directories
  C("working_directory_setting", """
    set working-directory := "sub"
    a:
      basename "$PWD"
    """, dirs=["sub"]),
  C("working_directory_attribute", """
    [working-directory("sub")]
    a:
      basename "$PWD"
    """, dirs=["sub"]),
  C("no_cd_attribute", """
    [no-cd]
    a:
      basename "$PWD"
    """, "--justfile", "{{TMP}}/justfile", cwd="inv"),
  C("no_cd_from_subdirectory_search", """
    [no-cd]
    a:
      basename "$PWD"
    b:
      test -f justfile && echo in root
    """, "a", "b", cwd="inv"),
  C("set_no_cd_with_working_directory_attribute", """
    set no-cd
    a:
      basename "$PWD"
    [working-directory("sub")]
    b:
      basename "$PWD"
    """, "a", "b", cwd="sub"),
  C("submodule_base_directory", """
    mod foo
    mod bar
    """, "foo::a", "bar::a",
    files={"foo/mod.just": "a:\n  basename \"$PWD\"\n", "bar.just": "a:\n  test -f justfile && echo in root\n"}),
  # confirm
  C("confirm_yes", """
    [confirm]
    a:
      echo ran
    """, stdin="y\n"),
  C("confirm_no", """
    [confirm]
    a:
      echo ran
    """, stdin="n\n"),
  C("confirm_eof", """
    [confirm("Sure {{ x }}?")]
    a x="1":
      echo ran
    """),
  C("confirm_yes_flag", """
    [confirm]
    a:
      echo ran
    """, "--yes"),
  C("confirm_before_dependencies_and_in_dry_run", """
    [confirm]
    a: b
      echo ran
    b:
      echo b
    """, "-n", stdin="Yes\n"),
  # dependencies
  C("subsequent_twice", """
    a: b && b
      @echo a
    b:
      @echo b
    """),
  C("dedup_by_arguments_spec_example", """
    a: b (c "1") (c "1") (c "2") && d
      @echo a
    b: (c "1")
      @echo b
    c x:
      @echo c {{x}}
    d: b
      @echo d
    """),
  C("first_error_aborts", """
    a: b c
      @echo a
    b:
      @exit 2
    c:
      @echo c
    """),
  C("parallel_dependencies_run_concurrently", """
    [parallel]
    a: b c && d
      @echo a
    b:
      @for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do test -f flag && break; sleep 0.2; done; test -f flag
      @echo b saw c
    c:
      @sleep 0.2; touch flag; echo c
    d:
      @echo d
    """),
  C("jobs_one_serialises_parallel_bodies", """
    [parallel]
    a: b c d
      @echo a
    b:
      @mkdir lock; sleep 0.3; rmdir lock
    c:
      @mkdir lock; sleep 0.3; rmdir lock
    d:
      @mkdir lock; sleep 0.3; rmdir lock
    """, "--jobs", "1"),
  C("parallel_shared_dependency_runs_once", """
    [parallel]
    a: b c
      @echo a
    b: s
    c: s
    s:
      @sleep 0.3; echo s >> log
    """, expect_files=["log"]),
  C("parallel_first_error_in_declaration_order", """
    [parallel]
    a: b c
      @echo a
    b:
      @sleep 0.3; exit 3
    c:
      @exit 4
    """),
  C("invocations_dedup_across_command_line", """
    a: b
      @echo a
    b:
      @echo b
    """, "a", "b", "a"),
  C("continue_attribute_parses_and_runs", """
    [continue]
    a:
      @echo hi
    """),
  # positional arguments keep variadic values apart
  C("positional_variadic_values_are_separate_arguments", """
    set positional-arguments
    a x="d" *r:
      printf "[%s]" "$@"
    """, "a", "one", "two three", "four"),
  C("positional_missing_variadic_contributes_nothing", """
    set positional-arguments
    a x="d" *r:
      printf "[%s]" "$@"
    b *r:
      #!/bin/sh
      printf "<%s>" "$@"
    c: (a "1" "x y" "z") (b)
    """, "c"),
  # [cache]
  C("cache_hit_skips_second_run", """
    set unstable
    x: d && d
    [cache(outputs="made")]
    d:
      #!/bin/sh
      echo running d
      touch made
    """, "-v", "x"),
  C("cache_miss_when_output_missing", """
    set unstable
    x: d && d
    [cache(outputs="made")]
    d:
      #!/bin/sh
      echo running d
      touch made
      rm made
    """, "x"),
  C("cache_entry_records_recipe_path", """
    set unstable
    x: d && d
    [cache]
    d:
      #!/bin/sh
      echo running d
    e: x
      cat .justcache/*.json
    """, "e"),
  C("no_cache_flag_runs_every_time", """
    set unstable
    x: d && d
    [cache]
    d:
      #!/bin/sh
      echo running d
    """, "--no-cache", "x"),
  C("cache_skipped_in_dry_run", """
    set unstable
    [cache]
    d:
      #!/bin/sh
      echo running d
    e: d
      ls -a
    """, "-n", "e"),
  C("cache_input_missing", """
    set unstable
    [cache(inputs="missing")]
    d:
      #!/bin/sh
      echo d
    """),
  C("cache_input_directory", """
    set unstable
    [cache(inputs="sub")]
    d:
      #!/bin/sh
      echo d
    """, dirs=["sub"]),
  C("cache_output_not_created", """
    set unstable
    [cache(outputs="nope")]
    d:
      #!/bin/sh
      echo d
    """),
  C("cache_input_change_invalidates", """
    set unstable
    x: d && change d
    change:
      @echo changed > in.txt
    [cache(inputs="in.txt")]
    d:
      #!/bin/sh
      echo running d
    """, "x", files={"in.txt": "original\n"}),
  C("cache_submodule_entry_in_root", """
    set unstable
    mod m
    check: m::d
      cat .justcache/*.json
    """, "check", files={"m/mod.just": "set unstable\n[cache]\nd:\n  #!/bin/sh\n  echo d\n"}),
  C("clean_without_cache_directory", """
    a:
    """, "--clean"),
  C("clean_removes_all_entries", """
    a:
    """, "--clean", files={".justcache/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json": "", ".justcache/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.json": "{\"recipe\":\"m::x\"}", ".justcache/other.json": "x"}, expect_files=[".justcache/other.json"]),
  C("clean_by_path_prefix", """
    a:
      ls .justcache
    """, "--clean", "m", files={".justcache/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json": "", ".justcache/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.json": "{\"recipe\":\"m::x\"}", ".justcache/cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc.json": "{\"recipe\":\"top\"}"}, expect_files=[".justcache/cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc.json"]),
  C("clean_by_path_components", """
    a:
    """, "--clean", "m", "y", files={".justcache/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.json": "{\"recipe\":\"m::x\"}", ".justcache/cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc.json": "{\"recipe\":\"m::y\"}"}, expect_files=[".justcache/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.json"]),
  C("clean_single_entry_message", """
    a:
    """, "--clean", "m::x", files={".justcache/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.json": "{\"recipe\":\"m::x\"}"}),
  C("clean_quiet", """
    a:
    """, "--clean", "--quiet", files={".justcache/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.json": "{\"recipe\":\"m::x\"}"}),
]
