//! `textDocument/completion`, from the text around the cursor, so that it
//! works in files that do not parse: what may be written there, from the
//! vocabulary tables (settings, attributes, built-in functions, constants)
//! and the names the file and its imports define.

use std::path::Path;
use std::rc::Rc;

use lsp_types::{
  CompletionItem, CompletionItemKind, CompletionList, CompletionTextEdit, Documentation,
  InsertTextFormat, Position, Range, TextEdit,
};

use super::documents::Documents;
use super::outline::{self, Definition, Kind};
use super::positions;
use super::workspace;
use crate::builtins::constants;
use crate::builtins::functions::Function;
use crate::syntax::attributes::AttributeKind;
use crate::syntax::settings::{Setting, SettingType};

/// Where the cursor is, as far as completion is concerned.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Context {
  /// Inside `[…]` above an item.
  Attribute,
  /// After `set `.
  SettingName,
  /// After `set NAME := `.
  SettingValue(Setting),
  /// In the quoted path of `import` or `mod`, typed so far.
  Path(String),
  /// Where an expression goes; the parameters of the recipe or function it
  /// belongs to are in scope.
  Expression { parameters: Vec<String> },
  /// The quoted name of `env('…')` (or `env_var`, `env_var_or_default`).
  Environment,
  /// Where a recipe goes: dependencies and alias targets.
  Recipe { except: Option<String> },
  /// The start of a top-level line.
  Item,
  /// Nothing to offer (recipe body text, comments, strings, names being defined).
  Nothing,
}

/// The most items one answer holds; past it the list is marked incomplete,
/// and the client asks again as more of the name is typed.
const LIMIT: usize = 1000;

pub(super) fn complete(
  path: &Path,
  text: &str,
  position: Position,
  documents: &Documents,
) -> CompletionList {
  let offset = positions::offset(text, position);
  let mut defined = definitions_with_imports(path, text, documents);
  let mut context = context(text, offset, &defined);
  // The part of a name typed before the cursor: keep the items that have
  // its characters in order (what clients' fuzzy matching shows).
  let typed: Vec<char> = text[..offset]
    .chars()
    .rev()
    .take_while(|&c| outline::is_name_char(c))
    .collect::<Vec<char>>()
    .into_iter()
    .rev()
    .map(|c| c.to_ascii_lowercase())
    .collect();
  let wanted = |name: &str| {
    let mut wanted = typed.iter().peekable();
    for c in name.chars() {
      if wanted.peek().is_some_and(|&&w| w == c.to_ascii_lowercase()) {
        wanted.next();
      }
    }
    wanted.peek().is_none()
  };
  if let Context::Recipe { except } = &mut context {
    // After `module::`, the module's recipes and submodules.
    let before = &text[..outline::name_start(text, offset)];
    let modules = module_path(before);
    if !modules.is_empty() {
      *except = None;
      defined = module_definitions(path, defined, &modules, documents).unwrap_or_default();
    }
  }
  let filter: &dyn Fn(&str) -> bool =
    if matches!(context, Context::Path(_)) { &|_: &str| true } else { &wanted };
  let mut items = match context {
    Context::Environment => environment_items(path, text),
    _ => items(path, &context, &defined, position, filter),
  };
  items.retain(|item| filter(item.filter_text.as_deref().unwrap_or(&item.label)));
  let is_incomplete = items.len() > LIMIT;
  items.truncate(LIMIT);
  CompletionList { is_incomplete, items }
}

/// The definitions of `text` and of the files it imports (one level),
/// read once per state of the open documents.
pub(super) fn definitions_with_imports(
  path: &Path,
  text: &str,
  documents: &Documents,
) -> Rc<Vec<Definition>> {
  documents.definitions(path, || read_definitions(path, text, documents))
}

