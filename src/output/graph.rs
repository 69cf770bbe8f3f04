//! `--graph`: the dependency graph of recipes as Graphviz DOT, a Mermaid
//! flowchart or JSON.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value as Json};

use crate::analysis::model::{Justfile, Parameter, Recipe};
use crate::options::GraphFormat;
use crate::output::sink::Sink;
use crate::output::tree::{dependency_arguments, dependency_target, recipe_aliases};
use crate::syntax::ast::ParameterKind;

/// The recipes reachable from the selected ones, the dependencies between
/// them and the aliases of any of them.
struct Graph<'a, 'src> {
  nodes: Vec<&'a Recipe<'src>>,
  edges: Vec<Edge>,
  /// Alias path and target recipe path.
  aliases: Vec<(String, String)>,
}

struct Edge {
  from: String,
  to: String,
  subsequent: bool,
  arguments: Vec<String>,
}

fn collect<'a, 'src>(
  justfile: &'a Justfile<'src>,
  selected: &[&'a Recipe<'src>],
) -> Graph<'a, 'src> {
  let mut graph = Graph { nodes: Vec::new(), edges: Vec::new(), aliases: Vec::new() };
  let mut seen = HashSet::new();
  let mut pending: Vec<&Recipe> = selected.iter().rev().copied().collect();
  while let Some(recipe) = pending.pop() {
    if !seen.insert(recipe.namepath) {
      continue;
    }
    graph.nodes.push(recipe);
    let dependencies = (recipe.priors().iter().map(|d| (d, false)))
      .chain(recipe.subsequents().iter().map(|d| (d, true)));
    let mut targets = Vec::new();
    for (dependency, subsequent) in dependencies {
      let Some(target) = dependency_target(justfile, dependency) else {
        continue;
      };
      graph.edges.push(Edge {
        from: recipe.namepath.to_string(),
        to: target.namepath.to_string(),
        subsequent,
        arguments: dependency_arguments(dependency),
      });
      targets.push(target);
    }
    pending.extend(targets.into_iter().rev());
  }
  graph.aliases = recipe_aliases(&justfile.root)
    .into_iter()
    .filter(|(_, target)| seen.contains(target.namepath))
    .map(|(alias, target)| (alias, target.namepath.to_string()))
    .collect();
  graph
}

/// Append the `--graph` text of the recipes reachable from `selected` to
/// `out`, a line at a time (JSON as one piece).
pub(crate) fn write_graph(
  out: &mut Sink,
  justfile: &Justfile,
  selected: &[&Recipe],
  format: GraphFormat,
) {
  let graph = collect(justfile, selected);
  match format {
    GraphFormat::Dot => dot(out, &graph),
    GraphFormat::Mermaid => mermaid(out, &graph),
    GraphFormat::Json => out.push_str(&json(&graph)),
  }
}

fn node_label(recipe: &Recipe) -> String {
  if recipe.effects.flags.parallel() {
    format!("{} [parallel]", recipe.namepath)
  } else {
    recipe.namepath.to_string()
  }
}

fn edge_label(edge: &Edge) -> String {
  let mut words = Vec::new();
  if edge.subsequent {
    words.push("&&".to_string());
  }
  words.extend(edge.arguments.iter().cloned());
  words.join(" ")
}

/// A DOT double-quoted string.
fn dot_string(text: &str) -> String {
  let escaped = text.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
  format!("\"{escaped}\"")
}

fn dot(out: &mut Sink, graph: &Graph) {
  out.push_str("digraph just {\n  node [shape=box];\n");
  for recipe in &graph.nodes {
    let id = dot_string(recipe.namepath);
    out.push_str(&format!("  {id} [label={}];\n", dot_string(&node_label(recipe))));
    out.end_piece();
  }
  for edge in &graph.edges {
    let mut attributes = Vec::new();
    if edge.subsequent {
      attributes.push("style=dashed".to_string());
    }
    let label = edge_label(edge);
    if !label.is_empty() {
      attributes.push(format!("label={}", dot_string(&label)));
    }
    let attributes =
      if attributes.is_empty() { String::new() } else { format!(" [{}]", attributes.join(", ")) };
    out.push_str(&format!(
      "  {} -> {}{attributes};\n",
      dot_string(&edge.from),
      dot_string(&edge.to)
    ));
    out.end_piece();
  }
  for (alias, target) in &graph.aliases {
    let id = dot_string(&format!("alias {alias}"));
    out.push_str(&format!("  {id} [label={}, shape=ellipse, style=dashed];\n", dot_string(alias)));
    out.push_str(&format!(
      "  {id} -> {} [style=dotted, arrowhead=empty, label=\"alias\"];\n",
      dot_string(target)
    ));
    out.end_piece();
  }
  out.push_str("}\n");
}

