//! The top-level driver: parse the command line, dispatch the subcommand,
//! print errors, return the exit status.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::config::{Config, ConfigError, DumpFormat, Subcommand};
use crate::analysis::analyzer::Arenas;
use crate::analysis::model::{Justfile, Recipe};
use crate::builtins::value::Value;
use crate::cli::error::{Error, Report};
use crate::cli::flags::{self, running::DEFAULT_CHOOSER};
use crate::cli::invocation;
use crate::cli::print::{
  eprint, eprint_line, print, print_list, print_or, print_streamed, stdout_painter, write_error,
  Outcome, Result, STDOUT_FAILED,
};
use crate::cli::recipes::{context, help_for_path, load, run_invocations, RunRequest};
use crate::color::{Painter, Stream};
use crate::evaluation::evaluator::{Evaluator, RunContext, Site};
use crate::evaluation::prepare::{prepare, Demand, Demanded, Eagerness};
use crate::execution::error::ExecutionError;
use crate::execution::run::Run;
use crate::platform::exit::Exit;
use crate::platform::signals;
use crate::platform::stdio;
use crate::platform::supervisor::SpawnError;
use crate::search::{self, Search};
use crate::syntax::sources::Sources;
use crate::syntax::trees::Trees;

pub(crate) fn main() -> i32 {
  super::completions::complete_env();
  let config = match Config::from_args(crate::platform::take_arguments()) {
    Ok(config) => config,
    Err(ConfigError::Clap { source }) => {
      let stream = if source.use_stderr() { "error" } else { "output" };
      return match stdio::quiet_on_broken_pipe(source.print()) {
        Ok(()) => source.exit_code(),
        Err(error) => {
          let _ = stdio::stderr(&format!("error: failed to write to standard {stream}: {error}\n"));
          1
        }
      };
    }
    Err(error) => {
      let painter = Painter::new(crate::color::UseColor::Auto, Stream::Stderr);
      // Nowhere is left to report a failure to print an error; the status says it.
      let _ = stdio::stderr(&Error::message(error.to_string()).render(&painter));
      return error.exit_code();
    }
  };
  if config.subcommand == Subcommand::Lsp {
    install_signals();
    return super::language_server::serve();
  }
  // `--request signal` waits for signals itself.
  let result = if matches!(config.subcommand, Subcommand::Request { .. }) {
    Ok(())
  } else {
    install_signals();
    warn_non_unicode(&config, "invocation directory", &config.invocation_directory)
  };
  // The texts and parse trees of every justfile loaded, which errors point into.
  // The process exits after this run: freeing them would only cost time.
  let sources = std::mem::ManuallyDrop::new(Sources::new());
  let trees = std::mem::ManuallyDrop::new(Trees::new());
  let arenas = Arenas { sources: &sources, trees: &trees };
  let status = match result.and_then(|()| dispatch(&config, arenas)) {
    Ok(()) => 0,
    Err(error) if config.up_to_date => up_to_date_answer(&config, &error),
    Err(error) => {
      crate::platform::signals::settle_before_reporting();
      if !config.quiet {
        let painter = Painter::new(config.color, Stream::Stderr);
        // Nowhere is left to report a failure to print an error; the status says it.
        let _ = stdio::stderr(&error.render(&painter));
      }
      error.status()
    }
  };
  status
}

/// `--up-to-date`'s status for a run that did not end with "yes": 1 and
/// the recipe that would run, as a plain line; 2 and the error otherwise.
fn up_to_date_answer(config: &Config, error: &Error<'_>) -> i32 {
  let would_run =
    matches!(error, Error::Execution(error) if matches!(**error, ExecutionError::WouldRun { .. }));
  if !config.quiet {
    crate::platform::signals::settle_before_reporting();
    // Nowhere is left to report a failure to print; the status says it.
    let _ = if would_run {
      stdio::stderr(&format!("{}\n", error.report().message))
    } else {
      stdio::stderr(&error.render(&Painter::new(config.color, Stream::Stderr)))
    };
  }
  if would_run {
    1
  } else {
    2
  }
}

