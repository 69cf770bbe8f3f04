//! `--dump --dump-format json` / `--json`:
//! one line of compact JSON describing the compiled root module.

use serde_json::{json, Map, Value as Json};

use crate::analysis::lookup::{resolve_alias, AliasTarget};
use crate::analysis::model::{
  Alias, Assignment, Dependency, Justfile, Module, Parameter, Recipe, Settings,
};
use crate::syntax::ast::{
  ArgAttribute, Attribute, Expression, Fragment, Interpreter, Line, ParameterKind,
};
use crate::syntax::attributes::AttributeKind;

/// A JSON array of values taken as they are. `json!` would serialise each
/// nested `Json` into a copy, which makes deep expressions quadratic.
macro_rules! array {
  ([$($item:expr),* $(,)?]) => {
    Json::Array(vec![$(Json::from($item)),*])
  };
}

/// The `--json` output, newline included.
pub fn dump_json(justfile: &Justfile) -> String {
  format!("{}\n", module_json(&justfile.root))
}

fn object(entries: Vec<(&str, Json)>) -> Json {
  let mut map = Map::new();
  for (key, value) in entries {
    map.insert(key.to_string(), value);
  }
  Json::Object(map)
}

fn optional<T>(value: Option<T>, f: impl FnOnce(T) -> Json) -> Json {
  value.map_or(Json::Null, f)
}

pub fn module_json(module: &Module) -> Json {
  let assignments: Map<String, Json> =
    module.assignments.iter().map(|(name, a)| (name.to_string(), assignment_json(a))).collect();
  let modules: Map<String, Json> =
    module.modules.iter().map(|(name, m)| (name.to_string(), module_json(m))).collect();
  let aliases: Map<String, Json> = module
    .aliases
    .iter()
    .filter(|(_, alias)| !matches!(resolve_alias(module, alias), Some(AliasTarget::Module(_))))
    .map(|(name, a)| (name.to_string(), alias_json(a)))
    .collect();
  let recipes: Map<String, Json> =
    module.recipes.iter().map(|(name, recipe)| (name.to_string(), recipe_json(recipe))).collect();
  // Like a recipe's `[group]`s, the module's are listed sorted by name.
  let mut groups: Vec<&String> = module.groups.iter().collect();
  groups.sort();
  object(vec![
    ("assignments", Json::Object(assignments)),
    ("first", optional(module.default, |name| json!(name))),
    ("doc", optional(module.doc.as_ref(), |doc| json!(doc))),
    ("groups", json!(groups)),
    ("module_path", json!(module.path.join("::"))),
    ("modules", Json::Object(modules)),
    ("aliases", Json::Object(aliases)),
    ("recipes", Json::Object(recipes)),
    ("settings", settings_json(&module.settings)),
    ("source", json!(module.source.to_string_lossy())),
    ("unexports", json!(module.unexports.iter().collect::<Vec<_>>())),
    ("warnings", json!([])),
  ])
}

fn assignment_json(assignment: &Assignment) -> Json {
  object(vec![
    ("eager", json!(assignment.eager)),
    ("export", json!(assignment.export)),
    ("name", json!(assignment.name.lexeme())),
    ("private", json!(assignment.private)),
    ("value", expression_json(&assignment.value)),
  ])
}

fn alias_json(alias: &Alias) -> Json {
  let attributes: Vec<Json> = alias.attributes.iter().map(|a| attribute_json(a, &[])).collect();
  object(vec![
    ("attributes", json!(attributes)),
    ("name", json!(alias.name.lexeme())),
    ("target", optional(alias.target.last(), |name| json!(name.lexeme()))),
  ])
}

