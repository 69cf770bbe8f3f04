#!/usr/bin/env bash
# Builds the release packages that can be built on a Debian machine:
#
#   just-VERSION-x86_64-unknown-linux-musl.tar.gz   static Linux binary
#   just-VERSION-x86_64-pc-windows-gnu.zip          Windows binary
#   just_VERSION-1_amd64.deb                         Debian package
#   SHA256SUMS
#
# into OUT (default `dist/`). Each archive holds `just-VERSION-TARGET/` with
# the binary, completions for every shell, the man page, README.md and
# LICENSE. The output is reproducible: timestamps come from the last commit,
# entries are sorted and owned by root, and build paths are remapped out of
# the binaries. OUT is replaced only once every package is complete.
#
# Usage: packaging/dist.sh [--build-only] [OUT]
# DIST_TARGETS (space-separated) restricts the targets built. With
# `--build-only` the release binaries are built (into
# target/dist/TARGET/release/) and nothing is packaged: CI builds them once,
# tests the Windows one under Wine, then packages the same builds.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build_only=false
if [ "${1:-}" = --build-only ]; then
  build_only=true
  shift
fi
out=${1:-dist}
targets=${DIST_TARGETS:-x86_64-unknown-linux-musl x86_64-pc-windows-gnu}
rustc=${DIST_RUSTC:-/usr/bin/rustc}
cargo=${DIST_CARGO:-/usr/bin/cargo}

fail() {
  printf 'error: %s\n' "$*" >&2
  exit 1
}

# require COMMAND PACKAGE: stop, naming the Debian package, if COMMAND is missing.
require() {
  command -v "$1" >/dev/null ||
    fail "\`$1\` is missing: install Debian's \`$2\` package (sudo apt-get install $2)"
}

check_toolchain() {
  [ -x "$rustc" ] && [ -x "$cargo" ] ||
    fail "$rustc and $cargo are missing: install Debian's \`rustc-web\` and \`cargo-web\` packages from bookworm-security (sudo apt-get install rustc-web cargo-web rust-web-src)"
  local sysroot
  sysroot=$("$rustc" --print sysroot)
  [ -d "$sysroot/lib/rustlib/src/rust/library" ] ||
    fail "the standard library's source is missing: install Debian's \`rust-web-src\` package (sudo apt-get install rust-web-src)"
  for target in $targets; do
    case $target in
      x86_64-unknown-linux-musl) require musl-gcc musl-tools ;;
      x86_64-pc-windows-gnu) require x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64 ;;
      *) fail "unknown target \`$target\` in DIST_TARGETS" ;;
    esac
  done
  require git git
  require dpkg-deb dpkg
  require python3 python3
  require sha256sum coreutils
}

exe_suffix() {
  case $1 in *windows*) echo .exe ;; esac
}

version() {
  sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1
}

# build TARGET: a release binary of TARGET with the standard library built
# from source, with no path of this machine left in it.
build() {
  local target=$1 upper
  upper=$(echo "$target" | tr 'a-z-' 'A-Z_')
  local lower=${target//-/_}
  local flags="--remap-path-prefix=$root=/just --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
  flags+=" --remap-path-prefix=$("$rustc" --print sysroot)/lib/rustlib/src/rust=/rust"
  local -a env=(
    RUSTC_BOOTSTRAP=1 RUSTC="$rustc" CARGO_TARGET_DIR="$root/target/dist"
    CARGO_PROFILE_RELEASE_STRIP=symbols SOURCE_DATE_EPOCH="$epoch"
  )
  case $target in
    *-linux-musl)
      env+=("CARGO_TARGET_${upper}_LINKER=musl-gcc" "CC_${lower}=musl-gcc")
      # Rust's standard library for musl links LLVM's libunwind, which Debian
      # does not ship for musl; GCC's unwinder has the same interface, given
      # the one glibc function it needs.
      local unwind="$root/target/dist/musl-unwind"
      rm -rf "$unwind" && mkdir -p "$unwind"
      cp "$(gcc -print-file-name=libgcc_eh.a)" "$unwind/libunwind.a"
      musl-gcc -O2 -c packaging/musl/dl_find_object.c -o "$unwind/dl_find_object.o"
      ar rcs "$unwind/libunwind.a" "$unwind/dl_find_object.o"
      flags+=" -Clink-self-contained=no -Ctarget-feature=+crt-static -Crelocation-model=static -Lnative=$unwind"
      ;;
    *-windows-gnu)
      env+=("CARGO_TARGET_${upper}_LINKER=x86_64-w64-mingw32-gcc" "CC_${lower}=x86_64-w64-mingw32-gcc")
      ;;
  esac
  env+=("CARGO_TARGET_${upper}_RUSTFLAGS=$flags")
  echo "dist: building $target" >&2
  env "${env[@]}" "$cargo" build --release --locked --quiet \
    -Zbuild-std=std,panic_abort --target "$target"
}

