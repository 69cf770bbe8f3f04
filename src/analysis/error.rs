//! Analysis errors (language.md §12.3).

use snafu::Snafu;

#[derive(Debug, Clone, Snafu)]
pub enum AnalysisErrorKind<'src> {
  #[snafu(display("variable `{variable}` not defined"))]
  UndefinedVariable { variable: &'src str },
}

impl AnalysisErrorKind<'_> {
  pub fn caused_by(&self) -> Option<String> {
    None
  }
}
