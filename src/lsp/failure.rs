//! A request that gets an error for an answer, and reading a request's
//! parameters, which fails with one.

use lsp_server::ErrorCode;
use serde_json::Value;

/// A request that cannot be answered with a result.
pub(super) struct Failure {
  pub(super) code: ErrorCode,
  pub(super) message: String,
}

impl Failure {
  pub(super) fn new(code: ErrorCode, message: impl Into<String>) -> Self {
    Failure { code, message: message.into() }
  }
}

/// Read a request's parameters, or fail with `InvalidParams`.
pub(super) fn parameters<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, Failure> {
  serde_json::from_value(params)
    .map_err(|error| Failure::new(ErrorCode::InvalidParams, format!("invalid parameters: {error}")))
}
