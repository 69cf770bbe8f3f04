from capture import C

CASES = [
  C("dependency_runs_first", """
    b: a
      @echo b
    a:
      @echo a
    """, "b"),
  C("dependency_runs_once", """
    all: a b
    a: c
      @echo a
    b: c
      @echo b
    c:
      @echo c
    """, "all"),
  C("dependencies_in_listed_order", """
    all: z y x
    x:
      @echo x
    y:
      @echo y
    z:
      @echo z
    """),
  C("dependency_with_argument", """
    build target:
      @echo build {{target}}
    all: (build "one") (build "two")
    """, "all"),
  C("same_dependency_different_args_both_run", """
    p x:
      @echo p {{x}}
    all: (p "1") (p "2") (p "1")
    """, "all"),
  C("dependency_with_expression_argument", """
    v := "base"
    p x:
      @echo {{x}}
    all: (p v + "-ext")
    """, "all"),
  C("subsequent_dependencies_run_after", """
    all: a && b
      @echo all
    a:
      @echo a
    b:
      @echo b
    """),
  C("subsequent_dependency_with_args", """
    all: && (p "after")
      @echo all
    p x:
      @echo p {{x}}
    """),
  C("subsequent_not_run_on_failure", """
    all: && after
      @exit 1
    after:
      @echo after
    """),
  C("failing_dependency_stops_recipe", """
    all: bad
      @echo all
    bad:
      @exit 2
    """),
  C("no_deps_flag_skips_dependencies", """
    all: a
      @echo all
    a:
      @echo a
    """, "--no-deps", "all"),
  C("no_deps_skips_subsequents", """
    all: && a
      @echo all
    a:
      @echo a
    """, "--no-deps"),
  C("dependency_already_run_by_command_line", """
    a:
      @echo a
    b: a
      @echo b
    """, "a", "b"),
  C("dependency_on_alias_is_error", """
    alias x := a
    a:
      @echo a
    b: x
      @echo b
    """, "b"),
  C("dependency_variadic_arguments", """
    p +xs:
      @echo {{xs}}
    all: (p "a" "b" "c")
    """),
  C("dependency_in_module", """
    mod sub
    all: sub::inner
      @echo all
    """, files={"sub.just": "inner:\n  @echo inner\n"}),
  C("deep_dependency_chain", """
    a: b
      @echo a
    b: c
      @echo b
    c: d
      @echo c
    d:
      @echo d
    """),
  C("dependency_parameters_evaluated_with_caller_params", """
    p x:
      @echo p {{x}}
    q y: (p y + "!")
      @echo q {{y}}
    """, "q", "hi"),
  C("dependency_echo_lines", """
    b: a
      echo b
    a:
      echo a
    """, "b"),
  C("dry_run_shows_dependencies", """
    b: a
      echo b
    a:
      echo a
    """, "--dry-run", "b"),
]
