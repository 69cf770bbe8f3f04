//! The outline of a document (`textDocument/documentSymbol`: recipes in
//! their groups, variables, functions, aliases, modules) and its folding
//! ranges (recipe bodies).

use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, Range, SymbolKind};

use super::outline::{self, Kind};
use super::positions::{on_token_line, token_range, Lines};
use crate::syntax::ast::{Ast, Attribute, Item, Recipe};
use crate::syntax::token::Token;

/// The outline of `ast`: items in source order, a recipe or module with
/// `[group(NAME)]` under a symbol for each of its groups.
pub(super) fn document_symbols(ast: &Ast) -> Vec<DocumentSymbol> {
  let mut top: Vec<DocumentSymbol> = Vec::new();
  // Group name → index of its symbol in `top`.
  let mut groups: Vec<(String, usize)> = Vec::new();
  for item in &ast.items {
    let Some((symbol, attributes)) = item_symbol(item) else { continue };
    let names: Vec<String> = attributes
      .list
      .iter()
      .filter_map(|entry| match &entry.attribute {
        Attribute::Group(literal) => Some(literal.cooked.to_string()),
        _ => None,
      })
      .collect();
    if names.is_empty() {
      top.push(symbol);
      continue;
    }
    for name in names {
      let index = if let Some((_, index)) = groups.iter().find(|(group, _)| *group == name) {
        *index
      } else {
        top.push(DocumentSymbol {
          detail: Some("group".into()),
          kind: SymbolKind::NAMESPACE,
          children: Some(Vec::new()),
          ..symbol.clone()
        });
        let index = top.len() - 1;
        top[index].name.clone_from(&name);
        groups.push((name, index));
        index
      };
      let group = &mut top[index];
      group.range = cover(group.range, symbol.range);
      group.children.get_or_insert_with(Vec::new).push(symbol.clone());
    }
  }
  top
}

/// An item's symbol and its attributes (for its groups); `None` for items
/// the outline leaves out.
fn item_symbol<'src>(
  item: &Item<'src>,
) -> Option<(DocumentSymbol, crate::syntax::ast::Attributes<'src>)> {
  Some(match item {
    Item::Recipe(recipe) => (recipe_symbol(recipe), recipe.attributes),
    Item::Assignment(assignment) => (
      symbol(
        assignment.name,
        SymbolKind::VARIABLE,
        None,
        token_range(&assignment.name),
        Vec::new(),
      ),
      assignment.attributes,
    ),
    Item::Function(function) => {
      let detail = function.parameters.iter().map(|name| name.lexeme()).collect::<Vec<_>>();
      (
        symbol(
          function.name,
          SymbolKind::FUNCTION,
          Some(format!("({})", detail.join(", "))),
          token_range(&function.name),
          Vec::new(),
        ),
        function.attributes,
      )
    }
    Item::Alias(alias) => {
      let target = alias.target.iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::");
      (
        symbol(
          alias.name,
          SymbolKind::CONSTANT,
          Some(format!("alias for {target}")),
          token_range(&alias.name),
          Vec::new(),
        ),
        alias.attributes,
      )
    }
    Item::Module(module) => (
      symbol(
        module.name,
        SymbolKind::MODULE,
        module.doc.map(str::to_string),
        token_range(&module.name),
        Vec::new(),
      ),
      module.attributes,
    ),
    _ => return None,
  })
}