fn read_definitions(path: &Path, text: &str, documents: &Documents) -> Vec<Definition> {
  let mut defined = outline::definitions(text);
  let directory = path.parent().unwrap_or(Path::new(""));
  let imports: Vec<String> = defined
    .iter()
    .filter_map(|definition| match &definition.kind {
      Kind::Import { path } => Some(path.clone()),
      _ => None,
    })
    .collect();
  for import in imports {
    let imported = directory.join(import);
    if let Some(text) = documents.justfile_text(&imported) {
      defined.extend(
        outline::definitions(&text)
          .into_iter()
          .filter(|definition| !matches!(definition.kind, Kind::Import { .. }))
          .map(|definition| Definition { imported: true, ..definition }),
      );
    }
  }
  defined
}

/// The modules of the `a::b::` path that ends `before` (the text before
/// the name at the cursor), outermost first.
pub(super) fn module_path(before: &str) -> Vec<&str> {
  let mut modules = Vec::new();
  let mut rest = before;
  while let Some(qualified) = rest.strip_suffix("::") {
    let start = outline::name_start(qualified, qualified.len());
    if start == qualified.len() {
      break;
    }
    modules.push(&qualified[start..]);
    rest = &qualified[..start];
  }
  modules.reverse();
  modules
}

/// The definitions of the module that `modules` leads to from the file at
/// `path` (which defines `defined`), read from the files `just` would load
/// for it (the editor's text of an open one), whether or not they parse.
pub(super) fn module_definitions(
  path: &Path,
  defined: Rc<Vec<Definition>>,
  modules: &[&str],
  documents: &Documents,
) -> Option<Rc<Vec<Definition>>> {
  let mut file = path.to_path_buf();
  let mut defined = defined;
  for &name in modules {
    let written = defined.iter().find_map(|definition| match &definition.kind {
      Kind::Module { path, .. } if definition.name == name => Some(path.clone()),
      _ => None,
    })?;
    let directory = file.parent().unwrap_or(Path::new(""));
    file = workspace::module_files(directory, name, written.as_deref()).into_iter().next()?;
    let text = documents.text(&file)?;
    defined = definitions_with_imports(&file, &text, documents);
  }
  Some(defined)
}

/// Inside an unclosed quote or a comment, in `prefix` (one line)?
fn in_string_or_comment(prefix: &str) -> bool {
  let mut quote: Option<char> = None;
  for c in prefix.chars() {
    match quote {
      Some(q) if c == q => quote = None,
      Some(_) => {}
      None if c == '#' => return true,
      None if matches!(c, '\'' | '"' | '`') => quote = Some(c),
      None => {}
    }
  }
  quote.is_some()
}

pub(super) fn context(text: &str, offset: usize, defined: &[Definition]) -> Context {
  let offset = positions::offset(text, positions::position(text, offset));
  let line_start = text[..offset].rfind('\n').map_or(0, |index| index + 1);
  let prefix = &text[line_start..offset];
  let prefix = if line_start == 0 { prefix.trim_start_matches('\u{feff}') } else { prefix };
  let line = text[..offset].matches('\n').count();
  if in_environment_name(prefix) {
    return Context::Environment;
  }
  let indented = prefix.starts_with([' ', '\t']);
  if indented {
    return body_context(text, defined, line, prefix);
  }
  let trimmed = prefix.trim_start();
  if let Some(inside) = trimmed.strip_prefix('[') {
    if inside.contains([']', '(', ':']) {
      return Context::Nothing;
    }
    return Context::Attribute;
  }
  for keyword in ["import", "import?"] {
    if let Some(rest) = trimmed.strip_prefix(keyword) {
      if let Some(typed) = quoted_rest(rest.trim_start()) {
        return Context::Path(typed.to_string());
      }
    }
  }
  for keyword in ["mod ", "mod? "] {
    if let Some(rest) = trimmed.strip_prefix(keyword) {
      let rest = rest.trim_start();
      let name_end = rest.find(|c: char| !outline::is_name_char(c)).unwrap_or(rest.len());
      if let Some(typed) = quoted_rest(rest[name_end..].trim_start()) {
        return Context::Path(typed.to_string());
      }
      return Context::Nothing;
    }
  }
  if in_string_or_comment(prefix) {
    return Context::Nothing;
  }
  if let Some(rest) = trimmed.strip_prefix("set ") {
    return setting_context(rest.trim_start());
  }
  if let Some(rest) = trimmed.strip_prefix("alias ") {
    return if rest.contains(":=") { Context::Recipe { except: None } } else { Context::Nothing };
  }
  if let Some((before, _)) = trimmed.split_once(":=") {
    return Context::Expression { parameters: function_parameters(before) };
  }
  // A recipe header: after its colon come dependencies.
  if let Some(colon) = header_colon(trimmed) {
    let after = &trimmed[colon + 1..];
    let recipe = outline::enclosing_recipe(text, defined, line);
    let name = recipe.map(|recipe| recipe.name.clone());
    if after.matches('(').count() > after.matches(')').count() {
      let open = after.rfind('(').unwrap_or(0);
      // `(dep` names a recipe; after it, arguments are expressions.
      if after[open + 1..].contains([' ', '\t']) {
        return Context::Expression { parameters: recipe.map(parameters_of).unwrap_or_default() };
      }
    }
    return Context::Recipe { except: name };
  }
  if trimmed.chars().all(outline::is_name_char) {
    return Context::Item;
  }
  // Parameters of a recipe header: a default value is an expression.
  if let Some(equals) = trimmed.rfind('=') {
    if !trimmed[equals..].contains([' ', '\t'])
      || trimmed[equals + 1..].trim().chars().all(outline::is_name_char)
    {
      return Context::Expression { parameters: Vec::new() };
    }
  }
  Context::Nothing
}

