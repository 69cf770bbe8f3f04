#!/usr/bin/env bash
# Run every fuzz target for a bounded time on stable Rust: libFuzzer with
# coverage instrumentation, without sanitizers (those need nightly).
# Usage: fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...] (default: every target)
# Crashes are saved in fuzz/artifacts/<target>/; turn each into a named
# regression case next to its subject (tests/cases/<subject>.toml or
# tests/robustness.rs) before fixing it.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(lex_parse analyze cache_restore lsp_edits)
target="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# An explicit --target keeps the instrumentation out of build scripts.
bins=()
for name in "${targets[@]}"; do bins+=(--bin "$name"); done
cargo build --locked --profile fuzz -p just-fuzz "${bins[@]}" --target "$target" --target-dir target/stable-fuzz
for name in "${targets[@]}"; do
  mkdir -p "corpus/$name" "artifacts/$name"
  "target/stable-fuzz/$target/fuzz/$name" "corpus/$name" \
    -artifact_prefix="artifacts/$name/" -max_total_time="$seconds" -rss_limit_mb=4096 \
    -detect_leaks=0 -print_final_stats=1
done