fn recipe_json(recipe: &Recipe) -> Json {
  let attributes: Vec<Json> = crate::syntax::attribute_order::sorted(&recipe.attributes)
    .into_iter()
    .map(|entry| attribute_json(&entry.attribute, &recipe.parameters))
    .collect();
  let body: Vec<Json> = recipe.body.iter().map(line_json).collect();
  let dependencies: Vec<Json> =
    recipe.priors.iter().chain(&recipe.subsequents).map(dependency_json).collect();
  let parameters: Vec<Json> = recipe.parameters.iter().map(parameter_json).collect();
  object(vec![
    ("attributes", json!(attributes)),
    ("body", json!(body)),
    ("dependencies", json!(dependencies)),
    ("doc", optional(recipe.doc.as_ref(), |doc| json!(doc))),
    ("name", json!(recipe.name.lexeme())),
    ("parameters", json!(parameters)),
    ("priors", json!(recipe.priors.len())),
    ("private", json!(recipe.private || recipe.name.lexeme().starts_with('_'))),
    ("quiet", json!(recipe.quiet)),
    ("namepath", json!(recipe.namepath)),
    ("shebang", json!(recipe.shebang || recipe.has_attribute(AttributeKind::Script))),
  ])
}

fn line_json(line: &Line) -> Json {
  let fragments: Vec<Json> = line
    .fragments
    .iter()
    .map(|fragment| match fragment {
      Fragment::Text(token) => json!(token.lexeme()),
      Fragment::Interpolation { expression, .. } => array!([expression_json(expression)]),
    })
    .collect();
  json!(fragments)
}

fn dependency_json(dependency: &Dependency) -> Json {
  let arguments: Vec<Json> = dependency.arguments.iter().map(expression_json).collect();
  object(vec![
    ("arguments", json!(arguments)),
    (
      "recipe",
      json!(dependency.path.iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::")),
    ),
    ("star", optional(dependency.star, |star| json!(star))),
  ])
}

fn kind_name(kind: ParameterKind) -> &'static str {
  match kind {
    ParameterKind::Singular => "singular",
    ParameterKind::Plus => "plus",
    ParameterKind::Star => "star",
  }
}

fn patterns_json(parameter: &Parameter) -> Json {
  if parameter.patterns.is_empty() {
    Json::Null
  } else {
    json!(parameter.patterns)
  }
}

fn parameter_json(parameter: &Parameter) -> Json {
  object(vec![
    ("default", optional(parameter.default, expression_json)),
    ("export", json!(parameter.export)),
    ("flag", json!(parameter.flag)),
    ("help", optional(parameter.help.as_ref(), |help| json!(help))),
    ("kind", json!(kind_name(parameter.kind))),
    ("long", optional(parameter.long.as_ref(), |long| json!(long))),
    ("max", optional(parameter.max, |max| json!(max))),
    ("min", optional(parameter.min, |min| json!(min))),
    ("multiple", json!(parameter.multiple)),
    ("name", json!(parameter.name.lexeme())),
    ("pattern", patterns_json(parameter)),
    ("short", optional(parameter.short, |short| json!(short.to_string()))),
    ("value", optional(parameter.value, expression_json)),
  ])
}

fn interpreter_json(interpreter: &Interpreter) -> Json {
  let arguments: Vec<&str> = interpreter.arguments.iter().map(|a| a.cooked.as_str()).collect();
  object(vec![("command", json!(interpreter.command.cooked)), ("arguments", json!(arguments))])
}

fn arg_json(arg: &ArgAttribute, parameters: &[Parameter]) -> Json {
  let parameter = parameters.iter().find(|p| p.name.lexeme() == arg.name.cooked);
  object(vec![
    ("help", optional(parameter.and_then(|p| p.help.as_ref()), |help| json!(help))),
    ("long", optional(parameter.and_then(|p| p.long.as_ref()), |long| json!(long))),
    ("max", optional(arg.max.as_ref(), |max| json!(max.value.1))),
    ("min", optional(arg.min.as_ref(), |min| json!(min.value.1))),
    ("name", json!(arg.name.cooked)),
    ("pattern", parameter.map_or(Json::Null, patterns_json)),
    // A bare `short` is the whole parameter name here (only the parameter
    // object has the single character).
    (
      "short",
      optional(arg.short.as_ref(), |short| match &short.value {
        Some(literal) => json!(literal.cooked),
        None => json!(arg.name.cooked),
      }),
    ),
    ("value", optional(arg.value.as_ref(), |value| expression_json(&value.value))),
  ])
}

fn optional_expression(expression: &Option<Expression>) -> Json {
  optional(expression.as_ref(), expression_json)
}

