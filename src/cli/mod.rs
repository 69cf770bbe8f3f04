//! The command line: flag definitions, configuration, the top-level driver.

pub mod arguments;
pub mod completions;
pub mod config;
pub mod edit;
pub mod error;
pub mod flags;
pub mod init;
pub mod invocation;
pub mod man;
pub mod positional;
pub mod quick;
pub mod run;
pub mod watch;
