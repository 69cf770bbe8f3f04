//! Source text → tokens → parse tree.

pub mod ast;
pub mod attribute_order;
pub mod attributes;
pub mod lex_error;
pub mod lexer;
pub mod parse_error;
pub mod parser;
pub mod path;
pub mod settings;
pub mod sources;
pub mod strings;
pub mod syntax_error;
pub mod token;
