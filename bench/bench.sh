#!/usr/bin/env bash
# Measure `just` on generated justfiles.
#
# usage: bench/bench.sh OURS [REFERENCE]        table of ours ÷ reference
#        bench/bench.sh --check OURS BASELINE   fail if an instruction count
#                                               grew more than 5% over BASELINE
#        bench/bench.sh --record OURS BASELINE  write BASELINE from OURS
#
# REFERENCE defaults to $JUST_REFERENCE, else target/reference/bin/just (which
# `just reference` installs).
#
# The last column says whether the large-file commands print exactly what the
# reference prints. At the end, the resident memory of a `--watch` that reruns
# the large justfile 1,000 times (bench/watch_memory.py).
#
# Instructions are counted with callgrind (the `just` process only, not the
# shells it spawns), peak memory with `/usr/bin/time -f %M`. Every run gets
# the same generated inputs and a cleared environment, so counts are
# reproducible to well under a percent.
set -euo pipefail

mode=compare
case "${1:-}" in
  --check | --record) mode=${1#--}; shift ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
if [ "$mode" = compare ] && [ $# -eq 1 ]; then
  set -- "$1" "${JUST_REFERENCE:-$here/../target/reference/bin/just}"
fi
if [ $# -ne 2 ]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
binaries=("$1")
if [ "$mode" = compare ]; then binaries+=("$2"); fi
for binary in "${binaries[@]}"; do
  if [ ! -x "$binary" ]; then
    echo "bench.sh: no executable at $binary (run \`just reference\` or set JUST_REFERENCE)" >&2
    exit 2
  fi
done

ours=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name, input kind, arguments, target (ours ÷ reference instructions)
scenarios=(
  "--summary|large|--summary|0.10"
  "--list|large|--list|0.10"
  "--dump|large|--dump|0.10"
  "--evaluate|large|--evaluate|0.10"
  "--version|tiny|--version|0.60"
  "run-@true|tiny||0.60"
  "just|small||0.50"
  "just-RECIPE|small|build|0.50"
  "just-f-FILE|small|-f justfile build|0.50"
  "just--list|small|--list|0.50"
  "just-VAR=x|small|name=x greet|0.50"
  "just--summary|small|--summary|0.50"
  "1000-args|small|build $(seq -s ' ' 1 1000)|0.50"
  "1000-lines|long|long|0.50"
  "500-chain|chain|chain-499|0.50"
  "500-params|params|many $(seq -s ' ' 0 249)|1.00"
  "20k-groups|groups|--list|0.50"
  "10k-blank-lines|blanks|--summary|0.50"
)

for kind in large tiny small long chain params groups blanks; do
  python3 "$here/generate.py" "$work/$kind" "$kind" >/dev/null
done

# Run a binary in the scenario's directory with a fixed environment.
run() {
  local dir=$1
  shift
  (cd "$work/$dir" && env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work" "$@")
}

# Instruction count of one run.
instructions() {
  local dir=$1
  shift
  if ! command -v valgrind >/dev/null; then
    echo "bench.sh: valgrind is needed to count instructions" >&2
    exit 1
  fi
  run "$dir" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -1
}

# Max resident set size of one run in KiB, or "-".
max_rss() {
  local dir=$1
  shift
  if [ -x /usr/bin/time ]; then
    run "$dir" /usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 || true
    tail -1 "$work/rss"
  else
    echo -
  fi
}

ratio() {
  if [[ "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ && "$2" -gt 0 ]]; then
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'
  else
    echo -
  fi
}

if [ "$mode" = record ]; then
  baseline=$2
  {
    echo "# Instruction counts of bench/bench.sh scenarios (release profile)."
    echo "# Rewrite with: just bench-record"
    for scenario in "${scenarios[@]}"; do
      IFS='|' read -r name kind args _ <<<"$scenario"
      # shellcheck disable=SC2086
      echo "$name $(instructions "$kind" "$ours" $args)"
    done
  } >"$baseline.tmp"
  mv "$baseline.tmp" "$baseline"
  cat "$baseline"
  exit 0
fi

if [ "$mode" = check ]; then
  baseline=$2
  failed=0
  printf '%-14s %15s %15s %7s\n' scenario 'instr now' baseline ratio
  for scenario in "${scenarios[@]}"; do
    IFS='|' read -r name kind args _ <<<"$scenario"
    expected=$(awk -v n="$name" '$1 == n { print $2 }' "$baseline")
    # shellcheck disable=SC2086
    now=$(instructions "$kind" "$ours" $args)
    r=$(ratio "$now" "$expected")
    verdict=
    if [ -z "$expected" ]; then
      verdict='  no baseline'
      failed=1
    elif awk -v a="$now" -v b="$expected" 'BEGIN { exit !(a > b * 1.05) }'; then
      verdict='  REGRESSION (> 5%)'
      failed=1
    fi
    printf '%-14s %15s %15s %7s%s\n' "$name" "$now" "${expected:--}" "$r" "$verdict"
  done
  exit "$failed"
fi

reference=$(realpath "$2")

# Whether ours prints exactly what the reference prints (stdout and status).
same_output() {
  local dir=$1
  shift
  local ours_status=0 ref_status=0
  run "$dir" "$ours" "$@" >"$work/out-ours" 2>/dev/null || ours_status=$?
  run "$dir" "$reference" "$@" >"$work/out-ref" 2>/dev/null || ref_status=$?
  if [ "$ours_status" = "$ref_status" ] && cmp -s "$work/out-ours" "$work/out-ref"; then
    echo same
  else
    echo DIFFERS
  fi
}

printf '%-14s %14s %14s %6s %6s %10s %10s %6s %8s\n' \
  scenario 'instr ours' 'instr ref' ratio target 'rss ours' 'rss ref' ratio output
for scenario in "${scenarios[@]}"; do
  IFS='|' read -r name kind args target <<<"$scenario"
  # shellcheck disable=SC2086
  {
    ours_instr=$(instructions "$kind" "$ours" $args)
    ref_instr=$(instructions "$kind" "$reference" $args)
    ours_rss=$(max_rss "$kind" "$ours" $args)
    ref_rss=$(max_rss "$kind" "$reference" $args)
  }
  output=-
  if [ "$kind" = large ]; then
    # shellcheck disable=SC2086
    output=$(same_output "$kind" $args)
  fi
  printf '%-14s %14s %14s %6s %6s %10s %10s %6s %8s\n' "$name" \
    "$ours_instr" "$ref_instr" "$(ratio "$ours_instr" "$ref_instr")" "$target" \
    "$ours_rss" "$ref_rss" "$(ratio "$ours_rss" "$ref_rss")" "$output"
done

# Peak memory on a 50 MB justfile, against the target of ten times its size.
python3 "$here/generate.py" "$work/huge" huge >/dev/null
size=$(($(wc -c <"$work/huge/justfile") / 1024))
ours_rss=$(max_rss huge "$ours" --summary)
ref_rss=$(max_rss huge "$reference" --summary)
printf '%-14s %14s %14s %6s %6s %10s %10s %6s\n' 50MB-rss - - - - \
  "$ours_rss" "$ref_rss" "$(ratio "$ours_rss" "$ref_rss")"
printf '%-14s peak memory ÷ file size: ours %s, reference %s (target ≤ 10)\n' '' \
  "$(ratio "$ours_rss" "$size")" "$(ratio "$ref_rss" "$size")"

# Peak memory of the error on a 100 MB line (the excerpt shows the whole
# line), against the target of twice the file's size.
python3 "$here/generate.py" "$work/longline" longline >/dev/null
size=$(($(wc -c <"$work/longline/justfile") / 1024))
ours_rss=$(max_rss longline "$ours" --summary)
ref_rss=$(max_rss longline "$reference" --summary)
printf '%-14s %14s %14s %6s %6s %10s %10s %6s\n' 100MB-line-rss - - - - \
  "$ours_rss" "$ref_rss" "$(ratio "$ours_rss" "$ref_rss")"
printf '%-14s peak memory ÷ file size: ours %s, reference %s (target ≤ 2.2)\n' '' \
  "$(ratio "$ours_rss" "$size")" "$(ratio "$ref_rss" "$size")"
rm -r "$work/longline"

# Resident memory of `--watch` over 1,000 reruns of the large justfile.
python3 "$here/watch_memory.py" "$ours" 1000

# Hashing a large `[cache]` input (BENCH_CACHE_MB, default 1024 MB): best
# wall time of three runs and peak memory, each after a warm-up run, so the
# file is in the page cache for both. Targets: at most the reference's time,
# under 64 MiB of memory.
cache_mb=${BENCH_CACHE_MB:-1024}
mkdir -p "$work/cache"
head -c "$((cache_mb * 1024 * 1024))" /dev/urandom >"$work/cache/input"
printf 'set unstable\nset lists\n[cache(inputs=["input"])]\nhash:\n  #!/bin/sh\n  true\n' \
  >"$work/cache/justfile"

# "seconds KiB" of the fastest of three runs (peak memory of all three), in
# $work/${timed_in:-cache}.
timed() {
  local best=- peak=0 dir=${timed_in:-cache}
  run "$dir" "$@" hash >/dev/null 2>&1 || true
  for _ in 1 2 3; do
    run "$dir" /usr/bin/time -f '%e %M' -o "$work/time" "$@" hash >/dev/null 2>&1 || true
    read -r seconds kib <"$work/time"
    if [ "$best" = - ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$seconds
    fi
    if [ "$kib" -gt "$peak" ]; then peak=$kib; fi
  done
  echo "$best $peak"
}

if [ -x /usr/bin/time ]; then
  read -r ours_time ours_kib <<<"$(timed "$ours")"
  read -r ref_time ref_kib <<<"$(timed "$reference")"
  printf '%-14s time ours %ss, reference %ss, ratio %s (target ≤ 1); ' "cache-${cache_mb}MB" \
    "$ours_time" "$ref_time" "$(awk -v a="$ours_time" -v b="$ref_time" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
  printf 'rss ours %s KiB, reference %s KiB, ratio %s (target < 65536 KiB)\n' \
    "$ours_kib" "$ref_kib" "$(ratio "$ours_kib" "$ref_kib")"
fi

# A hit on 10,000 small `[cache]` inputs, named one by one (just 1.58 has no
# globs): best wall time of three runs after the run that records the entry.
# Target: at most the reference's time.
mkdir -p "$work/inputs/f"
python3 - "$work/inputs" <<'PY'
import os, sys
directory = sys.argv[1]
names = []
for index in range(10000):
    with open(os.path.join(directory, "f", str(index)), "w") as file:
        file.write(f"input {index}\n")
    names.append(f'"f/{index}"')
with open(os.path.join(directory, "justfile"), "w") as file:
    file.write("set unstable\nset lists\n[cache(inputs=[" + ", ".join(names) + "])]\n")
    file.write("hash:\n  #!/bin/sh\n  true\n")
PY
if [ -x /usr/bin/time ]; then
  read -r ours_time ours_kib <<<"$(timed_in=inputs timed "$ours")"
  read -r ref_time ref_kib <<<"$(timed_in=inputs timed "$reference")"
  printf '%-14s time ours %ss, reference %ss, ratio %s (target ≤ 1)\n' "cache-10k-hit" \
    "$ours_time" "$ref_time" "$(awk -v a="$ours_time" -v b="$ref_time" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
fi

# `--up-to-date` on 10,000 cached recipes, all hits: best wall time of
# three runs after the run that records the entries, against the same run
# without the flag (ours and the reference, which has no `--up-to-date`: it
# answers only by running). Target: at most the reference's hit run.
python3 - "$work/question" <<'PY'
import os, sys
directory = sys.argv[1]
os.makedirs(directory, exist_ok=True)
with open(os.path.join(directory, "justfile"), "w") as file:
    file.write("set unstable\n\nall: " + " ".join(f"r{i}" for i in range(10000)) + "\n")
    for index in range(10000):
        file.write(f"\n[cache]\nr{index}:\n  #!/bin/sh\n  echo {index}\n")
PY
# Best seconds of three runs of `just ARGS…` in $work/question.
best_of_three() {
  local best=-
  for _ in 1 2 3; do
    run question /usr/bin/time -f '%e' -o "$work/time" "$@" >/dev/null 2>&1 || true
    seconds=$(tail -n 1 "$work/time")
    if [ "$best" = - ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$seconds
    fi
  done
  echo "$best"
}
if [ -x /usr/bin/time ]; then
  run question "$reference" all >/dev/null 2>&1 || true
  ref_hits=$(best_of_three "$reference" all)
  rm -rf "$work/question/.justcache"
  run question "$ours" all >/dev/null 2>&1 || true
  ours_hits=$(best_of_three "$ours" all)
  ours_question=$(best_of_three "$ours" --up-to-date all)
  printf '%-14s time ours %ss (a hit run: ours %ss, reference %ss), ratio to the reference %s (target ≤ 1)\n' \
    "up-to-date-10k" "$ours_question" "$ours_hits" "$ref_hits" \
    "$(awk -v a="$ours_question" -v b="$ref_hits" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
fi

# The new features on large cases, ours only (just 1.58 has none of them):
# seconds and peak memory, which must grow with the output, not faster.
timed_ours() {
  local dir=$1 label=$2
  shift 2
  run "$dir" /usr/bin/time -f '%e %M' -o "$work/timed" bash -c "$*" >/dev/null 2>&1 || true
  # The last line: before it, time notes a command's non-zero status.
  read -r seconds rss < <(tail -n 1 "$work/timed")
  printf '%-44s %8ss %10s KiB\n' "$label" "$seconds" "$rss"
}
python3 "$here/generate.py" "$work/bigchain" bigchain >/dev/null
python3 "$here/generate.py" "$work/output" output >/dev/null
echo
echo "new features on large cases (ours)              seconds   peak memory"
timed_ours bigchain '--graph mermaid, 100,000-recipe chain' \
  "$ours --graph --graph-format mermaid chain-99999 | wc -c"
timed_ours bigchain '--graph dot, 100,000-recipe chain' "$ours --graph chain-99999 | wc -c"
timed_ours bigchain '--tree, 10,000 of the chain (200 MB out)' "$ours --tree chain-9999 | wc -c"
timed_ours bigchain '--tree, 100,000 chain, first 100 MB' \
  "$ours --tree chain-99999 | head -c 100000000 | wc -c"
for mode in interleaved prefixed grouped; do
  timed_ours output "a 20 MB line, --output $mode" "$ours --output $mode line | wc -c"
done
for mode in interleaved prefixed grouped; do
  timed_ours output "256 MiB of lines, --output $mode" "$ours --output $mode lines | wc -c"
done

# `--watch` set-up on a tree of 20,000 directories: seconds until it waits.
mkdir -p "$work/dirs"
printf 'a:\n  @true\n' >"$work/dirs/justfile"
(cd "$work/dirs" && for i in $(seq 200); do for j in $(seq 100); do echo "d$i/e$j"; done; done | xargs mkdir -p)
timed_ours dirs '--watch set-up, 20,000 directories' \
  "$ours -w a 2> err & pid=\$!; until grep -q waiting err; do sleep 0.01; done; kill -INT \$pid; wait \$pid"

# A `[cache]` entry of a million files through a `--cache-dir` store:
# publishing, looking up and restoring it, seconds and peak memory.
echo
echo "a million-file [cache] entry (ours)              seconds   peak memory"
"$here/million_files.sh" "$ours"

# The language server on the large justfile: latency of diagnostics after an
# edit and of completions (its targets: 50 ms and 20 ms at the 90th percentile).
echo
python3 "$here/lsp_latency.py" "$ours" 100

# The Remote Execution API store against BuildGrid, beside `--cache-dir`.
"$here/remote_cache.sh" "$ours"
