//! `--list [MODULE…]`.

use std::collections::{BTreeMap, HashMap};

use snafu::Snafu;
use unicode_width::UnicodeWidthStr;

use crate::analysis::lookup::{
  is_public_alias, is_public_recipe, lookup, resolve_alias, suggest_submodule, AliasTarget, Lookup,
  Suggestion,
};
use crate::analysis::model::{Alias, Justfile, Module, Recipe};
use crate::options::{AliasStyle, Options};
use crate::output::format::expression::push_expression;
use crate::output::sink::Sink;
use crate::syntax::ast::ParameterKind;
use crate::syntax::path::{is_identifier, split_colon_path};

const MAX_WIDTH: usize = 50;

fn suggestion_line(suggestion: Option<&Suggestion>) -> String {
  suggestion.as_ref().map(|s| format!("\n{s}")).unwrap_or_default()
}

#[derive(Debug, Snafu)]
pub(crate) enum ListError {
  #[snafu(display("invalid module path `{path}`"))]
  InvalidModulePath { path: String },
  #[snafu(display("justfile does not contain submodule `{path}`{}", suggestion_line(suggestion.as_ref())))]
  UnknownSubmodule { path: String, suggestion: Option<Suggestion> },
  #[snafu(display("optional module `{path}` is absent"))]
  AbsentModule { path: String },
  #[snafu(display("justfile does not contain group `{group}`"))]
  UnknownGroup { group: String },
}

/// Resolves a `--list` module path (words, one `::` word, or one word with
/// spaces); module aliases are followed.
pub(crate) fn resolve_module<'a, 'src>(
  justfile: &'a Justfile<'src>,
  path: &[String],
) -> Result<&'a Module<'src>, ListError> {
  let invalid = || ListError::InvalidModulePath { path: path.join(" ") };
  let (components, typed): (Vec<String>, String) = match path {
    [word] if word.contains(':') => {
      let components = split_colon_path(word).ok_or_else(invalid)?;
      (components.into_iter().map(String::from).collect(), word.clone())
    }
    [word] => {
      let components: Vec<String> = word.split_whitespace().map(String::from).collect();
      let typed = components.join(" ");
      (components, typed)
    }
    words => (words.to_vec(), words.join(" ")),
  };
  if !components.iter().all(|c| is_identifier(c)) {
    return Err(invalid());
  }
  let mut module = &justfile.root;
  for (index, component) in components.iter().enumerate() {
    match lookup(module, component) {
      Lookup::Module(submodule) => module = submodule,
      Lookup::AbsentModule => {
        return Err(ListError::AbsentModule { path: components[..=index].join("::") })
      }
      _ => {
        let suggestion = suggest_submodule(module, component);
        return Err(ListError::UnknownSubmodule { path: typed, suggestion });
      }
    }
  }
  Ok(module)
}

/// Lists the module at `path` as `--list` does. An error is found before
/// any text is produced.
pub(crate) fn write_list(
  out: &mut Sink,
  justfile: &Justfile,
  config: &Options,
  path: &[String],
  color: bool,
) -> Result<(), ListError> {
  let module = resolve_module(justfile, path)?;
  let lister = Lister { config, color };
  if !config.groups.is_empty() {
    let available = module_groups(module, config.unsorted);
    if let Some(missing) = config.groups.iter().find(|g| !available.contains(g)) {
      return Err(ListError::UnknownGroup { group: missing.clone() });
    }
  }
  out.push_str(&config.list_heading);
  lister.module(module, 0, true, out, &mut String::new());
  Ok(())
}

/// Display width: East-Asian aware; TAB, line ends and other control
/// characters count 1 (`\r\n` counts 1 as a whole).
pub(crate) fn display_width(text: &str) -> usize {
  if is_single_column_ascii(text.as_bytes()) {
    text.len()
  } else {
    UnicodeWidthStr::width(text)
  }
}

/// Every ASCII character but the `\r` of `\r\n` is one column wide. No
/// early exit: the loop compiles to a few vector instructions per 16 bytes.
fn is_single_column_ascii(bytes: &[u8]) -> bool {
  let mut other = false;
  for &byte in bytes {
    other |= (byte >= 0x80) || (byte == b'\r');
  }
  !other
}

