//! The analysed justfile: what the analyzer produces from the parse trees of
//! the root file, its imports and its modules, and what evaluation,
//! execution and the listing subcommands consume.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Debug, Formatter};
use std::ops::{Deref, Range};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

pub(crate) use super::bindings::{Binding, Bindings};
use super::effects::{Effects, ParameterOptions};
use super::names::token_bytes;
pub(crate) use super::table::{Named, Table};
use crate::syntax::ast::{self, Attribute, Expression, Line, Name, ParameterKind};

/// A module's user-defined functions in name order; an index into them is
/// a function's id (`Binding::UserFunction`).
#[derive(Debug, Default)]
pub(crate) struct Functions<'src> {
  sorted: Vec<&'src ast::FunctionDefinition<'src>>,
}

impl<'src> Functions<'src> {
  /// The functions of a map by name.
  pub(crate) fn from_map(map: BTreeMap<&'src str, &'src ast::FunctionDefinition<'src>>) -> Self {
    Functions { sorted: map.into_values().collect() }
  }

  pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
    self.sorted.binary_search_by(|function| function.name.lexeme().cmp(name)).ok()
  }

  pub(crate) fn get(&self, name: &str) -> Option<&'src ast::FunctionDefinition<'src>> {
    self.index_of(name).and_then(|index| self.at(index))
  }

  pub(crate) fn contains_key(&self, name: &str) -> bool {
    self.index_of(name).is_some()
  }

  /// The function with id `index`.
  pub(crate) fn at(&self, index: usize) -> Option<&'src ast::FunctionDefinition<'src>> {
    self.sorted.get(index).copied()
  }

  /// In name order.
  pub(crate) fn values(&self) -> impl Iterator<Item = &'src ast::FunctionDefinition<'src>> + '_ {
    self.sorted.iter().copied()
  }
}

/// The root module and, through it, every submodule.
#[derive(Debug)]
pub(crate) struct Justfile<'src> {
  pub root: Module<'src>,
  /// Every file the loader read: the root justfile, its modules and every
  /// file they import, whatever it defines.
  pub files: Vec<PathBuf>,
  /// The path of each module, by `Module::id`.
  pub module_paths: Vec<Vec<String>>,
  /// How to reach each module from the root, by `Module::id`: the index of
  /// each submodule on the way in its parent's `modules`.
  pub module_routes: Vec<Vec<u32>>,
  /// How many slots the run's parse trees have.
  slot_count: usize,
  /// What the variable references and calls bound so far mean, by `Slot`:
  /// made on first use, so that the commands that evaluate nothing
  /// (listings, dumps) do not pay for it.
  bindings: OnceLock<Bindings>,
}

impl<'src> Justfile<'src> {
  /// The analysed `root` and its submodules, numbered by `module_paths`,
  /// from trees with `slot_count` slots.
  pub(crate) fn new(root: Module<'src>, module_paths: Vec<Vec<String>>, slot_count: usize) -> Self {
    let module_routes = Justfile::routes(&root);
    let files = Vec::new();
    Justfile { root, files, module_paths, module_routes, slot_count, bindings: OnceLock::new() }
  }

  /// What each variable reference and call bound so far means where it is
  /// written (see `bind_module`, `bind_recipe` in `binder.rs`).
  pub(crate) fn bindings(&self) -> &Bindings {
    self.bindings.get_or_init(|| Bindings::with_slots(self.slot_count))
  }