/// Attributes: unit ones as their name, others as one-key objects.
fn attribute_json(attribute: &Attribute, parameters: &[Parameter]) -> Json {
  use Attribute::*;
  let value = match attribute {
    Arg(arg) => arg_json(arg, parameters),
    Cache(cache) => object(vec![
      ("extra", optional(cache.extra.as_ref(), |k| expression_json(&k.value))),
      ("inputs", optional(cache.inputs.as_ref(), |k| expression_json(&k.value))),
      ("outputs", optional(cache.outputs.as_ref(), |k| expression_json(&k.value))),
    ]),
    Confirm(expression) | Doc(expression) | Timestamp(expression) => {
      optional_expression(expression)
    }
    Continue(signals) => json!(signals.iter().map(|s| s.name()).collect::<Vec<_>>()),
    Env(key, value) => array!([expression_json(key), expression_json(value)]),
    Extension(literal) | Group(literal) => json!(literal.cooked),
    Metadata(literals) => json!(literals.iter().map(|l| l.cooked.as_str()).collect::<Vec<_>>()),
    Script(interpreter) => optional(interpreter.as_ref(), interpreter_json),
    WorkingDirectory(expression) => expression_json(expression),
    _ => return json!(attribute.name()),
  };
  object(vec![(attribute.name(), value)])
}

fn boxed(expression: &Expression) -> Json {
  expression_json(expression)
}

/// The JSON encoding of an expression; parentheses vanish.
pub fn expression_json(expression: &Expression) -> Json {
  use Expression::*;
  match expression {
    And { lhs, rhs, .. } => array!(["and", boxed(lhs), boxed(rhs)]),
    Assert { condition, message, .. } => {
      array!(["assert", boxed(condition), optional(message.as_deref(), expression_json)])
    }
    Backtick { command, .. } => array!(["evaluate", command.as_str()]),
    Call { name, arguments } => {
      let mut items = vec![json!("call"), json!(name.lexeme())];
      items.extend(arguments.iter().map(expression_json));
      Json::Array(items)
    }
    Comparison { lhs, rhs, operator, .. } => array!([operator.symbol(), boxed(lhs), boxed(rhs)]),
    Concatenation { lhs, rhs, .. } => array!(["concatenate", boxed(lhs), boxed(rhs)]),
    Conditional { condition, then, otherwise, .. } => {
      array!(["if", boxed(condition), boxed(then), optional(otherwise.as_deref(), expression_json)])
    }
    FormatString { start, parts, .. } => {
      let mut items = vec![json!("format"), json!(start.cooked)];
      for (expression, piece) in parts {
        items.push(expression_json(expression));
        items.push(json!(piece.cooked));
      }
      Json::Array(items)
    }
    Group { contents, .. } => expression_json(contents),
    Join { lhs, rhs, .. } => {
      array!(["join", optional(lhs.as_deref(), expression_json), boxed(rhs)])
    }
    List { elements, .. } => {
      let mut items = vec![json!("list")];
      items.extend(elements.iter().map(expression_json));
      Json::Array(items)
    }
    ListConcatenation { lhs, rhs, .. } => array!(["list-concatenate", boxed(lhs), boxed(rhs)]),
    Not { operand, .. } => array!(["not", boxed(operand)]),
    Or { lhs, rhs, .. } => array!(["or", boxed(lhs), boxed(rhs)]),
    StringLiteral(literal) => json!(literal.cooked),
    Variable { name } => array!(["variable", name.lexeme()]),
  }
}

fn shell_json(shell: &Option<(String, Vec<String>)>) -> Json {
  optional(shell.as_ref(), |(command, arguments)| {
    object(vec![("command", json!(command)), ("arguments", json!(arguments))])
  })
}

/// `null`, a string, or an array when written as a list / several.
/// One name is a string even when written as a one-element list.
fn dotenv_list_json(values: &[String]) -> Json {
  match values {
    [] => Json::Null,
    [single] => json!(single),
    values => json!(values),
  }
}

