//! The Unix side of the platform layer.

pub mod fs;
pub mod start;
pub mod streams;
