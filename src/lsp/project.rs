//! The files `just` loads together with a document, as its loader finds
//! them (the editor's unsaved texts first): grouped by module, each module
//! with its submodules by name. Names are resolved in it across files: a
//! recipe of an import used in the root, `mod::recipe` paths, a variable of
//! the root read in an import. Nothing outside what the loader loads is read.
//! Kept until the documents change (`Documents::project`).
//!
//! The server's loading lives here too, for every feature to use: which
//! justfiles may load a document (`candidate_roots`), and compiling a root
//! with the editor's texts, the overlays (`compile_root`, `with_justfile`,
//! `error_after_edits`). Diagnostics only judge what it compiled.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lexiclean::Lexiclean;

use super::occurrences::{self, Occurrence, Role};
use super::positions::Lines;
use crate::analysis::analyzer::{compile_overlaid, Arenas, LoadError, LoadRequest};
use crate::analysis::loader::{load_overlaid, LoadedModule, ModuleTarget, Overlays};
use crate::analysis::model::Justfile;
use crate::syntax::ast::Item;
use crate::syntax::sources::{Source, Sources};
use crate::syntax::trees::Trees;

#[derive(Clone)]
pub(super) struct File {
  pub(super) path: PathBuf,
  pub(super) text: String,
  /// Where its lines start, for the positions of its names.
  pub(super) lines: Lines,
  /// Every name `just` reads in the text.
  pub(super) occurrences: Vec<Occurrence>,
  /// The modules the file belongs to (an import of two modules is in both).
  modules: Vec<usize>,
}

#[derive(Clone, Default)]
struct Module {
  /// Indices into `Project::files`; the module's own file first.
  files: Vec<usize>,
  submodules: HashMap<String, usize>,
}

pub(super) struct Project {
  pub(super) files: Vec<File>,
  modules: Vec<Module>,
}

/// Which names a name can clash with: recipes, aliases and modules share one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Namespace {
  Recipes,
  Variables,
  Functions,
}

/// A thing a name stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Symbol {
  Named {
    module: usize,
    namespace: Namespace,
    name: String,
  },
  /// A parameter of the recipe or function on line `line` of file `file`.
  Parameter {
    file: usize,
    line: usize,
    name: String,
  },
}

impl Symbol {
  fn name(&self) -> &str {
    match self {
      Symbol::Named { name, .. } | Symbol::Parameter { name, .. } => name,
    }
  }

  /// The same thing under another name.
  pub(super) fn renamed(&self, new_name: &str) -> Symbol {
    let mut renamed = self.clone();
    match &mut renamed {
      Symbol::Named { name, .. } | Symbol::Parameter { name, .. } => *name = new_name.to_string(),
    }
    renamed
  }
}

impl Project {
  /// The files loaded with the one at `path` (whose text is `text`) by the
  /// nearest justfile that loads it, else by itself, with the editor's
  /// texts (`overlays`); the document alone when loading fails (a file does
  /// not parse, an import is missing).
  pub(super) fn read(path: &Path, text: &str, overlays: &Overlays) -> Project {
    let path = path.lexiclean();
    for root in candidate_roots(&path) {
      if let Some(project) = Project::load_root(&root, overlays) {
        if project.file(&path).is_some() {
          return project;
        }
      }
    }
    Project::single(path, text)
  }

  fn single(path: PathBuf, text: &str) -> Project {
    let file = File {
      path,
      text: text.to_string(),
      lines: Lines::new(text),
      occurrences: occurrences::occurrences(text),
      modules: vec![0],
    };
    Project { files: vec![file], modules: vec![Module { files: vec![0], ..Module::default() }] }
  }

  fn load_root(root: &Path, overlays: &Overlays) -> Option<Project> {
    let sources = Sources::new();
    let trees = Trees::new();
    let arenas = Arenas { sources: &sources, trees: &trees };
    let directory = root.parent().map(Path::to_path_buf).unwrap_or_default();
    let request = load_request(root, &directory);
    let loaded = load_overlaid(&request, overlays, arenas).ok()?;
    let mut project = Project { files: Vec::new(), modules: Vec::new() };
    let mut indices: HashMap<PathBuf, usize> = HashMap::new();
    for (module_index, module) in loaded.modules.iter().enumerate() {
      let mut own = Module { submodules: submodule_names(module), ..Module::default() };
      for loaded_file in &module.files {
        let index = *indices.entry(loaded_file.path.clone()).or_insert_with(|| {
          let text = loaded_file.ast.source.text.clone();
          project.files.push(File {
            path: loaded_file.path.clone(),
            occurrences: occurrences::occurrences(&text),
            lines: Lines::new(&text),
            text,
            modules: Vec::new(),
          });
          project.files.len() - 1
        });
        project.files[index].modules.push(module_index);
        own.files.push(index);
      }
      project.modules.push(own);
    }
    Some(project)
  }

