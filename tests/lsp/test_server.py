"""End-to-end tests of `just --lsp` through pytest-lsp's client."""

import asyncio
import pathlib
import shutil
import subprocess

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import JUST, just_error


def open_document(client: LanguageClient, path: pathlib.Path, text=None, version=1):
    text = path.read_text() if text is None else text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="just", version=version, text=text
            )
        )
    )


async def diagnostics_for(client: LanguageClient, path: pathlib.Path, version=None):
    """Wait (with a deadline) until diagnostics for `path` (of `version`)
    have been published; return them."""
    uri = path.as_uri()

    async def wait():
        while True:
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if uri in client.diagnostics:
                if version is None or client.diagnostic_versions.get(uri) == version:
                    return client.diagnostics[uri]

    if uri in client.diagnostics:
        if version is None or client.diagnostic_versions.get(uri) == version:
            return client.diagnostics[uri]
    return await asyncio.wait_for(wait(), timeout=10)


async def test_initialize_announces_capabilities(client: LanguageClient):
    result = client.init_result
    assert result.server_info.name == "just"
    capabilities = result.capabilities
    assert capabilities.document_formatting_provider
    assert capabilities.completion_provider is not None
    assert capabilities.hover_provider
    assert list(capabilities.execute_command_provider.commands) == ["just.run"]


async def test_unknown_dependency_is_justs_error(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text("a: nosuch\n  echo a\n")
    message, path, line, column, carets = just_error(justfile)
    assert message.endswith("`a` has unknown dependency `nosuch`")
    open_document(client, justfile)
    diagnostics = await diagnostics_for(client, justfile)
    assert len(diagnostics) == 1
    diagnostic = diagnostics[0]
    assert diagnostic.message == message
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (line, column)
    assert diagnostic.range.end.character - diagnostic.range.start.character == carets


async def test_unsaved_text_is_checked_and_changes_update(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text("a:\n  echo a\n")
    open_document(client, justfile, text="a:\n  echo {{nope}}\n")
    unsaved = tmp_path / "unsaved" / "justfile"
    unsaved.parent.mkdir()
    unsaved.write_text("a:\n  echo {{nope}}\n")
    message, _, line, column, carets = just_error(unsaved)
    diagnostics = await diagnostics_for(client, justfile, version=1)
    assert [d.message for d in diagnostics] == [message]
    assert diagnostics[0].range.start == types.Position(line=line, character=column)
    # An edit that fixes it: `nope` → `'x'`, as an incremental change.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=justfile.as_uri(), version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=1, character=9),
                        end=types.Position(line=1, character=13),
                    ),
                    text="'x'",
                )
            ],
        )
    )
    diagnostics = await diagnostics_for(client, justfile, version=2)
    assert list(diagnostics) == []


