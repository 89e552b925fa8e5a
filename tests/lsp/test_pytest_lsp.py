"""pytest-lsp (PyPI) driving `skb lsp` over stdio, as a client built on
pygls and lsprotocol: the handshake (UTF-8 positions when offered),
diagnostics with validate's code and span on non-ASCII text, the quick-fix,
completion, hover, `skb.preview`, and shutdown. Run by .ci/run:

    SKB=target/debug/skb python -m pytest tests/lsp
"""

import os
import subprocess
import json
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

SKB = str(Path(os.environ.get("SKB", "target/debug/skb")).resolve())
TEXT = "---\nname: Café-Tools\ndescription: Crème brûlée 𝄞 recipes. Use when asked for a dessert.\n---\n# Desserts\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[SKB, "lsp", "--debounce", "0"]))
async def client(lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(
        t.InitializeParams(
            capabilities=t.ClientCapabilities(
                general=t.GeneralClientCapabilities(position_encodings=[t.PositionEncodingKind.Utf8, t.PositionEncodingKind.Utf16])
            ),
            initialization_options={"profile": "spec"},
        )
    )
    assert result.capabilities.position_encoding == t.PositionEncodingKind.Utf8
    assert list(result.capabilities.execute_command_provider.commands) == ["skb.preview"]
    yield
    await lsp_client.shutdown_session()


async def open_skill(client: LanguageClient, tmp_path: Path, folder: str, text: str) -> str:
    skill = tmp_path / folder
    skill.mkdir()
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    uri = (skill / "SKILL.md").as_uri()
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text))
    )
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


def validate(path: Path) -> list:
    out = subprocess.run([SKB, "validate", "--format", "json", str(path)], capture_output=True, text=True)
    return json.loads(out.stdout)["skills"][0]["diagnostics"]


async def test_diagnostics_match_validate_in_utf8_and_the_fix_clears_them(client: LanguageClient, tmp_path: Path):
    uri = await open_skill(client, tmp_path, "cafe-tools", TEXT)
    got = {d.code: d for d in client.diagnostics[uri]}
    assert "SK205" in got, client.diagnostics[uri]
    line = TEXT.splitlines()[1]
    for expected in validate(tmp_path / "cafe-tools"):
        if expected["code"] not in ("SK205", "SK208", "SK209"):
            continue
        d = got[expected["code"]]
        # validate's columns are characters; UTF-8 columns are bytes.
        to_bytes = lambda col: len(line[: col - 1].encode("utf-8"))
        assert (d.range.start.line, d.range.start.character) == (expected["line"] - 1, to_bytes(expected["column"]))
        assert (d.range.end.line, d.range.end.character) == (expected["end_line"] - 1, to_bytes(expected["end_column"]))
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=t.TextDocumentIdentifier(uri=uri),
            range=got["SK205"].range,
            context=t.CodeActionContext(diagnostics=[got["SK205"]]),
        )
    )
    titles = [a.title for a in actions]
    assert "Use `cafe-tools`" not in titles  # `é` is not the folder's `e`
    fix = next(a for a in actions if a.title == "Use `café-tools`")
    (edit,) = fix.edit.changes[uri]
    # The smallest edit, in UTF-8 columns: applied to the line's bytes.
    assert edit.range.start.line == edit.range.end.line == 1
    raw = line.encode("utf-8")
    new_line = raw[: edit.range.start.character] + edit.new_text.encode("utf-8") + raw[edit.range.end.character :]
    assert new_line.decode("utf-8") == "name: café-tools"
    fixed = TEXT.replace("Café-Tools", "café-tools")
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert "SK205" not in [d.code for d in client.diagnostics[uri]]


async def test_completion_hover_and_preview(client: LanguageClient, tmp_path: Path):
    text = "---\nname: pdf-tools\ndescription: Fills PDF forms. Use when asked to fill a PDF.\n\n---\nBody.\n"
    uri = await open_skill(client, tmp_path, "pdf-tools", text)
    items = await client.text_document_completion_async(
        t.CompletionParams(text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=3, character=0))
    )
    labels = [i.label for i in (items.items if hasattr(items, "items") else items)]
    assert "allowed-tools" in labels and "name" not in labels
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=1, character=9))
    )
    assert "How each client lists this skill" in hover.contents.value
    assert "`- pdf-tools: Fills PDF forms." in hover.contents.value
    preview = await client.workspace_execute_command_async(t.ExecuteCommandParams(command="skb.preview", arguments=[uri]))
    by_client = {c["client"]: c for c in preview["clients"]}
    assert len(by_client) == 7
    assert by_client["claude-code"]["activation"].startswith("Base directory for this skill: ")
    assert by_client["codex"]["entry"]
