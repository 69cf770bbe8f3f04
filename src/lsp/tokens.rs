//! `textDocument/semanticTokens/full`: comments, strings, keywords,
//! attributes and settings from the real lexer, and each name as what it
//! is (recipe, variable, parameter, function, module) from the navigation's
//! reading of the file. A file the lexer rejects is read past each error
//! (`occurrences::tokens`).

use std::collections::HashMap;

use lsp_types::{SemanticToken, SemanticTokenType, SemanticTokens, SemanticTokensLegend};

use super::occurrences::{occurrences, tokens, Role};
use super::positions;
use crate::syntax::token::TokenKind;

/// The token types, in legend order.
const TYPES: &[SemanticTokenType] = &[
  SemanticTokenType::COMMENT,
  SemanticTokenType::STRING,
  SemanticTokenType::KEYWORD,
  SemanticTokenType::FUNCTION,
  SemanticTokenType::VARIABLE,
  SemanticTokenType::PARAMETER,
  SemanticTokenType::NAMESPACE,
  SemanticTokenType::DECORATOR,
  SemanticTokenType::PROPERTY,
];

const COMMENT: u32 = 0;
const STRING: u32 = 1;
const KEYWORD: u32 = 2;
const FUNCTION: u32 = 3;
const VARIABLE: u32 = 4;
const PARAMETER: u32 = 5;
const NAMESPACE: u32 = 6;
const DECORATOR: u32 = 7;
const PROPERTY: u32 = 8;

pub(super) fn legend() -> SemanticTokensLegend {
  SemanticTokensLegend { token_types: TYPES.to_vec(), token_modifiers: Vec::new() }
}

const ITEM_KEYWORDS: &[&str] = &["alias", "export", "import", "mod", "set", "unexport", "eager"];

pub(super) fn semantic_tokens(text: &str) -> SemanticTokens {
  // (start, end, type), by start.
  let mut spans: HashMap<usize, (usize, u32)> = HashMap::new();
  for occurrence in occurrences(text) {
    let kind = match occurrence.role {
      Role::Recipe | Role::Function => FUNCTION,
      Role::Variable => VARIABLE,
      Role::Parameter(_) => PARAMETER,
      Role::Module => NAMESPACE,
    };
    spans.insert(occurrence.start, (occurrence.end, kind));
  }
  let mut previous: Option<TokenKind> = None;
  let mut line_first = true;
  // Where the line of the current token starts (kept as the tokens go:
  // looking back for it at each token would cost a long line dearly).
  let mut line_start = 0;
  for token in tokens(text) {
    let (start, end) = (token.start, token.end);
    let line_before = text.get(line_start..start).unwrap_or_default();
    let kind = match token.kind {
      TokenKind::Comment => Some(COMMENT),
      TokenKind::StringToken
      | TokenKind::Backtick
      | TokenKind::FormatStringStart
      | TokenKind::FormatStringContinue
      | TokenKind::FormatStringEnd => Some(STRING),
      TokenKind::Identifier if spans.contains_key(&start) => None,
      TokenKind::Identifier => {
        let lexeme = text.get(start..end).unwrap_or_default();
        if line_first && ITEM_KEYWORDS.contains(&lexeme)
          || matches!(lexeme, "if" | "else" | "assert")
        {
          Some(KEYWORD)
        } else if matches!(previous, Some(TokenKind::BracketL | TokenKind::Comma))
          && text[..start].trim_end().ends_with(['[', ','])
          && line_before.trim_start().starts_with('[')
        {
          Some(DECORATOR)
        } else if previous == Some(TokenKind::Identifier) && line_before.trim() == "set" {
          Some(PROPERTY)
        } else {
          None
        }
      }
      _ => None,
    };
    if let Some(kind) = kind {
      spans.insert(start, (end, kind));
    }
    if let Some(newline) = text.get(start..end).and_then(|lexeme| lexeme.rfind('\n')) {
      line_start = start + newline + 1;
    }
    match token.kind {
      TokenKind::Whitespace | TokenKind::Indent | TokenKind::Dedent => {}
      TokenKind::Eol => line_first = true,
      kind => {
        line_first = false;
        previous = Some(kind);
      }
    }
  }
  let mut sorted: Vec<(usize, usize, u32)> =
    spans.into_iter().map(|(start, (end, kind))| (start, end, kind)).collect();
  sorted.sort_unstable();
  encode(text, &sorted)
}

/// LSP's relative encoding, each span cut into one token per line.
fn encode(text: &str, spans: &[(usize, usize, u32)]) -> SemanticTokens {
  let mut data = Vec::new();
  let (mut last_line, mut last_character) = (0, 0);
  let mut covered = 0;
  let mut cursor = positions::Cursor::new(text);
  for &(start, end, kind) in spans {
    if start < covered
      || end > text.len()
      || !text.is_char_boundary(start)
      || !text.is_char_boundary(end)
    {
      continue;
    }
    covered = end;
    let mut piece_start = start;
    while piece_start < end {
      let piece_end =
        text[piece_start..end].find('\n').map_or(end, |newline| piece_start + newline);
      let position = cursor.position(piece_start);
      let length = text[piece_start..piece_end].encode_utf16().count() as u32;
      if length > 0 {
        let delta_line = position.line - last_line;
        let delta_start =
          if delta_line == 0 { position.character - last_character } else { position.character };
        data.push(SemanticToken {
          delta_line,
          delta_start,
          length,
          token_type: kind,
          token_modifiers_bitset: 0,
        });
        (last_line, last_character) = (position.line, position.character);
      }
      piece_start = piece_end + 1;
    }
  }
  SemanticTokens { result_id: None, data }
}

#[cfg(test)]
mod tests {
  use super::*;

  /// The spans of `text` with their types, in order.
  fn decoded(text: &str) -> Vec<(&str, u32)> {
    let (mut line, mut character) = (0, 0);
    let lines: Vec<&str> = text.split('\n').collect();
    semantic_tokens(text)
      .data
      .iter()
      .map(|token| {
        line += token.delta_line as usize;
        character =
          if token.delta_line == 0 { character + token.delta_start } else { token.delta_start };
        let start = character as usize;
        (&lines[line][start..start + token.length as usize], token.token_type)
      })
      .collect()
  }

  #[test]
  fn a_file_that_does_not_lex_keeps_comments_and_strings_after_the_error() {
    let text = "x := \"abc\n# c\ny := 'v' + x\n";
    assert_eq!(
      decoded(text),
      [("x", VARIABLE), ("# c", COMMENT), ("y", VARIABLE), ("'v'", STRING), ("x", VARIABLE)]
    );
  }
}
