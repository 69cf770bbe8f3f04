//! The minimum supported Rust version is one number: `rust-version` in
//! Cargo.toml. Every locked dependency must build with it, and the README
//! must state it. (Clippy's `incompatible_msrv` lint checks our own use of
//! the standard library against it.)

tests! {
  no_locked_crate_needs_a_newer_rust_than_ours,
  readme_states_the_rust_version,
}

use std::process::Command;

use serde_json::Value;

/// A `rust-version` as comparable numbers: "1.85" and "1.85.0" are equal.
fn version_numbers(version: &str) -> Vec<u64> {
  let mut numbers: Vec<u64> = version
    .split('.')
    .map(|part| part.parse().unwrap_or_else(|_| panic!("bad rust-version `{version}`")))
    .collect();
  numbers.resize(3, 0);
  numbers
}

fn host_triple() -> String {
  let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
  let output = Command::new(&rustc).arg("-vV").output().expect("run rustc -vV");
  let text = String::from_utf8(output.stdout).expect("rustc -vV prints UTF-8");
  text
    .lines()
    .find_map(|line| line.strip_prefix("host: "))
    .expect("rustc -vV names the host")
    .to_owned()
}

/// `cargo metadata` of the locked dependency graph as built on this host
/// (other platforms' crates are not downloaded here).
fn locked_metadata() -> Value {
  let cargo = std::env::var("CARGO").unwrap_or_else(|_| env!("CARGO").to_owned());
  let output = Command::new(cargo)
    .args(["metadata", "--format-version", "1", "--locked", "--offline", "--filter-platform"])
    .arg(host_triple())
    .current_dir(env!("CARGO_MANIFEST_DIR"))
    .output()
    .expect("run cargo metadata");
  assert!(
    output.status.success(),
    "cargo metadata failed:\n{}",
    String::from_utf8_lossy(&output.stderr)
  );
  serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

fn our_rust_version() -> &'static str {
  env!("CARGO_PKG_RUST_VERSION")
}

fn no_locked_crate_needs_a_newer_rust_than_ours() {
  let ours = version_numbers(our_rust_version());
  let metadata = locked_metadata();
  let packages = metadata["packages"].as_array().expect("packages is a list");
  let too_new: Vec<String> = packages
    .iter()
    .filter_map(|package| {
      let needed = package["rust_version"].as_str()?;
      (version_numbers(needed) > ours).then(|| {
        let name = package["name"].as_str().unwrap_or("?");
        let version = package["version"].as_str().unwrap_or("?");
        format!("{name} {version} needs Rust {needed}")
      })
    })
    .collect();
  assert!(
    too_new.is_empty(),
    "rust-version is {}, but: {}\n(pick older versions; `resolver = \"3\"` makes `cargo update` do so)",
    our_rust_version(),
    too_new.join("; ")
  );
}

fn readme_states_the_rust_version() {
  let readme = include_str!("../../README.md");
  let statement = format!("Rust {} or later", our_rust_version());
  assert!(readme.contains(&statement), "README.md should say `{statement}`");
}