async def test_error_in_import_is_published_for_the_import(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text("import 'other.just'\n\na:\n  echo a\n")
    other = tmp_path / "other.just"
    other.write_text("b:\n  echo {{missing}}\n")
    message, path, line, column, _ = just_error(justfile)
    assert path.resolve() == other.resolve()
    open_document(client, justfile)
    diagnostics = await diagnostics_for(client, other)
    assert [d.message for d in diagnostics] == [message]
    assert diagnostics[0].range.start == types.Position(line=line, character=column)
    # And at the line of the open file that imports it.
    diagnostics = await diagnostics_for(client, justfile)
    assert [(d.message, d.range.start.line, d.range.start.character) for d in diagnostics] == [
        (message, 0, 7)
    ]


async def test_error_in_module_is_published_for_the_module(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text("mod sub\n")
    (tmp_path / "sub").mkdir()
    module = tmp_path / "sub" / "justfile"
    module.write_text("x := 'a' +\n")
    message, path, line, column, _ = just_error(justfile)
    open_document(client, module)
    diagnostics = await diagnostics_for(client, module)
    assert [d.message for d in diagnostics] == [message]
    assert diagnostics[0].range.start == types.Position(line=line, character=column)


async def test_warnings_are_switchable_rules(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    text = "default:\n  echo hi\n\n_helper:\n  echo help\n\ngreet name other:\n  echo {{name}}\n"
    justfile.write_text(text)
    open_document(client, justfile)
    diagnostics = await diagnostics_for(client, justfile)
    found = sorted((d.code, d.message, d.range.start.line) for d in diagnostics)
    assert found == [
        ("unused-parameter", "parameter `other` of recipe `greet` is never used", 6),
        ("unused-private-recipe", "private recipe `_helper` is not used by any recipe or alias", 3),
    ]
    assert all(d.severity == types.DiagnosticSeverity.Warning for d in diagnostics)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"just": {"warnings": {"unused-parameter": False}}}
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert [d.code for d in client.diagnostics[justfile.as_uri()]] == ["unused-private-recipe"]


async def test_formatting_is_what_fmt_writes(client: LanguageClient, tmp_path):
    text = "set   quiet\nx:=   'a'\nb   :   a\n    echo {{  x  }}\na:\n\techo a\n"
    justfile = tmp_path / "justfile"
    justfile.write_text(text)
    copy = tmp_path / "copy" / "justfile"
    copy.parent.mkdir()
    copy.write_text(text)
    subprocess.run([JUST, "--justfile", str(copy), "--fmt"], check=True, capture_output=True)
    expected = copy.read_text()
    open_document(client, justfile)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert len(edits) == 1
    assert edits[0].new_text == expected
    assert edits[0].range.start == types.Position(line=0, character=0)
    assert edits[0].range.end == types.Position(line=6, character=0)


async def test_formatting_a_formatted_or_broken_file(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text("a:\n    echo a\n")
    open_document(client, justfile)
    params = types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True),
    )
    assert list(await client.text_document_formatting_async(params)) == []
    broken = tmp_path / "broken.just"
    broken.write_text("a: (\n")
    open_document(client, broken)
    params.text_document = types.TextDocumentIdentifier(uri=broken.as_uri())
    assert await client.text_document_formatting_async(params) is None


async def test_document_symbols_and_folding(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text(
        "version := '1'\n\n# Build it\n[group('dev')]\nbuild target:\n  echo {{target}}\n  echo done\n\n"
        "alias b := build\n\ntest:\n  echo test\n"
    )
    open_document(client, justfile)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()))
    )
    outline = [(s.name, s.kind, [c.name for c in s.children or []]) for s in symbols]
    assert outline == [
        ("version", types.SymbolKind.Variable, []),
        ("dev", types.SymbolKind.Namespace, ["build"]),
        ("b", types.SymbolKind.Constant, []),
        ("test", types.SymbolKind.Function, []),
    ]
    build = symbols[1].children[0]
    assert build.detail == "Build it"
    assert build.range.start.line == 3 and build.range.end.line == 6
    assert build.selection_range.start == types.Position(line=4, character=0)
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()))
    )
    assert [(f.start_line, f.end_line) for f in folds] == [(4, 6), (10, 11)]


async def test_unknown_requests_and_documents_are_errors(client: LanguageClient, tmp_path):
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException):
        await client.protocol.send_request_async("just/nosuch", {})
    missing = tmp_path / "missing" / "justfile"
    with pytest.raises(JsonRpcException):
        await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=missing.as_uri()))
        )


async def complete(client: LanguageClient, path: pathlib.Path, text: str):
    """Open `text` (with `|` marking the cursor) as `path`; complete there."""
    offset = text.index("|")
    text = text.replace("|", "")
    line = text[:offset].count("\n")
    character = len(text[:offset].split("\n")[-1])
    open_document(client, path, text=text)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=line, character=character),
        )
    )
    items = result.items if hasattr(result, "items") else result
    return {item.label: item for item in items}


