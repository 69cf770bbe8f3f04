//! `textDocument/codeAction`: quick fixes for the diagnostics the client
//! sends back. A name `just` does not know (an attribute, a setting, a
//! function, a recipe, a variable) is changed to the nearest one it does
//! (edit distance at most 2, as `just`'s own suggestions); a deprecated
//! function to the one that replaces it.

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
  CodeAction, CodeActionKind, Diagnostic, NumberOrString, TextEdit, Uri, WorkspaceEdit,
};

use super::completion::definitions_with_imports;
use super::diagnostics::DEPRECATED_FUNCTION;
use super::documents::Documents;
use super::outline::{self, Kind};
use super::positions;
use crate::analysis::lookup::closest;
use crate::builtins::functions::Function;
use crate::syntax::attributes::AttributeKind;
use crate::syntax::settings::Setting;

/// What a diagnostic's message says is unknown, and among what.
#[derive(Clone, Copy)]
enum Unknown {
  Attribute,
  Setting,
  Function,
  Recipe,
  Variable,
}

/// The `just` messages that name an unknown name between backticks.
const MESSAGES: &[(&str, Unknown)] = &[
  ("unknown attribute `", Unknown::Attribute),
  ("unknown setting `", Unknown::Setting),
  ("call to undefined function `", Unknown::Function),
  ("has unknown dependency `", Unknown::Recipe),
  ("has an unknown target `", Unknown::Recipe),
  ("variable `", Unknown::Variable),
];

pub(super) fn code_actions(
  path: &Path,
  uri: &Uri,
  text: &str,
  diagnostics: &[Diagnostic],
  documents: &Documents,
) -> Vec<CodeAction> {
  diagnostics
    .iter()
    .filter(|diagnostic| diagnostic.source.as_deref() == Some("just"))
    .filter_map(|diagnostic| {
      let start = positions::offset(text, diagnostic.range.start);
      let (name, replacement) =
        if diagnostic.code == Some(NumberOrString::String(DEPRECATED_FUNCTION.into())) {
          let (start, end) = outline::word_at(text, start)?;
          (&text[start..end], "env".to_string())
        } else {
          let (name, unknown) = unknown_name(&diagnostic.message)?;
          (name, nearest(path, text, start, name, unknown, documents)?)
        };
      // The diagnostic is on the name (or starts the line it is on).
      let at = text[start..].find(name).map(|index| start + index)?;
      if text[start..at].contains('\n') {
        return None;
      }
      let edit = TextEdit {
        range: positions::range(text, at, at + name.len()),
        new_text: replacement.clone(),
      };
      Some(CodeAction {
        title: format!("Change `{name}` to `{replacement}`"),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(WorkspaceEdit {
          changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
          ..WorkspaceEdit::default()
        }),
        is_preferred: Some(true),
        ..CodeAction::default()
      })
    })
    .collect()
}

/// The unknown name a `just` error message names, and what kind it is.
fn unknown_name(message: &str) -> Option<(&str, Unknown)> {
  MESSAGES.iter().find_map(|(lead, unknown)| {
    let start = message.find(lead)? + lead.len();
    let end = start + message[start..].find('`')?;
    if matches!(unknown, Unknown::Variable) && !message[end..].starts_with("` not defined") {
      return None;
    }
    Some((&message[start..end], *unknown))
  })
}

/// The known name nearest to `name`, among those of its kind.
fn nearest(
  path: &Path,
  text: &str,
  offset: usize,
  name: &str,
  unknown: Unknown,
  documents: &Documents,
) -> Option<String> {
  let defined = || definitions_with_imports(path, text, documents);
  let candidates: Vec<String> = match unknown {
    Unknown::Attribute => AttributeKind::ALL.iter().map(|kind| kind.name().to_string()).collect(),
    Unknown::Setting => Setting::ALL.iter().map(|setting| setting.name().to_string()).collect(),
    Unknown::Function => {
      let builtins = Function::ALL.iter().map(|function| function.name().to_string());
      let own = defined()
        .iter()
        .filter(|definition| matches!(definition.kind, Kind::Function { .. }))
        .map(|definition| definition.name.clone())
        .collect::<Vec<_>>();
      own.into_iter().chain(builtins).collect()
    }
    Unknown::Recipe => defined()
      .iter()
      .filter(|definition| matches!(definition.kind, Kind::Recipe { .. } | Kind::Alias { .. }))
      .map(|definition| definition.name.clone())
      .collect(),
    Unknown::Variable => {
      let defined = defined();
      let line = text[..offset].matches('\n').count();
      let parameters =
        match outline::enclosing_recipe(text, &defined, line).map(|recipe| &recipe.kind) {
          Some(Kind::Recipe { parameters }) => parameters.clone(),
          _ => Vec::new(),
        };
      let variables = defined
        .iter()
        .filter(|definition| matches!(definition.kind, Kind::Variable { .. }))
        .map(|definition| definition.name.clone());
      parameters.into_iter().chain(variables).collect()
    }
  };
  let candidates = candidates.into_iter().filter(|candidate| candidate != name);
  closest(candidates.map(|candidate| (candidate, None)), name).map(|suggestion| suggestion.name)
}