/// Mermaid label text: quotes, `#`, `&`, `<`, `>` and backticks (which would
/// start a Markdown string) as entity codes.
fn mermaid_text(text: &str) -> String {
  let mut out = String::new();
  for c in text.chars() {
    match c {
      '#' => out.push_str("#35;"),
      '"' => out.push_str("#quot;"),
      '&' => out.push_str("#amp;"),
      '<' => out.push_str("#lt;"),
      '>' => out.push_str("#gt;"),
      '`' => out.push_str("#96;"),
      '\n' => out.push(' '),
      c => out.push(c),
    }
  }
  out
}

fn mermaid(out: &mut Sink, graph: &Graph) {
  out.push_str("flowchart TD\n");
  // Recipe paths contain `::` and `-`, which Mermaid ids cannot: number them.
  let index: HashMap<&str, usize> =
    graph.nodes.iter().enumerate().map(|(index, recipe)| (recipe.namepath, index)).collect();
  let id = |path: &str| format!("r{}", index.get(path).copied().unwrap_or_default());
  for (index, recipe) in graph.nodes.iter().enumerate() {
    out.push_str(&format!("  r{index}[\"{}\"]\n", mermaid_text(&node_label(recipe))));
    out.end_piece();
  }
  for edge in &graph.edges {
    let arrow = if edge.subsequent { "-.->" } else { "-->" };
    let label = edge_label(edge);
    let label =
      if label.is_empty() { String::new() } else { format!("|\"{}\"|", mermaid_text(&label)) };
    out.push_str(&format!("  {} {arrow}{label} {}\n", id(&edge.from), id(&edge.to)));
    out.end_piece();
  }
  for (index, (alias, target)) in graph.aliases.iter().enumerate() {
    out.push_str(&format!("  a{index}([\"{}\"])\n", mermaid_text(alias)));
    out.push_str(&format!("  a{index} -.->|alias| {}\n", id(target)));
    out.end_piece();
  }
}

fn parameter_json(parameter: Parameter) -> Json {
  let kind = match parameter.kind() {
    ParameterKind::Singular => "singular",
    ParameterKind::Plus => "plus",
    ParameterKind::Star => "star",
  };
  json!({
    "name": parameter.name().lexeme(),
    "kind": kind,
    "default": parameter.default().map(ToString::to_string),
    "export": parameter.export(),
    "long": parameter.long(),
    "short": parameter.short().map(String::from),
  })
}

fn json(graph: &Graph) -> String {
  let nodes: Vec<Json> = graph
    .nodes
    .iter()
    .map(|recipe| {
      let attributes: Vec<String> = crate::syntax::attribute_order::sorted(recipe.attributes())
        .into_iter()
        .map(|entry| crate::output::format::attributes::render(&entry.attribute))
        .collect();
      json!({
        "path": recipe.namepath,
        "parameters": recipe.parameters().iter().map(parameter_json).collect::<Vec<_>>(),
        "attributes": attributes,
      })
    })
    .collect();
  let edges: Vec<Json> = graph
    .edges
    .iter()
    .map(|edge| {
      json!({
        "from": edge.from,
        "to": edge.to,
        "kind": if edge.subsequent { "subsequent" } else { "prior" },
        "arguments": edge.arguments,
      })
    })
    .collect();
  let aliases: Vec<Json> = graph
    .aliases
    .iter()
    .map(|(alias, target)| json!({ "path": alias, "target": target }))
    .collect();
  let document = json!({ "nodes": nodes, "edges": edges, "aliases": aliases });
  format!("{document:#}\n")
}
