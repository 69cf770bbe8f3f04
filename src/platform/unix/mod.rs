//! The Unix side of the platform layer: files, start-up, the standard
//! streams, and what the process supervisor stands on (process groups, the
//! terminal's foreground group, waiting with job control, and the thread
//! that turns signals into messages). `platform::supervisor` is written
//! against these functions only; `windows/` provides the same ones.

pub mod fs;
pub mod pipe;
pub mod process;
pub mod signal_table;
pub mod signal_thread;
pub mod start;
pub mod streams;