async def test_completion_in_a_file_that_does_not_parse(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    # The last line is not valid yet: the file does not parse.
    items = await complete(
        client,
        justfile,
        "version := '1'\n\n# Build it\nbuild target:\n  echo {{target}}\n\nmod tools\n\ntest: |\n  echo {{\n",
    )
    assert set(items) == {"build", "tools::"}
    assert items["build"].documentation == "Build it"
    items = await complete(client, justfile, "version := '1'\nbuild target:\n  echo {{ | }}\n")
    assert {"target", "version", "env", "HEX", "uppercase"} <= set(items)
    assert "build" not in items
    assert items["uppercase"].kind == types.CompletionItemKind.Function
    items = await complete(client, justfile, "version := '1'\nbuild target:\n  echo {{ uppc| }}\n")
    assert "uppercase" in items and "uppercamelcase" in items and "HEX" not in items
    items = await complete(client, justfile, "build:\n  echo ta|\n")
    assert items == {}


async def test_recipe_completion_in_a_broken_file_and_module_paths(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    broken = "(((\n"
    for text in [
        f"build:\n\techo\ntest: bu|\n{broken}",
        f"build:\n\techo\nalias b := bu|\n{broken}",
        f"{broken}build:\r\n\techo\r\n[default]\r\ntest: a bu|\r\n",
        f"\ufeffbuild:\n\techo\ntest: bu|\n{broken}",
    ]:
        assert set(await complete(client, justfile, text)) == {"build"}, repr(text)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "mod.just").write_text("mod inner\ninstall:\n  echo\nlint:\n  echo\n")
    (tmp_path / "tools" / "inner.just").write_text("deep:\n  echo\n(((\n")
    root = f"mod tools\nbuild:\n\techo\n{broken}"
    assert set(await complete(client, justfile, root + "test: tools::|\n")) == {
        "install",
        "lint",
        "inner::",
    }
    assert set(await complete(client, justfile, root + "test: tools::ins|\n")) == {"install"}
    assert set(await complete(client, justfile, root + "alias d := tools::inner::|\n")) == {"deep"}
    assert await complete(client, justfile, root + "test: nowhere::|\n") == {}


async def test_completion_of_settings_attributes_and_paths(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    items = await complete(client, justfile, "set |")
    assert {"shell", "quiet", "dotenv-load", "working-directory"} <= set(items)
    items = await complete(client, justfile, "set quiet := |")
    assert set(items) == {"true", "false"}
    items = await complete(client, justfile, "[|\nbuild:\n")
    assert {"private", "group", "no-cd", "linux", "confirm"} <= set(items)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "lint.just").write_text("")
    (tmp_path / "other.just").write_text("")
    items = await complete(client, justfile, "import '|")
    assert {"tools/", "other.just"} <= set(items)
    items = await complete(client, justfile, "mod lint 'tools/|")
    assert set(items) == {"lint.just"}


async def hover_at(client: LanguageClient, path: pathlib.Path, text: str):
    offset = text.index("|")
    text = text.replace("|", "")
    line = text[:offset].count("\n")
    character = len(text[:offset].split("\n")[-1])
    open_document(client, path, text=text)
    return await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=line, character=character),
        )
    )


