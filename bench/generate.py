#!/usr/bin/env python3
"""Generate justfiles for benchmarking.

usage: bench/generate.py OUTPUT_DIR [KIND]

Writes OUTPUT_DIR/justfile. KIND (default `large`):

  large   10,000 recipes (doc comments, parameters, dependencies), 2,000
          assignments and a recipe `long` with 1,000 lines
  tiny    a two-line justfile whose only recipe runs `@true`
  small   a typical small justfile: a variable, a default recipe, a recipe
          with a variadic parameter, doc comments and a dependency
  long    2,000 assignments and the 1,000-line recipe `long` alone
  chain   500 recipes, each depending on the one before; run `chain-499`
  params  a recipe `many` with 500 parameters with defaults
  huge    the recipes of `large` repeated to about 50 MB
  bigchain 100,000 recipes without bodies, each depending on the one before
  output  recipes printing a 20 MB line (`line`) and 256 MiB of lines (`lines`)
  groups  a recipe with 20,000 `[group]` attributes, then 20,000 recipes each
          in a group of its own
  blanks  10,000 lines of two spaces, then a recipe
  longline one line of 100 MB with a syntax error near its start

The output depends only on the arguments, so instruction counts of runs on
it are comparable between machines and commits.
"""

import sys
from pathlib import Path

RECIPES = 10_000
ASSIGNMENTS = 2_000
LONG_LINES = 1_000
CHAIN = 500
BIG_CHAIN = 100_000
PARAMS = 500
GROUPS = 20_000
BLANKS = 10_000
LONG_LINE_BYTES = 100_000_000
HUGE_BYTES = 50_000_000


def assignments():
  yield 'base := "value"'
  for i in range(ASSIGNMENTS):
    previous = "base" if i == 0 else f"var_{i - 1}"
    yield f'var_{i} := "{i}-" + {previous} / "x"' if i % 10 == 0 else f'var_{i} := "item {i}"'


def recipes(count=RECIPES):
  i = 0
  while count is None or i < count:
    deps = " ".join(f"recipe-{j}" for j in (i - 1, i - 7) if j >= 0)
    call = f" (recipe-{i - 3} 'arg')" if i >= 3 and i % 3 == 0 else ""
    yield f"# Recipe number {i}: does step {i} of the pipeline"
    if i % 3 == 0:
      yield f"recipe-{i} arg='default' +rest='a b': {deps}"
    else:
      yield f"recipe-{i} arg='default' *rest:{' ' + deps if deps else ''}{call}"
    yield f"  echo {{{{arg}}}} {{{{rest}}}} {i}"
    yield ""
    i += 1


def long_recipe():
  yield "# A recipe with many lines"
  yield "long:"
  for i in range(LONG_LINES):
    yield f"  @echo line {i} {{{{var_{i % ASSIGNMENTS}}}}} > /dev/null"
  yield ""


def large():
  return [*assignments(), "", *long_recipe(), *recipes()]


def tiny():
  return ["default:", "  @true"]


def small():
  return [
    'name := "world"',
    "",
    "# Run the tests",
    "default: build",
    "  @true",
    "",
    "# Build with extra arguments",
    "build *args:",
    "  @true",
    "",
    "# Greet someone",
    "greet who=name:",
    "  @true",
  ]


def long():
  return [*assignments(), "", *long_recipe()]


def chain():
  lines = []
  for i in range(CHAIN):
    lines += [f"chain-{i}:{f' chain-{i - 1}' if i else ''}", "  @true", ""]
  return lines


def bigchain():
  lines = []
  for i in range(BIG_CHAIN):
    lines += [f"chain-{i}:{f' chain-{i - 1}' if i else ''}", ""]
  return lines


def output():
  return [
    "line:",
    "  @head -c 20000000 /dev/zero | tr '\\0' x; echo",
    "lines:",
    "  @head -c 268435456 /dev/zero | tr '\\0' '\\n'",
  ]


def params():
  names = " ".join(f"p{i}='{i}'" for i in range(PARAMS))
  return [f"many {names}:", "  @true"]


def groups():
  lines = [f"[group('g{i}')]" for i in range(GROUPS)]
  lines += ["grouped:", "  @true"]
  for i in range(GROUPS):
    lines += [f"[group('own-{i}')]", f"r{i}:", "  @true"]
  return lines


def blanks():
  return ["  "] * BLANKS + ["a:", "  @true"]


def longline():
  return ["x := 'y' &" + "a" * LONG_LINE_BYTES]


def huge():
  lines = [*assignments(), "", *long_recipe()]
  size = sum(len(line) + 1 for line in lines)
  for line in recipes(None):
    if size >= HUGE_BYTES and line == "":
      break
    lines.append(line)
    size += len(line) + 1
  return lines


KINDS = {f.__name__: f for f in (large, tiny, small, long, chain, params, huge, bigchain, output, groups, blanks, longline)}


def main():
  if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] not in KINDS):
    sys.exit(__doc__)
  out = Path(sys.argv[1])
  out.mkdir(parents=True, exist_ok=True)
  lines = KINDS[sys.argv[2] if len(sys.argv) == 3 else "large"]()
  (out / "justfile").write_text("\n".join(lines) + "\n")
  print(out / "justfile")


if __name__ == "__main__":
  main()
