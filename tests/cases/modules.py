from capture import C

CASES = [
  # imports
  C("import_relative_to_importing_file", """
    import 'lib/a.just'
    """, "b", files={"lib/a.just": "import 'b.just'\n", "lib/b.just": "b:\n  @echo b $PWD\n"}),
  C("import_optional_missing", """
    import? 'nope.just'
    a:
      @echo a
    """),
  C("import_missing_error", """
    a:
    import 'nope.just'
    """),
  C("import_home_tilde", """
    import '~/lib.just'
    """, "h", env={"HOME": "{{TMP}}/home"}, files={"home/lib.just": "h:\n  @echo home\n"}),
  C("import_x_string", """
    import x'$D/lib.just'
    """, "h", env={"D": "{{TMP}}/dd"}, files={"dd/lib.just": "h:\n  @echo xs\n"}),
  C("import_x_string_unset_var", """
    import x'$NOPE_VAR/lib.just'
    """, "h"),
  C("import_f_string_error", """
    import f'lib.just'
    """),
  C("import_duplicate_recipe", """
    import 'a.just'
    foo:
    """, files={"a.just": "foo:\n"}),
  C("import_duplicate_recipe_allowed_later_wins", """
    set allow-duplicate-recipes
    import 'a.just'
    import 'b.just'
    foo:
      @echo root
    """, "foo", files={"a.just": "foo:\n  @echo a\n", "b.just": "foo:\n  @echo b\n"}),
  C("import_lifo_duplicate_order", """
    set allow-duplicate-recipes
    import 'a.just'
    import 'b.just'
    """, "foo", files={"a.just": "foo:\n  @echo a\n", "b.just": "foo:\n  @echo b\n"}),
  C("import_same_file_twice_loaded_once", """
    import 'a.just'
    import 'a.just'
    x:
    """, "foo", files={"a.just": "foo:\n  @echo a\n"}),
  C("import_diamond", """
    import 'a.just'
    import 'b.just'
    """, "c", files={"a.just": "import 'c.just'\n", "b.just": "import 'c.just'\n", "c.just": "c:\n  @echo c\n"}),
  C("import_circular", """
    import 'a.just'
    """, files={"a.just": "import 'b.just'\n", "b.just": "import 'a.just'\n"}),
  C("import_self", """
    import 'justfile'
    """),
  C("import_error_path_relative", """
    import 'sub/a.just'
    """, files={"sub/a.just": "foo: bar\n"}),
  C("import_error_path_absolute_outside", """
    import '../outside.just'
    """, cwd="in", files={"outside.just": "foo: bar\n", "in/justfile": "import '../outside.just'\n"}),
  C("import_default_recipe_not_from_import", """
    import 'a.just'
    root:
      @echo root
    """, files={"a.just": "imp:\n  @echo imp\n"}),
  C("import_only_no_default", """
    import 'a.just'
    """, files={"a.just": "imp:\n  @echo imp\n"}),
  C("import_working_dir_is_root", """
    import 'sub/a.just'
    """, "w", files={"sub/a.just": "w:\n  @echo $PWD\n"}),
  C("import_variables_shared", """
    import 'a.just'
    x := "root"
    """, "r", files={"a.just": "r:\n  @echo {{x}}\n"}),
  C("import_settings_from_import", """
    import 'a.just'
    r:
      echo hi
    """, "r", files={"a.just": "set quiet\n"}),
  C("import_lex_error_in_import", """
    import 'a.just'
    """, files={"a.just": "foo:\n  echo {{\n"}),
  C("import_in_module_missing", """
    mod m
    """, files={"m.just": "import 'nope.just'\n"}),
  C("import_multiple_missing_first_reported", """
    import 'x.just'
    import 'y.just'
    """),
  # modules
  C("mod_name_just", """
    mod m
    """, "m", "r", files={"m.just": "r:\n  @echo m.just\n"}),
  C("mod_dir_mod_just", """
    mod m
    """, "m", "r", files={"m/mod.just": "r:\n  @echo mod.just\n"}),
  C("mod_dir_justfile", """
    mod m
    """, "m", "r", files={"m/justfile": "r:\n  @echo justfile\n"}),
  C("mod_dir_dot_justfile_uppercase", """
    mod m
    """, "m", "r", files={"m/.JUSTFILE": "r:\n  @echo dot\n"}),
  C("mod_dir_mod_just_wrong_case", """
    mod m
    """, "m", "r", files={"m/MOD.just": "r:\n"}),
  C("mod_name_just_wrong_case", """
    mod m
    """, "m", "r", files={"M.just": "r:\n"}),
  C("mod_multiple_candidates", """
    mod foo
    """, files={"foo.just": "r:\n", "foo/justfile": "r:\n"}),
  C("mod_multiple_candidates_mod_just", """
    mod foo
    """, files={"foo/mod.just": "r:\n", "foo/justfile": "r:\n"}),
  C("mod_multiple_candidates_three", """
    mod foo
    """, files={"foo.just": "r:\n", "foo/mod.just": "r:\n", "foo/.justfile": "r:\n"}),
  C("mod_missing", """
    mod foo
    """),
  C("mod_optional_missing", """
    mod? foo
    a:
      @echo a
    """),
  C("mod_with_path_file", """
    mod m 'x/y.just'
    """, "m", "r", files={"x/y.just": "r:\n  @echo y\n"}),
  C("mod_with_path_dir", """
    mod m 'x'
    """, "m", "r", files={"x/justfile": "r:\n  @echo xj\n"}),
  C("mod_with_path_dir_mod_just", """
    mod m 'x'
    """, "m", "r", files={"x/mod.just": "r:\n  @echo xm\n"}),
  C("mod_with_path_missing", """
    mod m 'x'
    """),
  C("mod_with_path_tilde", """
    mod m '~/mm.just'
    """, "m", "r", env={"HOME": "{{TMP}}/home"}, files={"home/mm.just": "r:\n  @echo tilde\n"}),
  C("mod_optional_with_paths_multiple_ok", """
    mod? m 'a.just'
    mod? m 'b.just'
    """, "m", "r", files={"b.just": "r:\n  @echo b\n"}),
  C("mod_duplicate", """
    mod m
    mod m
    """, files={"m.just": "r:\n"}),
  C("mod_and_recipe_same_name", """
    mod m
    m:
    """, files={"m.just": "r:\n"}),
  C("mod_working_directory", """
    mod m
    """, "m", "r", files={"m/mod.just": "r:\n  @basename $PWD\n"}),
  C("mod_working_directory_file", """
    mod m 'x/y.just'
    """, "m", "r", files={"x/y.just": "r:\n  @basename $PWD\n"}),
  C("mod_working_directory_setting", """
    mod m
    """, "m", "r", dirs=["m/w"], files={"m/mod.just": "set working-directory := 'w'\nr:\n  @basename $PWD\n"}),
  C("mod_no_cd", """
    mod m
    """, "m", "r", files={"m/mod.just": "[no-cd]\nr:\n  @basename $PWD\n"}, cwd="m"),
  C("mod_invoke_colon", """
    mod m
    """, "m::r", files={"m.just": "r:\n  @echo r\n"}),
  C("mod_invoke_colon_trailing", """
    mod m
    """, "m::", files={"m.just": "r:\n  @echo r\n"}),
  C("mod_invoke_colon_trailing_not_last", """
    mod m
    """, "m::", "m::r", files={"m.just": "r:\n  @echo r\n"}),
  C("mod_invoke_default", """
    mod m
    """, "m", files={"m.just": "r:\n  @echo rr\ns:\n"}),
  C("mod_invoke_default_attribute", """
    mod m
    """, "m", files={"m.just": "r:\n  @echo rr\n[default]\ns:\n  @echo ss\n"}),
  C("mod_invoke_nested", """
    mod a
    """, "a", "b", "c", files={"a.just": "mod b\n", "b.just": "c:\n  @echo wrong\n", "a/b.just": "c:\n  @echo nested\n"}),
  C("mod_invoke_nested_colon", """
    mod a
    """, "a::b::c", files={"a/mod.just": "mod b\n", "a/b.just": "c:\n  @echo nested $PWD\n"}),
  C("mod_recipe_then_args", """
    mod m
    """, "m", "r", "x", "y", files={"m.just": "r a b:\n  @echo {{a}} {{b}}\n"}),
  C("mod_unknown_recipe", """
    mod m
    """, "m", "nope", files={"m.just": "r:\n"}),
  C("mod_unknown_recipe_colon", """
    mod m
    """, "m::nope", files={"m.just": "rr:\n"}),
  C("mod_unknown_recipe_suggestion", """
    mod m
    """, "m", "rx", files={"m.just": "rr:\n"}),
  C("mod_unknown_submodule_colon", """
    mod m
    """, "mx::r", files={"m.just": "r:\n"}),
  C("mod_unknown_submodule_colon_deep", """
    mod m
    """, "m::nope::r", files={"m.just": "r:\n"}),
  C("mod_expected_submodule_found_recipe", """
    mod m
    """, "m::r::x", files={"m.just": "r:\n"}),
  C("mod_invalid_colon_path", """
    mod m
    """, "m:::r", files={"m.just": "r:\n"}),
  C("mod_invalid_colon_leading", """
    mod m
    """, "::m", files={"m.just": "r:\n"}),
  C("mod_single_colon", """
    a:
    """, "a:b"),
  C("mod_cannot_read_parent_variable", """
    x := "1"
    mod m
    """, "m", "r", files={"m.just": "r:\n  echo {{x}}\n"}),
  C("mod_own_variables", """
    x := "root"
    mod m
    """, "m", "r", files={"m.just": "x := 'mod'\nr:\n  @echo {{x}}\n"}),
  C("mod_override_variable", """
    mod m
    """, "m::x=over", "m", "r", files={"m.just": "x := 'mod'\nr:\n  @echo {{x}}\n"}),
  C("mod_default_list_setting", """
    mod m
    top:
    """, "m", files={"m.just": "set default-list\nr:\ns:\n"}),
  C("mod_default_list_root_setting_not_inherited", """
    set default-list
    mod m
    top:
    """, "m", files={"m.just": "r:\n  @echo run-r\n"}),
  C("mod_default_list_root", """
    set default-list
    mod m
    top:
    """, files={"m.just": "r:\n"}),
  C("mod_default_list_flag_module", """
    mod m
    top:
    """, "--default-list", "m", files={"m.just": "r:\n"}),
  C("mod_default_list_colon", """
    mod m
    top:
    """, "m::", files={"m.just": "set default-list\nr:\n"}),
  C("mod_alias_to_module_recipe", """
    mod m
    alias r := m::r
    """, "r", files={"m.just": "r:\n  @echo via-alias\n"}),
  C("mod_alias_to_nested_module_recipe", """
    mod m
    alias r := m::n::r
    """, "r", files={"m.just": "mod n\n", "m/n.just": "r:\n  @echo deep\n"}),
  C("mod_alias_unknown_module_recipe", """
    mod m
    alias r := m::nope
    """, files={"m.just": "r:\n"}),
  C("mod_alias_unknown_module", """
    alias r := q::nope
    a:
    """),
  C("mod_dependency_on_module_recipe", """
    mod m
    a: m::r
      @echo a
    """, files={"m.just": "r:\n  @echo r $PWD\n"}),
  C("mod_dependency_on_module_recipe_with_args", """
    mod m
    a: (m::r "x")
      @echo a
    """, files={"m.just": "r p:\n  @echo r {{p}}\n"}),
  C("mod_dependency_unknown", """
    mod m
    a: m::nope
    """, files={"m.just": "r:\n"}),
  C("mod_absent_optional_invoke", """
    mod? m
    a:
    """, "m"),
  C("mod_absent_optional_invoke_recipe", """
    mod? m
    a:
    """, "m::r"),
  C("mod_absent_optional_dependency_disabled", """
    mod? m
    a:
      @echo a
    b: m::r
    """, "b"),
  C("mod_absent_optional_transitive", """
    mod? m
    a:
      @echo a
    b: m::r
    c: b
    """, "c"),
  C("mod_absent_optional_alias", """
    mod? m
    a:
      @echo a
    alias x := m::r
    """, "x"),
  C("mod_absent_optional_list_hides", """
    mod? m
    a:
    b: m::r
    alias x := m::r
    alias y := b
    """, "--list"),
  C("mod_absent_optional_default_runs", """
    mod? m
    b: m::r
    a:
      @echo a
    """),
  C("mod_absent_optional_two_modules", """
    mod? m
    mod? n
    b: m::r n::r
    """, "b"),
  C("mod_allow_missing_absent", """
    mod? m
    a:
    """, "--allow-missing", "m"),
  C("mod_allow_missing_unknown_recipe", """
    a:
    """, "--allow-missing", "nope"),
  C("mod_allow_missing_unknown_submodule", """
    a:
    """, "--allow-missing", "x::y"),
  C("mod_allow_missing_other_error", """
    a b:
    """, "--allow-missing", "a"),
  C("mod_doc_comment_and_group", """
    # the doc
    [group('g')]
    mod m
    a:
    """, "--list", files={"m.just": "r:\n"}),
  C("mod_doc_attribute", """
    [doc('attr doc')]
    mod m
    """, "--list", files={"m.just": "r:\n"}),
  C("mod_private", """
    [private]
    mod m
    a:
    """, "--list", files={"m.just": "r:\n"}),
  C("mod_private_still_invocable", """
    [private]
    mod m
    """, "m", "r", files={"m.just": "r:\n  @echo priv\n"}),
  C("mod_trailing_comment", """
    mod m # a comment
    """, "m", "r", files={"m.just": "r:\n  @echo c\n"}),
  C("mod_underscore_listed", """
    mod _m
    """, "--list", files={"_m.just": "r:\n"}),
  C("mod_one_flag", """
    a:
      @echo a
    b:
      @echo b
    """, "--one", "a", "b"),
  C("mod_one_flag_single", """
    a:
      @echo a
    """, "--one", "a"),
  C("mod_fallback_verbose", """
    set fallback
    """, "-v", "top", cwd="sub", files={"sub/justfile": "set fallback\nx:\n"}),
  C("mod_fallback_two_levels", """
    top:
      @echo top
    """, "-v", "top", cwd="a/b", files={"a/b/justfile": "set fallback\nx:\n", "a/justfile": "set fallback\ny:\n"}),
  C("mod_fallback_not_found", """
    top:
    """, "nope", cwd="sub", files={"sub/justfile": "set fallback\nx:\n"}),
  C("mod_fallback_unknown_submodule", """
    mod m
    """, "m::r", cwd="sub", files={"m.just": "r:\n  @echo from-parent\n", "sub/justfile": "set fallback\nx:\n"}),
  C("mod_word_form_recipe_shadow", """
    mod m
    """, "m", "m", files={"m.just": "m:\n  @echo mm\n"}),
  C("mod_args_to_module_recipe_then_root", """
    mod m
    top:
      @echo top
    """, "m", "r", "1", "top", files={"m.just": "r a:\n  @echo {{a}}\n"}),
  C("mod_recipe_count_error_usage", """
    mod m
    """, "m", "r", files={"m.just": "r a b:\n"}),
  C("mod_recipe_count_error_colon", """
    mod m
    """, "m::r", "1", "2", "3", files={"m.just": "r a:\n  @echo {{a}}\n"}),
  C("mod_default_requires_args", """
    mod m
    """, "m", files={"m.just": "r a:\n"}),
  C("mod_no_recipes", """
    mod m
    """, "m", files={"m.just": "x := '1'\n"}),
  C("mod_import_inside_module_relative", """
    mod m
    """, "m", "i", files={"m/mod.just": "import 'lib.just'\n", "m/lib.just": "i:\n  @echo i $PWD\n"}),
  C("mod_error_path_in_module", """
    mod m
    """, files={"m/mod.just": "r: nope\n"}),
  C("mod_module_circular", """
    mod m
    """, files={"m.just": "import 'justfile'\n"}),
  C("mod_dotenv_in_module", """
    mod m
    """, "m", "r", files={"m/mod.just": "set dotenv-load\nr:\n  @echo $V\n", "m/.env": "V=mod\n"}),
  C("mod_set_shell_per_module", """
    set shell := ['sh', '-c']
    mod m
    """, "m", "r", files={"m.just": "set quiet\nr:\n  echo quiet\n"}),
  C("mod_show_recipe", """
    mod m
    """, "--show", "m::r", files={"m.just": "# doc\nr a:\n  echo {{a}}\n"}),
  C("mod_show_recipe_words", """
    mod m
    """, "--show", "m", "r", files={"m.just": "r:\n  echo\n"}),
  C("mod_show_unknown_module", """
    mod m
    """, "--show", "nope::x", files={"m.just": "r:\n"}),
  C("mod_show_unknown_module_words", """
    mod m
    """, "--show", "nope", "x", files={"m.just": "r:\n"}),
  C("mod_show_module_name", """
    mod m
    """, "--show", "m", files={"m.just": "r:\n"}),
  C("mod_show_alias_cross_module", """
    mod m
    alias x := m::r
    """, "--show", "x", files={"m.just": "r:\n  echo\n"}),
  C("mod_usage_module_recipe", """
    mod m
    """, "--usage", "m::r", files={"m.just": "r a b='1' *c:\n"}),
  C("mod_usage_words", """
    mod m
    """, "--usage", "m", "r", files={"m.just": "r a:\n"}),
  C("mod_evaluate_module", """
    mod m
    """, "--evaluate", "m", files={"m.just": "b := '2'\na := '1'\n"}),
  C("mod_evaluate_module_var", """
    mod m
    """, "--evaluate", "m::a", files={"m.just": "a := '1'\n"}),
  C("mod_evaluate_unknown", """
    mod m
    """, "--evaluate", "mx::a", files={"m.just": "a := '1'\n"}),
  C("mod_list_absent_optional", """
    mod? m
    a:
    """, "--list", "m"),
  C("mod_list_unknown_module_suggest", """
    mod mod1
    a:
    """, "--list", "mod2", files={"mod1.just": "r:\n"}),
  C("mod_list_invalid_path", """
    a:
    """, "--list", "$hello"),
  C("mod_list_words_with_space", """
    mod a
    """, "--list", "a b", files={"a.just": "mod b\n", "a/b.just": "deep:\n"}),
  C("mod_list_colon_path", """
    mod a
    """, "--list", "a::b", files={"a.just": "mod b\n", "a/b.just": "deep:\n"}),
  C("mod_summary_nested", """
    mod foo
    mod bar
    top:
    """, "--summary", files={"foo.just": "build:\ntest:\nmod sub\n", "foo/sub.just": "deep:\n", "bar.just": "two:\none:\n"}),
  C("mod_summary_unsorted", """
    mod foo
    mod bar
    top:
    """, "--summary", "--unsorted", files={"foo.just": "test:\nbuild:\n", "bar.just": "two:\none:\n"}),
  C("mod_summary_private_module", """
    [private]
    mod foo
    top:
    """, "--summary", files={"foo.just": "x:\n"}),
  C("mod_summary_only_modules", """
    mod foo
    """, "--summary", files={"foo.just": "x:\n"}),
  C("mod_json_nested", """
    # tools doc
    [group('g')]
    mod tools
    a:
    """, "--json", files={"tools.just": "lint:\n  echo\nalias l := lint\nv := 'x'\n"}),
  C("mod_json_cross_module_alias", """
    mod tools
    alias l := tools::lint
    a: tools::lint
    """, "--json", files={"tools.just": "lint:\n"}),
  C("mod_variables_root_only", """
    mod m
    b := '1'
    a := '2'
    _p := '3'
    """, "--variables", files={"m.just": "z := '1'\n"}),
  C("mod_groups_with_module", """
    [group('zz')]
    mod m
    [group('aa')]
    a:
    """, "--groups", files={"m.just": "[group('inner')]\nr:\n"}),
  C("mod_groups_unsorted", """
    [group('zz')]
    mod m
    [group('aa')]
    a:
    """, "--groups", "--unsorted", files={"m.just": "r:\n"}),
  C("mod_dump_root_only", """
    mod m
    import 'i.just'
    a:
    """, "--dump", files={"m.just": "r:\n", "i.just": "i:\n"}),
  C("mod_recipe_run_once_across_invocations", """
    mod m
    a: m::r
    b: m::r
    """, "a", "b", files={"m.just": "r:\n  @echo once\n"}),
  C("mod_unstable_not_required", """
    mod m
    """, "m", "r", files={"m.just": "r:\n  @echo stable\n"}),
  C("mod_nested_working_directory", """
    mod a
    """, "a", "b", "r", files={"a/mod.just": "mod b\n", "a/b/mod.just": "r:\n  @basename $PWD\n"}),
  C("mod_nested_candidates_relative_to_declaring", """
    mod a 'x/a.just'
    """, "a", "b", "r", files={"x/a.just": "mod b\n", "x/b.just": "r:\n  @echo xb\n"}),
  C("mod_error_nested_module_missing", """
    mod a
    """, files={"a.just": "mod b\n"}),
  C("mod_error_nested_multiple", """
    mod a
    """, files={"a/mod.just": "mod b\n", "a/b.just": "", "a/b/justfile": ""}),
  C("import_then_mod_in_import", """
    import 'lib/i.just'
    """, "m", "r", files={"lib/i.just": "mod m\n", "lib/m.just": "r:\n  @echo libm\n"}),
  # invocation resolution and argument binding
  C("resolve_alias_suggestion", """
    foo:
    alias zz := foo
    """, "zx"),
  C("resolve_recipe_suggestion", """
    hello:
    """, "hell"),
  C("resolve_no_module_suggestion", """
    mod hello
    a:
    """, "hell", files={"hello.just": "x:\n"}),
  C("resolve_submodule_suggestion_colon", """
    mod hello
    a:
    """, "hell::x", files={"hello.just": "x:\n"}),
  C("resolve_word_form_unknown_after_module", """
    mod foo
    """, "foo", "baz", files={"foo.just": "bar:\n"}),
  C("resolve_word_form_unknown_suggestion_in_module", """
    mod foo
    """, "foo", "bax", files={"foo.just": "bar:\n"}),
  C("resolve_module_alias", """
    mod foo
    alias f := foo
    """, "f", "bar", files={"foo.just": "bar:\n  @echo via module alias\n"}),
  C("resolve_module_alias_colon", """
    mod foo
    alias f := foo
    """, "f::bar", files={"foo.just": "bar:\n  @echo via module alias\n"}),
  C("resolve_private_recipe_not_suggested", """
    [private]
    hello:
    """, "hell"),
  C("resolve_extra_args_unknown", """
    foo a b:
    """, "foo", "ONE", "TWO", "THREE"),
  C("resolve_greedy_positional", """
    build mode='debug':
      @echo {{mode}}
    test:
    """, "build", "test"),
  C("resolve_count_at_least", """
    foo a b *c:
    """, "foo", "1"),
  C("resolve_count_at_most", """
    foo a b='1':
    """, "foo"),
  C("resolve_count_only_takes", """
    foo a:
      echo {{a}}
    """, "foo", "1", "2"),
  C("resolve_usage_line_variadic", """
    deploy env token='t' +rest='r':
    """, "deploy"),
  C("resolve_usage_line_module", """
    mod foo
    """, "foo::bar", files={"foo.just": "bar baz:\n"}),
  C("resolve_usage_line_options", """
    set unstable
    [arg("v", long="verbose", value="1")]
    r v="" a:
    """, "r"),
  C("args_option_long", """
    set unstable
    [arg("lvl", long="level")]
    r lvl='1' *rest:
      @echo {{lvl}} {{rest}}
    """, "r", "--level", "5", "x"),
  C("args_option_long_equals", """
    set unstable
    [arg("lvl", long="level")]
    r lvl='1':
      @echo {{lvl}}
    """, "r", "--level=7"),
  C("args_option_short_cluster", """
    set unstable
    [arg("a", short="a", value="A")]
    [arg("b", short="b", value="B")]
    r a="" b="":
      @echo {{a}} {{b}}
    """, "r", "-ab"),
  C("args_option_short_value_not_last", """
    set unstable
    [arg("a", short="a")]
    [arg("b", short="b", value="B")]
    r a="" b="":
    """, "r", "-ab"),
  C("args_option_unknown", """
    set unstable
    [arg("a", long="aa")]
    opts a="":
    """, "opts", "--nope"),
  C("args_option_flag_takes_no_value", """
    set unstable
    [arg("v", short="v", value="1")]
    opts v="":
    """, "opts", "-v=3"),
  C("args_option_missing_value", """
    set unstable
    [arg("lvl", long="lvl")]
    opts lvl="":
    """, "opts", "--lvl"),
  C("args_option_repeated", """
    set unstable
    [arg("n", short="n")]
    req n="":
    """, "req", "-n", "1", "-n", "2"),
  C("args_option_required", """
    set unstable
    [arg("n", short="n", long="num")]
    req n:
    """, "req"),
  C("args_option_empty_name", """
    set unstable
    [arg("n", long="n")]
    req n="":
    """, "req", "--=3"),
  C("args_option_double_dash", """
    set unstable
    [arg("n", long="n")]
    req n="" *rest:
      @echo [{{n}}] {{rest}}
    """, "req", "--", "--n"),
  C("args_option_single_dash_positional", """
    set unstable
    [arg("n", long="n")]
    req n="" *rest:
      @echo [{{n}}] {{rest}}
    """, "req", "-"),
  C("args_no_options_dashes_positional", """
    r a:
      @echo {{a}}
    """, "r", "--x"),
  C("args_option_pattern_mismatch", """
    set unstable
    [arg("level", long="lvl", pattern="[0-9]+")]
    opts level='1':
    """, "opts", "--lvl", "x"),
  C("args_option_then_next_invocation", """
    set unstable
    [arg("n", long="n")]
    req n="":
      @echo req {{n}}
    other:
      @echo other
    """, "req", "--n", "1", "other"),
  C("one_flag_with_module", """
    mod m
    """, "--one", "m", "r", "m", "r", files={"m.just": "r:\n"}),
  C("overrides_module_unknown", """
    mod m
    x := '1'
    """, "z=1", "m::a=1", "b=1", files={"m.just": "y := '1'\n"}),
  C("overrides_invalid_path", """
    a:
    """, "0::foo=1"),
  C("invocation_order_dedup", """
    c x:
      @echo c {{x}}
    """, "c", "1", "c", "1", "c", "2"),
  C("default_recipe_private_ok", """
    [private]
    a:
      @echo private default
    """),
  C("default_contains_no_recipes", """
    x := '1'
    """),
  C("default_needs_args", """
    a b:
    """),
  C("mod_recipe_disabled_suggestion_absent", """
    mod? m
    a: m::r
    b:
    """, "a", "b"),
  C("mod_disabled_multiple_modules", """
    mod? m
    mod? n
    a: m::r
    b: n::r a
    """, "b"),
  C("mod_show_disabled_alias", """
    mod? m
    alias x := m::r
    b:
    """, "--show", "x"),
  C("mod_list_default_list_nested_words", """
    mod a
    """, "a", "b", files={"a.just": "mod b\n", "a/b.just": "set default-list\nr:\ns:\n"}),
  C("mod_default_list_flag_words_module_then_recipe", """
    mod a
    """, "--default-list", "a", "r", files={"a.just": "r:\n  @echo ran\n"}),
  # more edge cases
  C("mod_multiple_candidates_case_variants", """
    mod foo
    """, files={"foo/JUSTFILE": "r:\n", "foo/justfile": "r:\n"}),
  C("mod_multiple_candidates_dot_and_plain", """
    mod foo
    """, files={"foo/.justfile": "r:\n", "foo/Justfile": "r:\n"}),
  C("mod_path_dir_multiple_candidates", """
    mod foo 'x'
    """, files={"x/mod.just": "r:\n", "x/justfile": "r:\n"}),
  C("mod_optional_path_dir_absent", """
    mod? foo 'x'
    a:
      @echo ok
    """, dirs=["x"]),
  C("mod_optional_two_paths_both_exist", """
    mod? m 'a.just'
    mod? m 'b.just'
    """, files={"a.just": "r:\n", "b.just": "r:\n"}),
  C("mod_optional_and_required_same_name_absent", """
    mod? m 'a.just'
    mod m 'b.just'
    """, files={"b.just": "r:\n  @echo b\n"}),
  C("mod_path_is_directory_without_files", """
    mod m 'x'
    """, dirs=["x"]),
  C("mod_path_x_string", """
    mod m x'$D/m.just'
    """, "m", "r", env={"D": "{{TMP}}/dd"}, files={"dd/m.just": "r:\n  @echo xmod\n"}),
  C("mod_working_directory_attribute", """
    mod m
    """, "m", "r", dirs=["m/w"], files={"m/mod.just": "[working-directory('w')]\nr:\n  @basename $PWD\n"}),
  C("mod_root_working_directory_not_inherited", """
    set working-directory := 'w'
    mod m
    """, "m", "r", dirs=["w"], files={"m/mod.just": "r:\n  @basename $PWD\n"}),
  C("mod_no_cd_setting", """
    mod m
    """, "m", "r", files={"m/mod.just": "set no-cd\nr:\n  @echo $PWD\n"}),
  C("mod_backtick_in_module_dir", """
    mod m
    """, "m", "r", files={"m/mod.just": "x := `basename $PWD`\nr:\n  @echo {{x}}\n"}),
  C("mod_module_directory_function", """
    mod m
    """, "m", "r", files={"m/mod.just": "r:\n  @echo {{module_directory()}} {{module_file()}} {{justfile_directory()}}\n"}),
  C("mod_fallback_allow_missing", """
    a:
    """, "--allow-missing", "nope", cwd="sub", files={"sub/justfile": "set fallback\nx:\n"}),
  C("mod_fallback_parent_compile_error", """
    a: nope
    """, "zzz", cwd="sub", files={"sub/justfile": "set fallback\nx:\n"}),
  C("mod_fallback_no_parent", """
    x:
    """, "nope", cwd="sub", files={"sub/justfile": "set fallback\nx:\n"}, env={}),
  C("mod_fallback_parent_no_fallback_setting", """
    b:
    """, "-v", "c", cwd="s1/s2", files={"s1/justfile": "a:\n", "s1/s2/justfile": "set fallback\nx:\n"}),
  C("mod_fallback_runs_in_parent_dir", """
    top:
      @echo $PWD
    """, "top", cwd="sub", files={"sub/justfile": "set fallback\nx:\n"}),
  C("mod_fallback_count_error_not_retried", """
    top a:
    """, "top", cwd="sub", files={"sub/justfile": "set fallback\ntop a b:\n"}),
  C("mod_show_alias_to_module", """
    mod m
    alias x := m
    """, "--show", "x", files={"m.just": "r:\n"}),
  C("mod_usage_words_path_as_typed", """
    mod m
    """, "--usage", "m r", files={"m.just": "r a:\n"}),
  C("mod_usage_alias_decl", """
    alias x := r
    r a:
    """, "--usage", "x"),
  C("mod_import_doc_comment_kept", """
    import 'a.just'
    """, "--list", files={"a.just": "# imported doc\nir:\n"}),
  C("mod_import_tilde_only_path", """
    import '~/'
    """, env={"HOME": "{{TMP}}/home"}, dirs=["home"]),
  C("mod_import_directory_error", """
    import 'dir'
    """, dirs=["dir"]),
  C("mod_error_in_module_file_relative", """
    mod m 'deep/m.just'
    """, files={"deep/m.just": "x := y\n"}),
  C("mod_duplicate_alias_via_import", """
    import 'a.just'
    alias x := r
    r:
    """, files={"a.just": "alias x := r\n"}),
  C("mod_duplicate_variable_via_import", """
    import 'a.just'
    x := '1'
    """, files={"a.just": "x := '2'\n"}),
  C("mod_duplicate_mod_via_import", """
    import 'a.just'
    mod m
    """, files={"a.just": "mod m\n", "m.just": "r:\n"}),
  C("mod_recipe_in_import_conflicts_with_module", """
    import 'a.just'
    mod m
    """, files={"a.just": "m:\n", "m.just": "r:\n"}),
  C("mod_import_missing_in_nested_import", """
    import 'a.just'
    """, files={"a.just": "import 'b.just'\n"}),
  C("mod_circular_via_module_self", """
    mod m 'justfile'
    """),
  C("mod_circular_module_imports_parent", """
    mod m
    """, files={"m/mod.just": "mod n '../justfile'\n"}),
  C("mod_same_file_two_modules", """
    mod a 'x.just'
    mod b 'x.just'
    """, "a", "r", "b", "r", files={"x.just": "r:\n  @echo r\n"}),
  C("mod_dependency_runs_once_across_modules", """
    mod a 'x.just'
    mod b 'x.just'
    top: a::r b::r a::r
    """, files={"x.just": "r:\n  @echo r\n"}),
  C("mod_dependency_module_default_not_allowed", """
    mod m
    a: m
    """, files={"m.just": "r:\n"}),
  C("mod_alias_to_module_recipe_list", """
    mod m
    alias r := m::r
    alias s := m::deep::s
    a:
    """, "--list", files={"m.just": "# rdoc\nr x:\nmod deep\n", "m/deep.just": "s:\n"}),
  C("mod_alias_to_private_module_recipe", """
    mod m
    alias r := m::_r
    a:
    """, "--list", files={"m.just": "_r:\n"}),
  C("resolve_module_alias_default_uses_module_variables", """
    mod foo
    alias f := foo
    """, "f", files={"foo.just": "x := 'v'\nbar:\n  @echo bar {{x}}\n"}),
  C("resolve_module_alias_trailing_colons", """
    mod foo
    alias f := foo
    """, "f::", files={"foo.just": "x := 'v'\nbar:\n  @echo bar {{x}}\n"}),
  C("resolve_module_alias_override", """
    mod foo
    alias f := foo
    """, "foo::x=o", "f", files={"foo.just": "x := 'v'\nbar:\n  @echo bar {{x}}\n"}),
  C("resolve_module_alias_default_list", """
    mod foo
    alias f := foo
    """, "f", files={"foo.just": "set default-list\nbar:\n"}),
  C("resolve_module_alias_evaluate", """
    mod foo
    alias f := foo
    """, "--evaluate", "f", files={"foo.just": "x := 'v'\n"}),
  C("args_option_multiple", """
    set unstable
    set lists
    [arg("t", long="tag", multiple="true")]
    r t="":
      @echo {{t}}
    """, "r", "--tag", "a", "--tag=b"),
  C("args_option_variadic_and_positional", """
    set unstable
    [arg("f", short="f", value="yes")]
    r f="no" *rest:
      @echo {{f}} {{rest}}
    """, "r", "x", "-f", "y"),
  C("args_option_cluster_value_last", """
    set unstable
    [arg("a", short="a", value="A")]
    [arg("b", short="b")]
    r a="" b="":
      @echo {{a}} {{b}}
    """, "r", "-ab", "val"),
  C("args_option_cluster_equals_value", """
    set unstable
    [arg("a", short="a", value="A")]
    [arg("b", short="b")]
    r a="" b="":
      @echo {{a}} {{b}}
    """, "r", "-ab=val"),
  C("args_option_module_recipe", """
    mod m
    """, "m", "r", "--n", "3", files={"m.just": "set unstable\n[arg('n', long='n')]\nr n='1':\n  @echo n={{n}}\n"}),
  C("args_pattern_positional", """
    set unstable
    [arg("a", pattern="[0-9]+")]
    r a:
    """, "r", "x1"),
  C("args_count_min_max_values", """
    set unstable
    set lists
    [arg("t", long="tag", multiple="true", min="2")]
    r t="":
    """, "r", "--tag", "a"),
  C("import_lifo_which_is_later_error", """
    import 'a.just'
    import 'b.just'
    """, files={"a.just": "foo:\n", "b.just": "foo:\n"}),
  C("import_nested_duplicate_depth", """
    set allow-duplicate-recipes
    import 'a.just'
    foo:
      @echo root
    """, "foo", files={"a.just": "import 'b.just'\nfoo:\n  @echo a\n", "b.just": "foo:\n  @echo b\n"}),
  C("import_duplicate_variable_allowed", """
    set allow-duplicate-variables
    import 'a.just'
    import 'b.just'
    x := 'root'
    r:
      @echo {{x}}
    """, "r", files={"a.just": "x := 'a'\n", "b.just": "x := 'b'\n"}),
]
