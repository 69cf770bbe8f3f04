//! What depends on the operating system: signal handling and forwarding,
//! process groups, child exit statuses. Unix-only today; a Windows port fills
//! in this module.

pub mod exit;
pub mod signals;
