//! Source text → tokens → parse tree.

pub(crate) mod ast;
pub(crate) mod attribute_order;
pub(crate) mod attributes;
pub(crate) mod lex_error;
pub(crate) mod lexer;
pub(crate) mod parse_error;
pub(crate) mod parser;
pub(crate) mod path;
pub(crate) mod settings;
pub(crate) mod sources;
pub(crate) mod strings;
pub(crate) mod syntax_error;
pub(crate) mod token;
pub(crate) mod trees;