  /// The module with id `id`.
  pub(crate) fn module(&self, id: usize) -> Option<&Module<'src>> {
    let route = self.module_routes.get(id)?;
    route.iter().try_fold(&self.root, |module, &index| module.modules.at(index as usize))
  }

  /// `module_routes` of the modules under `root`.
  fn routes(root: &Module<'src>) -> Vec<Vec<u32>> {
    fn walk(module: &Module, route: &mut Vec<u32>, routes: &mut Vec<Vec<u32>>) {
      if routes.len() <= module.id {
        routes.resize_with(module.id + 1, Vec::new);
      }
      if let Some(slot) = routes.get_mut(module.id) {
        slot.clone_from(route);
      }
      for (index, submodule) in module.modules.values().enumerate() {
        route.push(u32::try_from(index).unwrap_or(u32::MAX));
        walk(submodule, route, routes);
        route.pop();
      }
    }
    let mut routes = Vec::new();
    walk(root, &mut Vec::new(), &mut routes);
    routes
  }

  /// The recipe a dependency names; None only for a recipe disabled by an
  /// absent optional module.
  pub(crate) fn dependency_target(&self, dependency: &Dependency<'src>) -> Option<&Recipe<'src>> {
    self.module(dependency.module as usize)?.recipes.at(dependency.target as usize)
  }
}

#[derive(Debug)]
pub(crate) struct Module<'src> {
  /// Index of the module's path in `Justfile::module_paths`: 0 for the root.
  pub id: usize,
  /// `[]` for the root, `["foo", "bar"]` for `foo::bar`.
  pub path: Vec<String>,
  /// Absolute path of the module's source file (the root justfile for the root).
  pub source: PathBuf,
  /// Directory recipes and backticks of this module run in before
  /// `set working-directory` is applied: the search working directory for
  /// the root, the module file's directory for submodules.
  pub base_directory: PathBuf,
  /// The parse tree of the module's own file (what `--dump` prints).
  pub ast: &'src ast::Ast<'src>,
  /// Module doc (`[doc]` on the `mod` statement, else its doc comment).
  pub doc: Option<String>,
  /// `[group]`s of the `mod` statement.
  pub groups: Vec<String>,
  /// `[private]` on the `mod` statement.
  pub private: bool,
  pub assignments: Table<'src, Assignment<'src>>,
  pub functions: Functions<'src>,
  /// Indices into this table are recipe ids: `Dependency::target`.
  pub recipes: Table<'src, Recipe<'src>>,
  pub aliases: BTreeMap<&'src str, Alias<'src>>,
  pub modules: Submodules<'src>,
  /// Names of `mod?` modules whose file is absent.
  pub absent_modules: BTreeSet<&'src str>,
  /// Recipes and aliases disabled because they (transitively) depend on an
  /// absent optional module: name → the absent module paths.
  pub disabled: BTreeMap<&'src str, Vec<String>>,
  pub settings: Settings<'src>,
  pub unexports: BTreeSet<&'src str>,
  /// The default recipe: its index in `recipes` (see `default_recipe`).
  pub default: Option<usize>,
  /// Features this module uses that need `--unstable` / `set unstable`.
  pub unstable_features: BTreeSet<ast::UnstableFeature>,
  /// The place of this module's `mod` statement among its siblings' in
  /// source order (for `--unsorted`): by the offset of its name in its own
  /// file, even an imported one, so statements at one offset (in different
  /// files) have the same order; 0 for the root.
  pub order: u32,
  /// Position of this module's `mod` statement in the sequence of its
  /// parent's `Recipe::order`: the number of the parent's recipe items
  /// before it.
  pub position: usize,
  /// Whether the recipe at `position` has its name at the same offset (in
  /// the module's own file) as this `mod` statement's (in an imported one).
  pub beside_recipe: bool,
  /// The names in `disabled` that are aliases.
  pub disabled_aliases: BTreeSet<&'src str>,
}

impl<'src> Module<'src> {
  /// `[default]`, else the first recipe of the module's own file.
  pub(crate) fn default_recipe(&self) -> Option<&Recipe<'src>> {
    self.default.and_then(|index| self.recipes.at(index))
  }

  /// The submodule a command-line module path (`foo::bar` of an override)
  /// names, where any component may be an alias of a module
  /// (`alias f := foo`, `alias fb := foo::bar`).
  pub(crate) fn find_module(&self, path: &[String]) -> Option<&Module<'src>> {
    path.iter().try_fold(self, |module, name| {
      if let Some(submodule) = module.modules.get(name.as_str()) {
        return Some(submodule);
      }
      let alias = module.aliases.get(name.as_str())?;
      alias.target.iter().try_fold(module, |module, name| module.modules.get(name.lexeme()))
    })
  }
}

