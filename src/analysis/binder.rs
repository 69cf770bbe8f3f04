//! The binding pass: what each variable reference and call means, decided
//! once from the checked model and kept in the run's `Bindings`.
//!
//! A run binds what it may evaluate, once: a module's assignments and
//! function bodies when it is prepared, a recipe's expressions when it is
//! demanded or run. Listings and dumps bind nothing, and `--evaluate` no
//! recipe.

use super::bindings::{Binding, Bindings};
use super::model::{Assignment, Functions, Justfile, Module, Recipe, Table};
use super::names::{same_name, token_bytes};
use super::resolver::{for_each_expression, walk};
use crate::builtins::constants;
use crate::builtins::functions::Function;
use crate::syntax::ast::{self, Expression, Name};
use crate::syntax::token::Token;

impl<'src> Justfile<'src> {
  /// Bind the names of a module's assignments and function bodies, before
  /// they are evaluated.
  pub(crate) fn bind_module(&self, module: &Module<'src>) {
    self.bindings().bind_module(module);
  }

  /// Bind the names of a recipe's expressions, before they are evaluated.
  pub(crate) fn bind_recipe(&self, module: &Module<'src>, recipe: &Recipe<'src>) {
    self.bindings().bind_recipe(module, recipe);
  }
}

impl Bindings {
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
  use crate::syntax::ast::Slot;
  use crate::syntax::sources::Sources;
  use crate::syntax::trees::Trees;

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