fn cover(a: Range, b: Range) -> Range {
  Range { start: a.start.min(b.start), end: a.end.max(b.end) }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
fn symbol(
  name: Token,
  kind: SymbolKind,
  detail: Option<String>,
  range: Range,
  children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
  DocumentSymbol {
    name: name.lexeme().to_string(),
    detail,
    kind,
    tags: None,
    deprecated: None,
    range,
    selection_range: token_range(&name),
    children: if children.is_empty() { None } else { Some(children) },
  }
}

fn recipe_symbol(recipe: &Recipe) -> DocumentSymbol {
  let parameters: Vec<&str> =
    recipe.parameters.iter().map(|parameter| parameter.name.lexeme()).collect();
  let detail = recipe.doc.map(str::to_string).or_else(|| {
    if parameters.is_empty() {
      None
    } else {
      Some(parameters.join(" "))
    }
  });
  symbol(recipe.name, SymbolKind::FUNCTION, detail, recipe_range(recipe), Vec::new())
}

/// From the recipe's first attribute (or its name) to the end of its body.
pub(super) fn recipe_range(recipe: &Recipe) -> Range {
  let text = recipe.name.src();
  let start_token = recipe.attributes.list.first().map_or(recipe.name, |entry| entry.name);
  let end_token = recipe.body.last().map_or(recipe.name, |line| line.text);
  let end = line_end(text, end_token.offset as usize);
  Range {
    start: on_token_line(&start_token, start_token.line_start()),
    end: on_token_line(&end_token, end),
  }
}

fn line_end(text: &str, offset: usize) -> usize {
  let offset = offset.min(text.len());
  let end = text[offset..].find('\n').map_or(text.len(), |index| offset + index);
  if end > 0 && text.as_bytes().get(end - 1) == Some(&b'\r') {
    end - 1
  } else {
    end
  }
}

/// A range to fold per recipe with a body: from its header to its last line.
pub(super) fn folding_ranges(ast: &Ast) -> Vec<FoldingRange> {
  ast
    .items
    .iter()
    .filter_map(|item| match item {
      Item::Recipe(recipe) if !recipe.body.is_empty() => {
        let range = recipe_range(recipe);
        let header = token_range(&recipe.name).start.line;
        (range.end.line > header).then(|| FoldingRange {
          start_line: header,
          end_line: range.end.line,
          kind: Some(FoldingRangeKind::Region),
          ..FoldingRange::default()
        })
      }
      _ => None,
    })
    .collect()
}

/// The outline of a text that does not parse, from the tolerant reading of
/// its top-level lines (`outline::definitions`): what can still be found
/// while the user types, in place of nothing.
pub(super) fn recovered_symbols(text: &str) -> Vec<DocumentSymbol> {
  let lines = Lines::new(text);
  let rows: Vec<&str> = text.split('\n').collect();
  outline::definitions(text)
    .into_iter()
    .filter_map(|definition| {
      let (kind, detail) = match &definition.kind {
        Kind::Recipe { parameters } => (
          SymbolKind::FUNCTION,
          definition.doc.clone().or_else(|| (!parameters.is_empty()).then(|| parameters.join(" "))),
        ),
        Kind::Variable { .. } => (SymbolKind::VARIABLE, None),
        Kind::Function { parameters } => {
          (SymbolKind::FUNCTION, Some(format!("({})", parameters.join(", "))))
        }
        Kind::Alias { target } => (SymbolKind::CONSTANT, Some(format!("alias for {target}"))),
        Kind::Module { .. } => (SymbolKind::MODULE, definition.doc.clone()),
        Kind::Import { .. } => return None,
      };
      let selection_range = lines.range(text, definition.start, definition.end);
      let mut range = selection_range;
      if matches!(definition.kind, Kind::Recipe { .. }) {
        let last = body_end(&rows, definition.line);
        range.start.character = 0;
        if last > definition.line {
          let row = rows[last].strip_suffix('\r').unwrap_or(rows[last]);
          range.end =
            lsp_types::Position { line: last as u32, character: row.encode_utf16().count() as u32 };
        }
      }
      #[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
      Some(DocumentSymbol {
        name: definition.name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children: None,
      })
    })
    .collect()
}

/// The folding ranges of a text that does not parse: each recipe header
/// found by the tolerant reading, to the last indented line below it.
pub(super) fn recovered_folding_ranges(text: &str) -> Vec<FoldingRange> {
  let rows: Vec<&str> = text.split('\n').collect();
  outline::definitions(text)
    .into_iter()
    .filter(|definition| matches!(definition.kind, Kind::Recipe { .. }))
    .filter_map(|definition| {
      let last = body_end(&rows, definition.line);
      (last > definition.line).then(|| FoldingRange {
        start_line: definition.line as u32,
        end_line: last as u32,
        kind: Some(FoldingRangeKind::Region),
        ..FoldingRange::default()
      })
    })
    .collect()
}

/// The last indented line of the body below the header on line `header`
/// (blank lines inside it included, not after it); `header` if none.
fn body_end(rows: &[&str], header: usize) -> usize {
  let mut last = header;
  for (index, row) in rows.iter().enumerate().skip(header + 1) {
    let row = row.strip_suffix('\r').unwrap_or(row);
    if row.trim().is_empty() {
      continue;
    }
    if !row.starts_with([' ', '\t']) {
      break;
    }
    last = index;
  }
  last
}
