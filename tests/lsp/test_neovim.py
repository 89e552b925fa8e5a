"""Neovim (Debian's 0.7.2, headless) as a real client of `skb lsp`: the
diagnostic for a bad name has the code and span `skb validate` gives, the
quick-fix applied by Neovim's own code clears it, and the hover on a key
names every client. Run by .ci/run:

    SKB=target/debug/skb python -m pytest tests/lsp
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SKB = os.environ.get("SKB", "target/debug/skb")
BAD = "---\nname: PDF-Tools\ndescription: Fills PDF forms. Use when the user asks to fill a PDF.\n---\n# PDF\nFill the form.\n"


def run_neovim(skill_md: Path, out: Path, edits: int = 0) -> dict:
    env = dict(os.environ, SKB=str(Path(SKB).resolve()), SKILL_MD=str(skill_md), OUT=str(out), EDITS=str(edits))
    subprocess.run(
        ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {HERE / 'neovim.lua'}"],
        env=env, check=True, timeout=600, stdin=subprocess.DEVNULL,
    )
    return json.loads(out.read_text())


def test_neovim_sees_validate_diagnostic_applies_fix_and_hovers(tmp_path):
    if shutil.which("nvim") is None:
        # The acceptance tier (CI) fails naming what is missing.
        if os.environ.get("SKILLS_ACCEPTANCE"):
            pytest.fail("nvim is not installed (apt-get install neovim)")
        pytest.skip("nvim is not installed (apt-get install neovim)")
    skill = tmp_path / "pdf-tools"
    skill.mkdir()
    (skill / "SKILL.md").write_text(BAD)
    result = run_neovim(skill / "SKILL.md", tmp_path / "out.json")
    assert result["errors"] == [], result["errors"]
    validate = subprocess.run([SKB, "validate", "--format", "json", str(skill)], capture_output=True, text=True)
    expected = next(d for d in json.loads(validate.stdout)["skills"][0]["diagnostics"] if d["code"] == "SK205")
    got = next(d for d in result["before"] if d["code"] == "SK205")
    assert got["source"] == "skb validate"
    assert result["shown"] == len(result["before"])
    assert got["range"] == {
        "start": {"line": expected["line"] - 1, "character": expected["column"] - 1},
        "end": {"line": expected["end_line"] - 1, "character": expected["end_column"] - 1},
    }
    assert result["applied"] == "Use `pdf-tools`"
    assert result["line"] == "name: pdf-tools"
    assert "SK205" not in [d["code"] for d in result["after"]]
    hover = result["hover"]
    assert hover.startswith("**`description`**"), hover
    for client in ["Claude Code", "Codex", "Gemini CLI", "OpenCode", "GitHub Copilot CLI", "Qwen Code", "Kimi Code"]:
        assert f"- **{client}**" in hover, hover