/// Whether `prefix` (a line up to the cursor) ends in the quoted first
/// argument of `env`, `env_var` or `env_var_or_default`, a name typed so far.
fn in_environment_name(prefix: &str) -> bool {
  let before_name = prefix.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
  let Some(before_quote) = before_name.strip_suffix(['\'', '"']) else { return false };
  let Some(before_parenthesis) = before_quote.trim_end().strip_suffix('(') else { return false };
  let function = before_parenthesis.trim_end();
  ["env", "env_var", "env_var_or_default"].iter().any(|name| {
    function.strip_suffix(name).is_some_and(|rest| !rest.ends_with(outline::is_name_char))
  })
}

/// On a recipe body line (`line`, up to the cursor `prefix`): only inside
/// `{{…}}`, where the recipe's parameters are in scope.
fn body_context(text: &str, defined: &[Definition], line: usize, prefix: &str) -> Context {
  let Some(recipe) = outline::enclosing_recipe(text, defined, line) else {
    return Context::Nothing;
  };
  let open = prefix.rfind("{{");
  let close = prefix.rfind("}}");
  match (open, close) {
    (Some(open), close) if close.is_none_or(|close| close < open) => {
      if in_string_or_comment(&prefix[open + 2..]) {
        Context::Nothing
      } else {
        Context::Expression { parameters: parameters_of(recipe) }
      }
    }
    _ => Context::Nothing,
  }
}

/// Before the `:=` of a variable, nothing; of a function `name(a, b) :=`,
/// its parameters, which are in scope after it.
fn function_parameters(before: &str) -> Vec<String> {
  match (before.find('('), before.find(')')) {
    (Some(open), Some(close)) if open < close => outline::function_parameters(&before[open + 1..]),
    _ => Vec::new(),
  }
}

/// After `set `: a setting's name, or its value.
fn setting_context(rest: &str) -> Context {
  match rest.split_once(":=") {
    None if rest.chars().all(outline::is_name_char) => Context::SettingName,
    None => Context::Nothing,
    Some((name, _)) => match Setting::from_name(name.trim()) {
      Some(setting) => Context::SettingValue(setting),
      None => Context::Nothing,
    },
  }
}

