//! `textDocument/documentLink`: the path of each `import` and `mod` line
//! (or a `mod`'s name, without one) links to the file `just` would load
//! for it, when there is one.

use std::path::Path;

use lsp_types::DocumentLink;

use super::documents;
use super::outline::{self, Kind};
use super::positions::Lines;
use super::workspace;

pub(super) fn document_links(path: &Path, text: &str) -> Vec<DocumentLink> {
  let directory = path.parent().unwrap_or(Path::new(""));
  let lines = Lines::new(text);
  outline::definitions(text)
    .into_iter()
    .filter_map(|definition| {
      let (target, (start, end)) = match &definition.kind {
        Kind::Import { path: written } => {
          let target = expand(directory, written);
          (target.is_file().then_some(target)?, quoted(text, definition.start)?)
        }
        Kind::Module { path: written, .. } => {
          let files = workspace::module_files(directory, &definition.name, written.as_deref());
          let target = files.into_iter().next()?;
          let span = match written {
            Some(_) => quoted(text, definition.end)?,
            None => (definition.start, definition.end),
          };
          (target, span)
        }
        _ => return None,
      };
      let target = documents::path_uri(&target).parse().ok()?;
      Some(DocumentLink {
        range: lines.range(text, start, end),
        target: Some(target),
        tooltip: None,
        data: None,
      })
    })
    .collect()
}

/// `~/…` is the home directory, as `just` reads it; else relative to `directory`.
fn expand(directory: &Path, written: &str) -> std::path::PathBuf {
  match written.strip_prefix("~/").and_then(|rest| dirs::home_dir().map(|home| home.join(rest))) {
    Some(home) => home,
    None => directory.join(written),
  }
}

/// The span of the first quoted string at or after byte `from`, on its line.
fn quoted(text: &str, from: usize) -> Option<(usize, usize)> {
  let line_end = text[from..].find('\n').map_or(text.len(), |index| from + index);
  let line = &text[from..line_end];
  let open = line.find(['\'', '"'])?;
  let quote = line[open..].chars().next()?;
  let close = line[open + 1..].find(quote)? + open + 1;
  Some((from + open, from + close + 1))
}
