//! Loading: reading the root file, then locating, reading, lexing and parsing
//! every import and module file. Texts go into the caller's `Sources` arena
//! and parse trees into its `Trees` arena, which the model borrows from.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use lexiclean::Lexiclean;

use super::compile_error::{CompileError, CompileErrorKind, LoadError};
use super::error::AnalysisErrorKind;
use crate::options::Override;
use crate::syntax::ast::{Ast, Item, StringLiteral};
use crate::syntax::parser;
use crate::syntax::sources::Sources;
use crate::syntax::token::Token;
use crate::syntax::trees::Trees;

pub(crate) struct LoadRequest<'a> {
  /// Absolute path of the root justfile.
  pub justfile: &'a Path,
  /// Text to use instead of reading the file (stdin / markdown).
  pub source: Option<String>,
  /// Base directory of the root module.
  pub working_directory: &'a Path,
  /// Overridden variables are const and never evaluated.
  pub overrides: &'a [Override],
  /// `--unstable` / `JUST_UNSTABLE`.
  pub unstable: bool,
}

/// One parsed file of a module: its own file or an import.
pub(crate) struct LoadedFile<'src> {
  pub path: PathBuf,
  pub ast: &'src Ast<'src>,
  /// 0 for the module's own file, +1 per import level.
  pub depth: usize,
  /// (file index, item index) of the `import` that loaded this file; `None`
  /// for the module's own file.
  importer: Option<(usize, usize)>,
  /// Order number (see `item_order`) of the `import` that loaded this file:
  /// 0 for the module's own file. Files in this order put each file before
  /// the files it imports, and sibling imports in the order they are written.
  pub position: usize,
  /// How many items the file stands for: its own and, transitively, those
  /// of the files it imports.
  expanded: usize,
}

/// What a `mod` item resolved to.
#[derive(Copy, Clone, Debug)]
pub(crate) enum ModuleTarget {
  Loaded(usize),
  Absent,
}

pub(crate) struct LoadedModule<'src> {
  /// The module's own file first, then imports in processing order.
  pub files: Vec<LoadedFile<'src>>,
  /// (file index, item index) of a `mod` item → its module.
  pub submodules: HashMap<(usize, usize), ModuleTarget>,
  /// Absolute paths of every file of this module loaded so far (each is
  /// loaded once).
  paths: HashSet<PathBuf>,
}

pub(crate) struct Loaded<'src> {
  /// Index 0 is the root module.
  pub modules: Vec<LoadedModule<'src>>,
}

/// The depth-first walk over files. `Leave` is pushed under a file's
/// imports and modules, so it pops once they are all done: the set of
/// entered-but-not-left files is the import/module chain of the file being
/// processed, checked for cycles in O(1) per import.
enum Step {
  Enter(Work),
  Leave(PathBuf),
}

struct Work {
  module: usize,
  path: PathBuf,
  depth: usize,
  importer: Option<(usize, usize)>,
  is_root: bool,
}

/// Texts that stand in for files on disk, by absolute path: an editor's
/// unsaved documents (the language server). Plain data, so the loader knows
/// nothing of who provides them.
pub(crate) type Overlays = HashMap<PathBuf, String>;

/// Where loading puts what it reads: texts and parse trees.
#[derive(Copy, Clone)]
pub(crate) struct Arenas<'src> {
  pub sources: &'src Sources,
  pub trees: &'src Trees<'src>,
}

pub(crate) fn load<'src>(
  request: &LoadRequest,
  arenas: Arenas<'src>,
) -> Result<Loaded<'src>, LoadError<'src>> {
  load_overlaid(request, &Overlays::new(), arenas)
}

/// `load`, reading the files `overlays` has from there instead of the disk.
pub(crate) fn load_overlaid<'src>(
  request: &LoadRequest,
  overlays: &Overlays,
  arenas: Arenas<'src>,
) -> Result<Loaded<'src>, LoadError<'src>> {
  let root = request.justfile.lexiclean();
  let root_directory = root.parent().map(Path::to_path_buf).unwrap_or_default();
  let mut loader = Loader {
    arenas,
    root_directory,
    modules: Vec::new(),
    root_source: request.source.clone(),
    chain: HashSet::new(),
    overlays,
  };
  loader.modules.push(LoadedModule::new());
  let mut stack =
    vec![Step::Enter(Work { module: 0, path: root, depth: 0, importer: None, is_root: true })];
  parser::on_parser_stack(|| {
    while let Some(step) = stack.pop() {
      match step {
        Step::Enter(work) => loader.process(work, &mut stack)?,
        Step::Leave(path) => {
          loader.chain.remove(&path);
        }
      }
    }
    Ok::<(), LoadError<'src>>(())
  })?;
  for module in &mut loader.modules {
    number_files(&mut module.files);
  }
  Ok(Loaded { modules: loader.modules })
}

