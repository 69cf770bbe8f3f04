use super::*;
use TokenKind::*;

fn lex_ok(src: &str) -> Vec<Token<'static>> {
  let source: &'static Source = Box::leak(Box::new(Source::new(src, "justfile")));
  match lex(source) {
    Ok(tokens) => tokens,
    Err(error) => panic!("lexing {src:?} failed: {error}"),
  }
}

fn assert_tokens(src: &str, expected: &[(TokenKind, &str)]) {
  let tokens = lex_ok(src);
  let rebuilt: String = tokens.iter().map(Token::lexeme).collect();
  assert_eq!(rebuilt, src, "lexemes do not rebuild {src:?}");
  let actual: Vec<(TokenKind, &str)> = tokens.iter().map(|t| (t.kind, t.lexeme())).collect();
  pretty_assertions::assert_eq!(actual, expected, "tokens of {src:?}");
}

#[test]
fn token_sequences() {
  let cases: &[(&str, &[(TokenKind, &str)])] = &[
    ("", &[(Eof, "")]),
    (
      "x := 'a'\n",
      &[
        (Identifier, "x"),
        (Whitespace, " "),
        (ColonEquals, ":="),
        (Whitespace, " "),
        (StringToken, "'a'"),
        (Eol, "\n"),
        (Eof, ""),
      ],
    ),
    (
      "foo:\n  echo hi\n",
      &[
        (Identifier, "foo"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "  "),
        (Text, "echo hi"),
        (Eol, "\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "a:\n\techo {{x + \"y\"}} z\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "\t"),
        (Text, "echo "),
        (InterpolationStart, "{{"),
        (Identifier, "x"),
        (Whitespace, " "),
        (Plus, "+"),
        (Whitespace, " "),
        (StringToken, "\"y\""),
        (InterpolationEnd, "}}"),
        (Text, " z"),
        (Eol, "\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "a:\n  x\n\n    y\n  \nb:\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "  "),
        (Text, "x"),
        (Eol, "\n"),
        (Eol, "\n"),
        (Whitespace, "  "),
        (Text, "  y"),
        (Eol, "\n"),
        (Dedent, ""),
        (Whitespace, "  "),
        (Eol, "\n"),
        (Identifier, "b"),
        (Colon, ":"),
        (Eol, "\n"),
        (Eof, ""),
      ],
    ),
    (
      "a:\n  {{{{{x}} #}}\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "  "),
        (Text, "{{{{{x}} #}}"),
        (Eol, "\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "a:\n  {{{{{{x}}\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "  "),
        (Text, "{{{{"),
        (InterpolationStart, "{{"),
        (Identifier, "x"),
        (InterpolationEnd, "}}"),
        (Eol, "\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "a:\n  {{if a == b { c } else { d }}}\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "  "),
        (InterpolationStart, "{{"),
        (Identifier, "if"),
        (Whitespace, " "),
        (Identifier, "a"),
        (Whitespace, " "),
        (EqualsEquals, "=="),
        (Whitespace, " "),
        (Identifier, "b"),
        (Whitespace, " "),
        (BraceL, "{"),
        (Whitespace, " "),
        (Identifier, "c"),
        (Whitespace, " "),
        (BraceR, "}"),
        (Whitespace, " "),
        (Identifier, "else"),
        (Whitespace, " "),
        (BraceL, "{"),
        (Whitespace, " "),
        (Identifier, "d"),
        (Whitespace, " "),
        (BraceR, "}"),
        (InterpolationEnd, "}}"),
        (Eol, "\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "a:\n  {{ x +\n  y }}\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "  "),
        (InterpolationStart, "{{"),
        (Whitespace, " "),
        (Identifier, "x"),
        (Whitespace, " "),
        (Plus, "+"),
        (Whitespace, "\n"),
        (Whitespace, "  "),
        (Identifier, "y"),
        (Whitespace, " "),
        (InterpolationEnd, "}}"),
        (Eol, "\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "a: \\\n    b\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Whitespace, " "),
        (Whitespace, "\\\n    "),
        (Identifier, "b"),
        (Eol, "\n"),
        (Eof, ""),
      ],
    ),
    (
      "x := (\n  a\r\n)\n",
      &[
        (Identifier, "x"),
        (Whitespace, " "),
        (ColonEquals, ":="),
        (Whitespace, " "),
        (ParenL, "("),
        (Whitespace, "\n"),
        (Whitespace, "  "),
        (Identifier, "a"),
        (Whitespace, "\r\n"),
        (ParenR, ")"),
        (Eol, "\n"),
        (Eof, ""),
      ],
    ),
    (
      "x := a # c\r\ny\r\n# a\rb\n",
      &[
        (Identifier, "x"),
        (Whitespace, " "),
        (ColonEquals, ":="),
        (Whitespace, " "),
        (Identifier, "a"),
        (Whitespace, " "),
        (Comment, "# c"),
        (Eol, "\r\n"),
        (Identifier, "y"),
        (Eol, "\r\n"),
        (Comment, "# a\rb"),
        (Eol, "\n"),
        (Eof, ""),
      ],
    ),
    (
      "a:\r\n  x\ry\r\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\r\n"),
        (Indent, "  "),
        (Text, "x\ry"),
        (Eol, "\r\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "'a' \"b\\\"c\" '''d'''\"\"\"e\"\"\"`f````g```''''''''x",
      &[
        (StringToken, "'a'"),
        (Whitespace, " "),
        (StringToken, "\"b\\\"c\""),
        (Whitespace, " "),
        (StringToken, "'''d'''"),
        (StringToken, "\"\"\"e\"\"\""),
        (Backtick, "`f`"),
        (Backtick, "```g```"),
        (StringToken, "''''''"),
        (StringToken, "''"),
        (Identifier, "x"),
        (Eof, ""),
      ],
    ),
    (
      "\"\"\"a\\\"\"\"b\"\"\" \"\\\\\" '\n'",
      &[
        (StringToken, "\"\"\"a\\\"\"\"b\"\"\""),
        (Whitespace, " "),
        (StringToken, "\"\\\\\""),
        (Whitespace, " "),
        (StringToken, "'\n'"),
        (Eof, ""),
      ],
    ),
    (
      "x'a' f`b` _a-b9--",
      &[
        (Identifier, "x"),
        (StringToken, "'a'"),
        (Whitespace, " "),
        (Identifier, "f"),
        (Backtick, "`b`"),
        (Whitespace, " "),
        (Identifier, "_a-b9--"),
        (Eof, ""),
      ],
    ),
    (
      "f'a{{b}}c{{d}}e' f'abc' f'{{{{' f\"\\{{{{\"",
      &[
        (Identifier, "f"),
        (FormatStringStart, "'a{{"),
        (Identifier, "b"),
        (FormatStringContinue, "}}c{{"),
        (Identifier, "d"),
        (FormatStringEnd, "}}e'"),
        (Whitespace, " "),
        (Identifier, "f"),
        (StringToken, "'abc'"),
        (Whitespace, " "),
        (Identifier, "f"),
        (StringToken, "'{{{{'"),
        (Whitespace, " "),
        (Identifier, "f"),
        (StringToken, "\"\\{{{{\""),
        (Eof, ""),
      ],
    ),
    (
      "f\"\\{{{ x }}\" f\"\\{{ x }}\" f\"a\\\"{{x}}\"",
      &[
        (Identifier, "f"),
        (FormatStringStart, "\"\\{{{"),
        (Whitespace, " "),
        (Identifier, "x"),
        (Whitespace, " "),
        (FormatStringEnd, "}}\""),
        (Whitespace, " "),
        (Identifier, "f"),
        (StringToken, "\"\\{{ x }}\""),
        (Whitespace, " "),
        (Identifier, "f"),
        (FormatStringStart, "\"a\\\"{{"),
        (Identifier, "x"),
        (FormatStringEnd, "}}\""),
        (Eof, ""),
      ],
    ),
    (
      "f'a{{ f'[{{x}}]' }}b' f'''{{ {} }}\n'''",
      &[
        (Identifier, "f"),
        (FormatStringStart, "'a{{"),
        (Whitespace, " "),
        (Identifier, "f"),
        (FormatStringStart, "'[{{"),
        (Identifier, "x"),
        (FormatStringEnd, "}}]'"),
        (Whitespace, " "),
        (FormatStringEnd, "}}b'"),
        (Whitespace, " "),
        (Identifier, "f"),
        (FormatStringStart, "'''{{"),
        (Whitespace, " "),
        (BraceL, "{"),
        (BraceR, "}"),
        (Whitespace, " "),
        (FormatStringEnd, "}}\n'''"),
        (Eof, ""),
      ],
    ),
    (
      "x := f'{{\n  a\n}}'\n",
      &[
        (Identifier, "x"),
        (Whitespace, " "),
        (ColonEquals, ":="),
        (Whitespace, " "),
        (Identifier, "f"),
        (FormatStringStart, "'{{"),
        (Whitespace, "\n"),
        (Whitespace, "  "),
        (Identifier, "a"),
        (Whitespace, "\n"),
        (FormatStringEnd, "}}'"),
        (Eol, "\n"),
        (Eof, ""),
      ],
    ),
    (
      "\u{feff}x\n\u{feff}",
      &[
        (ByteOrderMark, "\u{feff}"),
        (Identifier, "x"),
        (Eol, "\n"),
        (ByteOrderMark, "\u{feff}"),
        (Eof, ""),
      ],
    ),
    (
      "a:\n  b\nc\n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "  "),
        (Text, "b"),
        (Eol, "\n"),
        (Dedent, ""),
        (Identifier, "c"),
        (Eol, "\n"),
        (Eof, ""),
      ],
    ),
    (
      "foo:\n\n    echo %\n",
      &[
        (Identifier, "foo"),
        (Colon, ":"),
        (Eol, "\n"),
        (Eol, "\n"),
        (Indent, "    "),
        (Text, "echo %"),
        (Eol, "\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "x := a\n  b\n    c:\n      d\n  e",
      &[
        (Identifier, "x"),
        (Whitespace, " "),
        (ColonEquals, ":="),
        (Whitespace, " "),
        (Identifier, "a"),
        (Eol, "\n"),
        (Indent, "  "),
        (Identifier, "b"),
        (Eol, "\n"),
        (Indent, "    "),
        (Identifier, "c"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "      "),
        (Text, "d"),
        (Eol, "\n"),
        (Dedent, ""),
        (Dedent, ""),
        (Whitespace, "  "),
        (Identifier, "e"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
    (
      "a:\n  x\n   \n",
      &[
        (Identifier, "a"),
        (Colon, ":"),
        (Eol, "\n"),
        (Indent, "  "),
        (Text, "x"),
        (Eol, "\n"),
        (Whitespace, "   "),
        (Eol, "\n"),
        (Dedent, ""),
        (Eof, ""),
      ],
    ),
  ];
  for (src, expected) in cases {
    assert_tokens(src, expected);
  }
}

#[test]
fn operators_longest_match() {
  let tokens = lex_ok("!=!~!==~=:=:::&&||+++$*,/?@()[]{}");
  let kinds: Vec<TokenKind> = tokens.iter().map(|t| t.kind).collect();
  assert_eq!(
    kinds,
    [
      BangEquals,
      BangTilde,
      BangEquals,
      EqualsTilde,
      Equals,
      ColonEquals,
      ColonColon,
      Colon,
      AmpersandAmpersand,
      BarBar,
      PlusPlus,
      Plus,
      Dollar,
      Asterisk,
      Comma,
      Slash,
      QuestionMark,
      At,
      ParenL,
      ParenR,
      BracketL,
      BracketR,
      BraceL,
      BraceR,
      Eof
    ]
  );
}

#[test]
fn positions() {
  // (source, index of token, kind, line, column)
  let cases: &[(&str, usize, TokenKind, usize, usize)] = &[
    ("[private]\n", 4, Eof, 0, 10),
    ("a\n\n", 3, Eof, 1, 1),
    ("a\nbc", 3, Eof, 1, 2),
    ("\u{feff}x := y", 5, Identifier, 0, 8),
    ("x := 'a\nb' c", 6, Identifier, 1, 3),
    ("a:\n  b\n", 3, Indent, 1, 0),
    ("a:\n  b\n", 6, Dedent, 1, 4),
    ("'é' x", 2, Identifier, 0, 5),
  ];
  for &(src, index, kind, line, column) in cases {
    let source = Source::new(src, "justfile");
    let tokens = match lex(&source) {
      Ok(tokens) => tokens,
      Err(error) => panic!("lexing {src:?} failed: {error}"),
    };
    let token = tokens[index];
    assert_eq!((token.kind, token.line as usize, token.column()), (kind, line, column), "{src:?}");
  }
}

#[test]
fn errors() {
  // (source, message, line, column, caret length in bytes)
  let cases: &[(&str, &str, usize, usize, usize)] = &[
    ("x := a & b", "expected character `&`", 0, 8, 1),
    ("x := a &", "expected character `&` but found end-of-file", 0, 8, 0),
    ("x := a &\n", "expected character `&`", 0, 8, 1),
    ("x := a |é", "expected character `|`", 0, 8, 2),
    ("x := a |", "expected character `|` but found end-of-file", 0, 8, 0),
    ("x := a \\", "expected escape sequence but found end-of-file", 0, 7, 1),
    ("x := a \\ b", "`\\ ` is not a valid escape sequence", 0, 7, 1),
    ("x := a \\é", "`\\\\u{e9}` is not a valid escape sequence", 0, 7, 1),
    ("foo: \\\\", "`\\\\` is not a valid escape sequence", 0, 5, 1),
    ("foo: \\`", "`\\\\`` is not a valid escape sequence", 0, 5, 1),
    ("foo: \\\t", "`\\\\t` is not a valid escape sequence", 0, 5, 1),
    ("x := a \r b", "unpaired carriage return", 0, 7, 1),
    ("x := a \\\r b", "unpaired carriage return", 0, 7, 1),
    ("x := é", "unknown start of token 'é' (U+00E9)", 0, 5, 2),
    ("x := 日", "unknown start of token '日' (U+65E5)", 0, 5, 3),
    ("x := %", "unknown start of token '%'", 0, 5, 1),
    ("x := 1", "unknown start of token '1'", 0, 5, 1),
    ("x := \u{1}", "unknown start of token '\u{1}' (U+0001)", 0, 5, 1),
    ("a\n\n  x := ~", "unknown start of token '~'", 2, 7, 1),
    ("x := ]", "unexpected closing delimiter `]`", 0, 5, 1),
    ("x := }}", "unexpected closing delimiter `}`", 0, 5, 1),
    ("x := (]", "mismatched closing delimiter `]`, did you mean to close the `(` on line 1?", 0, 6, 1),
    ("x := (\n\n[ }", "mismatched closing delimiter `}`, did you mean to close the `[` on line 3?", 2, 2, 1),
    ("x := f'abc", "unterminated string", 0, 6, 1),
    ("x := f\"\"\"abc", "unterminated string", 0, 6, 3),
    ("x := f'{{ 'a' }}", "unterminated string", 0, 14, 2),
    ("x := f'''{{ 'a' }}", "unterminated string", 0, 16, 2),
    ("x := '''abc", "unterminated string", 0, 5, 3),
    ("x := 'abc\n", "unterminated string", 0, 5, 1),
    ("x := \"abc\\\"", "unterminated string", 0, 5, 1),
    ("x := \"\"\"abc", "unterminated string", 0, 5, 3),
    ("x := `abc", "unterminated backtick", 0, 5, 1),
    ("x := ```abc``", "unterminated backtick", 0, 5, 3),
    ("foo:\n  echo {{ a", "unterminated interpolation", 1, 7, 2),
    ("foo:\n  echo {{ a\n", "unterminated interpolation", 1, 7, 2),
    ("foo:\n  echo {{ (a", "unterminated interpolation", 1, 7, 2),
    ("foo:\n  echo {{ a ) }}", "unexpected closing delimiter `)`", 1, 12, 1),
    ("foo:\n  echo {{ a } }}", "unexpected closing delimiter `}`", 1, 12, 1),
    ("x := f\"{{ a ) }}\"", "mismatched closing delimiter `)`, did you mean to close the `{{` on line 1?", 0, 12, 1),
    ("x := f\"{{{  }}\"", "mismatched closing delimiter `}`, did you mean to close the `{{` on line 1?", 0, 13, 1),
    ("x := f'\n\n{{ d ) }}'", "mismatched closing delimiter `)`, did you mean to close the `{{` on line 3?", 2, 5, 1),
    (
      "x := f'a{{ b }}c\n\n{{ d ) }}'",
      "mismatched closing delimiter `)`, did you mean to close the `{{` on line 1?",
      2,
      5,
      1,
    ),
    (
      "foo:\n\t echo hi\n",
      "found a mix of tabs and spaces in leading whitespace: `␉␠`\nleading whitespace may consist of tabs or spaces, but not both",
      1,
      0,
      2,
    ),
    (
      "foo:\n    echo\n\t  echo\n",
      "found a mix of tabs and spaces in leading whitespace: `␉␠␠`\nleading whitespace may consist of tabs or spaces, but not both",
      2,
      0,
      3,
    ),
    (
      "foo:\n    echo\n  \t  echo\n",
      "found a mix of tabs and spaces in leading whitespace: `␠␠␉␠`\nleading whitespace may consist of tabs or spaces, but not both",
      2,
      0,
      4,
    ),
    (
      "foo:\n\t\techo\n\t echo\n",
      "found a mix of tabs and spaces in leading whitespace: `␉␠`\nleading whitespace may consist of tabs or spaces, but not both",
      2,
      0,
      2,
    ),
    (
      "x := a\n \t b\n",
      "found a mix of tabs and spaces in leading whitespace: `␠␉␠`\nleading whitespace may consist of tabs or spaces, but not both",
      1,
      0,
      3,
    ),
    (
      "foo:\n    echo\n\t\t\t\t\techo\n",
      "recipe line has inconsistent leading whitespace, started with `␠␠␠␠` but found line with `␉␉␉␉␉`",
      2,
      0,
      5,
    ),
    (
      "foo:\n    echo\n  echo\n",
      "recipe line has inconsistent leading whitespace, started with `␠␠␠␠` but found line with `␠␠`",
      2,
      0,
      2,
    ),
    (
      "a := b\n    c\n  d\n",
      "recipe line has inconsistent leading whitespace, started with `␠␠␠␠` but found line with `␠␠`",
      2,
      0,
      2,
    ),
    (
      "a := b\n  c\n\td\n",
      "recipe line has inconsistent leading whitespace, started with `␠␠` but found line with `␉`",
      2,
      0,
      1,
    ),
  ];
  for &(src, message, line, column, length) in cases {
    let source = Source::new(src, "justfile");
    let error = match lex(&source) {
      Ok(tokens) => panic!("lexing {src:?} succeeded: {tokens:?}"),
      Err(error) => error,
    };
    assert_eq!(error.to_string(), message, "message for {src:?}");
    assert_eq!(
      (error.token.line as usize, error.token.column(), error.token.length as usize),
      (line, column, length),
      "caret for {src:?}"
    );
    assert_eq!(error.token.offset as usize, offset_of(src, line, column), "offset for {src:?}");
  }
}

fn offset_of(src: &str, line: usize, column: usize) -> usize {
  let line_start: usize = src.split_inclusive('\n').take(line).map(str::len).sum();
  line_start + column
}

/// Every token of `src` from a `Lexer` (all, or only significant ones),
/// through `Eof` and one more `Eof`, or the first error.
fn pull(src: &str, significant: bool) -> (Vec<Token<'static>>, Option<String>) {
  // Test tokens live for the whole test process.
  let source: &'static Source = Box::leak(Box::new(Source::new(src, "justfile")));
  let mut lexer = if significant { Lexer::significant(source) } else { Lexer::new(source) };
  let mut tokens = Vec::new();
  loop {
    match lexer.next_token() {
      Ok(token) if token.kind == Eof && tokens.last().is_some_and(|t: &Token| t.kind == Eof) => {
        tokens.push(token);
        return (tokens, None);
      }
      Ok(token) => tokens.push(token),
      Err(error) => return (tokens, Some(error.to_string())),
    }
  }
}

#[test]
fn tokens_span_batches() {
  let src = "x := 'a' + \"b\" # c\nfoo arg='d':\n  echo {{arg}} {{{{ e\n\n".repeat(200);
  let (all, error) = pull(&src, false);
  assert_eq!(error, None);
  let rebuilt: String = all.iter().map(Token::lexeme).collect();
  assert_eq!(rebuilt, src);
  assert_eq!(all.len(), 200 * 28 + 2);
  let (significant, error) = pull(&src, true);
  assert_eq!(error, None);
  let expected: Vec<Token> = all.into_iter().filter(|t| t.kind != Whitespace).collect();
  let shape = |t: &Token| (t.kind, t.offset, t.length, t.line, t.column() as u32);
  assert_eq!(
    significant.iter().map(shape).collect::<Vec<_>>(),
    expected.iter().map(shape).collect::<Vec<_>>()
  );
  assert_eq!(expected.last().map(|t| (t.kind, t.line, t.column() as u32)), Some((Eof, 799, 1)));
}

#[test]
fn dedents_beyond_a_batch() {
  let depth = 600;
  let mut src = String::from("a\n");
  for level in 1..=depth {
    src += &" ".repeat(level);
    src += "b\n";
  }
  for significant in [false, true] {
    let (tokens, error) = pull(&src, significant);
    assert_eq!(error, None);
    let dedents: Vec<&Token> = tokens.iter().filter(|t| t.kind == Dedent).collect();
    assert_eq!(dedents.len(), depth);
    assert!(dedents.iter().all(|t| (t.line, t.column() as u32) == (600, 602)));
    let kinds: Vec<TokenKind> = tokens.iter().rev().take(depth + 2).map(|t| t.kind).collect();
    assert_eq!(kinds[..2], [Eof, Eof]);
    assert!(kinds[2..].iter().all(|kind| *kind == Dedent));
  }
  let (tokens, _) = pull(&src, false);
  assert_eq!(tokens.iter().map(Token::lexeme).collect::<String>(), src);
}

#[test]
fn error_after_a_batch_follows_the_tokens_before_it() {
  let src = format!("{}x := %\n", "a := b\n".repeat(300));
  let (tokens, error) = pull(&src, true);
  assert_eq!(error.as_deref(), Some("unknown start of token '%'"));
  assert_eq!(tokens.len(), 300 * 4 + 2);
  assert_eq!(
    tokens.last().map(|t| (t.kind, t.line, t.column() as u32)),
    Some((ColonEquals, 300, 2))
  );
}

/// Every significant token of `src` read through `refill`, keeping the
/// last `keep` unread tokens of each batch, and what `lex_rest` reports.
fn refilled(src: &str, keep: usize) -> (Vec<Token<'static>>, Option<String>) {
  // Test tokens live for the whole test process.
  let source: &'static Source = Box::leak(Box::new(Source::new(src, "justfile")));
  let mut lexer = Lexer::significant(source);
  let mut tokens = Vec::new();
  let mut len = lexer.refill(0);
  loop {
    let read = len.saturating_sub(keep).max(1);
    tokens.extend_from_slice(&lexer.batch()[..read]);
    if tokens.last().is_some_and(|t| t.kind == Eof) {
      return (tokens, lexer.lex_rest().map(|error| error.to_string()));
    }
    len = lexer.refill(read);
  }
}

#[test]
fn refill_reads_every_token_in_place() {
  let src = "x := 'a' + \"b\" # c\nfoo arg='d':\n  echo {{arg}} {{{{ e\n\n".repeat(200);
  let (expected, error) = pull(&src, true);
  assert_eq!(error, None);
  for keep in [0, 1, 4] {
    let (tokens, error) = refilled(&src, keep);
    assert_eq!(error, None);
    // Each call leaks its own source: compare all but the source.
    let shape = |t: &Token| (t.kind, t.offset, t.length, t.line);
    let expected = &expected[..expected.len() - 1];
    assert_eq!(tokens.len(), expected.len(), "keeping {keep}");
    let mismatch = tokens.iter().zip(expected).position(|(a, b)| shape(a) != shape(b));
    assert_eq!(mismatch, None, "keeping {keep}");
  }
}

#[test]
fn refill_ends_at_a_lexical_error_with_an_eof() {
  let src = format!("{}x := %\n", "a := b\n".repeat(300));
  let (tokens, error) = refilled(&src, 3);
  assert_eq!(error.as_deref(), Some("unknown start of token '%'"));
  assert_eq!(tokens.len(), 300 * 4 + 3);
  assert_eq!(tokens[tokens.len() - 2].kind, ColonEquals);
}

#[test]
fn lex_rest_finds_an_error_past_the_tokens_read() {
  let src = format!("{}x := %\n", "a := b\n".repeat(300));
  let source: &'static Source = Box::leak(Box::new(Source::new(src, "justfile")));
  let mut lexer = Lexer::significant(source);
  assert_eq!(lexer.refill(0), BATCH);
  assert_eq!(
    lexer.lex_rest().map(|error| error.to_string()).as_deref(),
    Some("unknown start of token '%'")
  );
}

#[test]
fn identifier_length_stops_at_the_first_byte_no_identifier_continues() {
  for byte in 0..=u8::MAX {
    for at in 1..20 {
      let mut text = vec![b'a'; 24];
      text[at] = byte;
      let expected = if info(byte).continues_identifier { 24 } else { at };
      assert_eq!(identifier_length(&text), expected, "byte {byte:#x} at {at}");
      assert_eq!(identifier_length(&text[..=at]), expected.min(at + 1), "byte {byte:#x} last");
    }
  }
}

#[test]
fn lexemes_rebuild_source() {
  let sources = [
    "set shell := ['bash', '-c']\n\n# doc\n[private]\nbuild target='x' *args: (dep 'a') && post\n  @echo {{target}} {{{{ }}\n  -cc {{ if a =~ 'b' { f'{{c}}' } else { `d` } }}\n\npost:\n\techo\n",
    "x := \"\"\"\n  a\n  \"\"\"\ny := ```\n  ls\n```\n",
    "a:\r\n  echo\r\n\r\nb: a\r\n",
    "mod? foo 'bar.just'\nimport 'x'\nalias b := a::c\n",
  ];
  for src in sources {
    let tokens = lex_ok(src);
    let rebuilt: String = tokens.iter().map(Token::lexeme).collect();
    assert_eq!(rebuilt, src);
    assert_eq!(tokens.last().map(|t| t.kind), Some(Eof));
  }
}

/// A small deterministic generator of justfile-like text.
struct Fragments(u64);

impl Fragments {
  fn below(&mut self, n: usize) -> usize {
    self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    ((self.0 >> 33) as usize) % n
  }

  fn text(&mut self) -> String {
    const PIECES: &[&str] = &[
      "a",
      "foo",
      "x-y_1",
      "f",
      "f'",
      "f\"",
      "'s'",
      "\"d\\\"\"",
      "'''t\n'''",
      "\"\"\"u\n\"\"\"",
      "`c`",
      "```\nb\n```",
      " ",
      "  ",
      "\t",
      "\n",
      "\r\n",
      "\r",
      "\n\n",
      "\n  ",
      "\n\t",
      "\n    ",
      ":",
      ":=",
      "::",
      "=",
      "==",
      "=~",
      "!",
      "!=",
      "!~",
      "+",
      "++",
      "*",
      "/",
      ",",
      "?",
      "@",
      "$",
      "&&",
      "&",
      "||",
      "|",
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      "{{",
      "}}",
      "{{{{",
      "{{ x }}",
      "{{y}}",
      "#",
      "# c\n",
      "\\\n",
      "\\",
      "\u{feff}",
      "é",
      "%",
      "a:\n  echo ",
      "b x='1':\n\techo {{x}}\n",
      "\nc:\n    {{ f(\"{{\") }} z\n\n",
      "set y := true\n",
    ];
    let count = self.below(60);
    (0..count).map(|_| PIECES[self.below(PIECES.len())]).collect()
  }
}

/// The kind, offset, length and line of a token.
fn shape(token: &Token) -> (TokenKind, u32, u32, u32) {
  (token.kind, token.offset, token.length, token.line)
}

#[test]
fn batches_lex_as_the_reference_lexer_does() {
  let mut fragments = Fragments(7);
  for _ in 0..4000 {
    let text = fragments.text();
    let src = text.repeat(1 + fragments.below(3) * 40);
    let source: &'static Source = Box::leak(Box::new(Source::new(&src, "justfile")));
    for significant in [false, true] {
      let new = if significant { Lexer::significant } else { Lexer::new };
      let (expected, error) = new(source).lex_by_reference();
      let expected_error = error.map(|error| (error.to_string(), shape(&error.token)));
      let mut lexer = new(source);
      let mut tokens = Vec::new();
      let error = loop {
        match lexer.next_token() {
          Ok(token) => {
            tokens.push(shape(&token));
            if token.kind == Eof {
              break None;
            }
          }
          Err(error) => break Some((error.to_string(), shape(&error.token))),
        }
      };
      assert_eq!(tokens, expected.iter().map(shape).collect::<Vec<_>>(), "tokens of {src:?}");
      assert_eq!(error, expected_error, "error of {src:?}");
    }
  }
}
