//! The command line: flag definitions, configuration, the top-level driver.

pub mod config;
pub mod run;
