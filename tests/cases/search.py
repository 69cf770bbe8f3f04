from capture import C

ECHO = """
hello:
  @echo hello from root
"""

CASES = [
  C("lowercase_justfile_found", ECHO),
  C("capitalized_justfile_found", None, files={"Justfile": ECHO}),
  C("uppercase_justfile_found", None, files={"JUSTFILE": ECHO}),
  C("mixed_case_justfile_found", None, files={"JuStFiLe": ECHO}),
  C("dot_justfile_found", None, files={".justfile": ECHO}),
  C("dot_justfile_any_case_found", None, files={".JustFile": ECHO}),
  C("multiple_candidates_is_error", None,
    files={"justfile": ECHO, "Justfile": ECHO}),
  C("justfile_and_dot_justfile_is_error", None,
    files={"justfile": ECHO, ".justfile": ECHO}),
  C("no_justfile_found", None, dirs=["empty"], cwd="empty", env={"JUST_CEILING": "{{TMP}}"}),
  C("upward_search_from_subdirectory", ECHO, dirs=["a/b/c"], cwd="a/b/c"),
  C("upward_search_runs_in_justfile_directory", """
    pwd:
      @pwd
    """, cwd="a/b"),
  C("invocation_directory_is_original_cwd", """
    dir:
      @echo {{invocation_directory()}}
    """, cwd="a/b"),
  C("nearest_justfile_wins", ECHO,
    files={"a/justfile": "hello:\n  @echo hello from a\n"}, cwd="a/b"),
  C("justfile_directory_is_not_a_candidate", ECHO, dirs=["sub/justfile"], cwd="sub"),
  C("flag_justfile_selects_file", None, "-f", "other.just",
    files={"other.just": "x:\n  @echo other\n"}),
  C("flag_justfile_long_form", None, "--justfile", "other.just",
    files={"other.just": "x:\n  @echo other\n"}),
  C("flag_justfile_sets_working_directory_to_its_dir", None, "-f", "sub/file.just",
    files={"sub/file.just": "x:\n  @pwd\n"}),
  C("flag_justfile_missing_file", None, "-f", "missing.just"),
  C("flag_working_directory_with_justfile", None, "-f", "sub/j", "-d", ".",
    files={"sub/j": "x:\n  @pwd\n"}),
  C("flag_working_directory_without_justfile_is_error", ECHO, "-d", "."),
  C("env_just_justfile", None, env={"JUST_JUSTFILE": "other.just"},
    files={"other.just": "x:\n  @echo from env\n"}),
  C("env_just_working_directory", None, env={"JUST_JUSTFILE": "sub/j", "JUST_WORKING_DIRECTORY": "."},
    files={"sub/j": "x:\n  @pwd\n"}),
  C("path_argument_runs_recipe_in_subdirectory", ECHO, "sub/build",
    files={"sub/justfile": "build:\n  @echo sub build\n  @pwd\n"}),
  C("path_argument_default_recipe", ECHO, "sub/",
    files={"sub/justfile": "build:\n  @echo sub default\n"}),
  C("path_argument_parent_directory", None, "../",
    files={"justfile": "top:\n  @echo top\n"}, dirs=["child"], cwd="child"),
  C("path_argument_parent_recipe", None, "../top",
    files={"justfile": "top:\n  @echo top\n"}, dirs=["child"], cwd="child"),
  C("path_argument_with_arguments", ECHO, "sub/greet", "world",
    files={"sub/justfile": "greet name:\n  @echo hi {{name}}\n"}),
  C("path_argument_with_following_recipe_is_error", ECHO, "sub/build", "hello",
    files={"sub/justfile": "build:\n  @echo b\n"}),
  C("path_argument_search_is_upward_from_dir", ECHO, "sub/deep/",
    files={"sub/justfile": "x:\n  @echo from sub\n"}, dirs=["sub/deep"]),
  C("ceiling_flag_stops_search", ECHO, "--ceiling", "{{TMP}}/foo", dirs=["foo/bar"], cwd="foo/bar"),
  C("ceiling_env_stops_search", ECHO, env={"JUST_CEILING": "{{TMP}}/foo"}, dirs=["foo/bar"], cwd="foo/bar"),
  C("ceiling_directory_itself_is_examined", None, "--ceiling", "{{TMP}}/foo",
    files={"foo/justfile": "x:\n  @echo in foo\n"}, dirs=["foo/bar"], cwd="foo/bar"),
  C("ceiling_above_justfile_allows_search", ECHO, "--ceiling", "{{TMP}}", dirs=["foo/bar"], cwd="foo/bar"),
  C("init_with_ceiling_writes_in_start_directory", None, "--init", "--ceiling", "{{TMP}}/foo",
    dirs=["foo/bar", ".git"], cwd="foo/bar", expect_files=["foo/bar/justfile"]),
  C("init_writes_at_git_root", None, "--init",
    dirs=["foo/bar", ".git"], cwd="foo/bar", expect_files=["justfile"]),
  C("init_without_git_writes_in_cwd", None, "--init", env={"JUST_CEILING": "{{TMP}}"},
    expect_files=["justfile"]),
  C("init_refuses_existing_justfile", ECHO, "--init"),
  C("init_with_explicit_justfile_path", None, "--init", "-f", "custom.just",
    expect_files=["custom.just"]),
  C("search_ignores_justfile_in_child", None, "--ceiling", "{{TMP}}",
    files={"child/justfile": ECHO}),
  C("dot_justfile_in_parent_found", None, files={".justfile": ECHO}, dirs=["x"], cwd="x"),
  C("working_directory_is_justfile_dir_for_backticks", """
    d := `pwd`
    show:
      @echo {{d}}
    """, cwd="nested"),
]
