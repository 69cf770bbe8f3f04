//! What each variable reference and function call is bound to, decided once
//! from the checked model: the parser numbers every `Variable` and `Call`
//! node (its `Slot`), and this table, indexed by slot, says which parameter,
//! assignment, constant or function the name means there. Evaluation reads
//! it and never looks a name up again.
//!
//! A run binds what it may evaluate, once: a module's assignments and
//! function bodies when it is prepared, a recipe's expressions when it is
//! demanded or run. Listings and dumps bind nothing, and `--evaluate` no
//! recipe.

use std::sync::atomic::{AtomicU32, Ordering};

use super::model::{Assignment, Functions, Module, Recipe, Table};
use super::names::{same_name, token_bytes};
use super::resolver::{for_each_expression, walk};
use crate::builtins::constants;
use crate::builtins::functions::Function;
use crate::syntax::ast::{self, Expression, Name, Slot};
use crate::syntax::token::Token;

/// What the name of a `Variable` or `Call` node means where it is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Binding {
  /// Not bound (yet): a node of an expression that is never evaluated at run
  /// time (settings, `[doc]`, `[arg(pattern, help)]`), of a recipe not run,
  /// or made outside the parser. Evaluation then looks the name up itself.
  #[default]
  Unbound,
  /// The recipe parameter at this index.
  Parameter(u32),
  /// The parameter at this index of the user function whose body this is.
  FunctionParameter(u32),
  /// The module assignment at this index of its `assignments` table.
  Assignment(u32),
  /// The built-in constant with this id (`constants::value`).
  Constant(u32),
  /// The user function at this index of the module's `functions`.
  UserFunction(u32),
  Builtin(Function),
}

/// A binding in one word: the kind in the top three bits, the index below.
const KIND_SHIFT: u32 = 29;
const INDEX_MASK: u32 = (1 << KIND_SHIFT) - 1;

impl Binding {
  fn pack(self) -> u32 {
    let (kind, index) = match self {
      Binding::Unbound => return 0,
      Binding::Parameter(index) => (1, index),
      Binding::FunctionParameter(index) => (2, index),
      Binding::Assignment(index) => (3, index),
      Binding::Constant(id) => (4, id),
      Binding::UserFunction(index) => (5, index),
      Binding::Builtin(function) => (6, function as u32),
    };
    // An index too large to pack stays unbound: looked up by name.
    if index > INDEX_MASK {
      return 0;
    }
    kind << KIND_SHIFT | index
  }

  fn unpack(word: u32) -> Binding {
    let index = word & INDEX_MASK;
    match word >> KIND_SHIFT {
      1 => Binding::Parameter(index),
      2 => Binding::FunctionParameter(index),
      3 => Binding::Assignment(index),
      4 => Binding::Constant(index),
      5 => Binding::UserFunction(index),
      6 => Function::from_index(index as usize).map_or(Binding::Unbound, Binding::Builtin),
      _ => Binding::Unbound,
    }
  }
}

/// The binding of every slot of a run. Threads that run recipes in
/// parallel may bind the same recipe at once: they store the same words.
#[derive(Debug, Default)]
pub(crate) struct Bindings(Vec<AtomicU32>);

impl Bindings {
  /// Room for `count` slots, none bound yet.
  pub(crate) fn with_slots(count: usize) -> Self {
    Bindings((0..count).map(|_| AtomicU32::new(0)).collect())
  }

  pub(crate) fn get(&self, slot: Slot) -> Binding {
    self
      .0
      .get(slot.index())
      .map_or(Binding::Unbound, |word| Binding::unpack(word.load(Ordering::Relaxed)))
  }

  fn set(&self, slot: Slot, binding: Binding) {
    if let Some(word) = self.0.get(slot.index()) {
      word.store(binding.pack(), Ordering::Relaxed);
    }
  }

  /// Bind the names in a module's assignments and function bodies.
  pub(crate) fn bind_module(&self, module: &Module<'_>) {
    let binder = Binder::new(self, module);
    for assignment in module.assignments.values_added() {
      binder.expression(assignment.value, Scope::Module);
    }
    self.bind_functions(module);
  }

  /// Bind the names in a module's function bodies, which the demand of a
  /// recipe that calls them walks before the module is prepared.
  pub(crate) fn bind_functions(&self, module: &Module<'_>) {
    let binder = Binder::new(self, module);
    for function in module.functions.values() {
      binder.expression(&function.body, Scope::Function(function.parameters));
    }
  }

