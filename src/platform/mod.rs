//! What depends on the operating system: signal handling, the process
//! supervisor (process groups, the terminal, job control), child exit
//! statuses, permission bits and file locks. The supervisor
//! (`supervisor.rs`) and the signal wiring (`signals.rs`) are written
//! against `os`, the operating system's module (`unix/`); a Windows port
//! provides the same functions.

pub mod exit;
pub mod fs;
pub mod mode;
pub mod signals;
pub mod stdio;
pub mod supervisor;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as os;