/// Start taking signals. Without the signal thread they stay blocked, so
/// failing to start it is fatal.
fn install_signals() {
  if let Err(error) = signals::install() {
    let _ = stdio::stderr(&format!("error: failed to handle signals: {error}\n"));
    std::process::exit(1);
  }
}

/// The reference's warning for a path that is not valid UTF-8.
fn warn_non_unicode(config: &Config, what: &str, path: &Path) -> Result {
  if path.to_str().is_some() {
    return Ok(());
  }
  let painter = Painter::new(config.color, Stream::Stderr);
  let text = format!(
    "The {what} path `{}` is not Unicode. Just is considering phasing-out support for \
     non-Unicode paths. If you see this warning, please leave a comment on \
     https://github.com/casey/just/issues/3229. Thank you!",
    path.display()
  );
  eprint_line(&painter.paint(nu_ansi_term::Color::Yellow.bold(), &text))
}

/// The recipes `--tree`/`--graph` start from: the named ones, in every
/// spelling running takes (`api serve`, `api::serve`, recipes with their
/// arguments), else module paths; without names, the root recipes.
fn dependency_view_recipes<'a, 'src>(
  config: &Config,
  justfile: &'a Justfile<'src>,
  paths: &[String],
  all: bool,
) -> Outcome<'src, Vec<&'a Recipe<'src>>> {
  if !paths.is_empty() {
    if let Ok(invocations) = invocation::parse_invocations(justfile, paths, &config.options) {
      return Ok(invocations.into_iter().map(|invocation| invocation.recipe).collect());
    }
  }
  Ok(crate::output::tree::selected_recipes(justfile, paths, all, config.unsorted)?)
}

fn dispatch<'src>(config: &Config, arenas: Arenas<'src>) -> Outcome<'src> {
  match &config.subcommand {
    Subcommand::Changelog => print(super::man::changelog())?,
    Subcommand::Cheatsheet => {
      let painter = Painter::new(config.color, Stream::Stdout);
      let text = crate::output::cheatsheet::cheatsheet(painter);
      super::pager::page(&text).map_err(|error| write_error(STDOUT_FAILED, error))?;
    }
    Subcommand::Completions { shell } => print(super::completions::completions(*shell))?,
    // The reference's own message for this one.
    Subcommand::Man => print_or(&super::man::man(), "I/O error writing to stdout")?,
    Subcommand::Init => {
      let message = super::init::init(config)?;
      if !config.quiet {
        eprint_line(&message)?;
      }
    }
    Subcommand::Edit => super::edit::edit(config)?,
    Subcommand::Request { json } => request(json)?,
    Subcommand::Format => format(config, arenas)?,
    // Started before dispatching.
    Subcommand::Lsp => {}
    Subcommand::Run { .. }
    | Subcommand::Choose
    | Subcommand::Clean { .. }
    | Subcommand::Command { .. }
    | Subcommand::Dump
    | Subcommand::Evaluate { .. }
    | Subcommand::Groups
    | Subcommand::List { .. }
    | Subcommand::Show { .. }
    | Subcommand::Summary
    | Subcommand::Usage { .. }
    | Subcommand::Variables
    | Subcommand::Help { .. }
    | Subcommand::Tree { .. }
    | Subcommand::Graph { .. } => {
      let search = search::find(config)?;
      warn_non_unicode(config, "justfile", &search.justfile)?;
      if let (Some(watch), Subcommand::Run { arguments }) = (&config.watch, &config.subcommand) {
        return super::watch::watch(config, watch, search, arguments);
      }
      compiled(config, search, arenas)?;
    }
  }
  Ok(())
}

/// A `--request`, parsed like the reference.
#[derive(serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Request {
  EnvironmentVariable(String),
  Signal,
}

