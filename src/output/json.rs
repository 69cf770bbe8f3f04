//! `--dump --dump-format json` / `--json`:
//! one line of compact JSON describing the compiled root module.
//!
//! Written straight into the output text while walking the model, which
//! is printed in chunks as it grows: building a `serde_json::Value` tree
//! first cost about as much again in allocations and map insertions, and
//! held the whole tree in memory. Object keys are
//! constant text (`object!`), so each key is one fixed-size copy.

use crate::analysis::lookup::{resolve_alias, AliasTarget};
use crate::analysis::model::{
  Alias, Assignment, Dependency, Justfile, Module, Parameter, Parameters, Recipe, Settings,
};
use crate::output::sink::Sink;
use crate::syntax::ast::{
  ArgAttribute, Attribute, Expression, Fragment, Interpreter, Line, ParameterKind,
};

/// The `--json` output, newline included.
pub(crate) fn write_json(out: &mut Sink, justfile: &Justfile) {
  // The writer holds the sink itself: one indirection less on every append.
  let mut writer = Writer(std::mem::take(out));
  module_json(&mut writer, &justfile.root);
  writer.0.push('\n');
  *out = writer.0;
}

/// Compact JSON output, escaped exactly like `serde_json`.
struct Writer<'w>(Sink<'w>);

/// Whether a JSON string of `bytes` needs an escape (a control character,
/// `"` or `\`). Most strings do not and are short: they are checked eight
/// bytes at a time, the last eight overlapping the one before, a string
/// shorter than eight padded with `A`s.
fn needs_escape(bytes: &[u8]) -> bool {
  let word = |chunk: &[u8]| <[u8; 8]>::try_from(chunk).map(u64::from_ne_bytes);
  // A chunk is always eight bytes; if not, the careful path decides.
  let chunk_needs_escape = |chunk: &[u8]| word(chunk).map_or(true, word_needs_escape);
  if bytes.len() < 8 {
    let mut padded = [b'A'; 8];
    for (slot, &byte) in padded.iter_mut().zip(bytes) {
      *slot = byte;
    }
    return word_needs_escape(u64::from_ne_bytes(padded));
  }
  let mut found = chunk_needs_escape(&bytes[bytes.len() - 8..]);
  for chunk in bytes.chunks_exact(8) {
    found |= chunk_needs_escape(chunk);
  }
  found
}

/// Whether any byte of `word` is below 0x20, `"` or `\` (the bit tricks
/// "has a byte less than n" and "has a zero byte", exact as a whole).
fn word_needs_escape(word: u64) -> bool {
  const ONES: u64 = u64::from_ne_bytes([1; 8]);
  const HIGH_BITS: u64 = u64::from_ne_bytes([0x80; 8]);
  let has_less =
    |word: u64, bound: u8| word.wrapping_sub(ONES * u64::from(bound)) & !word & HIGH_BITS;
  let has_byte = |byte: u8| has_less(word ^ (ONES * u64::from(byte)), 1);
  (has_less(word, 0x20) | has_byte(b'"') | has_byte(b'\\')) != 0
}

/// An object with these constant keys, in this order:
/// `object!(out, "key" => value, …)`, each value a `Json`.
macro_rules! object {
  ($out:expr, $first:literal => $value:expr $(, $key:literal => $rest:expr)* $(,)?) => {{
    let out: &mut Writer = $out;
    out.0.push_str(concat!("{\"", $first, "\":"));
    Json::write(&$value, out);
    $(
      out.0.push_str(concat!(",\"", $key, "\":"));
      Json::write(&$rest, out);
    )*
    out.0.push('}');
  }};
}

/// An array of a constant tag and the encodings of the values:
/// `tagged!(out, "tag", value, …)`.
macro_rules! tagged {
  ($out:expr, $tag:literal $(, $value:expr)* $(,)?) => {{
    let out: &mut Writer = $out;
    out.0.push_str(concat!("[\"", $tag, "\""));
    $(
      out.0.push(',');
      Json::write(&$value, out);
    )*
    out.0.push(']');
  }};
}

/// Something with a JSON encoding.
trait Json {
  fn write(&self, out: &mut Writer);
}

/// An encoding given by a closure, for values built on the spot.
struct With<F: Fn(&mut Writer)>(F);

impl<F: Fn(&mut Writer)> Json for With<F> {
  #[inline]
  fn write(&self, out: &mut Writer) {
    (self.0)(out);
  }
}

