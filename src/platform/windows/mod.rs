//! The Windows side of the platform layer: files, start-up, the standard
//! streams, and what the process supervisor stands on (Job Objects, waiting,
//! console control events), with the same functions as `unix/`.

pub mod fs;
pub mod pipe;
pub mod process;
pub mod signal_table;
pub mod signal_thread;
pub mod start;
pub mod streams;
