from capture import C

def ev(name, body, *args, **kw):
  return C(name, body, "--evaluate", *args, **kw)

CASES = [
  ev("if_equal_true", """
    x := if "a" == "a" { "yes" } else { "no" }
    """),
  ev("if_equal_false", """
    x := if "a" == "b" { "yes" } else { "no" }
    """),
  ev("if_not_equal", """
    x := if "a" != "b" { "yes" } else { "no" }
    """),
  ev("if_regex_match", """
    x := if "hello123" =~ '^[a-z]+[0-9]+$' { "match" } else { "nomatch" }
    """),
  ev("if_regex_no_match", """
    x := if "hello" =~ '^[0-9]+$' { "match" } else { "nomatch" }
    """),
  ev("if_regex_not_match_operator", """
    x := if "hello" !~ '^[0-9]+$' { "no digits" } else { "digits" }
    """),
  ev("else_if_chain", """
    v := "b"
    x := if v == "a" { "A" } else if v == "b" { "B" } else { "other" }
    """),
  ev("if_without_else", """
    x := if "a" == "a" { "only" }
    y := if "a" == "b" { "only" }
    """),
  ev("conditional_short_circuits_backtick", """
    x := if "a" == "a" { "safe" } else { `exit 1` }
    """),
  ev("logical_and_or", """
    set unstable
    a := "x" && "y"
    b := "" && "y"
    c := "" || "z"
    d := "x" || "z"
    """),
  ev("logical_operators_require_unstable", """
    a := "x" && "y"
    """),
  ev("parenthesized_grouping", """
    x := ("a" + "b") / ("c" + "d")
    """),
  ev("assignment_order_independent", """
    b := a + "!"
    a := "first"
    """),
  ev("bad_regex_error", """
    x := if "a" =~ '(' { "y" } else { "n" }
    """),
  ev("functions_case_conversion", """
    a := uppercase("MiXed")
    b := lowercase("MiXed")
    c := capitalize("hello WORLD")
    d := kebabcase("HelloWorld foo_bar")
    e := snakecase("HelloWorld")
    f := shoutysnakecase("hello world")
    g := titlecase("hello world")
    h := uppercamelcase("hello_world")
    i := lowercamelcase("hello_world")
    j := shoutykebabcase("hello world")
    """),
  ev("functions_string_manipulation", """
    a := replace("aaa", "a", "b")
    b := replace_regex("abc123", '[0-9]', "#")
    c := trim("  x  ")
    d := trim_start("  x  ")
    e := trim_end("  x  ")
    f := trim_start_match("prefix-body", "prefix-")
    g := trim_end_match("body.txt", ".txt")
    h := trim_start_matches("aaab", "a")
    i := trim_end_matches("baaa", "a")
    j := quote("it's")
    k := append("/x", "a b")
    l := prepend("p-", "a b")
    m := encode_uri_component("a b&c")
    """),
  ev("functions_path_manipulation", """
    a := file_name("/a/b/c.txt")
    b := file_stem("/a/b/c.tar.gz")
    c := extension("/a/b/c.tar.gz")
    d := parent_directory("/a/b/c")
    e := without_extension("/a/b/c.txt")
    f := join("a", "b", "c")
    g := clean("a/./b/../c")
    h := absolute_path("rel") == justfile_directory() / "rel"
    """),
  ev("functions_hashes", """
    a := sha256("hello")
    b := blake3("hello")
    """),
  ev("file_hash_functions", """
    a := sha256_file("data.txt")
    b := blake3_file("data.txt")
    """, files={"data.txt": "content\n"}),
  ev("function_env_with_default", """
    a := env("UNSET_VARIABLE_FOR_TEST", "fallback")
    b := env_var_or_default("UNSET_VARIABLE_FOR_TEST", "d")
    c := env("SET_FOR_TEST")
    """, env={"SET_FOR_TEST": "present"}),
  ev("function_env_missing_error", """
    a := env_var("UNSET_VARIABLE_FOR_TEST")
    """),
  ev("function_error_call", """
    a := error("custom failure")
    """),
  ev("function_arity_error", """
    a := uppercase("a", "b")
    """),
  ev("undefined_function_error", """
    a := nosuchfn("a")
    """),
  ev("function_semver_matches", """
    a := semver_matches("1.2.3", ">=1.0")
    b := semver_matches("0.1.0", ">=1.0")
    """),
  ev("function_path_exists", """
    a := path_exists("present.txt")
    b := path_exists("absent.txt")
    """, files={"present.txt": "x"}),
  ev("function_read", """
    a := read("data.txt")
    """, files={"data.txt": "file contents\n"}),
  ev("function_is_dependency_outside_recipe", """
    a := is_dependency()
    """),
  ev("function_justfile_paths", """
    a := justfile()
    b := justfile_directory()
    c := source_file()
    d := source_directory()
    e := invocation_directory()
    """),
  ev("function_os_family_constants", """
    a := os_family()
    b := HEX
    c := HEXLOWER
    d := HEXUPPER
    """),
  ev("function_num_cpus_shape", """
    a := if num_cpus() =~ '^[0-9]+$' { "number" } else { "other" }
    """),
  ev("function_uuid_shape", """
    a := if uuid() =~ '^[0-9a-f-]{36}$' { "uuid" } else { "other" }
    """),
  ev("function_choose", """
    a := choose("5", "a")
    """),
  ev("function_style", """
    a := style("error")
    """),
  ev("ansi_constants", """
    a := BOLD + "x" + NORMAL
    b := RED
    """),
  ev("function_datetime_shape", """
    a := if datetime("%Y") =~ '^[0-9]{4}$' { "year" } else { "other" }
    """),
  ev("function_call_with_trailing_comma", """
    a := uppercase("a",)
    """),
  ev("nested_function_calls", """
    a := uppercase(replace(trim("  a-b  "), "-", "_"))
    """),
  ev("function_in_recipe_body", """
    a := "A"
    """, "a"),
  C("function_in_recipe_interpolation", """
    foo:
      @echo {{ uppercase("shout") }}
    """),
  ev("assert_passes", """
    x := "1"
    """),
  C("assert_failure", """
    x := "1"
    foo:
      @echo {{ assert(x == "2", "x must be 2") }}
    """),
  ev("function_which", """
    a := which("sh") != ""
    b := which("definitely-not-a-command-xyz")
    """),
  ev("function_require_missing", """
    a := require("definitely-not-a-command-xyz")
    """),
  ev("evaluate_unknown_variable", """
    a := "1"
    """, "nope"),
  ev("variable_cycle_error", """
    a := b
    b := a
    """),
  ev("variable_self_reference", """
    a := a
    """),
  ev("undefined_variable_error", """
    a := b
    """),
  ev("export_then_evaluate", """
    export A := "x"
    B := A
    """),
  ev("exported_parameter_and_assignment_env", """
    set export
    a := "v"
    """),
]
