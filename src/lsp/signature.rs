//! `textDocument/signatureHelp`: inside a call of a built-in or user
//! function, its parameters and the one being written; inside a dependency's
//! `(recipe arguments…)`, the recipe's parameters.

use lsp_types::{
  ParameterInformation, ParameterLabel, Position, SignatureHelp, SignatureInformation,
};

use super::outline::{self, Kind};
use super::positions;
use crate::builtins::functions::Function;

pub(super) fn signature_help(text: &str, position: Position) -> Option<SignatureHelp> {
  let offset = positions::offset(text, position);
  let line_start = text[..offset].rfind('\n').map_or(0, |index| index + 1);
  let prefix = &text[line_start..offset];
  // The innermost unclosed `(` before the cursor, outside strings.
  let mut opens: Vec<usize> = Vec::new();
  let mut quote: Option<char> = None;
  for (index, c) in prefix.char_indices() {
    match quote {
      Some(q) if c == q => quote = None,
      Some(_) => {}
      None => match c {
        '\'' | '"' | '`' => quote = Some(c),
        '(' => opens.push(index),
        ')' => {
          opens.pop();
        }
        _ => {}
      },
    }
  }
  if quote.is_some() {
    return None;
  }
  let open = *opens.last()?;
  let inside = &prefix[open + 1..];
  let before = prefix[..open].trim_end();
  let name_start = outline::name_start(before, before.len());
  let name = &before[name_start..];
  let definitions = outline::definitions(text);
  if name.is_empty() {
    // `(recipe arg…` in a dependency list.
    let recipe_name: String =
      inside.trim_start().chars().take_while(|&c| outline::is_name_char(c)).collect();
    let parameters = definitions.iter().find_map(|definition| match &definition.kind {
      Kind::Recipe { parameters } if definition.name == recipe_name => Some(parameters.clone()),
      _ => None,
    })?;
    let words = inside.split_whitespace().count();
    let active = if inside.ends_with([' ', '\t']) { words } else { words.saturating_sub(1) };
    let label = format!("{recipe_name} {}", parameters.join(" "));
    return Some(help(label, &parameters, active.saturating_sub(1)));
  }
  let active = top_level_commas(inside);
  if let Some(parameters) = definitions.iter().find_map(|definition| match &definition.kind {
    Kind::Function { parameters } if definition.name == name => Some(parameters.clone()),
    _ => None,
  }) {
    return Some(help(format!("{name}({})", parameters.join(", ")), &parameters, active));
  }
  let function = Function::from_name(name)?;
  let parameters: Vec<String> =
    function.parameters().split(", ").filter(|name| !name.is_empty()).map(String::from).collect();
  let mut help = help(format!("{name}({})", parameters.join(", ")), &parameters, active);
  help.signatures[0].documentation =
    Some(lsp_types::Documentation::String(function.doc().to_string()));
  Some(help)
}

fn top_level_commas(text: &str) -> usize {
  let mut depth = 0;
  let mut quote: Option<char> = None;
  let mut commas = 0;
  for c in text.chars() {
    match quote {
      Some(q) if c == q => quote = None,
      Some(_) => {}
      None => match c {
        '\'' | '"' | '`' => quote = Some(c),
        '(' | '[' => depth += 1,
        ')' | ']' => depth -= 1,
        ',' if depth == 0 => commas += 1,
        _ => {}
      },
    }
  }
  commas
}

fn help(label: String, parameters: &[String], active: usize) -> SignatureHelp {
  let active = active.min(parameters.len().saturating_sub(1)) as u32;
  SignatureHelp {
    signatures: vec![SignatureInformation {
      label,
      documentation: None,
      parameters: Some(
        parameters
          .iter()
          .map(|parameter| ParameterInformation {
            label: ParameterLabel::Simple(parameter.clone()),
            documentation: None,
          })
          .collect(),
      ),
      active_parameter: Some(active),
    }],
    active_signature: Some(0),
    active_parameter: Some(active),
  }
}