fn request(json: &str) -> Result {
  let request: Request = serde_json::from_str(json)
    .map_err(|error| Error::message(format!("failed to parse request: {error}")))?;
  let response = match request {
    Request::EnvironmentVariable(name) => match std::env::var_os(name) {
      Some(value) => serde_json::json!({
        "environment-variable": crate::platform::fs::os_string_json(&value)
      }),
      None => serde_json::json!({"environment-variable": null}),
    },
    Request::Signal => serde_json::json!({"signal": wait_for_signal()?}),
  };
  print(&response.to_string())
}

/// Block every signal, wait for one and return its name.
fn wait_for_signal() -> Result<String> {
  let signal = signals::wait_for_any()
    .map_err(|error| Error::message(format!("failed to wait for a signal: {error}")))?;
  Ok(match signals::Signal(signal).known_name() {
    Some(name) => name.to_owned(),
    None => format!("SIG{signal}"),
  })
}

fn compiled<'src>(config: &Config, search: Search, arenas: Arenas<'src>) -> Outcome<'src> {
  let unstable = config.unstable || matches!(config.subcommand, Subcommand::Summary);
  let justfile = load(config, &search, unstable, arenas)?;
  let color = stdout_painter(config).active;
  // Every process of a run (recipes, backticks, commands) is its
  // supervisor's child.
  let new_run = || Run::new(config.verbosity >= 1, None);
  if let Subcommand::Run { arguments } = &config.subcommand {
    let run = new_run();
    let request = RunRequest { config, arguments, arenas, run: &run, keep_model: true };
    return super::recipes::run(&request, search, justfile);
  }
  match &config.subcommand {
    Subcommand::Dump => dump(config, &justfile)?,
    Subcommand::Summary => summary(config, &justfile)?,
    Subcommand::Groups => print(&crate::output::groups::groups(&justfile, config))?,
    Subcommand::Variables => print(&crate::output::variables::variables(&justfile))?,
    Subcommand::List { path } => print_list(config, &justfile, path, color)?,
    Subcommand::Usage { path } | Subcommand::Show { path }
      if crate::output::usage::path_components(path).is_empty() =>
    {
      let flag = if matches!(config.subcommand, Subcommand::Show { .. }) {
        flags::inspect::SHOW.long
      } else {
        flags::inspect::USAGE.long
      };
      return Err(Error::message(format!("`--{flag}` requires recipe")));
    }
    Subcommand::Usage { path } => {
      print(&crate::output::usage::usage_for_path(&justfile, path, color)?)?;
    }
    Subcommand::Show { path } => show(config, &justfile, path, color)?,
    Subcommand::Evaluate { path } => {
      let run = new_run();
      let context = context(config, &search, &justfile, &run.supervisor);
      evaluate(&context, &justfile, path.as_deref(), color)?;
    }
    Subcommand::Command { binary, arguments } => {
      let run = new_run();
      command(&context(config, &search, &justfile, &run.supervisor), binary, arguments)?;
    }
    Subcommand::Choose => choose(config, &search, &justfile, &new_run())?,
    Subcommand::Help { path } => help_for_path(config, &justfile, path)?,
    Subcommand::Tree { paths, all } => {
      let selected = dependency_view_recipes(config, &justfile, paths, *all)?;
      print_streamed(STDOUT_FAILED, |out| {
        crate::output::tree::write_tree(out, &justfile, &selected, color);
        Ok(())
      })?;
    }
    Subcommand::Graph { paths, all, format } => {
      let selected = dependency_view_recipes(config, &justfile, paths, *all)?;
      print_streamed(STDOUT_FAILED, |out| {
        crate::output::graph::write_graph(out, &justfile, &selected, *format);
        Ok(())
      })?;
    }
    Subcommand::Clean { paths } => clean(config, &search, paths)?,
    // Run above; the others before compiling (`dispatch`).
    Subcommand::Run { .. }
    | Subcommand::Changelog
    | Subcommand::Cheatsheet
    | Subcommand::Lsp
    | Subcommand::Completions { .. }
    | Subcommand::Edit
    | Subcommand::Format
    | Subcommand::Init
    | Subcommand::Man
    | Subcommand::Request { .. } => {}
  }
  // The process is about to exit: tearing the tree down would only cost time.
  std::mem::forget(justfile);
  Ok(())
}