impl Json for str {
  #[inline]
  fn write(&self, out: &mut Writer) {
    out.string(self);
  }
}

impl Json for String {
  #[inline]
  fn write(&self, out: &mut Writer) {
    out.string(self);
  }
}

impl Json for std::borrow::Cow<'_, str> {
  fn write(&self, out: &mut Writer) {
    out.string(self);
  }
}

impl Json for bool {
  #[inline]
  fn write(&self, out: &mut Writer) {
    // Two fixed-size copies rather than one of either length.
    if *self {
      out.0.push_str("true");
    } else {
      out.0.push_str("false");
    }
  }
}

impl Json for usize {
  fn write(&self, out: &mut Writer) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = *self;
    loop {
      start -= 1;
      // `rest % 10` is a single digit: the cast cannot truncate.
      digits[start] = b'0' + (rest % 10) as u8;
      rest /= 10;
      if rest == 0 {
        break;
      }
    }
    for &digit in &digits[start..] {
      out.0.push(char::from(digit));
    }
  }
}

impl<T: Json + ?Sized> Json for &T {
  #[inline]
  fn write(&self, out: &mut Writer) {
    (**self).write(out);
  }
}

impl<T: Json + ?Sized> Json for Box<T> {
  #[inline]
  fn write(&self, out: &mut Writer) {
    (**self).write(out);
  }
}

impl<T: Json> Json for Option<T> {
  #[inline]
  fn write(&self, out: &mut Writer) {
    match self {
      Some(value) => value.write(out),
      None => out.null(),
    }
  }
}

impl<T: Json> Json for [T] {
  fn write(&self, out: &mut Writer) {
    out.array(self.iter());
  }
}

impl<T: Json> Json for Vec<T> {
  fn write(&self, out: &mut Writer) {
    out.array(self.iter());
  }
}

impl Json for Expression<'_> {
  fn write(&self, out: &mut Writer) {
    expression_json(out, self);
  }
}

impl Writer<'_> {
  fn null(&mut self) {
    self.0.push_str("null");
  }

  /// A JSON string: `"`, `\` and control characters escaped, the short
  /// forms where JSON has them, everything else as it is.
  fn string(&mut self, text: &str) {
    if needs_escape(text.as_bytes()) {
      self.escaped_string(text);
    } else {
      self.0.push('"');
      self.0.push_str(text);
      self.0.push('"');
    }
  }

  fn escaped_string(&mut self, text: &str) {
    let out = &mut self.0;
    out.push('"');
    let mut start = 0;
    for (index, byte) in text.bytes().enumerate() {
      let escape = match byte {
        b'"' => "\\\"",
        b'\\' => "\\\\",
        b'\n' => "\\n",
        b'\r' => "\\r",
        b'\t' => "\\t",
        0x08 => "\\b",
        0x0c => "\\f",
        0..=0x1f => "",
        _ => continue,
      };
      out.push_str(&text[start..index]);
      if escape.is_empty() {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.push_str("\\u00");
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0xf)]));
      } else {
        out.push_str(escape);
      }
      start = index + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
  }

  /// `names` joined by `::`, as one string.
  fn path(&mut self, names: &[crate::syntax::ast::Name]) {
    match names {
      [name] => self.string(name.lexeme()),
      names => self.string(&names.iter().map(|name| name.lexeme()).collect::<Vec<_>>().join("::")),
    }
  }

  fn array<T: Json>(&mut self, items: impl IntoIterator<Item = T>) {
    self.0.push('[');
    for (index, item) in items.into_iter().enumerate() {
      if index > 0 {
        self.0.push(',');
      }
      item.write(self);
    }
    self.0.push(']');
  }

  fn map<K: AsRef<str>, V: Json>(&mut self, entries: impl IntoIterator<Item = (K, V)>) {
    self.0.push('{');
    for (index, (key, value)) in entries.into_iter().enumerate() {
      if index > 0 {
        self.0.push(',');
      }
      self.string(key.as_ref());
      self.0.push(':');
      value.write(self);
      self.0.end_piece();
    }
    self.0.push('}');
  }
}

