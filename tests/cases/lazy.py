from capture import C

# Backticks print their name to stderr so that which assignments are
# evaluated, and in which order, is observable.

LAZY_BASIC = """
  set lazy
  a := `echo A >&2; echo a`
  b := `echo B >&2; echo b`
  c := `echo C >&2; echo c`
  d := `echo D >&2; echo d`
  eager f := `echo F >&2; echo f`

  foo: (bar b) && baz
    @echo {{ if "x" == "y" { a } else { "no" } }}

  bar x:
    @echo {{x}}

  baz:
    @echo {{c}}

  other:
    @echo {{d}}
  """

ORDER = """
  _p := `echo P >&2; echo p`
  a := `echo A >&2; echo a`
  b := if "1" == "2" { z } else { "n" }
  export e := `echo E >&2; echo e`
  eager g := `echo G >&2; echo g`
  z := `echo Z >&2; echo z`

  foo:
    @echo {{a}}
  """

CASES = [
  # --- set lazy: which assignments are evaluated ---------------------------
  C("lazy_evaluates_untaken_branches_dependencies_and_eager", LAZY_BASIC, "foo"),
  C("lazy_no_deps_still_evaluates_what_dependencies_reference", LAZY_BASIC, "--no-deps", "foo"),
  C("lazy_evaluates_only_what_the_invoked_recipe_references", LAZY_BASIC, "other"),
  C("lazy_evaluates_variables_referenced_by_dependency_arguments", LAZY_BASIC, "bar", "1"),
  C("lazy_unreferenced_failing_backtick_is_not_run", """
    set lazy
    bad := `exit 3`
    good := "ok"
    foo:
      @echo {{good}}
    """, "foo"),
  C("lazy_failing_backtick_in_untaken_branch_is_run", """
    set lazy
    bad := `echo BAD >&2; exit 3`
    foo:
      @echo {{ if "a" == "b" { bad } else { "fine" } }}
    """, "foo"),
  C("lazy_backtick_touches_file_only_when_referenced", """
    set lazy
    touched := `touch touched.txt; echo t`
    kept := `echo kept > kept.txt; echo k`
    foo:
      @echo {{kept}}
    bar:
      @echo {{touched}}
    """, "foo", expect_files=["kept.txt"]),
  C("lazy_evaluates_whole_chain_of_referenced_variables", """
    set lazy
    a := b + `echo A >&2; echo a`
    b := if "x" == "y" { c } else { "b" }
    c := `echo C >&2; echo c`
    d := `echo D >&2; echo d`
    foo:
      @echo {{a}}
    """, "foo"),
  C("lazy_parameters_shadow_variables", """
    set lazy
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    foo a b=a:
      @echo {{a}} {{b}}
    """, "foo", "1"),
  C("lazy_default_references_variable", """
    set lazy
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    foo x=a:
      @echo {{x}}
    """, "foo", "given"),
  C("lazy_ignored_comment_lines_are_not_evaluated", """
    set lazy
    set ignore-comments
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    foo:
      # {{a}}
      @echo {{b}}
    """, "foo"),
  C("lazy_comment_lines_are_evaluated_without_ignore_comments", """
    set lazy
    a := `echo A >&2; echo a`
    foo:
      @# {{a}}
    """, "foo"),
  C("lazy_attributes_reference_variables", """
    set lazy
    dir := `echo DIR >&2; echo sub`
    name := `echo NAME >&2; echo NAME`
    value := `echo VALUE >&2; echo value`
    prompt := `echo PROMPT >&2; echo ok?`
    unused := `echo UNUSED >&2`
    [working-directory(dir)]
    [env(name, value)]
    [confirm(prompt)]
    foo:
      @pwd | sed 's:.*/::'; echo $NAME
    """, "--yes", "foo", dirs=["sub"]),
  C("lazy_user_function_bodies_are_followed", """
    set lazy
    set unstable
    a := `echo A >&2; echo a`
    d := `echo D >&2; echo d`
    f(x) := x + d
    foo a:
      @echo {{a}} {{f("1")}}
    """, "foo", "1"),
  C("lazy_exported_assignments_are_evaluated", """
    set lazy
    export E := `echo E >&2; echo e` + x
    x := `echo X >&2; echo x`
    y := `echo Y >&2; echo y`
    foo:
      @echo $E
    """, "foo"),
  C("lazy_set_export_evaluates_everything", """
    set lazy
    set export
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    foo:
    """, "foo"),
  C("lazy_override_is_not_evaluated_nor_what_only_it_references", """
    set lazy
    a := `echo A >&2; echo a` + b
    b := `echo B >&2; echo b`
    foo:
      @echo {{a}}
    """, "a=over", "foo"),
  C("lazy_dry_run_does_not_run_backticks", LAZY_BASIC, "--dry-run", "foo"),
  C("lazy_alias_on_command_line", """
    set lazy
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    alias f := foo
    foo:
      @echo {{b}}
    """, "f"),
  C("lazy_default_recipe", """
    set lazy
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    foo:
      @echo {{b}}
    bar:
      @echo {{a}}
    """),
  C("lazy_several_invocations", LAZY_BASIC, "other", "baz"),
  C("lazy_shared_dependency_visited_once", """
    set lazy
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    c := `echo C >&2; echo c`
    foo: (dep "x") (dep "y") && (dep a)
    dep p:
      @echo {{p}} {{b}}
    """, "foo"),
  C("lazy_extends_to_submodules", """
    set lazy
    r := `echo R >&2; echo r`
    mod sub
    foo:
      @echo {{r}}
    """, "sub::bar", files={"sub.just": """
      s := `echo S >&2; echo s`
      t := `echo T >&2; echo t`
      bar:
        @echo {{t}}
      """}),
  C("lazy_submodule_dependency_from_root", """
    set lazy
    r := `echo R >&2; echo r`
    mod sub
    foo: (sub::bar r)
    """, "foo", files={"sub.just": """
      s := `echo S >&2; echo s`
      t := `echo T >&2; echo t`
      bar x:
        @echo {{x}} {{t}}
      """}),
  C("lazy_in_submodule_only", """
    r := `echo R >&2; echo r`
    mod sub
    """, "sub::bar", files={"sub.just": """
      set lazy
      s := `echo S >&2; echo s`
      t := `echo T >&2; echo t`
      bar:
        @echo {{t}}
      """}),
  C("lazy_submodule_cannot_switch_it_off", """
    set lazy
    mod sub
    """, "sub::bar", files={"sub.just": """
      set lazy := false
      s := `echo S >&2; echo s`
      t := `echo T >&2; echo t`
      bar:
        @echo {{t}}
      """}),

  C("lazy_recursive_user_function_terminates", """
    set lazy
    set unstable
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    f(x) := if x == "" { a } else { f("") }
    foo:
      @echo {{f("1")}}
    """, "foo"),
  C("lazy_script_recipe_comments_are_evaluated_with_ignore_comments", """
    set lazy
    set ignore-comments
    a := `echo A >&2; echo a`
    b := `echo B >&2; echo b`
    foo:
      #!/bin/sh
      # {{a}}
      echo done
    """, "foo"),
  C("lazy_evaluate_with_override_through_alias", """
    set lazy
    mod foo
    alias f := foo
    """, "--set", "f::x", "o", "--evaluate", "f", files={"foo.just": """
      x := `echo X >&2; echo x`
      y := `echo Y >&2; echo y` + x
      """}),

  # --- evaluation order without set lazy -----------------------------------
  C("eager_order_visits_references_of_untaken_branches_first", ORDER, "foo"),
  C("eager_order_through_user_function_bodies", """
    set unstable
    a := if "x" == "y" { f() } else { "" }
    f() := z + y
    y := `echo Y >&2; echo y`
    z := `echo Z >&2; echo z`
    foo:
    """, "foo"),

  # --- --evaluate and --command are always lazy ----------------------------
  C("evaluate_all_visits_in_order_and_skips_private", ORDER, "--evaluate"),
  C("evaluate_one_variable_with_references", ORDER, "--evaluate", "b"),
  C("evaluate_one_variable", ORDER, "--evaluate", "a"),
  C("evaluate_private_variable", ORDER, "--evaluate", "_p"),
  C("command_evaluates_only_exported_and_eager", ORDER, "--command", "true"),
  C("evaluate_submodule_variable_lazily", """
    r := `echo R >&2; echo r`
    mod sub
    """, "--evaluate", "sub::t", files={"sub.just": """
      s := `echo S >&2; echo s`
      t := `echo T >&2; echo t`
      """}),

  # --- overrides through module aliases ------------------------------------
  C("override_through_module_alias", """
    mod foo
    alias f := foo
    """, "f::x=o", "f", "bar", files={"foo.just": """
      x := "default"
      bar:
        @echo {{x}}
      """}),
  C("override_through_module_alias_with_set", """
    mod foo
    alias f := foo
    """, "--set", "f::x", "o", "foo", "bar", files={"foo.just": """
      x := "default"
      bar:
        @echo {{x}}
      """}),
  C("override_through_module_alias_does_not_reach_settings", """
    mod foo
    alias f := foo
    """, "f::x=o", "foo", "bar", dirs=["o", "default"], files={"foo.just": """
      set working-directory := x
      x := "default"
      bar:
        @echo {{x}}
        @pwd | sed 's:.*/::'
      """}),
  C("override_through_aliases_greatest_path_wins", """
    mod foo
    alias a := foo
    alias a-b := foo
    alias z := foo
    """, "a-b::x=2", "z::x=3", "foo::x=1", "a::x=0", "foo", "bar", files={"foo.just": """
      x := "default"
      bar:
        @echo {{x}}
      """}),
  C("override_through_alias_of_nested_module", """
    mod foo
    alias fb := foo::baz
    """, "fb::y=Y", "foo", "baz", "q", files={"foo.just": """
      mod baz
      """, "baz.just": """
      y := "yd"
      q:
        @echo {{y}}
      """}),
  C("override_through_alias_inside_submodule", """
    mod foo
    alias f := foo
    """, "f::g::y=Y", "foo", "baz", "q", files={"foo.just": """
      mod baz
      alias g := baz
      """, "baz.just": """
      y := "yd"
      q:
        @echo {{y}}
      """}),
  C("override_through_recipe_alias_is_unknown", """
    alias r := root
    root:
    """, "r::x=1", "root"),
  C("override_through_alias_unknown_variable", """
    mod foo
    alias f := foo
    """, "f::y=1", "f::x=2", "foo", "bar", files={"foo.just": """
      x := "default"
      bar:
      """}),

  # --- [working-directory] with a list value -------------------------------
  C("working_directory_list_value_error_points_at_attribute", """
    set lists
    set unstable

    [working-directory(["a", "b"])]
    foo:
      pwd
    """, "foo"),
  C("working_directory_empty_list_value_error", """
    set lists
    set unstable

    [working-directory([])]
    foo:
      pwd
    """, "foo"),
  C("working_directory_list_value_error_in_submodule", """
    mod sub
    """, "sub::foo", files={"sub.just": """
      set lists
      set unstable
      d := ["x", "y"]

      [working-directory(d)]
      foo:
        pwd
      """}),
]
