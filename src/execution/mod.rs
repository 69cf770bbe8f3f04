//! Running recipes: invocations, dependency order, linewise and script
//! execution, signals.

pub mod cache;
pub mod error;
pub mod jobserver;
pub mod keep_going;
pub mod linewise;
pub mod output_mode;
pub mod run;
pub mod runner;
pub mod script;
pub mod timestamp;
