//! `textDocument/formatting`: exactly the text `just --fmt` would write, as
//! one edit of the whole document; no edit for a formatted file and none
//! for a file `--fmt` refuses (one that does not parse).

use std::path::Path;

use lsp_types::TextEdit;

use super::positions;
use crate::output::format::{format_justfile, indentation_setting};
use crate::syntax::parser;
use crate::syntax::sources::Sources;
use crate::syntax::trees::Trees;

/// The edits that format `text` (of the file at `path`), or `None` when
/// `just --fmt` would refuse it.
pub(super) fn format(path: &Path, text: &str) -> Option<Vec<TextEdit>> {
  let sources = Sources::new();
  let trees = Trees::new();
  let source = sources.add(text, path);
  let ast = parser::parse_source(source, &trees).ok()?;
  let indentation = indentation_setting(&ast).unwrap_or_else(|| "    ".into());
  let formatted = format_justfile(&ast, &indentation);
  if formatted == text {
    return Some(Vec::new());
  }
  Some(vec![TextEdit { range: positions::range(text, 0, text.len()), new_text: formatted }])
}
