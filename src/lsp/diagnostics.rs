//! Diagnostics: the error `just` reports for a justfile, from the editor's
//! unsaved texts, published for the file it is in (an import's or module's
//! error for that file); and warnings for what is certainly a mistake, each
//! a rule the client can switch off (`Rules`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use lexiclean::Lexiclean;
use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Range};

use super::documents::{self, Documents};
use super::positions::{self, token_range};
use super::project;
use crate::analysis::analyzer::LoadError;
use crate::analysis::model::Module;
use crate::analysis::resolver::walk;
use crate::syntax::ast::{Ast, Attribute, AttributeEntry, Expression, Item, Recipe, SettingValue};
use crate::syntax::parser;
use crate::syntax::sources::Source;
use crate::syntax::token::Token;
use crate::syntax::trees::Trees;

/// The warning rules, each on unless the client turns it off
/// (`initializationOptions` or `workspace/didChangeConfiguration`:
/// `{"warnings": {"unused-private-recipe": false}}`).
#[derive(Clone, Debug)]
pub(super) struct Rules {
  /// A private recipe (`_name` or `[private]`) that no recipe depends on and
  /// no alias names, and that is not the first recipe of its file.
  pub(super) unused_private_recipe: bool,
  /// A recipe parameter that nothing reads: not exported (`$name`), not
  /// referenced in the recipe, without `set export`, `set
  /// positional-arguments` or attributes that could read it.
  pub(super) unused_parameter: bool,
  /// A variable no file of the justfile reads, not exported, without `set
  /// export`.
  pub(super) unused_variable: bool,
  /// A deprecated form: `env_var(…)` and `env_var_or_default(…)` (use
  /// `env(…)`), `set windows-powershell` (use `set windows-shell`).
  pub(super) deprecated: bool,
}

impl Default for Rules {
  fn default() -> Self {
    Rules {
      unused_private_recipe: true,
      unused_parameter: true,
      unused_variable: true,
      deprecated: true,
    }
  }
}

pub(super) const UNUSED_PRIVATE_RECIPE: &str = "unused-private-recipe";
pub(super) const UNUSED_PARAMETER: &str = "unused-parameter";
pub(super) const UNUSED_VARIABLE: &str = "unused-variable";
/// The code of a deprecated function's warning (its quick fix is `env`).
pub(super) const DEPRECATED_FUNCTION: &str = "deprecated-function";
pub(super) const DEPRECATED_SETTING: &str = "deprecated-setting";
/// The rule that switches both deprecation warnings.
pub(super) const DEPRECATED: &str = "deprecated";

impl Rules {
  /// Apply `{"warnings": {RULE: bool, …}}`; anything else is ignored.
  pub(super) fn configure(&mut self, settings: &serde_json::Value) {
    let Some(warnings) = settings.get("warnings").and_then(|warnings| warnings.as_object()) else {
      return;
    };
    for (rule, value) in warnings {
      let Some(on) = value.as_bool() else { continue };
      match rule.as_str() {
        UNUSED_PRIVATE_RECIPE => self.unused_private_recipe = on,
        UNUSED_PARAMETER => self.unused_parameter = on,
        UNUSED_VARIABLE => self.unused_variable = on,
        DEPRECATED => self.deprecated = on,
        _ => {}
      }
    }
  }
}

/// The diagnostics of every open document and of every file their roots
/// load that has an error, by absolute path. Open documents always have an
/// entry, empty when clean.
pub(super) fn compute(documents: &Documents, rules: &Rules) -> HashMap<PathBuf, Vec<Diagnostic>> {
  let mut result: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::new();
  let mut covered: HashSet<PathBuf> = HashSet::new();
  let mut compiled: HashSet<PathBuf> = HashSet::new();
  let mut open: Vec<&PathBuf> = documents.paths().collect();
  open.sort();
  for path in &open {
    result.entry((*path).clone()).or_default();
  }
  for path in open {
    if covered.contains(path) {
      continue;
    }
    // The justfile above (or beside) the document first: it may load it.
    if let Some(root) = project::enclosing_justfile(path) {
      if compiled.insert(root.clone()) {
        let outcome = check_root(&root, documents, rules, &mut result);
        covered.extend(outcome);
      }
      if covered.contains(path) {
        continue;
      }
    }
    if compiled.insert(path.clone()) {
      covered.extend(check_root(path, documents, rules, &mut result));
    }
  }
  result
}