  /// The same files, some of them (by index) with other texts.
  pub(super) fn with_texts(&self, texts: &HashMap<usize, String>) -> Project {
    let files = self.files.iter().enumerate().map(|(index, file)| match texts.get(&index) {
      Some(text) => File {
        text: text.clone(),
        lines: Lines::new(text),
        occurrences: occurrences::occurrences(text),
        ..file.clone()
      },
      None => file.clone(),
    });
    Project { files: files.collect(), modules: self.modules.clone() }
  }

  /// The index of the file at `path` (clean and absolute).
  pub(super) fn file(&self, path: &Path) -> Option<usize> {
    self.files.iter().position(|file| file.path == path)
  }

  /// The own file of the module a `mod` name of file `file` declares.
  pub(super) fn module_file(&self, file: usize, occurrence: &Occurrence) -> Option<&Path> {
    let name = self.name(file, occurrence);
    self.files[file].modules.iter().find_map(|&module| {
      let submodule = *self.modules[module].submodules.get(name)?;
      let own = *self.modules[submodule].files.first()?;
      Some(self.files[own].path.as_path())
    })
  }

  pub(super) fn name(&self, file: usize, occurrence: &Occurrence) -> &str {
    &self.files[file].text[occurrence.start..occurrence.end]
  }

  /// What `occurrence` of file `file` stands for, in each module the file
  /// belongs to (none where a `mod::` path leads nowhere).
  pub(super) fn symbols(&self, file: usize, occurrence: &Occurrence) -> Vec<Symbol> {
    let name = self.name(file, occurrence).to_string();
    let namespace = match occurrence.role {
      Role::Parameter(line) => return vec![Symbol::Parameter { file, line, name }],
      Role::Recipe | Role::Module => Namespace::Recipes,
      Role::Variable => Namespace::Variables,
      Role::Function => Namespace::Functions,
    };
    let qualifier = &self.files[file].text[occurrence.qualifier..occurrence.start];
    self.files[file]
      .modules
      .iter()
      .filter_map(|&module| {
        let module = qualifier
          .split("::")
          .filter(|part| !part.is_empty())
          .try_fold(module, |module, part| {
            self.modules[module].submodules.get(part.trim()).copied()
          })?;
        Some(Symbol::Named { module, namespace, name: name.clone() })
      })
      .collect()
  }

  /// Every occurrence, in any file, of what one of `symbols` stands for.
  pub(super) fn occurrences_of(&self, symbols: &[Symbol]) -> Vec<(usize, &Occurrence)> {
    let mut found = Vec::new();
    for (index, file) in self.files.iter().enumerate() {
      for occurrence in &file.occurrences {
        let name = self.name(index, occurrence);
        if symbols.iter().all(|symbol| symbol.name() != name) {
          continue;
        }
        if self.symbols(index, occurrence).iter().any(|symbol| symbols.contains(symbol)) {
          found.push((index, occurrence));
        }
      }
    }
    found
  }

  /// Whether `name` is defined beside what `symbols` stand for: in the same
  /// module and namespace (a recipe, alias or module; a variable; a
  /// function), in any of the module's files.
  pub(super) fn defines(&self, symbols: &[Symbol], name: &str) -> bool {
    symbols.iter().any(|symbol| {
      let Symbol::Named { module, namespace, .. } = symbol else { return false };
      let renamed = Symbol::Named { module: *module, namespace: *namespace, name: name.into() };
      self.modules[*module].files.iter().any(|&file| {
        self.files[file].occurrences.iter().any(|occurrence| {
          occurrence.definition && self.symbols(file, occurrence).contains(&renamed)
        })
      })
    })
  }
}

/// The loaded submodules of a module by the names its `mod` items give them.
fn submodule_names(module: &LoadedModule) -> HashMap<String, usize> {
  let mut names = HashMap::new();
  for (&(file, item), target) in &module.submodules {
    let ModuleTarget::Loaded(submodule) = *target else { continue };
    let item = module.files.get(file).and_then(|file| file.ast.items.get(item));
    if let Some(Item::Module(declared)) = item {
      names.insert(declared.name.lexeme().to_string(), submodule);
    }
  }
  names
}