/// Start sequences of the styles a listing paints with, and the end of any
/// style; the `ansi_sequences` test pins them to `nu_ansi_term`'s.
const BLUE: &str = "\x1b[34m";
const CYAN: &str = "\x1b[36m";
const GREEN: &str = "\x1b[32m";
const PURPLE: &str = "\x1b[35m";
const YELLOW_BOLD: &str = "\x1b[1;33m";
const RESET: &str = "\x1b[0m";

/// Appends what `write` appends, wrapped in `style` when `color` is on and
/// it is not empty (as `Painter::paint` does).
#[inline(always)]
fn paint_with(out: &mut String, color: bool, style: &str, write: impl FnOnce(&mut String)) {
  if !color {
    write(out);
    return;
  }
  let start = out.len();
  out.push_str(style);
  let text_start = out.len();
  write(out);
  if out.len() == text_start {
    out.truncate(start);
  } else {
    out.push_str(RESET);
  }
}

#[inline(always)]
fn paint(out: &mut String, color: bool, style: &str, text: &str) {
  paint_with(out, color, style, |out| out.push_str(text));
}

/// What a listed line starts with: a recipe's signature under its own
/// name or an alias's, or a submodule's `NAME ...`.
#[derive(Copy, Clone)]
enum Signature<'a, 'src> {
  Recipe(&'a Recipe<'src>),
  Alias(&'a str, &'a Recipe<'src>),
  Submodule(&'a str),
}

/// One listed line: its signature, as plain text and width too, what
/// follows it, and the comment printed above it when that does not fit.
struct Entry<'e, 'a, 'src> {
  signature: Signature<'a, 'src>,
  plain: &'e str,
  width: usize,
  comment: Option<&'e str>,
  aliases: &'e [&'e str],
  /// A submodule's doc is always inline, whatever its width or line count.
  always_inline: bool,
}

/// One item of a section.
enum Item<'a, 'src> {
  /// The recipe at this index of `Contents::recipes` and, in the separate
  /// alias style, its aliases after it.
  Recipe(usize),
  /// An alias whose target lives in another module.
  CrossAlias(&'a Alias<'src>, &'a Recipe<'src>),
  Submodule(&'a str, &'a Module<'src>),
}

struct Lister<'c> {
  config: &'c Options,
  color: bool,
}

/// Public recipes in listing order.
pub(crate) fn listed_recipes<'a, 'src>(
  module: &'a Module<'src>,
  unsorted: bool,
) -> Vec<&'a Recipe<'src>> {
  let mut recipes: Vec<&Recipe> = Vec::with_capacity(module.recipes.len());
  recipes.extend(module.recipes.values().filter(|recipe| is_public_recipe(module, recipe)));
  if unsorted {
    recipes.sort_by_key(|recipe| recipe.order);
  }
  recipes
}

/// Public submodules in listing order, with their names.
pub(crate) fn listed_submodules<'a, 'src>(
  module: &'a Module<'src>,
  unsorted: bool,
) -> Vec<(&'a str, &'a Module<'src>)> {
  module.modules.ordered(unsorted).into_iter().filter(|(_, submodule)| !submodule.private).collect()
}

/// The `[group]`s of a recipe, in attribute order.
fn recipe_groups<'a>(recipe: &'a Recipe) -> impl Iterator<Item = &'a str> {
  recipe.groups().iter().copied()
}

/// The public groups of a module, sorted by name, or with `unsorted` by the
/// position of the first recipe or `mod` statement carrying them (`mod` statements
/// at one position in source order, the groups of one item by name).
pub(crate) fn module_groups(module: &Module, unsorted: bool) -> Vec<String> {
  let recipes = listed_recipes(module, false);
  let submodules = listed_submodules(module, false);
  groups_of(&recipes, &submodules, unsorted)
}

/// `module_groups` of the given public recipes and submodules of a module.
fn groups_of(recipes: &[&Recipe], submodules: &[(&str, &Module)], unsorted: bool) -> Vec<String> {
  // A submodule comes before the recipe at its position, unless their
  // names are at the same offset (in different files): then they tie.
  // Submodules at one position come in source order.
  let mut first: BTreeMap<&str, (usize, usize, u32)> = BTreeMap::new();
  let recipe_groups = recipes
    .iter()
    .flat_map(|r| recipe_groups(r).map(move |group| (group, (r.order as usize, 1, 0))));
  let submodule_key = |m: &Module| {
    if m.beside_recipe {
      (m.position, 1, 0)
    } else {
      (m.position, 0, m.order)
    }
  };
  let submodule_groups = submodules
    .iter()
    .flat_map(|(_, m)| m.groups.iter().map(move |group| (group.as_str(), submodule_key(m))));
  for (group, key) in recipe_groups.chain(submodule_groups) {
    let entry = first.entry(group).or_insert(key);
    *entry = (*entry).min(key);
  }
  let mut groups: Vec<(&str, (usize, usize, u32))> = first.into_iter().collect();
  if unsorted {
    groups.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(b.0)));
  }
  groups.into_iter().map(|(group, _)| group.to_string()).collect()
}

