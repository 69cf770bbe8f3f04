//! Loading of imports and modules, and analysis (language.md §4–§11).

#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use super::error::LoadError;
pub use super::loader::LoadRequest;

use super::const_eval::ConstEvaluator;
use super::error::AnalysisErrorKind;
use super::loader::{self, LoadedFile, LoadedModule, ModuleTarget};
use super::model::{self, Justfile, Module, Settings};
use super::settings;
use crate::evaluation::value::Value;
use crate::syntax::ast::{self, Attribute, AttributeEntry, Item, ParameterKind};
use crate::syntax::compile_error::{CompileError, CompileErrorKind};
use crate::syntax::token::Token;

type Tok = Token<'static>;
type CompileResult<T> = Result<T, CompileError<'static>>;

pub(crate) fn error(token: Tok, kind: AnalysisErrorKind<'static>) -> CompileError<'static> {
  CompileError::new(token, CompileErrorKind::Analysis(kind))
}

/// Load the root justfile, its imports and modules, and analyse them.
pub fn compile(request: &LoadRequest) -> Result<Justfile<'static>, LoadError> {
  let loaded = loader::load(request)?;
  let mut context = Context {
    modules: loaded.modules.into_iter().map(Some).collect(),
    overrides: group_overrides(request),
  };
  let root = analyze_module(&mut context, 0, Vec::new(), request.working_directory.to_path_buf())?;
  check_overrides(&root, request)?;
  check_unstable(&root, request.unstable)?;
  Ok(Justfile { root })
}

struct Context {
  modules: Vec<Option<LoadedModule>>,
  overrides: BTreeMap<Vec<String>, BTreeMap<String, String>>,
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

fn check_overrides(root: &Module<'static>, request: &LoadRequest) -> Result<(), LoadError> {
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

/// Root first, then submodules depth-first in name order (language.md §11).
fn check_unstable(module: &Module<'static>, unstable: bool) -> Result<(), LoadError> {
  if !unstable && !module.settings.unstable {
    if let Some(feature) = module.unstable_features.iter().next() {
      return Err(LoadError::Unstable { feature: *feature });
    }
  }
  module.modules.values().try_for_each(|submodule| check_unstable(submodule, unstable))
}

/// One enabled item of the module, with the file it came from.
static EMPTY_AST: ast::Ast<'static> = ast::Ast { items: Vec::new(), unstable_features: Vec::new() };

#[derive(Clone, Copy)]
pub(crate) struct Entry<'f> {
  pub file: usize,
  pub index: usize,
  pub item: &'static Item<'static>,
  pub _files: std::marker::PhantomData<&'f ()>,
}

fn analyze_module(
  context: &mut Context,
  index: usize,
  path: Vec<String>,
  base_directory: PathBuf,
) -> CompileResult<Module<'static>> {
  let Some(loaded) = context.modules.get_mut(index).and_then(Option::take) else {
    unreachable!("every module is analysed once");
  };
  let overrides = context.overrides.get(&path).cloned().unwrap_or_default();
  let entries: Vec<Entry> = loaded
    .files
    .iter()
    .enumerate()
    .flat_map(|(file, loaded_file)| {
      let ast: &'static ast::Ast<'static> = loaded_file.ast;
      ast.items.iter().enumerate().map(move |(index, item)| Entry {
        file,
        index,
        item,
        _files: std::marker::PhantomData,
      })
    })
    .filter(|entry| item_enabled(entry.item))
    .collect();

  let mut analyzer = ModuleAnalyzer {
    files: &loaded.files,
    entries,
    path,
    overrides,
    names: BTreeMap::new(),
    modules: BTreeMap::new(),
    module_items: BTreeMap::new(),
    module_order: Vec::new(),
    module_positions: BTreeMap::new(),
    absent_modules: BTreeSet::new(),
    unexports: BTreeMap::new(),
    sets: BTreeMap::new(),
  };
  analyzer.walk(context, &loaded)?;
  analyzer.finish(base_directory)
}

fn item_enabled(item: &Item<'static>) -> bool {
  match item_attributes(item) {
    Some(attributes) => attributes.enabled(),
    None => true,
  }
}

fn item_attributes<'i>(item: &'i Item<'static>) -> Option<&'i ast::Attributes<'static>> {
  match item {
    Item::Alias(alias) => Some(&alias.attributes),
    Item::Assignment(assignment) => Some(&assignment.attributes),
    Item::Function(function) => Some(&function.attributes),
    Item::Import(import) => Some(&import.attributes),
    Item::Module(module) => Some(&module.attributes),
    Item::Recipe(recipe) => Some(&recipe.attributes),
    Item::Set(set) => Some(&set.attributes),
    Item::Unexport(unexport) => Some(&unexport.attributes),
    Item::Comment(_) | Item::Eol => None,
  }
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

pub(crate) struct ModuleAnalyzer<'f> {
  pub files: &'f [LoadedFile],
  pub entries: Vec<Entry<'f>>,
  pub path: Vec<String>,
  pub overrides: BTreeMap<String, String>,
  /// Aliases and modules seen by the walk: name → (kind, token).
  names: BTreeMap<&'static str, (NameKind, Tok)>,
  modules: BTreeMap<&'static str, Module<'static>>,
  module_items: BTreeMap<&'static str, &'f ast::ModuleItem<'static>>,
  module_order: Vec<&'static str>,
  module_positions: BTreeMap<&'static str, usize>,
  absent_modules: BTreeSet<&'static str>,
  unexports: BTreeMap<&'static str, Tok>,
  /// Setting name → its enabled `set` item.
  pub sets: BTreeMap<&'static str, &'f ast::Set<'static>>,
}

/// Report a name defined twice: always at the definition on the later line.
fn redefinition(first: (NameKind, Tok), second: (NameKind, Tok)) -> CompileError<'static> {
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

