//! `just-lsp`: the language server `just --lsp` starts, speaking LSP on
//! standard input and output (see `src/lsp/`).

fn main() {
  std::process::exit(just::serve_lsp());
}
