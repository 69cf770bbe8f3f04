from capture import C

UNFORMATTED = """
# tasks
set quiet := true



build:
  cargo build
test: build
  cargo test
"""

FORMATTED = """
set quiet

build:
    cargo build
"""

CASES = [
  C("fmt_writes_and_reports", UNFORMATTED, "--fmt", expect_files=["justfile"]),
  C("fmt_alias_format", UNFORMATTED, "--format", expect_files=["justfile"]),
  C("fmt_unchanged_prints_nothing", FORMATTED, "--fmt", expect_files=["justfile"]),
  C("fmt_quiet_suppresses_message", UNFORMATTED, "--fmt", "--quiet", expect_files=["justfile"]),
  C("fmt_check_diff", UNFORMATTED, "--fmt", "--check", expect_files=["justfile"]),
  C("fmt_check_diff_color", UNFORMATTED, "--fmt", "--check", "--color", "always"),
  C("fmt_check_quiet", UNFORMATTED, "--fmt", "--check", "--quiet"),
  C("fmt_check_formatted", FORMATTED, "--fmt", "--check"),
  C("fmt_check_missing_final_newline", None, "--fmt", "--check", files={"justfile": 'x := "1"'}),
  C("fmt_stdin_prints", None, "--fmt", "-f", "-", stdin="a:\n  echo a\n"),
  C("fmt_stdin_prints_when_unchanged", None, "--fmt", "-f", "-", stdin="a:\n    echo a\n"),
  C("fmt_stdin_check", None, "--fmt", "--check", "-f", "-", stdin="a:\n  echo a\n"),
  C("fmt_no_analysis_undefined_variable", "a:\n  echo {{nope}}\n", "--fmt", expect_files=["justfile"]),
  C("fmt_no_analysis_unknown_dependency", "a: nope\n", "--fmt", expect_files=["justfile"]),
  C("fmt_no_analysis_missing_import", "import 'nope.just'\nmod missing\n", "--fmt", expect_files=["justfile"]),
  C("fmt_no_analysis_unstable_function", "f(x) := x\n", "--fmt", expect_files=["justfile"]),
  C("fmt_parse_error_in_subdirectory", None, "--fmt", files={"proj/justfile": "a b c:\n  echo {{\n"}, cwd="proj"),
  C("fmt_dump_error_location_differs", "a:\n  echo {{\n", "--dump"),
  C("fmt_indentation_flag", "a:\n  echo a\n", "--fmt", "--indentation", "\t", expect_files=["justfile"]),
  C("fmt_indentation_setting", "set indentation := '  '\na:\n    echo a\n", "--fmt", expect_files=["justfile"]),
  C("fmt_indentation_flag_overrides_setting", "set indentation := '  '\na:\n    echo a\n", "--fmt",
    "--indentation", "   ", expect_files=["justfile"]),
  C("fmt_justfile_flag", None, "--fmt", "-f", "x.just", files={"x.just": "a:\n echo a\n"},
    expect_files=["x.just"]),
  C("fmt_capitalised_justfile_path", None, "--fmt", files={"Justfile": "a:\n echo a\n"},
    expect_files=["Justfile"]),
  C("fmt_imports_not_rewritten", "import 'other.just'\na:\n echo a\n", "--fmt",
    files={"other.just": "b:\n echo b\n"}, expect_files=["justfile", "other.just"]),
  C("fmt_check_with_stray_argument", UNFORMATTED, "--fmt", "--check", "x"),
  C("dump_indentation_flag", "a:\n  echo a\n", "--dump", "--indentation", "  "),
  C("dump_indentation_setting", "set indentation := '\t'\na:\n  echo a\n", "--dump"),
  C("dump_requires_compilation", "a:\n  echo {{nope}}\n", "--dump"),
  C("dump_only_root_file", "import 'o.just'\na:\n  echo a\n", "--dump", files={"o.just": "b:\n  echo b\n"}),
  C("dump_json_indentation_ignored", "a:\n  echo a\n", "--json", "--indentation", "\t"),
  C("show_ignores_indentation_setting", "set indentation := '\t'\na:\n  echo a\n", "--show", "a"),
  C("show_indentation_flag", "a:\n  echo a\n", "--show", "a", "--indentation", "  "),
  C("fmt_comments_and_blank_lines", "\n\n# c\n\n\nx := '1'   # trailing\n\n\n\na:\n  echo\n\n\n", "--fmt",
    expect_files=["justfile"]),
  C("fmt_crlf", None, "--fmt", files={"justfile": "a:\r\n  echo a\r\n"}, expect_files=["justfile"]),
  C("fmt_empty_file", "", "--fmt", expect_files=["justfile"]),
  C("fmt_check_empty_file", "", "--fmt", "--check"),
]
