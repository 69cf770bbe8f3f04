//! `textDocument/hover`: a recipe shows what `just --help RECIPE` shows
//! (with its doc comment); a built-in function, constant, setting or
//! attribute what its vocabulary table says; a variable its definition; a
//! parameter the recipe it belongs to.

use std::path::Path;

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

use super::completion::{
  definitions_with_imports, function_signature, header_colon, module_definitions, module_path,
};
use super::documents::Documents;
use super::outline::{self, Definition, Kind};
use super::positions;
use super::project;
use crate::analysis::model::{Module, Recipe};
use crate::builtins::constants;
use crate::builtins::functions::Function;
use crate::output::recipe_help::recipe_help;
use crate::syntax::attributes::{AttributeKind, ItemKind};
use crate::syntax::settings::{Setting, SettingType};

pub(super) fn hover(
  path: &Path,
  text: &str,
  position: Position,
  documents: &Documents,
) -> Option<Hover> {
  let offset = positions::offset(text, position);
  let (start, end) = outline::word_at(text, offset)?;
  let word = &text[start..end];
  let line_start = text[..start].rfind('\n').map_or(0, |index| index + 1);
  let before = text[line_start..start].trim();
  let after = &text[end..];
  let markdown = describe(path, text, word, before, after, start, documents)?;
  Some(Hover {
    contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: markdown }),
    range: Some(positions::range(text, start, end)),
  })
}

fn code(text: &str) -> String {
  format!("```\n{}\n```", text.trim_end())
}

fn describe(
  path: &Path,
  text: &str,
  word: &str,
  before: &str,
  after: &str,
  start: usize,
  documents: &Documents,
) -> Option<String> {
  // Attribute names inside `[…]`.
  if before.starts_with('[') && !before.contains(']') {
    if let Some(kind) = AttributeKind::from_name(word) {
      return Some(attribute(kind));
    }
  }
  if before == "set" {
    return Setting::from_name(word).map(setting);
  }
  if after.trim_start().starts_with('(') {
    if let Some(function) = Function::from_name(word) {
      return Some(function_hover(function));
    }
  }
  let defined = definitions_with_imports(path, text, documents);
  // `module::name`: the name as that module defines it, nothing else.
  let modules = module_path(before);
  if !modules.is_empty() {
    let inner = module_definitions(path, defined, &modules, documents)?;
    let definition = inner.iter().find(|definition| {
      definition.name == word && !matches!(definition.kind, Kind::Variable { .. })
    })?;
    let help = || module_recipe_hover(path, &modules, word, documents);
    return describe_definition(definition, word, help);
  }
  let line = text[..start].matches('\n').count();
  // A parameter of the recipe the word is in.
  if let Some(recipe) = outline::enclosing_recipe(text, &defined, line) {
    if let Kind::Recipe { parameters } = &recipe.kind {
      if parameters.iter().any(|parameter| parameter == word)
        && !(recipe.line == line && recipe.start == start)
      {
        return Some(parameter_hover(text, recipe, word));
      }
    }
  }
  let definition = defined.iter().find(|definition| definition.name == word);
  if let Some(definition) = definition {
    let help = || recipe_hover(path, definition.start, word, documents);
    if let Some(described) = describe_definition(definition, word, help) {
      return Some(described);
    }
  }
  if let Some(value) = constants::constant(word) {
    return Some(format!("constant `{word}` = `{value:?}`\n\n{}", constants::doc(word)));
  }
  Function::from_name(word).map(function_hover)
}

/// What a definition of the name `word` shows; `help` is a recipe's
/// `--help` from the compiled justfile, if it compiles.
fn describe_definition(
  definition: &Definition,
  word: &str,
  help: impl FnOnce() -> Option<String>,
) -> Option<String> {
  Some(match &definition.kind {
    Kind::Recipe { parameters } => help().unwrap_or_else(|| {
      // Without a compiled justfile: the doc comment and the names.
      let doc = definition.doc.as_deref().map(|doc| format!("{doc}\n\n")).unwrap_or_default();
      let header =
        std::iter::once(word).chain(parameters.iter().map(String::as_str)).collect::<Vec<_>>();
      format!("{doc}{}", code(&format!("{}:", header.join(" "))))
    }),
    Kind::Variable { value } => code(&format!("{word} := {value}")),
    Kind::Function { parameters } => code(&format!("{word}({}) := …", parameters.join(", "))),
    Kind::Alias { target } => code(&format!("alias {word} := {target}")),
    Kind::Module { path, optional } => {
      let file = path.as_deref().map(|path| format!(" '{path}'")).unwrap_or_default();
      let keyword = if *optional { "mod?" } else { "mod" };
      code(&format!("{keyword} {word}{file}"))
    }
    Kind::Import { .. } => return None,
  })
}

