//! The files `just` loads together with a document, as its loader finds
//! them (the editor's unsaved texts first): grouped by module, each module
//! with its submodules by name. Names are resolved in it across files: a
//! recipe of an import used in the root, `mod::recipe` paths, a variable of
//! the root read in an import. Nothing outside what the loader loads is read.
//! Kept until the documents change (`Documents::project`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use lexiclean::Lexiclean;

use super::diagnostics;
use super::documents::{Documents, Lines};
use super::occurrences::{self, Occurrence, Role};
use crate::analysis::analyzer::Arenas;
use crate::analysis::loader::{load_overlaid, LoadedModule, ModuleTarget};
use crate::syntax::ast::Item;
use crate::syntax::sources::Sources;
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
  /// The files loaded with the one at `path` by the nearest justfile that
  /// loads it, else by itself; the document alone when loading fails (a
  /// file does not parse, an import is missing).
  pub(super) fn load(path: &Path, text: &str, documents: &Documents) -> Rc<Project> {
    documents.project(path, || Project::read(path, text, documents))
  }

  fn read(path: &Path, text: &str, documents: &Documents) -> Project {
    let path = path.lexiclean();
    for root in diagnostics::candidate_roots(&path) {
      if let Some(project) = Project::load_root(&root, documents) {
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

  fn load_root(root: &Path, documents: &Documents) -> Option<Project> {
    let sources = Sources::new();
    let trees = Trees::new();
    let arenas = Arenas { sources: &sources, trees: &trees };
    let directory = root.parent().map(Path::to_path_buf).unwrap_or_default();
    let request = diagnostics::load_request(root, &directory);
    let loaded = load_overlaid(&request, documents.overlays(), arenas).ok()?;
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
