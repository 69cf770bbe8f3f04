"""`just --lsp` in the situations an editor meets while a justfile is
edited: files that import others, documents that stop parsing, files that
change on disk, quick fixes, links and hints."""

import pathlib
import subprocess

from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import JUST, just_error

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


async def test_hover_on_module_paths_parameters_and_optional_modules(client: LanguageClient, tmp_path):
    (tmp_path / "docker.just").write_text("# Push the image\npush tag:\n  echo {{tag}}\n")
    justfile = tmp_path / "justfile"
    text = "mod docker\n\ndeploy: (docker::pu|sh 'v1')\n"
    justfile.write_text(text.replace("|", ""))
    help_text = subprocess.run(
        [JUST, "--justfile", str(justfile), "--color", "never", "--help", "docker::push"],
        capture_output=True,
        text=True,
    )
    assert "Push the image" in help_text.stdout
    hover = await hover_at(client, justfile, text)
    assert hover.contents.value == "```\n" + help_text.stdout.rstrip("\n") + "\n```"
    # `clean` is not a recipe of `docker`: not the built-in `clean(path)`.
    hover = await hover_at(client, justfile, "mod docker\n\ndeploy: docker::cle|an\n")
    assert hover is None
    hover = await hover_at(
        client, justfile, "build target='all' $mode=(\"fast\" + 'er') *flags:\n  echo {{tar|get}}\n"
    )
    assert hover.contents.value == "parameter `target` of recipe `build`, default `'all'`"
    hover = await hover_at(
        client, justfile, "build target='all' $mode=(\"fast\" + 'er') *flags:\n  echo {{mo|de}}\n"
    )
    assert hover.contents.value == "parameter `mode` of recipe `build`, default `(\"fast\" + 'er')`"
    hover = await hover_at(client, justfile, "build target = 'x' fl|ags:\n  echo\n")
    assert hover.contents.value == "parameter `flags` of recipe `build`"
    hover = await hover_at(client, justfile, "mod? doc|ker\n")
    assert hover.contents.value == "```\nmod? docker\n```"


async def test_a_document_that_does_not_parse_keeps_its_outline(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    # The last recipe's dependency list is being typed: the file does not parse.
    text = "version := '1'\n\n# Build it\nbuild target:\n  echo {{target}}\n\n  echo done\n\nmod tools\n\ntest: (build\n  echo test\n"
    open_document(client, justfile, text=text)
    document = types.TextDocumentIdentifier(uri=justfile.as_uri())
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=document)
    )
    assert [(s.name, s.kind, s.selection_range.start.line) for s in symbols] == [
        ("version", types.SymbolKind.Variable, 0),
        ("build", types.SymbolKind.Function, 3),
        ("tools", types.SymbolKind.Module, 8),
        ("test", types.SymbolKind.Function, 10),
    ]
    assert symbols[1].detail == "Build it"
    assert (symbols[1].range.start.line, symbols[1].range.end.line) == (3, 6)
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=document)
    )
    assert [(f.start_line, f.end_line) for f in folds] == [(3, 6), (10, 11)]


