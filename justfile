# Development tasks for this reimplementation of `just`.

# List the recipes
default:
  @{{just_executable()}} --list --unsorted

# Run every test
test:
  cargo test --locked

# Run the tests of one integration area (search, recipes, errors, …)
test-area area:
  cargo test --test {{area}}

# Lint with clippy, denying warnings
lint:
  cargo clippy --all-targets --locked -- -D warnings

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

# Install just 1.58, the reference for comparisons, into target/reference
reference:
  [ -x target/reference/bin/just ] || cargo install just --version 1.58.0 --locked --root target/reference

# Compare instructions and memory with the reference ($JUST_REFERENCE or `just reference`)
bench:
  [ -n "${JUST_REFERENCE:-}" ] || {{just_executable()}} reference
  cargo build --release --locked
  ./bench/bench.sh target/release/just

# Report where ours and the reference differ on random justfiles
difffuzz *options:
  [ -n "${JUST_REFERENCE:-}" ] || {{just_executable()}} reference
  cargo build --locked
  python3 bench/difffuzz.py {{options}}

# Install our `just` into ~/.cargo/bin
install:
  cargo install --locked --path .
