#!/usr/bin/env bash
# Checks the packages `packaging/dist.sh` wrote, as a user would get them:
#
# - SHA256SUMS matches every package;
# - the Linux archive unpacks to `just-VERSION-TARGET/` with both binaries,
#   the completions, the man page, README.md and LICENSE; its `just` is
#   static (no program interpreter) and runs a recipe;
# - the Debian package puts the binaries, man page and completions where
#   Debian looks for them, its `just` runs, `man -l` renders its page, and
#   lintian reports no error;
# - the Windows archive holds the same files, and its `just.exe` runs a
#   recipe under Wine (WINEPREFIX as `.ci/windows-toolchain` prepares it).
#
# Usage: packaging/verify.sh [OUT]   (default `dist/`)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$(realpath "${1:-dist}")
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
linux="just-$version-x86_64-unknown-linux-musl"
windows="just-$version-x86_64-pc-windows-gnu"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  printf 'verify: %s\n' "$*" >&2
  exit 1
}

say() {
  printf 'verify: %s\n' "$*" >&2
}

for command in sha256sum python3 dpkg-deb lintian man readelf wine; do
  command -v "$command" >/dev/null || fail "\`$command\` is needed"
done

(cd "$out" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match $out"
say "SHA256SUMS matches"

# expect_files DIR FILE…: DIR holds exactly these files (relative paths).
expect_files() {
  local dir=$1
  shift
  local actual expected
  actual=$(cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
  expected=$(printf '%s\n' "$@" | LC_ALL=C sort)
  [ "$actual" = "$expected" ] || fail "$dir holds:
$actual
instead of:
$expected"
}

documents=(completions/_just completions/just.bash completions/just.elvish
  completions/just.fish completions/just.nu completions/just.ps1
  man/just.1 README.md LICENSE)

# A justfile in an empty directory under a ceiling, so nothing else is found.
project="$work/project"
mkdir -p "$project"
printf 'hello name="world":\n  @echo hello {{name}}\n' >"$project/justfile"

# run_recipe COMMAND…: COMMAND runs the project's recipe with an argument.
run_recipe() {
  local answer
  answer=$(cd "$project" && JUST_CEILING="$project" "$@" hello verify 2>&1 | tr -d '\r') ||
    fail "$* hello verify failed: $answer"
  [ "$answer" = "hello verify" ] || fail "$* hello verify printed: $answer"
}

# Linux archive.
mkdir -p "$work/linux"
tar -xzf "$out/$linux.tar.gz" -C "$work/linux"
[ "$(ls "$work/linux")" = "$linux" ] || fail "$linux.tar.gz does not unpack to $linux/"
expect_files "$work/linux/$linux" just just-cache-store just-language-server "${documents[@]}"
for binary in just just-cache-store just-language-server; do
  if LC_ALL=C readelf -l "$work/linux/$linux/$binary" | grep -q INTERP; then
    fail "$binary in $linux.tar.gz is not static"
  fi
done
run_recipe "$work/linux/$linux/just"
say "$linux.tar.gz: files, static binaries, runs a recipe"

# Debian package.
deb="$out/just_${version}-1_amd64.deb"
dpkg-deb -x "$deb" "$work/deb"
expect_files "$work/deb" usr/bin/just usr/bin/just-cache-store usr/bin/just-language-server \
  usr/share/man/man1/just.1.gz usr/share/bash-completion/completions/just \
  usr/share/zsh/vendor-completions/_just usr/share/fish/vendor_completions.d/just.fish \
  usr/share/doc/just/changelog.Debian.gz usr/share/doc/just/copyright \
  usr/share/lintian/overrides/just
run_recipe "$work/deb/usr/bin/just"
page=$(MANWIDTH=80 man -l "$work/deb/usr/share/man/man1/just.1.gz" 2>/dev/null | head -n 3)
case $page in
  *just*) ;;
  *) fail "man -l on the Debian package's page printed: $page" ;;
esac
# lintian refuses to run some checks as root, and says so: only its tags count.
tags=$(lintian --fail-on none "$deb" 2>/dev/null || true)
if printf '%s\n' "$tags" | grep -q '^E:'; then
  fail "lintian reports errors:
$tags"
fi
say "$(basename "$deb"): files, runs a recipe, man page renders, lintian: no errors"

# Windows archive.
python3 - "$out/$windows.zip" "$work/windows" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])
PY
[ "$(ls "$work/windows")" = "$windows" ] || fail "$windows.zip does not unpack to $windows/"
expect_files "$work/windows/$windows" just.exe just-cache-store.exe just-language-server.exe "${documents[@]}"
printf 'set shell := ["cmd.exe", "/c"]\nhello name="world":\n  @echo hello {{name}}\n' \
  >"$project/justfile"
wineserver -p 2>/dev/null || true
run_recipe env WINEDEBUG=-all wine "$work/windows/$windows/just.exe"
say "$windows.zip: files, just.exe runs a recipe under Wine"