  /// Bind the names in the expressions of `recipe`, of `module`.
  pub(crate) fn bind_recipe(&self, module: &Module<'_>, recipe: &Recipe<'_>) {
    let binder = Binder::new(self, module);
    let parameters = recipe.ast.parameters;
    let _ = for_each_expression::<(), _>(recipe.ast, false, &mut |expression, in_scope, _| {
      binder.expression(expression, Scope::Recipe(parameters.get(..in_scope).unwrap_or(&[])));
      Ok(())
    });
  }
}

/// The names bound where an expression sits, besides the module's.
#[derive(Clone, Copy)]
enum Scope<'a, 'src> {
  Module,
  /// A user function's parameters.
  Function(&'a [Name<'src>]),
  /// The recipe parameters in scope.
  Recipe(&'a [ast::Parameter<'src>]),
}

struct Binder<'b, 'a, 'src> {
  bindings: &'b Bindings,
  assignments: &'a Table<'src, Assignment<'src>>,
  functions: &'a Functions<'src>,
}

impl<'b, 'a, 'src> Binder<'b, 'a, 'src> {
  fn new(bindings: &'b Bindings, module: &'a Module<'src>) -> Self {
    Binder { bindings, assignments: &module.assignments, functions: &module.functions }
  }

  fn expression(&self, expression: &Expression<'src>, scope: Scope<'_, 'src>) {
    // Most defaults and many values are plain strings.
    if matches!(expression, Expression::StringLiteral(_)) {
      return;
    }
    let _ = walk::<(), _>(expression, &mut |node| {
      match node {
        Expression::Variable { name, slot } => {
          let binding = self.variable(name, scope);
          self.bindings.set(*slot, binding);
        }
        Expression::Call { name, slot, .. } => {
          let binding = self.call(name);
          self.bindings.set(*slot, binding);
        }
        _ => {}
      }
      Ok(())
    });
  }

  /// A parameter in scope, else a module assignment, else a constant: the
  /// order in which evaluation used to look the name up.
  fn variable(&self, name: &Token<'src>, scope: Scope<'_, 'src>) -> Binding {
    let bytes = token_bytes(name);
    let named = |bound: &Token| bound.length == name.length && same_name(token_bytes(bound), bytes);
    let parameter = match scope {
      Scope::Module => None,
      Scope::Function(parameters) => {
        parameters.iter().position(named).map(|index| Binding::FunctionParameter(narrow(index)))
      }
      // The last of equal names, as a later parameter shadows an earlier one.
      Scope::Recipe(parameters) => parameters
        .iter()
        .rposition(|parameter| named(&parameter.name))
        .map(|index| Binding::Parameter(narrow(index))),
    };
    if let Some(parameter) = parameter {
      return parameter;
    }
    if let Some(index) = self.assignments.index_of_token(name) {
      return Binding::Assignment(narrow(index));
    }
    constants::id(name.lexeme()).map_or(Binding::Unbound, Binding::Constant)
  }

  /// A user function, else a built-in one.
  fn call(&self, name: &Token<'src>) -> Binding {
    let function = name.lexeme();
    if let Some(index) = self.functions.index_of(function) {
      return Binding::UserFunction(narrow(index));
    }
    Function::from_name(function).map_or(Binding::Unbound, Binding::Builtin)
  }
}

