//! Load and analyse arbitrary UTF-8 as a root justfile (imports and modules
//! resolve in a small fixed directory), rendering any error: nothing may panic.
//!
//! Run (nightly): `cd fuzz && cargo +nightly fuzz run analyze -- -max_total_time=60`

#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use just::analyze;
use libfuzzer_sys::fuzz_target;

fn directory() -> &'static PathBuf {
  static DIRECTORY: OnceLock<PathBuf> = OnceLock::new();
  DIRECTORY.get_or_init(|| {
    let dir = std::env::temp_dir().join(format!("just-fuzz-analyze-{}", std::process::id()));
    for (path, contents) in [
      ("other.just", "bar:\n  echo bar\nother := 'o'\n"),
      ("self.just", "import 'self.just'\n"),
      ("sub/mod.just", "baz:\n"),
      ("sub/justfile", "import '../other.just'\n"),
      ("foo.just", "mod foo\n"),
    ] {
      let path = dir.join(path);
      let _ = std::fs::create_dir_all(path.parent().unwrap_or(&dir));
      let _ = std::fs::write(path, contents);
    }
    dir
  })
}

fuzz_target!(|data: &[u8]| {
  let Ok(src) = std::str::from_utf8(data) else { return };
  let dir = directory();
  let justfile = dir.join("justfile");
  for unstable in [false, true] {
    // An error is rendered as `just` prints it: message, excerpt, cause.
    let _ = analyze(&justfile, src.to_owned(), dir, unstable);
  }
});
