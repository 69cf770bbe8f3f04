#!/usr/bin/env bash
# The Remote Execution API store (`--cache-url grpc://…`) against BuildGrid
# on 127.0.0.1 (from `.ci/reapi-venv`, or $JUST_REAPI_VENV), each case
# against `--cache-dir` on the same recipe: a miss that publishes 2,000
# small inputs, a hit over them, and an output of BENCH_REMOTE_MB (default
# 1024) MB published and restored. Seconds (best of three for hits) and
# peak memory (of `just` and its helper; target < 64 MiB for the large
# output).
#
# usage: bench/remote_cache.sh OURS
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ours=$(realpath "$1")
venv=${JUST_REAPI_VENV:-$here/../target/reapi-venv}
if [ ! -x "$venv/bin/bgd" ]; then
  echo "remote cache: no BuildGrid in $venv (run .ci/reapi-venv); skipped"
  exit 0
fi
mb=${BENCH_REMOTE_MB:-1024}
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/buildgrid.yml" <<YAML
server:
  - !channel
    address: "127.0.0.1:$port"
    insecure-mode: true
storages:
  - !lru-storage &mem
    size: $((mb * 3 + 512))MB
caches:
  - !lru-action-cache &ac
    storage: *mem
    max-cached-refs: 1024
    allow-updates: true
    cache-failed-actions: false
instances:
  - name: ""
    services:
      - !action-cache
        cache: *ac
      - !cas
        storage: *mem
      - !bytestream
        storage: *mem
YAML
"$venv/bin/bgd" server start "$work/buildgrid.yml" >"$work/bgd.log" 2>&1 &
bgd=$!
trap 'kill $bgd 2>/dev/null; wait $bgd 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 600); do
  (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

# A checkout of the 2,000-input project and of the large-output one.
checkout() {
  local directory=$1
  mkdir -p "$directory/src"
  python3 - "$directory" <<'PY'
import os, sys
directory = sys.argv[1]
for index in range(2000):
    path = os.path.join(directory, "src", str(index % 20), f"{index}.txt")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(f"input {index}\n")
PY
  echo "$mb" >"$directory/seed"
  printf 'set unstable\nset lists\n\n[cache(inputs=["src/**/*.txt"], outputs=["sum"])]\ninputs:\n  #!/bin/sh\n  cat src/*/*.txt | wc -l > sum\n\n[cache(inputs=["seed"], outputs=["big"])]\nlarge:\n  #!/bin/sh\n  head -c "$(($(cat seed) * 1048576))" /dev/zero | tr "\\\\0" x > big\n' \
    >"$directory/justfile"
}

# "seconds KiB" of one run of `just STORE RECIPE` in DIRECTORY.
once() {
  local directory=$1 store=$2 recipe=$3
  (cd "$directory" && env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work" \
    /usr/bin/time -f '%e %M' -o "$work/time" "$ours" "$store" "$recipe" >/dev/null 2>&1) || true
  tail -n 1 "$work/time"
}

# Best "seconds KiB" of three hits in fresh checkouts (their outputs removed).
hits() {
  local store=$1 recipe=$2 best=- peak=0
  for i in 1 2 3; do
    rm -rf "$work/hit/.justcache" "$work/hit/sum" "$work/hit/big"
    read -r seconds kib <<<"$(once "$work/hit" "$store" "$recipe")"
    if [ "$best" = - ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$seconds; fi
    if [ "$kib" -gt "$peak" ]; then peak=$kib; fi
  done
  echo "$best $peak"
}

checkout "$work/hit"
echo
echo "remote cache (BuildGrid) vs --cache-dir      grpc s   dir s  ratio   grpc KiB    dir KiB"
for recipe in inputs large; do
  for store in "--cache-url=grpc://127.0.0.1:$port" "--cache-dir=$work/store"; do
    rm -rf "$work/miss" && checkout "$work/miss"
    read -r miss_s miss_k <<<"$(once "$work/miss" "$store" "$recipe")"
    read -r hit_s hit_k <<<"$(hits "$store" "$recipe")"
    results+=("$miss_s $miss_k $hit_s $hit_k")
  done
  read -r gm gmk gh ghk <<<"${results[0]}"
  read -r dm dmk dh dhk <<<"${results[1]}"
  results=()
  label=$([ "$recipe" = inputs ] && echo "2,000 inputs" || echo "${mb} MB output")
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
  printf '%-42s %7s %7s %6s %10s %10s\n' "miss publishing $label" "$gm" "$dm" "$(ratio "$gm" "$dm")" "$gmk" "$dmk"
  printf '%-42s %7s %7s %6s %10s %10s\n' "hit restoring $label" "$gh" "$dh" "$(ratio "$gh" "$dh")" "$ghk" "$dhk"
done