/// The position of the colon that ends a recipe header in `line`, if any.
pub(super) fn header_colon(line: &str) -> Option<usize> {
  let mut quote: Option<char> = None;
  let mut depth = 0_i32;
  for (index, c) in line.char_indices() {
    match quote {
      Some(q) if c == q => quote = None,
      Some(_) => {}
      None => match c {
        '\'' | '"' | '`' => quote = Some(c),
        '(' => depth += 1,
        ')' => depth -= 1,
        ':'
          if depth <= 0 && !line[index..].starts_with(":=") && !line[index..].starts_with("::") =>
        {
          if index > 0 && line[..index].ends_with(':') {
            continue;
          }
          return Some(index);
        }
        _ => {}
      },
    }
  }
  None
}

fn quoted_rest(text: &str) -> Option<&str> {
  let rest = text.strip_prefix('\'').or_else(|| text.strip_prefix('"'))?;
  (!rest.contains(['\'', '"'])).then_some(rest)
}

fn parameters_of(definition: &Definition) -> Vec<String> {
  match &definition.kind {
    Kind::Recipe { parameters } | Kind::Function { parameters } => parameters.clone(),
    _ => Vec::new(),
  }
}

fn item(
  label: impl Into<String>,
  kind: CompletionItemKind,
  detail: Option<String>,
) -> CompletionItem {
  CompletionItem { label: label.into(), kind: Some(kind), detail, ..CompletionItem::default() }
}

/// A completion with the vocabulary table's prose.
fn documented(completion: CompletionItem, doc: &str) -> CompletionItem {
  let documentation = Some(lsp_types::Documentation::String(doc.to_string()));
  CompletionItem { documentation, ..completion }
}

/// `name(parameters)` of a built-in function.
pub(super) fn function_signature(function: Function) -> String {
  format!("{}({})", function.name(), function.parameters())
}

/// The items for `context`; the many (recipes) only those `wanted`.
fn items(
  path: &Path,
  context: &Context,
  defined: &[Definition],
  position: Position,
  wanted: &dyn Fn(&str) -> bool,
) -> Vec<CompletionItem> {
  match context {
    Context::Nothing => Vec::new(),
    Context::Item => ["alias", "export", "import", "mod", "set", "unexport"]
      .into_iter()
      .map(|keyword| item(keyword, CompletionItemKind::KEYWORD, None))
      .collect(),
    Context::Attribute => AttributeKind::ALL
      .iter()
      .map(|kind| {
        let (minimum, maximum) = kind.arity();
        let detail = match (minimum, maximum) {
          (0, Some(0)) => "attribute".to_string(),
          (minimum, Some(maximum)) if minimum == maximum => {
            format!("attribute, {minimum} argument(s)")
          }
          (minimum, Some(maximum)) => format!("attribute, {minimum} to {maximum} arguments"),
          (minimum, None) => format!("attribute, {minimum} or more arguments"),
        };
        documented(item(kind.name(), CompletionItemKind::PROPERTY, Some(detail)), kind.doc())
      })
      .collect(),
    Context::SettingName => Setting::ALL
      .iter()
      .map(|setting| {
        let detail = Some(setting_detail(*setting));
        documented(item(setting.name(), CompletionItemKind::PROPERTY, detail), setting.doc())
      })
      .collect(),
    Context::SettingValue(setting) => match setting.value_type() {
      SettingType::Boolean => ["true", "false"]
        .into_iter()
        .map(|value| item(value, CompletionItemKind::VALUE, None))
        .collect(),
      SettingType::List => {
        ["['bash', '-cu']", "['sh', '-cu']", "['zsh', '-cu']", "['powershell.exe', '-c']"]
          .into_iter()
          .map(|value| item(value, CompletionItemKind::VALUE, None))
          .collect()
      }
      SettingType::Expression | SettingType::Literal => expression_items(&[], defined),
    },
    Context::Path(typed) => path_items(path, typed, position),
    Context::Recipe { except } => defined
      .iter()
      .filter(|definition| Some(&definition.name) != except.as_ref() && wanted(&definition.name))
      .filter_map(|definition| match &definition.kind {
        Kind::Recipe { parameters } => {
          let mut completion =
            item(&definition.name, CompletionItemKind::FUNCTION, Some(parameters.join(" ")));
          completion.documentation = definition.doc.clone().map(Documentation::String);
          Some(completion)
        }
        Kind::Module { .. } => {
          let mut completion =
            item(format!("{}::", definition.name), CompletionItemKind::MODULE, None);
          completion.filter_text = Some(definition.name.clone());
          Some(completion)
        }
        _ => None,
      })
      // Past the limit, one more says the list is incomplete.
      .take(LIMIT + 1)
      .collect(),
    Context::Expression { parameters } => expression_items(parameters, defined),
    // Answered by `complete`, which has the text.
    Context::Environment => Vec::new(),
  }
}

