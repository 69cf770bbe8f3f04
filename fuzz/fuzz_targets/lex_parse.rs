//! Lex, parse and format arbitrary UTF-8: nothing may panic, lexemes must
//! rebuild the source, and formatted output must parse and format the same
//! again (except where a `\r` kept in text becomes part of a line end, as in
//! the reference).
//!
//! Run (nightly): `cd fuzz && cargo +nightly fuzz run lex_parse -- -max_total_time=60`

#![no_main]

use just::{format_justfile, indentation_setting, lex, parse, Source, Trees};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
  let Ok(src) = std::str::from_utf8(data) else { return };
  let source = Source::new(src, "justfile");
  let trees = Trees::new();
  let Ok(tokens) = lex(&source) else { return };
  let rebuilt: String = tokens.iter().map(|token| token.lexeme()).collect();
  assert_eq!(rebuilt, src, "lexemes do not rebuild the source");
  let Ok(ast) = parse(&tokens, &trees) else { return };
  let indentation = indentation_setting(&ast).unwrap_or_else(|| "    ".into());
  let once = format_justfile(&ast, &indentation);
  let once_source = Source::new(once.clone(), "justfile");
  let once_trees = Trees::new();
  // A lone `\r` kept after a body line's new indentation can end a line
  // for the lexer, so that the output no longer lexes or parses, as with
  // the reference.
  let reparsed = lex(&once_source).and_then(|tokens| parse(&tokens, &once_trees));
  let ast = match reparsed {
    Ok(ast) => ast,
    Err(_) if once.contains('\r') => return,
    Err(error) => panic!("formatted output does not parse ({error}):\n{once}"),
  };
  let twice = format_justfile(&ast, &indentation);
  if !once.contains('\r') {
    assert_eq!(once, twice, "formatting is not idempotent");
  }
});
