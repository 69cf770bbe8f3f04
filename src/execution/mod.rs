//! Running recipes: dependency order, linewise and script execution, signals.
pub mod invocation;
