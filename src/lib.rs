//! `just`: a command runner for justfiles.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! config (`cli`) → search → load → lex → parse (`syntax`) → analyze
//! (`analysis`) → evaluate (`evaluation`) → execute (`execution`), with
//! `output` rendering listings, formatted justfiles and errors.

pub mod analysis;
pub mod builtins;
pub mod cli;
pub mod color;
pub mod evaluation;
pub mod execution;
pub mod options;
pub mod output;
pub mod platform;
pub mod search;
pub mod syntax;
pub mod text;

/// Stack of the thread that runs `just`. Analysis, evaluation and dependency
/// resolution recurse once per nesting level or chain link (long `+` chains,
/// variable chains, dependency chains), which overflows the default main
/// stack; only touched pages are committed.
const STACK_SIZE: usize = 1024 * 1024 * 1024;

/// Run `just` with the process's arguments and environment; returns the exit status.
pub fn run() -> i32 {
  let on_thread = std::thread::Builder::new()
    .name("main".into())
    .stack_size(STACK_SIZE)
    .spawn(cli::run::main)
    .map(|handle| {
      block_signals_in_this_thread();
      handle.join().unwrap_or(101)
    });
  on_thread.unwrap_or_else(|_| cli::run::main())
}

/// The waiting thread blocks every signal, so that signals sent to the
/// process are delivered to the thread running `just` (its handlers, and
/// `sigwait` for `--request '"signal"'`).
fn block_signals_in_this_thread() {
  // SAFETY: plain calls on a stack-allocated, initialised signal set.
  unsafe {
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigfillset(&mut set);
    libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
  }
}
