//! Loading of imports and modules, and analysis.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

pub(crate) use super::compile_error::LoadError;
pub(crate) use super::loader::{Arenas, LoadRequest};

use super::body::{is_script, script};
use super::compile_error::{error, CompileError};
use super::const_eval::ConstEvaluator;
use super::effects::{Effects, Flags};
use super::entries::{module_entries, Entry};
use super::error::AnalysisErrorKind;
use super::loader::{self, LoadedFile, LoadedModule, ModuleTarget};
use super::model::{self, Functions, Justfile, Module, Pooled, Settings, Submodules, Table};
use super::settings;
use crate::builtins::value::Value;
use crate::syntax::ast::{self, Item, ParameterKind};
use crate::syntax::settings::Setting;
use crate::syntax::token::Token;
use crate::syntax::trees::{Nodes, Trees};

type CompileResult<'src, T> = Result<T, CompileError<'src>>;

/// Load the root justfile, its imports and modules, and analyse them.
///
/// # Errors
///
/// The first error reading a file, or in a file (lexical, syntax or
/// analysis), in the order just 1.58 reports them.
pub(crate) fn compile<'src>(
  request: &LoadRequest,
  arenas: Arenas<'src>,
) -> Result<Justfile<'src>, LoadError<'src>> {
  analyze(request, loader::load(request, arenas)?, arenas)
}

/// `compile`, with the texts of `overlays` in place of those files on disk
/// (the language server's unsaved documents).
pub(crate) fn compile_overlaid<'src>(
  request: &LoadRequest,
  overlays: &loader::Overlays,
  arenas: Arenas<'src>,
) -> Result<Justfile<'src>, LoadError<'src>> {
  analyze(request, loader::load_overlaid(request, overlays, arenas)?, arenas)
}

fn analyze<'src>(
  request: &LoadRequest,
  loaded: loader::Loaded<'src>,
  arenas: Arenas<'src>,
) -> Result<Justfile<'src>, LoadError<'src>> {
  let files = loaded
    .modules
    .iter()
    .flat_map(|module| module.files.iter().map(|file| file.path.clone()))
    .collect();
  let mut context = Context {
    modules: loaded.modules.into_iter().map(Some).collect(),
    overrides: group_overrides(request),
    module_paths: Vec::new(),
    trees: arenas.trees,
  };
  let root = analyze_module(&mut context, 0, Vec::new(), request.working_directory.to_path_buf())?;
  check_overrides(&root, request)?;
  check_unstable(&root, request.unstable)?;
  let mut justfile = Justfile::new(root, context.module_paths, arenas.trees.slot_count());
  justfile.files = files;
  Ok(justfile)
}

struct Context<'src> {
  modules: Vec<Option<LoadedModule<'src>>>,
  overrides: BTreeMap<Vec<String>, BTreeMap<String, String>>,
  /// The path of each module analysed so far, by module id.
  module_paths: Vec<Vec<String>>,
  /// Where the few texts analysis makes (namepaths in submodules, `[doc]`
  /// values) go, to live as long as the parse trees.
  trees: &'src Trees<'src>,
}

fn group_overrides(request: &LoadRequest) -> BTreeMap<Vec<String>, BTreeMap<String, String>> {
  let mut grouped: BTreeMap<Vec<String>, BTreeMap<String, String>> = BTreeMap::new();
  for item in request.overrides {
    grouped
      .entry(item.module_path.clone())
      .or_default()
      .insert(item.name.clone(), item.value.clone());
  }
  grouped
}

fn check_overrides<'src>(
  root: &Module<'src>,
  request: &LoadRequest,
) -> Result<(), LoadError<'src>> {
  let mut unknown: Vec<(Vec<String>, String)> = request
    .overrides
    .iter()
    .filter(|item| {
      root
        .find_module(&item.module_path)
        .is_none_or(|module| !module.assignments.contains_key(item.name.as_str()))
    })
    .map(|item| (item.module_path.clone(), item.name.clone()))
    .collect();
  unknown.sort();
  unknown.dedup();
  if unknown.is_empty() {
    return Ok(());
  }
  let overrides = unknown
    .into_iter()
    .map(|(mut path, name)| {
      path.push(name);
      path.join("::")
    })
    .collect();
  Err(LoadError::UnknownOverrides { overrides })
}