/// Compile `root` as `just` would; record its error (if any) for the file
/// it is in, and the warnings of the loaded files that are open. Returns
/// the files it loaded.
fn check_root(
  root: &Path,
  documents: &Documents,
  rules: &Rules,
  result: &mut HashMap<PathBuf, Vec<Diagnostic>>,
) -> Vec<PathBuf> {
  let unstable = project::unstable_from_environment();
  project::compile_root(root, documents.overlays(), unstable, |outcome, loaded| {
    match outcome {
      Ok(justfile) => {
        let mut trees_of_modules = Vec::new();
        module_trees(&justfile.root, &mut trees_of_modules);
        warn(loaded, &trees_of_modules, documents, rules, result);
      }
      Err(LoadError::Compile(error)) => {
        // The warnings of the files that parse, beside `just`'s error.
        warn(loaded, &[], documents, rules, result);
        let token = error.token;
        let path = project::absolute(root, token.path());
        let diagnostic = error_diagnostic(token_range(&token), error.to_string());
        let paths: Vec<PathBuf> = loaded.iter().map(|(path, _)| path.clone()).collect();
        for (open, at_import) in at_imports(&path, &diagnostic, &paths, documents) {
          result.entry(open).or_default().push(at_import);
        }
        result.entry(path).or_default().push(diagnostic);
      }
      Err(error @ LoadError::CircularImport { current, .. }) => {
        result
          .entry(project::absolute(root, current))
          .or_default()
          .push(error_diagnostic(Range::default(), error.to_string()));
      }
      Err(error) => {
        result
          .entry(root.to_path_buf())
          .or_default()
          .push(error_diagnostic(Range::default(), error.to_string()));
      }
    }
    let mut paths: Vec<PathBuf> = loaded.iter().map(|(path, _)| path.clone()).collect();
    paths.push(root.to_path_buf());
    paths
  })
}

/// The error `diagnostic` of the file at `path`, shown again in each other
/// open file among `loaded` at the `import` or `mod` lines that lead to
/// `path` (directly or through other files): where the user of that file
/// can see it. The message is `just`'s; the error's own place is its
/// related information.
fn at_imports(
  path: &Path,
  diagnostic: &Diagnostic,
  loaded: &[PathBuf],
  documents: &Documents,
) -> Vec<(PathBuf, Diagnostic)> {
  let Ok(uri) = documents::path_uri(path).parse::<lsp_types::Uri>() else { return Vec::new() };
  let related = lsp_types::DiagnosticRelatedInformation {
    location: lsp_types::Location { uri, range: diagnostic.range },
    message: "the error is here".into(),
  };
  let mut found = Vec::new();
  for open in loaded {
    if open == path || documents.get(open).is_none() {
      continue;
    }
    let Some(text) = documents.text(open) else { continue };
    let lines = positions::Lines::new(&text);
    for (line_start, line_end, target) in included_files(open, &text) {
      let mut visited = HashSet::new();
      if !leads_to(&target, path, documents, &mut visited) {
        continue;
      }
      let mut shown = diagnostic.clone();
      shown.range = lines.range(&text, line_start, line_end);
      shown.related_information = Some(vec![related.clone()]);
      found.push((open.clone(), shown));
    }
  }
  found
}