fn module_json(out: &mut Writer, module: &Module) {
  let assignments = With(|out: &mut Writer| {
    out.map(
      module.assignments.iter().map(|(name, a)| (name, With(move |out| assignment_json(out, a)))),
    );
  });
  let modules = With(|out: &mut Writer| {
    out.map(module.modules.iter().map(|(name, m)| (name, With(move |out| module_json(out, m)))));
  });
  let aliases = With(|out: &mut Writer| {
    out.map(
      module
        .aliases
        .iter()
        .filter(|(_, alias)| !matches!(resolve_alias(module, alias), Some(AliasTarget::Module(_))))
        .map(|(name, a)| (name, With(move |out| alias_json(out, a)))),
    );
  });
  let recipes = With(|out: &mut Writer| {
    out.map(module.recipes.iter().map(|(name, r)| (name, With(move |out| recipe_json(out, r)))));
  });
  // Like a recipe's `[group]`s, the module's are listed sorted by name.
  let mut groups: Vec<&String> = module.groups.iter().collect();
  groups.sort();
  let unexports: Vec<&str> = module.unexports.iter().copied().collect();
  let settings = With(|out: &mut Writer| settings_json(out, &module.settings));
  let no_warnings: [bool; 0] = [];
  object!(out,
    "assignments" => assignments,
    "first" => module.default_recipe().map(|recipe| recipe.name().lexeme()),
    "doc" => module.doc,
    "groups" => groups,
    "module_path" => module.path.join("::"),
    "modules" => modules,
    "aliases" => aliases,
    "recipes" => recipes,
    "settings" => settings,
    "source" => module.source.to_string_lossy().as_ref(),
    "unexports" => unexports,
    "warnings" => no_warnings.as_slice(),
  );
}

fn assignment_json(out: &mut Writer, assignment: &Assignment) {
  object!(out,
    "eager" => assignment.eager,
    "export" => assignment.export,
    "name" => assignment.name.lexeme(),
    "private" => assignment.private,
    "value" => assignment.value,
  );
}

fn alias_json(out: &mut Writer, alias: &Alias) {
  let attributes = With(|out: &mut Writer| {
    out.array(
      alias
        .attributes
        .iter()
        .map(|a| With(move |out| attribute_json(out, a, Parameters::default()))),
    );
  });
  object!(out,
    "attributes" => attributes,
    "name" => alias.name.lexeme(),
    "target" => alias.target.last().map(|name| name.lexeme()),
  );
}

fn recipe_json(out: &mut Writer, recipe: &Recipe) {
  let attributes = With(|out: &mut Writer| {
    if recipe.attributes().is_empty() {
      out.0.push_str("[]");
      return;
    }
    out.array(
      crate::syntax::attribute_order::sorted(recipe.attributes())
        .into_iter()
        .map(|entry| With(move |out| attribute_json(out, &entry.attribute, recipe.parameters()))),
    );
  });
  let body = With(|out: &mut Writer| {
    out.array(recipe.body().iter().map(|l| With(move |out| line_json(out, l))));
  });
  let dependencies = With(|out: &mut Writer| {
    out.array(recipe.dependencies.iter().map(|d| With(move |out| dependency_json(out, d))));
  });
  let parameters = With(|out: &mut Writer| {
    out.array(recipe.parameters().iter().map(|p| With(move |out| parameter_json(out, p))));
  });
  object!(out,
    "attributes" => attributes,
    "body" => body,
    "dependencies" => dependencies,
    "doc" => recipe.doc,
    "name" => recipe.name().lexeme(),
    "parameters" => parameters,
    "priors" => recipe.priors().len(),
    "private" => recipe.private,
    "quiet" => recipe.quiet(),
    "namepath" => recipe.namepath,
    "shebang" => recipe.shebang() || recipe.effects.flags.script(),
  );
}

fn line_json(out: &mut Writer, line: &Line) {
  out.array(line.fragments().map(|fragment| {
    With(move |out: &mut Writer| match fragment {
      Fragment::Text(token) => out.string(token.lexeme()),
      Fragment::Interpolation { expression, .. } => {
        out.0.push('[');
        expression_json(out, expression);
        out.0.push(']');
      }
    })
  }));
}

fn dependency_json(out: &mut Writer, dependency: &Dependency) {
  let recipe = With(|out: &mut Writer| out.path(dependency.path()));
  object!(out,
    "arguments" => dependency.arguments(),
    "recipe" => recipe,
    "star" => dependency.star(),
  );
}

fn kind_name(kind: ParameterKind) -> &'static str {
  match kind {
    ParameterKind::Singular => "singular",
    ParameterKind::Plus => "plus",
    ParameterKind::Star => "star",
  }
}

