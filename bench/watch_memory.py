#!/usr/bin/env python3
"""Memory of a long `--watch`: rerun a large justfile many times.

usage: bench/watch_memory.py JUST [RERUNS]

Generates the `large` justfile (10,000 recipes) with a recipe that reads
a file, watches that file with `just --watch`, changes it RERUNS times
(default 1,000), waiting each time for the rerun to finish, and prints the
resident memory of the watching `just` after 10, 100 and every further
power of ten of reruns, and after the last. Each rerun parses the justfile
afresh and drops the last run, so the figures should stay flat.
"""

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WAITING = b"[watch] waiting for changes\n"
DEADLINE = 60


def rss_kib(pid):
  for line in Path(f"/proc/{pid}/status").read_text().splitlines():
    if line.startswith("VmRSS:"):
      return int(line.split()[1])
  return 0


def main():
  just = os.path.realpath(sys.argv[1])
  reruns = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
  with tempfile.TemporaryDirectory() as work:
    subprocess.run([sys.executable, HERE / "generate.py", work, "large"], check=True,
                   stdout=subprocess.DEVNULL)
    justfile = Path(work, "justfile")
    with justfile.open("a") as out:
      out.write("\nwatch-tick:\n  @cat tick.txt\n")
    tick = Path(work, "tick.txt")
    tick.write_text("0\n")
    child = subprocess.Popen(
      [just, "--watch", "--watch-debounce", "5", "--watch-path", "tick.txt", "watch-tick"],
      cwd=work, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
      env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work},
    )
    count = [0]
    changed = threading.Condition()

    def read():
      pending = b""
      while chunk := child.stderr.read1(65536):
        pending += chunk
        with changed:
          count[0] += pending.count(WAITING)
          pending = pending[pending.rfind(WAITING) + len(WAITING):] if WAITING in pending \
            else pending[-len(WAITING):]
          changed.notify_all()

    threading.Thread(target=read, daemon=True).start()

    def wait_for(runs):
      deadline = time.monotonic() + DEADLINE
      with changed:
        while count[0] < runs:
          left = deadline - time.monotonic()
          if left <= 0 or child.poll() is not None:
            raise SystemExit(f"watch_memory.py: no rerun {runs} (just exited or hung)")
          changed.wait(left)

    try:
      wait_for(1)
      marks = {10, reruns}
      mark = 100
      while mark < reruns:
        marks.add(mark)
        mark *= 10
      figures = []
      started = time.monotonic()
      for run in range(1, reruns + 1):
        tick.write_text(f"{run}\n")
        wait_for(run + 1)
        if run in marks:
          figures.append((run, rss_kib(child.pid)))
      elapsed = time.monotonic() - started
    finally:
      child.send_signal(signal.SIGINT)
      child.wait()
  text = ", ".join(f"{run}: {kib} KiB" for run, kib in figures)
  first, last = figures[0], figures[-1]
  growth = (last[1] - first[1]) * 1024 / max(1, last[0] - first[0])
  print(f"{'watch-rss':<12} resident memory after N reruns of the large justfile: {text}")
  print(f"{'':<12} growth {growth:.0f} bytes per rerun after the first {first[0]} "
        f"({elapsed / reruns * 1000:.1f} ms per rerun)")


if __name__ == "__main__":
  main()
