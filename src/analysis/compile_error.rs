//! A compile error: the token it blames and what is wrong. Each stage has its
//! own error enum (lexer, parser, analyzer); this wraps them so that they are
//! rendered alike. And a load error: a compile error, or one of the errors
//! without a source excerpt that can end loading and analysis.

use std::fmt::{self, Display, Formatter};
use std::path::PathBuf;

use super::error::AnalysisErrorKind;
use crate::syntax::{
  ast::UnstableFeature,
  lex_error::LexErrorKind,
  parse_error::ParseErrorKind,
  syntax_error::{SyntaxError, SyntaxErrorKind},
  token::Token,
};

/// The analysis error `kind`, blaming `token`.
pub(crate) fn error<'src>(token: Token<'src>, kind: AnalysisErrorKind<'src>) -> CompileError<'src> {
  CompileError::new(token, CompileErrorKind::Analysis(kind))
}

#[derive(Debug, Clone)]
pub(crate) struct CompileError<'src> {
  pub token: Token<'src>,
  pub kind: Box<CompileErrorKind<'src>>,
}

#[derive(Debug, Clone)]
pub(crate) enum CompileErrorKind<'src> {
  Lex(LexErrorKind),
  Parse(ParseErrorKind<'src>),
  Analysis(AnalysisErrorKind<'src>),
}

impl<'src> CompileError<'src> {
  pub(crate) fn new(token: Token<'src>, kind: CompileErrorKind<'src>) -> Self {
    Self { token, kind: Box::new(kind) }
  }

  /// Text of a `caused by: …` line, for errors that wrap a library error.
  pub(crate) fn caused_by(&self) -> Option<String> {
    match self.kind.as_ref() {
      CompileErrorKind::Analysis(kind) => kind.caused_by(),
      _ => None,
    }
  }
}

impl Display for CompileError<'_> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    match self.kind.as_ref() {
      CompileErrorKind::Lex(kind) => kind.fmt(f),
      CompileErrorKind::Parse(kind) => kind.fmt(f),
      CompileErrorKind::Analysis(kind) => kind.fmt(f),
    }
  }
}

impl<'src> From<SyntaxError<'src>> for CompileError<'src> {
  fn from(error: SyntaxError<'src>) -> Self {
    let kind = match *error.kind {
      SyntaxErrorKind::Lex(kind) => CompileErrorKind::Lex(kind),
      SyntaxErrorKind::Parse(kind) => CompileErrorKind::Parse(kind),
    };
    CompileError::new(error.token, kind)
  }
}

/// Everything that can stop `compile`: a compile error with its excerpt, or
/// one of the errors printed without location.
#[derive(Debug, Clone)]
pub(crate) enum LoadError<'src> {
  Compile(CompileError<'src>),
  Read {
    path: PathBuf,
    message: String,
  },
  /// What is at an `import` or `mod` path could not be found out.
  Io {
    path: PathBuf,
    message: String,
  },
  CircularImport {
    import: PathBuf,
    current: PathBuf,
  },
  UnknownOverrides {
    overrides: Vec<String>,
  },
  Unstable {
    feature: UnstableFeature,
  },
}

impl<'src> From<CompileError<'src>> for LoadError<'src> {
  fn from(error: CompileError<'src>) -> Self {
    LoadError::Compile(error)
  }
}

pub(crate) fn unstable_feature_message(feature: UnstableFeature) -> &'static str {
  match feature {
    UnstableFeature::CachedRecipes => "cached recipes are currently unstable",
    UnstableFeature::Lists => "the `lists` setting is currently unstable",
    UnstableFeature::UserDefinedFunctions => "user-defined functions are currently unstable",
  }
}

impl Display for LoadError<'_> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    match self {
      LoadError::Compile(error) => error.fmt(f),
      LoadError::Read { path, message } => {
        write!(f, "failed to read justfile at `{}`: {message}", path.display())
      }
      LoadError::Io { path, message } => write!(f, "I/O error at `{}`: {message}", path.display()),
      LoadError::CircularImport { import, current } => {
        write!(f, "import `{}` in `{}` is circular", import.display(), current.display())
      }
      LoadError::UnknownOverrides { overrides } => {
        let noun = if overrides.len() == 1 { "variable" } else { "variables" };
        write!(
          f,
          "{noun} {} overridden on the command line but not present in justfile",
          crate::text::ticked(overrides, "and")
        )
      }
      LoadError::Unstable { feature } => write!(
        f,
        "{}, invoke `just` with `--unstable`, set the `JUST_UNSTABLE` environment variable, or \
         add `set unstable` to your `justfile` to enable unstable features",
        unstable_feature_message(*feature)
      ),
    }
  }
}

impl std::error::Error for LoadError<'_> {}
