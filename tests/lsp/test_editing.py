"""`just --lsp` in the situations an editor meets while a justfile is
edited: files that import others, documents that stop parsing, files that
change on disk, quick fixes, links and hints."""

import pathlib

from lsprotocol import types
from pytest_lsp import LanguageClient

from test_server import complete, diagnostics_for, hover_at, open_document


async def test_completion_in_a_file_that_imports_another(client: LanguageClient, tmp_path):
    # The imported file's recipes sit on lines of their own file: they are
    # not taken for the recipe the cursor is in.
    (tmp_path / "other.just").write_text("\n\n\n\n\nimported:\n  echo imported\n")
    justfile = tmp_path / "justfile"
    text = "import 'other.just'\n\nversion := '1'\n\nbuild target:\n  echo {{ | }}\n\ntest: build\n"
    items = await complete(client, justfile, text)
    assert {"target", "version", "uppercase"} <= set(items)
    text = "import 'other.just'\n\nbuild:\n  echo build\n\ntest: |\n"
    items = await complete(client, justfile, text)
    assert {"build", "imported"} <= set(items)
    assert "test" not in items
