#!/usr/bin/env python3
"""Generate large justfiles for benchmarking.

usage: bench/generate.py OUTPUT_DIR

Writes OUTPUT_DIR/justfile with 10,000 recipes (doc comments, parameters,
dependencies), 2,000 assignments and a recipe `long` with 1,000 lines.
"""

import sys
from pathlib import Path

RECIPES = 10_000
ASSIGNMENTS = 2_000
LONG_LINES = 1_000


def assignments():
  yield 'base := "value"'
  for i in range(ASSIGNMENTS):
    previous = "base" if i == 0 else f"var_{i - 1}"
    yield f'var_{i} := "{i}-" + {previous} / "x"' if i % 10 == 0 else f'var_{i} := "item {i}"'


def recipes():
  for i in range(RECIPES):
    deps = " ".join(f"recipe-{j}" for j in (i - 1, i - 7) if j >= 0)
    call = f" (recipe-{i - 3} 'arg')" if i >= 3 and i % 3 == 0 else ""
    yield f"# Recipe number {i}: does step {i} of the pipeline"
    if i % 3 == 0:
      yield f"recipe-{i} arg='default' +rest='a b': {deps}"
    else:
      yield f"recipe-{i} arg='default' *rest:{' ' + deps if deps else ''}{call}"
    yield f"  echo {{{{arg}}}} {{{{rest}}}} {i}"
    yield ""


def long_recipe():
  yield "# A recipe with many lines"
  yield "long:"
  for i in range(LONG_LINES):
    yield f"  @echo line {i} {{{{var_{i % ASSIGNMENTS}}}}} > /dev/null"
  yield ""


def main():
  if len(sys.argv) != 2:
    sys.exit(__doc__)
  out = Path(sys.argv[1])
  out.mkdir(parents=True, exist_ok=True)
  lines = [*assignments(), "", *long_recipe(), *recipes()]
  (out / "justfile").write_text("\n".join(lines) + "\n")
  print(out / "justfile")


if __name__ == "__main__":
  main()
