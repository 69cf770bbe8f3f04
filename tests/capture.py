#!/usr/bin/env python3
"""Capture expected outputs for the integration tests from a reference `just`.

Each tests/cases/AREA.py defines `CASES`, a list of `C(...)` rows (inputs
only). This script runs the reference binary on every row, in a fresh
temporary directory and with the same clean environment as
tests/common/mod.rs, and writes tests/cases/AREA.rs: a `const CASES: &[Case]`
with the captured stdout, stderr and exit status hard-coded.

usage: tests/capture.py [--just PATH] [AREA ...]   (default: every area)
       tests/capture.py --show AREA NAME           (print one case's output)
"""

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
TMP = "{{TMP}}"


class C:
  """One case: name, justfile (None = no justfile), args, and extras."""

  def __init__(self, name, justfile=None, *args, files=None, dirs=None, env=None,
               stdin="", cwd="", expect_files=None):
    self.name = name
    self.justfile = None if justfile is None else dedent(justfile)
    self.args = list(args)
    self.files = {path: dedent(text) for path, text in (files or {}).items()}
    self.dirs = list(dirs or [])
    self.env = dict(env or {})
    self.stdin = stdin
    self.cwd = cwd
    self.expect_files = list(expect_files or [])


def dedent(text):
  """Strip one leading newline and the common indentation of a block."""
  if text.startswith("\n"):
    text = text[1:]
  return textwrap.dedent(text)


def run_case(just, case):
  with tempfile.TemporaryDirectory() as raw:
    root = os.path.realpath(raw)
    sub = lambda text: text.replace(TMP, root)
    if case.justfile is not None:
      write(Path(root, "justfile"), case.justfile)
    for path, text in case.files.items():
      write(Path(root, path), text)
    for path in case.dirs:
      Path(root, path).mkdir(parents=True, exist_ok=True)
    cwd = Path(root, case.cwd)
    cwd.mkdir(parents=True, exist_ok=True)
    env = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
    env["NO_COLOR"] = "1"
    env.update({key: sub(value) for key, value in case.env.items()})
    try:
      proc = subprocess.run([just] + [sub(arg) for arg in case.args], cwd=cwd, env=env,
                            input=case.stdin.encode(), capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
      sys.exit(f"case {case.name} timed out")
    status = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    unsub = lambda data: data.decode("utf-8", "replace").replace(root, TMP)
    files = []
    for path in case.expect_files:
      target = Path(root, path)
      files.append((path, unsub(target.read_bytes()) if target.exists() else None))
    return unsub(proc.stdout), unsub(proc.stderr), status, files


def write(path, text):
  path.parent.mkdir(parents=True, exist_ok=True)
  path.write_text(text)


def rust_str(text):
  if all(ch >= " " and ch not in '"\\' for ch in text):
    return f'"{text}"'
  if "\r" not in text and all(ch >= " " or ch in "\n\t" for ch in text):
    hashes = "#"
    while '"' + hashes in text:
      hashes += "#"
    return f'r{hashes}"{text}"{hashes}'
  out = []
  for ch in text:
    if ch == "\\":
      out.append("\\\\")
    elif ch == '"':
      out.append('\\"')
    elif ch == "\n":
      out.append("\\n")
    elif ch == "\t":
      out.append("\\t")
    elif ch == "\r":
      out.append("\\r")
    elif ch < " " or ch == "\x7f":
      out.append(f"\\u{{{ord(ch):x}}}")
    else:
      out.append(ch)
  return '"' + "".join(out) + '"'


def rust_strs(items):
  return "&[" + ", ".join(rust_str(item) for item in items) + "]"


def rust_pairs(pairs):
  return "&[" + ", ".join(f"({rust_str(a)}, {rust_str(b)})" for a, b in pairs) + "]"


def render_case(case, stdout, stderr, status, files):
  fields = [f"name: {rust_str(case.name)}"]
  if case.justfile is not None:
    fields.append(f"justfile: Some({rust_str(case.justfile)})")
  if case.args:
    fields.append(f"args: {rust_strs(case.args)}")
  if case.files:
    fields.append(f"files: {rust_pairs(case.files.items())}")
  if case.dirs:
    fields.append(f"dirs: {rust_strs(case.dirs)}")
  if case.env:
    fields.append(f"env: {rust_pairs(case.env.items())}")
  if case.stdin:
    fields.append(f"stdin: {rust_str(case.stdin)}")
  if case.cwd:
    fields.append(f"current_dir: {rust_str(case.cwd)}")
  missing = [path for path, text in files if text is None]
  if missing:
    sys.exit(f"case {case.name}: reference did not create {missing}")
  if files:
    fields.append(f"expect_files: {rust_pairs(files)}")
  if stdout:
    fields.append(f"stdout: {rust_str(stdout)}")
  if stderr:
    fields.append(f"stderr: {rust_str(stderr)}")
  if status:
    fields.append(f"status: {status}")
  body = "".join(f"    {field},\n" for field in fields)
  return f"  Case {{\n{body}    ..Case::DEFAULT\n  }},\n"


def load_cases(area):
  spec = importlib.util.spec_from_file_location(f"cases_{area}", CASES_DIR / f"{area}.py")
  module = importlib.util.module_from_spec(spec)
  sys.modules.setdefault("capture", sys.modules[__name__])
  spec.loader.exec_module(module)
  names = [case.name for case in module.CASES]
  duplicates = {name for name in names if names.count(name) > 1}
  if duplicates:
    sys.exit(f"{area}: duplicate case names {sorted(duplicates)}")
  return module.CASES


def capture_area(just, area):
  cases = load_cases(area)
  version = subprocess.run([just, "--version"], capture_output=True, text=True).stdout.strip()
  parts = [
    f"// @generated by tests/capture.py from tests/cases/{area}.py with {version}.\n",
    "// Do not edit: change the .py file and re-run the script.\n\n",
    "const CASES: &[Case] = &[\n",
  ]
  for case in cases:
    parts.append(render_case(case, *run_case(just, case)))
  parts.append("];\n")
  (CASES_DIR / f"{area}.rs").write_text("".join(parts))
  write_test_file(area)
  print(f"{area}: {len(cases)} cases")


TEST_FILE = """\
//! Integration tests: {area}. The table's inputs are in tests/cases/{area}.py
//! and its expected outputs (captured from the reference) in tests/cases/{area}.rs.

mod common;

use common::{{assert_unique_names, run_cases, Case}};

include!("cases/{area}.rs");

#[test]
fn {area}_cases() {{
  assert_unique_names(CASES);
  run_cases(CASES);
}}
"""


def write_test_file(area):
  """Create tests/AREA.rs on first capture; afterwards it is hand-maintained."""
  path = HERE / f"{area}.rs"
  if not path.exists():
    path.write_text(TEST_FILE.format(area=area))


def main():
  parser = argparse.ArgumentParser(description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument("--just", default="/tmp/ref/bin/just")
  parser.add_argument("--show", action="store_true")
  parser.add_argument("areas", nargs="*")
  options = parser.parse_args()
  if options.show:
    area, name = options.areas
    case = next(case for case in load_cases(area) if case.name == name)
    stdout, stderr, status, files = run_case(options.just, case)
    print(f"--- stdout\n{stdout}--- stderr\n{stderr}--- status {status}\n{files}")
    return
  areas = options.areas or sorted(path.stem for path in CASES_DIR.glob("*.py"))
  for area in areas:
    capture_area(options.just, area)


if __name__ == "__main__":
  main()
