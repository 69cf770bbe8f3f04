#!/usr/bin/env bash
# Compare our binary with a reference `just` on large generated justfiles.
#
# usage: bench/bench.sh OURS [REFERENCE]
#
# REFERENCE defaults to $JUST_REFERENCE, else target/reference/bin/just (which
# `just reference` installs).
#
# For each scenario prints instruction counts (callgrind, else `perf stat`)
# and max RSS in KiB (`/usr/bin/time -f %M`), with the ratio ours/reference.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
reference=${2:-${JUST_REFERENCE:-$here/../target/reference/bin/just}}
for binary in "$1" "$reference"; do
  if [ ! -x "$binary" ]; then
    echo "bench.sh: no executable at $binary (run \`just reference\` or set JUST_REFERENCE)" >&2
    exit 2
  fi
done
ours=$(realpath "$1")
reference=$(realpath "$reference")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$here/generate.py" "$work" >/dev/null
cd "$work"

# Instruction count of one run, or "-" when no counter is available.
instructions() {
  if command -v valgrind >/dev/null; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
      | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -1
  elif command -v perf >/dev/null \
    && perf stat -x, -e instructions true 2>&1 | grep -q '^[0-9]'; then
    perf stat -x, -e instructions "$@" 2>&1 >/dev/null | sed -n 's/^\([0-9]*\),.*instructions.*/\1/p'
  else
    echo -
  fi
}

# Max resident set size of one run in KiB, or "-".
max_rss() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 || true
    tail -1 "$work/rss"
  else
    echo -
  fi
}

ratio() {
  if [[ "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ && "$2" -gt 0 ]]; then
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
  else
    echo -
  fi
}

printf '%-10s %15s %15s %7s %10s %10s %7s\n' \
  scenario 'instr ours' 'instr ref' ratio 'rss ours' 'rss ref' ratio

for scenario in --summary --list --dump long; do
  ours_instr=$(instructions "$ours" "$scenario")
  ref_instr=$(instructions "$reference" "$scenario")
  ours_rss=$(max_rss "$ours" "$scenario")
  ref_rss=$(max_rss "$reference" "$scenario")
  printf '%-10s %15s %15s %7s %10s %10s %7s\n' "$scenario" \
    "$ours_instr" "$ref_instr" "$(ratio "$ours_instr" "$ref_instr")" \
    "$ours_rss" "$ref_rss" "$(ratio "$ours_rss" "$ref_rss")"
done