/// A module's submodules in name order; an index into them is a step of a
/// `Justfile::module_routes` route.
#[derive(Debug, Default)]
pub(crate) struct Submodules<'src> {
  entries: Vec<(&'src str, Module<'src>)>,
}

impl<'src> Submodules<'src> {
  /// The modules of `entries` (name, module), in any order, names distinct.
  pub(crate) fn new(mut entries: Vec<(&'src str, Module<'src>)>) -> Self {
    entries.sort_by(|a, b| a.0.cmp(b.0));
    Submodules { entries }
  }

  pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
    self.entries.binary_search_by(|(key, _)| (*key).cmp(name)).ok()
  }

  pub(crate) fn get(&self, name: &str) -> Option<&Module<'src>> {
    self.at(self.index_of(name)?)
  }

  pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut Module<'src>> {
    let index = self.index_of(name)?;
    self.entries.get_mut(index).map(|(_, module)| module)
  }

  pub(crate) fn contains_key(&self, name: &str) -> bool {
    self.index_of(name).is_some()
  }

  /// The submodule at `index` in name order.
  pub(crate) fn at(&self, index: usize) -> Option<&Module<'src>> {
    self.entries.get(index).map(|(_, module)| module)
  }

  #[cfg(test)]
  pub(crate) fn len(&self) -> usize {
    self.entries.len()
  }

  /// Names and modules, by name.
  pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (&'src str, &Module<'src>)> + Clone {
    self.entries.iter().map(|(name, module)| (*name, module))
  }

  pub(crate) fn keys(&self) -> impl DoubleEndedIterator<Item = &'src str> + Clone + '_ {
    self.entries.iter().map(|(name, _)| *name)
  }

  pub(crate) fn values(&self) -> impl DoubleEndedIterator<Item = &Module<'src>> + Clone {
    self.entries.iter().map(|(_, module)| module)
  }

  #[cfg(test)]
  pub(crate) fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Module<'src>> {
    self.entries.iter_mut().map(|(_, module)| module)
  }

  /// Add a module named `name` (not yet there).
  #[cfg(test)]
  pub(crate) fn insert(&mut self, name: &'src str, module: Module<'src>) {
    let index = self.entries.partition_point(|(key, _)| *key < name);
    self.entries.insert(index, (name, module));
  }

  /// Names and modules in source order (`Module::order`).
  pub(crate) fn in_source_order(&self) -> Vec<(&'src str, &Module<'src>)> {
    let mut entries: Vec<_> = self.iter().collect();
    entries.sort_by_key(|(_, module)| module.order);
    entries
  }

  /// Names and modules in source order when `unsorted`, else by name: the
  /// order listings walk them in.
  pub(crate) fn ordered(&self, unsorted: bool) -> Vec<(&'src str, &Module<'src>)> {
    if unsorted {
      self.in_source_order()
    } else {
      self.iter().collect()
    }
  }
}

#[derive(Debug)]
pub(crate) struct Assignment<'src> {
  pub name: Name<'src>,
  pub value: &'src Expression<'src>,
  pub export: bool,
  pub eager: bool,
  /// `[private]`, or a name starting with `_`.
  pub private: bool,
}

impl<'src> Named<'src> for Assignment<'src> {
  fn key(&self) -> &'src str {
    self.name.lexeme()
  }

  fn key_bytes(&self) -> &'src [u8] {
    token_bytes(&self.name)
  }
}

impl Assignment<'_> {
  /// Listed by `--evaluate` and `--variables`.
  pub(crate) fn is_public(&self) -> bool {
    !self.private
  }
}

#[derive(Debug)]
pub(crate) struct Alias<'src> {
  pub name: Name<'src>,
  pub attributes: Vec<Attribute<'src>>,
  /// Target path as written (`foo`, `sub::bar`).
  pub target: Vec<Name<'src>>,
  /// `[private]`, or a name starting with `_`.
  pub private: bool,
}