fn setting_detail(setting: Setting) -> String {
  match setting.value_type() {
    SettingType::Boolean => "setting: true or false".into(),
    SettingType::Expression => "setting: an expression".into(),
    SettingType::List => "setting: a list of strings".into(),
    SettingType::Literal => "setting: a string".into(),
  }
}

fn expression_items(parameters: &[String], defined: &[Definition]) -> Vec<CompletionItem> {
  let mut items: Vec<CompletionItem> = parameters
    .iter()
    .map(|parameter| item(parameter, CompletionItemKind::VARIABLE, Some("parameter".into())))
    .collect();
  for definition in defined {
    match &definition.kind {
      Kind::Variable { value } => {
        items.push(item(
          &definition.name,
          CompletionItemKind::VARIABLE,
          Some(format!(":= {value}")),
        ));
      }
      Kind::Function { parameters } => {
        let mut completion = item(
          &definition.name,
          CompletionItemKind::FUNCTION,
          Some(format!("{}({})", definition.name, parameters.join(", "))),
        );
        completion.insert_text = Some(format!("{}($0)", definition.name));
        completion.insert_text_format = Some(InsertTextFormat::SNIPPET);
        items.push(completion);
      }
      _ => {}
    }
  }
  for &function in Function::ALL {
    let signature = Some(function_signature(function));
    let mut completion =
      documented(item(function.name(), CompletionItemKind::FUNCTION, signature), function.doc());
    completion.insert_text = Some(format!("{}($0)", function.name()));
    completion.insert_text_format = Some(InsertTextFormat::SNIPPET);
    items.push(completion);
  }
  for (name, value) in constants::all() {
    let constant = item(*name, CompletionItemKind::CONSTANT, Some(format!("{value:?}")));
    items.push(documented(constant, constants::doc(name)));
  }
  items
}

/// The names of the environment `just` would run with: the server's own
/// environment (the editor's), and the dotenv file's (`.env`, or
/// `set dotenv-filename`, found in the file's directory or above, or `set
/// dotenv-path`). Only a regular file of at most 1 MiB is read; a dotenv
/// command is never run.
fn environment_items(path: &Path, text: &str) -> Vec<CompletionItem> {
  let mut names: std::collections::BTreeMap<String, String> = std::env::vars_os()
    .filter_map(|(name, _)| name.into_string().ok())
    .map(|name| (name, "environment variable".to_string()))
    .collect();
  if let Some(file) = dotenv_file(path, text) {
    let shown =
      file.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let text = std::fs::File::open(&file).ok().and_then(|opened| {
      let mut text = String::new();
      std::io::Read::read_to_string(&mut std::io::Read::take(opened, 1 << 20), &mut text).ok()?;
      Some(text)
    });
    for item in dotenvy::from_read_iter(text.unwrap_or_default().as_bytes()).flatten() {
      names.entry(item.0).or_insert_with(|| format!("from `{shown}`"));
    }
  }
  names
    .into_iter()
    .map(|(name, detail)| item(name, CompletionItemKind::VARIABLE, Some(detail)))
    .collect()
}

