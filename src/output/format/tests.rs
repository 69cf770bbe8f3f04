//! End-to-end formatting tests: source → lex → parse → canonical text.
//! Expected outputs were produced by the reference binary's `--fmt`.

use super::{format_justfile, indentation_setting, write_justfile};
use crate::output::sink::produced_whole_and_bytewise;
use crate::syntax::sources::Source;
use crate::syntax::trees::Trees;
use crate::syntax::{lexer, parser};

/// The canonical text of `src`, which is the same written out after every
/// item.
fn format(src: &str) -> String {
  let source = Source::new(src, "justfile");
  let trees = Trees::new();
  let tokens = lexer::lex(&source).expect("lexes");
  let ast = parser::parse(&tokens, &trees).expect("parses");
  let indentation = indentation_setting(&ast).unwrap_or_else(|| "    ".into());
  let formatted = format_justfile(&ast, &indentation);
  let (written, ()) = produced_whole_and_bytewise(|out| write_justfile(out, &ast, &indentation));
  assert_eq!(written, formatted);
  formatted
}

#[test]
fn formats_like_the_reference_and_is_idempotent() {
  #[rustfmt::skip]
  let cases = [
    // case 01
    ("export   PATH_X:=\"bin\"\nalias   t   :=   test\nset   export:=true\nset shell:=[\"bash\",\"-uc\",]\n\n\n\ntest:\n", "export PATH_X := \"bin\"\nalias t := test\nset export\nset shell := [\"bash\", \"-uc\"]\n\ntest:\n"),
    // case 02
    ("\n\n\n# header\n\n\n\nx := \"1\"\n\n\n", "\n\n# header\n\nx := \"1\"\n"),
    // case 03
    ("#!/usr/bin/env -S just --justfile\n#   Build it\nbuild:\n\n#not a doc\n\n#!also\nrun:\nx := \"1\"    #   trailing\n", "#!/usr/bin/env -S just --justfile\n# Build it\nbuild:\n\n#not a doc\n\n# !also\nrun:\nx := \"1\" #   trailing\n"),
    // case 04
    ("@deploy   env  $token = \"t\"   +rest=x:(check  env)dep  &&  (notify  \"done\")  clean\n", "@deploy env $token=\"t\" +rest=x: (check env) dep && (notify \"done\") clean\n"),
    // case 05
    ("build: # header comment\n\tcargo build \\\n\t    --release\n\n\n\techo {{x}}  {{  y  }} {{{{ braces\n\n\n\ntest:\n", "build:\n    cargo build \\\n        --release\n\n\n    echo {{ x }}  {{ y }} {{{{ braces\n\ntest:\n"),
    // case 06
    ("[linux, private]\n[group: \"ops\"]\n[confirm( \"Really?\" )]\n[env(\"B\",\"2\"), env(\"A\",\"1\")]\nclean:\n", "[confirm(\"Really?\")]\n[env(\"A\", \"1\")]\n[env(\"B\", \"2\")]\n[group(\"ops\")]\n[linux]\n[private]\nclean:\n"),
    // case 07
    ("a := if os()==\"linux\"{\"l\"}else{if os()==\"macos\"{\"m\"}else{\"w\"}}\nb := ( \"x\" +\n  \"y\" ) / \"z\"\nc := join( \"a\",\n \"b\", )\n", "a := if os() == \"linux\" { \"l\" } else if os() == \"macos\" { \"m\" } else { \"w\" }\nb := (\"x\" + \"y\") / \"z\"\nc := join(\"a\", \"b\")\n"),
    // case 08
    ("s1 := 'raw\\n'\ns2 := \"esc\\t\"\ns3 := x'~/bin'\ns4 := f'v{{s1}}-{{  s2+s3  }}'\ns5 := `echo   hi`\n", "s1 := 'raw\\n'\ns2 := \"esc\\t\"\ns3 := x'~/bin'\ns4 := f'v{{ s1 }}-{{ s2 + s3 }}'\ns5 := `echo   hi`\n"),
    // case 09
    ("import?   \"local.just\"\nmod?   db   \"db/justfile\"\n#   Docs for ci\n[group(\"ci\")]\nmod ci\nadd( a , b , ) := a+b\n", "import? \"local.just\"\nmod? db \"db/justfile\"\n# Docs for ci\n[group(\"ci\")]\nmod ci\nadd(a, b) := a + b\n"),
    // case 10
    ("py:\n  #!/usr/bin/env python3\n  for i in range(3):\n      print({{n}})\n", "py:\n    #!/usr/bin/env python3\n    for i in range(3):\n        print({{ n }})\n"),
    // case 11
    ("set indentation := \"  \"\nfoo:\n\techo one\n\t  echo two\n", "set indentation := \"  \"\nfoo:\n  echo one\n    echo two\n"),
    // case 12
    ("[arg(\"c\", min=\"1\", max = \"\"\"3\"\"\", help = \"h\")]\nfoo +c:\n[arg(\"v\", long=\"v\", multiple, value=\"x\")]\nbar v:\n", "[arg(\"c\", min='1', max='3', help=\"h\")]\nfoo +c:\n[arg(\"v\", long=\"v\", value=\"x\", multiple)]\nbar v:\n"),
    // case 13
    ("# tasks\nset quiet := true\n\n\n\nbuild:\n  cargo build\ntest: build\n  cargo test\n", "# tasks\nset quiet\n\nbuild:\n    cargo build\ntest: build\n    cargo test\n"),
    // case 20
    ("\u{feff}x := \"a\r\nb\"\r\n\r\n\r\nfoo:\r\n  echo hi  \r\n\r\n# c\r\n", "x := \"a\r\nb\"\n\nfoo:\n    echo hi  \n\n# c\n"),
    // case 21
    ("set unstable\nset lists\nset dotenv-path := ['a', \"b\"]\nset   quiet\nset dotenv-load:=false\nset tempdir := \"/tmp\" + \"x\"\nset script-interpreter := ['python3' , '-u']\nset minimum-version := '1.0.0'\nunexport   FOO\neager   y := '''\n  a\n  b\n'''\n[private]\n_z := \"\"\"x\"\"\"\nmod   m   x'~/m.just'   # trailing\nalias c := m::sub::r\nfoo: # bar\n[private] # x\nbar: ( foo ) (foo \"a\" 'b')\nl := [ \"a\", \"b\", ] ++ [\"c\"]\nn := !!\"a\" && \"b\" || \"\"\np := / \"a\" / \"b\"\nq := if \"a\" == \"b\" { \"x\" }\nr := if \"a\" =~ \"b\" { \"x\" } else { (if \"a\" != \"b\" { \"y\" } else { \"z\" }) }\ns := assert( \"a\" !~ \"b\" , \"msg\" )\nt := f'''x {{ a }}\n  y {{b}}'''\nu := f\"{{a}}{{b}}\"\nv := (((\"x\")))\nw := f''\n", "set unstable\nset lists\nset dotenv-path := ['a', \"b\"]\nset quiet\nset dotenv-load := false\nset tempdir := \"/tmp\" + \"x\"\nset script-interpreter := ['python3', '-u']\nset minimum-version := '1.0.0'\nunexport FOO\neager y := '''\n  a\n  b\n'''\n[private]\n_z := \"\"\"x\"\"\"\nmod m x'~/m.just' # trailing\nalias c := m::sub::r\nfoo: # bar\n[private]\nbar: foo (foo \"a\" 'b')\nl := [\"a\", \"b\"] ++ [\"c\"]\nn := !!\"a\" && \"b\" || \"\"\np := / \"a\" / \"b\"\nq := if \"a\" == \"b\" { \"x\" }\nr := if \"a\" =~ \"b\" { \"x\" } else { (if \"a\" != \"b\" { \"y\" } else { \"z\" }) }\ns := assert(\"a\" !~ \"b\", \"msg\")\nt := f'''x {{ a }}\n  y {{ b }}'''\nu := f\"{{ a }}{{ b }}\"\nv := (((\"x\")))\nw := f''\n"),
    // case 22
    ("[script('python3', \"-u\")]\n[continue(\"SIGQUIT\", 'SIGHUP', \"SIGQUIT\")]\n[cache(outputs = \"o\", inputs=\"i\")]\n[metadata(\"b\"), metadata(\"a\", \"z\")]\n[doc]\n[timestamp]\n[exit-message]\n[working-directory( 'x' )]\n[extension('.py')]\nfoo $c=x'~' d=f\"{{ x }}\" e=[\"l\"] f=uppercase(x) *args=(\"a\" + \"b\"):\n  print(1)\n\n  print(2)\n\n\n# comment after\n[parallel]\nbar: *(foo *x \"b\")\n  @echo {{ if x == \"y\" { \"a\" } else { \"b\" } }}\n  -echo {{{{ x }}\n  # not a comment\n", "[cache(inputs=\"i\", outputs=\"o\")]\n[continue(\"SIGHUP\", \"SIGQUIT\")]\n[doc]\n[exit-message]\n[extension('.py')]\n[metadata(\"a\", \"z\")]\n[metadata(\"b\")]\n[script('python3', \"-u\")]\n[timestamp]\n[working-directory('x')]\nfoo $c=x'~' d=f\"{{ x }}\" e=[\"l\"] f=uppercase(x) *args=(\"a\" + \"b\"):\n    print(1)\n\n    print(2)\n\n# comment after\n[parallel]\nbar: *(foo *x \"b\")\n    @echo {{ if x == \"y\" { \"a\" } else { \"b\" } }}\n    -echo {{{{ x }}\n    # not a comment\n"),
    // case 23
    ("# one\n# two\n[private]\nfoo:\n#\nbar:\n\n# doc with [doc]\n[doc(\"x\")]\nbaz:\n\n#   doc   for mod\nmod a\n# assignment comment\nx := \"1\"\n", "# one\n# two\n[private]\nfoo:\n#\nbar:\n\n# doc with [doc]\n[doc(\"x\")]\nbaz:\n\n# doc   for mod\nmod a\n# assignment comment\nx := \"1\"\n"),
    // case 24
    ("\n\nfoo:\n\n", "\n\nfoo:\n"),
    // case 25
    ("\n", "\n"),
    // case 26
    ("", ""),
    // case 27
    ("x := \"1\"", "x := \"1\"\n"),
    // case 28
    ("foo:\n    echo a\n        echo b \\\n    \tcontinued\n", "foo:\n    echo a\n        echo b \\\n    \tcontinued\n"),
    // case 29
    ("#!/bin/foo\nx:=\"a\"\n", "#!/bin/foo\nx := \"a\"\n"),  ];
  for (source, expected) in cases {
    let formatted = format(source);
    assert_eq!(formatted, expected, "formatting {source:?}");
    assert_eq!(format(&formatted), expected, "reformatting {expected:?}");
  }
}
