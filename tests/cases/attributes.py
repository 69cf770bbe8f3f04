from capture import C

J = "--json"

CASES = [
  # ---- arg
  C("arg_observed_example_run", """
    [arg("bar", help="the bar", long="bb", short="b")]
    [arg("baz", help="the baz", pattern="[0-9]+")]
    [arg("q", long, value="yes")]
    foo baz bar="x" q="no":
      @echo bar={{bar}} baz={{baz}} q={{q}}
    """, "foo", "12", "-b", "Y", "--q"),
  C("arg_observed_example_usage", """
    [arg("bar", help="the bar", long="bb", short="b")]
    [arg("baz", help="the baz", pattern="[0-9]+")]
    [arg("q", long, value="yes")]
    foo baz bar="x" q="no":
    """, "--usage", "foo"),
  C("arg_observed_example_json", """
    [arg("bar", help="the bar", long="bb", short="b")]
    [arg("baz", help="the baz", pattern="[0-9]+")]
    [arg("q", long, value="yes")]
    foo baz bar="x" q="no":
    """, J),
  C("arg_observed_example_dump", """
    [arg("bar", help="the bar", long="bb", short="b")]
    [arg("baz", help="the baz", pattern="[0-9]+")]
    [arg("q", long, value="yes")]
    foo baz bar="x" q="no":
    """, "--dump"),
  C("arg_observed_example_show", """
    [arg("q", long, value="yes")]
    [arg("bar", short="b", help="the bar", long="bb")]
    foo bar="x" q="no":
    """, "--show", "foo"),
  C("arg_undefined", "[arg('nope')]\nfoo bar:\n"),
  C("arg_long_empty", "[arg('bar', long='')]\nfoo bar:\n"),
  C("arg_long_equal", "[arg('bar', long='a=b')]\nfoo bar:\n"),
  C("arg_long_dash", "[arg('bar', long='-a')]\nfoo bar:\n"),
  C("arg_short_multiple_chars", "[arg('bar', short='ab')]\nfoo bar:\n"),
  C("arg_short_empty", "[arg('bar', short='')]\nfoo bar:\n"),
  C("arg_short_dash", "[arg('bar', short='-')]\nfoo bar:\n"),
  C("arg_duplicate_long", "[arg('a', long='x')]\n[arg('b', long='x')]\nfoo a b:\n"),
  C("arg_duplicate_short", "[arg('a', short='b')]\n[arg('b', short)]\nfoo a b:\n"),
  C("arg_value_without_option", "[arg('bar', value='x')]\nfoo bar:\n"),
  C("arg_flag_without_option", "set unstable\nset lists\n[arg('bar', flag)]\nfoo bar:\n"),
  C("arg_multiple_without_option", "set unstable\nset lists\n[arg('bar', multiple)]\nfoo bar:\n"),
  C("arg_flag_and_value", "set unstable\nset lists\n[arg('bar', long, flag, value='x')]\nfoo bar:\n"),
  C("arg_flag_and_pattern", "set unstable\nset lists\n[arg('bar', long, flag, pattern='x')]\nfoo bar:\n"),
  C("arg_flag_takes_no_value", "set unstable\nset lists\n[arg('bar', long, flag='x')]\nfoo bar:\n"),
  C("arg_multiple_takes_no_value", "set unstable\nset lists\n[arg('bar', long, multiple='x')]\nfoo bar:\n"),
  C("arg_pattern_requires_value", "[arg('bar', pattern)]\nfoo bar:\n"),
  C("arg_value_requires_value", "[arg('bar', long, value)]\nfoo bar:\n"),
  C("arg_help_requires_value", "[arg('bar', help)]\nfoo bar:\n"),
  C("arg_min_requires_value", "set unstable\nset lists\n[arg('bar', min)]\nfoo *bar:\n"),
  C("arg_long_non_literal", "x := 'a'\n[arg('bar', long=x)]\nfoo bar:\n"),
  C("arg_short_non_literal", "[arg('bar', short='a' + 'b')]\nfoo bar:\n"),
  C("arg_name_non_literal", "x := 'bar'\n[arg(x)]\nfoo bar:\n"),
  C("arg_max_invalid_x", "set unstable\nset lists\n[arg('bar', max='x')]\nfoo *bar:\n"),
  C("arg_max_invalid_plus", "set unstable\nset lists\n[arg('bar', max='+1')]\nfoo *bar:\n"),
  C("arg_max_invalid_leading_zero", "set unstable\nset lists\n[arg('bar', max='01')]\nfoo *bar:\n"),
  C("arg_max_invalid_space", "set unstable\nset lists\n[arg('bar', max='1 ')]\nfoo *bar:\n"),
  C("arg_max_too_large", "set unstable\nset lists\n[arg('bar', max='18446744073709551616')]\nfoo *bar:\n"),
  C("arg_min_exceeds_max", "set unstable\nset lists\n[arg('bar', min='3', max='2')]\nfoo *bar:\n"),
  C("arg_max_on_singular", "set unstable\nset lists\n[arg('bar', max='2')]\nfoo bar:\n"),
  C("arg_min_on_singular", "set unstable\nset lists\n[arg('bar', min='2')]\nfoo bar:\n"),
  C("arg_flag_with_default", "set unstable\nset lists\n[arg('bar', long, flag)]\nfoo bar='x':\n"),
  C("arg_unknown_key", "[arg('bar', foo)]\nfoo bar:\n"),
  C("arg_unknown_key_with_value", "[arg('bar', foo='x')]\nfoo bar:\n"),
  C("arg_duplicate_key", "[arg('bar', long, long='x')]\nfoo bar:\n"),
  C("arg_flag_requires_lists", "[arg('bar', long, flag)]\nfoo bar:\n"),
  C("arg_multiple_requires_lists", "[arg('bar', long, multiple)]\nfoo bar:\n"),
  C("arg_min_requires_lists", "[arg('bar', min='1')]\nfoo *bar:\n"),
  C("arg_max_requires_lists", "[arg('bar', max='1')]\nfoo *bar:\n"),
  C("arg_bad_pattern", "[arg('bar', pattern='(')]\nfoo bar:\n"),
  C("arg_pattern_mismatch", "[arg('bar', pattern='[0-9]+')]\nfoo bar:\n", "foo", "x1"),
  C("arg_pattern_anchored", "[arg('bar', pattern='a|b')]\nfoo bar:\n  @echo {{bar}}\n", "foo", "ab"),
  C("arg_pattern_default_checked", "[arg('bar', pattern='[0-9]+')]\nfoo bar='x':\n", "foo"),
  C("arg_pattern_dependency_argument", "[arg('bar', pattern='[0-9]+')]\nfoo bar:\nbaz: (foo 'x')\n", "baz"),
  C("arg_pattern_variable", "p := '[a-z]+'\n[arg('bar', pattern=p)]\nfoo bar:\n  @echo {{bar}}\n", "foo", "abc"),
  C("arg_duplicate_param", "[arg('bar', long)]\n[arg('bar', short)]\nfoo bar:\n"),
  C("arg_positional_after_keyword", "[arg(long, 'bar')]\nfoo bar:\n"),
  C("arg_no_arguments", "[arg]\nfoo bar:\n"),
  C("arg_short_bare_first_char", "[arg('bar', short)]\nfoo bar:\n  @echo {{bar}}\n", "foo", "-b", "v"),
  C("arg_long_equals_form", "[arg('bar', long)]\nfoo bar:\n  @echo {{bar}}\n", "foo", "--bar=v"),
  C("arg_short_equals_form", "[arg('bar', short)]\nfoo bar:\n  @echo {{bar}}\n", "foo", "-b=v"),
  C("arg_combined_shorts", """
    [arg('a', short, value='A')]
    [arg('b', short, value='B')]
    [arg('c', short)]
    foo a='-' b='-' c='-':
      @echo {{a}}{{b}}{{c}}
    """, "foo", "-abc", "C"),
  C("arg_missing_required_option", "[arg('bar', long)]\nfoo bar:\n", "foo"),
  C("arg_unknown_option", "[arg('bar', long)]\nfoo bar:\n", "foo", "--nope", "x"),
  C("arg_option_missing_value", "[arg('bar', long)]\nfoo bar:\n", "foo", "--bar"),
  C("arg_option_repeated", "[arg('bar', long)]\nfoo bar:\n", "foo", "--bar", "1", "--bar", "2"),
  C("arg_option_exempt_from_default_order", "[arg('b', long)]\nfoo a='x' b:\n  @echo {{a}}{{b}}\n", "foo", "--b", "1"),
  C("arg_value_dependency_uses_argument", """
    [arg('q', long, value='yes')]
    foo q='no':
      @echo {{q}}
    bar: (foo 'dep')
    """, "bar"),
  C("arg_flag_with_lists", """
    set unstable
    set lists
    [arg('v', long, flag)]
    foo v:
      @echo "[{{v}}]"
    """, "foo", "--v"),
  C("arg_flag_absent_with_lists", """
    set unstable
    set lists
    [arg('v', long, flag)]
    foo v:
      @echo "[{{v}}]"
    """, "foo"),
  C("arg_multiple_with_lists", """
    set unstable
    set lists
    [arg('v', long, multiple)]
    foo *v:
      @echo "{{v}}"
    """, "foo", "--v", "a", "--v", "b"),
  C("arg_min_max_json", """
    set unstable
    set lists
    [arg('v', long, multiple, min='1', max='3', help='h')]
    foo *v:
    """, J),
  C("arg_min_violation", """
    set unstable
    set lists
    [arg('v', min='2')]
    foo *v:
    """, "foo", "a"),
  C("arg_max_violation", """
    set unstable
    set lists
    [arg('v', max='1')]
    foo *v:
    """, "foo", "a", "b"),
  C("arg_help_list_usage", """
    set unstable
    set lists
    [arg('v', help=['a', 'b'])]
    foo v:
    """, "--usage", "foo"),
  C("arg_pattern_list", """
    set unstable
    set lists
    [arg('v', pattern=['a', 'b'])]
    foo v:
      @echo {{v}}
    """, "foo", "b"),
  C("arg_pattern_list_json", """
    set unstable
    set lists
    [arg('v', pattern=['a', 'b'])]
    foo v:
    """, J),
  C("arg_help_variable_json", "h := 'help text'\n[arg('v', help=h)]\nfoo v:\n", J),
  C("arg_colon_form", "[arg: 'v']\nfoo v:\n", J),
  # ---- cache
  C("cache_unstable", "[cache]\nfoo:\n  #!/bin/sh\n  echo hi\n"),
  C("cache_on_shell_recipe", "set unstable\n[cache]\nfoo:\n  echo hi\n"),
  C("cache_unknown_key", "set unstable\n[cache(input='x')]\nfoo:\n  #!/bin/sh\n"),
  C("cache_key_requires_value", "set unstable\n[cache(inputs)]\nfoo:\n  #!/bin/sh\n"),
  C("cache_positional_argument", "set unstable\n[cache('x')]\nfoo:\n  #!/bin/sh\n"),
  C("cache_json", "set unstable\n[cache(inputs='a', outputs='b' + 'c')]\nfoo:\n  #!/bin/sh\n", J),
  C("cache_bare_json", "set unstable\n[cache]\nfoo:\n  #!/bin/sh\n", J),
  C("cache_dump", "set unstable\n[cache(outputs='b', extra='e', inputs='a')]\nfoo:\n  #!/bin/sh\n", "--dump"),
  C("cache_no_cache_runs", "set unstable\n[cache]\n[script]\nfoo:\n  echo hi\n", "--no-cache"),
  # ---- confirm
  C("confirm_yes", "[confirm]\nfoo:\n  @echo ran\n", stdin="y\n"),
  C("confirm_yes_word_upper", "[confirm]\nfoo:\n  @echo ran\n", stdin="  YES  \n"),
  C("confirm_no", "[confirm]\nfoo:\n  @echo ran\n", stdin="n\n"),
  C("confirm_eof", "[confirm]\nfoo:\n  @echo ran\n"),
  C("confirm_prompt_expression", "x := 'really'\n[confirm(x + '?')]\nfoo:\n  @echo ran\n", stdin="y\n"),
  C("confirm_prompt_parameter", "[confirm('deploy ' + env)]\nfoo env:\n  @echo ran\n", "foo", "prod", stdin="y\n"),
  C("confirm_yes_flag", "[confirm]\nfoo:\n  @echo ran\n", "--yes"),
  C("confirm_dry_run", "[confirm]\nfoo:\n  echo ran\n", "--dry-run", stdin="y\n"),
  C("confirm_before_dependencies", "[confirm]\nfoo: bar\n  @echo foo\nbar:\n  @echo bar\n", stdin="n\n"),
  C("confirm_json", "[confirm]\nfoo:\n[confirm('p' + 'q')]\nbar:\n", J),
  C("confirm_dump", "[confirm:'p']\nfoo:\n[confirm()]\nbar:\n", "--dump"),
  C("confirm_too_many_args", "[confirm('a', 'b')]\nfoo:\n"),
  C("confirm_twice", "[confirm]\n[confirm]\nfoo:\n"),
  # ---- continue
  C("continue_invalid_signal", "[continue('SIGTERM')]\nfoo:\n"),
  C("continue_json", "[continue]\nfoo:\n[continue('SIGHUP', 'SIGQUIT')]\nbar:\n", J),
  C("continue_dump", "[continue]\nfoo:\n[continue('SIGQUIT', 'SIGHUP')]\nbar:\n", "--dump"),
  C("continue_non_literal", "x := 'SIGINT'\n[continue(x)]\nfoo:\n"),
  C("continue_runs_normally", "[continue]\nfoo:\n  @echo ran\n"),
  # ---- default
  C("default_attr_runs", "a:\n  @echo a\n[default]\nb:\n  @echo b\n"),
  C("default_attr_twice", "[default]\na:\n[default]\nb:\n"),
  C("default_attr_with_args", "[default]\nb x:\n  @echo b\n"),
  C("default_attr_json", "a:\n[default]\nb:\n", J),
  C("default_attr_with_argument", "[default('x')]\nb:\n"),
  C("default_attr_in_import", "import 'x.just'\na:\n  @echo a\n", files={"x.just": "[default]\nb:\n  @echo b\n"}),
  # ---- doc
  C("doc_recipe_list", "# comment\n[doc('attr doc')]\nfoo:\n", "--list"),
  C("doc_bare_suppresses_comment", "# comment\n[doc]\nfoo:\n", "--list"),
  C("doc_empty_string", "# comment\n[doc('')]\nfoo:\n", "--list"),
  C("doc_whitespace_trimmed", "[doc('  spaced  ')]\nfoo:\n", "--list"),
  C("doc_multiline_list", "[doc('line one\nline two')]\nfoo:\nbar:\n", "--list"),
  C("doc_multiline_triple", "[doc('''\n  first\n  second\n''')]\nfoo:\n", "--list"),
  C("doc_expression", "x := 'from var'\n[doc(x + '!')]\nfoo:\n", "--list"),
  C("doc_json", "# c\n[doc('d')]\nfoo:\n[doc]\nbar:\n", J),
  C("doc_dump", "# c\n[doc('d')]\nfoo:\n[doc]\nbar:\n", "--dump"),
  C("doc_show", "# c\n[doc('d')]\nfoo:\n  echo hi\n", "--show", "foo"),
  C("doc_module", "[doc('module doc')]\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("doc_module_empty", "[doc('')]\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("doc_module_bare_suppresses", "# comment\n[doc]\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("doc_module_comment", "# comment\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("doc_module_not_trimmed", "[doc(' spaced ')]\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("doc_module_multiline", "[doc('one\ntwo')]\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("doc_module_json", "[doc('module doc')]\n[group('g')]\nmod sub\n", J, files={"sub.just": "a:\n"}),
  C("doc_module_empty_list", "set unstable\nset lists\n[doc([])]\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("doc_recipe_list_value", "set unstable\nset lists\n[doc(['a', 'b'])]\nfoo:\n", "--list"),
  C("doc_undefined_variable", "[doc(nope)]\nfoo:\n"),
  C("doc_on_alias", "[doc('x')]\nalias b := foo\nfoo:\n"),
  C("doc_summary_unaffected", "[doc('x')]\nfoo:\n", "--summary"),
  # ---- env
  C("env_sets_variable", "[env('A', 'val')]\nfoo:\n  @echo $A\n"),
  C("env_overrides_export", "export A := 'exp'\n[env('A', 'env')]\nfoo:\n  @echo $A\n"),
  C("env_parameter_not_in_scope", "[env('A', target)]\nfoo target:\n", "foo", "x"),
  C("env_variable_in_scope", "v := 'var'\n[env('A', v)]\nfoo:\n  @echo $A\n"),
  C("env_last_wins", "[env('A', '1')]\n[env('A', '2')]\nfoo:\n  @echo $A\n"),
  C("env_not_visible_to_env_function", "[env('A', 'x')]\nfoo:\n  @echo {{env('A', 'unset')}}\n"),
  C("env_visible_to_backtick_in_body", "[env('A', 'x')]\nfoo:\n  @echo {{`echo $A`}}\n"),
  C("env_visible_to_default_backtick", "[env('A', 'x')]\nfoo p=`echo $A`:\n  @echo {{p}}\n"),
  C("env_empty_list_not_set", "set unstable\nset lists\n[env('A', [])]\nfoo:\n  @echo ${A:-unset}\n"),
  C("env_list_name", "set unstable\nset lists\n[env(['A', 'B'], 'x')]\nfoo:\n"),
  C("env_list_value_joined", "set unstable\nset lists\n[env('A', ['x', 'y'])]\nfoo:\n  @echo $A\n"),
  C("env_one_argument", "[env('A')]\nfoo:\n"),
  C("env_json", "[env('A', 'x' + 'y')]\n[env('B', 'z')]\nfoo:\n", J),
  C("env_dump", "[env('B', 'z')]\n[env('A', 'x')]\nfoo:\n", "--dump"),
  C("env_script", "[env('A', 'val')]\nfoo:\n  #!/bin/sh\n  echo $A\n"),
  # ---- exit-message / no-exit-message
  C("exit_message_and_no_exit_message", "[exit-message]\n[no-exit-message]\nbar:\n"),
  C("no_exit_message_attr", "[no-exit-message]\nfoo:\n  exit 3\n"),
  C("exit_message_attr_normal", "[exit-message]\nfoo:\n  exit 3\n"),
  C("exit_message_json", "[exit-message]\nfoo:\n[no-exit-message]\nbar:\n", J),
  # ---- extension
  C("extension_shebang", "[extension('.py')]\nfoo:\n  #!/bin/sh\n  echo $(basename $0)\n"),
  C("extension_script", "[script]\n[extension('.txt')]\nfoo:\n  echo $(basename $0)\n"),
  C("extension_on_shell_recipe", "[extension('.py')]\nbaz:\n  echo hi\n"),
  C("extension_without_dot", "[extension('py')]\nfoo:\n  #!/bin/sh\n  echo $(basename $0)\n"),
  C("extension_json", "[extension('.py')]\nfoo:\n  #!/bin/sh\n", J),
  C("extension_no_args", "[extension]\nfoo:\n  #!/bin/sh\n"),
  # ---- group
  C("group_list", "[group('a')]\nfoo:\n[group('b')]\n[group('a')]\nbar:\nbaz:\n", "--list"),
  C("group_duplicate_same", "[group('a')]\n[group(\"a\")]\nfoo:\n"),
  C("group_json", "[group('b')]\n[group('a')]\nfoo:\n", J),
  C("group_dump", "[group('b')]\n[group('a')]\nfoo:\n", "--dump"),
  C("group_groups_flag", "[group('b')]\nfoo:\n[group('a')]\nbar:\n", "--groups"),
  C("group_module", "[group('g')]\nmod sub\nfoo:\n", "--list", files={"sub.just": "a:\n"}),
  C("group_non_literal", "x := 'a'\n[group(x)]\nfoo:\n"),
  C("group_no_args", "[group]\nfoo:\n"),
  C("group_two_args", "[group('a', 'b')]\nfoo:\n"),
  # ---- metadata
  C("metadata_json", "[metadata('a', 'b')]\n[metadata('c')]\nfoo:\n", J),
  C("metadata_dump", "[metadata('a', 'b')]\n[metadata('c')]\nfoo:\n", "--dump"),
  C("metadata_no_args", "[metadata]\nfoo:\n"),
  C("metadata_runs", "[metadata('x')]\nfoo:\n  @echo ok\n"),
  # ---- no-cd / working-directory
  C("no_cd_attr", "[no-cd]\nfoo:\n  @pwd\n", dirs=["sub"], cwd="sub"),
  C("no_cd_and_working_directory", "[no-cd]\n[working-directory('x')]\nbar:\n"),
  C("working_directory_attr", "[working-directory('sub')]\nfoo:\n  @pwd\n", dirs=["sub"]),
  C("working_directory_attr_parameter", "[working-directory(d)]\nfoo d:\n  @pwd\n", "foo", "sub", dirs=["sub"]),
  C("working_directory_attr_absolute", "[working-directory('/')]\nfoo:\n  @pwd\n"),
  C("working_directory_attr_backtick_unaffected", "[working-directory('sub')]\nfoo:\n  @echo {{`pwd`}}\n", dirs=["sub"]),
  C("working_directory_attr_list", "set unstable\nset lists\n[working-directory(['a', 'b'])]\nfoo:\n  echo\n"),
  C("working_directory_attr_json", "[working-directory('sub')]\nfoo:\n", J),
  C("working_directory_attr_no_args", "[working-directory]\nfoo:\n"),
  C("working_directory_attr_script", "[working-directory('sub')]\nfoo:\n  #!/bin/sh\n  pwd\n", dirs=["sub"]),
  # ---- no-quiet
  C("no_quiet_without_set_quiet", "[no-quiet]\nfoo:\n  echo hi\n"),
  C("no_quiet_json", "[no-quiet]\nfoo:\n", J),
  C("no_quiet_flag_quiet", "set quiet\n[no-quiet]\nfoo:\n  echo hi\n", "--quiet"),
  # ---- parallel
  C("parallel_runs_deps", "[parallel]\nfoo: a b\n  @echo foo\na:\n  @echo a\nb:\n  @echo a\n"),
  C("parallel_first_error_reported", "[parallel]\nfoo: a b\na:\n  @sleep 0.2; exit 2\nb:\n  @exit 3\n"),
  C("parallel_json", "[parallel]\nfoo:\n", J),
  # ---- positional-arguments
  C("positional_arguments_attr", "[positional-arguments]\nfoo a:\n  @echo \"$0 $1\"\n", "foo", "x"),
  C("positional_arguments_attr_json", "[positional-arguments]\nfoo:\n", J),
  C("positional_arguments_attr_other_recipe", "[positional-arguments]\nfoo a:\nbar a:\n  @echo \"[$#]\"\n", "bar", "x"),
  # ---- private
  C("private_recipe", "[private]\nfoo:\nbar:\n", "--list"),
  C("private_recipe_runs", "[private]\nfoo:\n  @echo ran\n", "foo"),
  C("private_summary", "[private]\nfoo:\nbar:\n_baz:\n", "--summary"),
  C("private_alias", "[private]\nalias f := foo\nalias g := foo\nfoo:\n", "--list"),
  C("private_alias_json", "[private]\nalias f := foo\nfoo:\n", J),
  C("private_assignment_evaluate", "[private]\nx := 'a'\ny := 'b'\n_z := 'c'\n", "--evaluate"),
  C("private_assignment_by_name", "[private]\nx := 'a'\n", "--evaluate", "x"),
  C("private_assignment_json", "[private]\nx := 'a'\n", J),
  C("private_module", "[private]\nmod sub\nmod _other 'sub.just'\n", "--list", files={"sub.just": "a:\n"}),
  C("private_module_recipes_invocable", "[private]\nmod sub\n", "sub::a", files={"sub.just": "a:\n  @echo a\n"}),
  C("private_module_summary", "[private]\nmod sub\nfoo:\n", "--summary", files={"sub.just": "a:\n"}),
  C("private_recipe_json", "[private]\nfoo:\n_bar:\n", J),
  C("private_with_argument", "[private('x')]\nfoo:\n"),
  # ---- script
  C("script_attr_default_interpreter", "[script]\nfoo:\n  set -o | grep -q 'nounset *on' && echo nounset\n  echo ok\n"),
  C("script_attr_command", "[script('bash', '-c', 'echo args: $#', 'zero')]\nfoo:\n  echo ignored\n"),
  C("script_attr_and_shell", "[script]\n[shell]\nbar:\n"),
  C("script_attr_json", "[script]\nfoo:\n[script('python3', '-u')]\nbar:\n", J),
  C("script_attr_dump", "[script]\nfoo:\n[script('python3', '-u')]\nbar:\n", "--dump"),
  C("script_attr_non_literal", "x := 'sh'\n[script(x)]\nfoo:\n"),
  C("script_attr_error", "[script]\nfoo:\n  echo a\n  exit 5\n"),
  C("script_attr_quiet_echo", "[script]\n@foo:\n  echo hi\n"),
  C("shell_attr_shebang_line", "[shell]\nfoo:\n  #!/bin/sh\n  echo hi\n"),
  C("shell_attr_json", "[shell]\nfoo:\n", J),
  C("shell_attr_with_args", "[shell('x')]\nfoo:\n"),
  # ---- timestamp
  C("timestamp_format_year", "[timestamp('%Y-x')]\nfoo:\n  @echo hi\n"),
  C("timestamp_bad_format", "[timestamp('%Q')]\nfoo:\n  echo hi\n"),
  C("timestamp_json", "[timestamp]\nfoo:\n[timestamp('%H')]\nbar:\n", J),
  C("timestamp_dump", "[timestamp]\nfoo:\n[timestamp('%H')]\nbar:\n", "--dump"),
  C("timestamp_script_format", "[timestamp('x')]\nfoo:\n  #!/bin/sh\n  echo hi\n"),
  C("timestamp_parameter", "[timestamp(f)]\nfoo f:\n  echo hi\n", "foo", "[%%]"),
  # ---- OS attributes
  C("os_linux_enabled", "[linux]\nfoo:\n  @echo linux\n"),
  C("os_windows_disabled", "[windows]\nfoo:\n  @echo win\n", "foo"),
  C("os_multiple_any_matches", "[windows, unix]\nfoo:\n  @echo yes\n"),
  C("os_recipe_pair", "[windows]\nfoo:\n  @echo win\n[unix]\nfoo:\n  @echo unix\n"),
  C("os_assignment_pair", "[windows]\nx := 'w'\n[linux]\nx := 'l'\nfoo:\n  @echo {{x}}\n"),
  C("os_alias", "[windows]\nalias f := foo\nfoo:\n  @echo foo\n", "f"),
  C("os_import_disabled", "[windows]\nimport 'nope.just'\nfoo:\n  @echo ok\n"),
  C("os_import_enabled", "[unix]\nimport 'x.just'\n", "b", files={"x.just": "b:\n  @echo b\n"}),
  C("os_module_disabled", "[windows]\nmod nope\nfoo:\n  @echo ok\n"),
  C("os_module_pair", "[windows]\nmod sub 'w.just'\n[linux]\nmod sub 'l.just'\n", "sub::a",
    files={"l.just": "a:\n  @echo l\n", "w.just": "a:\n  @echo w\n"}),
  C("os_unexport", "[windows]\nunexport HOME\nfoo:\n  @echo ${HOME:+set}\n"),
  C("os_macos_disabled", "[macos]\nfoo:\n  @echo mac\n[freebsd, openbsd, netbsd, dragonfly, android]\nfoo:\n  @echo bsd\n", "foo"),
  C("os_android_not_linux", "[android]\nfoo:\n  @echo android\n", "foo"),
  C("os_attributes_json", "[unix]\n[linux, macos]\nfoo:\n", J),
  C("os_attribute_with_arg", "[linux('x')]\nfoo:\n"),
  C("os_disabled_item_must_parse", "[windows]\nfoo:\n  {{\n"),
  C("os_disabled_duplicate_setting", "[windows]\nset quiet\nset quiet\nfoo:\n"),
  # ---- canonical order
  C("canonical_order_dump", """
    [working-directory('w')]
    [unix]
    [timestamp]
    [private]
    [positional-arguments]
    [parallel]
    [no-quiet]
    [no-exit-message]
    [metadata('m')]
    [group('g')]
    [env('E', 'v')]
    [doc('d')]
    [continue]
    [confirm]
    [arg('x', long)]
    [linux]
    foo x:
    """, "--dump"),
  C("canonical_order_json", """
    [working-directory('w')]
    [unix]
    [timestamp]
    [private]
    [positional-arguments]
    [parallel]
    [no-quiet]
    [no-exit-message]
    [metadata('m')]
    [group('g')]
    [env('E', 'v')]
    [doc('d')]
    [continue]
    [confirm]
    [arg('x', long)]
    [linux]
    foo x:
    """, J),
  C("canonical_order_show", """
    [working-directory('w')]
    [script]
    [extension('.x')]
    [default]
    [private]
    [no-cd]
    [exit-message]
    foo:
    """, "--show", "foo"),
  C("canonical_order_same_name", "[group('z')]\n[metadata('b')]\n[group('a')]\n[metadata('a')]\n[env('Z', '1')]\n[env('A', '2')]\nfoo:\n", "--dump"),
  C("canonical_order_same_name_show", "[group('z')]\n[metadata('b')]\n[group('a')]\n[metadata('a')]\nfoo:\n", "--show", "foo"),
  C("multiple_in_one_bracket_dump", "[private, group('a'), doc: 'x']\nfoo:\n", "--dump"),
  C("colon_form_dump", "[group: 'a']\n[doc: 'x']\nfoo:\n", "--dump"),
  C("alias_attrs_dump", "[private]\n[linux]\nalias f := foo\nfoo:\n", "--dump"),
  C("module_attrs_dump", "[private]\n[group('g')]\n[doc('d')]\nmod sub\n", "--dump", files={"sub.just": "a:\n"}),
  C("assignment_attrs_dump", "[private]\n[unix]\nx := 'a'\n", "--dump"),
  # ---- invalid attributes per item
  C("invalid_attr_alias", "[group('x')]\nalias f := foo\nfoo:\n"),
  C("invalid_attr_assignment", "[doc('x')]\nx := 'a'\n"),
  C("invalid_attr_module", "[no-cd]\nmod sub\n", files={"sub.just": ""}),
  C("invalid_attr_setting", "[private]\nset quiet\n"),
  C("invalid_attr_unexport", "[private]\nunexport X\n"),
  C("invalid_attr_import", "[private]\nimport 'foo.just'\n", files={"foo.just": ""}),
  C("invalid_attr_import_double_quoted", "[private]\nimport? \"foo.just\"\n"),
  C("invalid_attr_function", "set unstable\n[private]\nf(x) := x\n"),
  C("invalid_attr_export_assignment", "[group('a')]\nexport x := 'a'\n"),
  C("invalid_attr_eager_assignment", "[confirm]\neager x := 'a'\n"),
  C("unknown_attribute", "[foo]\nbar:\n"),
  C("unknown_attribute_case", "[Private]\nbar:\n"),
  C("duplicate_attribute", "[private]\n[group('a'), private]\nbar:\n"),
  C("duplicate_attribute_same_bracket", "[no-cd, no-cd]\nbar:\n"),
  C("extraneous_attribute", "[private]\n\nbar:\n"),
  C("extraneous_attributes", "[private]\n[no-cd]\n# c\nbar:\n"),
  C("attribute_at_eof", "[private]\n"),
  C("attribute_two_brackets_one_line", "[private] [no-cd]\nbar:\n"),
  C("attribute_trailing_comma_empty", "[private,]\nbar:\n"),
  C("attribute_trailing_comma_args", "[metadata('a', 'b',)]\nbar:\n", J),
  C("attribute_empty_parens", "[private()]\nbar:\n", "--dump"),
  C("attribute_comment_after", "[private] # comment\nbar:\n", "--list"),
  C("attribute_fstring_argument", "[group(f'a')]\nbar:\n"),
  C("attribute_xstring_argument", "[group(x'a')]\nbar:\n", "--list"),
  C("attribute_keyword_on_non_arg", "[group(name='a')]\nbar:\n"),
  C("attribute_positional_after_keyword", "set unstable\n[cache(inputs='a', 'b')]\nbar:\n  #!/bin/sh\n"),
  C("attribute_colon_too_many", "[private: 'x']\nbar:\n"),
  # ---- pattern checked on every value source
  C("arg_pattern_value_switch", "[arg('q', long, value='bad', pattern='[0-9]+')]\nfoo q='1': dep\n  @echo {{q}}\ndep:\n  @echo dep\n", "foo", "--q"),
  C("arg_pattern_default_ok_runs", "[arg('q', long, value='bad', pattern='[0-9]+')]\nfoo q='1': dep\n  @echo {{q}}\ndep:\n  @echo dep\n", "foo"),
  C("arg_pattern_checked_before_confirm", "[confirm]\n[arg('b', pattern='[0-9]+')]\nfoo b='x':\n", "foo"),
  C("arg_pattern_dry_run", "[arg('b', pattern='[0-9]+')]\nfoo b='x':\n  echo hi\n", "--dry-run", "foo"),
  C("arg_pattern_submodule_recipe_name", "mod sub\n", "sub::bar", files={"sub.just": "[arg('b', pattern='[0-9]+')]\nbar b='x':\n"}),
  C("arg_pattern_variadic_missing_unchecked", "[arg('xs', pattern='[0-9]+')]\nfoo *xs:\n  @echo foo {{xs}}\n", "foo"),
  C("arg_pattern_variadic_default_whole", "[arg('xs', pattern='[0-9]+')]\nfoo *xs='1 2':\n", "foo"),
  C("arg_pattern_variadic_dependency_each", "[arg('xs', pattern='[0-9]+')]\nfoo *xs:\nd: (foo '1' 'x')\n", "d"),
  C("arg_pattern_list_default_each", "set unstable\nset lists\n[arg('xs', pattern='[0-9]+')]\nfoo *xs=['1', 'b']:\n", "foo"),
  C("arg_pattern_list_default_ok", "set unstable\nset lists\n[arg('xs', pattern='[0-9]+')]\nfoo *xs=['1', '2']:\n  @echo {{xs}}\n", "foo"),
  C("arg_pattern_list_dependency", "set unstable\nset lists\n[arg('xs', pattern='[0-9]+')]\nfoo *xs:\nd: (foo ['1', 'x'])\n", "d"),
  C("group_module_json_order", "[group('b')]\n[group('a')]\nmod sub\n", J, files={"sub.just": "a:\n"}),
  # ---- batch 2
  C("arg_error_order_long_before_pattern", "[arg('bar', pattern='(', long='')]\nfoo bar:\n"),
  C("arg_error_order_short_before_long_dup", "[arg('a', long='x')]\n[arg('b', long='x', short='bb')]\nfoo a b:\n"),
  C("arg_error_order_value_before_flag", "set unstable\nset lists\n[arg('bar', value='x', flag)]\nfoo bar:\n"),
  C("arg_error_order_unknown_key_last", "[arg('bar', nope, long='')]\nfoo bar:\n"),
  C("arg_error_unknown_key_before_min", "[arg('bar', nope, min='1')]\nfoo *bar:\n"),
  C("arg_max_without_lists_before_unknown", "[arg('bar', max='x')]\nfoo *bar:\n"),
  C("arg_long_same_as_other_param_short", "[arg('a', long='b')]\n[arg('b', short='b')]\nfoo a b:\n"),
  C("arg_long_bare_dup_explicit", "[arg('a', long='b')]\n[arg('b', long)]\nfoo a b:\n"),
  C("arg_undefined_before_duplicate", "[arg('nope')]\n[arg('nope')]\nfoo bar:\n"),
  C("arg_key_whitespace", "[arg( 'bar' , long = 'x' , short = 'y' )]\nfoo bar:\n", "--dump"),
  C("arg_long_double_quoted_dump", "[arg(\"bar\", long=\"x\", help=\"h\" + 'i')]\nfoo bar:\n", "--dump"),
  C("arg_min_max_dump_quotes", "set unstable\nset lists\n[arg('bar', max=\"3\", min='''1''')]\nfoo *bar:\n", "--dump"),
  C("arg_usage_with_value_and_pattern", "[arg('a', long, short, value='1', help='switch')]\n[arg('b', long='bee', pattern='x|y')]\nfoo a='0' b='x':\n", "--usage", "foo"),
  C("arg_option_after_positional", "[arg('b', long)]\nfoo a b:\n  @echo {{a}} {{b}}\n", "foo", "x", "--b", "y"),
  C("arg_double_dash_ends_options", "[arg('b', long)]\nfoo a b='d':\n  @echo {{a}} {{b}}\n", "foo", "--", "--b"),
  C("arg_short_bare_value", "[arg('v', short, value='on')]\nfoo v='off':\n  @echo {{v}}\n", "foo", "-v"),
  C("arg_value_uses_earlier_parameter", "[arg('b', long, value=a + '!')]\nfoo a b='x':\n  @echo {{b}}\n", "foo", "hey", "--b"),
  C("arg_value_flag_takes_no_value_runtime", "[arg('b', long, value='v')]\nfoo b='x':\n", "foo", "--b=3"),
  C("arg_json_short_bare", "[arg('bar', short, long)]\nfoo bar:\n", J),
  C("arg_json_value_expression", "x := 'v'\n[arg('bar', long, value=x)]\nfoo bar='d':\n", J),
  C("arg_help_with_dependency_show", "[arg('a', help='H')]\nfoo a:\n  echo {{a}}\n", "--show", "foo"),
  C("cache_dry_run", "set unstable\n[cache]\nfoo:\n  #!/bin/sh\n  echo hi\n", "--dry-run"),
  C("cache_extension_script_order", "set unstable\n[script]\n[cache(inputs='a')]\n[extension('.sh')]\nfoo:\n", "--dump"),
  C("cache_twice", "set unstable\n[cache]\n[cache]\nfoo:\n  #!/bin/sh\n"),
  C("cache_default_script", "set unstable\nset default-script\n[cache]\nfoo:\n  echo hi\n", "--dry-run"),
  C("confirm_prompt_variables", "x := 'v'\n[confirm('x is ' + x)]\nfoo:\n  @echo ran\n", stdin="yes\n"),
  C("confirm_dependency_prompted", "foo: bar\n  @echo foo\n[confirm]\nbar:\n  @echo bar\n", stdin="y\n"),
  C("confirm_submodule_name", "mod sub\n", "sub::foo", stdin="y\n", files={"sub.just": "[confirm]\nfoo:\n  @echo ran\n"}),
  C("confirm_prompt_error", "[confirm(error('no'))]\nfoo:\n", stdin="y\n"),
  C("confirm_prompt_list", "set unstable\nset lists\n[confirm(['a', 'b'])]\nfoo:\n  @echo ran\n", stdin="y\n"),
  C("confirm_after_env_evaluated", "[confirm]\n[env('A', error('env first'))]\nfoo:\n", stdin="y\n"),
  C("confirm_with_yes_env", "[confirm]\nfoo:\n  @echo ran\n", env={"JUST_YES": "true"}),
  C("confirm_twice_for_two_invocations", "[confirm]\nfoo x:\n  @echo {{x}}\n", "foo", "1", "foo", "2", stdin="y\nn\n"),
  C("continue_duplicate_signals_dump", "[continue('SIGINT', \"SIGINT\", 'SIGHUP')]\nfoo:\n", "--dump"),
  C("continue_empty_parens_json", "[continue()]\nfoo:\n", J),
  C("continue_lowercase_signal", "[continue('sigint')]\nfoo:\n"),
  C("default_attr_show", "[default]\nfoo:\n  echo\n", "--show", "foo"),
  C("default_attr_in_submodule", "mod sub\n", "sub", files={"sub.just": "a:\n  @echo a\n[default]\nb:\n  @echo b\n"}),
  C("default_attr_on_private", "[default]\n[private]\n_b:\n  @echo b\na:\n"),
  C("default_attr_list_unaffected", "a:\n[default]\nb:\n", "--list"),
  C("default_attr_three", "[default]\na:\n[default]\nb:\n[default]\nc:\n"),
  C("default_attr_import_and_root", "import 'x.just'\n[default]\na:\n", files={"x.just": "[default]\nb:\n"}),
  C("doc_multiline_with_params", "[doc('one\ntwo')]\nfoo a b='x':\n", "--list"),
  C("doc_multiline_show", "[doc('one\ntwo')]\nfoo:\n  echo\n", "--show", "foo"),
  C("doc_multiline_json", "[doc('one\ntwo')]\nfoo:\n", J),
  C("doc_multiline_trailing_newline", "[doc('one\n')]\nfoo:\n", "--list"),
  C("doc_multiline_in_group", "[group('g')]\n[doc('one\ntwo')]\nfoo:\n", "--list"),
  C("doc_with_list_heading", "[doc('d')]\nfoo:\n", "--list", "--list-heading", "H\n", "--list-prefix", ">"),
  C("doc_colon_form", "[doc: 'x']\nfoo:\n", "--list"),
  C("doc_on_alias_target_listing", "[doc('x')]\nfoo:\nalias f := foo\n", "--list"),
  C("doc_module_submodule_listing", "[doc('sub doc')]\nmod sub\n", "--list", "--list-submodules", files={"sub.just": "a:\n"}),
  C("doc_module_show_dump", "# cmt\n[doc('d')]\nmod sub\n", "--dump", files={"sub.just": "a:\n"}),
  C("doc_module_comment_json", "# comment doc\nmod sub\n", J, files={"sub.just": "a:\n"}),
  C("doc_module_variable", "x := 'var doc'\n[doc(x)]\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("doc_module_multiline_json", "[doc('one\ntwo')]\nmod sub\n", J, files={"sub.just": "a:\n"}),
  C("doc_module_twice", "[doc('a')]\n[doc('b')]\nmod sub\n", files={"sub.just": "a:\n"}),
  C("doc_backtick", "[doc(`echo from backtick`)]\nfoo:\n", "--list"),
  C("doc_recipe_parameter_not_in_scope", "[doc(a)]\nfoo a:\n"),
  C("env_key_variable", "k := 'KEY'\n[env(k, 'v')]\nfoo:\n  @echo $KEY\n"),
  C("env_dependency_arguments_no_env", "[env('A', 'x')]\nfoo: (bar `echo ${A:-unset}`)\nbar v:\n  @echo {{v}}\n"),
  C("env_not_inherited_by_dependency", "[env('A', 'x')]\nfoo: bar\nbar:\n  @echo ${A:-unset}\n"),
  C("env_shell_function_in_body", "[env('A', 'x')]\nfoo:\n  @echo {{shell('echo $A')}}\n"),
  C("env_confirm_prompt_no_env", "[env('A', 'x')]\n[confirm(`echo ${A:-unset}`)]\nfoo:\n", stdin="n\n"),
  C("env_recipe_name_in_value", "[env('A', recipe_name())]\nfoo:\n  @echo $A\n"),
  C("env_earlier_env_not_variable", "[env('A', 'x')]\n[env('B', A)]\nfoo:\n"),
  C("env_three_args", "[env('A', 'b', 'c')]\nfoo:\n"),
  C("env_colon_form", "[env: 'A']\nfoo:\n"),
  C("env_dry_run", "[env('A', error('boom'))]\nfoo:\n  echo\n", "--dry-run"),
  C("exit_message_no_args_error", "[exit-message('x')]\nfoo:\n"),
  C("exit_message_dump", "[no-exit-message]\n[exit-message]\nfoo:\n", "--dump"),
  C("no_exit_message_script_attr", "[no-exit-message]\nfoo:\n  #!/bin/sh\n  exit 4\n"),
  C("no_exit_message_shell_not_found_attr", "set shell := ['/nonexistent']\n[no-exit-message]\na:\n  echo\n"),
  C("no_exit_message_dependency_failure", "a: b\n[no-exit-message]\nb:\n  @exit 2\n"),
  C("no_exit_message_parent_of_failing", "[no-exit-message]\na: b\nb:\n  @exit 2\n"),
  C("extension_default_script", "set default-script\n[extension('.txt')]\nfoo:\n  echo $(basename $0)\n"),
  C("extension_with_shell_attr", "[shell]\n[extension('.py')]\nbaz:\n  echo hi\n"),
  C("extension_shebang_only_via_shell_attr", "set default-script\n[shell]\n[extension('.py')]\nbaz:\n  echo hi\n"),
  C("extension_no_dot_dump", "[extension(\"py\")]\nfoo:\n  #!/bin/sh\n", "--dump"),
  C("cache_on_shell_recipe_before_extension", "set unstable\n[extension('.x')]\n[cache]\nbaz:\n  echo\n"),
  C("group_unsorted_list", "[group('z')]\nfoo:\n[group('a')]\nbar:\n", "--list", "--unsorted"),
  C("group_private_recipe", "[group('g')]\n[private]\nfoo:\nbar:\n", "--list"),
  C("group_list_heading_filter", "[group('g')]\nfoo:\nbar:\n", "--list", "--group", "g"),
  C("group_empty_name", "[group('')]\nfoo:\n", "--list"),
  C("group_summary", "[group('g')]\nfoo:\n", "--summary"),
  C("group_duplicate_different_quotes_same_text", "[group('a')]\n[group(\"\"\"a\"\"\")]\nfoo:\n"),
  C("group_alias", "[group('g')]\nfoo:\nalias f := foo\n", "--list"),
  C("metadata_twice_same", "[metadata('a')]\n[metadata('a')]\nfoo:\n", "--dump"),
  C("metadata_prefix_order", "[metadata('a', 'b')]\n[metadata('a')]\nfoo:\n", "--dump"),
  C("metadata_non_literal", "[metadata('a' + 'b')]\nfoo:\n"),
  C("metadata_show", "[metadata('a')]\nfoo:\n", "--show", "foo"),
  C("no_cd_script", "[no-cd]\nfoo:\n  #!/bin/sh\n  pwd\n", dirs=["sub"], cwd="sub"),
  C("no_cd_with_args", "[no-cd('x')]\nfoo:\n"),
  C("no_cd_backtick_unaffected", "[no-cd]\nfoo:\n  @echo {{`pwd`}}\n", dirs=["sub"], cwd="sub"),
  C("working_directory_attr_relative_to_submodule", "mod sub\n", "sub::b", dirs=["sub/w"],
    files={"sub/mod.just": "[working-directory('w')]\nb:\n  @pwd\n"}),
  C("working_directory_attr_missing", "[working-directory('nope')]\nfoo:\n  echo hi\n"),
  C("working_directory_attr_missing_script", "[working-directory('nope')]\nfoo:\n  #!/bin/sh\n  echo hi\n"),
  C("working_directory_attr_variable", "d := 'sub'\n[working-directory(d)]\nfoo:\n  @pwd\n", dirs=["sub"]),
  C("working_directory_attr_dependency", "foo: bar\n  @pwd\n[working-directory('sub')]\nbar:\n  @pwd\n", dirs=["sub"]),
  C("working_directory_attr_dry_run", "[working-directory(error('x'))]\nfoo:\n  echo\n", "--dry-run"),
  C("working_directory_attr_error_before_deps", "foo: bar\n  echo\n[working-directory(error('wd'))]\nbar:\n  @echo bar\n"),
  C("no_quiet_at_line", "[no-quiet]\nfoo:\n  @echo a\n"),
  C("no_quiet_with_args", "[no-quiet(1)]\nfoo:\n"),
  C("parallel_subsequents", "[parallel]\nfoo: && a b\n  @echo foo\na:\n  @echo a\nb:\n  @echo a\n"),
  C("parallel_single_dep", "[parallel]\nfoo: a\n  @echo foo\na:\n  @echo a\n"),
  C("parallel_jobs_one", "[parallel]\nfoo: a b\n  @echo foo\na:\n  @echo a\nb:\n  @echo a\n", "--jobs", "1"),
  C("parallel_dry_run", "[parallel]\nfoo: a b\n  echo foo\na:\n  echo a\nb:\n  echo a\n", "--dry-run", "--jobs", "1"),
  C("positional_arguments_attr_shebang", "[positional-arguments]\nfoo a:\n  #!/bin/sh\n  echo $1\n", "foo", "x"),
  C("positional_arguments_attr_variadic", "[positional-arguments]\nfoo *a:\n  @echo $#\n", "foo", "x", "y"),
  C("private_dependency_still_runs", "foo: _bar\n  @echo foo\n[private]\n_bar:\n  @echo bar\n"),
  C("private_show", "[private]\nfoo:\n  echo\n", "--show", "foo"),
  C("private_list_unsorted", "[private]\nfoo:\nbar:\n", "--list", "--unsorted"),
  C("private_alias_to_private", "[private]\nfoo:\nalias f := foo\n", "--list"),
  C("private_variables_flag", "[private]\nx := 'a'\ny := 'b'\n", "--variables"),
  C("private_assignment_dump", "[private]\nexport x := 'a'\n", "--dump"),
  C("private_module_json", "[private]\nmod sub\n", J, files={"sub.just": "a:\n"}),
  C("private_module_groups", "[private]\n[group('g')]\nmod sub\n", "--list", files={"sub.just": "a:\n"}),
  C("private_underscore_module_listed", "mod _sub 'sub.just'\n", "--list", files={"sub.just": "a:\n"}),
  C("private_recipe_choose_completion_usage", "[private]\nfoo a:\n", "--usage", "foo"),
  C("script_attr_shebang_body", "[script]\nfoo:\n  #!/bin/false\n  echo ok\n"),
  C("script_attr_extension_name", "[script]\nfoo:\n  basename $0\n"),
  C("script_attr_command_with_extension", "[script('sh')]\n[extension('.sh')]\nfoo:\n  basename $0\n"),
  C("script_attr_missing_command", "[script('/nonexistent/x')]\nfoo:\n  echo\n"),
  C("script_attr_positional", "[script('sh')]\n[positional-arguments]\nfoo a:\n  echo \"$1\"\n", "foo", "p"),
  C("script_attr_dry_run", "[script]\nfoo:\n  echo {{'x'}}\n", "--dry-run"),
  C("script_attr_show", "[script('python3')]\nfoo:\n  print(1)\n", "--show", "foo"),
  C("script_attr_with_default_script", "set default-script\n[script('sh')]\nfoo:\n  echo ok\n"),
  C("script_attr_error_line_number", "[script]\nfoo:\n  true\n  false\n"),
  C("shell_attr_with_script_shell_order", "[shell]\n[script]\nbar:\n"),
  C("shell_attr_and_cache", "set unstable\n[shell]\n[cache]\nbar:\n  #!/bin/sh\n"),
  C("timestamp_format_variable", "f := '%Y'\n[timestamp(f + '!')]\nfoo:\n  @echo hi\n"),
  C("timestamp_quiet_line_still_echoed", "[timestamp('T')]\nfoo:\n  @echo hi\n"),
  C("timestamp_cli_format_overridden", "[timestamp('A')]\nfoo:\n  @echo hi\n", "--timestamp-format", "B"),
  C("timestamp_cli_format_used", "[timestamp]\nfoo:\n  @echo hi\n", "--timestamp-format", "B"),
  C("timestamp_list_format", "set unstable\nset lists\n[timestamp(['a', 'b'])]\nfoo:\n  @echo hi\n"),
  C("timestamp_dry_run", "[timestamp('T')]\nfoo:\n  echo hi\n", "--dry-run"),
  C("timestamp_ignore_comments", "set ignore-comments\n[timestamp('T')]\nfoo:\n  # c\n  echo hi\n"),
  C("timestamp_two_args", "[timestamp('a', 'b')]\nfoo:\n"),
  C("os_unix_linux_pair_dump", "[linux]\nfoo:\n[windows]\nfoo:\n", "--dump"),
  C("os_disabled_recipe_list", "[windows]\nfoo:\nbar:\n", "--list"),
  C("os_disabled_recipe_json", "[windows]\nfoo:\nbar:\n", J),
  C("os_disabled_default_recipe", "[windows]\nfoo:\n  @echo foo\nbar:\n  @echo bar\n"),
  C("os_disabled_alias_duplicate", "[windows]\nalias f := foo\nalias f := foo\nfoo:\n"),
  C("os_disabled_dependency_unknown", "[windows]\nfoo:\nbar: foo\n"),
  C("os_disabled_mod_json", "[windows]\nmod sub\nfoo:\n", J),
  C("os_disabled_set_invalid_value", "[windows]\nset shell := 'x'\nfoo:\n"),
  C("os_disabled_unknown_setting", "[windows]\nset nope\nfoo:\n"),
  C("os_disabled_invalid_attr", "[windows, group('x')]\nset quiet\nfoo:\n"),
  C("os_disabled_function", "set unstable\n[windows]\nf() := 'w'\n[unix]\nf() := 'u'\nfoo:\n  @echo {{f()}}\n"),
  C("os_disabled_export_conflict", "[windows]\nexport x := 'a'\nunexport x\nfoo:\n"),
  C("os_disabled_variable_undefined", "[windows]\nx := 'a'\nfoo:\n  @echo {{x}}\n"),
  C("os_unix_with_extra_on_setting_dump", "[unix]\nset quiet\nfoo:\n", "--dump"),
  C("os_import_optional_disabled", "[windows]\nimport? 'x.just'\nfoo:\n  @echo ok\n"),
  C("invalid_attr_alias_doc", "[doc('x')]\nalias f := foo\nfoo:\n"),
  C("invalid_attr_module_confirm", "[confirm]\nmod sub\n", files={"sub.just": ""}),
  C("invalid_attr_module_metadata", "[metadata('x')]\nmod? sub\n"),
  C("invalid_attr_setting_unix_ok", "[unix]\nset quiet\nfoo:\n  echo hi\n"),
  C("invalid_attr_assignment_group", "[group('g')]\nx := 'a'\n"),
  C("invalid_attr_import_triple", "[no-cd]\nimport '''foo.just'''\n"),
  C("invalid_attr_import_x_string", "[no-cd]\nimport x'foo.just'\n"),
  C("invalid_attr_mod_with_path", "[no-cd]\nmod sub 'x.just'\n"),
  C("invalid_attr_unknown_on_setting", "[nope]\nset quiet\n"),
  C("invalid_attr_count_on_setting", "[private('x')]\nset quiet\n"),
  C("invalid_attr_duplicate_on_alias", "[private]\n[private]\nalias f := foo\nfoo:\n"),
  C("invalid_attr_first_reported", "[group('a'), doc('x')]\nalias f := foo\nfoo:\n"),
  C("attribute_multiline_item", "[private]\n[\n  group('a')\n]\nfoo:\n"),
  C("attribute_multiline_args", "[group(\n  'a'\n)]\nfoo:\n", "--list"),
  C("attribute_keyword_then_positional_x", "[arg('bar', long='x', x'y')]\nfoo bar:\n"),
  C("attribute_cache_bad_key_value", "set unstable\n[cache(extra)]\nfoo:\n  #!/bin/sh\n"),
  C("attribute_name_is_keyword", "[if]\nfoo:\n"),
  C("attribute_number_argument", "[group(1)]\nfoo:\n"),
  C("attribute_empty_brackets", "[]\nfoo:\n"),
  C("attribute_unclosed", "[private\nfoo:\n"),
  C("attribute_indented", "  [private]\nfoo:\n"),
  C("attribute_on_recipe_body_line", "foo:\n  [private]\n"),
  C("attribute_before_comment_then_item_error", "[private] # c\n# doc\nfoo:\n"),
  C("attribute_doc_comment_between", "# doc\n[private]\n# doc2\nfoo:\n"),
  C("attribute_many_errors_first_wins", "[nope]\n[private('x')]\nfoo:\n"),
  C("attribute_unknown_colon", "[nope: 'x']\nfoo:\n"),
  C("attribute_group_colon_expression", "[group: 'a' + 'b']\nfoo:\n"),
  C("attribute_doc_colon_expression", "[doc: 'a' + 'b']\nfoo:\n", "--list"),
  C("attribute_doc_too_many", "[doc('a', 'b')]\nfoo:\n"),
  C("attribute_working_directory_two", "[working-directory('a', 'b')]\nfoo:\n"),
  C("attribute_duplicate_across_brackets_line", "[private]\n\n"),
  C("arg_dup_long_bare_first_blames_explicit", "[arg('b', long)]\n[arg('a', long='b')]\nfoo a b:\n"),
  C("arg_dup_long_same_literal_later_blamed", "[arg('b', long='x')]\n[arg('a', long='x')]\nfoo a b:\n"),
  C("arg_dup_long_help_sorts_later", "[arg('a', long='b', help='h')]\n[arg('b', long)]\nfoo a b:\n"),
  C("arg_dup_long_help_on_bare", "[arg('a', long='b')]\n[arg('b', long, help='h')]\nfoo a b:\n"),
  C("arg_dup_short_long_name_order", "[arg('a', long='z', short='x')]\n[arg('b', long='c', short='x')]\nfoo a b:\n"),
  C("arg_dup_short_no_long_first", "[arg('b', long='c', short='x')]\n[arg('a', short='x')]\nfoo a b:\n"),
  C("arg_dump_order_long_by_name", "[arg('a', long='c')]\n[arg('z', long)]\nfoo a z:\n", "--dump"),
  C("arg_dump_order_param_name", "[arg('z', short='q')]\n[arg('a', short='r')]\nfoo a z:\n", "--dump"),
  C("default_recipe_required_option", "[arg('b', long)]\nfoo b:\n"),
  C("default_recipe_option_with_default", "[arg('b', long)]\nfoo b='x':\n  @echo {{b}}\n"),
  C("default_recipe_flag_not_required", "set unstable\nset lists\n[arg('b', long, flag)]\nfoo b:\n  @echo [{{b}}]\n"),
  C("default_recipe_multiple_option", "set unstable\nset lists\n[arg('b', long, multiple)]\nfoo b:\n"),
  C("default_attr_root_after_import", "import 'x.just'\n[default]\na:\n", files={"x.just": "[default]\nb:\n"}),
  C("default_attr_import_between", "[default]\na:\nimport 'x.just'\n[default]\nc:\n", files={"x.just": "[default]\nb:\n"}),
  C("default_attr_sibling_imports", "import 'x.just'\nimport 'y.just'\n", files={"x.just": "[default]\nb:\n", "y.just": "[default]\nd:\n"}),
  C("default_attr_from_import_runs", "import 'x.just'\na:\n  @echo a\n", files={"x.just": "[default]\nb:\n  @echo b\n"}),
  C("timestamp_empty_list_format", "set unstable\nset lists\n[timestamp([])]\nfoo:\n  @echo hi\n"),
  C("working_directory_attr_empty_list", "set unstable\nset lists\n[working-directory([])]\nfoo:\n  @echo hi\n"),
  C("invalid_attr_canonical_order_module", "[no-cd, confirm]\nmod sub\n", files={"sub.just": ""}),
  # ---- batch 3
  C("attr_group_colon_show", "[group: 'a']\nfoo:\n  echo\n", "--show", "foo"),
  C("attr_script_json_shebang_true", "[script]\nfoo:\n  echo\n", J),
  C("attr_confirm_json_expression", "x := 'a'\n[confirm(x + 'b')]\nfoo:\n", J),
  C("attr_timestamp_show", "[timestamp('%H' + ':')]\nfoo:\n  echo\n", "--show", "foo"),
  C("attr_cache_keys_json_order", "set unstable\n[cache(outputs='o', inputs='i')]\nfoo:\n  #!/bin/sh\n", J),
  C("attr_arg_cache_duplicate_key", "set unstable\n[cache(inputs='a', inputs='b')]\nfoo:\n  #!/bin/sh\n"),
  C("attr_arg_keyword_value_fstring", "[arg('b', help=f'x{{'y'}}')]\nfoo b:\n", "--usage", "foo"),
  C("attr_arg_long_xstring", "[arg('b', long=x'bee')]\nfoo b:\n  @echo {{b}}\n", "foo", "--bee", "1"),
  C("attr_arg_long_fstring", "[arg('b', long=f'bee')]\nfoo b:\n"),
  C("attr_arg_name_fstring", "[arg(f'b')]\nfoo b:\n"),
  C("attr_doc_fstring", "[doc(f'd{{'x'}}')]\nfoo:\n", "--list"),
  C("attr_group_xstring_tilde", "[group(x'~')]\nfoo:\n", "--groups"),
  C("attr_env_value_backtick", "[env('A', `echo bt`)]\nfoo:\n  @echo $A\n"),
  C("attr_env_value_uses_export", "export E := 'exp'\n[env('A', `echo $E`)]\nfoo:\n  @echo $A\n"),
  C("attr_confirm_eof_dependency", "foo: bar\n[confirm('ok?')]\nbar:\n"),
  C("attr_os_on_alias_dump", "[windows]\n[private]\nalias f := foo\nfoo:\n", "--dump"),
  C("attr_os_twice_same", "[linux]\n[linux]\nfoo:\n"),
  C("attr_unix_and_linux_dup", "[unix, linux]\nfoo:\n  @echo ok\n"),
  C("attr_shell_on_shebang_json", "[shell]\nfoo:\n  #!/bin/sh\n", J),
  C("attr_no_exit_message_continue_json", "[continue('SIGINT')]\n[no-exit-message]\nfoo:\n", J),
  C("attr_parallel_with_args", "[parallel('x')]\nfoo:\n"),
  C("attr_default_on_module", "[default]\nmod sub\n", files={"sub.just": ""}),
  C("attr_private_on_unexport_name", "[private]\nunexport FOO\n"),
  C("attr_metadata_on_module", "[metadata('x')]\nmod sub\n", files={"sub.just": ""}),
  C("attr_extension_two", "[extension('.a')]\n[extension('.b')]\nfoo:\n  #!/bin/sh\n"),
  C("attr_arg_fstring_key_second", "[arg('b', f'x')]\nfoo b:\n"),
  C("attr_cache_fstring_is_key", "set unstable\n[cache(f'x')]\nfoo:\n  #!/bin/sh\n"),
  C("attr_arg_format_string_interpolation", "[arg(f'{{b}}')]\nfoo b:\n"),
  C("attr_arg_xstring_name", "[arg(x'b', long)]\nfoo b:\n  @echo {{b}}\n", "foo", "--b", "v"),
]