/// What a module's listing is made of, gathered once.
struct Contents<'a, 'src> {
  recipes: Vec<&'a Recipe<'src>>,
  submodules: Vec<(&'a str, &'a Module<'src>)>,
  /// Public same-module aliases: (alias, target recipe).
  local: Vec<(&'a Alias<'src>, &'a Recipe<'src>)>,
  /// Aliases whose target lives in another module.
  cross: Vec<(&'a Alias<'src>, &'a Recipe<'src>)>,
  /// The names of the `local` aliases of each recipe, sorted, by the
  /// recipe's address.
  aliases_of: HashMap<*const Recipe<'src>, Vec<&'a str>>,
  /// The members of each group, by name.
  members: HashMap<&'a str, Members>,
}

/// The items of one group: indices of `Contents::recipes` and
/// `Contents::submodules`, in listing order.
#[derive(Default)]
struct Members {
  recipes: Vec<usize>,
  submodules: Vec<usize>,
}

impl<'a, 'src> Contents<'a, 'src> {
  fn new(module: &'a Module<'src>, unsorted: bool) -> Self {
    let mut contents = Contents {
      recipes: listed_recipes(module, unsorted),
      submodules: listed_submodules(module, unsorted),
      local: Vec::new(),
      cross: Vec::new(),
      aliases_of: HashMap::new(),
      members: HashMap::new(),
    };
    for (index, recipe) in contents.recipes.iter().enumerate() {
      for group in recipe_groups(recipe) {
        contents.members.entry(group).or_default().recipes.push(index);
      }
    }
    for (index, (_, submodule)) in contents.submodules.iter().enumerate() {
      for group in &submodule.groups {
        contents.members.entry(group.as_str()).or_default().submodules.push(index);
      }
    }
    for alias in module.aliases.values().filter(|alias| is_public_alias(module, alias)) {
      if let Some(AliasTarget::Recipe { module: target_module, recipe }) =
        resolve_alias(module, alias)
      {
        if alias.target.len() == 1 {
          if is_public_recipe(target_module, recipe) {
            contents.local.push((alias, recipe));
          }
        } else {
          contents.cross.push((alias, recipe));
        }
      }
    }
    for (alias, recipe) in &contents.local {
      let names = contents.aliases_of.entry(std::ptr::from_ref(*recipe)).or_default();
      names.push(alias.name.lexeme());
    }
    for names in contents.aliases_of.values_mut() {
      names.sort_unstable();
    }
    contents
  }

  fn aliases_of(&self, recipe: &Recipe<'src>) -> &[&'a str] {
    if self.aliases_of.is_empty() {
      return &[];
    }
    self.aliases_of.get(&std::ptr::from_ref(recipe)).map_or(&[], Vec::as_slice)
  }
}

/// The plain signatures of a module's listed recipes, rendered once (for
/// the column width and again for each line) into one text.
struct Signatures {
  text: String,
  /// End in `text` of each recipe's signature.
  ends: Vec<usize>,
  /// Whether all of `text` is ASCII of one column a character (usually
  /// so): then each width is the length, and one check of the whole text
  /// saves one per signature.
  single_column: bool,
}

impl Signatures {
  /// The plain text and width of the signature of `Contents::recipes[index]`.
  fn get(&self, index: usize) -> (&str, usize) {
    let start = index.checked_sub(1).map_or(0, |previous| self.ends[previous]);
    let text = &self.text[start..self.ends[index]];
    (text, self.width_of(text))
  }

  fn width_of(&self, text: &str) -> usize {
    if self.single_column {
      text.len()
    } else {
      display_width(text)
    }
  }

  fn widths(&self) -> impl Iterator<Item = usize> + '_ {
    let starts = std::iter::once(0).chain(self.ends.iter().copied());
    starts.zip(&self.ends).map(|(start, &end)| self.width_of(&self.text[start..end]))
  }
}

