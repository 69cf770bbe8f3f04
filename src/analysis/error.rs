//! Analysis errors: what analysis finds wrong in a justfile, each kind with
//! its message. `compile_error.rs` wraps them with the token they blame.

use snafu::Snafu;

#[derive(Debug, Clone, Snafu)]
#[snafu(visibility(pub(crate)))]
pub(crate) enum AnalysisErrorKind<'src> {
  #[snafu(display("variable `{variable}` not defined"))]
  UndefinedVariable { variable: &'src str },
  #[snafu(display("recipe `{recipe}` has unknown dependency `{dependency}`"))]
  UnknownDependency { recipe: &'src str, dependency: String },
  #[snafu(display("call to undefined function `{function}`"))]
  UndefinedFunction { function: &'src str },
  #[snafu(display(
    "function `{function}` called with {} but takes {expected}",
    crate::text::count(*found, "argument", "arguments")
  ))]
  FunctionArgumentCount { function: &'src str, found: usize, expected: String },
  #[snafu(display("{kind} `{name}` first defined on line {first} is redefined on line {second}"))]
  Redefinition { kind: &'static str, name: &'src str, first: usize, second: usize },
  #[snafu(display(
    "{kind} `{name}` defined on line {first} is redefined as {} {second_kind} on line {second}",
    article(second_kind)
  ))]
  RedefinitionAs {
    kind: &'static str,
    name: &'src str,
    first: usize,
    second_kind: &'static str,
    second: usize,
  },
  #[snafu(display("variable `{variable}` has multiple definitions"))]
  DuplicateVariable { variable: &'src str },
  #[snafu(display("recipe `{recipe}` depends on itself"))]
  CircularRecipeSelf { recipe: &'src str },
  #[snafu(display("recipe `{recipe}` has circular dependency `{}`", circle.join(" -> ")))]
  CircularRecipe { recipe: &'src str, circle: Vec<String> },
  #[snafu(display("variable `{variable}` is defined in terms of itself"))]
  CircularVariableSelf { variable: &'src str },
  #[snafu(display("variable `{variable}` depends on its own value: `{}`", circle.join(" -> ")))]
  CircularVariable { variable: &'src str, circle: Vec<String> },
  #[snafu(display(
    "dependency `{dependency}` got {} but takes {}",
    crate::text::count(*found, "argument", "arguments"),
    bounds(*found, *min, *max)
  ))]
  DependencyArgumentCount { dependency: String, found: usize, min: usize, max: Option<usize> },
  #[snafu(display("recipe `{recipe}` has duplicate parameter `{parameter}`"))]
  DuplicateParameter { recipe: &'src str, parameter: &'src str },
  #[snafu(display("non-default parameter `{parameter}` follows default parameter"))]
  RequiredParameterFollowsDefault { parameter: &'src str },
  #[snafu(display("setting `{setting}` first set on line {first} is redefined on line {second}"))]
  DuplicateSetting { setting: &'src str, first: usize, second: usize },
  #[snafu(display("`{earlier}` set on line {first} is incompatible with `{later}`"))]
  IncompatibleSettings { earlier: &'src str, first: usize, later: &'src str },
  #[snafu(display("alias `{alias}` has an unknown target `{target}`"))]
  UnknownAliasTarget { alias: &'src str, target: String },
  #[snafu(display("variable `{variable}` is unexported multiple times"))]
  DuplicateUnexport { variable: &'src str },
  #[snafu(display("variable {variable} is both exported and unexported"))]
  ExportUnexported { variable: &'src str },
  #[snafu(display("function `{function}` has duplicate parameter `{parameter}`"))]
  DuplicateFunctionParameter { function: &'src str, parameter: &'src str },
  #[snafu(display("recipe line has extra leading whitespace"))]
  ExtraLeadingWhitespace,
  #[snafu(display("the guard `?` and infallible `-` sigils may not be used together"))]
  GuardAndInfallibleSigil,
  #[snafu(display("shell recipe `{recipe}` has script recipe attribute `{attribute}`"))]
  ShellRecipeScriptAttribute { recipe: &'src str, attribute: &'static str },
  #[snafu(display("recipe `{recipe}` has both `[{first}]` and `[{second}]` attributes"))]
  ConflictingRecipeAttributes { recipe: &'src str, first: &'static str, second: &'static str },
  #[snafu(display("could not find source file for import"))]
  ImportNotFound,
  #[snafu(display("could not find source file for module `{module}`"))]
  ModuleNotFound { module: &'src str },
  #[snafu(display(
    "found multiple source files for module `{module}`: {}",
    crate::text::ticked(found, "and")
  ))]
  AmbiguousModuleFile { module: &'src str, found: Vec<String> },
  #[snafu(display("cannot call backticks in const context"))]
  ConstBacktick,
  #[snafu(display("cannot call functions in const context"))]
  ConstFunctionCall,
  #[snafu(display("cannot access non-const variable `{variable}` in const context"))]
  ConstVariable { variable: &'src str },
  #[snafu(display("assert failed: {message}"))]
  AssertFailed { message: String },
  #[snafu(display("{message}"))]
  ConstEvaluation { message: String },
  #[snafu(display("{message}"))]
  ListGate { message: String },
  #[snafu(display("the `{function}()` function requires `set lists`"))]
  FunctionRequiresLists { function: &'src str },
  #[snafu(display(
    "recipe `{recipe}` has duplicate `[default]` attribute, which may only appear once per module"
  ))]
  DuplicateDefault { recipe: &'src str },
  #[snafu(display(
    "`{setting}` setting requires at least one element but evaluated to empty list"
  ))]
  EmptyListSetting { setting: &'src str },
  #[snafu(display("list value {value} assigned to `{setting}` setting"))]
  ListSettingValue { value: String, setting: &'src str },
  #[snafu(display("failed to parse argument pattern"))]
  ArgumentPattern { cause: String },
}

impl AnalysisErrorKind<'_> {
  pub(crate) fn caused_by(&self) -> Option<String> {
    match self {
      AnalysisErrorKind::ArgumentPattern { cause } => Some(cause.clone()),
      _ => None,
    }
  }
}

fn bounds(found: usize, min: usize, max: Option<usize>) -> String {
  if Some(min) == max {
    crate::text::count(min, "argument", "arguments")
  } else if found < min {
    format!("at least {}", crate::text::count(min, "argument", "arguments"))
  } else {
    format!("at most {}", crate::text::count(max.unwrap_or(min), "argument", "arguments"))
  }
}

fn article(kind: &str) -> &'static str {
  if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
    "an"
  } else {
    "a"
  }
}