impl Alias<'_> {
  pub(crate) fn target_path(&self) -> String {
    self.target.iter().map(|t| t.lexeme()).collect::<Vec<_>>().join("::")
  }
}

/// A recipe of the model: what analysis adds to its parse node, which it
/// reads the rest from (name, attributes as written, parameters, body, doc
/// comment, sigils).
#[derive(Debug)]
pub(crate) struct Recipe<'src> {
  /// The module path plus name, joined with `::`: the name itself in the
  /// root module, text in the `Trees` arena in a submodule.
  pub namepath: &'src str,
  /// `[doc]` wins over the doc comment; None if empty.
  pub doc: Option<&'src str>,
  /// What its attributes do, `[arg]` configurations of its parameters
  /// included.
  pub effects: Effects<'src>,
  /// The dependencies before `&&`, then those after it.
  pub dependencies: Pooled<Dependency<'src>>,
  /// The parse node.
  pub ast: &'src ast::Recipe<'src>,
  /// How many of `dependencies` come before `&&`.
  pub prior_count: u32,
  /// Position among the module's recipes for `--unsorted`: own file first in
  /// source order, then imports in import order.
  pub order: u32,
  /// `[private]`, or a name starting with `_`.
  pub private: bool,
  /// Body starts with `#!`, or `[script]`, or `set default-script`; never with `[shell]`.
  pub script: bool,
}

impl<'src> Named<'src> for Recipe<'src> {
  fn key(&self) -> &'src str {
    self.ast.name.lexeme()
  }

  fn key_bytes(&self) -> &'src [u8] {
    token_bytes(&self.ast.name)
  }
}

/// A recipe's identity while the model lives: where the recipe is in it,
/// which never moves, so the same for every path to the recipe and
/// different for every other recipe. Later stages key what they keep per
/// recipe by it, and never compare names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RecipeId(usize);

impl<'src> Recipe<'src> {
  pub(crate) fn id(&self) -> RecipeId {
    RecipeId(std::ptr::from_ref(self).addr())
  }

  /// The name token, from the parse node.
  pub(crate) fn name(&self) -> Name<'src> {
    self.ast.name
  }

  /// The dependencies before `&&`.
  pub(crate) fn priors(&self) -> &[Dependency<'src>] {
    self.dependencies.get(..self.prior_count as usize).unwrap_or(&[])
  }

  /// The dependencies after `&&`.
  pub(crate) fn subsequents(&self) -> &[Dependency<'src>] {
    self.dependencies.get(self.prior_count as usize..).unwrap_or(&[])
  }

  pub(crate) fn body(&self) -> &'src [Line<'src>] {
    self.ast.body
  }

  /// The doc comment text, for `--show` (printed only without `[doc]`).
  pub(crate) fn doc_comment(&self) -> Option<&'src str> {
    self.ast.doc
  }

  /// `@recipe`.
  pub(crate) fn quiet(&self) -> bool {
    self.ast.quiet
  }

  /// The body's first line starts with `#!`.
  pub(crate) fn shebang(&self) -> bool {
    self.ast.shebang
  }

  /// The attributes as written, in source order (what they do is in
  /// `effects`).
  pub(crate) fn attributes(&self) -> &'src [ast::AttributeEntry<'src>] {
    self.ast.attributes.list
  }

  /// The `[group]`s, in source order.
  pub(crate) fn groups(&self) -> &[&'src str] {
    &self.effects.values().groups
  }

  /// The parameters, with their `[arg]` configuration.
  pub(crate) fn parameters(&self) -> Parameters<'_, 'src> {
    Parameters { ast: self.ast.parameters, options: &self.effects.values().parameters }
  }

  /// Minimum number of positional arguments.
  pub(crate) fn min_arguments(&self) -> usize {
    self.parameters().iter().filter(|p| p.is_required_positional()).count()
  }

  /// Maximum number of positional arguments; None if unbounded.
  pub(crate) fn max_arguments(&self) -> Option<usize> {
    let positional = self.parameters().iter().filter(|p| !p.is_option());
    if self.parameters().iter().any(|p| !p.is_option() && p.kind().is_variadic()) {
      None
    } else {
      Some(positional.count())
    }
  }
}

