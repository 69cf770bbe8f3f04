//! Hand-built models for unit tests of the listing and invocation code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::analysis::effects::{Effects, ParameterOptions};
use crate::analysis::model::{
  Alias, Functions, Justfile, Module, Recipe, Settings, Submodules, Table,
};
use crate::syntax::ast::{self, Expression, ParameterKind, StringKind, StringLiteral};
use crate::syntax::sources::Source;
use crate::syntax::token::{Token, TokenKind};

pub(crate) fn token(text: &str, kind: TokenKind) -> Token<'static> {
  // Fixtures live for the whole test process.
  let source: &'static Source = Box::leak(Box::new(Source::new(text, "justfile")));
  Token::new(kind, source, 0, text.len(), 0)
}

pub(crate) fn name(text: &str) -> Token<'static> {
  token(text, TokenKind::Identifier)
}

/// A string literal expression written as `source` (quotes included).
pub(crate) fn string(source: &str) -> Expression<'static> {
  let cooked = source[1..source.len() - 1].to_string();
  let kind = if source.starts_with('"') { StringKind::CookedDouble } else { StringKind::RawSingle };
  Expression::StringLiteral(StringLiteral {
    token: token(source, TokenKind::StringToken),
    kind,
    expand: false,
    cooked: cooked.leak(),
  })
}

/// A parameter for `recipe`: its parse node and `[arg]` configuration.
pub(crate) struct Param {
  ast: ast::Parameter<'static>,
  options: Option<ParameterOptions<'static>>,
}

impl Param {
  /// The `[arg]` configuration, created empty if there is none.
  pub(crate) fn options_mut(&mut self) -> &mut ParameterOptions<'static> {
    self.options.get_or_insert_with(ParameterOptions::default)
  }
}

pub(crate) fn param(text: &str) -> Param {
  let ast = ast::Parameter {
    name: name(text),
    default: None,
    export: false,
    kind: ParameterKind::Singular,
  };
  Param { ast, options: None }
}

/// Change a parameter's parse node.
pub(crate) fn edit_param(parameter: &mut Param, change: impl FnOnce(&mut ast::Parameter<'static>)) {
  change(&mut parameter.ast);
}

pub(crate) fn recipe(module_path: &[&str], text: &str, parameters: Vec<Param>) -> Recipe<'static> {
  let mut namepath: Vec<&str> = module_path.to_vec();
  namepath.push(text);
  let asts: Vec<ast::Parameter<'static>> =
    parameters.iter().map(|parameter| parameter.ast).collect();
  let mut effects = Effects::default();
  if parameters.iter().any(|parameter| parameter.options.is_some()) {
    effects.values_mut().parameters =
      parameters.into_iter().map(|parameter| parameter.options.unwrap_or_default()).collect();
  }
  Recipe {
    namepath: leak(&namepath.join("::")),
    doc: None,
    effects,
    dependencies: crate::analysis::model::Pooled::default(),
    ast: Box::leak(Box::new(ast::Recipe {
      attributes: ast::Attributes::default(),
      doc: None,
      quiet: false,
      name: name(text),
      parameters: asts.leak(),
      dependencies: &[],
      prior_count: 0,
      body: &[],
      shebang: false,
    })),
    prior_count: 0,
    order: 0,
    private: text.starts_with('_'),
    script: false,
  }
}

/// Add a `[group]` to a recipe's parse node (a leaked copy of it).
pub(crate) fn group(recipe: &mut Recipe<'static>, group: &str) {
  let source = format!("'{group}'");
  let literal = StringLiteral {
    token: token(&source, TokenKind::StringToken),
    kind: StringKind::RawSingle,
    expand: false,
    cooked: group.to_string().leak(),
  };
  let mut attributes = recipe.ast.attributes.list.to_vec();
  attributes
    .push(ast::AttributeEntry { name: name("group"), attribute: ast::Attribute::Group(literal) });
  let attributes = ast::Attributes { list: attributes.leak() };
  recipe.ast = Box::leak(Box::new(ast::Recipe { attributes, ..*recipe.ast }));
  recipe.effects.values_mut().groups.push(literal.cooked);
}

pub(crate) fn alias(text: &str, target: &[&str]) -> Alias<'static> {
  Alias {
    name: name(text),
    attributes: Vec::new(),
    target: target.iter().map(|t| name(t)).collect(),
    private: false,
  }
}

pub(crate) fn module(path: &[&str]) -> Module<'static> {
  Module {
    id: 0,
    path: path.iter().map(|p| p.to_string()).collect(),
    source: PathBuf::from("/tmp/justfile"),
    base_directory: PathBuf::from("/tmp"),
    ast: Box::leak(Box::default()),
    doc: None,
    groups: Vec::new(),
    private: false,
    assignments: Table::new(),
    functions: Functions::default(),
    recipes: Table::new(),
    aliases: BTreeMap::new(),
    modules: Submodules::default(),
    absent_modules: BTreeSet::new(),
    disabled: BTreeMap::new(),
    settings: Settings::default(),
    unexports: BTreeSet::new(),
    default: None,
    unstable_features: BTreeSet::new(),
    order: 0,
    position: 0,
    beside_recipe: false,
    disabled_aliases: BTreeSet::new(),
  }
}

fn leak(text: &str) -> &'static str {
  Box::leak(text.to_string().into_boxed_str())
}

/// Adds recipes in source order; the first becomes the default.
pub(crate) fn add_recipes(module: &mut Module<'static>, recipes: Vec<Recipe<'static>>) {
  for mut recipe in recipes {
    recipe.order = u32::try_from(module.recipes.len()).unwrap_or(u32::MAX);
    let name = recipe.name().lexeme();
    module.recipes.insert(recipe);
    if module.default.is_none() {
      module.default = module.recipes.index_of(name);
    }
  }
}

pub(crate) fn add_alias(module: &mut Module<'static>, alias: Alias<'static>) {
  module.aliases.insert(leak(alias.name.lexeme()), alias);
}

/// Adds a submodule after the others in source order, not placed among
/// the recipes.
pub(crate) fn add_module(parent: &mut Module<'static>, text: &str, mut child: Module<'static>) {
  let key = leak(text);
  child.order = u32::try_from(parent.modules.len()).unwrap_or(u32::MAX);
  child.position = usize::MAX;
  parent.modules.insert(key, child);
}

/// Numbers the modules depth-first, as the analyzer does.
pub(crate) fn justfile(mut root: Module<'static>) -> Justfile<'static> {
  fn number(module: &mut Module<'static>, paths: &mut Vec<Vec<String>>) {
    module.id = paths.len();
    paths.push(module.path.clone());
    for submodule in module.modules.values_mut() {
      number(submodule, paths);
    }
  }
  let mut module_paths = Vec::new();
  number(&mut root, &mut module_paths);
  Justfile::new(root, module_paths, 0)
}
