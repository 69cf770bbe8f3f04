# Development tasks for this reimplementation of `just`.

# List the recipes
default:
  @{{just_executable()}} --list --unsorted

# Run every test
test:
  cargo test

# Run the tests of one integration area (search, recipes, errors, …)
test-area area:
  cargo test --test {{area}}

# Lint with clippy, denying warnings
lint:
  cargo clippy --all-targets -- -D warnings

# Format the sources
fmt:
  cargo fmt

# Run the CI checks (fmt, clippy, tests)
check:
  ./.ci/run

# Re-capture integration-test outputs from a reference binary
capture reference='/tmp/ref/bin/just' *areas:
  python3 tests/capture.py --just {{reference}} {{areas}}

# Run the integration tests against a reference binary
test-reference reference='/tmp/ref/bin/just':
  TEST_JUST_BIN={{reference}} cargo test --tests

# Run each fuzz target for a bounded time (stable Rust, no sanitizers)
fuzz seconds='60':
  ./fuzz/run.sh {{seconds}}

# Compare instruction counts and memory with a reference binary
bench reference='/tmp/ref/bin/just':
  cargo build --release
  ./bench/bench.sh target/release/just {{reference}}
