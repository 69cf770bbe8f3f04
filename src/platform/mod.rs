//! What depends on the operating system: signal handling and forwarding,
//! process groups. Unix-only today; a Windows port fills in this module.

pub mod signals;
