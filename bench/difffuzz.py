#!/usr/bin/env python3
"""Differential fuzzing of our `just` against the reference binary.

usage: bench/difffuzz.py [--seed N] [--count N] [--ours PATH] [--ref PATH]
                         [--show N] [--no-minimize] [--only CMD] [--valid-only]

Generates deterministic (seeded) random justfiles, valid ones and mutated
broken ones, runs both binaries with a set of commands in a fresh temporary
directory with a fixed environment, and compares stdout, stderr and exit
status byte for byte. Discrepancies are grouped by (command, first differing
line with names/numbers erased); the first example of each group is
minimized by deleting lines and printed as a diff. Not run by CI.

--ours defaults to target/debug/just, --ref to $JUST_REFERENCE, else
target/reference/bin/just (`just reference` installs it there).
"""

import argparse
import difflib
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ENV_VARS = {"FUZZ_A": "alpha", "FUZZ_B": "b e t a", "FUZZ_EMPTY": ""}

NAMES = ["a", "b", "foo", "bar", "build", "test", "x_y", "k-e-b", "_hidden", "Z9", "c", "d"]
VARS = ["v", "w", "name", "dir", "_priv", "long_variable_name", "u-v", "x1"]
WORDS = ["hello", "a b", "", "x/y", "ünïcödé", "tab\there", "1.2.3", "-", "  pad  ", "Hello World"]

CONSTANTS = ["HEX", "HEXUPPER", "PATH_SEP", "PATH_VAR_SEP", "BOLD", "NORMAL"]

# name -> number of string arguments (pure functions only)
FUNCTIONS = {
  "uppercase": 1, "lowercase": 1, "capitalize": 1, "snakecase": 1, "kebabcase": 1,
  "shoutysnakecase": 1, "shoutykebabcase": 1, "lowercamelcase": 1, "uppercamelcase": 1,
  "titlecase": 1, "trim": 1, "trim_start": 1, "trim_end": 1, "quote": 1,
  "encode_uri_component": 1, "replace": 3, "replace_regex": 3, "trim_start_match": 2,
  "trim_start_matches": 2, "trim_end_match": 2, "trim_end_matches": 2, "append": 2,
  "prepend": 2, "extension": 1, "file_name": 1, "file_stem": 1, "parent_directory": 1,
  "without_extension": 1, "clean": 1, "join": 2, "sha256": 1, "blake3": 1,
  "semver_matches": 2, "env_var_or_default": 2, "env": 2, "os": 0, "os_family": 0,
  "arch": 0, "just_version": 0, "len": 1, "justfile_directory": 0, "path_exists": 1,
  "choose": 2, "style": 1,
}

SETTINGS_BOOL = ["allow-duplicate-recipes", "allow-duplicate-variables", "export",
                 "positional-arguments", "quiet", "ignore-comments", "no-exit-message",
                 "dotenv-load", "fallback", "unstable", "guards", "lazy"]

RECIPE_ATTRS = ["private", "no-cd", "no-exit-message", "no-quiet", "linux", "unix",
                "windows", "macos", "positional-arguments", "exit-message", "parallel",
                "doc('documented')", "doc", "group('grp')", "group(\"other\")",
                "metadata('m1', 'm2')", "confirm", "confirm('sure?')", "default",
                "working-directory('.')", "env('EV', 'val')", "script", "unknown-attr"]