/// A recipe's part of items kept for all the recipes of a module in one
/// allocation (dependencies): a range of a shared pool.
pub(crate) struct Pooled<T> {
  pool: Option<Arc<Vec<T>>>,
  start: u32,
  len: u32,
}

impl<T> Pooled<T> {
  /// The range `range` of a pool not built yet: empty until `attach`.
  pub(crate) fn pending(range: Range<usize>) -> Self {
    let start = u32::try_from(range.start).unwrap_or(u32::MAX);
    let len = u32::try_from(range.len()).unwrap_or(0);
    Pooled { pool: None, start, len }
  }

  /// Point a pending range at its pool.
  pub(crate) fn attach(&mut self, pool: &Arc<Vec<T>>) {
    if self.len > 0 {
      self.pool = Some(Arc::clone(pool));
    }
  }
}

impl<T> Default for Pooled<T> {
  fn default() -> Self {
    Pooled { pool: None, start: 0, len: 0 }
  }
}

impl<T> Deref for Pooled<T> {
  type Target = [T];

  fn deref(&self) -> &[T] {
    let start = self.start as usize;
    let items = self.pool.as_deref().and_then(|pool| pool.get(start..start + self.len as usize));
    items.unwrap_or(&[])
  }
}

impl<'p, T> IntoIterator for &'p Pooled<T> {
  type Item = &'p T;
  type IntoIter = std::slice::Iter<'p, T>;

  fn into_iter(self) -> Self::IntoIter {
    self.iter()
  }
}

impl<T: Debug> Debug for Pooled<T> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    f.debug_list().entries(self.iter()).finish()
  }
}

/// A recipe's parameters: the parse tree's, each with its `[arg]`
/// configuration, if any.
#[derive(Clone, Copy, Default)]
pub(crate) struct Parameters<'r, 'src> {
  ast: &'src [ast::Parameter<'src>],
  /// By position; empty without `[arg]`.
  options: &'r [ParameterOptions<'src>],
}

impl<'r, 'src> Parameters<'r, 'src> {
  pub(crate) fn len(&self) -> usize {
    self.ast.len()
  }

  /// The parameter at `index`.
  pub(crate) fn get(&self, index: usize) -> Option<Parameter<'r, 'src>> {
    let ast = self.ast.get(index)?;
    Some(Parameter { ast, options: self.options.get(index) })
  }

  pub(crate) fn iter(
    &self,
  ) -> impl DoubleEndedIterator<Item = Parameter<'r, 'src>> + ExactSizeIterator + Clone + use<'r, 'src>
  {
    let options = self.options;
    self
      .ast
      .iter()
      .enumerate()
      .map(move |(index, ast)| Parameter { ast, options: options.get(index) })
  }
}

impl Debug for Parameters<'_, '_> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    f.debug_list().entries(self.iter()).finish()
  }
}

/// A parameter: its parse node (name, default, `$`, kind) and what an
/// `[arg(…)]` attribute configures.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Parameter<'r, 'src> {
  pub ast: &'src ast::Parameter<'src>,
  /// None without `[arg]`.
  options: Option<&'r ParameterOptions<'src>>,
}

