//! A process id, as the system calls take it.

pub(crate) type Pid = i32;
