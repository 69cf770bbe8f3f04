use super::*;

#[test]
fn lexical_error_after_a_parse_error_wins() {
  let source = sources::Source::new("x :=\n\nfoo:\n  echo\n%\n", "justfile");
  let trees = Trees::new();
  let error = parse_source(&source, &trees).unwrap_err();
  assert_eq!(error.to_string(), "unknown start of token '%'");
  assert_eq!((error.token.line, error.token.column()), (4, 0));
}

/// Parsing `src` from the lexer and from its lexed tokens gives the same tree
/// (each in an arena of its own: a run numbers its slots across its trees).
fn assert_streaming_and_slice_parsing_agree(src: String) {
  let source = sources::Source::new(src, "justfile");
  let (sliced, streaming) = (Trees::new(), Trees::new());
  let tokens = crate::syntax::lexer::lex(&source).unwrap();
  let from_slice = format!("{:?}", parse(&tokens, &sliced).unwrap());
  let streamed = format!("{:?}", parse_source(&source, &streaming).unwrap());
  assert_eq!(from_slice, streamed);
}

#[test]
fn streaming_and_slice_parsing_agree() {
  let src = "# doc\n[private]\na x='1' *y: (b x) && c\n  echo {{x}}\n\nb z:\nc:\n";
  assert_streaming_and_slice_parsing_agree(src.into());
}

/// Items whose dispatch looks several tokens ahead, repeated so that the
/// lookahead crosses the ends of the token buffer at every offset.
fn long_source() -> String {
  (0..3 * BUFFER)
    .map(|i| match i % 4 {
      0 => format!("alias a{i} := r{i}\n"),
      1 => format!("export v{i} := 'x' + v{i}\n"),
      2 => format!("mod m{i} 'p{i}'\n"),
      _ => format!("r{i} p='d': r{i} (r{i} 'a')\n  echo {{{{p}}}}\n"),
    })
    .collect()
}

#[test]
fn streaming_and_slice_parsing_agree_across_buffer_refills() {
  assert_streaming_and_slice_parsing_agree(long_source());
}

#[test]
fn tokens_without_eof_end_as_if_they_had_one() {
  let src = "a := 'x'\nb:\n  echo {{a}}\n";
  let source = sources::Source::new(src, "justfile");
  let (trees, other) = (Trees::new(), Trees::new());
  let tokens = crate::syntax::lexer::lex(&source).unwrap();
  assert_eq!(tokens.last().map(|token| token.kind), Some(TokenKind::Eof));
  let with_eof = format!("{:?}", parse(&tokens, &trees).unwrap());
  let without_eof = format!("{:?}", parse(&tokens[..tokens.len() - 1], &other).unwrap());
  assert_eq!(with_eof, without_eof);
  let truncated = parse(&tokens[..3], &trees).unwrap_err();
  let last = tokens[2];
  assert_eq!(truncated.token.kind, TokenKind::Eof);
  assert_eq!(truncated.token.offset, last.offset + last.length);
}

#[test]
fn lexical_error_after_buffer_refills_wins() {
  let source = sources::Source::new(format!("{}x :=\n%\n", long_source()), "justfile");
  let trees = Trees::new();
  let error = parse_source(&source, &trees).unwrap_err();
  assert_eq!(error.to_string(), "unknown start of token '%'");
}
