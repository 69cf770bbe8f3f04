//! Running a recipe from the editor: a code lens above each recipe that
//! takes no required argument, and the command `just.run` it invokes,
//! which runs the recipe with the `just` executable installed beside this
//! server (the same runner as on the command line) and answers with its status and output.
//! The run happens on a thread of its own, so the server keeps answering.

use std::path::{Path, PathBuf};

use lsp_server::{ErrorCode, Response};
use lsp_types::{CodeLens, Command, Range};
use serde_json::{json, Value};

use super::documents::Documents;
use super::positions::token_range;
use super::project;
use crate::analysis::model::{Module, Recipe};

pub(super) const RUN: &str = "just.run";

pub(super) fn code_lenses(path: &Path, documents: &Documents) -> Vec<CodeLens> {
  project::with_justfile(path, documents.overlays(), |justfile, directory| {
    let root = justfile.root.source.clone();
    let mut lenses = Vec::new();
    collect(&justfile.root, path, directory, &root, &mut lenses);
    lenses.sort_by_key(|lens| (lens.range.start.line, lens.range.start.character));
    lenses
  })
  .unwrap_or_default()
}

fn collect(
  module: &Module,
  path: &Path,
  directory: &Path,
  root: &Path,
  lenses: &mut Vec<CodeLens>,
) {
  for recipe in module.recipes.values() {
    let token = recipe.name();
    let file = token.path();
    let file = if file.is_absolute() { file.to_path_buf() } else { directory.join(file) };
    if file != path || recipe.min_arguments() > 0 {
      continue;
    }
    lenses.push(lens(recipe, root));
  }
  for submodule in module.modules.values() {
    collect(submodule, path, directory, root, lenses);
  }
}

fn lens(recipe: &Recipe, root: &Path) -> CodeLens {
  let range: Range = token_range(&recipe.name());
  CodeLens {
    range,
    command: Some(Command {
      title: format!("▶ run {}", recipe.namepath),
      command: RUN.into(),
      arguments: Some(vec![json!(root), json!(recipe.namepath)]),
    }),
    data: None,
  }
}

/// Start `just.run` with `arguments` (the root justfile and the recipe
/// path); `respond` gets the answer when the recipe has ended.
pub(super) fn start(
  arguments: &[Value],
  respond: impl FnOnce(Response) + Send + 'static,
  id: lsp_server::RequestId,
) -> Result<(), String> {
  let (Some(root), Some(recipe)) =
    (arguments.first().and_then(Value::as_str), arguments.get(1).and_then(Value::as_str))
  else {
    return Err(format!("`{RUN}` takes the justfile and the recipe path"));
  };
  // `just` is next to this server (`just-language-server`), else on `PATH`.
  let name = format!("just{}", std::env::consts::EXE_SUFFIX);
  let executable = std::env::current_exe()
    .ok()
    .map(|exe| exe.with_file_name(&name))
    .filter(|path| path.is_file())
    .unwrap_or_else(|| PathBuf::from(&name));
  let root = PathBuf::from(root);
  let recipe: Vec<String> = recipe.split("::").map(str::to_string).collect();
  std::thread::spawn(move || {
    let output = std::process::Command::new(executable)
      .arg("--justfile")
      .arg(&root)
      .args(&recipe)
      .stdin(std::process::Stdio::null())
      .output();
    let response = match output {
      Ok(output) => Response::new_ok(
        id,
        json!({
          "status": output.status.code(),
          "stdout": String::from_utf8_lossy(&output.stdout),
          "stderr": String::from_utf8_lossy(&output.stderr),
        }),
      ),
      Err(error) => Response::new_err(
        id,
        ErrorCode::RequestFailed as i32,
        format!("cannot run `just`: {error}"),
      ),
    };
    respond(response);
  });
  Ok(())
}