impl<'r, 'src> Parameter<'r, 'src> {
  pub(crate) fn name(self) -> Name<'src> {
    self.ast.name
  }

  pub(crate) fn default(self) -> Option<&'src Expression<'src>> {
    self.ast.default
  }

  /// `$name`: exported to the recipe's commands.
  pub(crate) fn export(self) -> bool {
    self.ast.export
  }

  pub(crate) fn kind(self) -> ParameterKind {
    self.ast.kind
  }

  pub(crate) fn long(self) -> Option<&'r str> {
    self.options?.long.as_deref()
  }

  pub(crate) fn short(self) -> Option<char> {
    self.options?.short
  }

  pub(crate) fn patterns(self) -> &'r [String] {
    self.options.map_or(&[], |options| &options.patterns)
  }

  pub(crate) fn value(self) -> Option<&'src Expression<'src>> {
    self.options?.value
  }

  pub(crate) fn flag(self) -> bool {
    self.options.is_some_and(|options| options.flag)
  }

  pub(crate) fn multiple(self) -> bool {
    self.options.is_some_and(|options| options.multiple)
  }

  pub(crate) fn min(self) -> Option<usize> {
    self.options?.min
  }

  pub(crate) fn max(self) -> Option<usize> {
    self.options?.max
  }

  pub(crate) fn help(self) -> Option<&'r str> {
    self.options?.help.as_deref()
  }

  /// The first of `values` that fully matches none of the `[arg(pattern=…)]`
  /// patterns; None if all match or there are none.
  pub(crate) fn first_pattern_mismatch<'v>(
    self,
    values: impl IntoIterator<Item = &'v str>,
  ) -> Option<&'v str> {
    if self.patterns().is_empty() {
      return None;
    }
    let regexes: Vec<regex::Regex> = self
      .patterns()
      .iter()
      .filter_map(|pattern| regex::Regex::new(&format!("^(?:{pattern})$")).ok())
      .collect();
    values.into_iter().find(|value| !regexes.iter().any(|regex| regex.is_match(value)))
  }

  pub(crate) fn is_option(self) -> bool {
    self.long().is_some() || self.short().is_some()
  }

  pub(crate) fn is_required_positional(self) -> bool {
    !self.is_option()
      && self.default().is_none()
      && (self.kind() != ParameterKind::Star || self.min().unwrap_or(0) > 0)
  }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Dependency<'src> {
  pub ast: &'src ast::Dependency<'src>,
  /// `Module::id` of the target recipe's module.
  pub module: u32,
  /// Index of the target recipe in its module's `recipes`.
  pub target: u32,
}

impl<'src> Dependency<'src> {
  /// The path as written; the last component is the blamed token.
  pub(crate) fn path(&self) -> &'src [Name<'src>] {
    self.ast.path
  }

  pub(crate) fn arguments(&self) -> &'src [Expression<'src>] {
    self.ast.arguments
  }

  /// For a mapped dependency, the index of the argument mapped over.
  pub(crate) fn star(&self) -> Option<usize> {
    self.ast.star_index()
  }

  /// The path as written, joined with `::`.
  pub(crate) fn path_string(&self) -> String {
    self.path().iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::")
  }
}

/// Settings after evaluation (const context). `None` = not set.
#[derive(Debug, Default, Clone)]
pub(crate) struct Settings<'src> {
  pub allow_duplicate_recipes: bool,
  pub allow_duplicate_variables: bool,
  pub default_list: bool,
  pub default_script: bool,
  pub dotenv_command: Vec<String>,
  pub dotenv_filename: Vec<String>,
  pub dotenv_load: bool,
  pub dotenv_override: bool,
  pub dotenv_path: Vec<String>,
  pub dotenv_required: bool,
  pub export: bool,
  pub fallback: bool,
  pub guards: bool,
  pub ignore_comments: bool,
  pub indentation: Option<String>,
  pub lazy: bool,
  pub lists: bool,
  pub no_cd: bool,
  pub no_exit_message: bool,
  pub positional_arguments: bool,
  pub quiet: bool,
  pub script_interpreter: Option<(String, Vec<String>)>,
  pub shell: Option<(String, Vec<String>)>,
  pub tempdir: Option<String>,
  pub unstable: bool,
  pub windows_powershell: bool,
  pub windows_shell: Option<(String, Vec<String>)>,
  pub working_directory: Option<String>,
  pub _marker: std::marker::PhantomData<&'src ()>,
}