/// Whether `text` has a `\n`; doc comments are short, and a loop without
/// early exit is cheaper than a search call on them.
fn has_line_break(text: &str) -> bool {
  let mut found = false;
  for &byte in text.as_bytes() {
    found |= byte == b'\n';
  }
  found
}

/// `count` spaces.
fn push_spaces(out: &mut String, count: usize) {
  const SPACES: &str = "                                                                ";
  let mut left = count;
  while left > 0 {
    let chunk = left.min(SPACES.len());
    out.push_str(&SPACES[..chunk]);
    left -= chunk;
  }
}

impl Lister<'_> {
  fn show_aliases(&self) -> bool {
    !self.config.no_aliases
  }

  /// Appends the signature, in colour if `COLOR` (a constant, so the plain
  /// rendering, done for every recipe, has no colour tests).
  fn push_signature<const COLOR: bool>(&self, out: &mut String, signature: Signature) {
    let (name, recipe) = match signature {
      Signature::Recipe(recipe) => (recipe.name().lexeme(), recipe),
      Signature::Alias(name, recipe) => (name, recipe),
      Signature::Submodule(name) => {
        out.push_str(name);
        out.push_str(" ...");
        return;
      }
    };
    out.push_str(name);
    if recipe.parameters().iter().any(|p| p.is_option()) {
      out.push(' ');
      paint(out, COLOR, CYAN, "[OPTIONS]");
    }
    for parameter in recipe.parameters().iter().filter(|p| !p.is_option()) {
      out.push(' ');
      match parameter.kind() {
        ParameterKind::Singular => {}
        ParameterKind::Plus => paint(out, COLOR, PURPLE, "+"),
        ParameterKind::Star => paint(out, COLOR, PURPLE, "*"),
      }
      if parameter.export() {
        out.push('$');
      }
      paint(out, COLOR, CYAN, parameter.name().lexeme());
      if let Some(default) = parameter.default() {
        out.push('=');
        paint_with(out, COLOR, GREEN, |out| push_expression(out, default));
      }
    }
  }

  /// The display width of a signature; `scratch` holds its plain text.
  fn signature_width(&self, scratch: &mut String, signature: Signature) -> usize {
    scratch.clear();
    self.push_signature::<false>(scratch, signature);
    display_width(scratch)
  }

  fn signatures(&self, contents: &Contents) -> Signatures {
    // The text is allocated once, for the average length of a sample of
    // the signatures.
    const SAMPLE: usize = 64;
    let count = contents.recipes.len();
    let mut text = String::with_capacity(SAMPLE.min(count) * 48);
    let mut ends = Vec::with_capacity(count);
    for (index, recipe) in contents.recipes.iter().enumerate() {
      if index == SAMPLE {
        let projected = (text.len() / SAMPLE).saturating_mul(count + count / 16);
        text.reserve_exact(projected.saturating_sub(text.len()));
      }
      self.push_signature::<false>(&mut text, Signature::Recipe(recipe));
      ends.push(text.len());
    }
    let single_column = is_single_column_ascii(text.as_bytes());
    Signatures { text, ends, single_column }
  }

  /// The comment column: one past the widest entry of at most `MAX_WIDTH`.
  fn width(&self, contents: &Contents, signatures: &Signatures, scratch: &mut String) -> usize {
    let mut width = 0;
    let mut consider = |entry_width: usize| {
      if entry_width <= MAX_WIDTH {
        width = width.max(entry_width);
      }
    };
    for entry_width in signatures.widths() {
      consider(entry_width);
    }
    if self.show_aliases() {
      for (alias, recipe) in contents.local.iter().chain(&contents.cross) {
        consider(self.signature_width(scratch, Signature::Alias(alias.name.lexeme(), recipe)));
      }
    }
    if !self.config.list_submodules {
      for (name, _) in &contents.submodules {
        consider(display_width(name) + 4);
      }
    }
    width
  }

  fn module(
    &self,
    module: &Module,
    depth: usize,
    filter: bool,
    out: &mut Sink,
    scratch: &mut String,
  ) {
    let contents = Contents::new(module, self.config.unsorted);
    let signatures = self.signatures(&contents);
    let width = self.width(&contents, &signatures, scratch);
    let filtered = filter && !self.config.groups.is_empty();
    let group_names = if filtered {
      self.config.groups.clone()
    } else {
      groups_of(&contents.recipes, &contents.submodules, self.config.unsorted)
    };
    let prefix = self.config.list_prefix.repeat(depth + 1);
    let show_aliases = self.show_aliases();
    // A section of ungrouped items (`None`) and one for each group, named
    // even if empty.
    let ungrouped = !filtered && section_items(&contents, None, show_aliases).next().is_some();
    let sections =
      ungrouped.then_some(None).into_iter().chain(group_names.iter().map(|g| Some(g.as_str())));
    let headers = !group_names.is_empty();
    let mut first_submodule = true;
    for (index, section) in sections.enumerate() {
      if index > 0 {
        out.push('\n');
      }
      if let Some(name) = section {
        out.push_str(&prefix);
        paint_with(out, self.color, YELLOW_BOLD, |out| {
          out.push('[');
          out.push_str(name);
          out.push(']');
        });
        out.push('\n');
      }
      for item in section_items(&contents, section, show_aliases) {
        match item {
          Item::Recipe(index) => {
            self.recipe(index, &contents, &signatures, &prefix, width, out, scratch);
          }
          Item::CrossAlias(alias, recipe) => {
            let comment = format!("alias for `{}`", recipe.namepath);
            self.alias_entry(alias.name.lexeme(), recipe, &comment, &prefix, width, out, scratch);
          }
          Item::Submodule(name, submodule) if self.config.list_submodules => {
            if !headers && !first_submodule {
              out.push('\n');
            }
            first_submodule = false;
            out.push_str(&prefix);
            out.push_str(name);
            out.push_str(":\n");
            self.module(submodule, depth + 1, false, out, scratch);
          }
          Item::Submodule(name, submodule) => {
            let signature = Signature::Submodule(name);
            let entry_width = self.signature_width(scratch, signature);
            let entry = Entry {
              signature,
              plain: scratch,
              width: entry_width,
              comment: submodule.doc.as_deref(),
              aliases: &[],
              always_inline: true,
            };
            self.entry(&entry, &prefix, width, out);
          }
        }
        out.end_piece();
      }
    }
  }

  /// A recipe's line and, in the separate alias style, its aliases' lines.
  #[allow(clippy::too_many_arguments)]
  fn recipe(
    &self,
    index: usize,
    contents: &Contents,
    signatures: &Signatures,
    prefix: &str,
    width: usize,
    out: &mut String,
    scratch: &mut String,
  ) {
    let recipe = contents.recipes[index];
    let aliases = if self.show_aliases() { contents.aliases_of(recipe) } else { &[] };
    let (plain, entry_width) = signatures.get(index);
    let mut entry = Entry {
      signature: Signature::Recipe(recipe),
      plain,
      width: entry_width,
      comment: recipe.doc.filter(|doc| doc.chars().any(|c| !c.is_whitespace())),
      aliases,
      always_inline: false,
    };
    if self.config.alias_style != AliasStyle::Separate {
      self.entry(&entry, prefix, width, out);
      return;
    }
    entry.aliases = &[];
    self.entry(&entry, prefix, width, out);
    if aliases.is_empty() {
      return;
    }
    let comment = format!("alias for `{}`", recipe.name().lexeme());
    for alias in aliases {
      self.alias_entry(alias, recipe, &comment, prefix, width, out, scratch);
    }
  }

  /// One listed line, after its comment's lines when the comment is not
  /// inline; `width` is the comment column.
  /// An alias on a line of its own, with `comment` naming its target.
  #[allow(clippy::too_many_arguments)]
  fn alias_entry(
    &self,
    alias: &str,
    recipe: &Recipe,
    comment: &str,
    prefix: &str,
    width: usize,
    out: &mut String,
    scratch: &mut String,
  ) {
    let signature = Signature::Alias(alias, recipe);
    let entry_width = self.signature_width(scratch, signature);
    let entry = Entry {
      signature,
      plain: scratch,
      width: entry_width,
      comment: Some(comment),
      aliases: &[],
      always_inline: false,
    };
    self.entry(&entry, prefix, width, out);
  }

  fn entry(&self, entry: &Entry, prefix: &str, width: usize, out: &mut String) {
    let inline_comment = entry.comment.filter(|comment| {
      entry.always_inline || (entry.width <= MAX_WIDTH && !has_line_break(comment))
    });
    if let (None, Some(comment)) = (inline_comment, entry.comment) {
      for line in comment.split('\n') {
        out.push_str(prefix);
        self.push_comment_line(out, line);
        out.push('\n');
      }
    }
    out.push_str(prefix);
    if self.color {
      self.push_signature::<true>(out, entry.signature);
    } else {
      out.push_str(entry.plain);
    }
    if inline_comment.is_some() || !entry.aliases.is_empty() {
      let padding = if entry.width <= width { width - entry.width + 1 } else { 1 };
      push_spaces(out, padding);
      paint(out, self.color, BLUE, "#");
      let left = self.config.alias_style == AliasStyle::Left;
      if left {
        self.push_aliases(out, entry.aliases);
      }
      if let Some(comment) = inline_comment {
        out.push(' ');
        self.push_doc(out, comment);
      }
      if !left {
        self.push_aliases(out, entry.aliases);
      }
    }
    out.push('\n');
  }

  /// `# LINE` of a comment printed above its entry (backticks not highlighted).
  fn push_comment_line(&self, out: &mut String, line: &str) {
    paint(out, self.color, BLUE, "#");
    out.push(' ');
    paint(out, self.color, BLUE, line);
  }

  /// ` [alias: A]` or ` [aliases: A, B]`; nothing without aliases.
  fn push_aliases(&self, out: &mut String, aliases: &[&str]) {
    if aliases.is_empty() {
      return;
    }
    out.push(' ');
    paint_with(out, self.color, PURPLE, |out| {
      out.push_str(if aliases.len() == 1 { "[alias: " } else { "[aliases: " });
      for (index, alias) in aliases.iter().enumerate() {
        if index > 0 {
          out.push_str(", ");
        }
        out.push_str(alias);
      }
      out.push(']');
    });
  }

  /// Doc text in blue with backtick spans in cyan.
  fn push_doc(&self, out: &mut String, text: &str) {
    if !self.color {
      out.push_str(text);
      return;
    }
    for_each_doc_segment(text, |ticked, segment| {
      paint(out, true, if ticked { CYAN } else { BLUE }, segment);
    });
  }
}

