#!/usr/bin/env python3
"""Writes the release archive of one target, reproducibly.

    archive.py TARGET BINARY OUT_DIR [--documents-from JUST]

The archive is `just-VERSION-TARGET.tar.gz` (`.zip` for Windows) and holds
one folder, `just-VERSION-TARGET/`, with the binary and its helpers (`just-cache-store`, `just-language-server`)
(the helper for network cache stores, found beside BINARY), `completions/` (a script
for every shell `just --completions` knows), `man/just.1`, README.md and
LICENSE. The completion scripts and man page are written by running JUST
(default: BINARY), so a binary that cannot run here can take them from one
that can. Entries are sorted, owned by root, dated from SOURCE_DATE_EPOCH
(else the last commit), and compressed without a timestamp: the same inputs
give the same bytes. Prints the archive's path.
"""

import argparse
import gzip
import io
import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

COMPLETIONS = [
    ("bash", "just.bash"),
    ("elvish", "just.elvish"),
    ("fish", "just.fish"),
    ("nushell", "just.nu"),
    ("powershell", "just.ps1"),
    ("zsh", "_just"),
]


# The helper executables `just` starts, shipped beside it.
HELPERS = ("just-cache-store", "just-language-server")

def version():
    with open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8") as f:
        for line in f:
            match = re.match(r'^version = "(.*)"$', line)
            if match:
                return match.group(1)
    sys.exit("error: no version in Cargo.toml")


def epoch():
    if "SOURCE_DATE_EPOCH" in os.environ:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    out = subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip())


def run(just, *arguments):
    return subprocess.run([just, *arguments], capture_output=True, check=True).stdout


def entries(binary, suffix, just):
    """(path in the folder, bytes, executable) for every file, sorted."""
    files = []
    extension = os.path.splitext(binary)[1]
    helpers = [
        (name, os.path.join(os.path.dirname(binary), name + extension))
        for name in HELPERS
    ]
    for name, path in [("just", binary), *helpers]:
        with open(path, "rb") as f:
            files.append((name + suffix, f.read(), True))
    for shell, name in COMPLETIONS:
        files.append((f"completions/{name}", run(just, "--completions", shell), False))
    files.append(("man/just.1", run(just, "--man"), False))
    for name in ("README.md", "LICENSE"):
        with open(os.path.join(ROOT, name), "rb") as f:
            files.append((name, f.read(), False))
    return sorted(files)


def directories(folder, files):
    names = {folder}
    for path, _, _ in files:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            names.add(folder + "/" + "/".join(parts[:i]))
    return sorted(names)


def write_tar_gz(archive, folder, files, stamp):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        items = [(d, None, True) for d in directories(folder, files)]
        items += [(f"{folder}/{p}", data, x) for p, data, x in files]
        for name, data, executable in sorted(items, key=lambda item: item[0]):
            info = tarfile.TarInfo(name)
            info.mtime = stamp
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            if data is None:
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                tar.addfile(info)
            else:
                info.size = len(data)
                info.mode = 0o755 if executable else 0o644
                tar.addfile(info, io.BytesIO(data))
    with open(archive, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(buffer.getvalue())


def write_zip(archive, folder, files, stamp):
    date = time.gmtime(max(stamp, 315532800))[:6]  # zip dates start in 1980
    with zipfile.ZipFile(archive, "w") as z:
        for path, data, executable in files:
            info = zipfile.ZipInfo(f"{folder}/{path}", date)
            info.create_system = 3
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data, compresslevel=9)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target")
    parser.add_argument("binary")
    parser.add_argument("out")
    parser.add_argument("--documents-from", dest="just")
    options = parser.parse_args()

    windows = "windows" in options.target
    folder = f"just-{version()}-{options.target}"
    files = entries(options.binary, ".exe" if windows else "", options.just or options.binary)
    archive = os.path.join(options.out, folder + (".zip" if windows else ".tar.gz"))
    (write_zip if windows else write_tar_gz)(archive, folder, files, epoch())
    print(archive)


if __name__ == "__main__":
    main()
