# Development tasks for this reimplementation of `just`.

# Where `just reference` installs just 1.58 (absolute: the tests run it from
# temporary directories)
installed_reference := justfile_directory() / 'target/reference/bin/just'

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

# Record expected outputs of the cases matching FILTER (none: all) from the reference ($JUST_REFERENCE or `just reference`)
capture filter='':
  [ -n "${JUST_REFERENCE:-}" ] || {{just_executable()}} reference
  JUST_RECORD=1 JUST_REFERENCE="${JUST_REFERENCE:-{{installed_reference}}}" cargo test --test integration -- '{{filter}}'

# Run the integration tests against the reference ($JUST_REFERENCE or `just reference`)
test-reference:
  [ -n "${JUST_REFERENCE:-}" ] || {{just_executable()}} reference
  TEST_JUST_BIN="${JUST_REFERENCE:-{{installed_reference}}}" cargo test --test integration

# Build `just.exe` for Windows with Debian's Rust and MinGW (installed when missing)
build-windows:
  ./.ci/windows build

# Build for Windows and run the Windows cases (tests/windows/) under Wine
test-windows filter='':
  ./.ci/windows test '{{filter}}'

# Record the expected outputs of the Windows cases matching FILTER from just 1.58 for Windows
capture-windows filter='':
  ./.ci/windows capture '{{filter}}'

# Lint the Windows and macOS builds with clippy, denying warnings
lint-platforms:
  ./.ci/windows clippy
  ./.ci/windows clippy-macos

# Install just 1.58, the reference for comparisons, into target/reference
reference:
  [ -x target/reference/bin/just ] || cargo install just --version 1.58.0 --locked --root target/reference

# Compare instructions and memory with the reference ($JUST_REFERENCE or `just reference`)
bench:
  [ -n "${JUST_REFERENCE:-}" ] || {{just_executable()}} reference
  cargo build --release --locked
  ./bench/bench.sh target/release/just

# Remote execution on the test farm: one action's overhead, 16 parallel recipes on 4 workers
bench-remote:
  cargo build --release --locked
  ./.ci/reapi-venv
  ./bench/remote_execution.sh target/release/just

# Report where ours and the reference differ on random justfiles
difffuzz *options:
  [ -n "${JUST_REFERENCE:-}" ] || {{just_executable()}} reference
  cargo build --locked
  python3 bench/difffuzz.py {{options}}

# Install our `just` into ~/.cargo/bin
install:
  cargo install --locked --path .

# Run each fuzz target (or those named) for a bounded time (stable Rust, no sanitizers)
fuzz seconds='60' *targets:
  ./fuzz/run.sh {{seconds}} {{targets}}

# Fail if our instruction counts grew more than 5% over bench/baseline.txt
bench-check:
  cargo build --release --locked
  ./bench/bench.sh --check target/release/just bench/baseline.txt

# Rewrite bench/baseline.txt from the current release build
bench-record:
  cargo build --release --locked
  ./bench/bench.sh --record target/release/just bench/baseline.txt

# Build the release archives, the Debian package and SHA256SUMS into dist/
dist:
  ./packaging/dist.sh dist

# Check the packages in dist/: checksums, contents, static binaries that run, lintian, Wine
dist-verify:
  eval "$(.ci/windows-toolchain)" && ./packaging/verify.sh dist