fn patterns<'r>(parameter: Parameter<'r, '_>) -> Option<&'r [String]> {
  Some(parameter.patterns()).filter(|patterns| !patterns.is_empty())
}

fn parameter_json(out: &mut Writer, parameter: Parameter) {
  object!(out,
    "default" => parameter.default(),
    "export" => parameter.export(),
    "flag" => parameter.flag(),
    "help" => parameter.help(),
    "kind" => kind_name(parameter.kind()),
    "long" => parameter.long(),
    "max" => parameter.max(),
    "min" => parameter.min(),
    "multiple" => parameter.multiple(),
    "name" => parameter.name().lexeme(),
    "pattern" => patterns(parameter),
    "short" => parameter.short().map(|short| short.to_string()),
    "value" => parameter.value(),
  );
}

fn interpreter_json(out: &mut Writer, interpreter: &Interpreter) {
  let arguments: Vec<&str> = interpreter.arguments.iter().map(|a| a.cooked).collect();
  object!(out, "command" => interpreter.command.cooked, "arguments" => arguments);
}

fn arg_json(out: &mut Writer, arg: &ArgAttribute, parameters: Parameters) {
  let parameter = parameters.iter().find(|p| p.name().lexeme() == arg.name.cooked);
  // A bare `short` is the whole parameter name here (only the parameter
  // object has the single character).
  let short = arg.short.as_ref().map(|short| match &short.value {
    Some(literal) => &literal.cooked,
    None => &arg.name.cooked,
  });
  object!(out,
    "help" => parameter.and_then(|p| p.help()),
    "long" => parameter.and_then(|p| p.long()),
    "max" => arg.max.as_ref().map(|max| max.value.1),
    "min" => arg.min.as_ref().map(|min| min.value.1),
    "name" => arg.name.cooked,
    "pattern" => parameter.and_then(patterns),
    "short" => short,
    "value" => arg.value.as_ref().map(|value| &value.value),
  );
}

/// Attributes: unit ones as their name, others as one-key objects.
fn attribute_json(out: &mut Writer, attribute: &Attribute, parameters: Parameters) {
  use Attribute::*;
  match attribute {
    Arg(_) | Cache(_) | Confirm(_) | Doc(_) | Timestamp(_) | Continue(_) | Env(..)
    | Extension(_) | Group(_) | Metadata(_) | Script(_) | WorkingDirectory(_) => {
      out.0.push('{');
      out.string(attribute.name());
      out.0.push(':');
      attribute_value_json(out, attribute, parameters);
      out.0.push('}');
    }
    Android | Default | Dragonfly | ExitMessage | Freebsd | Linux | Macos | Netbsd | NoCd
    | NoExitMessage | NoQuiet | Openbsd | Parallel | PositionalArguments | Private | Shell
    | Unix | Windows => out.string(attribute.name()),
  }
}

fn attribute_value_json(out: &mut Writer, attribute: &Attribute, parameters: Parameters) {
  use Attribute::*;
  match attribute {
    Arg(arg) => arg_json(out, arg, parameters),
    Cache(cache) => object!(out,
      "extra" => cache.extra.as_ref().map(|k| &k.value),
      "inputs" => cache.inputs.as_ref().map(|k| &k.value),
      "outputs" => cache.outputs.as_ref().map(|k| &k.value),
    ),
    Confirm(expression) | Doc(expression) | Timestamp(expression) => expression.write(out),
    Continue(signals) => out.array(signals.iter().map(|s| s.name())),
    Env(key, value) => out.array([key, value]),
    Extension(literal) | Group(literal) => out.string(literal.cooked),
    Metadata(literals) => out.array(literals.iter().map(|l| l.cooked)),
    Script(interpreter) => match interpreter {
      Some(interpreter) => interpreter_json(out, interpreter),
      None => out.null(),
    },
    WorkingDirectory(expression) => expression.write(out),
    // Written as their name alone, by `attribute_json`.
    Android | Default | Dragonfly | ExitMessage | Freebsd | Linux | Macos | Netbsd | NoCd
    | NoExitMessage | NoQuiet | Openbsd | Parallel | PositionalArguments | Private | Shell
    | Unix | Windows => {}
  }
}

