//! The Windows side of the platform layer: files, start-up, the standard
//! streams, and what the process supervisor stands on (Job Objects, waiting,
//! console control events), with the same functions as `unix/`.

pub(crate) mod dir;
pub(crate) mod fs;
pub(super) mod jobserver;
pub(crate) mod pipe;
pub(super) mod process;
pub(super) mod signal_table;
pub(super) mod signal_thread;
pub(super) mod start;
pub(super) mod streams;
