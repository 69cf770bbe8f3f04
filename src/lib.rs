//! `just`: a command runner for justfiles.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! config (`cli`) → search → load → lex → parse (`syntax`) → analyze
//! (`analysis`) → evaluate (`evaluation`) → execute (`execution`), with
//! `output` rendering listings, formatted justfiles and errors.

mod analysis;
mod builtins;
mod cli;
mod color;
mod evaluation;
mod execution;
mod lsp;
mod options;
mod output;
mod platform;
mod search;
mod syntax;
mod text;

// The library's surface. `prepare_process`, `run`, `serve_cache_store` and
// `serve_lsp` (below) are the executables' (`src/main.rs`, `src/bin/`); the
// rest is what the integration tests (`tests/integration/robustness.rs`,
// `tests/integration/lsp.rs`) and the fuzz targets (`fuzz/`) drive: lexing,
// parsing and formatting a source, rendering an error's excerpt, loading and
// analysing a justfile behind `analyze` (the model stays the crate's own),
// and a language-server session in memory. Everything else is private to
// the crate.
pub use color::{Painter, Stream, UseColor};
pub use lsp::session as lsp_session;
pub use output::diagnostic::excerpt;
pub use output::format::{format_justfile, indentation_setting, write_justfile};
pub use output::sink::Sink;
pub use syntax::lexer::lex;
pub use syntax::parser::parse;
pub use syntax::sources::Source;
pub use syntax::token::TokenKind;
pub use syntax::trees::Trees;

/// Start-up work the standard library's runtime set-up would do and `just`
/// relies on (Unix: closed standard streams get `/dev/null`, `SIGPIPE` is
/// ignored; Windows: consoles take ANSI escapes), and the command line is
/// recorded. Call it first, with C `main`'s arguments.
///
/// # Safety
///
/// `argv` holds `argc` valid NUL-terminated strings, as C's `main` gets.
pub unsafe fn prepare_process(argc: std::ffi::c_int, argv: *const *const std::ffi::c_char) {
  // SAFETY: as the caller promises.
  unsafe { platform::prepare_process(argc, argv) };
}

/// The main of `just-cache-store`, the helper process that talks to network
/// cache stores (`--cache-url`) for `just`; returns the exit status.
pub fn serve_cache_store() -> i32 {
  let arguments: Vec<String> = std::env::args().skip(1).collect();
  execution::cache::serve_store(&arguments)
}

/// Restore a shared cache entry (arbitrary bytes) for the declared
/// `outputs` into `working_directory` from the `--cache-dir` store `store`,
/// without messages; whether it was restored. For the fuzz target
/// `cache_restore`.
#[doc(hidden)]
pub fn restore_cache_entry(
  store: &std::path::Path,
  working_directory: &std::path::Path,
  outputs: &[String],
  entry: &[u8],
) -> bool {
  execution::cache::restore_for_fuzzing(store, working_directory, outputs, entry)
}

/// What `just-language-server --version` prints, and `just --lsp` expects
/// of the helper it starts: another program of that name (or of another
/// version) is not served.
pub const LSP_IDENTITY: &str = cli::language_server::IDENTITY;

/// The main of `just-language-server`, the language server `just --lsp` starts (see
/// `lsp`); returns the exit status. A separate executable, so that what the
/// server links does not cost `just`'s start-up anything.
pub fn serve_lsp() -> i32 {
  // The server compiles what the editor holds, as `just` does: on a stack
  // as large as `run`'s, or a long chain in the file would overflow it.
  platform::stack::spawn_on_large_stack("lsp", lsp::serve)
    .map_or_else(|_| lsp::serve(), |handle| handle.join().unwrap_or(101))
}

/// Load the root justfile `justfile`, with `source` as its text (its
/// imports and modules are read from disk), and analyse it, as `just` does
/// before it runs anything, with no overrides and `--unstable` as
/// `unstable` says.
///
/// # Errors
///
/// The first error, rendered as `just` prints it (without colour): the
/// message, the source excerpt and any `caused by:` line.
pub fn analyze(
  justfile: &std::path::Path,
  source: String,
  working_directory: &std::path::Path,
  unstable: bool,
) -> Result<(), String> {
  let request = analysis::loader::LoadRequest {
    justfile,
    source: Some(source),
    working_directory,
    overrides: &[],
    unstable,
  };
  let (sources, trees) = (syntax::sources::Sources::new(), Trees::new());
  let arenas = analysis::loader::Arenas { sources: &sources, trees: &trees };
  match analysis::analyzer::compile(&request, arenas) {
    Ok(_) => Ok(()),
    Err(error) => {
      let painter = Painter::new(UseColor::Never, Stream::Stderr);
      Err(cli::error::Error::from(error).render(&painter))
    }
  }
}

/// Run `just` with the process's arguments and environment; returns the exit status.
pub fn run() -> i32 {
  let on_thread = platform::stack::spawn_on_large_stack("main", cli::run::main).map(|handle| {
    // The waiting thread blocks every signal, so that signals sent to the
    // process reach the other threads (their handlers, `sigwait`). Only
    // an invalid argument could make this fail.
    let _ = platform::signals::block_all_in_this_thread();
    handle.join().unwrap_or(101)
  });
  on_thread.unwrap_or_else(|_| cli::run::main())
}
