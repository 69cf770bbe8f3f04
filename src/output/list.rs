//! `--list [MODULE…]`.

use nu_ansi_term::{Color as Ansi, Style};
use std::collections::BTreeMap;

use snafu::Snafu;
use unicode_width::UnicodeWidthStr;

use crate::analysis::lookup::{
  is_public_alias, is_public_recipe, lookup, resolve_alias, suggest_submodule, AliasTarget, Lookup,
  Suggestion,
};
use crate::analysis::model::{Alias, Justfile, Module, Recipe};
use crate::color::Painter;
use crate::options::{AliasStyle, Options};
use crate::syntax::path::{is_identifier, split_colon_path};

const MAX_WIDTH: usize = 50;

fn suggestion_line(suggestion: &Option<Suggestion>) -> String {
  suggestion.as_ref().map(|s| format!("\n{s}")).unwrap_or_default()
}

#[derive(Debug, Snafu)]
pub enum ListError {
  #[snafu(display("invalid module path `{path}`"))]
  InvalidModulePath { path: String },
  #[snafu(display("justfile does not contain submodule `{path}`{}", suggestion_line(suggestion)))]
  UnknownSubmodule { path: String, suggestion: Option<Suggestion> },
  #[snafu(display("optional module `{path}` is absent"))]
  AbsentModule { path: String },
  #[snafu(display("justfile does not contain group `{group}`"))]
  UnknownGroup { group: String },
}

