//! Variable values given on the command line (`--set NAME VALUE`, `NAME=VALUE`).

/// `NAME=VALUE` or `--set NAME VALUE`; `sub::x=1` has module path `["sub"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
  pub module_path: Vec<String>,
  pub name: String,
  pub value: String,
}

impl std::fmt::Display for Override {
  fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    for module in &self.module_path {
      write!(f, "{module}::")?;
    }
    write!(f, "{}={}", self.name, self.value)
  }
}
