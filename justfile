# Development tasks for this reimplementation of `just`.

# List the recipes
default:
  @{{just_executable()}} --list --unsorted

# Run every test
test:
  cargo test --locked

# Run the integration tests of one subject (search, recipes, settings::dotenv, …)
test-area area:
  cargo test --test integration -- {{area}}::

# Lint with clippy, denying warnings
lint:
  cargo clippy --all-targets --locked -- -D warnings

# Format the sources
fmt:
  cargo fmt

# Run the CI checks (fmt, clippy, tests)
check:
  ./.ci/run

# Record expected outputs of the cases matching FILTER (e.g. `search::`, or
# none for all) from the reference binary named by $JUST_REFERENCE
capture filter='':
  @test -n "${JUST_REFERENCE:-}" || { echo 'error: set JUST_REFERENCE=/path/to/reference/just' >&2; exit 1; }
  JUST_RECORD=1 cargo test --test integration -- '{{filter}}'

# Run the integration tests against the reference binary named by $JUST_REFERENCE
test-reference:
  @test -n "${JUST_REFERENCE:-}" || { echo 'error: set JUST_REFERENCE=/path/to/reference/just' >&2; exit 1; }
  TEST_JUST_BIN="$JUST_REFERENCE" cargo test --test integration

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