/// Give every file its size and position (see `LoadedFile`). A file comes
/// after the file that imports it, so sizes add up from the last file and
/// positions are set from the first.
fn number_files(files: &mut [LoadedFile]) {
  for file in (0..files.len()).rev() {
    files[file].expanded += files[file].ast.items.len();
    if let Some((importer, _)) = files[file].importer {
      files[importer].expanded += files[file].expanded;
    }
  }
  let mut imports: Vec<(usize, usize, usize)> = (0..)
    .zip(&*files)
    .filter_map(|(file, loaded)| loaded.importer.map(|(importer, item)| (importer, item, file)))
    .collect();
  imports.sort_unstable();
  // The items of the importer's earlier imports come between it and a file.
  let mut before = 0;
  for (position, &(importer, item, file)) in imports.iter().enumerate() {
    if position == 0 || imports[position - 1].0 != importer {
      before = 0;
    }
    files[file].position = files[importer].position + 1 + item + before;
    before += files[file].expanded;
  }
}

/// The order number of item `index` of file `file` of a module: its place
/// when every import is expanded where it is written. Numbers start at 1.
pub(crate) fn item_order(files: &[LoadedFile], file: usize, index: usize) -> usize {
  let imported_before: usize = files
    .iter()
    .filter(|loaded| {
      loaded.importer.is_some_and(|(importer, item)| importer == file && item < index)
    })
    .map(|loaded| loaded.expanded)
    .sum();
  let position = files.get(file).map_or(0, |loaded| loaded.position);
  position + 1 + index + imported_before
}

impl LoadedModule<'_> {
  fn new() -> Self {
    LoadedModule { files: Vec::new(), submodules: HashMap::new(), paths: HashSet::new() }
  }
}

struct Loader<'src, 'o> {
  arenas: Arenas<'src>,
  overlays: &'o Overlays,
  root_directory: PathBuf,
  modules: Vec<LoadedModule<'src>>,
  root_source: Option<String>,
  /// Paths of the files on the current import/module chain.
  chain: HashSet<PathBuf>,
}

impl<'src> Loader<'src, '_> {
  fn process(&mut self, work: Work, stack: &mut Vec<Step>) -> Result<(), LoadError<'src>> {
    // A file imported twice is loaded once, where the walk reaches it first.
    if !self.modules[work.module].paths.insert(work.path.clone()) {
      return Ok(());
    }
    let text = match (work.is_root, self.root_source.take()) {
      (true, Some(text)) => text,
      _ => match self.overlays.get(&work.path) {
        Some(text) => text.clone(),
        None => read(&work.path)?,
      },
    };
    let source = self.arenas.sources.add(text, self.display_path(&work.path));
    let ast = parser::parse_source(source, self.arenas.trees).map_err(CompileError::from)?;
    let ast: &'src Ast<'src> = self.arenas.trees.add(ast);

    let file_index = self.modules[work.module].files.len();
    let directory = work.path.parent().map(Path::to_path_buf).unwrap_or_default();
    self.chain.insert(work.path.clone());
    stack.push(Step::Leave(work.path.clone()));

    for (item_index, item) in ast.items.iter().enumerate() {
      match item {
        Item::Import(import) if super::effects::enabled(&import.attributes) => {
          let Some(path) = locate_import(&directory, &import.path, import.optional)? else {
            continue;
          };
          if self.chain.contains(&path) {
            return Err(LoadError::CircularImport { import: path, current: work.path.clone() });
          }
          // Claimed when processed, not here: of two imports of one file,
          // the one processed first (the walk is last in, first out) loads it.
          if !self.modules[work.module].paths.contains(&path) {
            stack.push(Step::Enter(Work {
              module: work.module,
              path,
              depth: work.depth + 1,
              importer: Some((file_index, item_index)),
              is_root: false,
            }));
          }
        }
        Item::Module(module) if super::effects::enabled(&module.attributes) => {
          let found =
            locate_module(&directory, module.name, module.path.as_ref(), module.optional)?;
          let target = match found {
            None => ModuleTarget::Absent,
            Some(path) => {
              if self.chain.contains(&path) {
                return Err(LoadError::CircularImport { import: path, current: work.path.clone() });
              }
              let index = self.modules.len();
              self.modules.push(LoadedModule::new());
              stack.push(Step::Enter(Work {
                module: index,
                path,
                depth: 0,
                importer: None,
                is_root: false,
              }));
              ModuleTarget::Loaded(index)
            }
          };
          self.modules[work.module].submodules.insert((file_index, item_index), target);
        }
        _ => {}
      }
    }

    self.modules[work.module].files.push(LoadedFile {
      path: work.path,
      ast,
      depth: work.depth,
      importer: work.importer,
      position: 0,
      expanded: 0,
    });
    Ok(())
  }

  /// Relative to the root justfile's directory, absolute when outside it.
  fn display_path(&self, path: &Path) -> PathBuf {
    match path.strip_prefix(&self.root_directory) {
      Ok(relative) if !relative.as_os_str().is_empty() => relative.to_path_buf(),
      _ => path.to_path_buf(),
    }
  }
}