/// Attributes other than OS ones must be in `allowed`.
fn check_attributes(
  attributes: &ast::Attributes<'static>,
  allowed: &[&str],
  kind: &'static str,
  name: Tok,
) -> CompileResult<()> {
  for entry in &attributes.list {
    let attribute = &entry.attribute;
    if !attribute.is_os() && !allowed.contains(&attribute.name()) {
      return Err(error(
        name,
        AnalysisErrorKind::InvalidAttribute {
          kind,
          name: name.lexeme(),
          attribute: attribute.name(),
        },
      ));
    }
  }
  Ok(())
}

fn has_attribute(attributes: &ast::Attributes, name: &str) -> bool {
  attributes.list.iter().any(|entry| entry.attribute.name() == name)
}

impl<'f> ModuleAnalyzer<'f> {
  /// The walk over items in order (language.md §10 step 3, first part).
  fn walk(&mut self, context: &mut Context, loaded: &LoadedModule) -> CompileResult<()> {
    let entries = self.entries.clone();
    for entry in entries {
      match entry.item {
        Item::Alias(alias) => {
          check_attributes(&alias.attributes, &["private"], "alias", alias.name)?;
          self.claim_name(NameKind::Alias, alias.name)?;
        }
        Item::Module(module) => {
          check_attributes(
            &module.attributes,
            &["doc", "group", "private"],
            "module",
            module.name,
          )?;
          self.module(context, loaded, entry, module)?;
        }
        Item::Recipe(recipe) => check_parameters(recipe)?,
        Item::Set(set) => {
          check_attributes(&set.attributes, &[], "setting", set.name)?;
          self.setting(set)?;
        }
        Item::Unexport(unexport) => {
          check_attributes(&unexport.attributes, &[], "unexport", unexport.name)?;
          let name = unexport.name.lexeme();
          if self.unexports.insert(name, unexport.name).is_some() {
            return Err(error(
              unexport.name,
              AnalysisErrorKind::DuplicateUnexport { variable: name },
            ));
          }
        }
        Item::Assignment(assignment) => {
          check_attributes(&assignment.attributes, &["private"], "assignment", assignment.name)?;
        }
        Item::Function(function) => {
          check_attributes(&function.attributes, &[], "function", function.name)?;
        }
        Item::Import(import) => {
          check_attributes(&import.attributes, &[], "import", import.path.token)?;
        }
        Item::Comment(_) | Item::Eol => {}
      }
    }
    Ok(())
  }

  /// `--unsorted` keys of every recipe item, sorted: the offsets of the
  /// imports leading to its file, then its own offset.
  fn recipe_keys(&self) -> Vec<(&[usize], usize)> {
    recipe_keys(&self.entries, self.files)
  }

  /// Submodules are ordered by the offset of their name in whichever file
  /// declares them, as if in the module's own file; `module_positions` places
  /// them among the recipe keys.
  fn order_modules(&mut self) {
    let keys = recipe_keys(&self.entries, self.files);
    let items = &self.module_items;
    let offset =
      |name: &&'static str| items.get(name).map_or(usize::MAX, |item| item.name.offset as usize);
    self.module_order.sort_by_key(|name| (offset(name), *name));
    for name in &self.module_order {
      let key: (&[usize], usize) = (&[], offset(name));
      let position = keys.partition_point(|k| *k < key);
      self.module_positions.insert(name, position);
    }
  }

  fn claim_name(&mut self, kind: NameKind, name: Tok) -> CompileResult<()> {
    if let Some(first) = self.names.get(name.lexeme()) {
      return Err(redefinition(*first, (kind, name)));
    }
    self.names.insert(name.lexeme(), (kind, name));
    Ok(())
  }

  fn module(
    &mut self,
    context: &mut Context,
    loaded: &LoadedModule,
    entry: Entry<'f>,
    item: &'f ast::ModuleItem<'static>,
  ) -> CompileResult<()> {
    let name = item.name.lexeme();
    match loaded.submodules.get(&(entry.file, entry.index)) {
      Some(ModuleTarget::Loaded(index)) => {
        self.claim_name(NameKind::Module, item.name)?;
        let mut path = self.path.clone();
        path.push(name.to_string());
        let source =
          &context.modules[*index].as_ref().and_then(|m| m.files.first().map(|f| f.path.clone()));
        let directory =
          source.as_ref().and_then(|p| p.parent().map(Path::to_path_buf)).unwrap_or_default();
        let module = analyze_module(context, *index, path, directory)?;
        self.modules.insert(name, module);
        self.module_items.insert(name, item);
        self.module_order.push(name);
      }
      _ => {
        self.absent_modules.insert(name);
      }
    }
    Ok(())
  }

  fn setting(&mut self, set: &'f ast::Set<'static>) -> CompileResult<()> {
    let name = set.name.lexeme();
    if let Some(first) = self.sets.get(name) {
      return Err(error(
        set.name,
        AnalysisErrorKind::DuplicateSetting {
          setting: name,
          first: first.name.line as usize + 1,
          second: set.name.line as usize + 1,
        },
      ));
    }
    for (earlier, earlier_set) in &self.sets {
      if settings::incompatible(earlier, earlier_set, name, set) {
        return Err(error(
          set.name,
          AnalysisErrorKind::IncompatibleSettings {
            earlier,
            first: earlier_set.name.line as usize + 1,
            later: name,
          },
        ));
      }
    }
    self.sets.insert(name, set);
    Ok(())
  }

  fn depth(&self, entry: &Entry) -> usize {
    self.files[entry.file].depth
  }

  fn bool_setting(&self, name: &str) -> bool {
    self.sets.get(name).is_some_and(|set| settings::boolean(set))
  }

