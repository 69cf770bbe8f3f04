//! The requests about a document, each answered from its current text.

use std::path::PathBuf;

use lsp_server::ErrorCode;
use lsp_types::request::{self as requests, Request as _};
use serde_json::Value;

use super::documents::{self, Documents};
use super::failure::{parameters, Failure};
use super::{
  actions, completion, formatting, hints, hover, links, navigation, run, signature, symbols,
  tokens, workspace,
};
use crate::syntax::parser;
use crate::syntax::sources::Sources;
use crate::syntax::trees::Trees;

pub(super) fn answer(documents: &Documents, method: &str, params: Value) -> Result<Value, Failure> {
  match method {
    requests::Formatting::METHOD => {
      let params: lsp_types::DocumentFormattingParams = parameters(params)?;
      let (path, text) = document(documents, params.text_document.uri.as_str())?;
      to_value(formatting::format(&path, &text))
    }
    requests::DocumentSymbolRequest::METHOD => {
      let params: lsp_types::DocumentSymbolParams = parameters(params)?;
      let (path, text) = document(documents, params.text_document.uri.as_str())?;
      let outline = with_ast(&path, &text, symbols::document_symbols);
      to_value(outline.unwrap_or_else(|| symbols::recovered_symbols(&text)))
    }
    requests::FoldingRangeRequest::METHOD => {
      let params: lsp_types::FoldingRangeParams = parameters(params)?;
      let (path, text) = document(documents, params.text_document.uri.as_str())?;
      let folds = with_ast(&path, &text, symbols::folding_ranges);
      to_value(folds.unwrap_or_else(|| symbols::recovered_folding_ranges(&text)))
    }
    requests::Completion::METHOD => {
      let params: lsp_types::CompletionParams = parameters(params)?;
      let at = params.text_document_position;
      let (path, text) = document(documents, at.text_document.uri.as_str())?;
      to_value(completion::complete(&path, &text, at.position, documents))
    }
    requests::HoverRequest::METHOD => {
      let params: lsp_types::HoverParams = parameters(params)?;
      let at = params.text_document_position_params;
      let (path, text) = document(documents, at.text_document.uri.as_str())?;
      to_value(hover::hover(&path, &text, at.position, documents))
    }
    requests::GotoDefinition::METHOD => {
      let params: lsp_types::GotoDefinitionParams = parameters(params)?;
      let at = params.text_document_position_params;
      let (path, text) = document(documents, at.text_document.uri.as_str())?;
      let found = navigation::definition(&path, &text, at.position, documents);
      to_value(lsp_types::GotoDefinitionResponse::Array(found))
    }
    requests::References::METHOD => {
      let params: lsp_types::ReferenceParams = parameters(params)?;
      let at = params.text_document_position;
      let (path, text) = document(documents, at.text_document.uri.as_str())?;
      let include = params.context.include_declaration;
      to_value(navigation::references(&path, &text, at.position, include, documents))
    }
    requests::DocumentHighlightRequest::METHOD => {
      let params: lsp_types::DocumentHighlightParams = parameters(params)?;
      let at = params.text_document_position_params;
      let (path, text) = document(documents, at.text_document.uri.as_str())?;
      to_value(navigation::highlights(&path, &text, at.position, documents))
    }
    requests::PrepareRenameRequest::METHOD => {
      let params: lsp_types::TextDocumentPositionParams = parameters(params)?;
      let (_, text) = document(documents, params.text_document.uri.as_str())?;
      to_value(navigation::prepare_rename(&text, params.position))
    }
    requests::Rename::METHOD => {
      let params: lsp_types::RenameParams = parameters(params)?;
      let at = params.text_document_position;
      let (path, text) = document(documents, at.text_document.uri.as_str())?;
      match navigation::rename(&path, &text, at.position, &params.new_name, documents) {
        Ok(edit) => to_value(edit),
        Err(reason) => Err(Failure::new(ErrorCode::RequestFailed, reason)),
      }
    }
    requests::WorkspaceSymbolRequest::METHOD => {
      let params: lsp_types::WorkspaceSymbolParams = parameters(params)?;
      to_value(workspace::symbols(&params.query, documents))
    }
    requests::SemanticTokensFullRequest::METHOD => {
      let params: lsp_types::SemanticTokensParams = parameters(params)?;
      let (_, text) = document(documents, params.text_document.uri.as_str())?;
      to_value(tokens::semantic_tokens(&text))
    }
    requests::SignatureHelpRequest::METHOD => {
      let params: lsp_types::SignatureHelpParams = parameters(params)?;
      let at = params.text_document_position_params;
      let (_, text) = document(documents, at.text_document.uri.as_str())?;
      to_value(signature::signature_help(&text, at.position))
    }
    requests::CodeActionRequest::METHOD => {
      let params: lsp_types::CodeActionParams = parameters(params)?;
      let uri = params.text_document.uri;
      let (path, text) = document(documents, uri.as_str())?;
      let diagnostics = &params.context.diagnostics;
      to_value(actions::code_actions(&path, &uri, &text, diagnostics, documents))
    }
    requests::DocumentLinkRequest::METHOD => {
      let params: lsp_types::DocumentLinkParams = parameters(params)?;
      let (path, text) = document(documents, params.text_document.uri.as_str())?;
      to_value(links::document_links(&path, &text))
    }
    requests::InlayHintRequest::METHOD => {
      let params: lsp_types::InlayHintParams = parameters(params)?;
      let (path, _) = document(documents, params.text_document.uri.as_str())?;
      to_value(hints::inlay_hints(&path, params.range, documents))
    }
    requests::CodeLensRequest::METHOD => {
      let params: lsp_types::CodeLensParams = parameters(params)?;
      let (path, _) = document(documents, params.text_document.uri.as_str())?;
      to_value(run::code_lenses(&path, documents))
    }
    _ => Err(Failure::new(ErrorCode::MethodNotFound, format!("unknown request `{method}`"))),
  }
}

fn to_value(value: impl serde::Serialize) -> Result<Value, Failure> {
  serde_json::to_value(value)
    .map_err(|error| Failure::new(ErrorCode::InternalError, error.to_string()))
}

/// The path and text of the document at `uri`: the open one's, else the
/// file's on disk; an error for anything else.
fn document(documents: &Documents, uri: &str) -> Result<(PathBuf, String), Failure> {
  let path = documents::uri_path(uri)
    .ok_or_else(|| Failure::new(ErrorCode::InvalidParams, format!("not a file URI: `{uri}`")))?;
  let text = documents
    .text(&path)
    .ok_or_else(|| Failure::new(ErrorCode::InvalidParams, format!("unknown document `{uri}`")))?;
  Ok((path, text))
}

/// `f` of the parse tree of `text`, or `None` if it does not parse.
fn with_ast<T>(
  path: &std::path::Path,
  text: &str,
  f: impl FnOnce(&crate::syntax::ast::Ast) -> T,
) -> Option<T> {
  let sources = Sources::new();
  let trees = Trees::new();
  let source = sources.add(text, path);
  let ast = parser::parse_source(source, &trees).ok()?;
  Some(f(&ast))
}
