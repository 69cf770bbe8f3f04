//! Recipe kinds and checks of recipe bodies: whether a recipe is a script,
//! extra leading whitespace, sigil conflicts, script-only attributes.

use super::compile_error::{error, CompileError};
use super::effects::{Effects, Flags};
use super::error::AnalysisErrorKind;
use super::model::Settings;
use super::names::token_bytes;
use crate::syntax::ast::{self, Fragment, Line, Recipe};
use crate::syntax::attributes::SCRIPT_ONLY;
use crate::syntax::token::Token;

type CompileResult<'src, T> = Result<T, CompileError<'src>>;

pub(crate) fn is_script<'src>(recipe: &'src ast::Recipe<'src>, settings: &Settings<'src>) -> bool {
  script(Effects::flags_of(recipe.attributes.list), recipe, settings)
}

/// Body starts with `#!`, or `[script]`, or `set default-script`; never with `[shell]`.
pub(crate) fn script(flags: Flags, recipe: &ast::Recipe, settings: &Settings) -> bool {
  !flags.shell() && (flags.script() || recipe.shebang || settings.default_script)
}

pub(crate) fn check<'src>(
  recipe: &Recipe<'src>,
  script: bool,
  guards: bool,
  ignore_comments: bool,
) -> CompileResult<'src, ()> {
  if !script {
    check_lines(recipe.body, guards, ignore_comments)?;
  }
  for kind in SCRIPT_ONLY {
    if !script && recipe.attributes.list.iter().any(|entry| entry.attribute.kind() == kind) {
      return Err(error(
        recipe.name,
        AnalysisErrorKind::ShellRecipeScriptAttribute {
          recipe: recipe.name.lexeme(),
          attribute: kind.name(),
        },
      ));
    }
  }
  Ok(())
}

fn first_text<'src>(line: &Line<'src>) -> Option<Token<'src>> {
  match line.first_fragment() {
    Some(Fragment::Text(token)) => Some(token),
    _ => None,
  }
}

fn continues(line: &Line<'_>) -> bool {
  matches!(line.last_fragment(), Some(Fragment::Text(token)) if token_bytes(&token).ends_with(b"\\"))
}

fn check_lines<'src>(
  lines: &[Line<'src>],
  guards: bool,
  ignore_comments: bool,
) -> CompileResult<'src, ()> {
  let mut continued = false;
  for line in lines {
    if !continued {
      if let Some(text) = first_text(line) {
        let first = token_bytes(&text).first();
        // An ignored comment is dropped whole: a trailing `\` joins nothing.
        if ignore_comments && first == Some(&b'#') {
          continue;
        }
        if matches!(first, Some(b' ' | b'\t')) {
          return Err(error(text, AnalysisErrorKind::ExtraLeadingWhitespace));
        }
        if guards && has_guard_and_infallible(text.lexeme()) {
          return Err(error(text, AnalysisErrorKind::GuardAndInfallibleSigil));
        }
      }
    }
    continued = continues(line);
  }
  Ok(())
}

/// Sigils at the start of a command, each consumed at most once.
fn has_guard_and_infallible(text: &str) -> bool {
  let mut seen: Vec<char> = Vec::new();
  for c in text.chars() {
    if !matches!(c, '@' | '-' | '?') || seen.contains(&c) {
      break;
    }
    seen.push(c);
  }
  seen.contains(&'?') && seen.contains(&'-')
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn sigils() {
    let cases =
      [("-?echo", true), ("?-echo", true), ("@-@?echo", false), ("-echo", false), ("?echo", false)];
    for (text, expected) in cases {
      assert_eq!(has_guard_and_infallible(text), expected, "{text}");
    }
  }
}
