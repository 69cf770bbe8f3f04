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

# Compare instruction counts and memory with a reference binary
bench reference='/tmp/ref/bin/just':
  cargo build --release
  ./bench/bench.sh target/release/just {{reference}}

# Fail if our instruction counts grew more than 5% over bench/baseline.txt
bench-check:
  cargo build --release
  ./bench/bench.sh --check target/release/just bench/baseline.txt

# Rewrite bench/baseline.txt from the current release build
bench-record:
  cargo build --release
  ./bench/bench.sh --record target/release/just bench/baseline.txt
