//! What each variable reference and function call is bound to, decided once
//! by analysis: the parser numbers every `Variable` and `Call` node (its
//! `Slot`), and this table, indexed by slot, says which parameter,
//! assignment, constant or function the name means there. Evaluation reads
//! it and never looks a name up again.

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
  /// Not bound by analysis: a node of an expression that is never evaluated
  /// at run time (settings, `[doc]`, `[arg(pattern, help)]`), or made
  /// outside the parser.
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

/// The binding of every slot of a run.
#[derive(Debug, Default)]
pub(crate) struct Bindings(Vec<Binding>);

impl Bindings {
  /// The bindings of every module under `root`, in trees with `count`
  /// slots: made once the modules have passed their checks.
  pub(crate) fn of(root: &Module<'_>, count: usize) -> Self {
    let mut bindings = Bindings(vec![Binding::Unbound; count]);
    let mut pending = vec![root];
    while let Some(module) = pending.pop() {
      bindings.bind_module(&module.assignments, &module.functions, &module.recipes);
      pending.extend(module.modules.values());
    }
    bindings
  }

  pub(crate) fn get(&self, slot: Slot) -> Binding {
    self.0.get(slot.index()).copied().unwrap_or_default()
  }

  fn set(&mut self, slot: Slot, binding: Binding) {
    if let Some(entry) = self.0.get_mut(slot.index()) {
      *entry = binding;
    }
  }

  /// Bind every name in the expressions a module evaluates at run time: its
  /// assignments, the bodies of its functions and its recipes' expressions.
  fn bind_module<'src>(
    &mut self,
    assignments: &Table<'src, Assignment<'src>>,
    functions: &Functions<'src>,
    recipes: &Table<'src, Recipe<'src>>,
  ) {
    let mut binder = Binder { bindings: self, assignments, functions };
    for assignment in assignments.values_added() {
      binder.expression(assignment.value, Scope::Module);
    }
    for function in functions.values() {
      binder.expression(&function.body, Scope::Function(function.parameters));
    }
    for recipe in recipes.values_added() {
      let parameters = recipe.ast.parameters;
      let _ = for_each_expression::<(), _>(recipe.ast, false, &mut |expression, in_scope, _| {
        let scope = Scope::Recipe(parameters.get(..in_scope).unwrap_or(&[]));
        binder.expression(expression, scope);
        Ok(())
      });
    }
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
  bindings: &'b mut Bindings,
  assignments: &'a Table<'src, Assignment<'src>>,
  functions: &'a Functions<'src>,
}

impl<'src> Binder<'_, '_, 'src> {
  fn expression(&mut self, expression: &Expression<'src>, scope: Scope<'_, 'src>) {
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
  fn function_bodies_bind_their_parameters() {
    let text = "x := 'X'\nf(y, x) := x + y + HEX\nr:\n  echo {{f('a', 'b')}}\n";
    let (sources, trees) = (Sources::new(), Trees::new());
    let justfile = compiled(text, Arenas { sources: &sources, trees: &trees });
    let function = justfile.root.functions.get("f").expect("function");
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
