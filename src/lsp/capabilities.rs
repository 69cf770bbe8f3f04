//! What the server offers, answered to `initialize`.

use lsp_types::{
  InitializeResult, OneOf, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
  TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};
use serde_json::Value;

pub(super) fn initialize_result() -> Value {
  let capabilities = ServerCapabilities {
    text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
      open_close: Some(true),
      change: Some(TextDocumentSyncKind::INCREMENTAL),
      save: Some(TextDocumentSyncSaveOptions::Supported(true)),
      ..TextDocumentSyncOptions::default()
    })),
    document_formatting_provider: Some(OneOf::Left(true)),
    completion_provider: Some(lsp_types::CompletionOptions {
      trigger_characters: Some(vec![
        "[".into(),
        "{".into(),
        "/".into(),
        ":".into(),
        "(".into(),
        " ".into(),
      ]),
      ..lsp_types::CompletionOptions::default()
    }),
    definition_provider: Some(OneOf::Left(true)),
    references_provider: Some(OneOf::Left(true)),
    document_highlight_provider: Some(OneOf::Left(true)),
    rename_provider: Some(OneOf::Right(lsp_types::RenameOptions {
      prepare_provider: Some(true),
      work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
    })),
    workspace_symbol_provider: Some(OneOf::Left(true)),
    semantic_tokens_provider: Some(
      lsp_types::SemanticTokensServerCapabilities::SemanticTokensOptions(
        lsp_types::SemanticTokensOptions {
          legend: super::tokens::legend(),
          full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
          range: None,
          work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
        },
      ),
    ),
    signature_help_provider: Some(lsp_types::SignatureHelpOptions {
      trigger_characters: Some(vec!["(".into(), ",".into(), " ".into()]),
      ..lsp_types::SignatureHelpOptions::default()
    }),
    code_action_provider: Some(lsp_types::CodeActionProviderCapability::Options(
      lsp_types::CodeActionOptions {
        code_action_kinds: Some(vec![lsp_types::CodeActionKind::QUICKFIX]),
        ..lsp_types::CodeActionOptions::default()
      },
    )),
    document_link_provider: Some(lsp_types::DocumentLinkOptions {
      resolve_provider: Some(false),
      work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
    }),
    inlay_hint_provider: Some(OneOf::Left(true)),
    code_lens_provider: Some(lsp_types::CodeLensOptions { resolve_provider: Some(false) }),
    execute_command_provider: Some(lsp_types::ExecuteCommandOptions {
      commands: vec![super::run::RUN.into()],
      ..lsp_types::ExecuteCommandOptions::default()
    }),
    hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
    document_symbol_provider: Some(OneOf::Left(true)),
    folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
    ..ServerCapabilities::default()
  };
  let result = InitializeResult {
    capabilities,
    server_info: Some(ServerInfo {
      name: "just".into(),
      version: Some(env!("CARGO_PKG_VERSION").into()),
    }),
  };
  serde_json::to_value(result).unwrap_or(Value::Null)
}

/// The files whose changes on disk the server wants to hear of
/// (`workspace/didChangeWatchedFiles`): justfiles and `*.just` files,
/// which imports and modules usually are.
pub(super) fn watch_registration() -> lsp_server::Request {
  let watchers: Vec<Value> = ["**/*.just", "**/{justfile,Justfile,JUSTFILE,.justfile}"]
    .into_iter()
    .map(|pattern| serde_json::json!({"globPattern": pattern}))
    .collect();
  lsp_server::Request::new(
    lsp_server::RequestId::from("just/watch".to_string()),
    "client/registerCapability".into(),
    serde_json::json!({"registrations": [{
      "id": "just/watched-files",
      "method": "workspace/didChangeWatchedFiles",
      "registerOptions": {"watchers": watchers},
    }]}),
  )
}
