use super::*;

#[test]
fn dependency_paths_list_their_names() {
  let source = sources::Source::new("a: b (c::d 'x')\nb:\n", "justfile");
  let trees = Trees::new();
  let ast = parse_source(&source, &trees).unwrap();
  let Some(Item::Recipe(recipe)) = ast.items.first() else { panic!("not a recipe") };
  let paths: Vec<Vec<&str>> = recipe
    .priors()
    .iter()
    .map(|dependency| dependency.path.iter().map(|name| name.lexeme()).collect())
    .collect();
  assert_eq!(paths, [vec!["b"], vec!["c", "d"]]);
}

#[test]
fn literals_borrow_the_source_unless_cooking_changes_them() {
  let src = "a := 'x\\n' + \"y\" + \"z\\t\" + '''\n  w\n'''\n";
  let source = sources::Source::new(src, "justfile");
  let trees = Trees::new();
  let ast = parse_source(&source, &trees).unwrap();
  let Some(Item::Assignment(assignment)) = ast.items.first() else { panic!("not an assignment") };
  let mut literals = Vec::new();
  let mut pending = vec![&assignment.value];
  while let Some(expression) = pending.pop() {
    match expression {
      Expression::Concatenation { lhs, rhs, .. } => pending.extend([*rhs, *lhs]),
      Expression::StringLiteral(literal) => literals.push(literal),
      other => panic!("unexpected {other:?}"),
    }
  }
  let cooked: Vec<(&str, bool)> = literals
    .iter()
    .map(|literal| {
      let in_source = source.text.as_bytes().as_ptr_range().contains(&literal.cooked.as_ptr());
      (literal.cooked, in_source)
    })
    .collect();
  assert_eq!(cooked, [("x\\n", true), ("y", true), ("z\t", false), ("w\n", false)]);
}