fn summary<'src>(config: &Config, justfile: &Justfile<'src>) -> Outcome<'src> {
  print(&crate::output::summary::summary(justfile, config.unsorted))?;
  if crate::output::summary::summary_is_empty(justfile) && !config.quiet {
    eprint_line("justfile contains no recipes")?;
  }
  Ok(())
}

/// `--clean`: the local cache, and the `--cache-dir` store if one is named.
fn clean<'src>(config: &Config, search: &Search, paths: &[String]) -> Outcome<'src> {
  let directory = search.justfile.parent().unwrap_or(Path::new("/"));
  let mut messages =
    vec![crate::execution::cache::clean(directory, paths).map_err(Error::message)?];
  if let Some(store) = crate::execution::cache::shared_directory(config) {
    messages.push(crate::execution::cache::clean_shared(&store, paths).map_err(Error::message)?);
  }
  if !config.quiet {
    for message in messages {
      eprint_line(&message)?;
    }
  }
  Ok(())
}

fn dump<'src>(config: &Config, justfile: &Justfile<'src>) -> Outcome<'src> {
  match config.dump_format {
    // The reference's own message for this one.
    DumpFormat::Json => print_streamed("failed to dump JSON to stdout", |out| {
      crate::output::json::write_json(out, justfile);
      Ok(())
    }),
    DumpFormat::Just => {
      let indentation = config
        .indentation
        .clone()
        .or_else(|| justfile.root.settings.indentation.clone())
        .unwrap_or_else(|| "    ".into());
      print_streamed(STDOUT_FAILED, |out| {
        crate::output::format::write_justfile(out, justfile.root.ast, &indentation);
        Ok(())
      })
    }
  }
}

fn show(config: &Config, justfile: &Justfile, path: &[String], color: bool) -> Result {
  let resolved = crate::output::usage::resolve_recipe_path(justfile, path)?;
  let indentation = config.indentation.clone().unwrap_or_else(|| "    ".into());
  let target = resolved.recipe.namepath.to_string();
  print(&crate::output::format::show_recipe(
    resolved.recipe,
    resolved.alias,
    &target,
    &indentation,
    color,
  ))
}

fn format<'src>(config: &Config, arenas: Arenas<'src>) -> Outcome<'src> {
  let search = search::find(config)?;
  warn_non_unicode(config, "justfile", &search.justfile)?;
  let source = match &search.source {
    Some(source) => source.clone(),
    None => std::fs::read_to_string(&search.justfile).map_err(|error| {
      Error::message(format!("failed to read justfile at `{}`: {error}", search.justfile.display()))
    })?,
  };
  let print_only = search.source.is_some();
  let source = arenas.sources.add(source, display_for_format(&search.justfile));
  let ast = crate::syntax::parser::parse_source(source, arenas.trees)
    .map_err(crate::analysis::compile_error::CompileError::from)?;
  let indentation = config
    .indentation
    .clone()
    .or_else(|| crate::output::format::indentation_setting(&ast))
    .unwrap_or_else(|| "    ".into());
  let request = crate::output::format::FormatRequest {
    source: &source.text,
    path: &search.justfile,
    print_only,
    check: config.check,
    quiet: config.quiet,
    stdout: stdout_painter(config),
    stderr: Painter::new(config.color, Stream::Stderr),
    indentation: &indentation,
  };
  let outcome = crate::output::format::run_format(&request, &ast);
  print(&outcome.stdout)?;
  eprint(&outcome.stderr)?;
  if outcome.status != 0 {
    return Err(Error::Other(Box::new(Report {
      status: outcome.status,
      silent: true,
      ..Report::default()
    })));
  }
  Ok(())
}

