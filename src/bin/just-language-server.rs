//! `just-language-server`: the language server `just --lsp` starts,
//! speaking LSP on standard input and output (see `src/lsp/`). With
//! `--version` it names itself (`just::LSP_IDENTITY`), the answer `just
//! --lsp` checks before it serves anything.

fn main() {
  if std::env::args_os().nth(1).is_some_and(|argument| argument == "--version") {
    println!("{}", just::LSP_IDENTITY);
    return;
  }
  std::process::exit(just::serve_lsp());
}
