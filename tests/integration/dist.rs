//! Release packaging (`just dist`): the archive layout, its reproducibility,
//! and a clear stop, with nothing written, when a build tool is missing. The
//! release builds themselves are too slow for the suite; the archives are
//! made here from small stand-ins for the binaries (a debug build takes long
//! to compress), with the completion scripts and man page of the binary
//! under test.

tests! {
  ;
  extensions:
  tar_archive_holds_the_binary_completions_man_page_readme_and_license,
  zip_archive_for_windows_holds_the_exe_under_the_same_folder,
  archives_are_byte_identical_when_made_twice,
  dist_names_a_missing_toolchain_and_writes_nothing,
  dist_names_a_missing_package_and_keeps_the_last_output,
}

use std::{
  fs,
  path::{Path, PathBuf},
  process::{Command, Output},
};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const EPOCH: &str = "1700000000";

fn version() -> String {
  env!("CARGO_PKG_VERSION").to_owned()
}

/// Stand-ins for `just`, `just-cache-store` and `just-language-server` (with `suffix`),
/// in `dir`.
fn stand_ins(dir: &Path, suffix: &str) -> PathBuf {
  fs::write(dir.join(format!("just-cache-store{suffix}")), "the helper").unwrap();
  fs::write(dir.join(format!("just-language-server{suffix}")), "the server").unwrap();
  let just = dir.join(format!("just{suffix}"));
  fs::write(&just, "the binary").unwrap();
  just
}

fn archive(target: &str, out: &Path) -> PathBuf {
  let binaries = out.join("binaries");
  fs::create_dir(&binaries).unwrap();
  let suffix = if target.contains("windows") { ".exe" } else { "" };
  let output = Command::new("python3")
    .arg(Path::new(ROOT).join("packaging/archive.py"))
    .arg(target)
    .arg(stand_ins(&binaries, suffix))
    .arg(out)
    .arg("--documents-from")
    .arg(crate::common::binary())
    .env("SOURCE_DATE_EPOCH", EPOCH)
    .output()
    .expect("run python3 packaging/archive.py");
  assert!(
    output.status.success(),
    "archive.py failed: {}",
    String::from_utf8_lossy(&output.stderr)
  );
  PathBuf::from(String::from_utf8(output.stdout).unwrap().trim())
}

/// `mode owner/group date time name` of every entry, as `tar -tv` shows them.
fn tar_listing(archive: &Path) -> Vec<String> {
  let output = Command::new("tar").arg("-tvzf").arg(archive).env("TZ", "UTC").output().unwrap();
  assert!(output.status.success());
  String::from_utf8(output.stdout)
    .unwrap()
    .lines()
    .map(|line| {
      let fields: Vec<&str> = line.split_whitespace().collect();
      format!("{} {} {} {} {}", fields[0], fields[1], fields[3], fields[4], fields[5])
    })
    .collect()
}

fn tar_archive_holds_the_binary_completions_man_page_readme_and_license() {
  let tmp = tempfile::tempdir().unwrap();
  let path = archive("x86_64-unknown-linux-musl", tmp.path());
  let folder = format!("just-{}-x86_64-unknown-linux-musl", version());
  assert_eq!(path, tmp.path().join(format!("{folder}.tar.gz")));
  let stamp = "2023-11-14 22:13";
  let expected: Vec<String> = [
    ("drwxr-xr-x", ""),
    ("-rw-r--r--", "LICENSE"),
    ("-rw-r--r--", "README.md"),
    ("drwxr-xr-x", "completions/"),
    ("-rw-r--r--", "completions/_just"),
    ("-rw-r--r--", "completions/just.bash"),
    ("-rw-r--r--", "completions/just.elvish"),
    ("-rw-r--r--", "completions/just.fish"),
    ("-rw-r--r--", "completions/just.nu"),
    ("-rw-r--r--", "completions/just.ps1"),
    ("-rwxr-xr-x", "just"),
    ("-rwxr-xr-x", "just-cache-store"),
    ("-rwxr-xr-x", "just-language-server"),
    ("drwxr-xr-x", "man/"),
    ("-rw-r--r--", "man/just.1"),
  ]
  .iter()
  .map(|(mode, name)| format!("{mode} root/root {stamp} {folder}/{name}"))
  .collect();
  assert_eq!(tar_listing(&path), expected);

  let unpacked = tmp.path().join("unpacked");
  fs::create_dir(&unpacked).unwrap();
  let status =
    Command::new("tar").arg("-xzf").arg(&path).arg("-C").arg(&unpacked).status().unwrap();
  assert!(status.success());
  let folder = unpacked.join(&folder);
  assert_eq!(fs::read_to_string(folder.join("just")).unwrap(), "the binary");
  assert_eq!(fs::read_to_string(folder.join("just-cache-store")).unwrap(), "the helper");
  assert_eq!(fs::read_to_string(folder.join("just-language-server")).unwrap(), "the server");
  assert_eq!(
    fs::read(folder.join("LICENSE")).unwrap(),
    fs::read(Path::new(ROOT).join("LICENSE")).unwrap()
  );
  let from_binary = |arguments: &[&str]| -> Vec<u8> {
    Command::new(crate::common::binary()).args(arguments).output().unwrap().stdout
  };
  assert_eq!(
    fs::read(folder.join("completions/_just")).unwrap(),
    from_binary(&["--completions", "zsh"])
  );
  assert_eq!(
    fs::read(folder.join("completions/just.ps1")).unwrap(),
    from_binary(&["--completions", "powershell"])
  );
  assert_eq!(fs::read(folder.join("man/just.1")).unwrap(), from_binary(&["--man"]));
}

