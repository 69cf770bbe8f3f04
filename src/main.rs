//! The `just` executable. It starts from the C `main` rather than through
//! the standard library's runtime set-up, whose main-thread stack-guard probe
//! (parsing `/proc/self/maps`) costs more than `just --version` otherwise
//! does; the parts of that set-up `just` relies on are done by
//! `just::prepare_process`. `just` runs on a thread with a large stack of its
//! own (`just::run`).
#![no_main]

use std::ffi::{c_char, c_int};

#[unsafe(no_mangle)]
extern "C" fn main(argc: c_int, argv: *const *const c_char) -> c_int {
  // SAFETY: C's `main` gets `argc` valid strings in `argv`.
  unsafe { just::prepare_process(argc, argv) };
  // `exit` flushes standard output, as returning from a Rust `main` would.
  std::process::exit(just::run());
}