class Gen:
  def __init__(self, rng):
    self.r = rng
    self.vars = []
    self.recipes = []
    self.params = []

  def pick(self, items):
    return self.r.choice(items)

  def chance(self, p):
    return self.r.random() < p

  # ---- strings ----
  def escape_body(self, text, quote):
    out = []
    for ch in text:
      if ch == "\\":
        out.append("\\\\")
      elif ch == quote:
        out.append("\\" + quote)
      elif ch == "\t" and quote == '"':
        out.append(self.pick(["\\t", "\t"]))
      else:
        out.append(ch)
    s = "".join(out)
    if quote == '"' and self.chance(0.3):
      s += self.pick(["\\n", "\\r", "\\u{1F600}", "\\u{41}", "\\\n  ", "\\\"", "\\t"])
    return s

  def string(self):
    word = self.pick(WORDS)
    kind = self.r.randrange(8)
    if kind == 0:
      return "'" + word.replace("'", "") + "'"
    if kind == 1:
      return '"' + self.escape_body(word, '"') + '"'
    if kind == 2:
      return "'''\n  " + word.replace("'", "") + "\n    indented\n  '''"
    if kind == 3:
      return '"""\n  ' + self.escape_body(word, '"') + '\n  """'
    if kind == 4:
      inner = self.pick(["{{FUZZ_A}}", "$FUZZ_B", "${FUZZ_A}", "$NOPE", "${FUZZ_EMPTY}x", "~/p"])
      return "x'" + word.replace("'", "") + inner + "'" if self.chance(0.5) else 'x"' + inner + '"'
    if kind == 5 and self.vars:
      q = self.pick(["'", '"'])
      lit = word.replace("'", "").replace('"', "").replace("\\", "")
      extra = "{{{{" if self.chance(0.2) else ""
      return "f" + q + lit + "{{" + self.pick(self.vars) + "}}" + extra + q
    if kind == 6:
      return "`echo " + self.pick(["hi", "'a  b'", "$FUZZ_A", "{{x}}"]) + "`"
    return "'" + word.replace("'", "") + "'"

  def fix_fstring(self, s):
    return s

  def fresh(self, pool, used):
    if self.chance(0.01):
      return self.pick(["déjà", "ünï"])
    unused = [name for name in pool if name not in used]
    return self.pick(unused) if unused and self.chance(0.95) else self.pick(pool)

  # ---- expressions ----
  def atom(self, depth):
    k = self.r.randrange(7)
    if k == 0 and self.vars:
      return self.pick(self.vars)
    if k == 1:
      return self.pick(CONSTANTS)
    if k == 2 and depth < 3:
      name = self.pick(list(FUNCTIONS))
      n = FUNCTIONS[name]
      return name + "(" + ", ".join(self.expr(depth + 1) for _ in range(n)) + ")"
    if k == 3 and self.params:
      return self.pick(self.params)
    if k == 4 and depth < 3:
      return "(" + self.expr(depth + 1) + ")"
    return self.fix_fstring(self.string())

  def condition(self, depth):
    op = self.pick(["==", "!=", "=~"])
    rhs = "'^h.*'" if op == "=~" else self.atom(depth + 1)
    return self.atom(depth + 1) + " " + op + " " + rhs

  def expr(self, depth=0):
    k = self.r.randrange(6)
    if depth < 3 and k == 0:
      return self.atom(depth) + self.pick([" + ", "+", " / ", "/"]) + self.expr(depth + 1)
    if depth < 3 and k == 1:
      s = "if " + self.condition(depth) + " { " + self.expr(depth + 1) + " }"
      if self.chance(0.3):
        s += " else if " + self.condition(depth) + " { " + self.expr(depth + 1) + " }"
      return s + " else { " + self.expr(depth + 1) + " }"
    if depth < 2 and k == 2:
      return "/" + self.atom(depth)
    return self.atom(depth)

  # ---- items ----
  def comment(self):
    return self.pick(["# comment", "#", "# ünïcödé comment", "#!not shebang", "   # indented"])

  def setting(self):
    k = self.r.randrange(5)
    if k == 0:
      name = self.pick(SETTINGS_BOOL)
      return "set " + name + self.pick(["", " := true", " := false"])
    if k == 1:
      return "set shell := " + self.pick(["['sh', '-cu']", '["bash", "-c"]', "['sh','-cu',]"])
    if k == 2:
      return "set " + self.pick(["tempdir", "dotenv-filename", "working-directory"]) + \
        " := " + self.pick(["'.'", "'sub'", '"x" + "y"'])
    if k == 3:
      return "set indentation := " + self.pick(["'  '", "'\t'", "'    '"])
    return "set minimum-version := " + self.pick(["'1.0.0'", "'1.58.0'"])

  def assignment(self):
    name = self.fresh(VARS, self.vars)
    e = self.expr()
    prefix = self.pick(["", "", "", "export ", "[private]\n", "unexport " * 0])
    self.vars.append(name)
    return prefix + name + self.pick([" := ", ":=", "  :=  "]) + e

  def recipe(self):
    name = self.fresh(NAMES, self.recipes)
    lines = []
    if self.chance(0.3):
      lines.append(self.pick(["# doc comment", "# dóc", "#   spaced doc"]))
    for _ in range(self.r.randrange(3) if self.chance(0.4) else 0):
      lines.append("[" + self.pick(RECIPE_ATTRS) + "]")
    if self.chance(0.1):
      lines.append("[" + self.pick(RECIPE_ATTRS) + ", " + self.pick(RECIPE_ATTRS) + "]")
    params = []
    self.params = []
    for i in range(self.r.randrange(4)):
      p = self.pick(["p", "q", "arg", "r"]) + str(i)
      self.params.append(p)
      s = ("$" if self.chance(0.2) else "") + p
      if self.chance(0.4):
        self.params.pop()
        s += "=" + self.pick(["'dflt'", '"d q"', "(" + self.expr(2) + ")", "`echo bt`"] +
                             (self.vars[:1] if self.vars else []))
        self.params.append(p)
      params.append(s)
    if params and self.chance(0.3):
      params[-1] = self.pick(["+", "*"]) + params[-1]
    header = ("@" if self.chance(0.15) else "") + name
    if params:
      header += " " + " ".join(params)
    header += ":"
    deps = []
    for _ in range(self.r.randrange(3)):
      if self.recipes:
        d = self.pick(self.recipes)
        deps.append(d if self.chance(0.7) else "(" + d + " " + self.fix_fstring(self.string()) + ")")
    if deps:
      header += " " + " ".join(deps)
    if self.recipes and self.chance(0.2):
      header += " && " + self.pick(self.recipes)
    lines.append(header)
    ind = self.pick(["  ", "    ", "\t"])
    body = self.r.randrange(4)
    for _ in range(body):
      k = self.r.randrange(6)
      sig = self.pick(["", "", "@", "-", "@-"])
      if k == 0:
        lines.append(ind + sig + "echo " + self.pick(WORDS).replace("\t", " ").replace("'", ""))
      elif k == 1:
        lines.append(ind + sig + "echo '{{" + self.expr(1) + "}}'")
      elif k == 2 and self.params:
        lines.append(ind + sig + "echo {{" + self.pick(self.params) + "}} $" + self.pick(self.params))
      elif k == 3:
        lines.append(ind + sig + "echo continued \\")
        lines.append(ind + "  line")
      elif k == 4:
        lines.append(ind + "# body comment {{" + (self.pick(self.vars) if self.vars else "'x'") + "}}")
      else:
        lines.append("")
        lines.append(ind + sig + "echo after-blank {{{{literal}}")
    self.recipes.append(name)
    self.params = []
    return "\n".join(lines)

  def alias(self):
    if not self.recipes:
      return "alias al := nowhere"
    return self.pick(["", "[private]\n"]) + "alias " + self.pick(["al", "t", "b2"]) + " := " + \
      self.pick(self.recipes)

  def justfile(self):
    items = []
    for _ in range(self.r.randrange(1, 9)):
      k = self.r.randrange(10)
      if k < 3:
        items.append(self.assignment())
      elif k < 6:
        items.append(self.recipe())
      elif k == 6:
        items.append(self.alias())
      elif k == 7:
        items.append(self.setting())
      elif k == 8:
        items.append(self.comment())
      else:
        items.append("")
    sep = self.pick(["\n", "\n\n", "\n"])
    text = sep.join(items) + self.pick(["\n", "", "\n\n"])
    if self.chance(0.08):
      text = text.replace("\n", "\r\n")
    return text

  # ---- mutations ----
  def mutate(self, text):
    lines = text.split("\n")
    for _ in range(self.r.randrange(1, 3)):
      k = self.r.randrange(9)
      if not lines:
        break
      i = self.r.randrange(len(lines))
      if k == 0:
        del lines[i]
      elif k == 1:
        lines.insert(i, lines[i])
      elif k == 2 and len(lines) > 1:
        j = self.r.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
      elif k == 3:
        lines[i] = lines[i].lstrip() if lines[i].startswith((" ", "\t")) else " " + lines[i]
      elif k == 4:
        toks = re.findall(r"\s+|\w+|.", lines[i])
        if toks:
          j = self.r.randrange(len(toks))
          op = self.r.randrange(3)
          if op == 0:
            del toks[j]
          elif op == 1:
            toks.insert(j, toks[j])
          else:
            toks.insert(j, self.pick(["(", ")", "{", "}", "{{", "}}", "'", '"', "`", ",",
                                      ":=", "+", "&&", "@", "$", "[", "]", "#", "\t", "=",
                                      "undefined_name", "if", "else", "\\"]))
          lines[i] = "".join(toks)
      elif k == 5:
        lines[i] = lines[i].replace("  ", "\t", 1) if "  " in lines[i] else "\t " + lines[i]
      elif k == 6:
        lines[i] = lines[i][: self.r.randrange(len(lines[i]) + 1)]
      elif k == 7:
        lines.insert(i, self.pick(["unknown_fn_call := nope()", "x := undefined", "alias q := nope",
                                   "foo: missing", "set nosuch", "import 'missing.just'",
                                   "mod absent", "[nope]", "a a:", "export", "set shell := 'x'"]))
      else:
        lines[i] = lines[i].replace(" ", "", 1)
    return "\n".join(lines)