async def test_an_import_changed_on_disk_is_checked_again(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    justfile.write_text("# Tools\nimport 'other.just'\n\na: b\n  echo a\n")
    other = tmp_path / "other.just"
    other.write_text("b:\n  echo b\n")
    open_document(client, justfile)
    assert list(await diagnostics_for(client, justfile, version=1)) == []
    other.write_text("b:\n  echo {{missing}}\n")
    message, _, line, column, _ = just_error(justfile)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=other.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    diagnostics = await diagnostics_for(client, other)
    assert [(d.message, d.range.start.line, d.range.start.character) for d in diagnostics] == [
        (message, line, column)
    ]
    # In the open file, at the line that imports it.
    diagnostics = client.diagnostics[justfile.as_uri()]
    assert [(d.message, d.range.start.line, d.range.start.character) for d in diagnostics] == [
        (message, 1, 7)
    ]
    assert diagnostics[0].severity == types.DiagnosticSeverity.Error
    assert diagnostics[0].related_information[0].location.uri == other.as_uri()


async def test_syntax_errors_at_the_end_of_the_file_are_where_just_says(client: LanguageClient, tmp_path):
    texts = [
        "a:\n  echo a\nx := ",
        "a:\n  echo a\nx := \n",
        "x := (",
        "x := (\n",
        "x := (\n\n",
        "a: (b\n",
        "a:\n  echo {{\n",
        "a:\n  echo {{",
        "x := 'a' +",
        "x := 'a' +\n  ",
        "[group(\n",
        "set shell := ['a',\n",
        "if",
        "\tx := 'a'\n",
        "x := \"abc",
        "x := '''\n",
        "a:\n\techo\n  echo\n",
    ]
    for index, text in enumerate(texts):
        justfile = tmp_path / str(index) / "justfile"
        justfile.parent.mkdir()
        justfile.write_text(text)
        message, _, line, column, carets = just_error(justfile)
        open_document(client, justfile)
        diagnostics = await diagnostics_for(client, justfile, version=1)
        found = [(d.message, d.range.start.line, d.range.start.character) for d in diagnostics]
        assert found == [(message, line, column)], repr(text)


async def quick_fixes(client: LanguageClient, path: pathlib.Path, text: str):
    """Open `text` as `path`; the quick fixes of its diagnostics, as
    (title, replaced text, new text)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    open_document(client, path, text=text)
    diagnostics = list(await diagnostics_for(client, path, version=1))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    lines = text.split("\n")
    fixes = []
    for action in actions:
        assert action.kind == types.CodeActionKind.QuickFix
        (edit,) = action.edit.changes[path.as_uri()]
        assert edit.range.start.line == edit.range.end.line
        line = lines[edit.range.start.line]
        fixes.append((action.title, line[edit.range.start.character:edit.range.end.character], edit.new_text))
    return diagnostics, fixes


async def test_quick_fixes_change_unknown_names_to_the_nearest(client: LanguageClient, tmp_path):
    cases = [
        ("[privat]\na:\n  echo a\n", ("privat", "private")),
        ("set quite\n\na:\n  echo a\n", ("quite", "quiet")),
        ("a:\n  echo {{uppercas('x')}}\n", ("uppercas", "uppercase")),
        ("a: bilud\n\nbuild:\n  echo b\n", ("bilud", "build")),
        ("alias b := bild\n\nbuild:\n  echo b\n", ("bild", "build")),
        ("a target:\n  echo {{targt}}\n", ("targt", "target")),
    ]
    for index, (text, (old, new)) in enumerate(cases):
        _, fixes = await quick_fixes(client, tmp_path / str(index) / "justfile", text)
        assert fixes == [(f"Change `{old}` to `{new}`", old, new)], text
    # Nothing near: no fix.
    _, fixes = await quick_fixes(client, tmp_path / "far" / "justfile", "a: zzzzzz\n\nbuild:\n  echo b\n")
    assert fixes == []


async def test_warnings_for_unused_variables_and_deprecated_forms(client: LanguageClient, tmp_path):
    text = (
        "set windows-powershell\n"
        "used := 'u'\n"
        "unused := 'x'\n"
        "export exported := 'e'\n"
        "\n"
        "a:\n"
        "  echo {{used}} {{env_var('HOME')}} {{env_var_or_default('A', 'b')}}\n"
    )
    diagnostics, fixes = await quick_fixes(client, tmp_path / "justfile", text)
    found = sorted((d.range.start.line, d.range.start.character, d.code, d.message) for d in diagnostics)
    assert found == [
        (0, 4, "deprecated-setting",
         "`windows-powershell` is deprecated: use `set windows-shell := ['powershell.exe', '-NoLogo', '-Command']`"),
        (2, 0, "unused-variable", "variable `unused` is never used"),
        (6, 18, "deprecated-function", "`env_var` is deprecated: use `env`"),
        (6, 38, "deprecated-function", "`env_var_or_default` is deprecated: use `env`"),
    ]
    assert all(d.severity == types.DiagnosticSeverity.Warning for d in diagnostics)
    assert sorted(fixes) == [
        ("Change `env_var_or_default` to `env`", "env_var_or_default", "env"),
        ("Change `env_var` to `env`", "env_var", "env"),
    ]


async def test_warnings_beside_an_error(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    text = "a: nosuch\n  echo a\n\ngreet name:\n  echo hi\n"
    justfile.write_text(text)
    message, *_ = just_error(justfile)
    open_document(client, justfile)
    diagnostics = await diagnostics_for(client, justfile, version=1)
    found = sorted((d.range.start.line, d.severity, d.message) for d in diagnostics)
    assert found == [
        (0, types.DiagnosticSeverity.Error, message),
        (3, types.DiagnosticSeverity.Warning, "parameter `name` of recipe `greet` is never used"),
    ]


async def test_document_links_of_imports_and_modules(client: LanguageClient, tmp_path):
    (tmp_path / "other.just").write_text("b:\n  echo b\n")
    (tmp_path / "tools.just").write_text("t:\n  echo t\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mod.just").write_text("s:\n  echo s\n")
    justfile = tmp_path / "justfile"
    text = "import 'other.just'\nimport? 'missing.just'\nmod tools\nmod? sub \"sub\"\n\na:\n  echo a\n"
    open_document(client, justfile, text=text)
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()))
    )
    found = [
        (l.range.start.line, l.range.start.character, l.range.end.character, l.target) for l in links
    ]
    assert found == [
        (0, 7, 19, (tmp_path / "other.just").as_uri()),
        (2, 4, 9, (tmp_path / "tools.just").as_uri()),
        (3, 9, 14, (tmp_path / "sub" / "mod.just").as_uri()),
    ]


async def test_env_names_complete_from_the_environment_and_dotenv_file(client: LanguageClient, tmp_path):
    (tmp_path / ".env").write_text("FROM_DOTENV=1\nexport ALSO_DOTENV=2\n")
    (tmp_path / "custom.env").write_text("FROM_CUSTOM=1\n")
    justfile = tmp_path / "justfile"
    items = await complete(client, justfile, "a:\n  echo {{env('|')}}\n")
    assert items["FROM_DOTENV"].detail == "from `.env`"
    assert items["ALSO_DOTENV"].detail == "from `.env`"
    assert items["PATH"].detail == "environment variable"
    assert "FROM_CUSTOM" not in items and "uppercase" not in items
    items = await complete(client, justfile, "set dotenv-filename := 'custom.env'\nx := env_var_or_default(\"FROM_C|\n")
    assert items["FROM_CUSTOM"].detail == "from `custom.env`"
    assert "FROM_DOTENV" not in items and "PATH" not in items


async def test_inlay_hints_show_constant_values(client: LanguageClient, tmp_path):
    justfile = tmp_path / "justfile"
    text = (
        "root := '/srv'\n"
        "bin := root / 'bin'\n"
        "flags := if root == '/srv' { '-x' } else { '' }\n"
        "now := `date`\n"
        "home := env('HOME')\n"
        "\n"
        "a:\n  echo {{bin}} {{flags}} {{now}} {{home}}\n"
    )
    justfile.write_text(text)
    open_document(client, justfile)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=justfile.as_uri()),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=9, character=0)),
        )
    )
    found = [(h.position.line, h.position.character, h.label) for h in hints]
    assert found == [(1, 19, '= "/srv/bin"'), (2, 47, '= "-x"')]


async def test_imports_of_a_fifo_and_of_standard_input_never_block(client: LanguageClient, tmp_path):
    import os

    fifo = tmp_path / "pipe.just"
    os.mkfifo(fifo)
    for target in [fifo, pathlib.Path("/dev/stdin")]:
        folder = tmp_path / target.name.replace(".", "_")
        folder.mkdir()
        justfile = folder / "justfile"
        text = f"import '{target}'\nmod m '{target}'\n\na:\n  echo {{{{ env('|') }}}}\n"
        justfile.write_text(text.replace("|", ""))
        message, *_ = just_error(justfile)
        items = await complete(client, justfile, text)
        assert "PATH" in items
        diagnostics = await diagnostics_for(client, justfile, version=1)
        assert [d.message for d in diagnostics] == [message]
        document = types.TextDocumentIdentifier(uri=justfile.as_uri())
        await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document))
        await client.text_document_document_link_async(types.DocumentLinkParams(text_document=document))
        await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="a"))
        hover = await hover_at(client, justfile, text.replace("echo", "ec|ho").replace("|'", "'"))
        assert hover is None


async def test_an_imported_file_that_is_not_a_justfile_defines_nothing(client: LanguageClient, tmp_path):
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n")
    justfile = tmp_path / "justfile"
    text = f"import? '{passwd}'\n\nbuild:\n  echo b\n\ntest: |\n"
    items = await complete(client, justfile, text)
    assert set(items) == {"build"}
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert sorted(s.name for s in symbols) == ["build", "test"]
