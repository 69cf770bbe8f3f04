//! The command line: flag definitions, configuration, the top-level driver.

pub mod arguments;
pub mod config;
pub mod positional;
pub mod run;
