//! Running recipes: invocations, dependency order, linewise and script
//! execution, signals.

pub(crate) mod body;
pub(crate) mod cache;
pub(crate) mod error;
pub(crate) mod jobserver;
pub(crate) mod keep_going;
pub(crate) mod linewise;
pub(crate) mod output_mode;
pub(crate) mod run;
pub(crate) mod runner;
pub(crate) mod script;
pub(crate) mod timestamp;