/// Compile `root` as `just` would, with the editor's texts (`overlays`):
/// `f` gets the outcome and the files loaded (absolute path and source).
pub(super) fn compile_root<T>(
  root: &Path,
  overlays: &Overlays,
  unstable: bool,
  f: impl FnOnce(Result<&Justfile, &LoadError>, &[(PathBuf, &Source)]) -> T,
) -> T {
  let sources = Sources::new();
  let trees = Trees::new();
  let arenas = Arenas { sources: &sources, trees: &trees };
  let directory = root.parent().map(Path::to_path_buf).unwrap_or_default();
  let request = LoadRequest { unstable, ..load_request(root, &directory) };
  let outcome = compile_overlaid(&request, overlays, arenas);
  let loaded: Vec<(PathBuf, &Source)> =
    sources.iter().map(|source| (absolute(root, &source.path), source)).collect();
  f(outcome.as_ref(), &loaded)
}

/// A path the loader reports for the justfile `root` loads: relative to
/// the root's directory, or absolute.
pub(super) fn absolute(root: &Path, path: &Path) -> PathBuf {
  if path.is_absolute() {
    path.to_path_buf()
  } else {
    root.parent().unwrap_or(Path::new("")).join(path)
  }
}

/// The nearest `justfile` in the document's directory or above, other than
/// the document itself.
pub(super) fn enclosing_justfile(path: &Path) -> Option<PathBuf> {
  let mut directory = path.parent();
  while let Some(current) = directory {
    if let Ok(entries) = std::fs::read_dir(current) {
      let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|candidate| {
          candidate.file_name().and_then(|name| name.to_str()).is_some_and(|name| {
            let lower = name.to_ascii_lowercase();
            lower == "justfile" || lower == ".justfile"
          }) && candidate.is_file()
            && candidate != path
        })
        .collect();
      found.sort();
      if let Some(first) = found.into_iter().next() {
        return Some(first);
      }
    }
    directory = current.parent();
  }
  None
}

/// The justfiles that may load `path`, nearest first: the justfile above
/// (or beside) it, then `path` itself.
pub(super) fn candidate_roots(path: &Path) -> Vec<PathBuf> {
  let mut roots: Vec<PathBuf> = enclosing_justfile(path).into_iter().collect();
  roots.push(path.to_path_buf());
  roots
}

/// What loading `root` asks for, from its own directory.
pub(super) fn load_request<'a>(root: &'a Path, directory: &'a Path) -> LoadRequest<'a> {
  LoadRequest {
    justfile: root,
    source: None,
    working_directory: directory,
    overrides: &[],
    unstable: true,
  }
}

/// Compile, with `overlays`, each justfile that may load `path` (nearest
/// first); of those whose load reached `path`, the first answer `f` gives
/// about the outcome (and the root's directory).
fn find_compiled<T>(
  path: &Path,
  overlays: &Overlays,
  mut f: impl FnMut(Result<&Justfile, &LoadError>, &Path) -> Option<T>,
) -> Option<T> {
  for root in candidate_roots(path) {
    let sources = Sources::new();
    let trees = Trees::new();
    let arenas = Arenas { sources: &sources, trees: &trees };
    let directory = root.parent().map(Path::to_path_buf).unwrap_or_default();
    let outcome = compile_overlaid(&load_request(&root, &directory), overlays, arenas);
    let loaded = sources.iter().any(|source| directory.join(&source.path) == path);
    if loaded {
      if let Some(answer) = f(outcome.as_ref(), &directory) {
        return Some(answer);
      }
    }
  }
  None
}

/// `f` of the compiled justfile that loads `path` (the justfile above it
/// that reaches it, else `path` itself) with the editor's texts
/// (`overlays`), and of its root's directory; `None` if neither compiles.
pub(super) fn with_justfile<T>(
  path: &Path,
  overlays: &Overlays,
  f: impl FnOnce(&Justfile, &Path) -> T,
) -> Option<T> {
  let mut f = Some(f);
  find_compiled(path, overlays, |outcome, directory| {
    let justfile = outcome.ok()?;
    Some(f.take()?(justfile, directory))
  })
}

/// The error `just` would report for the justfile that loads `path` (with
/// the editor's texts, `overlays`) if the files of `edited` held those
/// texts instead, when it has none now; `None` if it would compile, or
/// already has an error (a rename cannot be judged then).
pub(super) fn error_after_edits(
  path: &Path,
  edited: &HashMap<PathBuf, String>,
  overlays: &Overlays,
) -> Option<String> {
  with_justfile(path, overlays, |_, _| ())?;
  let mut overlays = overlays.clone();
  overlays.extend(edited.iter().map(|(file, text)| (file.clone(), text.clone())));
  find_compiled(path, &overlays, |outcome, _| Some(outcome.err().map(ToString::to_string)))
    .flatten()
}

/// `JUST_UNSTABLE` as `just` reads it: set, and not `false`, `0` or empty.
pub(super) fn unstable_from_environment() -> bool {
  std::env::var("JUST_UNSTABLE").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false"))
}
