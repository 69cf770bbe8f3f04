#!/usr/bin/env bash
# Remote execution (`--remote-executor`) against the test farm: BuildGrid's
# scheduler on PostgreSQL and four workers of ours (tests/remote_execution/),
# from the virtual environment `.ci/reapi-venv` makes.
#
#   bench/remote_execution.sh [JUST]
#
# Prints the overhead of one trivial remote action over running it locally
# (best of BENCH_RUNS, default 5; each run a miss: its input changes), and
# the wall time of 16 `[parallel]` one-second recipes on 4 workers (16 s
# one by one, 4 s ideally).
set -euo pipefail
cd "$(dirname "$0")/.."

just=$(realpath "${1:-target/release/just}")
venv=${JUST_REAPI_VENV:-target/reapi-venv}
python=$venv/bin/python
runs=${BENCH_RUNS:-5}
if [ ! -x "$venv/bin/bgd" ]; then
  echo "bench: no BuildGrid in $venv (run .ci/reapi-venv)" >&2
  exit 1
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkfifo "$work/hold"
sleep infinity >"$work/hold" &
pids+=($!)
"$python" tests/remote_execution/farm.py --port "$port" --instance bench <"$work/hold" >"$work/farm.out" &
pids+=($!)
until grep -q ready "$work/farm.out" 2>/dev/null; do sleep 0.2; done
for worker in 1 2 3 4; do
  "$python" tests/remote_execution/worker.py --server "127.0.0.1:$port" --instance bench \
    --bot-id "bench-$worker" --journal "$work/journal" \
    --property "OSFamily=$(uname -s | tr A-Z a-z)" --property "ISA=$(uname -m)" <"$work/hold" &
  pids+=($!)
done
until [ "$(grep -c session "$work/journal" 2>/dev/null || true)" = 4 ]; do sleep 0.2; done
executor="--remote-executor=grpc://127.0.0.1:$port/bench"

mkdir -p "$work/trivial"
printf 'set unstable\nset lists\n[cache(inputs=["in"], outputs=["out"])]\ntrivial:\n  #!/bin/sh\n  cp in out\n' \
  >"$work/trivial/justfile"
best() { # best wall time in ms of `just ARGS` over $runs misses
  local best=999999 run start end
  for run in $(seq "$runs"); do
    echo "$RANDOM$run$1" >"$work/trivial/in"
    start=$(date +%s%N)
    (cd "$work/trivial" && "$just" "$@" trivial >/dev/null)
    end=$(date +%s%N)
    best=$(((end - start) / 1000000 < best ? (end - start) / 1000000 : best))
  done
  echo "$best"
}
local_ms=$(best --no-cache)
remote_ms=$(best "$executor")
printf '%-22s local %s ms, remote %s ms, overhead %s ms\n' "remote-trivial" "$local_ms" "$remote_ms" \
  "$((remote_ms - local_ms))"

mkdir -p "$work/parallel"
{
  printf 'set unstable\nset lists\n\n[parallel]\nall:'
  for shard in $(seq 16); do printf ' shard%s' "$shard"; done
  printf '\n'
  for shard in $(seq 16); do
    printf '\n[cache(outputs=["s%s"])]\nshard%s:\n  #!/bin/sh\n  sleep 1\n  echo %s %s > s%s\n' \
      "$shard" "$shard" "$shard" "$RANDOM" "$shard"
  done
} >"$work/parallel/justfile"
start=$(date +%s%N)
(cd "$work/parallel" && "$just" "$executor" all)
end=$(date +%s%N)
printf '%-22s %s ms (16 one-second recipes on 4 workers; 4000 ideal, 16000 serial)\n' \
  "remote-parallel-16x1s" "$(((end - start) / 1000000))"