fn read(path: &Path) -> Result<String, LoadError<'static>> {
  std::fs::read_to_string(path)
    .map_err(|error| LoadError::Read { path: path.to_path_buf(), message: error.to_string() })
}

fn analysis_error<'src>(token: Token<'src>, kind: AnalysisErrorKind<'src>) -> CompileError<'src> {
  CompileError::new(token, CompileErrorKind::Analysis(kind))
}

/// `~/…` is the home directory; otherwise relative to `directory`.
fn expand_path(directory: &Path, written: &str) -> PathBuf {
  let home =
    written.strip_prefix("~/").and_then(|rest| dirs::home_dir().map(|home| home.join(rest)));
  home.unwrap_or_else(|| directory.join(written)).lexiclean()
}

/// What is at an `import` or `mod` path, following links.
enum Found {
  File,
  /// A directory, a device …
  Other,
  Nothing,
}

/// Whether `path` names a file: nothing there (or a dangling link) is
/// `Nothing`, any other failure (a link loop, a file where a directory
/// should be) is an error naming the path.
fn probe(path: &Path) -> Result<Found, LoadError<'static>> {
  match std::fs::metadata(path) {
    Ok(metadata) if metadata.is_file() => Ok(Found::File),
    Ok(_) => Ok(Found::Other),
    Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Found::Nothing),
    Err(error) => Err(LoadError::Io { path: path.to_path_buf(), message: error.to_string() }),
  }
}

/// Whether there is a directory entry at `path`, whatever it is or links
/// to: reading it says what is wrong with it.
fn has_entry(path: &Path) -> bool {
  std::fs::symlink_metadata(path).is_ok()
}

fn locate_import<'src>(
  directory: &Path,
  literal: &StringLiteral<'src>,
  optional: bool,
) -> Result<Option<PathBuf>, LoadError<'src>> {
  let path = expand_path(directory, literal.cooked);
  match probe(&path)? {
    Found::File => Ok(Some(path)),
    Found::Other | Found::Nothing if optional => Ok(None),
    Found::Other | Found::Nothing => {
      Err(analysis_error(literal.token, AnalysisErrorKind::ImportNotFound).into())
    }
  }
}

fn locate_module<'src>(
  directory: &Path,
  name: Token<'src>,
  path: Option<&StringLiteral<'src>>,
  optional: bool,
) -> Result<Option<PathBuf>, LoadError<'src>> {
  let candidates = if let Some(literal) = path {
    let base = expand_path(directory, literal.cooked);
    if let Found::File = probe(&base)? {
      vec![base]
    } else {
      directory_candidates(&base)
    }
  } else {
    let mut found: Vec<PathBuf> = Vec::new();
    // A directory or a dangling link in a candidate's place counts:
    // reading it fails later.
    let file = directory.join(format!("{}.just", name.lexeme()));
    if has_entry(&file) {
      found.push(file);
    }
    found.extend(directory_candidates(&directory.join(name.lexeme())));
    found
  };
  match candidates.len() {
    0 if optional => Ok(None),
    0 => {
      Err(analysis_error(name, AnalysisErrorKind::ModuleNotFound { module: name.lexeme() }).into())
    }
    1 => Ok(candidates.into_iter().next()),
    _ => {
      let mut relative: Vec<PathBuf> = candidates
        .iter()
        .map(|candidate| candidate.strip_prefix(directory).unwrap_or(candidate).to_path_buf())
        .collect();
      relative.sort();
      let found = relative.iter().map(|path| path.display().to_string()).collect();
      Err(
        analysis_error(
          name,
          AnalysisErrorKind::AmbiguousModuleFile { module: name.lexeme(), found },
        )
        .into(),
      )
    }
  }
}

/// `DIR/mod.just` (exact case), `DIR/justfile` and `DIR/.justfile` (any case);
/// directories and dangling links in their place count too.
fn directory_candidates(directory: &Path) -> Vec<PathBuf> {
  let mut found = Vec::new();
  let module_file = directory.join("mod.just");
  if has_entry(&module_file) {
    found.push(module_file);
  }
  let Ok(entries) = std::fs::read_dir(directory) else {
    return found;
  };
  let mut named: Vec<PathBuf> = entries
    .filter_map(Result::ok)
    .filter(|entry| {
      entry.file_name().to_str().is_some_and(|name| {
        let lower = name.to_ascii_lowercase();
        lower == "justfile" || lower == ".justfile"
      })
    })
    .map(|entry| entry.path())
    .collect();
  named.sort();
  found.extend(named);
  found
}