/// The items of the ungrouped section (`None`) or of a group's section, in
/// listing order: recipes, then (ungrouped) aliases to other modules, then
/// submodules.
fn section_items<'s, 'a, 'src>(
  contents: &'s Contents<'a, 'src>,
  section: Option<&'s str>,
  show_aliases: bool,
) -> impl Iterator<Item = Item<'a, 'src>> + 's {
  // The ungrouped section looks at every item, a group's section only at
  // its members, so a listing costs the number of items plus the number of
  // `[group]`s, however many groups there are.
  let members = section.and_then(|group| contents.members.get(group));
  let (all_recipes, all_submodules) = match section {
    None => (contents.recipes.as_slice(), contents.submodules.as_slice()),
    Some(_) => (&[][..], &[][..]),
  };
  let ungrouped_recipes = all_recipes.iter().enumerate();
  let ungrouped_recipes = ungrouped_recipes
    .filter(|(_, recipe)| recipe_groups(recipe).next().is_none())
    .map(|(index, _)| index);
  let grouped_recipes = members.map_or(&[][..], |members| members.recipes.as_slice());
  let recipes = ungrouped_recipes.chain(grouped_recipes.iter().copied());
  let cross = if section.is_none() && show_aliases { contents.cross.as_slice() } else { &[] };
  let ungrouped_submodules =
    all_submodules.iter().filter(|(_, submodule)| submodule.groups.is_empty());
  let grouped_submodules = members.map_or(&[][..], |members| members.submodules.as_slice());
  let submodules =
    ungrouped_submodules.chain(grouped_submodules.iter().map(|&index| &contents.submodules[index]));
  recipes
    .map(Item::Recipe)
    .chain(cross.iter().map(|(alias, recipe)| Item::CrossAlias(alias, recipe)))
    .chain(submodules.map(|(name, submodule)| Item::Submodule(name, submodule)))
}