/// The JSON encoding of an expression; parentheses vanish.
fn expression_json(out: &mut Writer, expression: &Expression) {
  use Expression::*;
  match expression {
    And { lhs, rhs, .. } => tagged!(out, "and", lhs, rhs),
    Assert { condition, message, .. } => tagged!(out, "assert", condition, message),
    Backtick { command, .. } => tagged!(out, "evaluate", command),
    Call { name, arguments, .. } => {
      out.0.push_str("[\"call\",");
      out.string(name.lexeme());
      for argument in *arguments {
        out.0.push(',');
        expression_json(out, argument);
      }
      out.0.push(']');
    }
    Comparison { lhs, rhs, operator, .. } => {
      out.0.push('[');
      out.string(operator.symbol());
      out.0.push(',');
      expression_json(out, lhs);
      out.0.push(',');
      expression_json(out, rhs);
      out.0.push(']');
    }
    Concatenation { lhs, rhs, .. } => tagged!(out, "concatenate", lhs, rhs),
    Conditional { condition, then, otherwise, .. } => {
      tagged!(out, "if", condition, then, otherwise);
    }
    FormatString { start, parts, .. } => {
      out.0.push_str("[\"format\",");
      out.string(start.cooked);
      for (expression, piece) in *parts {
        out.0.push(',');
        expression_json(out, expression);
        out.0.push(',');
        out.string(piece.cooked);
      }
      out.0.push(']');
    }
    Group { contents, .. } => expression_json(out, contents),
    Join { lhs, rhs, .. } => tagged!(out, "join", lhs, rhs),
    List { elements, .. } => {
      out.0.push_str("[\"list\"");
      for element in *elements {
        out.0.push(',');
        expression_json(out, element);
      }
      out.0.push(']');
    }
    ListConcatenation { lhs, rhs, .. } => tagged!(out, "list-concatenate", lhs, rhs),
    Not { operand, .. } => tagged!(out, "not", operand),
    Or { lhs, rhs, .. } => tagged!(out, "or", lhs, rhs),
    StringLiteral(literal) => out.string(literal.cooked),
    Variable { name, .. } => tagged!(out, "variable", name.lexeme()),
  }
}

fn shell_json(shell: Option<&(String, Vec<String>)>) -> impl Json + '_ {
  With(move |out: &mut Writer| match shell {
    Some((command, arguments)) => object!(out, "command" => command, "arguments" => arguments),
    None => out.null(),
  })
}

/// `null`, a string, or an array when written as a list / several.
/// One name is a string even when written as a one-element list.
fn dotenv_list_json(values: &[String]) -> impl Json + '_ {
  With(move |out: &mut Writer| match values {
    [] => out.null(),
    [single] => out.string(single),
    values => values.write(out),
  })
}

fn settings_json(out: &mut Writer, settings: &Settings) {
  // Destructured, so that a new setting does not compile until it is
  // listed here (or left out on purpose, as the reference does).
  let Settings {
    allow_duplicate_recipes,
    allow_duplicate_variables,
    default_list,
    default_script,
    dotenv_command,
    dotenv_filename,
    dotenv_load,
    dotenv_override,
    dotenv_path,
    dotenv_required,
    export,
    fallback,
    guards,
    ignore_comments,
    indentation,
    lazy,
    lists,
    no_cd,
    no_exit_message,
    positional_arguments,
    quiet,
    script_interpreter: _,
    shell,
    tempdir,
    unstable,
    windows_powershell,
    windows_shell,
    working_directory,
    _marker: _,
  } = settings;
  object!(out,
    "allow_duplicate_recipes" => allow_duplicate_recipes,
    "allow_duplicate_variables" => allow_duplicate_variables,
    "default_list" => default_list,
    "default_script" => default_script,
    "dotenv_command" => dotenv_command,
    "dotenv_filename" => dotenv_list_json(dotenv_filename),
    "dotenv_load" => dotenv_load,
    "dotenv_override" => dotenv_override,
    "dotenv_path" => dotenv_list_json(dotenv_path),
    "dotenv_required" => dotenv_required,
    "export" => export,
    "fallback" => fallback,
    "guards" => guards,
    "ignore_comments" => ignore_comments,
    "indentation" => indentation,
    "lazy" => lazy,
    "lists" => lists,
    "no_cd" => no_cd,
    "no_exit_message" => no_exit_message,
    "positional_arguments" => positional_arguments,
    "quiet" => quiet,
    "shell" => shell_json(shell.as_ref()),
    "tempdir" => tempdir,
    "unstable" => unstable,
    "windows_powershell" => windows_powershell,
    "windows_shell" => shell_json(windows_shell.as_ref()),
    "working_directory" => working_directory,
  );
}