/// Resolves a `--list` module path (words, one `::` word, or one word with
/// spaces); module aliases are followed.
pub fn resolve_module<'a, 'src>(
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

/// Lists the module at `path` as `--list` does.
pub fn list(
  justfile: &Justfile,
  config: &Options,
  path: &[String],
  color: bool,
) -> Result<String, ListError> {
  let module = resolve_module(justfile, path)?;
  let lister =
    Lister { config, painter: Painter { active: color, command_color: None, highlight: true } };
  if !config.groups.is_empty() {
    let available = lister.groups(module);
    if let Some(missing) = config.groups.iter().find(|g| !available.contains(g)) {
      return Err(ListError::UnknownGroup { group: missing.clone() });
    }
  }
  let mut out = config.list_heading.clone();
  lister.module(module, 0, true, &mut out);
  Ok(out)
}

/// Display width: East-Asian aware; TAB, line ends and other control
/// characters count 1 (`\r\n` counts 1 as a whole).
pub fn display_width(text: &str) -> usize {
  UnicodeWidthStr::width(text)
}

/// One listed line.
struct Entry {
  plain: String,
  colored: String,
  comment: Option<String>,
  aliases: Vec<String>,
  /// A submodule's doc is always inline, whatever its width or line count.
  always_inline: bool,
}

impl Entry {
  fn width(&self) -> usize {
    display_width(&self.plain)
  }
}

enum Item<'a, 'src> {
  Entry(Entry),
  Submodule(&'a str, &'a Module<'src>),
}

struct Section<'a, 'src> {
  name: Option<String>,
  items: Vec<Item<'a, 'src>>,
}

struct Lister<'c> {
  config: &'c Options,
  painter: Painter,
}

/// Public recipes in listing order.
pub fn listed_recipes<'a, 'src>(module: &'a Module<'src>, unsorted: bool) -> Vec<&'a Recipe<'src>> {
  let mut recipes: Vec<&Recipe> =
    module.recipes.values().filter(|recipe| is_public_recipe(module, recipe)).collect();
  if unsorted {
    recipes.sort_by_key(|recipe| recipe.order);
  }
  recipes
}

/// Public submodules in listing order, with their names.
pub fn listed_submodules<'a, 'src>(
  module: &'a Module<'src>,
  unsorted: bool,
) -> Vec<(&'a str, &'a Module<'src>)> {
  let mut names: Vec<&str> = module.modules.keys().copied().collect();
  if unsorted {
    names.sort_by_key(|name| module.module_order.iter().position(|n| n == name));
  }
  names
    .into_iter()
    .filter_map(|name| module.modules.get_key_value(name))
    .filter(|(_, submodule)| !submodule.private)
    .map(|(name, submodule)| (*name, submodule))
    .collect()
}

/// The public groups of a module, sorted by name, or with `unsorted` by the
/// position of the first recipe or `mod` statement carrying them (ties by name).
pub fn module_groups(module: &Module, unsorted: bool) -> Vec<String> {
  let mut first: BTreeMap<String, (usize, usize)> = BTreeMap::new();
  let recipe_groups = listed_recipes(module, true)
    .into_iter()
    .flat_map(|r| r.groups().into_iter().map(move |group| (group, (r.order, 1))));
  let submodule_groups = listed_submodules(module, true).into_iter().flat_map(|(name, m)| {
    let position = module.module_positions.get(name).copied().unwrap_or(usize::MAX);
    m.groups.clone().into_iter().map(move |group| (group, (position, 0)))
  });
  for (group, key) in recipe_groups.chain(submodule_groups) {
    let entry = first.entry(group).or_insert(key);
    *entry = (*entry).min(key);
  }
  let mut groups: Vec<(String, (usize, usize))> = first.into_iter().collect();
  if unsorted {
    groups.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
  }
  groups.into_iter().map(|(group, _)| group).collect()
}

struct ModuleAliases<'a, 'src> {
  /// Same-module aliases: (alias, target recipe).
  local: Vec<(&'a Alias<'src>, &'a Recipe<'src>)>,
  /// Aliases whose target lives in another module.
  cross: Vec<(&'a Alias<'src>, &'a Recipe<'src>)>,
}

fn module_aliases<'a, 'src>(module: &'a Module<'src>) -> ModuleAliases<'a, 'src> {
  let mut aliases = ModuleAliases { local: Vec::new(), cross: Vec::new() };
  for alias in module.aliases.values().filter(|alias| is_public_alias(module, alias)) {
    if let Some(AliasTarget::Recipe { module: target_module, recipe }) =
      resolve_alias(module, alias)
    {
      if alias.target.len() == 1 {
        if is_public_recipe(target_module, recipe) {
          aliases.local.push((alias, recipe));
        }
      } else {
        aliases.cross.push((alias, recipe));
      }
    }
  }
  aliases
}

impl Lister<'_> {
  fn groups(&self, module: &Module) -> Vec<String> {
    module_groups(module, self.config.unsorted)
  }

  fn signature(&self, name: &str, recipe: &Recipe) -> (String, String) {
    let mut plain = name.to_string();
    let mut colored = name.to_string();
    let cyan = Ansi::Cyan.normal();
    if recipe.parameters.iter().any(|p| p.is_option()) {
      plain.push_str(" [OPTIONS]");
      colored.push(' ');
      colored.push_str(&self.painter.paint(cyan, "[OPTIONS]"));
    }
    for parameter in recipe.parameters.iter().filter(|p| !p.is_option()) {
      plain.push(' ');
      colored.push(' ');
      let sigil = match parameter.kind {
        crate::syntax::ast::ParameterKind::Singular => "",
        crate::syntax::ast::ParameterKind::Plus => "+",
        crate::syntax::ast::ParameterKind::Star => "*",
      };
      plain.push_str(sigil);
      colored.push_str(&self.painter.paint(Ansi::Purple.normal(), sigil));
      if parameter.export {
        plain.push('$');
        colored.push('$');
      }
      plain.push_str(parameter.name.lexeme());
      colored.push_str(&self.painter.paint(cyan, parameter.name.lexeme()));
      if let Some(default) = &parameter.default {
        let text = default.to_string();
        plain.push('=');
        plain.push_str(&text);
        colored.push('=');
        colored.push_str(&self.painter.paint(Ansi::Green.normal(), &text));
      }
    }
    (plain, colored)
  }

  fn recipe_entry(&self, name: &str, recipe: &Recipe, comment: Option<String>) -> Entry {
    let (plain, colored) = self.signature(name, recipe);
    Entry { plain, colored, comment, aliases: Vec::new(), always_inline: false }
  }

  fn recipe_doc(recipe: &Recipe) -> Option<String> {
    recipe.doc.as_deref().filter(|doc| !doc.trim().is_empty()).map(str::to_string)
  }

  fn show_aliases(&self) -> bool {
    !self.config.no_aliases
  }

  fn width(&self, module: &Module, aliases: &ModuleAliases) -> usize {
    let mut widths: Vec<usize> = listed_recipes(module, false)
      .into_iter()
      .map(|recipe| display_width(&self.signature(recipe.name.lexeme(), recipe).0))
      .collect();
    if self.show_aliases() {
      for (alias, recipe) in aliases.local.iter().chain(&aliases.cross) {
        widths.push(display_width(&self.signature(alias.name.lexeme(), recipe).0));
      }
    }
    if !self.config.list_submodules {
      for (name, _) in listed_submodules(module, false) {
        widths.push(display_width(name) + 4);
      }
    }
    widths.into_iter().filter(|w| *w <= MAX_WIDTH).max().unwrap_or(0)
  }

  /// Entries of one recipe: itself, then (separate style) its aliases.
  fn recipe_entries(&self, recipe: &Recipe, aliases: &ModuleAliases) -> Vec<Entry> {
    let name = recipe.name.lexeme();
    let mut own: Vec<&str> = Vec::new();
    if self.show_aliases() {
      own = aliases
        .local
        .iter()
        .filter(|(_, target)| std::ptr::eq(*target, recipe))
        .map(|(alias, _)| alias.name.lexeme())
        .collect();
      own.sort();
    }
    let mut entry = self.recipe_entry(name, recipe, Self::recipe_doc(recipe));
    if self.config.alias_style != AliasStyle::Separate {
      entry.aliases = own.iter().map(|a| a.to_string()).collect();
      return vec![entry];
    }
    let mut entries = vec![entry];
    for alias in own {
      entries.push(self.recipe_entry(alias, recipe, Some(format!("alias for `{name}`"))));
    }
    entries
  }

  fn sections<'a, 'src>(
    &self,
    module: &'a Module<'src>,
    aliases: &ModuleAliases,
    filter: bool,
  ) -> Vec<Section<'a, 'src>> {
    let unsorted = self.config.unsorted;
    let recipes = listed_recipes(module, unsorted);
    let submodules = listed_submodules(module, unsorted);

    let mut ungrouped = Section { name: None, items: Vec::new() };
    for recipe in recipes.iter().filter(|r| r.groups().is_empty()) {
      ungrouped.items.extend(self.recipe_entries(recipe, aliases).into_iter().map(Item::Entry));
    }
    if self.show_aliases() {
      for (alias, recipe) in &aliases.cross {
        let comment = format!("alias for `{}`", recipe.namepath);
        ungrouped.items.push(Item::Entry(self.recipe_entry(
          alias.name.lexeme(),
          recipe,
          Some(comment),
        )));
      }
    }
    for (name, submodule) in submodules.iter().filter(|(_, m)| m.groups.is_empty()) {
      ungrouped.items.push(Item::Submodule(name, submodule));
    }

    let filtered = filter && !self.config.groups.is_empty();
    let group_names = if filtered { self.config.groups.clone() } else { self.groups(module) };
    let mut sections = Vec::new();
    if !ungrouped.items.is_empty() && !filtered {
      sections.push(ungrouped);
    }
    for group in group_names {
      let mut section = Section { name: Some(group.clone()), items: Vec::new() };
      for recipe in recipes.iter().filter(|r| r.groups().contains(&group)) {
        section.items.extend(self.recipe_entries(recipe, aliases).into_iter().map(Item::Entry));
      }
      for (name, submodule) in submodules.iter().filter(|(_, m)| m.groups.contains(&group)) {
        section.items.push(Item::Submodule(name, submodule));
      }
      sections.push(section);
    }
    sections
  }

  fn module(&self, module: &Module, depth: usize, filter: bool, out: &mut String) {
    let aliases = module_aliases(module);
    let width = self.width(module, &aliases);
    let sections = self.sections(module, &aliases, filter);
    let prefix = self.config.list_prefix.repeat(depth + 1);
    let headers = sections.iter().any(|section| section.name.is_some());
    let mut first_submodule = true;
    for (index, section) in sections.iter().enumerate() {
      if index > 0 {
        out.push('\n');
      }
      if let Some(name) = &section.name {
        let header = self.painter.paint(Ansi::Yellow.bold(), &format!("[{name}]"));
        out.push_str(&format!("{prefix}{header}\n"));
      }
      for item in &section.items {
        match item {
          Item::Entry(entry) => self.entry(entry, &prefix, width, out),
          Item::Submodule(name, submodule) if self.config.list_submodules => {
            if !headers && !first_submodule {
              out.push('\n');
            }
            first_submodule = false;
            out.push_str(&format!("{prefix}{name}:\n"));
            self.module(submodule, depth + 1, false, out);
          }
          Item::Submodule(name, submodule) => {
            let plain = format!("{name} ...");
            let entry = Entry {
              colored: plain.clone(),
              plain,
              comment: submodule.doc.clone(),
              aliases: Vec::new(),
              always_inline: true,
            };
            self.entry(&entry, &prefix, width, out);
          }
        }
      }
    }
  }

  fn entry(&self, entry: &Entry, prefix: &str, width: usize, out: &mut String) {
    let entry_width = entry.width();
    let inline_comment = entry.comment.as_ref().filter(|comment| {
      entry.always_inline || (entry_width <= MAX_WIDTH && !comment.contains('\n'))
    });
    if let (None, Some(comment)) = (inline_comment, &entry.comment) {
      for line in comment.split('\n') {
        out.push_str(&format!("{prefix}{}\n", self.comment_text(line)));
      }
    }
    out.push_str(prefix);
    out.push_str(&entry.colored);
    if inline_comment.is_some() || !entry.aliases.is_empty() {
      let padding = if entry_width <= width { width - entry_width + 1 } else { 1 };
      out.push_str(&" ".repeat(padding));
      out.push_str(&self.painter.paint(Ansi::Blue.normal(), "#"));
      let aliases = (!entry.aliases.is_empty()).then(|| self.alias_text(&entry.aliases));
      let comment = inline_comment.map(|comment| self.paint_doc(comment));
      let parts = match self.config.alias_style {
        AliasStyle::Left => [aliases, comment],
        _ => [comment, aliases],
      };
      for part in parts.into_iter().flatten() {
        out.push(' ');
        out.push_str(&part);
      }
    }
    out.push('\n');
  }

  /// `# LINE` of a comment printed above its entry (backticks not highlighted).
  fn comment_text(&self, line: &str) -> String {
    let blue = Ansi::Blue.normal();
    format!("{} {}", self.painter.paint(blue, "#"), self.painter.paint(blue, line))
  }

  fn alias_text(&self, aliases: &[String]) -> String {
    let text = match aliases {
      [one] => format!("[alias: {one}]"),
      many => format!("[aliases: {}]", many.join(", ")),
    };
    self.painter.paint(Ansi::Purple.normal(), &text)
  }

  /// Doc text in blue with backtick spans in cyan.
  fn paint_doc(&self, text: &str) -> String {
    doc_segments(text)
      .into_iter()
      .map(|(ticked, segment)| {
        let style: Style = if ticked { Ansi::Cyan.normal() } else { Ansi::Blue.normal() };
        self.painter.paint(style, segment)
      })
      .collect()
  }
}