/// A parameter of `recipe` (a definition of `text`), with its default.
fn parameter_hover(text: &str, recipe: &Definition, word: &str) -> String {
  let line_end = text[recipe.end..].find('\n').map_or(text.len(), |index| recipe.end + index);
  let header = &text[recipe.end..line_end];
  let header = &header[..header_colon(header).unwrap_or(header.len())];
  let default = outline::parameter_defaults(header).into_iter().find_map(|(name, default)| {
    if name == word {
      default
    } else {
      None
    }
  });
  let described = format!("parameter `{word}` of recipe `{}`", recipe.name);
  match default {
    Some(default) => format!("{described}, default `{default}`"),
    None => described,
  }
}

fn function_hover(function: Function) -> String {
  format!("{}\n\n{}", code(&function_signature(function)), function.doc())
}

fn attribute(kind: AttributeKind) -> String {
  let (minimum, maximum) = kind.arity();
  let arguments = match (minimum, maximum) {
    (0, Some(0)) => "no arguments".to_string(),
    (minimum, Some(maximum)) if minimum == maximum => format!("{minimum} argument(s)"),
    (minimum, Some(maximum)) => format!("{minimum} to {maximum} arguments"),
    (minimum, None) => format!("{minimum} or more arguments"),
  };
  let items: Vec<&str> = [
    ItemKind::Alias,
    ItemKind::Assignment,
    ItemKind::Function,
    ItemKind::Import,
    ItemKind::Module,
    ItemKind::Recipe,
    ItemKind::Setting,
    ItemKind::Unexport,
  ]
  .into_iter()
  .filter(|item| kind.annotates(*item))
  .map(ItemKind::name)
  .collect();
  let mut text = format!("attribute `[{}]`: {arguments}; on {}", kind.name(), items.join(", "));
  if kind.is_keyed() {
    text.push_str("; takes `key=value` arguments");
  }
  if kind.is_repeatable() {
    text.push_str("; may be repeated");
  }
  text.push_str("\n\n");
  text.push_str(kind.doc());
  text
}

fn setting(setting: Setting) -> String {
  let value = match setting.value_type() {
    SettingType::Boolean => "`true` or `false` (`set NAME` alone is `true`)",
    SettingType::Expression => "an expression",
    SettingType::List => "a list of strings, `['command', 'argument', …]`",
    SettingType::Literal => "a string literal",
  };
  format!("setting `{}`: {value}\n\n{}", setting.name(), setting.doc())
}

/// What `just --help RECIPE` shows for the recipe whose name starts at byte
/// `start` of the file at `path`, from the compiled justfile.
fn recipe_hover(path: &Path, start: usize, name: &str, documents: &Documents) -> Option<String> {
  project::with_justfile(path, documents.overlays(), |justfile, directory| {
    let recipe = find_recipe(&justfile.root, path, start, name, directory)?;
    Some(code(&recipe_help(justfile, recipe, false)))
  })
  .flatten()
}

/// What `just --help` shows for recipe `name` of the module `modules`
/// leads to from the justfile that loads `path`.
fn module_recipe_hover(
  path: &Path,
  modules: &[&str],
  name: &str,
  documents: &Documents,
) -> Option<String> {
  project::with_justfile(path, documents.overlays(), |justfile, directory| {
    // The module of the file (the root for an import).
    let module = containing_module(&justfile.root, path, directory).unwrap_or(&justfile.root);
    let module = modules.iter().try_fold(module, |module, name| module.modules.get(name))?;
    let recipe = module.recipes.values().find(|recipe| recipe.name().lexeme() == name)?;
    Some(code(&recipe_help(justfile, recipe, false)))
  })
  .flatten()
}

/// The module whose own file is `path`, searched from `module` down.
fn containing_module<'a, 'src>(
  module: &'a Module<'src>,
  path: &Path,
  directory: &Path,
) -> Option<&'a Module<'src>> {
  let file = &module.source;
  let file = if file.is_absolute() { file.clone() } else { directory.join(file) };
  if file == path {
    return Some(module);
  }
  module.modules.values().find_map(|submodule| containing_module(submodule, path, directory))
}

fn find_recipe<'a, 'src>(
  module: &'a Module<'src>,
  path: &Path,
  start: usize,
  name: &str,
  directory: &Path,
) -> Option<&'a Recipe<'src>> {
  let found = module.recipes.values().find(|recipe| {
    let token = recipe.name();
    let file = token.path();
    let file = if file.is_absolute() { file.to_path_buf() } else { directory.join(file) };
    token.offset as usize == start && token.lexeme() == name && file == path
  });
  found.or_else(|| {
    module.modules.values().find_map(|module| find_recipe(module, path, start, name, directory))
  })
}
