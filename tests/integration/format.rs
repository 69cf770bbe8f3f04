//! Hand-written format tests: error locations naming temporary directories.

tests! {
  fmt_stdin_error_location_names_temporary_directory,
  fmt_error_location_names_justfile_directory,
  arg_for_undefined_parameter_fails_format,
}

fn fmt_stdin_error_location_names_temporary_directory() {
  crate::common::Test::new()
    .args(&["--fmt", "-f", "-"])
    .stdin("a:\n  echo {{\n")
    .stderr_regex(
      "error: unterminated interpolation\n ——▶ just-[A-Za-z0-9]{6}/justfile:2:8\n  │\n2 │   echo \\{\\{\n  │        \\^\\^\n",
    )
    .status(1)
    .run();
}

fn fmt_error_location_names_justfile_directory() {
  let output = crate::common::Test::new()
    .justfile("set frob := true\n")
    .arg("--fmt")
    .any_stderr()
    .status(1)
    .run();
  let dir = output.root.file_name().expect("name").to_string_lossy().into_owned();
  assert_eq!(
    output.stderr,
    format!("error: unknown setting `frob`\n ——▶ {dir}/justfile:1:5\n  │\n1 │ set frob := true\n  │     ^^^^\n")
  );
}

/// `[arg]` naming no parameter is a parse error, so `--fmt` fails too (the
/// path shown depends on the temporary directory's name).
fn arg_for_undefined_parameter_fails_format() {
  crate::common::Test::new()
    .justfile("[arg('b')]\na:\n")
    .args(&["--fmt", "--check"])
    .stderr_regex(
      "error: argument attribute for undefined argument `b`\n ——▶ [^\n]*justfile:1:6\n  │\n1 │ \\[arg\\('b'\\)\\]\n  │      \\^\\^\\^\n",
    )
    .status(1)
    .run();
}