  /// Everything after the walk (language.md §10 step 3, rest).
  fn finish(mut self, base_directory: PathBuf) -> CompileResult<Module<'static>> {
    let assignments = self.assignments()?;
    let functions = self.functions()?;
    let lists = self.bool_setting("lists");
    super::resolver::resolve_variables(&assignments, &functions)?;
    for set in self.sets.values() {
      settings::check_setting_names(set, &assignments, &functions)?;
    }
    let settings;
    let mut docs = BTreeMap::new();
    let mut parameters = BTreeMap::new();
    {
      let evaluator =
        ConstEvaluator { assignments: &assignments, overrides: &self.overrides, lists };
      settings = settings::evaluate(&self.sets_in_order(), &evaluator)?;
      for entry in &self.entries {
        match entry.item {
          Item::Module(module) => {
            if let Some(submodule) = self.modules.get_mut(module.name.lexeme()) {
              module_doc(submodule, module, &evaluator)?;
            }
          }
          Item::Recipe(recipe) => {
            docs.insert((entry.file, entry.index), recipe_doc(recipe, &evaluator)?);
            parameters
              .insert((entry.file, entry.index), super::parameters::build(recipe, &evaluator)?);
          }
          _ => {}
        }
      }
    }
    if !lists {
      super::list_gate::check(&self.entries, &functions)?;
    }
    let recipes = self.recipes(&settings, docs, parameters)?;
    let aliases = self.aliases();
    let (recipes, aliases, disabled, disabled_aliases) = super::resolver::resolve_recipes(
      &self.path,
      recipes,
      aliases,
      &assignments,
      &functions,
      &self.modules,
      &self.absent_modules,
      &settings,
    )?;
    let default = self.default_recipe(&recipes)?;
    self.order_modules();

    let unstable_features =
      self.files.iter().flat_map(|file| file.ast.unstable_features.iter().copied()).collect();
    let own = self.files.first();
    Ok(Module {
      path: self.path.clone(),
      source: own.map(|file| file.path.clone()).unwrap_or_default(),
      base_directory,
      ast: own.map_or(&EMPTY_AST, |file| file.ast),
      doc: None,
      groups: Vec::new(),
      private: false,
      assignments,
      functions,
      recipes,
      aliases,
      modules: std::mem::take(&mut self.modules),
      absent_modules: std::mem::take(&mut self.absent_modules),
      disabled,
      settings,
      unexports: self.unexports.keys().copied().collect(),
      default,
      unstable_features,
      module_order: std::mem::take(&mut self.module_order),
      module_positions: std::mem::take(&mut self.module_positions),
      disabled_aliases,
    })
  }

  fn sets_in_order(&self) -> Vec<&'f ast::Set<'static>> {
    let mut sets: Vec<&ast::Set<'static>> = self.sets.values().copied().collect();
    sets.sort_by_key(|set| {
      self
        .entries
        .iter()
        .position(|entry| matches!(entry.item, Item::Set(s) if std::ptr::eq(s.as_ref(), *set)))
    });
    sets
  }

  /// Duplicate variables, then exported-and-unexported.
  fn assignments(&self) -> CompileResult<BTreeMap<&'static str, model::Assignment<'static>>> {
    let allow_duplicates = self.bool_setting("allow-duplicate-variables");
    let mut chosen: BTreeMap<&'static str, Entry> = BTreeMap::new();
    for entry in &self.entries {
      let Item::Assignment(assignment) = entry.item else { continue };
      let name = assignment.name.lexeme();
      match chosen.get(name) {
        Some(_) if !allow_duplicates => {
          return Err(error(
            assignment.name,
            AnalysisErrorKind::DuplicateVariable { variable: name },
          ));
        }
        Some(previous) if self.depth(previous) < self.depth(entry) => {}
        _ => {
          chosen.insert(name, *entry);
        }
      }
    }
    for entry in &self.entries {
      let Item::Assignment(assignment) = entry.item else { continue };
      if self.unexports.contains_key(assignment.name.lexeme()) {
        return Err(error(
          assignment.name,
          AnalysisErrorKind::ExportUnexported { variable: assignment.name.lexeme() },
        ));
      }
    }
    Ok(
      chosen
        .into_iter()
        .filter_map(|(name, entry)| {
          let Item::Assignment(assignment) = entry.item else { return None };
          Some((
            name,
            model::Assignment {
              name: assignment.name,
              value: assignment.value.clone(),
              export: assignment.export,
              eager: assignment.eager,
              private: name.starts_with('_') || has_attribute(&assignment.attributes, "private"),
            },
          ))
        })
        .collect(),
    )
  }

  /// Function redefinitions and duplicate parameters.
  fn functions(&self) -> CompileResult<BTreeMap<&'static str, ast::FunctionDefinition<'static>>> {
    let mut functions: BTreeMap<&'static str, ast::FunctionDefinition<'static>> = BTreeMap::new();
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
      let mut seen = BTreeSet::new();
      for parameter in &function.parameters {
        if !seen.insert(parameter.lexeme()) {
          return Err(error(
            *parameter,
            AnalysisErrorKind::DuplicateFunctionParameter {
              function: name,
              parameter: parameter.lexeme(),
            },
          ));
        }
      }
      functions.insert(name, function.as_ref().clone());
    }
    Ok(functions)
  }

  /// Recipe name conflicts, extra leading whitespace, sigils, script-only attributes.
  fn recipes(
    &self,
    settings: &Settings<'static>,
    mut docs: BTreeMap<(usize, usize), Option<String>>,
    mut parameters: BTreeMap<(usize, usize), Vec<model::Parameter<'static>>>,
  ) -> CompileResult<BTreeMap<&'static str, model::Recipe<'static>>> {
    let allow_duplicates = self.bool_setting("allow-duplicate-recipes");
    let mut chosen: super::names::NameMap<'static, (Entry, Tok)> = Default::default();
    let mut recipes = BTreeMap::new();
    let keys = self.recipe_keys();
    for entry in self.entries.iter().filter(|e| matches!(e.item, Item::Recipe(_))) {
      let Item::Recipe(recipe) = entry.item else { continue };
      let key = (self.files[entry.file].import_offsets.as_slice(), recipe.name.offset as usize);
      let order = keys.partition_point(|k| *k < key);
      let name = recipe.name.lexeme();
      if let Some(other) = self.names.get(name) {
        return Err(redefinition(*other, (NameKind::Recipe, recipe.name)));
      }
      let replace = match chosen.get(name) {
        Some((_, first)) if !allow_duplicates => {
          return Err(redefinition((NameKind::Recipe, *first), (NameKind::Recipe, recipe.name)))
        }
        Some((previous, _)) => self.depth(previous) >= self.depth(entry),
        None => true,
      };
      let script = is_script(recipe, settings);
      super::body::check(recipe, script, settings.guards)?;
      if replace {
        chosen.insert(name, (*entry, recipe.name));
        let key = (entry.file, entry.index);
        let model = self.recipe_model(
          recipe,
          order,
          script,
          docs.remove(&key).flatten(),
          parameters.remove(&key).unwrap_or_default(),
        );
        recipes.insert(name, model);
      }
    }
    Ok(recipes)
  }

  fn recipe_model(
    &self,
    recipe: &'static ast::Recipe<'static>,
    order: usize,
    script: bool,
    doc: Option<String>,
    parameters: Vec<model::Parameter<'static>>,
  ) -> model::Recipe<'static> {
    let mut attributes: Vec<AttributeEntry<'static>> = recipe.attributes.list.clone();
    attributes.sort_by_key(|entry| entry.attribute.name());
    let name = recipe.name.lexeme();
    let namepath =
      self.path.iter().map(String::as_str).chain([name]).collect::<Vec<_>>().join("::");
    model::Recipe {
      name: recipe.name,
      namepath,
      attributes,
      doc,
      doc_comment: recipe.doc,
      quiet: recipe.quiet,
      private: name.starts_with('_') || has_attribute(&recipe.attributes, "private"),
      parameters,
      priors: Vec::new(),
      subsequents: Vec::new(),
      body: &recipe.body,
      indentation: recipe.indentation,
      shebang: recipe.shebang,
      script,
      order,
      ast: recipe,
    }
  }

  fn aliases(&self) -> BTreeMap<&'static str, model::Alias<'static>> {
    let mut aliases = BTreeMap::new();
    for entry in &self.entries {
      let Item::Alias(alias) = entry.item else { continue };
      let name = alias.name.lexeme();
      aliases.insert(
        name,
        model::Alias {
          name: alias.name,
          attributes: alias.attributes.list.iter().map(|entry| entry.attribute.clone()).collect(),
          target: alias.target.clone(),
          private: name.starts_with('_') || has_attribute(&alias.attributes, "private"),
        },
      );
    }
    aliases
  }

  /// `[default]`, else the first recipe of the module's own file.
  fn default_recipe(
    &self,
    recipes: &BTreeMap<&'static str, model::Recipe<'static>>,
  ) -> CompileResult<Option<&'static str>> {
    // Imports count as inlined where they are written: the second `[default]`
    // in that order is the one reported.
    let mut marked: Vec<(Vec<usize>, &ast::Recipe<'static>)> = self
      .entries
      .iter()
      .filter_map(|entry| match entry.item {
        Item::Recipe(recipe) if has_attribute(&recipe.attributes, "default") => {
          let mut key = self.files[entry.file].import_offsets.clone();
          key.push(recipe.name.offset as usize);
          Some((key, &**recipe))
        }
        _ => None,
      })
      .collect();
    marked.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some((_, recipe)) = marked.get(1) {
      return Err(error(
        recipe.name,
        AnalysisErrorKind::DuplicateDefault { recipe: recipe.name.lexeme() },
      ));
    }
    if let Some((_, recipe)) = marked.first() {
      return Ok(Some(recipe.name.lexeme()));
    }
    let first = self
      .entries
      .iter()
      .filter(|entry| entry.file == 0)
      .filter_map(|entry| match entry.item {
        Item::Recipe(recipe) => Some(recipe.name.lexeme()),
        _ => None,
      })
      .find(|name| recipes.contains_key(name));
    Ok(first)
  }
}