fn narrow(index: usize) -> u32 {
  u32::try_from(index).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
  use std::path::Path;

  use super::*;
  use crate::analysis::analyzer::compile;
  use crate::analysis::loader::{Arenas, LoadRequest};
  use crate::analysis::resolver::for_each_expression;
  use crate::syntax::sources::{Sources, Trees};

  /// `text` as the root justfile (given, not read), with `set unstable`.
  fn compiled<'src>(text: &str, arenas: Arenas<'src>) -> crate::analysis::model::Justfile<'src> {
    let request = LoadRequest {
      justfile: Path::new("/nonexistent/justfile"),
      source: Some(text.to_string()),
      working_directory: Path::new("/nonexistent"),
      overrides: &[],
      unstable: true,
    };
    compile(&request, arenas).expect("compiles")
  }

  /// The binding of every variable and call of the root module's recipe
  /// `recipe` (in walk order), written as `name=binding`.
  fn recipe_bindings(text: &str, recipe: &str) -> Vec<String> {
    let (sources, trees) = (Sources::new(), Trees::new());
    let justfile = compiled(text, Arenas { sources: &sources, trees: &trees });
    let recipe = justfile.root.recipes.get(recipe).expect("recipe");
    justfile.bind_recipe(&justfile.root, recipe);
    let mut out = Vec::new();
    let _ = for_each_expression::<(), _>(recipe.ast, false, &mut |expression, _, _| {
      walk::<(), _>(expression, &mut |node| {
        if let Expression::Variable { name, slot } = node {
          out.push(format!("{}={:?}", name.lexeme(), justfile.bindings().get(*slot)));
        }
        if let Expression::Call { name, slot, .. } = node {
          out.push(format!("{}()={:?}", name.lexeme(), justfile.bindings().get(*slot)));
        }
        Ok(())
      })
    });
    out
  }

  #[test]
  fn recipe_names_bind_to_parameters_then_assignments_then_constants() {
    let text = "b := 'B'\na := 'A'\nr a x=a y=b:\n  echo {{a}} {{x}} {{b}} {{HEX}} {{y}}\n";
    assert_eq!(
      recipe_bindings(text, "r"),
      [
        "a=Parameter(0)",
        "b=Assignment(0)",
        "a=Parameter(0)",
        "x=Parameter(1)",
        "b=Assignment(0)",
        "HEX=Constant(0)",
        "y=Parameter(2)",
      ]
    );
  }

  #[test]
  fn calls_bind_to_user_functions_before_builtins() {
    let text =
      "uppercase(s) := s\nf(x) := x\nr:\n  echo {{uppercase('a')}} {{f('b')}} {{lowercase('C')}}\n";
    let lowercase = format!("lowercase()=Builtin({:?})", Function::Lowercase);
    assert_eq!(
      recipe_bindings(text, "r"),
      ["uppercase()=UserFunction(1)", "f()=UserFunction(0)", lowercase.as_str()]
    );
  }

  #[test]
  fn bindings_pack_into_one_word() {
    let mut bindings = vec![
      Binding::Unbound,
      Binding::Parameter(0),
      Binding::FunctionParameter(7),
      Binding::Assignment(INDEX_MASK),
      Binding::Constant(28),
      Binding::UserFunction(3),
    ];
    bindings.extend(Function::ALL.iter().copied().map(Binding::Builtin));
    for binding in bindings {
      assert_eq!(Binding::unpack(binding.pack()), binding);
    }
    assert_eq!(Binding::Assignment(INDEX_MASK + 1).pack(), 0);
  }

  #[test]
  fn a_recipe_is_bound_when_asked() {
    let (sources, trees) = (Sources::new(), Trees::new());
    let justfile =
      compiled("x := 'X'\nr:\n  echo {{x}}\n", Arenas { sources: &sources, trees: &trees });
    let recipe = justfile.root.recipes.get("r").expect("recipe");
    let slot = match recipe.ast.body[0].interpolations[0].expression {
      Expression::Variable { slot, .. } => *slot,
      _ => Slot::NONE,
    };
    assert_eq!(justfile.bindings().get(slot), Binding::Unbound);
    justfile.bind_module(&justfile.root);
    assert_eq!(justfile.bindings().get(slot), Binding::Unbound);
    justfile.bind_recipe(&justfile.root, recipe);
    assert_eq!(justfile.bindings().get(slot), Binding::Assignment(0));
  }

  #[test]
  fn function_bodies_bind_their_parameters() {
    let text = "x := 'X'\nf(y, x) := x + y + HEX\nr:\n  echo {{f('a', 'b')}}\n";
    let (sources, trees) = (Sources::new(), Trees::new());
    let justfile = compiled(text, Arenas { sources: &sources, trees: &trees });
    let function = justfile.root.functions.get("f").expect("function");
    justfile.bind_module(&justfile.root);
    let mut out = Vec::new();
    let _ = walk::<(), _>(&function.body, &mut |node| {
      if let Expression::Variable { name, slot } = node {
        out.push(format!("{}={:?}", name.lexeme(), justfile.bindings().get(*slot)));
      }
      Ok(())
    });
    assert_eq!(out, ["x=FunctionParameter(1)", "y=FunctionParameter(0)", "HEX=Constant(0)"]);
  }
}
