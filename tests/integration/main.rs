//! The integration tests: one binary in which every case is its own test.
//!
//! * Table cases are data: every `tests/cases/**/*.toml` file is read at run
//!   time (no rebuild needed) and each `[[case]]` becomes a test named
//!   `<subject>::<case name>`, the subject being the file's path below
//!   `tests/cases` with `/` written `::` (see `cases.rs` for the format).
//! * Hand-written tests (signals, machine-dependent output, the fuzzer) are
//!   plain `fn name()` in the modules below, registered with `tests!` as
//!   `<module>::<fn name>`.
//!
//! `TEST_JUST_BIN=/path/to/just` runs everything against another binary (e.g.
//! the reference); cases marked `differs` and hand-written tests of our own
//! extensions are then ignored. `JUST_RECORD=1 JUST_REFERENCE=/path/to/just`
//! rewrites the expected outputs of the selected cases from the reference.
//! `JUST_TEST_WINDOWS=/path/to/just.exe` runs the Windows cases
//! (`tests/windows/`) instead, each through Wine.

// A test that unwraps fails with the panic's message, which is what a test
// should do (the library's own code may not: `unwrap_used` in Cargo.toml).
#![allow(clippy::unwrap_used)]

#[path = "../common/mod.rs"]
mod common;

/// Registers plain test functions of a module as trials named
/// `<module>::<function>`. Functions listed after `extensions:` test
/// behaviour just 1.58 does not have; they are ignored when the suite runs
/// against another binary. `name if requirement` registers a test that can
/// run only where `requirement()` (a `fn() -> bool`: root, a mount, a
/// program) holds; elsewhere it is listed as ignored rather than passed.
macro_rules! tests {
  (
    $($(#[$attribute:meta])* $test:ident $(if $requirement:path)?),* $(,)?
    $(; extensions: $($(#[$extension_attribute:meta])* $extension:ident $(if $extension_requirement:path)?),* $(,)?)?
  ) => {
    // One push per test, since each may carry its own `#[cfg]`.
    #[allow(clippy::vec_init_then_push)]
    pub(crate) fn tests() -> Vec<libtest_mimic::Trial> {
      let mut trials = Vec::new();
      $(
        $(#[$attribute])*
        trials.push($crate::harness::trial(
          module_path!(),
          stringify!($test),
          $test,
          false,
          true $(&& $requirement())?,
          &[$(stringify!($requirement))?],
        ));
      )*
      $($(
        $(#[$extension_attribute])*
        trials.push($crate::harness::trial(
          module_path!(),
          stringify!($extension),
          $extension,
          true,
          true $(&& $extension_requirement())?,
          &[$(stringify!($extension_requirement))?],
        ));
      )*)?
      trials
    }
  };
}

mod cases;
mod harness;

mod argument_completion;
mod bash_completion;
mod cached_lines;
mod changelog;
mod cheatsheet;
mod cli;
mod compat;
mod dist;
mod execution;
mod format;
mod functions;
mod graph;
mod help_facts;
mod hostile_cache;
mod hostile_server;
mod hostile_store;
mod jobserver;
mod layering;
mod lsp;
mod msrv;
mod parallel_output;
mod readme;
mod remote_cache;
mod remote_execution;
mod robustness;
mod shared_cache;
mod standalone;
mod supervisor;
mod terminal;
mod terminal_color;
mod up_to_date;
mod watch;
mod windows;

fn main() {
  default_interrupt_signals();
  let arguments = libtest_mimic::Arguments::from_args();
  let mode = match cases::Mode::from_environment() {
    Ok(mode) => mode,
    Err(message) => {
      eprintln!("error: {message}");
      std::process::exit(2);
    }
  };
  let mut trials = cases::trials(&mode);
  if cases::windows() {
    // The Windows cases and tests: the other hand-written tests drive a
    // native binary.
    trials.extend(windows::tests());
    libtest_mimic::run(&arguments, harness::reject_duplicate_names(trials)).exit();
  }
  for module_tests in [
    argument_completion::tests,
    bash_completion::tests,
    cached_lines::tests,
    changelog::tests,
    cheatsheet::tests,
    cli::tests,
    compat::tests,
    dist::tests,
    execution::tests,
    format::tests,
    functions::tests,
    graph::tests,
    help_facts::tests,
    hostile_cache::tests,
    hostile_server::tests,
    hostile_store::tests,
    jobserver::tests,
    layering::tests,
    lsp::tests,
    msrv::tests,
    parallel_output::tests,
    remote_cache::tests,
    remote_execution::tests,
    robustness::tests,
    shared_cache::tests,
    supervisor::tests,
    terminal::tests,
    terminal_color::tests,
    up_to_date::tests,
    watch::tests,
  ] {
    trials.extend(module_tests());
  }
  trials.extend(standalone::tests());
  trials.extend(readme::tests());
  let conclusion = libtest_mimic::run(&arguments, harness::reject_duplicate_names(trials));
  remote_cache::stop_server();
  conclusion.exit();
}

/// The tests that send signals expect the processes they start (a shell on
/// a pseudo-terminal, `just`, `make`) to take SIGHUP, SIGINT and SIGQUIT as
/// usual; a suite started in the background of a script (`cmd &`, `nohup`)
/// would pass them on ignored, as a shell starts background jobs.
fn default_interrupt_signals() {
  #[cfg(unix)]
  for signal in [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT] {
    // SAFETY: restores a default disposition before any thread starts.
    unsafe { libc::signal(signal, libc::SIG_DFL) };
  }
}
