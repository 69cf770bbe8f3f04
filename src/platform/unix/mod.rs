//! The Unix side of the platform layer: files, start-up, the standard
//! streams, and what the process supervisor stands on (process groups,
//! whether there is a controlling terminal, the descendants of a process,
//! waiting, and the thread that turns signals into messages). `platform::supervisor` is written
//! against these functions only; `windows/` provides the same ones.

mod descendants;
pub(crate) mod dir;
pub(crate) mod fs;
pub(super) mod jobserver;
mod pid;
pub(crate) mod pipe;
pub(super) mod process;
pub(super) mod signal_table;
pub(super) mod signal_thread;
pub(super) mod start;
mod starting;
pub(super) mod streams;
