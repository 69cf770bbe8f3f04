//! The Unix side of the process supervisor: process groups, the terminal's
//! foreground group, waiting with job control, and the thread that turns
//! signals into messages. `platform::supervisor` is written against these
//! functions only; another operating system provides the same ones.

pub mod process;
pub mod signal_thread;
