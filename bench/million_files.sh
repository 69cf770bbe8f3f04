#!/usr/bin/env bash
# A `[cache]` output of a million small files (BENCH_ENTRY_FILES, default
# 1,000,000: 1,000 directories of 1,000 files) through a `--cache-dir`
# store: seconds and peak memory of publishing its entry (about 126 MiB of
# entry text), of a lookup that finds the outputs already in place, and of
# restoring them into a second checkout. Target: peak memory at most twice
# the entry's size (plus a constant), whatever the entry.
#
# usage: bench/million_files.sh JUST
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
if [ ! -x /usr/bin/time ]; then
  echo "million_files.sh: /usr/bin/time is needed to measure peak memory" >&2
  exit 2
fi
just=$(realpath "$1")
files=${BENCH_ENTRY_FILES:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The outputs are made before the first run, so that the recipe (`true`)
# costs nothing and the runs measure only the store's part.
mkdir -p "$work/a" "$work/b"
for checkout in a b; do
  printf "set unstable\nset lists\n\n[cache(outputs=['many'])]\nbuild:\n  #!/bin/sh\n  true\n" \
    >"$work/$checkout/justfile"
done
python3 - "$work/a/many" "$files" <<'PY'
import os, sys
root, files = sys.argv[1], int(sys.argv[2])
for index in range(files):
    directory = os.path.join(root, "d%04d" % (index // 1000))
    if index % 1000 == 0:
        os.makedirs(directory)
    with open(os.path.join(directory, "f%04d" % (index % 1000)), "w") as file:
        file.write("file %d\n" % index)
PY

# "seconds KiB status" of one run of `just build` in a checkout.
measure() {
  local checkout=$1 status=0
  (cd "$work/$checkout" && env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work" \
    /usr/bin/time -f '%e %M' -o "$work/time" "$just" "--cache-dir=$work/store" build \
    >/dev/null 2>"$work/stderr") || status=$?
  read -r seconds kib < <(tail -n 1 "$work/time")
  echo "$seconds $kib $status"
}

report() {
  local label=$1 seconds kib status
  read -r seconds kib status
  printf '%-44s %8ss %10s KiB' "$label" "$seconds" "$kib"
  if [ "$status" != 0 ] || [ -s "$work/stderr" ]; then
    printf '  (exit %s: %s)' "$status" "$(head -c 200 "$work/stderr" | tr '\n' ' ')"
  fi
  echo
}

measure a | report "publish a $files-file entry"
entry=$(find "$work/store/cas" -type f -size +1M -printf '%s\n' | sort -n | tail -1)
printf '%-44s %8s MiB\n' "  its entry" "$(( ${entry:-0} / 1048576 ))"
rm -rf "$work/a/.justcache"
measure a | report "lookup, outputs in place"
measure b | report "restore into a new checkout"
if [ "$(find "$work/b/many" -type f | wc -l)" != "$files" ]; then
  echo "million_files.sh: the restore did not bring back $files files" >&2
  exit 1
fi