/// `--fmt` names the file `DIR/NAME` in error locations.
fn display_for_format(justfile: &Path) -> PathBuf {
  let name = justfile.file_name().map(PathBuf::from).unwrap_or_default();
  match justfile.parent().and_then(Path::file_name) {
    Some(directory) => Path::new(directory).join(name),
    None => name,
  }
}

fn evaluate<'src>(
  context: &RunContext<'_, 'src>,
  justfile: &Justfile<'src>,
  path: Option<&str>,
  color: bool,
) -> Outcome<'src> {
  use crate::output::evaluate::{evaluate_listing, resolve_evaluate_path, EvaluateTarget};
  let config = context.config;
  let target = resolve_evaluate_path(&justfile.root, path)?;
  let mut demand = Demand::new();
  match &target {
    EvaluateTarget::Variable { module, index } => {
      demand.insert(module.id, Demanded::Assignments([*index].into()));
    }
    EvaluateTarget::Module { module } => {
      demand.insert(module.id, Demanded::Public);
    }
  }
  let states = prepare(context, Eagerness::Lazy, &demand)?;
  match target {
    EvaluateTarget::Variable { module, index } => {
      // `prepare` gives every module a state.
      let Some(state) = states.get(module.id) else { return Ok(()) };
      let evaluator = Evaluator::new(context, state, None, Site::Assignment);
      let value = evaluator.assignment_value(index)?;
      print(&crate::output::evaluate::evaluate_variable(&value))?;
    }
    EvaluateTarget::Module { module } => {
      let Some(state) = states.get(module.id) else { return Ok(()) };
      let evaluator = Evaluator::new(context, state, None, Site::Assignment);
      let listed = crate::output::variables::public_assignment_indices(module);
      for &index in &listed {
        evaluator.visit(index)?;
      }
      let evaluated = state.values.all();
      let values: Vec<(usize, &Value)> =
        listed.iter().filter_map(|&index| Some((index, evaluated.get(index)?.as_ref()?))).collect();
      print(&evaluate_listing(module, &values, config.evaluate_format, color))?;
    }
  }
  Ok(())
}

fn command<'src>(
  context: &RunContext<'_, 'src>,
  binary: &str,
  arguments: &[String],
) -> Outcome<'src> {
  let config = context.config;
  let states = prepare(context, Eagerness::Lazy, &Demand::new())?;
  let Some(state) = states.get(0) else { return Ok(()) };
  let evaluator = Evaluator::new(context, state, None, Site::Body);
  let mut process = if config.shell_command {
    let mut process = std::process::Command::new(&state.shell.0);
    process.args(&state.shell.1).arg(binary).args(arguments);
    process
  } else {
    let mut process = std::process::Command::new(binary);
    process.args(arguments);
    process
  };
  process.current_dir(&context.working_directory);
  evaluator.apply_environment(&mut process);
  let words: Vec<String> = std::iter::once(binary)
    .chain(arguments.iter().map(String::as_str))
    .map(|w| format!("`{w}`"))
    .collect();
  let status = match context.supervisor.run(&mut process) {
    Ok(status) => status,
    Err(SpawnError::Interrupted { signal }) => return Err(interrupted(signal)),
    Err(SpawnError::Io(error)) => {
      return Err(Error::message(format!("failed to invoke {}: {error}", words.join(" "))))
    }
  };
  if !status.success() {
    return Err(Error::Other(Box::new(Report {
      message: format!("command {} failed: {status}", words.join(" ")),
      status: Exit::of(status).status(),
      ..Report::default()
    })));
  }
  Ok(())
}