/// Splits doc text into plain and backtick segments (`true` = backticked);
/// an unclosed backtick runs to the end.
#[cfg(test)]
pub(crate) fn doc_segments(text: &str) -> Vec<(bool, &str)> {
  let mut segments = Vec::new();
  for_each_doc_segment(text, |ticked, segment| segments.push((ticked, segment)));
  segments
}

fn for_each_doc_segment<'t>(text: &'t str, mut segment: impl FnMut(bool, &'t str)) {
  let mut rest = text;
  while !rest.is_empty() {
    match rest.find('`') {
      Some(0) => {
        let end = rest[1..].find('`').map_or(rest.len(), |i| i + 2);
        segment(true, &rest[..end]);
        rest = &rest[end..];
      }
      Some(start) => {
        segment(false, &rest[..start]);
        rest = &rest[start..];
      }
      None => {
        segment(false, rest);
        rest = "";
      }
    }
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::analysis::fixtures::*;

  fn documented(mut recipe: Recipe<'static>, doc: &str) -> Recipe<'static> {
    recipe.doc = Some(doc.to_string().leak());
    recipe
  }

  /// Groups and modules: `mod m`, `a`, grouped `b c d`, `alias dd := d`.
  fn grouped_justfile() -> Justfile<'static> {
    let mut root = module(&[]);
    let mut b = recipe(&[], "b", vec![]);
    group(&mut b, "zeta");
    group(&mut b, "alpha");
    let mut c = recipe(&[], "c", vec![]);
    group(&mut c, "alpha");
    let mut d = recipe(&[], "d", vec![]);
    group(&mut d, "zeta");
    add_recipes(&mut root, vec![documented(recipe(&[], "a", vec![]), "ungrouped one"), b, c, d]);
    add_alias(&mut root, alias("dd", &["d"]));
    let mut m = module(&["m"]);
    add_recipes(&mut m, vec![recipe(&["m"], "y", vec![])]);
    add_module(&mut root, "m", m);
    justfile(root)
  }

  /// Column widths, multi-line docs, aliases.
  fn wide_justfile() -> Justfile<'static> {
    let mut root = module(&[]);
    let mut param1 = param("param1");
    edit_param(&mut param1, |p| {
      p.default = Some(Box::leak(Box::new(string("'aaaaaaaaaaaaaaaaaaaa'"))));
    });
    let mut param2 = param("param2");
    edit_param(&mut param2, |p| {
      p.default = Some(Box::leak(Box::new(string("'bbbbbbbbbbbbbbbbbbbbbbbbbb'"))));
    });
    let mut hidden = recipe(&[], "hidden", vec![]);
    hidden.private = true;
    add_recipes(
      &mut root,
      vec![
        documented(recipe(&[], "a", vec![]), "short one"),
        documented(recipe(&[], "wide", vec![param1, param2]), "wide one"),
        documented(recipe(&[], "multi", vec![]), "line one\nline two"),
        documented(recipe(&[], "both", vec![]), "attr doc"),
        hidden,
      ],
    );
    add_alias(&mut root, alias("w", &["wide"]));
    add_alias(&mut root, alias("m", &["multi"]));
    justfile(root)
  }

  type Configure = fn(&mut Options);

  fn listing(justfile: &Justfile, configure: impl Fn(&mut Options), path: &[&str]) -> String {
    let mut config = Options::default_for("/tmp".into());
    configure(&mut config);
    let path: Vec<String> = path.iter().map(|p| p.to_string()).collect();
    // An error comes before any text: then nothing is written either.
    let (text, result) = crate::output::sink::produced_whole_and_bytewise(|out| {
      write_list(out, justfile, &config, &path, false)
    });
    match result {
      Ok(()) => text,
      Err(error) => format!("error: {error}"),
    }
  }

  #[test]
  fn grouped_listings() {
    let justfile = grouped_justfile();
    let cases: Vec<(Configure, &[&str], &str)> = vec![
      (
        |_| {},
        &[],
        "Available recipes:\n    a     # ungrouped one\n    m ...\n\n    [alpha]\n    b\n    c\n\n    [zeta]\n    b\n    d     # [alias: dd]\n",
      ),
      (
        |c| c.groups = vec!["zeta".into(), "alpha".into()],
        &[],
        "Available recipes:\n    [zeta]\n    b\n    d     # [alias: dd]\n\n    [alpha]\n    b\n    c\n",
      ),
      (|c| c.groups = vec!["nope".into()], &[], "error: justfile does not contain group `nope`"),
      (|_| {}, &["m"], "Available recipes:\n    y\n"),
      (|_| {}, &["n"], "error: justfile does not contain submodule `n`\nDid you mean `m`?"),
      (|_| {}, &["$hello"], "error: invalid module path `$hello`"),
      (|_| {}, &["m::"], "error: invalid module path `m::`"),
      (|c| c.list_heading = String::new(), &["m"], "    y\n"),
    ];
    for (configure, path, expected) in cases {
      assert_eq!(listing(&justfile, configure, path), expected, "{path:?}");
    }
  }

  #[test]
  fn wide_listings() {
    let justfile = wide_justfile();
    let wide = "wide param1='aaaaaaaaaaaaaaaaaaaa' param2='bbbbbbbbbbbbbbbbbbbbbbbbbb'";
    let cases: Vec<(Configure, String)> = vec![
      (
        |_| {},
        format!(
          "Available recipes:\n    a     # short one\n    both  # attr doc\n    # line one\n    # line two\n    multi # [alias: m]\n    # wide one\n    {wide} # [alias: w]\n"
        ),
      ),
      (
        |c| c.alias_style = AliasStyle::Separate,
        format!(
          "Available recipes:\n    a     # short one\n    both  # attr doc\n    # line one\n    # line two\n    multi\n    m     # alias for `multi`\n    # wide one\n    {wide}\n    # alias for `wide`\n    w param1='aaaaaaaaaaaaaaaaaaaa' param2='bbbbbbbbbbbbbbbbbbbbbbbbbb'\n"
        ),
      ),
    ];
    for (configure, expected) in cases {
      assert_eq!(listing(&justfile, configure, &[]), expected);
    }
  }

  #[test]
  fn submodule_expansion() {
    let mut root = module(&[]);
    add_recipes(&mut root, vec![documented(recipe(&[], "top", vec![]), "top doc")]);
    let mut a = module(&["a"]);
    let mut x = recipe(&["a"], "x", vec![]);
    group(&mut x, "g");
    add_recipes(&mut a, vec![recipe(&["a"], "y", vec![]), x]);
    let mut b = module(&["b"]);
    add_recipes(&mut b, vec![recipe(&["b"], "z", vec![])]);
    add_module(&mut root, "a", a);
    add_module(&mut root, "b", b);
    let justfile = justfile(root);
    assert_eq!(
      listing(&justfile, |c| c.list_submodules = true, &[]),
      "Available recipes:\n    top # top doc\n    a:\n        y\n\n        [g]\n        x\n\n    b:\n        z\n"
    );
    assert_eq!(
      listing(&justfile, |_| {}, &[]),
      "Available recipes:\n    top   # top doc\n    a ...\n    b ...\n"
    );
  }

  #[test]
  fn doc_segmentation() {
    let cases: &[(&str, Vec<(bool, &str)>)] = &[
      ("plain", vec![(false, "plain")]),
      ("a `b` c", vec![(false, "a "), (true, "`b`"), (false, " c")]),
      (
        "Comment `` `with backticks` and trailing text",
        vec![
          (false, "Comment "),
          (true, "``"),
          (false, " "),
          (true, "`with backticks`"),
          (false, " and trailing text"),
        ],
      ),
      ("open `tick", vec![(false, "open "), (true, "`tick")]),
    ];
    for (text, expected) in cases {
      assert_eq!(&doc_segments(text), expected, "{text}");
    }
  }

  #[test]
  fn ansi_sequences() {
    use nu_ansi_term::Color as Ansi;
    let cases = [
      (BLUE, Ansi::Blue.normal()),
      (CYAN, Ansi::Cyan.normal()),
      (GREEN, Ansi::Green.normal()),
      (PURPLE, Ansi::Purple.normal()),
      (YELLOW_BOLD, Ansi::Yellow.bold()),
    ];
    for (sequence, style) in cases {
      assert_eq!(format!("{sequence}x{RESET}"), style.paint("x").to_string());
    }
  }

  #[test]
  fn ascii_widths_agree_with_unicode_width() {
    for a in 0..128u8 {
      for b in 0..128u8 {
        let text = String::from_utf8(vec![a, b, b'x']).expect("ASCII");
        assert_eq!(display_width(&text), UnicodeWidthStr::width(text.as_str()), "{text:?}");
      }
    }
  }

  #[test]
  fn line_breaks() {
    for length in 0..24 {
      for position in 0..length {
        for byte in [b'\n', b'\r', b'\x0b', b'\x8a', b'a'] {
          let mut text = vec![b'a'; length];
          text[position] = byte;
          let text = String::from_utf8_lossy(&text);
          assert_eq!(has_line_break(&text), text.contains('\n'), "{text:?}");
        }
      }
    }
    assert!(!has_line_break("Recipe number 9: does step 9 of the pipeline"));
  }

  #[test]
  fn widths() {
    assert_eq!(display_width("a\tb"), 3);
    assert_eq!(display_width("漢字"), 4);
  }
}