async def test_hover_on_a_recipe_is_its_help(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    text = "# Build the target\nbuild target='all' *flags:\n  echo {{target}}\n\ntest: bu|ild\n"
    clean = text.replace("|", "")
    justfile.write_text(clean)
    help_text = subprocess.run(
        [JUST, "--justfile", str(justfile), "--color", "never", "--help", "build"],
        capture_output=True,
        text=True,
    )
    hover = await hover_at(client, justfile, text)
    assert hover is not None
    assert hover.contents.value == "```\n" + help_text.stdout.rstrip("\n") + "\n```"
    assert "Build the target" in hover.contents.value


async def test_hover_on_vocabulary_and_variables(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    hover = await hover_at(client, justfile, "x := upp|ercase('a')\n")
    assert hover.contents.value.startswith("```\nuppercase(")
    hover = await hover_at(client, justfile, "set qu|iet\n")
    assert hover.contents.value.startswith("setting `quiet`")
    hover = await hover_at(client, justfile, "[priv|ate]\na:\n")
    assert hover.contents.value.startswith("attribute `[private]`")
    hover = await hover_at(client, justfile, "x := 'v'\na:\n  echo {{x|}} {{HEX}}\n")
    assert hover.contents.value == "```\nx := 'v'\n```"
    hover = await hover_at(client, justfile, "a:\n  echo {{HE|X}}\n")
    assert hover.contents.value.startswith("constant `HEX` = `\"0123456789abcdef\"`\n\n")
    hover = await hover_at(client, justfile, "a p:\n  echo {{|p}}\n")
    assert hover.contents.value == "parameter `p` of recipe `a`"



async def test_hover_shows_the_vocabularys_documentation(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    hover = await hover_at(client, justfile, "x := repl|ace('a-b', '-', '_')\n")
    signature, doc = hover.contents.value.split("\n\n", 1)
    assert signature == "```\nreplace(s, from, to)\n```"
    assert "every occurrence of `from` replaced by `to`" in doc
    hover = await hover_at(client, justfile, "set posit|ional-arguments\n")
    assert "`$1`" in hover.contents.value.split("\n\n", 1)[1]
    hover = await hover_at(client, justfile, "[confi|rm]\na:\n")
    assert "Asks for confirmation before running the recipe" in hover.contents.value
    hover = await hover_at(client, justfile, "a:\n  echo {{PATH_VAR|_SEP}}\n")
    assert "separator of the directories of `PATH`" in hover.contents.value
    # Completions carry the same prose.
    items = await complete(client, justfile, "x := |\n")
    assert (items["replace"].detail, items["replace"].documentation) == ("replace(s, from, to)", doc)
    items = await complete(client, justfile, "set |\n")
    assert "`$1`" in items["positional-arguments"].documentation

NAVIGATION = (
    "version := '1'\n"              # 0
    "\n"
    "build target=version: (dep target) lint\n"  # 2
    "  echo {{target}} {{version}} target version\n"  # 3
    "\n"
    "dep x y='':\n"                 # 5
    "  echo {{x}} {{version}}\n"    # 6
    "\n"
    "lint:\n"                       # 8
    "  echo lint\n"
    "\n"
    "alias l := lint\n"             # 11
)


def position_of(text: str, needle: str, skip=0):
    """The position of `needle` in `text`, `skip` characters into it."""
    index = text.index(needle) + skip
    line = text[:index].count("\n")
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


def spans(locations):
    return sorted((l.range.start.line, l.range.start.character, l.range.end.character) for l in locations)


async def test_definition_references_and_highlight(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text(NAVIGATION)
    open_document(client, justfile)
    doc = types.TextDocumentIdentifier(uri=justfile.as_uri())
    # `version` in a body interpolation → its assignment.
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position_of(NAVIGATION, "{{version}}", 2))
    )
    assert spans(found) == [(0, 0, 7)]
    # `lint` as a dependency → the recipe.
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position_of(NAVIGATION, "lint\n"))
    )
    assert spans(found) == [(8, 0, 4)]
    # References of the variable: not the shell text, not the parameter's name.
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc,
            position=position_of(NAVIGATION, "version"),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert spans(found) == [(0, 0, 7), (2, 13, 20), (3, 20, 27), (6, 15, 22)]
    # The parameter `target` of build: its definition, the dependency argument and the body.
    highlights = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=doc, position=position_of(NAVIGATION, "{{target}}", 2))
    )
    assert sorted((h.range.start.line, h.range.start.character) for h in highlights) == [(2, 6), (2, 27), (3, 9)]
    # Recipe references include the alias target.
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc,
            position=position_of(NAVIGATION, "lint:"),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert spans(found) == [(2, 35, 39), (11, 11, 15)]


