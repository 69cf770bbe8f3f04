//! `--graph` output rendered by the real Graphviz `dot` (`.ci/run` installs
//! it when missing).

tests! {
  ;
  extensions:
  graph_dot_output_renders_with_graphviz_without_warnings,
}

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::Test;

/// Every shape the graph has: diamond, subsequents, `[parallel]`, arguments
/// with quotes and backslashes, a dependency into a module, names with `-`
/// and `::`, and aliases of recipes at the root and in a module.
const JUSTFILE: &str = r#"
mod sub-mod

alias t := top

[parallel]
top: left right && (sub-mod::leaf-x "a\"b" 'c\d' `echo 1`) after

left: bottom
right: bottom (with-args "x" 'y')
bottom:
with-args first second="2":
after: bottom
"#;

const MODULE: &str = "leaf-x *words:\nalias lx := leaf-x\n";

/// Runs `dot -Tsvg` on `source`; returns its status, stdout and stderr.
fn render_with_dot(source: &str) -> (bool, String, String) {
  let mut child = Command::new("dot")
    .arg("-Tsvg")
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap_or_else(|error| panic!("cannot run Graphviz `dot` (install graphviz): {error}"));
  child.stdin.take().expect("piped stdin").write_all(source.as_bytes()).expect("write to dot");
  let output = child.wait_with_output().expect("wait for dot");
  (
    output.status.success(),
    String::from_utf8_lossy(&output.stdout).into_owned(),
    String::from_utf8_lossy(&output.stderr).into_owned(),
  )
}

fn graph_dot_output_renders_with_graphviz_without_warnings() {
  for args in [&["--graph", "--all"][..], &["--graph"], &["--graph", "t", "sub-mod::leaf-x"]] {
    let output = Test::new()
      .justfile(JUSTFILE)
      .write("sub-mod/justfile", MODULE)
      .args(args)
      .any_stdout()
      .run();
    let (success, svg, warnings) = render_with_dot(&output.stdout);
    assert!(success, "dot failed on {args:?}:\n{}\n{warnings}", output.stdout);
    assert_eq!(warnings, "", "dot warned on {args:?}:\n{}", output.stdout);
    assert!(svg.contains("<svg"), "no SVG from dot for {args:?}: {svg}");
    for node in ["top", "bottom", "sub&#45;mod::leaf&#45;x"] {
      assert!(svg.contains(node), "node {node} missing from the rendering of {args:?}:\n{svg}");
    }
  }
}
