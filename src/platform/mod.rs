//! What depends on the operating system: signal handling and forwarding,
//! process groups, child exit statuses, permission bits and file locks.
//! Unix-only today; a Windows port fills in this module.

pub mod exit;
pub mod fs;
pub mod pipe;
pub mod signals;
pub mod stdio;
