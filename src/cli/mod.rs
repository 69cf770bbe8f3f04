//! The command line: flag definitions, configuration, the top-level driver.

// Being rewritten on another branch; their visibility and pedantic lints
// are settled there.
#[allow(unreachable_pub, clippy::pedantic)]
pub mod arguments;
pub(crate) mod completions;
#[allow(unreachable_pub, clippy::pedantic)]
pub mod config;
pub(crate) mod edit;
pub(crate) mod error;
pub(crate) mod init;
pub(crate) mod invocation;
pub(crate) mod man;
pub(crate) mod positional;
pub(crate) mod run;
pub(crate) mod watch;
