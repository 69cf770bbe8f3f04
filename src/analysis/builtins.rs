//! The analyzer's view of built-in functions and constants. Temporary local
//! table until the `functions` branch is merged.

/// `Err(expected)` (e.g. `1 to 2`) when `count` arguments do not fit; None
/// when `name` is no built-in.
pub(crate) fn check_arity(name: &str, count: usize) -> Option<Result<(), String>> {
  let canonical = canonical_name(name);
  let (min, max) = match canonical.as_str() {
    "arch"
    | "os"
    | "os_family"
    | "num_cpus"
    | "invocation_directory"
    | "justfile"
    | "justfile_directory"
    | "just_executable"
    | "just_pid"
    | "uuid"
    | "home_directory"
    | "source_file"
    | "source_directory"
    | "module_file"
    | "module_directory"
    | "num_jobs" => (0, Some(0)),
    "env" | "env_var_or_default" | "datetime" | "datetime_utc" | "shell" => (1, Some(2)),
    "replace" | "replace_regex" => (3, Some(3)),
    "join" => (1, None),
    _ => (1, Some(1)),
  };
  let fits = count >= min && max.is_none_or(|max| count <= max);
  Some(if fits {
    Ok(())
  } else {
    Err(match max {
      Some(max) if max == min => min.to_string(),
      Some(max) => format!("{min} to {max}"),
      None => format!("{min} or more"),
    })
  })
}

pub(crate) fn canonical_name(name: &str) -> String {
  if let Some(stem) = name.strip_suffix("_dir") {
    format!("{stem}_directory")
  } else if let Some(stem) = name.strip_suffix("_dir_native") {
    format!("{stem}_directory_native")
  } else {
    name.to_string()
  }
}

pub(crate) fn requires_lists(name: &str) -> bool {
  matches!(name, "bool" | "join_list" | "num_jobs" | "show" | "split" | "which")
}

pub(crate) fn constant(name: &str) -> Option<&'static str> {
  match name {
    "HEX" => Some("0123456789abcdef"),
    "HEXLOWER" => Some("0123456789abcdef"),
    "HEXUPPER" => Some("0123456789ABCDEF"),
    "PATH_SEP" => Some("/"),
    "PATH_VAR_SEP" => Some(":"),
    _ => None,
  }
}