def commands(text, rng):
  names = re.findall(r"^@?([A-Za-z_][\w-]*)[^\n:=]*:(?!=)", text, re.M)
  names = [n for n in names if n not in ("set", "alias", "export", "import", "mod")]
  cmds = [["--summary"], ["--dump"], ["--dump", "--dump-format", "json"],
          ["--unstable", "--dump", "--dump-format", "json"], ["--evaluate"], ["--list"],
          ["--fmt", "--check", "--unstable"], ["--fmt", "--check"], []]
  if names:
    name = rng.choice(names)
    cmds += [["--show", name], ["-n", name], [name], [name, "arg1", "arg 2"],
             ["--evaluate", rng.choice(VARS)]]
  else:
    cmds += [["--show", "a"]]
  return cmds


def run(binary, directory, args):
  env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": directory, "NO_COLOR": "1"}
  env.update(ENV_VARS)
  try:
    proc = subprocess.run([binary] + args, cwd=directory, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=10)
  except subprocess.TimeoutExpired:
    return (b"", b"<timeout>", -999)
  return (proc.stdout, proc.stderr, proc.returncode)


def normalize(result):
  """Erase the random names of script temporary directories."""
  stdout, stderr, status = result
  pattern = re.compile(rb"/just-[A-Za-z0-9]{6}/")
  return (pattern.sub(b"/just-XXXXXX/", stdout), pattern.sub(b"/just-XXXXXX/", stderr), status)