/// Root first, then submodules depth-first in name order.
fn check_unstable<'src>(module: &Module<'src>, unstable: bool) -> Result<(), LoadError<'src>> {
  if !unstable && !module.settings.unstable {
    if let Some(feature) = module.unstable_features.iter().next() {
      return Err(LoadError::Unstable { feature: *feature });
    }
  }
  module.modules.values().try_for_each(|submodule| check_unstable(submodule, unstable))
}

/// The tree of a module without a file of its own.
static EMPTY_AST: LazyLock<ast::Ast<'static>> = LazyLock::new(ast::Ast::default);

fn analyze_module<'src>(
  context: &mut Context<'src>,
  index: usize,
  path: Vec<String>,
  base_directory: PathBuf,
) -> CompileResult<'src, Module<'src>> {
  let Some(loaded) = context.modules.get_mut(index).and_then(Option::take) else {
    unreachable!("every module is analysed once");
  };
  let overrides = context.overrides.get(&path).cloned().unwrap_or_default();
  let id = context.module_paths.len();
  context.module_paths.push(path.clone());
  let entries = module_entries(&loaded);
  let mut analyzer = ModuleAnalyzer {
    id,
    trees: context.trees,
    files: &loaded.files,
    entries,
    path,
    overrides,
    names: BTreeMap::new(),
    walked_modules: Vec::new(),
    modules: Submodules::default(),
    module_items: BTreeMap::new(),
    module_order: Vec::new(),
    absent_modules: BTreeSet::new(),
    unexports: BTreeMap::new(),
    sets: BTreeMap::new(),
  };
  analyzer.walk(context, &loaded)?;
  analyzer.finish(base_directory)
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum NameKind {
  Alias,
  Module,
  Recipe,
}

impl NameKind {
  fn word(self) -> &'static str {
    match self {
      NameKind::Alias => "alias",
      NameKind::Module => "module",
      NameKind::Recipe => "recipe",
    }
  }
}

pub(crate) struct ModuleAnalyzer<'src, 'f> {
  /// The module's id (`Module::id`).
  pub id: usize,
  trees: &'src Trees<'src>,
  pub files: &'f [LoadedFile<'src>],
  pub entries: Vec<Entry<'src, 'f>>,
  pub path: Vec<String>,
  pub overrides: BTreeMap<String, String>,
  /// Aliases and modules seen by the walk: name → (kind, token).
  names: BTreeMap<&'src str, (NameKind, Token<'src>)>,
  /// The submodules as the walk meets them, then (`finish`) in `modules`.
  walked_modules: Vec<(&'src str, Module<'src>)>,
  modules: Submodules<'src>,
  module_items: BTreeMap<&'src str, &'f ast::ModuleItem<'src>>,
  module_order: Vec<&'src str>,
  absent_modules: BTreeSet<&'src str>,
  unexports: BTreeMap<&'src str, Token<'src>>,
  /// Setting name → its enabled `set` item.
  pub sets: BTreeMap<Setting, &'f ast::Set<'src>>,
}

/// Report a name defined twice: always at the definition on the later line.
fn redefinition<'src>(
  first: (NameKind, Token<'src>),
  second: (NameKind, Token<'src>),
) -> CompileError<'src> {
  let (earlier, later) =
    if second.1.line >= first.1.line { (first, second) } else { (second, first) };
  let name = later.1.lexeme();
  let kind = if earlier.0 == later.0 {
    AnalysisErrorKind::Redefinition {
      kind: earlier.0.word(),
      name,
      first: earlier.1.line as usize + 1,
      second: later.1.line as usize + 1,
    }
  } else {
    AnalysisErrorKind::RedefinitionAs {
      kind: earlier.0.word(),
      name,
      first: earlier.1.line as usize + 1,
      second_kind: later.0.word(),
      second: later.1.line as usize + 1,
    }
  };
  error(later.1, kind)
}

