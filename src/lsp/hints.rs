//! `textDocument/inlayHint`: after each variable of the document whose
//! value is a constant (no backtick, no function call, nothing from the
//! command line), that value, when the expression is more than the plain
//! string it is: `path := root / 'bin'` shows `= "/srv/bin"`.

use std::path::Path;

use lsp_types::{InlayHint, InlayHintKind, InlayHintLabel, Range};

use super::documents::Documents;
use super::positions::token_range;
use super::project;
use crate::analysis::const_eval::constant_value;
use crate::analysis::model::Module;
use crate::builtins::value::Value;
use crate::syntax::ast::Expression;

/// The longest value shown, in characters; a longer one is cut with `…`.
const LONGEST: usize = 60;

pub(super) fn inlay_hints(path: &Path, range: Range, documents: &Documents) -> Vec<InlayHint> {
  project::with_justfile(path, documents.overlays(), |justfile, directory| {
    let mut hints = Vec::new();
    collect(&justfile.root, path, directory, range, &mut hints);
    hints.sort_by_key(|hint| (hint.position.line, hint.position.character));
    hints
  })
  .unwrap_or_default()
}

fn collect(
  module: &Module,
  path: &Path,
  directory: &Path,
  range: Range,
  hints: &mut Vec<InlayHint>,
) {
  for assignment in module.assignments.values() {
    let file = assignment.name.path();
    let file = if file.is_absolute() { file.to_path_buf() } else { directory.join(file) };
    if file != path || matches!(assignment.value, Expression::StringLiteral(_)) {
      continue;
    }
    let line = token_range(&assignment.name).start.line;
    if line < range.start.line || line > range.end.line {
      continue;
    }
    let Some(value) = constant_value(module, &[], assignment.value) else { continue };
    let text = assignment.name.src();
    let line_start = assignment.name.line_start();
    let line_end = text[line_start..].find('\n').map_or(text.len(), |index| line_start + index);
    let line_end = if text[..line_end].ends_with('\r') { line_end - 1 } else { line_end };
    let character = text[line_start..line_end].encode_utf16().count() as u32;
    hints.push(InlayHint {
      position: lsp_types::Position { line, character },
      label: InlayHintLabel::String(format!("= {}", shown(&value))),
      kind: Some(InlayHintKind::TYPE),
      text_edits: None,
      tooltip: None,
      padding_left: Some(true),
      padding_right: None,
      data: None,
    });
  }
  for submodule in module.modules.values() {
    collect(submodule, path, directory, range, hints);
  }
}

/// A value as a string literal (a list as `[…]`), cut past `LONGEST`.
fn shown(value: &Value) -> String {
  let quoted: Vec<String> = value.elements().iter().map(|element| format!("{element:?}")).collect();
  let text = match quoted.as_slice() {
    [single] => single.clone(),
    elements => format!("[{}]", elements.join(", ")),
  };
  if text.chars().count() > LONGEST {
    let cut: String = text.chars().take(LONGEST).collect();
    format!("{cut}…")
  } else {
    text
  }
}
