//! The command line: flag definitions, configuration, the top-level driver.

pub(crate) mod arguments;
pub(crate) mod completions;
pub(crate) mod config;
pub(crate) mod edit;
pub(crate) mod error;
pub(crate) mod flags;
pub(crate) mod init;
pub(crate) mod invocation;
pub(crate) mod language_server;
pub(crate) mod man;
pub(crate) mod pager;
pub(crate) mod positional;
pub(crate) mod print;
pub(crate) mod quick;
pub(crate) mod recipes;
pub(crate) mod run;
pub(crate) mod watch;