# Give every file the commit's time and the usual modes.
normalize() {
  find "$1" -type d -exec chmod 0755 {} +
  find "$1" -type f -exec chmod 0644 {} +
  find "$1" -exec touch -h -d "@$epoch" {} +
}

# deb STAGE OUT: the Debian package, from the static Linux binary.
deb() {
  local stage=$1 into=$2 package="$1/deb"
  rm -rf "$package"
  mkdir -p "$package/DEBIAN" "$package/usr/bin" "$package/usr/share/man/man1" \
    "$package/usr/share/doc/just" "$package/usr/share/bash-completion/completions" \
    "$package/usr/share/zsh/vendor-completions" "$package/usr/share/fish/vendor_completions.d"
  cp target/dist/x86_64-unknown-linux-musl/release/just \
    target/dist/x86_64-unknown-linux-musl/release/just-cache-store \
    target/dist/x86_64-unknown-linux-musl/release/just-language-server "$package/usr/bin/"
  local just="$package/usr/bin/just"
  "$just" --man | gzip -n -9 >"$package/usr/share/man/man1/just.1.gz"
  "$just" --completions bash >"$package/usr/share/bash-completion/completions/just"
  "$just" --completions zsh >"$package/usr/share/zsh/vendor-completions/_just"
  "$just" --completions fish >"$package/usr/share/fish/vendor_completions.d/just.fish"
  sed "s/@VERSION@/$version/g; s/@DATE@/$(date -u -R -d "@$epoch")/g" \
    packaging/debian/changelog | gzip -n -9 >"$package/usr/share/doc/just/changelog.Debian.gz"
  cp packaging/debian/copyright "$package/usr/share/doc/just/copyright"
  # The executables are static on purpose: they run on any Linux.
  mkdir -p "$package/usr/share/lintian/overrides"
  printf 'just: statically-linked-binary [usr/bin/%s]\n' just just-cache-store just-language-server \
    >"$package/usr/share/lintian/overrides/just"
  normalize "$package"
  chmod 0755 "$package"/usr/bin/*
  local size
  size=$(du -k -s --apparent-size "$package/usr" | cut -f1)
  sed "s/@VERSION@/$version/; s/@SIZE@/$size/" packaging/debian/control >"$package/DEBIAN/control"
  (cd "$package" && find usr -type f | LC_ALL=C sort | xargs md5sum >DEBIAN/md5sums)
  normalize "$package/DEBIAN"
  chmod 0755 "$package"/usr/bin/*
  SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$package" \
    "$into/just_${version}-1_amd64.deb" >/dev/null
}

check_toolchain
version=$(version)
epoch=$(git log -1 --format=%ct)
export SOURCE_DATE_EPOCH=$epoch
if $build_only; then
  mkdir -p target/dist
  exec 9>target/dist/lock
  flock 9
  for target in $targets; do
    build "$target"
  done
  exit 0
fi
stage="$root/target/dist/stage"
next="$out.next"
# One run at a time: a second one would remove the first's staging folder.
mkdir -p target/dist
exec 9>target/dist/lock
flock -n 9 || fail "another \`just dist\` is running (target/dist/lock)"
rm -rf "$next" && mkdir -p "$next" "$stage"
trap 'rm -rf "$next"' EXIT

for target in $targets; do
  build "$target"
done

# Completions and the man page do not depend on the target: the archive of a
# binary that cannot run here takes them from the static Linux one.
native=target/dist/x86_64-unknown-linux-musl/release/just
[ -x "$native" ] || build x86_64-unknown-linux-musl
# In an empty directory under a ceiling: a binary that lost its arguments
# finds no justfile to run.
empty=$(mktemp -d)
answer=$(cd "$empty" && JUST_CEILING="$empty" "$root/$native" --version 2>&1 || true)
rmdir "$empty"
[ "$answer" = "just $version" ] || fail "the static binary answers \`--version\` with: $answer"
# Static: no program interpreter, so it runs where musl is not installed.
if LC_ALL=C readelf -l "$native" | grep -q INTERP; then
  fail "$native is not static: it needs a program interpreter"
fi
for target in $targets; do
  python3 packaging/archive.py "$target" "target/dist/$target/release/just$(exe_suffix "$target")" \
    "$next" --documents-from "$native" >/dev/null
done
case " $targets " in
  *" x86_64-unknown-linux-musl "*) deb "$stage" "$next" ;;
esac
(cd "$next" && LC_ALL=C ls | grep -v '^SHA256SUMS$' | xargs sha256sum >SHA256SUMS)

# Replace the last output only now that the new one is complete.
rm -rf "$out"
mv "$next" "$out"
echo "dist: wrote $out/:" >&2
(cd "$out" && ls -1 >&2)