async def test_definition_of_imports_and_modules(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    text = "import 'common.just'\nmod tools\n\nbuild: helper\n"
    justfile.write_text(text)
    (tmp_path / "common.just").write_text("# Help\nhelper:\n  echo help\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "mod.just").write_text("x:\n")
    open_document(client, justfile)
    doc = types.TextDocumentIdentifier(uri=justfile.as_uri())
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position_of(text, "helper"))
    )
    assert [(l.uri, l.range.start.line) for l in found] == [((tmp_path / "common.just").as_uri(), 1)]
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position_of(text, "tools"))
    )
    assert [l.uri for l in found] == [(tmp_path / "tools" / "mod.just").as_uri()]
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position_of(text, "common"))
    )
    assert [l.uri for l in found] == [(tmp_path / "common.just").as_uri()]


async def test_rename_and_its_refusals(client: LanguageClient, tmp_path):
    from pygls.exceptions import JsonRpcException

    justfile = tmp_path / "justfile"
    justfile.write_text(NAVIGATION)
    open_document(client, justfile)
    doc = types.TextDocumentIdentifier(uri=justfile.as_uri())
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc, position=position_of(NAVIGATION, "dep x"), new_name="prepare")
    )
    edits = edit.changes[justfile.as_uri()]
    assert sorted((e.range.start.line, e.range.start.character) for e in edits) == [(2, 23), (5, 0)]
    assert all(e.new_text == "prepare" for e in edits)
    # A name that is taken, a name that is not one, and a rename that would not compile.
    for position, new_name, reason in [
        (position_of(NAVIGATION, "dep x"), "lint", "already defined"),
        (position_of(NAVIGATION, "dep x"), "no way", "not a valid name"),
        (position_of(NAVIGATION, "{{x}}", 2), "y", "would not compile"),
        # The parameter would hide the variable `version` that dep's body reads.
        (position_of(NAVIGATION, "y=''"), "version", "would change what the name on line 7 of"),
        # A parameter of build would hide the renamed variable in build's body.
        (position_of(NAVIGATION, "version"), "target", "would change what the name on line"),
    ]:
        with pytest.raises(JsonRpcException) as error:
            await client.text_document_rename_async(
                types.RenameParams(text_document=doc, position=position, new_name=new_name)
            )
        assert reason in str(error.value), (new_name, str(error.value))


ROOT_TEXT = (
    "import 'common.just'\n"                 # 0
    "mod tools\n"                            # 1
    "\n"
    "version := '1'\n"                       # 3
    "\n"
    "build: helper tools::lint\n"            # 5
    "  echo {{version}}\n"                   # 6
    "\n"
    "setup:\n"                               # 8
    "  echo setup\n"
    "\n"
    "alias h := helper\n"                    # 11
    "alias tl := tools::lint\n"              # 12
)
COMMON_TEXT = "helper: setup\n  echo {{version}}\n"
TOOLS_TEXT = "lint:\n  echo lint\n\ncheck: lint\n"


def cross_file_project(tmp_path):
    """A root justfile, an import and a module; only the root is opened."""
    justfile = tmp_path / "justfile"
    justfile.write_text(ROOT_TEXT)
    common = tmp_path / "common.just"
    common.write_text(COMMON_TEXT)
    (tmp_path / "tools").mkdir()
    tools = tmp_path / "tools" / "mod.just"
    tools.write_text(TOOLS_TEXT)
    return justfile, common, tools


def places(locations):
    return sorted((pathlib.Path(l.uri.removeprefix("file://")).name, l.range.start.line, l.range.start.character)
                  for l in locations)


async def references_at(client, path, position, include=True):
    return await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=position,
            context=types.ReferenceContext(include_declaration=include),
        )
    )