/// A process not started because the run is being interrupted: `just`
/// exits as the signal would have ended it.
fn interrupted(signal: i32) -> Error<'static> {
  let status = crate::platform::exit::signal_status(signal);
  Error::Other(Box::new(Report { status, silent: true, ..Report::default() }))
}

fn choose<'src>(
  config: &Config,
  search: &Search,
  justfile: &Justfile<'src>,
  run: &Run,
) -> Outcome<'src> {
  let supervisor = &run.supervisor;
  let mut candidates = Vec::new();
  choosable(config, &justfile.root, &mut candidates);
  if candidates.is_empty() {
    return Err(Error::message("justfile contains no choosable recipes"));
  }
  let chooser = config.chooser.clone().unwrap_or_else(|| {
    format!(
      "{DEFAULT_CHOOSER} --multi --preview 'just --unstable --color always --justfile \"{}\" --show {{}}'",
      search.justfile.display()
    )
    .into()
  });
  let (shell, arguments) = crate::evaluation::shell::module_shell(config, &justfile.root.settings);
  // As a recipe line is: on Windows, cmd gets the chooser's text as it is,
  // its quotes unescaped. (Text that is not Unicode is passed as it is.)
  let mut process = if let Some(text) = chooser.to_str() {
    crate::platform::command::shell_line(&shell, &arguments, text)
  } else {
    let mut process = std::process::Command::new(&shell);
    process.args(&arguments).arg(&chooser);
    process
  };
  process
    .current_dir(&search.working_directory)
    .stdin(std::process::Stdio::piped())
    .stdout(std::process::Stdio::piped());
  let spawn_error = |error: std::io::Error| {
    let mut words = vec![shell.clone()];
    words.extend(arguments.iter().cloned());
    words.push(chooser.to_string_lossy().into_owned());
    Error::message(format!("chooser `{}` invocation failed: {error}", words.join(" ")))
  };
  let mut running = match supervisor.spawn(&mut process) {
    Ok(running) => running,
    Err(SpawnError::Interrupted { signal }) => return Err(interrupted(signal)),
    Err(SpawnError::Io(error)) => return Err(spawn_error(error)),
  };
  if let Some(mut stdin) = running.take_stdin() {
    let text: String = candidates.iter().map(|candidate| format!("{candidate}\n")).collect();
    // A chooser that exits without reading everything is no error.
    let _ = stdin.write_all(text.as_bytes());
  }
  let mut chosen = Vec::new();
  if let Some(mut stdout) = running.take_stdout() {
    std::io::Read::read_to_end(&mut stdout, &mut chosen).map_err(spawn_error)?;
  }
  let status = running.wait().map_err(spawn_error)?;
  if !status.success() {
    if Exit::of(status) == Exit::Code(130) {
      return Ok(());
    }
    return Err(Error::Other(Box::new(Report {
      message: format!("chooser `{}` failed: {}", chooser.to_string_lossy(), status),
      status: Exit::of(status).status(),
      ..Report::default()
    })));
  }
  let stdout = String::from_utf8_lossy(&chosen);
  for line in stdout.lines() {
    let arguments: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    let invocations = invocation::parse_invocations(justfile, &arguments, config)?;
    let context = context(config, search, justfile, supervisor);
    run_invocations(&context, run, justfile, invocations)?;
  }
  Ok(())
}

/// Public recipes needing no arguments, root first then submodules depth-first.
fn choosable(config: &Config, module: &crate::analysis::model::Module, out: &mut Vec<String>) {
  for recipe in crate::output::list::listed_recipes(module, config.unsorted) {
    let in_group = config.groups.is_empty()
      || recipe.groups().iter().any(|group| config.groups.iter().any(|wanted| wanted == group));
    if recipe.min_arguments() == 0 && in_group {
      out.push(recipe.namepath.replace("::", " "));
    }
  }
  for (_, submodule) in crate::output::list::listed_submodules(module, config.unsorted) {
    choosable(config, submodule, out);
  }
}