fn zip_archive_for_windows_holds_the_exe_under_the_same_folder() {
  let tmp = tempfile::tempdir().unwrap();
  let path = archive("x86_64-pc-windows-gnu", tmp.path());
  let folder = format!("just-{}-x86_64-pc-windows-gnu", version());
  assert_eq!(path, tmp.path().join(format!("{folder}.zip")));
  let output = Command::new("python3")
    .args(["-c", "import sys, zipfile\nfor i in zipfile.ZipFile(sys.argv[1]).infolist(): print(oct(i.external_attr >> 16), i.date_time, i.filename)"])
    .arg(&path)
    .output()
    .unwrap();
  let listing = String::from_utf8(output.stdout).unwrap();
  let expected: String = [
    ("0o100644", "LICENSE"),
    ("0o100644", "README.md"),
    ("0o100644", "completions/_just"),
    ("0o100644", "completions/just.bash"),
    ("0o100644", "completions/just.elvish"),
    ("0o100644", "completions/just.fish"),
    ("0o100644", "completions/just.nu"),
    ("0o100644", "completions/just.ps1"),
    ("0o100755", "just-cache-store.exe"),
    ("0o100755", "just-language-server.exe"),
    ("0o100755", "just.exe"),
    ("0o100644", "man/just.1"),
  ]
  .iter()
  .map(|(mode, name)| format!("{mode} (2023, 11, 14, 22, 13, 20) {folder}/{name}\n"))
  .collect();
  assert_eq!(listing, expected);
}

fn archives_are_byte_identical_when_made_twice() {
  for target in ["x86_64-unknown-linux-musl", "x86_64-pc-windows-gnu"] {
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    let a = fs::read(archive(target, first.path())).unwrap();
    let b = fs::read(archive(target, second.path())).unwrap();
    assert!(a == b, "two archives of {target} differ");
  }
}

/// Runs `packaging/dist.sh OUT` with the given environment on top of PATH.
fn dist(out: &Path, environment: &[(&str, &str)]) -> Output {
  // Found on the caller's PATH: the script may be given another.
  let bash = Command::new("sh").args(["-c", "command -v bash"]).output().unwrap().stdout;
  let mut command = Command::new(String::from_utf8(bash).unwrap().trim());
  command.arg(Path::new(ROOT).join("packaging/dist.sh")).arg(out);
  crate::common::clean_environment(&mut command);
  command.envs(environment.iter().copied());
  command.output().expect("run packaging/dist.sh")
}

fn dist_names_a_missing_toolchain_and_writes_nothing() {
  let tmp = tempfile::tempdir().unwrap();
  let out = tmp.path().join("dist");
  let output =
    dist(&out, &[("DIST_RUSTC", "/nonexistent/rustc"), ("DIST_CARGO", "/nonexistent/cargo")]);
  assert_eq!(String::from_utf8_lossy(&output.stdout), "");
  assert_eq!(
    String::from_utf8_lossy(&output.stderr),
    "error: /nonexistent/rustc and /nonexistent/cargo are missing: install Debian's `rustc-web` \
     and `cargo-web` packages from bookworm-security (sudo apt-get install rustc-web cargo-web \
     rust-web-src)\n"
  );
  assert_eq!(output.status.code(), Some(1));
  assert!(!out.exists());
  assert!(!tmp.path().join("dist.next").exists());
}

/// A rustc that only answers `--print sysroot`, with a sysroot holding the
/// standard library's source, so that the check reaches the C toolchains.
fn fake_rust(dir: &Path) -> (String, String) {
  fs::create_dir_all(dir.join("sysroot/lib/rustlib/src/rust/library")).unwrap();
  let rustc = dir.join("rustc");
  fs::write(&rustc, format!("#!/bin/sh\necho {}\n", dir.join("sysroot").display())).unwrap();
  let cargo = dir.join("cargo");
  fs::write(&cargo, "#!/bin/sh\nexit 1\n").unwrap();
  for file in [&rustc, &cargo] {
    let mut permissions = fs::metadata(file).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    fs::set_permissions(file, permissions).unwrap();
  }
  (rustc.display().to_string(), cargo.display().to_string())
}

fn dist_names_a_missing_package_and_keeps_the_last_output() {
  let tmp = tempfile::tempdir().unwrap();
  let (rustc, cargo) = fake_rust(tmp.path());
  let out = tmp.path().join("dist");
  fs::create_dir(&out).unwrap();
  fs::write(out.join("SHA256SUMS"), "last\n").unwrap();
  // A PATH with the shell's tools but no MinGW compiler.
  let bin = tmp.path().join("bin");
  fs::create_dir(&bin).unwrap();
  for tool in ["sed", "head", "cat", "tr", "dirname"] {
    let found = Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap();
    let path = String::from_utf8(found.stdout).unwrap();
    std::os::unix::fs::symlink(path.trim(), bin.join(tool)).unwrap();
  }
  let output = dist(
    &out,
    &[
      ("DIST_RUSTC", &rustc),
      ("DIST_CARGO", &cargo),
      ("DIST_TARGETS", "x86_64-pc-windows-gnu"),
      ("PATH", bin.to_str().unwrap()),
    ],
  );
  assert_eq!(
    String::from_utf8_lossy(&output.stderr),
    "error: `x86_64-w64-mingw32-gcc` is missing: install Debian's `gcc-mingw-w64-x86-64` package \
     (sudo apt-get install gcc-mingw-w64-x86-64)\n"
  );
  assert_eq!(output.status.code(), Some(1));
  assert_eq!(fs::read_to_string(out.join("SHA256SUMS")).unwrap(), "last\n");
  assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 5, "nothing new next to the output");
}