/// The dotenv file of the justfile at `path` (whose text is `text`), if it
/// is a regular file.
fn dotenv_file(path: &Path, text: &str) -> Option<std::path::PathBuf> {
  let directory = path.parent().unwrap_or(Path::new(""));
  let setting = |name: &str| {
    text.lines().find_map(|line| {
      let rest = line.trim().strip_prefix("set")?.trim_start().strip_prefix(name)?;
      let value = rest.trim_start().strip_prefix(":=")?.trim();
      let quote = value.chars().next().filter(|c| *c == '\'' || *c == '"')?;
      let value = &value[1..];
      Some(value[..value.find(quote)?].to_string())
    })
  };
  if let Some(written) = setting("dotenv-path") {
    let file = directory.join(written);
    return file.is_file().then_some(file);
  }
  let name = setting("dotenv-filename").unwrap_or_else(|| ".env".into());
  directory.ancestors().map(|folder| folder.join(&name)).find(|file| file.is_file())
}

/// The entries of the directory the typed path names, replacing its last
/// component.
fn path_items(path: &Path, typed: &str, position: Position) -> Vec<CompletionItem> {
  let directory = path.parent().unwrap_or(Path::new(""));
  let (folder, partial) = match typed.rfind('/') {
    Some(slash) => (&typed[..=slash], &typed[slash + 1..]),
    None => ("", typed),
  };
  let Ok(entries) = std::fs::read_dir(directory.join(folder)) else {
    return Vec::new();
  };
  let start = Position {
    line: position.line,
    character: position.character.saturating_sub(partial.encode_utf16().count() as u32),
  };
  let mut names: Vec<(String, bool)> = entries
    .filter_map(Result::ok)
    .filter_map(|entry| {
      let name = entry.file_name().to_str()?.to_string();
      let is_directory = entry.file_type().ok()?.is_dir();
      Some((name, is_directory))
    })
    .collect();
  names.sort();
  names
    .into_iter()
    .map(|(name, is_directory)| {
      let label = if is_directory { format!("{name}/") } else { name };
      let kind = if is_directory { CompletionItemKind::FOLDER } else { CompletionItemKind::FILE };
      CompletionItem {
        label: label.clone(),
        kind: Some(kind),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit {
          range: Range { start, end: position },
          new_text: label,
        })),
        ..CompletionItem::default()
      }
    })
    .collect()
}

#[cfg(test)]
mod tests {
  use super::*;

  fn context_at(text: &str) -> Context {
    let offset = text.find('|').unwrap();
    let text = text.replace('|', "");
    let defined = outline::definitions(&text);
    context(&text, offset, &defined)
  }

  #[test]
  fn contexts() {
    assert_eq!(context_at("[pri|"), Context::Attribute);
    assert_eq!(context_at("set qu|"), Context::SettingName);
    assert_eq!(context_at("set quiet := |"), Context::SettingValue(Setting::Quiet));
    assert_eq!(context_at("import 'sub/|"), Context::Path("sub/".into()));
    assert_eq!(context_at("mod foo '|"), Context::Path(String::new()));
    assert_eq!(context_at("a: b\nb x: |"), Context::Recipe { except: Some("b".into()) });
    assert_eq!(context_at("alias c := |"), Context::Recipe { except: None });
    assert_eq!(
      context_at("b x y:\n  echo {{ x + |"),
      Context::Expression { parameters: vec!["x".into(), "y".into()] }
    );
    assert_eq!(context_at("b x:\n  echo |"), Context::Nothing);
    assert_eq!(context_at("b x:\n  echo {{ 'a|"), Context::Nothing);
    assert_eq!(context_at("v := |"), Context::Expression { parameters: Vec::new() });
    assert_eq!(
      context_at("f(a, b) := |"),
      Context::Expression { parameters: vec!["a".into(), "b".into()] }
    );
    assert_eq!(context_at("b x: (dep |"), Context::Expression { parameters: vec!["x".into()] });
    assert_eq!(context_at("b x: (de|"), Context::Recipe { except: Some("b".into()) });
    assert_eq!(context_at("# set |"), Context::Nothing);
    assert_eq!(context_at("exp|"), Context::Item);
    assert_eq!(context_at("x := env('PA|"), Context::Environment);
    assert_eq!(context_at("a:\n  echo {{ env_var( \"|"), Context::Environment);
    assert_eq!(context_at("x := myenv('|"), Context::Nothing);
  }
}