def compare(ours, ref, text, args):
  with tempfile.TemporaryDirectory() as raw:
    root = os.path.realpath(raw)
    Path(root, "justfile").write_bytes(text.encode())
    Path(root, "sub").mkdir()
    a = normalize(run(ref, root, args))
    b = normalize(run(ours, root, args))
    if a == b:
      return None
    return [x.decode("utf-8", "replace").replace(root, "{TMP}") if isinstance(x, bytes) else x
            for x in a], \
           [x.decode("utf-8", "replace").replace(root, "{TMP}") if isinstance(x, bytes) else x
            for x in b]


def clip(x, y):
  """The region around the first difference of two long lines."""
  start = 0
  while start < min(len(x), len(y)) and x[start] == y[start]:
    start += 1
  start = max(0, start - 30)
  return x[start:start + 70], y[start:start + 70]


def signature(args, a, b):
  command = " ".join(arg for arg in args if arg.startswith("-")) or "run"
  if "--check" in args and a[1:] == b[1:]:
    changed = lambda out: sorted(line for line in out.splitlines() if line[:1] in "+-")
    if changed(a[0]) == changed(b[0]):
      return f"{command}: same changes, different diff alignment"
  for index, label in ((0, "stdout"), (1, "stderr")):
    if a[index] != b[index]:
      la, lb = a[index].splitlines(), b[index].splitlines()
      for x, y in zip(la + [""] * len(lb), lb + [""] * len(la)):
        if x != y:
          x, y = clip(x, y)
          key = re.sub(r"`[^`]*`", "`N`", x + " | " + y)
          key = re.sub(r"\d+", "N", key)
          return f"{command} {label}: {key}"
  return f"{command} status {a[2]} vs {b[2]}"