#[cfg(test)]
mod tests {
  use super::*;

  /// The JSON of `justfile`, which is the same written out in chunks of
  /// one byte.
  fn dump_json(justfile: &Justfile) -> String {
    crate::output::sink::produced_whole_and_bytewise(|out| write_json(out, justfile)).0
  }

  #[test]
  fn escape_check_agrees_with_bytes() {
    let plain = |text: &[u8]| text.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
    for byte in 0..=255u8 {
      for length in 0..20 {
        for position in 0..length {
          let mut text = vec![b'a'; length];
          text[position] = byte;
          assert_eq!(needs_escape(&text), plain(&text), "{byte} at {position} of {length}");
        }
      }
    }
    // Mixed words around the boundaries, from a fixed pseudo-random sequence.
    let alphabet =
      [0x00, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xa0, 0xa2, 0xdc, 0xff];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..100_000 {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      let length = usize::try_from(state % 20).unwrap_or(0);
      let text: Vec<u8> = (0..length)
        .map(|i| alphabet[usize::try_from((state >> (i * 3)) % 15).unwrap_or(0)])
        .collect();
      assert_eq!(needs_escape(&text), plain(&text), "{text:?}");
    }
    for text in ["", "héllo wörld ✓", "recipe-1", "tab\there", "\u{7f}\u{80}"] {
      assert_eq!(needs_escape(text.as_bytes()), plain(text.as_bytes()), "{text:?}");
    }
  }
  use crate::analysis::fixtures::*;

  #[test]
  fn empty_module() {
    let root = module(&[]);
    let expected = concat!(
      r#"{"assignments":{},"first":null,"doc":null,"groups":[],"module_path":"","modules":{},"aliases":{},"recipes":{},"#,
      r#""settings":{"allow_duplicate_recipes":false,"allow_duplicate_variables":false,"default_list":false,"default_script":false,"dotenv_command":[],"dotenv_filename":null,"dotenv_load":false,"dotenv_override":false,"dotenv_path":null,"dotenv_required":false,"export":false,"fallback":false,"guards":false,"ignore_comments":false,"indentation":null,"lazy":false,"lists":false,"no_cd":false,"no_exit_message":false,"positional_arguments":false,"quiet":false,"shell":null,"tempdir":null,"unstable":false,"windows_powershell":false,"windows_shell":null,"working_directory":null},"#,
      r#""source":"/tmp/justfile","unexports":[],"warnings":[]}"#,
      "\n"
    );
    assert_eq!(dump_json(&justfile(root)), expected);
  }

  #[test]
  fn recipe_with_parameters() {
    let mut root = module(&[]);
    let mut mode = param("mode");
    edit_param(&mut mode, |p| p.default = Some(Box::leak(Box::new(string("'debug'")))));
    edit_param(&mut mode, |p| p.export = true);
    let mut flags = param("flags");
    edit_param(&mut flags, |p| p.kind = ParameterKind::Star);
    let mut build = recipe(&[], "build", vec![mode, flags]);
    group(&mut build, "dev");
    build.doc = Some("Build it");
    add_recipes(&mut root, vec![build]);
    add_alias(&mut root, alias("b", &["build"]));
    let json = dump_json(&justfile(root));
    assert!(json.contains(
      concat!(
        r#"{"attributes":[{"group":"dev"}],"body":[],"dependencies":[],"doc":"Build it","name":"build","parameters":["#,
        r#"{"default":"debug","export":true,"flag":false,"help":null,"kind":"singular","long":null,"max":null,"min":null,"multiple":false,"name":"mode","pattern":null,"short":null,"value":null},"#,
        r#"{"default":null,"export":false,"flag":false,"help":null,"kind":"star","long":null,"max":null,"min":null,"multiple":false,"name":"flags","pattern":null,"short":null,"value":null}],"#,
        r#""priors":0,"private":false,"quiet":false,"namepath":"build","shebang":false}"#
      )
    ));
    assert!(json.contains(r#""aliases":{"b":{"attributes":[],"name":"b","target":"build"}}"#));
    assert!(json.contains(r#""first":"build""#));
  }
}