impl<'src, 'f> ModuleAnalyzer<'src, 'f> {
  /// The walk over items in order.
  fn walk(
    &mut self,
    context: &mut Context<'src>,
    loaded: &LoadedModule<'src>,
  ) -> CompileResult<'src, ()> {
    let entries = std::mem::take(&mut self.entries);
    let result = self.walk_entries(context, loaded, &entries);
    self.entries = entries;
    result
  }

  fn walk_entries(
    &mut self,
    context: &mut Context<'src>,
    loaded: &LoadedModule<'src>,
    entries: &[Entry<'src, 'f>],
  ) -> CompileResult<'src, ()> {
    for &entry in entries {
      match entry.item {
        Item::Alias(alias) => self.claim_name(NameKind::Alias, alias.name)?,
        Item::Module(module) => self.module(context, loaded, entry, module)?,
        Item::Recipe(recipe) => check_parameters(recipe)?,
        Item::Set(set) => self.setting(set)?,
        Item::Unexport(unexport) => {
          let name = unexport.name.lexeme();
          if self.unexports.insert(name, unexport.name).is_some() {
            return Err(error(
              unexport.name,
              AnalysisErrorKind::DuplicateUnexport { variable: name },
            ));
          }
        }
        // Which items each attribute may annotate is checked by the parser.
        Item::Assignment(_)
        | Item::Function(_)
        | Item::Import(_)
        | Item::Comment(_)
        | Item::Eol => {}
      }
    }
    Ok(())
  }

  /// Submodules are ordered by the offset of their name in whichever file
  /// declares them, as if in the module's own file (`Module::order`);
  /// `Module::position` places them among the recipes, whose first ones are
  /// those of the own file.
  fn order_modules(&mut self) {
    if self.module_order.is_empty() {
      return;
    }
    let own_offsets: Vec<usize> = self
      .entries
      .iter()
      .filter(|entry| entry.file == 0)
      .filter_map(|entry| match entry.item {
        Item::Recipe(recipe) => Some(recipe.name.offset as usize),
        _ => None,
      })
      .collect();
    let items = &self.module_items;
    let offset =
      |name: &&'src str| items.get(name).map_or(usize::MAX, |item| item.name.offset as usize);
    self.module_order.sort_by_key(|name| (offset(name), *name));
    // Statements at one offset (in different files) share their order.
    let mut order = 0;
    let mut previous = None;
    for (index, name) in self.module_order.iter().enumerate() {
      if previous != Some(offset(name)) {
        order = u32::try_from(index).unwrap_or(u32::MAX);
        previous = Some(offset(name));
      }
      let position = own_offsets.partition_point(|own| *own < offset(name));
      if let Some(submodule) = self.modules.get_mut(name) {
        submodule.order = order;
        submodule.position = position;
        submodule.beside_recipe = own_offsets.get(position) == Some(&offset(name));
      }
    }
  }

  fn claim_name(&mut self, kind: NameKind, name: Token<'src>) -> CompileResult<'src, ()> {
    if let Some(first) = self.names.get(name.lexeme()) {
      return Err(redefinition(*first, (kind, name)));
    }
    self.names.insert(name.lexeme(), (kind, name));
    Ok(())
  }

  fn module(
    &mut self,
    context: &mut Context<'src>,
    loaded: &LoadedModule<'src>,
    entry: Entry<'src, 'f>,
    item: &'f ast::ModuleItem<'src>,
  ) -> CompileResult<'src, ()> {
    let name = item.name.lexeme();
    match loaded.submodules.get(&(entry.file as usize, entry.index as usize)) {
      Some(ModuleTarget::Loaded(index)) => {
        self.claim_name(NameKind::Module, item.name)?;
        let mut path = self.path.clone();
        path.push(name.to_string());
        let source =
          &context.modules[*index].as_ref().and_then(|m| m.files.first().map(|f| f.path.clone()));
        let directory =
          source.as_ref().and_then(|p| p.parent().map(Path::to_path_buf)).unwrap_or_default();
        let module = analyze_module(context, *index, path, directory)?;
        self.walked_modules.push((name, module));
        self.module_items.insert(name, item);
        self.module_order.push(name);
      }
      _ => {
        self.absent_modules.insert(name);
      }
    }
    Ok(())
  }

  fn setting(&mut self, set: &'f ast::Set<'src>) -> CompileResult<'src, ()> {
    let name = set.name.lexeme();
    if let Some(first) = self.sets.get(&set.setting) {
      return Err(error(
        set.name,
        AnalysisErrorKind::DuplicateSetting {
          setting: name,
          first: first.name.line as usize + 1,
          second: set.name.line as usize + 1,
        },
      ));
    }
    for (&earlier, earlier_set) in &self.sets {
      if settings::incompatible(earlier, earlier_set, set.setting, set) {
        return Err(error(
          set.name,
          AnalysisErrorKind::IncompatibleSettings {
            earlier: earlier.name(),
            first: earlier_set.name.line as usize + 1,
            later: name,
          },
        ));
      }
    }
    self.sets.insert(set.setting, set);
    Ok(())
  }

  fn depth(&self, entry: &Entry) -> usize {
    self.files[entry.file as usize].depth
  }

  fn bool_setting(&self, setting: Setting) -> bool {
    self.sets.get(&setting).is_some_and(|set| settings::boolean(set))
  }

  /// Everything after the walk.
  fn finish(mut self, base_directory: PathBuf) -> CompileResult<'src, Module<'src>> {
    self.modules = Submodules::new(std::mem::take(&mut self.walked_modules));
    let assignments = self.assignments()?;
    let functions = self.functions()?;
    let lists = self.bool_setting(Setting::Lists);
    super::resolver::resolve_variables(&assignments, &functions)?;
    for set in self.sets.values() {
      settings::check_setting_names(set, &assignments, &functions)?;
    }
    let settings;
    let recipes;
    {
      let overrides = std::mem::take(&mut self.overrides);
      let evaluator = ConstEvaluator::new(&assignments, &overrides, lists);
      settings = settings::evaluate(&self.sets_in_order(), &evaluator)?;
      recipes = self.build_recipes(&evaluator, &settings)?;
    }
    let pass = super::list_gate::all_pass(&self.entries, &assignments, &functions, &settings);
    if !lists && !pass {
      super::list_gate::check(&self.entries, &functions)?;
    }
    self.check_recipes(&settings, &recipes)?;
    let aliases = self.aliases();
    let resolved = super::resolver::resolve_recipes(
      self.id,
      recipes,
      aliases,
      &assignments,
      &functions,
      &self.modules,
      &self.absent_modules,
      &settings,
      pass,
    )?;
    let default = self.default_recipe(&resolved.recipes)?;
    self.order_modules();

    let unstable_features =
      self.files.iter().flat_map(|file| file.ast.unstable_features.iter().copied()).collect();
    let own = self.files.first();
    Ok(Module {
      id: self.id,
      path: self.path.clone(),
      source: own.map(|file| file.path.clone()).unwrap_or_default(),
      base_directory,
      ast: own.map_or(&EMPTY_AST, |file| file.ast),
      doc: None,
      groups: Vec::new(),
      private: false,
      assignments,
      functions,
      recipes: resolved.recipes,
      aliases: resolved.aliases,
      modules: std::mem::take(&mut self.modules),
      absent_modules: std::mem::take(&mut self.absent_modules),
      disabled: resolved.disabled,
      settings,
      unexports: self.unexports.keys().copied().collect(),
      default,
      unstable_features,
      order: 0,
      position: 0,
      beside_recipe: false,
      disabled_aliases: resolved.disabled_aliases,
    })
  }

  /// Module docs, and the model of the recipes: each recipe item's doc and
  /// parameters evaluated in item order; of recipes with the same name, the
  /// last of those in the least deeply imported file.
  fn build_recipes(
    &mut self,
    evaluator: &ConstEvaluator<'_, 'src>,
    settings: &Settings<'src>,
  ) -> CompileResult<'src, Table<'src, model::Recipe<'src>>> {
    let orders = self.recipe_orders();
    let count = self.entries.iter().filter(|entry| matches!(entry.item, Item::Recipe(_))).count();
    let mut recipes = Table::with_capacity(count);
    // The depth of the file of each chosen recipe, by index.
    let mut depths: Vec<usize> = Vec::with_capacity(count);
    let nodes = self.trees.nodes();
    let mut namepaths = Namepaths::new(&self.path, &nodes);
    let mut items = 0;
    for entry in &self.entries {
      match entry.item {
        Item::Module(module) => {
          if let Some(submodule) = self.modules.get_mut(module.name.lexeme()) {
            module_doc(submodule, module, evaluator)?;
          }
        }
        Item::Recipe(recipe) => {
          let mut effects = Effects::of(recipe.attributes.list);
          let doc = recipe_doc(recipe, &effects, evaluator, &nodes)?;
          let arguments = &effects.values().arguments;
          if !arguments.is_empty() {
            let parameters = super::parameters::options(recipe, arguments, evaluator)?;
            effects.values_mut().parameters = parameters;
          }
          let order = match &orders {
            Some(orders) => orders.get(items).copied().unwrap_or_default(),
            None => items,
          };
          items += 1;
          let depth = self.depth(entry);
          let found = recipes.find(recipe.name.lexeme());
          if let Ok(index) = found {
            if depths[index] < depth {
              continue;
            }
          }
          let model = model::Recipe {
            namepath: namepaths.of(recipe.name.lexeme()),
            doc,
            dependencies: Pooled::default(),
            ast: recipe,
            prior_count: 0,
            order: u32::try_from(order).unwrap_or(u32::MAX),
            private: is_private(recipe.name, effects.flags),
            script: script(effects.flags, recipe, settings),
            effects,
          };
          match found {
            Ok(index) => {
              depths[index] = depth;
              recipes.replace(index, model);
            }
            Err(vacant) => {
              depths.push(depth);
              recipes.insert_vacant(vacant, model);
            }
          }
        }
        _ => {}
      }
    }
    Ok(recipes)
  }

  /// The `--unsorted` position of each recipe item, in item order: a file's
  /// recipes come before those of the files it imports. None: item order.
  /// Files sorted by position and items by index are in the order of their
  /// order numbers (see `loader::item_order`).
  fn recipe_orders(&self) -> Option<Vec<usize>> {
    let keys = || {
      self
        .entries
        .iter()
        .filter(|entry| matches!(entry.item, Item::Recipe(_)))
        .map(|entry| (self.files[entry.file as usize].position, entry.index))
    };
    if keys().is_sorted() {
      return None;
    }
    let keys: Vec<(usize, u32)> = keys().collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    Some(keys.iter().map(|key| sorted.partition_point(|k| k < key)).collect())
  }

  fn sets_in_order(&self) -> Vec<&'f ast::Set<'src>> {
    let mut sets: Vec<&ast::Set<'src>> = self.sets.values().copied().collect();
    sets.sort_by_key(|set| {
      self
        .entries
        .iter()
        .position(|entry| matches!(entry.item, Item::Set(s) if std::ptr::eq(*s, *set)))
    });
    sets
  }

  /// Duplicate variables, then exported-and-unexported.
  fn assignments(&self) -> CompileResult<'src, Table<'src, model::Assignment<'src>>> {
    let allow_duplicates = self.bool_setting(Setting::AllowDuplicateVariables);
    let mut assignments = Table::new();
    // The depth of the file of each chosen assignment.
    let mut depths: Vec<usize> = Vec::new();
    for entry in &self.entries {
      let Item::Assignment(assignment) = entry.item else { continue };
      let name = assignment.name.lexeme();
      if let Some(index) = assignments.index_of(name) {
        if !allow_duplicates {
          return Err(error(
            assignment.name,
            AnalysisErrorKind::DuplicateVariable { variable: name },
          ));
        }
        if depths[index] < self.depth(entry) {
          continue;
        }
        depths[index] = self.depth(entry);
      } else {
        depths.push(self.depth(entry));
      }
      assignments.insert(model::Assignment {
        name: assignment.name,
        value: &assignment.value,
        export: assignment.export,
        eager: assignment.eager,
        private: is_private(assignment.name, Effects::flags_of(assignment.attributes.list)),
      });
    }
    if !self.unexports.is_empty() {
      for entry in &self.entries {
        let Item::Assignment(assignment) = entry.item else { continue };
        if self.unexports.contains_key(assignment.name.lexeme()) {
          return Err(error(
            assignment.name,
            AnalysisErrorKind::ExportUnexported { variable: assignment.name.lexeme() },
          ));
        }
      }
    }
    Ok(assignments)
  }

  /// Function redefinitions and duplicate parameters.
  fn functions(&self) -> CompileResult<'src, Functions<'src>> {
    let mut functions: BTreeMap<&'src str, &'src ast::FunctionDefinition<'src>> = BTreeMap::new();
    for entry in &self.entries {
      let Item::Function(function) = entry.item else { continue };
      let name = function.name.lexeme();
      if let Some(first) = functions.get(name) {
        let (earlier, later) = if function.name.line >= first.name.line {
          (first.name, function.name)
        } else {
          (function.name, first.name)
        };
        return Err(error(
          later,
          AnalysisErrorKind::Redefinition {
            kind: "function",
            name,
            first: earlier.line as usize + 1,
            second: later.line as usize + 1,
          },
        ));
      }
      if let Some(parameter) = first_duplicate(function.parameters, |parameter| *parameter) {
        return Err(error(
          *parameter,
          AnalysisErrorKind::DuplicateFunctionParameter {
            function: name,
            parameter: parameter.lexeme(),
          },
        ));
      }
      functions.insert(name, function);
    }
    Ok(Functions::from_map(functions))
  }

  /// Recipe name conflicts, extra leading whitespace, sigils, script-only
  /// attributes, in item order.
  fn check_recipes(
    &self,
    settings: &Settings<'src>,
    recipes: &Table<'src, model::Recipe<'src>>,
  ) -> CompileResult<'src, ()> {
    let items = self.entries.iter().filter_map(|entry| match entry.item {
      Item::Recipe(recipe) => Some(recipe),
      _ => None,
    });
    let duplicates = items.clone().count() > recipes.len();
    let allow_duplicates = self.bool_setting(Setting::AllowDuplicateRecipes);
    // The name token of the first item of each recipe, by index.
    let mut first: Vec<Option<Token<'src>>> =
      if duplicates { vec![None; recipes.len()] } else { Vec::new() };
    for recipe in items {
      let name = recipe.name.lexeme();
      if !self.names.is_empty() {
        if let Some(other) = self.names.get(name) {
          return Err(redefinition(*other, (NameKind::Recipe, recipe.name)));
        }
      }
      if duplicates {
        if let Some(slot) = recipes.index_of(name).and_then(|index| first.get_mut(index)) {
          match slot {
            Some(first) if !allow_duplicates => {
              return Err(redefinition((NameKind::Recipe, *first), (NameKind::Recipe, recipe.name)))
            }
            Some(_) => {}
            None => *slot = Some(recipe.name),
          }
        }
      }
      let script = is_script(recipe, settings);
      super::body::check(recipe, script, settings.guards, settings.ignore_comments)?;
    }
    Ok(())
  }

  fn aliases(&self) -> BTreeMap<&'src str, model::Alias<'src>> {
    let mut aliases = BTreeMap::new();
    for entry in &self.entries {
      let Item::Alias(alias) = entry.item else { continue };
      let name = alias.name.lexeme();
      aliases.insert(
        name,
        model::Alias {
          name: alias.name,
          attributes: alias.attributes.list.iter().map(|entry| entry.attribute).collect(),
          target: alias.target.to_vec(),
          private: is_private(alias.name, Effects::flags_of(alias.attributes.list)),
        },
      );
    }
    aliases
  }

  /// `[default]`, else the first recipe of the module's own file.
  fn default_recipe(
    &self,
    recipes: &Table<'src, model::Recipe<'src>>,
  ) -> CompileResult<'src, Option<usize>> {
    // Imports count as inlined where they are written: the second `[default]`
    // in that order is the one reported.
    let mut marked: Vec<(usize, &ast::Recipe<'src>)> = self
      .entries
      .iter()
      .filter_map(|entry| match entry.item {
        Item::Recipe(recipe) if Effects::flags_of(recipe.attributes.list).default_recipe() => {
          let order = loader::item_order(self.files, entry.file as usize, entry.index as usize);
          Some((order, &**recipe))
        }
        _ => None,
      })
      .collect();
    marked.sort_by_key(|(order, _)| *order);
    if let Some((_, recipe)) = marked.get(1) {
      return Err(error(
        recipe.name,
        AnalysisErrorKind::DuplicateDefault { recipe: recipe.name.lexeme() },
      ));
    }
    // A `[default]` recipe disabled by an absent optional module leaves the
    // choice to the first recipe, as in just 1.58.
    if let Some(index) =
      marked.first().and_then(|(_, recipe)| recipes.index_of(recipe.name.lexeme()))
    {
      return Ok(Some(index));
    }
    let first = self
      .entries
      .iter()
      .filter(|entry| entry.file == 0)
      .filter_map(|entry| match entry.item {
        Item::Recipe(recipe) => Some(recipe.name.lexeme()),
        _ => None,
      })
      .find_map(|name| recipes.index_of(name));
    Ok(first)
  }
}