async def test_references_and_definition_cross_imports_and_modules(client: LanguageClient, tmp_path):
    justfile, common, tools = cross_file_project(tmp_path)
    open_document(client, justfile)
    # A recipe of the import, used in the root as a dependency and an alias target.
    found = await references_at(client, justfile, position_of(ROOT_TEXT, "helper"))
    assert places(found) == [("common.just", 0, 0), ("justfile", 5, 7), ("justfile", 11, 11)]
    # A recipe of the root used in the import (not open: read from disk).
    found = await references_at(client, justfile, position_of(ROOT_TEXT, "setup:"), include=False)
    assert places(found) == [("common.just", 0, 8)]
    # A variable of the root read in the import.
    found = await references_at(client, justfile, position_of(ROOT_TEXT, "version"))
    assert places(found) == [("common.just", 1, 9), ("justfile", 3, 0), ("justfile", 6, 9)]
    # A module's recipe through `tools::lint` paths, and inside the module.
    found = await references_at(client, justfile, position_of(ROOT_TEXT, "tools::lint", 8))
    assert places(found) == [("justfile", 5, 21), ("justfile", 12, 19), ("mod.just", 0, 0), ("mod.just", 3, 7)]
    # Definitions land in the other file.
    doc = types.TextDocumentIdentifier(uri=justfile.as_uri())
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position_of(ROOT_TEXT, "tools::lint", 8))
    )
    assert [(l.uri, l.range.start.line) for l in found] == [(tools.as_uri(), 0)]
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=position_of(ROOT_TEXT, "tools::lint", 1))
    )
    assert [l.uri for l in found] == [tools.as_uri()]
    open_document(client, common)
    found = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=common.as_uri()),
            position=position_of(COMMON_TEXT, "version"),
        )
    )
    assert [(l.uri, l.range.start.line) for l in found] == [(justfile.as_uri(), 3)]
    # Highlight stays in the document, whatever file defines the name.
    highlights = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(
            text_document=types.TextDocumentIdentifier(uri=common.as_uri()),
            position=position_of(COMMON_TEXT, "version"),
        )
    )
    assert [(h.range.start.line, h.range.start.character) for h in highlights] == [(1, 9)]


async def test_rename_edits_every_file_or_is_refused(client: LanguageClient, tmp_path):
    from pygls.exceptions import JsonRpcException

    justfile, common, tools = cross_file_project(tmp_path)
    open_document(client, justfile)
    doc = types.TextDocumentIdentifier(uri=justfile.as_uri())
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc, position=position_of(ROOT_TEXT, "helper"), new_name="assist")
    )
    assert {uri: sorted((e.range.start.line, e.range.start.character, e.new_text) for e in edits)
            for uri, edits in edit.changes.items()} == {
        justfile.as_uri(): [(5, 7, "assist"), (11, 11, "assist")],
        common.as_uri(): [(0, 0, "assist")],
    }
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc, position=position_of(ROOT_TEXT, "tools::lint", 8), new_name="vet")
    )
    assert {uri: sorted((e.range.start.line, e.range.start.character) for e in edits)
            for uri, edits in edit.changes.items()} == {
        justfile.as_uri(): [(5, 21), (12, 19)],
        tools.as_uri(): [(0, 0), (3, 7)],
    }
    # A module's recipe may take a name of the root: another scope.
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc, position=position_of(ROOT_TEXT, "tools::lint", 8), new_name="setup")
    )
    assert set(edit.changes) == {justfile.as_uri(), tools.as_uri()}
    for position, new_name, reason in [
        # `setup` is a recipe of the root, `helper` one of the import: one scope.
        (position_of(ROOT_TEXT, "helper"), "setup", "`setup` is already defined"),
        # Recipes and modules share their names.
        (position_of(ROOT_TEXT, "setup:"), "tools", "`tools` is already defined"),
        (position_of(ROOT_TEXT, "tools::lint", 8), "check", "`check` is already defined"),
        (position_of(ROOT_TEXT, "helper"), "2x", "`2x` is not a valid name"),
        (position_of(ROOT_TEXT, "mod tools", 4), "kit", "renaming a module"),
    ]:
        with pytest.raises(JsonRpcException) as error:
            await client.text_document_rename_async(
                types.RenameParams(text_document=doc, position=position, new_name=new_name)
            )
        assert reason in str(error.value), (new_name, str(error.value))


