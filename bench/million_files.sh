#!/usr/bin/env bash
# A `[cache]` output of a million small files (BENCH_ENTRY_FILES, default
# 1,000,000: 1,000 directories of 1,000 files) through a `--cache-dir`
# store: seconds and peak memory of publishing its entry (about 126 MiB of
# entry text), of a lookup that finds the outputs already in place, and of
# restoring them into a second checkout; first, a lookup of a forged entry
# of as many items, refused once read whole (BENCH_ENTRY_LOOKUP_ONLY=1:
# only that). Target: peak memory at most twice the entry's size (plus a
# constant), whatever the entry.
#
# usage: bench/million_files.sh JUST
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  sed -n '2,11p' "$0" >&2
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

# The outputs are made before the first run, so that the recipe (`true`)
# costs nothing and the runs measure only the store's part.
mkdir -p "$work/a" "$work/b" "$work/c"
for checkout in a b c; do
  printf "set unstable\nset lists\n\n[cache(outputs=['many'])]\nbuild:\n  #!/bin/sh\n  true\n" \
    >"$work/$checkout/justfile"
done
# A lookup of a forged entry of as many items whose output's own
# directory item is missing: read and checked whole, then refused. What
# reading an entry costs, without writing a file.
mkdir -p "$work/c/many"
measure c >/dev/null
record=$(find "$work/store/ac" -type f ! -name '.*' | head -1)
python3 - "$work/forged" "$files" <<'PY'
import sys
path, files = sys.argv[1], int(sys.argv[2])
empty = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"
blob = '{"blob":"%s","size":0}' % empty
with open(path, "w") as out:
    out.write('{"recipe":"build","status":0,"stdout":%s,"stderr":%s,"outputs":[' % (blob, blob))
    for index in range(files):
        if index % 1000 == 0:
            out.write('%s{"path":"many/d%04d","type":"directory","mode":493}'
                      % ("," if index else "", index // 1000))
        out.write(',{"path":"many/d%04d/f%04d","type":"file","mode":420,"blob":"%s","size":0}'
                  % (index // 1000, index % 1000, empty))
    out.write("]}")
PY
printf "h := blake3_file('%s')\n" "$work/forged" >"$work/hash.just"
hash=$("$just" -f "$work/hash.just" --evaluate h)
mv "$work/forged" "$work/store/cas/$hash"
printf '%s' "$hash" >"$record"
rm -rf "$work/c/.justcache"
measure c | report "lookup of a forged $files-item entry"
printf '%-44s %8s MiB\n' "  its entry" "$(($(stat -c %s "$work/store/cas/$hash") / 1048576))"
rm -rf "$work/store"
if [ -n "${BENCH_ENTRY_LOOKUP_ONLY:-}" ]; then
  exit 0
fi

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