/// The files the `import` and `mod` lines of `text` (the file at `path`)
/// name, each with the byte range of its line (from the path or name on).
fn included_files(path: &Path, text: &str) -> Vec<(usize, usize, PathBuf)> {
  use super::outline::{definitions, Kind};
  let directory = path.parent().unwrap_or(Path::new(""));
  let mut found = Vec::new();
  for definition in definitions(text) {
    let end =
      text[definition.start..].find('\n').map_or(text.len(), |index| definition.start + index);
    let end = if text[..end].ends_with('\r') { end - 1 } else { end };
    match &definition.kind {
      Kind::Import { path: import } => {
        found.push((definition.start, end, directory.join(import).lexiclean()));
      }
      Kind::Module { path: written, .. } => {
        for file in super::workspace::module_files(directory, &definition.name, written.as_deref())
        {
          found.push((definition.start, end, file.lexiclean()));
        }
      }
      _ => {}
    }
  }
  found
}

/// Whether the file `from` is `target` or includes it, through its
/// `import` and `mod` lines and theirs (the editor's texts first).
fn leads_to(
  from: &Path,
  target: &Path,
  documents: &Documents,
  visited: &mut HashSet<PathBuf>,
) -> bool {
  if from == target {
    return true;
  }
  if !visited.insert(from.to_path_buf()) {
    return false;
  }
  let Some(text) = documents.text(from) else { return false };
  included_files(from, &text)
    .into_iter()
    .any(|(_, _, next)| leads_to(&next, target, documents, visited))
}

fn error_diagnostic(range: Range, message: String) -> Diagnostic {
  Diagnostic {
    range,
    severity: Some(DiagnosticSeverity::ERROR),
    source: Some("just".into()),
    message,
    ..Diagnostic::default()
  }
}

fn warning(range: Range, rule: &'static str, message: String) -> Diagnostic {
  Diagnostic {
    range,
    severity: Some(DiagnosticSeverity::WARNING),
    code: Some(NumberOrString::String(rule.into())),
    source: Some("just".into()),
    message,
    ..Diagnostic::default()
  }
}

/// The parse trees of the own files of `module` and its submodules.
fn module_trees<'a>(module: &'a Module<'a>, trees: &mut Vec<&'a Ast<'a>>) {
  trees.push(module.ast);
  for submodule in module.modules.values() {
    module_trees(submodule, trees);
  }
}