/// Splits doc text into plain and backtick segments (`true` = backticked);
/// an unclosed backtick runs to the end.
pub fn doc_segments(text: &str) -> Vec<(bool, &str)> {
  let mut segments = Vec::new();
  let mut rest = text;
  while !rest.is_empty() {
    match rest.find('`') {
      Some(0) => {
        let end = rest[1..].find('`').map_or(rest.len(), |i| i + 2);
        segments.push((true, &rest[..end]));
        rest = &rest[end..];
      }
      Some(start) => {
        segments.push((false, &rest[..start]));
        rest = &rest[start..];
      }
      None => {
        segments.push((false, rest));
        rest = "";
      }
    }
  }
  segments
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::analysis::fixtures::*;

  fn documented(mut recipe: Recipe<'static>, doc: &str) -> Recipe<'static> {
    recipe.doc = Some(doc.to_string().into());
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
    param1.default = Some(Box::leak(Box::new(string("'aaaaaaaaaaaaaaaaaaaa'"))));
    let mut param2 = param("param2");
    param2.default = Some(Box::leak(Box::new(string("'bbbbbbbbbbbbbbbbbbbbbbbbbb'"))));
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
    match list(justfile, &config, &path, false) {
      Ok(text) => text,
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
  fn widths() {
    assert_eq!(display_width("a\tb"), 3);
    assert_eq!(display_width("漢字"), 4);
  }
}