/// The first item whose name an earlier item has: a linear scan for the
/// usual few items, a hashed set for many.
fn first_duplicate<'src, T>(items: &[T], name: impl Fn(&T) -> Token<'src>) -> Option<&T> {
  if items.len() <= 16 {
    // Lengths first: most names differ in length.
    let same = |a: Token, b: Token| a.length == b.length && a.lexeme() == b.lexeme();
    return items
      .iter()
      .enumerate()
      .find(|(index, item)| items[..*index].iter().any(|earlier| same(name(earlier), name(item))))
      .map(|(_, item)| item);
  }
  let mut seen = super::names::NameSet::default();
  items.iter().find(|item| !seen.insert(name(item).lexeme()))
}

/// Duplicate parameters and required-after-default (options exempt).
fn check_parameters<'src>(recipe: &ast::Recipe<'src>) -> CompileResult<'src, ()> {
  let options = super::parameters::option_names(recipe);
  let mut defaulted = false;
  let duplicate = first_duplicate(recipe.parameters, |parameter| parameter.name)
    .map(std::ptr::from_ref::<ast::Parameter>);
  for parameter in recipe.parameters {
    if duplicate.is_some_and(|duplicate| std::ptr::eq(duplicate, parameter)) {
      return Err(error(
        parameter.name,
        AnalysisErrorKind::DuplicateParameter {
          recipe: recipe.name.lexeme(),
          parameter: parameter.name.lexeme(),
        },
      ));
    }
    if !options.is_empty() && options.binary_search(&parameter.name.lexeme()).is_ok() {
      continue;
    }
    if parameter.default.is_some() {
      defaulted = true;
    } else if defaulted && parameter.kind != ParameterKind::Star {
      return Err(error(
        parameter.name,
        AnalysisErrorKind::RequiredParameterFollowsDefault { parameter: parameter.name.lexeme() },
      ));
    }
  }
  Ok(())
}

