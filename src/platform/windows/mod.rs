//! The Windows side of the platform layer.

pub mod fs;
pub mod signals;
pub mod start;
pub mod streams;