/// Duplicate parameters and required-after-default (options exempt).
fn check_parameters(recipe: &ast::Recipe<'static>) -> CompileResult<()> {
  let options = super::parameters::option_names(recipe);
  let mut seen = BTreeSet::new();
  let mut defaulted = false;
  for parameter in &recipe.parameters {
    let name = parameter.name.lexeme();
    if !seen.insert(name) {
      return Err(error(
        parameter.name,
        AnalysisErrorKind::DuplicateParameter { recipe: recipe.name.lexeme(), parameter: name },
      ));
    }
    if options.contains(name) {
      continue;
    }
    if parameter.default.is_some() {
      defaulted = true;
    } else if defaulted && parameter.kind != ParameterKind::Star {
      return Err(error(
        parameter.name,
        AnalysisErrorKind::RequiredParameterFollowsDefault { parameter: name },
      ));
    }
  }
  Ok(())
}

fn is_script(recipe: &ast::Recipe<'static>, settings: &Settings<'static>) -> bool {
  let attributes = &recipe.attributes;
  if has_attribute(attributes, "shell") {
    return false;
  }
  has_attribute(attributes, "script") || recipe.shebang || settings.default_script
}

/// The const value of a `[doc]` attribute: `None` = no attribute.
fn doc_attribute(
  attributes: &ast::Attributes<'static>,
  evaluator: &ConstEvaluator<'_, 'static>,
) -> CompileResult<Option<Option<Value>>> {
  for entry in &attributes.list {
    if let Attribute::Doc(expression) = &entry.attribute {
      return Ok(Some(match expression {
        Some(expression) => Some(evaluator.evaluate_const(expression)?),
        None => None,
      }));
    }
  }
  Ok(None)
}

fn recipe_doc(
  recipe: &ast::Recipe<'static>,
  evaluator: &ConstEvaluator<'_, 'static>,
) -> CompileResult<Option<String>> {
  let doc = match doc_attribute(&recipe.attributes, evaluator)? {
    Some(Some(value)) => Some(value.joined().trim().to_string()),
    Some(None) => None,
    None => recipe.doc.map(str::to_string),
  };
  Ok(doc.filter(|doc| !doc.is_empty()))
}

fn module_doc(
  module: &mut Module<'static>,
  item: &ast::ModuleItem<'static>,
  evaluator: &ConstEvaluator<'_, 'static>,
) -> CompileResult<()> {
  module.doc = match doc_attribute(&item.attributes, evaluator)? {
    Some(Some(value)) if value.elements().is_empty() => None,
    Some(Some(value)) => Some(value.joined()),
    Some(None) => None,
    None => item.doc.map(str::to_string),
  };
  module.groups = item
    .attributes
    .list
    .iter()
    .filter_map(|entry| match &entry.attribute {
      Attribute::Group(literal) => Some(literal.cooked.clone()),
      _ => None,
    })
    .collect();
  module.private = has_attribute(&item.attributes, "private");
  Ok(())
}

