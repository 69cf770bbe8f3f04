//! `just-cache-store URL SECONDS`: the helper `just` starts for a
//! `--cache-url` store, answering its requests on standard input and output.

fn main() {
  std::process::exit(just::serve_cache_store());
}