/// The const value of a `[doc]` attribute: `None` = no attribute.
// `Some(None)`, a bare `[doc]`, hides the doc comment: three cases.
#[allow(clippy::option_option)]
fn doc_attribute<'src>(
  effects: &Effects<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, Option<Option<Value>>> {
  if !effects.flags.doc() {
    return Ok(None);
  }
  Ok(Some(match effects.values().doc {
    Some(expression) => Some(evaluator.evaluate_const(expression)?),
    None => None,
  }))
}

/// `[doc]`, whose value goes into the arena, else the doc comment.
fn recipe_doc<'src>(
  recipe: &ast::Recipe<'src>,
  effects: &Effects<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
  nodes: &Nodes<'src>,
) -> CompileResult<'src, Option<&'src str>> {
  let doc = match doc_attribute(effects, evaluator)? {
    Some(Some(value)) => Some(value.joined().trim().to_string()),
    Some(None) => None,
    None => return Ok(recipe.doc.filter(|doc| !doc.is_empty())),
  };
  Ok(doc.filter(|doc| !doc.is_empty()).map(|doc| nodes.str(&doc)))
}

/// `[private]`, or a name starting with `_`.
fn is_private(name: Token, flags: Flags) -> bool {
  name.lexeme().starts_with('_') || flags.private()
}

