//! `just`: a command runner for justfiles.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! config (`cli`) → search → load → lex → parse (`syntax`) → analyze
//! (`analysis`) → evaluate (`evaluation`) → execute (`execution`), with
//! `output` rendering listings, formatted justfiles and errors.

pub mod analysis;
pub(crate) mod builtins;
pub(crate) mod cli;
pub mod color;
pub(crate) mod evaluation;
pub(crate) mod execution;
pub(crate) mod options;
pub mod output;
pub(crate) mod platform;
pub(crate) mod search;
pub mod syntax;
pub(crate) mod text;

/// Stack of the thread that runs `just`. Analysis, evaluation and dependency
/// resolution recurse once per nesting level or chain link (long `+` chains,
/// variable chains, dependency chains), which overflows the default main
/// stack; only touched pages are committed.
const STACK_SIZE: usize = 1024 * 1024 * 1024;
const _: () = assert!(STACK_SIZE >= syntax::parser::PARSER_STACK_SIZE);

/// Start-up work the standard library's runtime set-up would do and `just`
/// relies on (Unix: closed standard streams get `/dev/null`, `SIGPIPE` is
/// ignored; Windows: consoles take ANSI escapes). Call it first.
pub fn prepare_process() {
  platform::prepare_process();
}

/// Run `just` with the process's arguments and environment; returns the exit status.
pub fn run() -> i32 {
  let on_thread = std::thread::Builder::new()
    .name("main".into())
    .stack_size(STACK_SIZE)
    .spawn(|| {
      // Deeper than parsing needs: the parser need not start a thread of its own.
      syntax::parser::on_large_stack();
      cli::run::main()
    })
    .map(|handle| {
      // The waiting thread blocks every signal, so that signals sent to the
      // process reach the other threads (their handlers, `sigwait`). Only
      // an invalid argument could make this fail.
      let _ = platform::signals::block_all_in_this_thread();
      handle.join().unwrap_or(101)
    });
  on_thread.unwrap_or_else(|_| cli::run::main())
}