/// The warnings of the open files among those a root loaded (which
/// compiled without error).
fn warn<'a>(
  loaded: &[(PathBuf, &Source)],
  modules: &[&'a Ast<'a>],
  documents: &Documents,
  rules: &Rules,
  result: &mut HashMap<PathBuf, Vec<Diagnostic>>,
) {
  // The parse trees of the modules' own files are in the model; imported
  // files are parsed again.
  let trees = Trees::new();
  let mut asts: Vec<(PathBuf, &Ast)> = Vec::new();
  for &(ref path, source) in loaded {
    if let Some(ast) = modules.iter().find(|ast| std::ptr::eq(ast.source, source)) {
      asts.push((path.clone(), ast));
    } else if let Ok(ast) = parser::parse_source(source, &trees) {
      asts.push((path.clone(), trees.add(ast)));
    }
  }
  // What the files of this root say about all of them.
  let mut used: HashSet<&str> = HashSet::new();
  let mut shared_settings = false;
  let mut exported = false;
  // Every variable any file reads, and every function any file calls.
  let mut read: HashSet<&str> = HashSet::new();
  let mut deprecated_calls: Vec<(&PathBuf, Token)> = Vec::new();
  for (path, ast) in asts.iter().filter(|_| rules.unused_variable || rules.deprecated) {
    for expression in item_expressions(ast) {
      let _ = walk(expression, &mut |node| {
        match node {
          Expression::Variable { name, .. } => {
            read.insert(name.lexeme());
          }
          Expression::Call { name, .. }
            if matches!(name.lexeme(), "env_var" | "env_var_or_default") =>
          {
            deprecated_calls.push((path, **name));
          }
          _ => {}
        }
        Ok::<(), ()>(())
      });
    }
  }
  for (_, ast) in &asts {
    for item in &ast.items {
      match item {
        Item::Recipe(recipe) => {
          for dependency in recipe.dependencies {
            if let Some(last) = dependency.path.last() {
              used.insert(last.lexeme());
            }
          }
        }
        Item::Alias(alias) => {
          if let Some(last) = alias.target.last() {
            used.insert(last.lexeme());
          }
        }
        Item::Set(set) => {
          let name = set.name.lexeme();
          if name == "export" || name == "positional-arguments" {
            shared_settings = true;
          }
          if name == "export" {
            exported = true;
          }
        }
        _ => {}
      }
    }
  }
  for (path, ast) in &asts {
    if documents.get(path).is_none() {
      continue;
    }
    let mut found = Vec::new();
    if rules.deprecated {
      for (_, name) in deprecated_calls.iter().filter(|(file, _)| *file == path) {
        found.push(warning(
          token_range(name),
          DEPRECATED_FUNCTION,
          format!("`{}` is deprecated: use `env`", name.lexeme()),
        ));
      }
    }
    for item in &ast.items {
      match item {
        Item::Assignment(assignment) if rules.unused_variable => {
          let name = assignment.name.lexeme();
          if !assignment.export && !exported && !read.contains(name) {
            found.push(warning(
              token_range(&assignment.name),
              UNUSED_VARIABLE,
              format!("variable `{name}` is never used"),
            ));
          }
        }
        Item::Set(set) if rules.deprecated && set.name.lexeme() == "windows-powershell" => {
          found.push(warning(
            token_range(&set.name),
            DEPRECATED_SETTING,
            "`windows-powershell` is deprecated: use `set windows-shell := ['powershell.exe', \
             '-NoLogo', '-Command']`"
              .into(),
          ));
        }
        _ => {}
      }
    }
    let mut first = true;
    for item in &ast.items {
      let Item::Recipe(recipe) = item else { continue };
      let is_first = std::mem::replace(&mut first, false);
      if rules.unused_private_recipe && !is_first && is_private(recipe) && !has_default(recipe) {
        let name = recipe.name.lexeme();
        if !used.contains(name) {
          found.push(warning(
            token_range(&recipe.name),
            UNUSED_PRIVATE_RECIPE,
            format!("private recipe `{name}` is not used by any recipe or alias"),
          ));
        }
      }
      if rules.unused_parameter && !shared_settings && plain_attributes(recipe) {
        unused_parameters(recipe, &mut found);
      }
    }
    result.entry(path.clone()).or_default().extend(found);
  }
}

/// The expressions of `ast`'s items (each outermost): values, bodies,
/// defaults, dependency arguments, interpolations, settings and attribute
/// arguments.
fn item_expressions<'a>(ast: &'a Ast<'a>) -> Vec<&'a Expression<'a>> {
  let mut found: Vec<&Expression> = Vec::new();
  let attributes = |list: &'a [AttributeEntry<'a>], found: &mut Vec<&'a Expression<'a>>| {
    for entry in list {
      match &entry.attribute {
        Attribute::Confirm(Some(expression))
        | Attribute::Doc(Some(expression))
        | Attribute::Timestamp(Some(expression))
        | Attribute::WorkingDirectory(expression) => found.push(expression),
        Attribute::Env(name, value) => found.extend([name, value]),
        _ => {}
      }
    }
  };
  for item in &ast.items {
    match item {
      Item::Assignment(assignment) => {
        found.push(&assignment.value);
        attributes(assignment.attributes.list, &mut found);
      }
      Item::Function(function) => {
        found.push(&function.body);
        attributes(function.attributes.list, &mut found);
      }
      Item::Recipe(recipe) => {
        attributes(recipe.attributes.list, &mut found);
        found.extend(recipe.parameters.iter().filter_map(|parameter| parameter.default));
        for dependency in recipe.dependencies {
          found.extend(dependency.arguments);
        }
        for line in recipe.body {
          found.extend(line.interpolations.iter().map(|interpolation| interpolation.expression));
        }
      }
      Item::Set(set) => match &set.value {
        SettingValue::Expression(expression) => found.push(expression),
        SettingValue::List(elements) => found.extend(elements.iter()),
        _ => {}
      },
      _ => {}
    }
  }
  found
}