async def test_navigation_with_a_missing_import_stays_in_the_file(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    text = "import 'nowhere.just'\n\nbuild: lint\n\nlint:\n"
    justfile.write_text(text)
    open_document(client, justfile)
    found = await references_at(client, justfile, position_of(text, "lint:"))
    assert places(found) == [("justfile", 2, 7), ("justfile", 4, 0)]


async def test_workspace_symbols_reach_imports_and_modules(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text("import 'common.just'\nmod tools\n\nbuild:\n  echo\n")
    (tmp_path / "common.just").write_text("build-docs:\n  echo\n")
    (tmp_path / "tools.just").write_text("build-tools:\n  echo\n")
    open_document(client, justfile)
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="build"))
    assert sorted((s.name, pathlib.Path(s.location.uri.removeprefix("file://")).name) for s in found) == [
        ("build", "justfile"),
        ("build-docs", "common.just"),
        ("build-tools", "tools.just"),
    ]


async def test_semantic_tokens(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    text = "# c\nset quiet\nx := 'v'\n[private]\nb p: a\n  echo {{p}} {{x}}\na:\n"
    open_document(client, justfile, text=text)
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()))
    )
    legend = client.init_result.capabilities.semantic_tokens_provider.legend.token_types
    decoded, line, character = [], 0, 0
    data = result.data
    for index in range(0, len(data), 5):
        delta_line, delta_start, length, kind, _ = data[index : index + 5]
        line += delta_line
        character = delta_start if delta_line else character + delta_start
        lines = text.split("\n")
        decoded.append((lines[line][character : character + length], legend[kind]))
    assert decoded == [
        ("# c", "comment"),
        ("set", "keyword"),
        ("quiet", "property"),
        ("x", "variable"),
        ("'v'", "string"),
        ("private", "decorator"),
        ("b", "function"),
        ("p", "parameter"),
        ("a", "function"),
        ("p", "parameter"),
        ("x", "variable"),
        ("a", "function"),
    ]


async def test_signature_help(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    text = "f(a, b) := a + b\nx := replace('abc', 'b', \nbuild target mode:\n  echo\ny := f('1', \ntest: (build 'a' \n"
    open_document(client, justfile, text=text)

    async def at(line, character):
        return await client.text_document_signature_help_async(
            types.SignatureHelpParams(
                text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()),
                position=types.Position(line=line, character=character),
            )
        )

    help = await at(1, 25)
    assert (help.signatures[0].label, help.active_parameter) == ("replace(s, from, to)", 2)
    assert "replaced by `to`" in help.signatures[0].documentation
    help = await at(4, 12)
    assert (help.signatures[0].label, help.active_parameter) == ("f(a, b)", 1)
    help = await at(5, 17)
    assert (help.signatures[0].label, help.active_parameter) == ("build target mode", 1)


async def test_code_lens_runs_a_recipe_through_just(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text("greet who='world':\n  echo hello {{who}}\n\nneeds arg:\n  echo {{arg}}\n")
    open_document(client, justfile)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()))
    )
    assert [(lens.range.start.line, lens.command.title) for lens in lenses] == [(0, "▶ run greet")]
    command = lenses[0].command
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    )
    expected = subprocess.run([JUST, "--justfile", str(justfile), "greet"], capture_output=True, text=True)
    assert result == {"status": 0, "stdout": expected.stdout, "stderr": expected.stderr}
    assert result["stdout"] == "hello world\n"


async def test_completion_limit_counts_only_what_it_answers(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    variables = "".join(f"v{index} := '{index}'\n" for index in range(1500))
    recipes = "".join(f"r{index}:\n" for index in range(1200))
    items = await complete(client, justfile, variables + recipes + "test: |\n")
    assert len(items) == 1000 and all(label.startswith("r") for label in items)
    items = await complete(client, justfile, variables + recipes + "test: r119|\n")
    # The typed characters in order: r119, r1019, r1119 … but not r2.
    assert {"r119", "r1019", "r1195"} <= set(items) and "r2" not in items and len(items) < 100
