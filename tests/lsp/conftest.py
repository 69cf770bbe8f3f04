"""The `just --lsp` suite: pytest-lsp drives the binary named by `$JUST_BIN`
(default: `target/debug/just` of this checkout) through every request it
serves. Run by the Rust test `lsp::pytest_lsp_suite`, or directly:
`JUST_BIN=target/debug/just python3 -m pytest tests/lsp`."""

import os
import pathlib
import re
import subprocess

import pytest
import pytest_lsp
from pygls.protocol import default_converter
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = pathlib.Path(__file__).resolve().parents[2]
JUST = os.environ.get("JUST_BIN", str(ROOT / "target" / "debug" / "just"))


def publish_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams):
    """pytest-lsp's handler, also keeping the version of each publication."""
    client.diagnostics[params.uri] = params.diagnostics
    client.diagnostic_versions[params.uri] = params.version


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.diagnostic_versions = {}
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish_diagnostics
    register_lsp_features(client, features)
    return client


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[JUST, "--lsp"], client_factory=make_client)
)
async def client(lsp_client: LanguageClient):
    lsp_client.init_result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities())
    )
    yield
    await lsp_client.shutdown_session()


def just_error(justfile: pathlib.Path):
    """What `just --summary` reports for `justfile`: message, path, 0-based
    line and column, and caret count."""
    result = subprocess.run(
        [JUST, "--justfile", str(justfile), "--summary", "--color", "never"],
        capture_output=True,
        text=True,
        cwd=justfile.parent,
    )
    assert result.returncode != 0, result
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: "), result.stderr
    message = lines[0][len("error: "):]
    arrow = next(line for line in lines if "——▶" in line)
    path, line, column = re.search(r"——▶ (.*):(\d+):(\d+)", arrow).groups()
    carets = max(len(re.findall(r"\^", line)) for line in lines)
    return message, justfile.parent / path, int(line) - 1, int(column) - 1, carets