fn is_private(recipe: &Recipe) -> bool {
  recipe.name.lexeme().starts_with('_')
    || recipe.attributes.list.iter().any(|entry| matches!(entry.attribute, Attribute::Private))
}

fn has_default(recipe: &Recipe) -> bool {
  recipe.attributes.list.iter().any(|entry| matches!(entry.attribute, Attribute::Default))
}

/// Whether the recipe's attributes could not read a parameter: only those
/// without arguments that name one, none that passes arguments on.
fn plain_attributes(recipe: &Recipe) -> bool {
  recipe.attributes.list.iter().all(|entry| {
    matches!(
      entry.attribute.name(),
      "private"
        | "group"
        | "doc"
        | "no-cd"
        | "no-exit-message"
        | "exit-message"
        | "no-quiet"
        | "parallel"
        | "default"
        | "linux"
        | "macos"
        | "unix"
        | "windows"
        | "openbsd"
        | "freebsd"
        | "netbsd"
        | "dragonfly"
        | "android"
    )
  })
}

fn unused_parameters(recipe: &Recipe, found: &mut Vec<Diagnostic>) {
  let mut read: HashSet<&str> = HashSet::new();
  for parameter in recipe.parameters {
    if let Some(default) = parameter.default {
      variables(default, &mut read);
    }
  }
  for dependency in recipe.dependencies {
    for argument in dependency.arguments {
      variables(argument, &mut read);
    }
  }
  for line in recipe.body {
    for interpolation in line.interpolations {
      variables(interpolation.expression, &mut read);
    }
  }
  for parameter in recipe.parameters {
    let name = parameter.name.lexeme();
    if !parameter.export && !read.contains(name) {
      found.push(warning(
        token_range(&parameter.name),
        UNUSED_PARAMETER,
        format!("parameter `{name}` of recipe `{}` is never used", recipe.name.lexeme()),
      ));
    }
  }
}

/// The names of the variables `expression` reads.
pub(super) fn variables<'src>(expression: &Expression<'src>, names: &mut HashSet<&'src str>) {
  use Expression::*;
  match expression {
    And { lhs, rhs, .. }
    | Comparison { lhs, rhs, .. }
    | Concatenation { lhs, rhs, .. }
    | ListConcatenation { lhs, rhs, .. }
    | Or { lhs, rhs, .. } => {
      variables(lhs, names);
      variables(rhs, names);
    }
    Assert { condition, message, .. } => {
      variables(condition, names);
      if let Some(message) = message {
        variables(message, names);
      }
    }
    Backtick { .. } | StringLiteral(_) => {}
    Call { arguments, .. } => arguments.iter().for_each(|argument| variables(argument, names)),
    Conditional { condition, then, otherwise, .. } => {
      variables(condition, names);
      variables(then, names);
      if let Some(otherwise) = otherwise {
        variables(otherwise, names);
      }
    }
    FormatString { parts, .. } => parts.iter().for_each(|(part, _)| variables(part, names)),
    Group { contents, .. } => variables(contents, names),
    Join { lhs, rhs, .. } => {
      if let Some(lhs) = lhs {
        variables(lhs, names);
      }
      variables(rhs, names);
    }
    List { elements, .. } => elements.iter().for_each(|element| variables(element, names)),
    Not { operand, .. } => variables(operand, names),
    Variable { name, .. } => {
      names.insert(name.lexeme());
    }
  }
}