/// Sort keys of a module's recipes: the offsets of the imports leading to
/// the recipe's file, then the recipe's own offset.
fn recipe_keys<'a>(entries: &[Entry], files: &'a [LoadedFile]) -> Vec<(&'a [usize], usize)> {
  let mut keys: Vec<(&[usize], usize)> = entries
    .iter()
    .filter_map(|entry| match entry.item {
      Item::Recipe(recipe) => {
        Some((files[entry.file].import_offsets.as_slice(), recipe.name.offset as usize))
      }
      _ => None,
    })
    .collect();
  keys.sort_unstable();
  keys
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::output::color::Painter;
  use crate::output::diagnostic::excerpt;

  /// Compile `files` (the first is the root justfile) and render the result
  /// as the reference prints it: `ok` or the error with its excerpt.
  fn render(
    files: &[(&str, &str)],
    unstable: bool,
    overrides: &[crate::cli::config::Override],
  ) -> (String, String) {
    let directory = tempfile::tempdir().expect("temporary directory");
    for (path, text) in files {
      let path = directory.path().join(path);
      std::fs::create_dir_all(path.parent().expect("parent")).expect("create directory");
      std::fs::write(&path, text).expect("write file");
    }
    let justfile = directory.path().join("justfile");
    let request = LoadRequest {
      justfile: &justfile,
      source: None,
      working_directory: directory.path(),
      overrides,
      unstable,
    };
    let rendered = match compile(&request) {
      Ok(_) => "ok\n".to_string(),
      Err(LoadError::Compile(error)) => {
        let caused_by =
          error.caused_by().map(|cause| format!("caused by: {cause}\n")).unwrap_or_default();
        format!("error: {error}\n{}{caused_by}", excerpt(&Painter::plain(), &error.token))
      }
      Err(other) => format!("error: {other}\n"),
    };
    (rendered, directory.path().display().to_string())
  }

  /// (name, files with the root justfile first, expected output).
  type Case = (&'static str, &'static [(&'static str, &'static str)], &'static str);

  #[rustfmt::skip]
  const CASES: &[Case] = &[
    (r#"unknown_dependency"#, &[(r#"justfile"#, r#"a:
b:
c:
d:
e:
f:
g:
h:
i:
build: test
"#)], r#"error: recipe `build` has unknown dependency `test`
  ——▶ justfile:10:8
   │
10 │ build: test
   │        ^^^^
"#),
    (r#"undefined_variable"#, &[(r#"justfile"#, r#"a:
	echo {{greting}}
"#)], r#"error: variable `greting` not defined
 ——▶ justfile:2:9
  │
2 │     echo {{greting}}
  │            ^^^^^^^
"#),
    (r#"undefined_function"#, &[(r#"justfile"#, r#"x := nope()
"#)], r#"error: call to undefined function `nope`
 ——▶ justfile:1:6
  │
1 │ x := nope()
  │      ^^^^
"#),
    (r#"function_arity"#, &[(r#"justfile"#, r#"x := env()
"#)], r#"error: function `env` called with 0 arguments but takes 1 to 2
 ——▶ justfile:1:6
  │
1 │ x := env()
  │      ^^^
"#),
    (r#"recipe_redefined"#, &[(r#"justfile"#, r#"a:
b:
a:
"#)], r#"error: recipe `a` first defined on line 1 is redefined on line 3
 ——▶ justfile:3:1
  │
3 │ a:
  │ ^
"#),
    (r#"alias_redefined"#, &[(r#"justfile"#, r#"a:
alias b := a
alias b := a
"#)], r#"error: alias `b` first defined on line 2 is redefined on line 3
 ——▶ justfile:3:7
  │
3 │ alias b := a
  │       ^
"#),
    (r#"recipe_as_alias"#, &[(r#"justfile"#, r#"foo:
alias foo := foo
"#)], r#"error: recipe `foo` defined on line 1 is redefined as an alias on line 2
 ——▶ justfile:2:7
  │
2 │ alias foo := foo
  │       ^^^
"#),
    (r#"alias_then_recipe"#, &[(r#"justfile"#, r#"alias foo := bar
bar:
foo:
"#)], r#"error: alias `foo` defined on line 1 is redefined as a recipe on line 3
 ——▶ justfile:3:1
  │
3 │ foo:
  │ ^^^
"#),
    (r#"duplicate_variable"#, &[(r#"justfile"#, r#"x := 'a'
x := 'b'
"#)], r#"error: variable `x` has multiple definitions
 ——▶ justfile:2:1
  │
2 │ x := 'b'
  │ ^
"#),
    (r#"allow_duplicate_variable"#, &[(r#"justfile"#, r#"set allow-duplicate-variables
x := 'a'
x := 'b'
"#)], r#"ok
"#),
    (r#"self_dependency"#, &[(r#"justfile"#, r#"a: a
"#)], r#"error: recipe `a` depends on itself
 ——▶ justfile:1:4
  │
1 │ a: a
  │    ^
"#),
    (r#"circular_dependency"#, &[(r#"justfile"#, r#"a: b
b: c
c: a
"#)], r#"error: recipe `c` has circular dependency `a -> b -> c -> a`
 ——▶ justfile:3:4
  │
3 │ c: a
  │    ^
"#),
    (r#"self_variable"#, &[(r#"justfile"#, r#"x := x
"#)], r#"error: variable `x` is defined in terms of itself
 ——▶ justfile:1:1
  │
1 │ x := x
  │ ^
"#),
    (r#"circular_variable"#, &[(r#"justfile"#, r#"a := b
b := c
c := b
"#)], r#"error: variable `b` depends on its own value: `b -> c -> b`
 ——▶ justfile:2:1
  │
2 │ b := c
  │ ^
"#),
    (r#"dependency_arguments"#, &[(r#"justfile"#, r#"a x y='z':
b: (a '1' '2' '3')
"#)], r#"error: dependency `a` got 3 arguments but takes at most 2 arguments
 ——▶ justfile:2:5
  │
2 │ b: (a '1' '2' '3')
  │     ^
"#),
    (r#"dependency_arguments_few"#, &[(r#"justfile"#, r#"a x y:
b: (a '1')
"#)], r#"error: dependency `a` got 1 argument but takes 2 arguments
 ——▶ justfile:2:5
  │
2 │ b: (a '1')
  │     ^
"#),
    (r#"dependency_arguments_exact"#, &[(r#"justfile"#, r#"a x:
b: a
"#)], r#"error: dependency `a` got 0 arguments but takes 1 argument
 ——▶ justfile:2:4
  │
2 │ b: a
  │    ^
"#),
    (r#"duplicate_parameter"#, &[(r#"justfile"#, r#"a x x:
"#)], r#"error: recipe `a` has duplicate parameter `x`
 ——▶ justfile:1:5
  │
1 │ a x x:
  │     ^
"#),
    (r#"required_after_default"#, &[(r#"justfile"#, r#"a x='1' y:
"#)], r#"error: non-default parameter `y` follows default parameter
 ——▶ justfile:1:9
  │
1 │ a x='1' y:
  │         ^
"#),
    (r#"duplicate_setting"#, &[(r#"justfile"#, r#"set quiet
set quiet := false
"#)], r#"error: setting `quiet` first set on line 1 is redefined on line 2
 ——▶ justfile:2:5
  │
2 │ set quiet := false
  │     ^^^^^
"#),
    (r#"alias_unknown_target"#, &[(r#"justfile"#, r#"alias b := nope
"#)], r#"error: alias `b` has an unknown target `nope`
 ——▶ justfile:1:7
  │
1 │ alias b := nope
  │       ^
"#),
    (r#"unexport_twice"#, &[(r#"justfile"#, r#"unexport X
unexport X
"#)], r#"error: variable `X` is unexported multiple times
 ——▶ justfile:2:10
  │
2 │ unexport X
  │          ^
"#),
    (r#"export_unexported"#, &[(r#"justfile"#, r#"unexport X
X := 'a'
"#)], r#"error: variable X is both exported and unexported
 ——▶ justfile:2:1
  │
2 │ X := 'a'
  │ ^
"#),
    (r#"function_duplicate_parameter"#, &[(r#"justfile"#, r#"set unstable
f(a, a) := a
"#)], r#"error: function `f` has duplicate parameter `a`
 ——▶ justfile:2:6
  │
2 │ f(a, a) := a
  │      ^
"#),
    (r#"function_redefined"#, &[(r#"justfile"#, r#"set unstable
f() := 'a'
f() := 'b'
"#)], r#"error: function `f` first defined on line 2 is redefined on line 3
 ——▶ justfile:3:1
  │
3 │ f() := 'b'
  │ ^
"#),
    (r#"incompatible_settings"#, &[(r#"justfile"#, r#"set dotenv-load
set dotenv-command := 'x'
"#)], r#"error: `dotenv-load` set on line 1 is incompatible with `dotenv-command`
 ——▶ justfile:2:5
  │
2 │ set dotenv-command := 'x'
  │     ^^^^^^^^^^^^^^
"#),
    (r#"extra_whitespace"#, &[(r#"justfile"#, r#"a:
  echo a
    echo b
"#)], r#"error: recipe line has extra leading whitespace
 ——▶ justfile:3:3
  │
3 │     echo b
  │   ^^^^^^^^
"#),
    (r#"guard_sigils"#, &[(r#"justfile"#, r#"set guards
a:
  -?echo
"#)], r#"error: the guard `?` and infallible `-` sigils may not be used together
 ——▶ justfile:3:3
  │
3 │   -?echo
  │   ^^^^^^
"#),
    (r#"script_attribute"#, &[(r#"justfile"#, r#"[extension('.sh')]
a:
  echo
"#)], r#"error: shell recipe `a` has script recipe attribute `extension`
 ——▶ justfile:2:1
  │
2 │ a:
  │ ^
"#),
    (r#"import_not_found"#, &[(r#"justfile"#, r#"import 'nope.just'
"#)], r#"error: could not find source file for import
 ——▶ justfile:1:8
  │
1 │ import 'nope.just'
  │        ^^^^^^^^^^^
"#),
    (r#"module_not_found"#, &[(r#"justfile"#, r#"mod foo
"#)], r#"error: could not find source file for module `foo`
 ——▶ justfile:1:5
  │
1 │ mod foo
  │     ^^^
"#),
    (r#"module_ambiguous"#, &[(r#"justfile"#, r#"mod foo
"#), (r#"foo.just"#, r#"a:
"#), (r#"foo/justfile"#, r#"b:
"#)], r#"error: found multiple source files for module `foo`: `foo/justfile` and `foo.just`
 ——▶ justfile:1:5
  │
1 │ mod foo
  │     ^^^
"#),
    (r#"const_backtick"#, &[(r#"justfile"#, r#"set tempdir := `echo hi`
"#)], r#"error: cannot call backticks in const context
 ——▶ justfile:1:16
  │
1 │ set tempdir := `echo hi`
  │                ^^^^^^^^^
"#),
    (r#"const_function"#, &[(r#"justfile"#, r#"set tempdir := env('X')
"#)], r#"error: cannot call functions in const context
 ——▶ justfile:1:16
  │
1 │ set tempdir := env('X')
  │                ^^^
"#),
    (r#"const_variable"#, &[(r#"justfile"#, r#"x := y
y := `echo`
set tempdir := x
"#)], r#"error: cannot access non-const variable `x` in const context
 ——▶ justfile:3:16
  │
3 │ set tempdir := x
  │                ^
"#),
    (r#"const_ok"#, &[(r#"justfile"#, r#"x := 'a' + HEX
set tempdir := x / 'b'
[doc(x)]
a:
"#)], r#"ok
"#),
    (r#"const_assert"#, &[(r#"justfile"#, r#"set tempdir := assert('a' == 'b')
"#)], r#"error: assert failed: `'a' == 'b'`
 ——▶ justfile:1:16
  │
1 │ set tempdir := assert('a' == 'b')
  │                ^^^^^^
"#),
    (r#"list_literal"#, &[(r#"justfile"#, r#"x := ['a']
"#)], r#"error: list literals require `set lists`
 ——▶ justfile:1:6
  │
1 │ x := ['a']
  │      ^
"#),
    (r#"list_concat"#, &[(r#"justfile"#, r#"x := 'a' ++ 'b'
"#)], r#"error: list concatenation operator `++` requires `set lists`
 ——▶ justfile:1:10
  │
1 │ x := 'a' ++ 'b'
  │          ^^
"#),
    (r#"logical"#, &[(r#"justfile"#, r#"x := 'a' && 'b'
"#)], r#"error: logical operators require `set lists`
 ——▶ justfile:1:10
  │
1 │ x := 'a' && 'b'
  │          ^^
"#),
    (r#"negation"#, &[(r#"justfile"#, r#"x := !'a'
"#)], r#"error: negation operator requires `set lists`
 ——▶ justfile:1:6
  │
1 │ x := !'a'
  │      ^
"#),
    (r#"comparison_outside"#, &[(r#"justfile"#, r#"x := 'a' == 'b'
"#)], r#"error: comparison operators require `set lists`
 ——▶ justfile:1:10
  │
1 │ x := 'a' == 'b'
  │          ^^
"#),
    (r#"condition_non_comparison"#, &[(r#"justfile"#, r#"x := if 'a' { 'b' } else { 'c' }
"#)], r#"error: `if` and `assert` conditions other than comparisons require `set lists`
 ——▶ justfile:1:9
  │
1 │ x := if 'a' { 'b' } else { 'c' }
  │         ^^^
"#),
    (r#"if_without_else"#, &[(r#"justfile"#, r#"x := if 'a' == 'b' { 'b' }
"#)], r#"error: `if` without `else` requires `set lists`
 ——▶ justfile:1:6
  │
1 │ x := if 'a' == 'b' { 'b' }
  │      ^^
"#),
    (r#"function_requires_lists"#, &[(r#"justfile"#, r#"x := show('a')
"#)], r#"error: the `show()` function requires `set lists`
 ——▶ justfile:1:6
  │
1 │ x := show('a')
  │      ^^^^
"#),
    (r#"default_duplicate"#, &[(r#"justfile"#, r#"[default]
a:
[default]
b:
"#)], r#"error: recipe `b` has duplicate `[default]` attribute, which may only appear once per module
 ——▶ justfile:4:1
  │
4 │ b:
  │ ^
"#),
    (r#"variable_in_setting"#, &[(r#"justfile"#, r#"set tempdir := nope
"#)], r#"error: variable `nope` not defined
 ——▶ justfile:1:16
  │
1 │ set tempdir := nope
  │                ^^^^
"#),
    (r#"unstable_function"#, &[(r#"justfile"#, r#"f() := 'a'
"#)], r#"ok
"#),
    (r#"unstable_lists"#, &[(r#"justfile"#, r#"[windows]
set lists
"#)], r#"ok
"#),
    (r#"submodule_error"#, &[(r#"justfile"#, r#"mod foo
a x x:
"#), (r#"foo.just"#, r#"b y y:
"#)], r#"error: recipe `b` has duplicate parameter `y`
 ——▶ foo.just:1:5
  │
1 │ b y y:
  │     ^
"#),
    (r#"import_error"#, &[(r#"justfile"#, r#"import 'sub/x.just'
"#), (r#"sub/x.just"#, r#"a:
  echo {{nope}}
"#)], r#"error: variable `nope` not defined
 ——▶ sub/x.just:2:10
  │
2 │   echo {{nope}}
  │          ^^^^
"#),
    (r#"circular_import"#, &[(r#"justfile"#, r#"import 'a.just'
"#), (r#"a.just"#, r#"import 'justfile'
"#)], r#"error: import `$DIR/justfile` in `$DIR/a.just` is circular
"#),
    (r#"duplicate_across_import"#, &[(r#"justfile"#, r#"import 'a.just'
x := 'a'
"#), (r#"a.just"#, r#"x := 'b'
"#)], r#"error: variable `x` has multiple definitions
 ——▶ a.just:1:1
  │
1 │ x := 'b'
  │ ^
"#),
    (r#"recipe_dup_import"#, &[(r#"justfile"#, r#"import 'a.just'
foo:
"#), (r#"a.just"#, r#"

foo:
"#)], r#"error: recipe `foo` first defined on line 2 is redefined on line 3
 ——▶ a.just:3:1
  │
3 │ foo:
  │ ^^^
"#),
    (r#"module_dependency"#, &[(r#"justfile"#, r#"mod foo
a: foo::b
"#), (r#"foo.just"#, r#"b x:
"#)], r#"error: dependency `foo::b` got 0 arguments but takes 1 argument
 ——▶ justfile:2:9
  │
2 │ a: foo::b
  │         ^
"#),
    (r#"module_unknown_dependency"#, &[(r#"justfile"#, r#"mod foo
a: foo::c
"#), (r#"foo.just"#, r#"b:
"#)], r#"error: recipe `a` has unknown dependency `foo::c`
 ——▶ justfile:2:9
  │
2 │ a: foo::c
  │         ^
"#),
    (r#"optional_module_ok"#, &[(r#"justfile"#, r#"mod? foo
a: foo::b
alias c := foo::b
"#)], r#"ok
"#),
    (r#"os_disabled"#, &[(r#"justfile"#, r#"[windows]
x := 'a'
x := 'b'
[windows]
set shell := ['a']
set shell := ['b']
"#)], r#"ok
"#),
    (r#"invalid_attribute"#, &[(r#"justfile"#, r#"[group('a')]
x := 'a'
"#)], r#"error: assignment `x` has invalid attribute `group`
 ——▶ justfile:2:1
  │
2 │ x := 'a'
  │ ^
"#),
    (r#"arg_undefined"#, &[(r#"justfile"#, r#"[arg('nope', long)]
a x:
"#)], r#"error: argument attribute for undefined argument `nope`
 ——▶ justfile:1:6
  │
1 │ [arg('nope', long)]
  │      ^^^^^^
"#),
    (r#"arg_value_no_option"#, &[(r#"justfile"#, r#"[arg('x', value='a')]
a x:
"#)], r#"error: argument attribute `value` only valid with `long` or `short`
 ——▶ justfile:1:11
  │
1 │ [arg('x', value='a')]
  │           ^^^^^
"#),
    (r#"arg_duplicate_option"#, &[(r#"justfile"#, r#"[arg('x', long='o')]
[arg('y', long='o')]
a x y:
"#)], r#"error: recipe `a` defines option `--o` multiple times
 ——▶ justfile:2:16
  │
2 │ [arg('y', long='o')]
  │                ^^^
"#),
    (r#"arg_pattern"#, &[(r#"justfile"#, r#"[arg('x', pattern='(')]
a x:
"#)], r#"error: failed to parse argument pattern
 ——▶ justfile:1:11
  │
1 │ [arg('x', pattern='(')]
  │           ^^^^^^^
caused by: regex parse error:
    (
    ^
error: unclosed group
"#),
    (r#"param_default_later"#, &[(r#"justfile"#, r#"a b=c c='x':
"#)], r#"error: variable `c` not defined
 ——▶ justfile:1:5
  │
1 │ a b=c c='x':
  │     ^
"#),
    (r#"user_function_cycle"#, &[(r#"justfile"#, r#"set unstable
a := f()
f() := a
"#)], r#"error: variable `a` is defined in terms of itself
 ——▶ justfile:2:1
  │
2 │ a := f()
  │ ^
"#),
    (r#"ignore_comments"#, &[(r#"justfile"#, r#"set ignore-comments
a:
  # {{nope}}
  echo
"#)], r#"ok
"#),
    (r#"mod_path_in_subdir"#, &[(r#"justfile"#, r#"import 'sub/x.just'
"#), (r#"sub/x.just"#, r#"mod y
"#), (r#"sub/y.just"#, r#"a:
  echo {{nope}}
"#)], r#"error: variable `nope` not defined
 ——▶ sub/y.just:2:10
  │
2 │   echo {{nope}}
  │          ^^^^
"#),
    (r#"env_no_params"#, &[(r#"justfile"#, r#"[env('A', x)]
a x:
"#)], r#"error: variable `x` not defined
 ——▶ justfile:1:11
  │
1 │ [env('A', x)]
  │           ^
"#),
    (r#"list_setting_empty"#, &[(r#"justfile"#, r#"set lists
set unstable
set shell := [[]]
"#)], r#"error: `shell` setting requires at least one element but evaluated to empty list
 ——▶ justfile:3:5
  │
3 │ set shell := [[]]
  │     ^^^^^
"#),
  ];

  #[test]
  fn catalogue() {
    let mut failures = Vec::new();
    for (name, files, expected) in CASES {
      let (actual, directory) = render(files, true, &[]);
      let expected = expected.replace("$DIR", &directory);
      if actual != expected {
        failures.push(format!("{name}:\n--- expected\n{expected}--- actual\n{actual}"));
      }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
  }

  #[test]
  fn unstable_features() {
    let cases: &[(&str, &str)] = &[
      ("f() := 'a'\n", "error: user-defined functions are currently unstable, invoke `just` with `--unstable`, set the `JUST_UNSTABLE` environment variable, or add `set unstable` to your `justfile` to enable unstable features\n"),
      ("[windows]\nset lists\n", "error: the `lists` setting is currently unstable, invoke `just` with `--unstable`, set the `JUST_UNSTABLE` environment variable, or add `set unstable` to your `justfile` to enable unstable features\n"),
      ("set unstable\nf() := 'a'\n", "ok\n"),
    ];
    for (text, expected) in cases {
      assert_eq!(render(&[("justfile", text)], false, &[]).0, *expected, "{text}");
    }
  }

  #[test]
  fn unknown_overrides() {
    let override_of = |module: &[&str], name: &str| crate::cli::config::Override {
      module_path: module.iter().map(|s| s.to_string()).collect(),
      name: name.into(),
      value: "1".into(),
    };
    let overrides = [
      override_of(&[], "z"),
      override_of(&["s"], "a"),
      override_of(&[], "b"),
      override_of(&[], "x"),
    ];
    let (actual, _) =
      render(&[("justfile", "x := 'a'\nmod s\n"), ("s.just", "")], true, &overrides);
    assert_eq!(actual, "error: variables `b`, `z`, and `s::a` overridden on the command line but not present in justfile\n");
  }

  #[test]
  fn model_facts() {
    let directory = tempfile::tempdir().expect("temporary directory");
    let files = [
      ("justfile", "import 'lib.just'\nmod sub\n# builds\nb:\n[private]\na:\nx := 'v'\n"),
      ("lib.just", "c:\n"),
      ("sub.just", "[doc('subdoc')]\n[default]\nz:\ny:\n"),
    ];
    for (path, text) in files {
      std::fs::write(directory.path().join(path), text).expect("write file");
    }
    let justfile = directory.path().join("justfile");
    let request = LoadRequest {
      justfile: &justfile,
      source: None,
      working_directory: directory.path(),
      overrides: &[],
      unstable: false,
    };
    let root = compile(&request).expect("compiles").root;
    assert_eq!(root.default, Some("b"));
    assert_eq!(root.recipes["b"].doc.as_deref(), Some("builds"));
    assert!(root.recipes["a"].private);
    assert_eq!(root.recipes["c"].order, 2);
    assert_eq!(root.base_directory, directory.path());
    let sub = &root.modules["sub"];
    assert_eq!(sub.default, Some("z"));
    assert_eq!(sub.recipes["z"].doc.as_deref(), Some("subdoc"));
    assert_eq!(sub.recipes["y"].namepath, "sub::y");
    assert_eq!(sub.path, vec!["sub".to_string()]);
    assert_eq!(root.module_order, vec!["sub"]);
  }
}