fn settings_json(settings: &Settings) -> Json {
  object(vec![
    ("allow_duplicate_recipes", json!(settings.allow_duplicate_recipes)),
    ("allow_duplicate_variables", json!(settings.allow_duplicate_variables)),
    ("default_list", json!(settings.default_list)),
    ("default_script", json!(settings.default_script)),
    ("dotenv_command", json!(settings.dotenv_command)),
    ("dotenv_filename", dotenv_list_json(&settings.dotenv_filename)),
    ("dotenv_load", json!(settings.dotenv_load)),
    ("dotenv_override", json!(settings.dotenv_override)),
    ("dotenv_path", dotenv_list_json(&settings.dotenv_path)),
    ("dotenv_required", json!(settings.dotenv_required)),
    ("export", json!(settings.export)),
    ("fallback", json!(settings.fallback)),
    ("guards", json!(settings.guards)),
    ("ignore_comments", json!(settings.ignore_comments)),
    ("indentation", optional(settings.indentation.as_ref(), |i| json!(i))),
    ("lazy", json!(settings.lazy)),
    ("lists", json!(settings.lists)),
    ("no_cd", json!(settings.no_cd)),
    ("no_exit_message", json!(settings.no_exit_message)),
    ("positional_arguments", json!(settings.positional_arguments)),
    ("quiet", json!(settings.quiet)),
    ("shell", shell_json(&settings.shell)),
    ("tempdir", optional(settings.tempdir.as_ref(), |t| json!(t))),
    ("unstable", json!(settings.unstable)),
    ("windows_powershell", json!(settings.windows_powershell)),
    ("windows_shell", shell_json(&settings.windows_shell)),
    ("working_directory", optional(settings.working_directory.as_ref(), |w| json!(w))),
  ])
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::analysis::fixtures::*;

  #[test]
  fn empty_module() {
    let root = module(&[]);
    let expected = concat!(
      r#"{"assignments":{},"first":null,"doc":null,"groups":[],"module_path":"","modules":{},"aliases":{},"recipes":{},"#,
      r#""settings":{"allow_duplicate_recipes":false,"allow_duplicate_variables":false,"default_list":false,"default_script":false,"dotenv_command":[],"dotenv_filename":null,"dotenv_load":false,"dotenv_override":false,"dotenv_path":null,"dotenv_required":false,"export":false,"fallback":false,"guards":false,"ignore_comments":false,"indentation":null,"lazy":false,"lists":false,"no_cd":false,"no_exit_message":false,"positional_arguments":false,"quiet":false,"shell":null,"tempdir":null,"unstable":false,"windows_powershell":false,"windows_shell":null,"working_directory":null},"#,
      r#""source":"/tmp/justfile","unexports":[],"warnings":[]}"#,
      "\n"
    );
    assert_eq!(dump_json(&justfile(root)), expected);
  }

  #[test]
  fn recipe_with_parameters() {
    let mut root = module(&[]);
    let mut mode = param("mode");
    mode.default = Some(Box::leak(Box::new(string("'debug'"))));
    mode.export = true;
    let mut flags = param("flags");
    flags.kind = ParameterKind::Star;
    let mut build = recipe(&[], "build", vec![mode, flags]);
    group(&mut build, "dev");
    build.doc = Some("Build it".into());
    add_recipes(&mut root, vec![build]);
    add_alias(&mut root, alias("b", &["build"]));
    let json = module_json(&root);
    assert_eq!(
      json["recipes"]["build"].to_string(),
      concat!(
        r#"{"attributes":[{"group":"dev"}],"body":[],"dependencies":[],"doc":"Build it","name":"build","parameters":["#,
        r#"{"default":"debug","export":true,"flag":false,"help":null,"kind":"singular","long":null,"max":null,"min":null,"multiple":false,"name":"mode","pattern":null,"short":null,"value":null},"#,
        r#"{"default":null,"export":false,"flag":false,"help":null,"kind":"star","long":null,"max":null,"min":null,"multiple":false,"name":"flags","pattern":null,"short":null,"value":null}],"#,
        r#""priors":0,"private":false,"quiet":false,"namepath":"build","shebang":false}"#
      )
    );
    assert_eq!(
      json["aliases"].to_string(),
      r#"{"b":{"attributes":[],"name":"b","target":"build"}}"#
    );
    assert_eq!(json["first"], json!("build"));
  }
}