def minimize(ours, ref, text, args, sig):
  def still(candidate):
    result = compare(ours, ref, candidate, args)
    return result is not None and signature(args, *result) == sig

  lines = text.split("\n")
  changed = True
  while changed:
    changed = False
    i = 0
    while i < len(lines):
      candidate = lines[:i] + lines[i + 1:]
      if still("\n".join(candidate)):
        lines = candidate
        changed = True
      else:
        i += 1
  return "\n".join(lines)


def show(text, args, a, b):
  print("---- justfile " + "-" * 40)
  print(repr(text) if "\r" in text else text)
  print("---- args:", args)
  for index, label in ((0, "stdout"), (1, "stderr")):
    if a[index] != b[index]:
      la, lb = a[index].splitlines(), b[index].splitlines()
      if len(la) == len(lb) == 1 and len(la[0]) > 200:
        x, y = clip(la[0], lb[0])
        la, lb = ["..." + x], ["..." + y]
      diff = difflib.unified_diff(la, lb, "reference", "ours", lineterm="", n=1)
      print(f"---- {label} diff")
      print("\n".join(diff))
  if a[2] != b[2]:
    print(f"---- status: reference {a[2]}, ours {b[2]}")
  print()


def main():
  parser = argparse.ArgumentParser(description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument("--seed", type=int, default=1)
  parser.add_argument("--count", type=int, default=2000)
  root = Path(__file__).resolve().parent.parent
  parser.add_argument("--ours", default=str(root / "target/debug/just"))
  parser.add_argument("--ref", default=os.environ.get("JUST_REFERENCE")
                      or str(root / "target/reference/bin/just"))
  parser.add_argument("--show", type=int, default=10, help="groups to print in full")
  parser.add_argument("--no-minimize", action="store_true")
  parser.add_argument("--only", help="only run commands whose first argument is this")
  parser.add_argument("--valid-only", action="store_true")
  options = parser.parse_args()
  for binary in (options.ours, options.ref):
    if not os.access(binary, os.X_OK):
      sys.exit(f"difffuzz: no executable at {binary} "
               "(build with `cargo build`; install the reference with `just reference` "
               "or set JUST_REFERENCE)")

  groups = {}
  total = 0
  for case in range(options.count):
    rng = random.Random(options.seed * 1_000_003 + case)
    gen = Gen(rng)
    text = gen.justfile()
    if not options.valid_only and rng.random() < 0.4:
      text = gen.mutate(text)
    for args in commands(text, rng):
      if options.only is not None and (args[0] if args else "") != options.only:
        continue
      total += 1
      result = compare(options.ours, options.ref, text, args)
      if result is None:
        continue
      sig = signature(args, *result)
      if sig in groups:
        groups[sig][0] += 1
        continue
      groups[sig] = [1, case, text, args, result]
      print(f"[case {case}] new discrepancy: {sig}", file=sys.stderr, flush=True)

  print(f"{total} runs, {len(groups)} discrepancy classes\n")
  ranked = sorted(groups.items(), key=lambda item: -item[1][0])
  for n, (sig, (count, case, text, args, result)) in enumerate(ranked):
    print(f"== {count}x (first: case {case}) {sig}")
    if n < options.show:
      if not options.no_minimize:
        text = minimize(options.ours, options.ref, text, args, sig)
        result = compare(options.ours, options.ref, text, args) or result
      show(text, args, *result)


if __name__ == "__main__":
  main()