/// Recipe namepaths: in a submodule, the module path and the name joined
/// with `::`, in the arena; in the root module, the name itself.
struct Namepaths<'n, 'src> {
  /// `a::b::` for module `a::b`; empty for the root.
  prefix: String,
  nodes: &'n Nodes<'src>,
}

impl<'n, 'src> Namepaths<'n, 'src> {
  fn new(path: &[String], nodes: &'n Nodes<'src>) -> Self {
    let mut prefix = String::new();
    for name in path {
      prefix.push_str(name);
      prefix.push_str("::");
    }
    Namepaths { prefix, nodes }
  }

  fn of(&mut self, name: &'src str) -> &'src str {
    if self.prefix.is_empty() {
      return name;
    }
    let length = self.prefix.len();
    self.prefix.push_str(name);
    let namepath = self.nodes.str(&self.prefix);
    self.prefix.truncate(length);
    namepath
  }
}

fn module_doc<'src>(
  module: &mut Module<'src>,
  item: &ast::ModuleItem<'src>,
  evaluator: &ConstEvaluator<'_, 'src>,
) -> CompileResult<'src, ()> {
  let effects = Effects::of(item.attributes.list);
  module.doc = match doc_attribute(&effects, evaluator)? {
    Some(Some(value)) if value.elements().is_empty() => None,
    Some(Some(value)) => Some(value.joined()),
    Some(None) => None,
    None => item.doc.map(str::to_string),
  };
  module.groups = effects.values().groups.iter().map(|group| (*group).to_string()).collect();
  module.private = effects.flags.private();
  Ok(())
}
