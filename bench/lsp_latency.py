#!/usr/bin/env python3
"""Latency of `just --lsp` on the 10,000-recipe justfile of `generate.py large`.

usage: bench/lsp_latency.py JUST [EDITS]

Opens the file, then types EDITS (default 100) single characters into a
recipe body, alternately inserting and deleting, and measures for each the
time from sending `didChange` to receiving the diagnostics of that version;
then asks for EDITS completions at a dependency (where every one of the
10,000 recipes may go: the answer holds the first 1,000, marked incomplete)
and measures each answer.
Prints the latency distribution (min, median, 90th percentile, max) against
the targets: diagnostics within 50 ms, completions within 20 ms.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

here = Path(__file__).resolve().parent


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed its output")
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def distribution(name, samples, target):
    samples = sorted(samples)
    pick = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))]
    verdict = "ok" if pick(0.9) <= target else "OVER TARGET"
    print(
        f"{name:<22} min {samples[0]:7.1f}  p50 {pick(0.5):7.1f}  p90 {pick(0.9):7.1f}  "
        f"max {samples[-1]:7.1f} ms  (target {target} ms at p90: {verdict})"
    )


def main():
    just = os.path.abspath(sys.argv[1])
    edits = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, str(here / "generate.py"), work, "large"], check=True,
                       stdout=subprocess.DEVNULL)
        path = Path(work) / "justfile"
        text = path.read_text()
        uri = path.as_uri()
        server = subprocess.Popen([just, "--lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        send = lambda message: (server.stdin.write(frame(message)), server.stdin.flush())

        def wait_for(predicate):
            while True:
                message = read(server.stdout)
                if predicate(message):
                    return message

        send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
        wait_for(lambda m: m.get("id") == 0)
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "just", "version": 0, "text": text}}})
        is_publication = lambda version: lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri and m["params"].get("version") == version)
        wait_for(is_publication(0))

        # A body line in the middle of the file, and a dependency position.
        lines = text.split("\n")
        body = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("  echo"))
        header = next(i for i in range(len(lines) // 2, len(lines))
                      if lines[i] and not lines[i][0].isspace() and ":" in lines[i]
                      and ":=" not in lines[i] and not lines[i].startswith(("#", "[")))
        column = lines[header].index(":") + 1

        diagnostics = []
        for version in range(1, edits + 1):
            if version % 2:
                change = {"range": {"start": {"line": body, "character": 6}, "end": {"line": body, "character": 6}},
                          "text": "x"}
            else:
                change = {"range": {"start": {"line": body, "character": 6}, "end": {"line": body, "character": 7}},
                          "text": ""}
            start = time.perf_counter()
            send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
            wait_for(is_publication(version))
            diagnostics.append((time.perf_counter() - start) * 1000)

        completions = []
        for request in range(1, edits + 1):
            start = time.perf_counter()
            send({"jsonrpc": "2.0", "id": request, "method": "textDocument/completion", "params": {
                "textDocument": {"uri": uri}, "position": {"line": header, "character": column}}})
            answer = wait_for(lambda m, request=request: m.get("id") == request)
            completions.append((time.perf_counter() - start) * 1000)
            result = answer["result"]
            assert result["isIncomplete"] and len(result["items"]) == 1000, len(result["items"])

        send({"jsonrpc": "2.0", "id": "end", "method": "shutdown"})
        wait_for(lambda m: m.get("id") == "end")
        send({"jsonrpc": "2.0", "method": "exit"})
        server.wait(timeout=10)

    distribution("lsp diagnostics/edit", diagnostics, 50)
    distribution("lsp completion", completions, 20)


if __name__ == "__main__":
    main()
