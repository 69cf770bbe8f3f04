//! The enabled items of a module, listed once: each with the file of the
//! module (its own file or an import) and the index of the item in it.

use super::loader::LoadedModule;
use crate::syntax::ast::{self, Item};

/// One enabled item of the module: which file and item of it.
#[derive(Clone, Copy)]
pub(crate) struct Entry<'src, 'f> {
  pub file: u32,
  pub index: u32,
  pub item: &'src Item<'src>,
  pub _files: std::marker::PhantomData<&'f ()>,
}

/// The enabled items of every file of a module, in order.
pub(crate) fn module_entries<'src, 'f>(loaded: &LoadedModule<'src>) -> Vec<Entry<'src, 'f>> {
  let counted = |item: &Item| !matches!(item, Item::Comment(_) | Item::Eol);
  let mut count = 0;
  for file in &loaded.files {
    for item in &file.ast.items {
      count += usize::from(counted(item));
    }
  }
  let mut entries = Vec::with_capacity(count);
  for (file, loaded_file) in (0..).zip(&loaded.files) {
    let ast: &'src ast::Ast<'src> = loaded_file.ast;
    for (index, item) in (0..).zip(&ast.items) {
      if counted(item) && item_enabled(item) {
        entries.push(Entry { file, index, item, _files: std::marker::PhantomData });
      }
    }
  }
  entries
}

fn item_enabled(item: &Item<'_>) -> bool {
  match item_attributes(item) {
    Some(attributes) => super::effects::enabled(attributes),
    None => true,
  }
}

fn item_attributes<'src, 'i>(item: &'i Item<'src>) -> Option<&'i ast::Attributes<'src>> {
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
