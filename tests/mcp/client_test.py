#!/usr/bin/env python3
"""`skb serve` driven by the official MCP Python SDK (PyPI `mcp`) as the client.

    client_test.py SKILLS_BIN examples SKILLS_DIR
    client_test.py SKILLS_BIN signed-pack SKILLS_DIR
    client_test.py SKILLS_BIN corpus EXPECTED_SKILLS -- SERVE_ARGS...

`examples` serves SKILLS_DIR (the repository's `skills/`) over stdio and
checks everything a client sees, exactly: initialisation and instructions,
the three tools and their enum, every file as a resource (sizes and bytes
against the files on disk), the template, the prompts and `$ARGUMENTS`, the
skills extension (`skills/list`, `skills/get`, with each file's digest
checked), activation, a read, the calculator script, and the errors (a path
outside the skill, an unknown skill, a disallowed tool, an unknown tool),
each an MCP error or an `isError` result, with a ping answered after each.

`signed-pack` makes a key pair with `skb keygen` and a pack of SKILLS_DIR
with `skb pack --sign` in a temporary directory, runs the same checks on
the pack served with `--pubkey`, and checks that another key makes
`skb serve` exit 1 before anything is written to stdout.

`corpus` serves SERVE_ARGS (say the shared corpus's collections with
`--profile claude-code`), checks that EXPECTED_SKILLS skills are listed
(tools' enum, `skills/list`, prompts at most that), that every file of the
`skills/list` manifests is a resource, and reads every skill's SKILL.md,
checking its size and SHA-256 against the manifest.

One line per check; exit status 0 when every check passed, 1 otherwise.
Needs Python 3.10+ and `mcp` (tested with 2.3.0).
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

import anyio
from pydantic import BaseModel, ConfigDict

import mcp.types as types
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

TOOLS = ["activate_skill", "read_skill_resource", "run_skill_script"]
EXTENSION = "io.modelcontextprotocol/skills"
TIMEOUT = 60.0


# -- the skills extension (SEP-2640): not in the SDK, sent as custom requests


class ListSkillsRequest(types.PaginatedRequest[Literal["skills/list"]]):
    method: Literal["skills/list"] = "skills/list"


class GetSkillParams(types.RequestParams):
    uri: str


class GetSkillRequest(types.Request[GetSkillParams, Literal["skills/get"]]):
    method: Literal["skills/get"] = "skills/get"


class Loose(BaseModel):
    """Any result object, kept as sent."""

    model_config = ConfigDict(extra="allow")


# -- reporting


class Checks:
    def __init__(self, label: str) -> None:
        self.label = label
        self.passed = 0
        self.failed = 0

    def ok(self, condition: bool, what: str, detail: Any = "") -> bool:
        if condition:
            self.passed += 1
            print(f"  ok    {what}", flush=True)
        else:
            self.failed += 1
            text = str(detail)
            if len(text) > 600:
                text = text[:600] + "..."
            print(f"  FAIL  {what}" + (f": {text}" if text else ""), flush=True)
        return condition

    def summary(self) -> str:
        return f"{self.label}: {self.passed} passed, {self.failed} failed"


# -- helpers


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def content_bytes(contents: Any) -> bytes:
    if isinstance(contents, types.TextResourceContents):
        return contents.text.encode("utf-8")
    return base64.b64decode(contents.blob)


def text_of(result: types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, types.TextContent))


def expected_skills(root: Path) -> dict[str, Path]:
    """Skill name -> directory, as the bundle names them: a plugin's skills
    (`<plugin>/skills/<skill>` beside `.claude-plugin/plugin.json`) as
    `plugin:skill`. Enough for the repository's `skills/`."""
    found: dict[str, Path] = {}
    for skill_md in sorted(root.rglob("SKILL.md")):
        directory = skill_md.parent
        rel = directory.relative_to(root).parts
        if len(rel) == 3 and rel[1] == "skills" and (root / rel[0] / ".claude-plugin/plugin.json").is_file():
            found[f"{rel[0]}:{rel[2]}"] = directory
        elif len(rel) == 1:
            found[rel[0]] = directory
    return found


def uri_of(name: str, path: str) -> str:
    return "skill://" + "/".join(name.split(":")) + "/" + path


async def list_all(session: ClientSession, method: str, field: str) -> list[Any]:
    items: list[Any] = []
    cursor = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await getattr(session, method)(params=params)
        items.extend(getattr(page, field))
        cursor = page.next_cursor
        if not cursor:
            return items


async def list_skills(session: ClientSession) -> list[dict[str, Any]]:
    skills: list[dict[str, Any]] = []
    cursor = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = (await session.send_request(ListSkillsRequest(params=params), Loose)).model_dump()
        skills.extend(page["skills"])
        cursor = page.get("nextCursor") or page.get("next_cursor")
        if not cursor:
            return skills


# The server's stderr (validation warnings, its start line): kept, shown on failure.
SERVER_LOG = tempfile.TemporaryFile(mode="w+")


async def expect_error(c: Checks, what: str, coroutine: Any, codes: tuple[int, ...], needle: str) -> None:
    try:
        result = await coroutine
    except MCPError as e:
        c.ok(e.code in codes and needle in e.message, f"{what} -> MCP error {e.code}", f"{e.code} {e.message!r}")
        return
    c.ok(False, f"{what} -> MCP error", f"answered {result!r}")


async def expect_tool_error(c: Checks, session: ClientSession, what: str, tool: str, args: dict, needle: str) -> None:
    try:
        result = await session.call_tool(tool, args)
    except MCPError as e:
        c.ok(False, f"{what} -> isError result", f"JSON-RPC error {e.code} {e.message!r}")
        return
    text = text_of(result)
    c.ok(result.is_error is True and needle in text, f"{what} -> isError: {text[:110]!r}", text)


async def still_answers(c: Checks, session: ClientSession, after: str) -> None:
    try:
        await session.send_ping()
        c.ok(True, f"server still answers after {after}")
    except Exception as e:  # noqa: BLE001 - any failure is the finding
        c.ok(False, f"server still answers after {after}", repr(e))


def server(bin_path: str, args: list[str], cache: str) -> StdioServerParameters:
    return StdioServerParameters(command=bin_path, args=["serve", *args, "--cache", cache])


# -- scenarios


async def examples(c: Checks, bin_path: str, serve_args: list[str], skills_dir: Path) -> None:
    expected = expected_skills(skills_dir)
    names = list(expected)
    files = {
        uri_of(name, p.relative_to(d).as_posix()): p
        for name, d in expected.items()
        for p in sorted(d.rglob("*"))
        if p.is_file()
    }
    with tempfile.TemporaryDirectory() as cache:
        async with stdio_client(server(bin_path, serve_args, cache), errlog=SERVER_LOG) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                c.ok(init.server_info.name == "skills", f"initialize: server {init.server_info.name} {init.server_info.version}, protocol {init.protocol_version}")
                caps = init.capabilities
                c.ok(caps.tools is not None and caps.resources is not None and caps.prompts is not None, "capabilities: tools, resources, prompts")
                c.ok(EXTENSION in (caps.extensions or {}), f"capabilities: extension {EXTENSION}", caps.extensions)
                instructions = init.instructions or ""
                c.ok("<available_skills>" in instructions and all(f"<name>\n{n}\n</name>" in instructions for n in names),
                     "instructions: <available_skills> naming every skill", instructions[:300])

                tools = await list_all(session, "list_tools", "tools")
                c.ok([t.name for t in tools] == TOOLS, f"tools/list: {[t.name for t in tools]}")
                for tool in tools:
                    prop = "name" if tool.name == "activate_skill" else "skill"
                    enum = tool.input_schema.get("properties", {}).get(prop, {}).get("enum")
                    c.ok(enum == names, f"{tool.name}: `{prop}` enum is the {len(names)} skills", enum)

                resources = await list_all(session, "list_resources", "resources")
                listed = {r.uri: r for r in resources}
                c.ok(sorted(listed) == sorted(files), f"resources/list: every file, {len(files)} resources",
                     sorted(set(listed) ^ set(files)))
                sizes = [uri for uri, p in files.items() if uri in listed and listed[uri].size != p.stat().st_size]
                c.ok(not sizes, "resources/list: every size is the file's", sizes)
                mimes = {listed[u].mime_type for u in listed if u.endswith(".py")}
                c.ok(mimes == {"text/x-python"}, "resources/list: .py is text/x-python", mimes)
                wrong = []
                for uri, path in files.items():
                    got = await session.read_resource(uri)
                    if len(got.contents) != 1 or content_bytes(got.contents[0]) != path.read_bytes():
                        wrong.append(uri)
                c.ok(not wrong, f"resources/read: all {len(files)} files byte-identical to disk", wrong)

                templates = await list_all(session, "list_resource_templates", "resource_templates")
                c.ok([t.uri_template for t in templates] == ["skill://{name}/{+path}"],
                     f"resources/templates/list: {[t.uri_template for t in templates]}")

                prompts = await list_all(session, "list_prompts", "prompts")
                c.ok([p.name for p in prompts] == names, f"prompts/list: {[p.name for p in prompts]}")
                c.ok(all([a.name for a in (p.arguments or [])] == ["arguments"] for p in prompts), "prompts: one argument `arguments`")

                skills = await list_skills(session)
                c.ok(len(skills) == len(names), f"skills/list (custom request): {len(skills)} skills")
                manifest_ok = True
                for entry in skills:
                    for res in entry["resources"]:
                        path = files.get(res["uri"])
                        if path is None or res["size"] != path.stat().st_size or res["digest"] != "sha256:" + sha256(path.read_bytes()):
                            manifest_ok = False
                            print(f"        manifest mismatch: {res}")
                c.ok(manifest_ok, "skills/list: every file's size and sha256 match the file on disk")
                got = (await session.send_request(GetSkillRequest(params=GetSkillParams(uri="skill://calculator/SKILL.md")), Loose)).model_dump()
                c.ok(got["skill"]["frontmatter"]["name"] == "calculator", "skills/get skill://calculator/SKILL.md")
                await expect_error(c, "skills/get skill://nowhere/SKILL.md",
                                   session.send_request(GetSkillRequest(params=GetSkillParams(uri="skill://nowhere/SKILL.md")), Loose),
                                   (-32602,), "no skill")
                await still_answers(c, session, "skills/get error")

                # Level 2, 3 and the script, as a model calls them.
                result = await session.call_tool("activate_skill", {"name": "calculator"})
                text = text_of(result)
                c.ok(not result.is_error and "Base directory for this skill: skill://calculator" in text, "activate_skill calculator", text[:300])
                read = await session.read_resource("skill://calculator/scripts/calc.py")
                c.ok(content_bytes(read.contents[0]) == (skills_dir / "calculator/scripts/calc.py").read_bytes()
                     and read.contents[0].mime_type == "text/x-python", "resources/read skill://calculator/scripts/calc.py")
                result = await session.call_tool("read_skill_resource", {"skill": "calculator", "path": "scripts/calc.py"})
                c.ok(not result.is_error and "def " in text_of(result), "read_skill_resource calculator scripts/calc.py")
                result = await session.call_tool("run_skill_script", {"skill": "calculator", "command": "python3 scripts/calc.py '15 * 23'"})
                text = text_of(result)
                c.ok(not result.is_error and "345" in text, f"run_skill_script python3 scripts/calc.py '15 * 23' -> {text!r}", text)

                prompt = await session.get_prompt("calculator", {"arguments": "6 * 7"})
                text = "".join(m.content.text for m in prompt.messages if isinstance(m.content, types.TextContent))
                c.ok("6 * 7" in text and "$ARGUMENTS" not in text, "prompts/get calculator {arguments: '6 * 7'}: $ARGUMENTS filled", text[:300])

                # Errors: each an MCP error or an isError result, never a crash.
                await expect_error(c, "resources/read skill://calculator/../x", session.read_resource("skill://calculator/../x"),
                                   (-32002, -32602), "..")
                await still_answers(c, session, "a read outside the skill")
                await expect_error(c, "resources/read skill://no-such-skill/SKILL.md",
                                   session.read_resource("skill://no-such-skill/SKILL.md"), (-32002, -32602), "no skill")
                await still_answers(c, session, "a read of an unknown skill")
                await expect_tool_error(c, session, "read_skill_resource calculator ../x", "read_skill_resource",
                                        {"skill": "calculator", "path": "../x"}, "Illegal path")
                await expect_tool_error(c, session, "read_skill_resource calculator ../../etc/passwd", "read_skill_resource",
                                        {"skill": "calculator", "path": "../../etc/passwd"}, "Illegal path")
                await still_answers(c, session, "read_skill_resource outside the skill")
                await expect_tool_error(c, session, "activate_skill no-such-skill", "activate_skill",
                                        {"name": "no-such-skill"}, "no skill `no-such-skill`")
                await still_answers(c, session, "an unknown skill")
                await expect_tool_error(c, session, "run_skill_script calculator `ls -la`", "run_skill_script",
                                        {"skill": "calculator", "command": "ls -la"},
                                        "Tool 'Bash' not allowed for skill 'calculator'. Allowed tools: [")
                await still_answers(c, session, "a disallowed tool")
                await expect_tool_error(c, session, "run_skill_script calculator with `; rm -rf /`", "run_skill_script",
                                        {"skill": "calculator", "command": "python3 scripts/calc.py 1; rm -rf /"}, "")
                await expect_error(c, "tools/call rm_rf (no such tool)", session.call_tool("rm_rf", {}), (-32602,), "no tool")
                await expect_error(c, "prompts/get no-such-skill", session.get_prompt("no-such-skill"), (-32602,), "no prompt")
                await still_answers(c, session, "every error")


def hidden_from_model(frontmatter: dict) -> bool:
    """Whether `skb serve` keeps a skill out of what the model is offered:
    `disable-model-invocation: true`, or `paths` (until a path is touched)."""
    dmi = frontmatter.get("disable-model-invocation")
    return dmi is True or (isinstance(dmi, str) and dmi.strip().lower() == "true") or bool(frontmatter.get("paths"))


async def corpus(c: Checks, bin_path: str, serve_args: list[str], expected: int) -> None:
    with tempfile.TemporaryDirectory() as cache:
        started = time.monotonic()
        async with stdio_client(server(bin_path, serve_args, cache), errlog=SERVER_LOG) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                c.ok(init.server_info.name == "skills", f"initialize ({time.monotonic() - started:.2f} s after spawn)")
                tools = await list_all(session, "list_tools", "tools")
                enum = tools[0].input_schema["properties"]["name"]["enum"]
                skills = await list_skills(session)
                c.ok(len(skills) == expected, f"skills/list: {len(skills)} skills (expected {expected})")
                # The model is offered every skill but those reserved for the
                # user (disable-model-invocation) and paths-scoped ones.
                offered = [s for s in skills if not hidden_from_model(s["frontmatter"])]
                c.ok([t.name for t in tools] == TOOLS and len(enum) == len(offered),
                     f"tools/list: activate_skill enum of {len(enum)} skills ({len(skills) - len(offered)} not offered to the model)")
                manifest = {r["uri"]: r for s in skills for r in s["resources"]}
                offered_files = {r["uri"] for s in offered for r in s["resources"]}
                resources = await list_all(session, "list_resources", "resources")
                listed = {r.uri: r for r in resources}
                c.ok(sorted(listed) == sorted(offered_files), f"resources/list: {len(listed)} resources, the files of every offered skill's skills/list manifest",
                     sorted(set(listed) ^ offered_files)[:10])
                c.ok(all(listed[u].size == manifest[u]["size"] for u in listed if u in manifest), "resources/list sizes agree with skills/list")
                prompts = await list_all(session, "list_prompts", "prompts")
                c.ok(0 < len(prompts) <= expected, f"prompts/list: {len(prompts)} user-invocable skills")
                templates = await list_all(session, "list_resource_templates", "resource_templates")
                c.ok(len(templates) == 1, "resources/templates/list: one template")

                bad = []
                start = time.monotonic()
                for entry in skills:
                    uri = entry["uri"]
                    try:
                        got = await session.read_resource(uri)
                        data = content_bytes(got.contents[0])
                        want = manifest[uri]
                        if len(data) != want["size"] or "sha256:" + sha256(data) != want["digest"]:
                            bad.append(f"{uri}: {len(data)} bytes, sha256 {sha256(data)[:12]}")
                    except MCPError as e:
                        bad.append(f"{uri}: MCP error {e.code} {e.message}")
                elapsed = time.monotonic() - start
                c.ok(not bad, f"resources/read SKILL.md of all {len(skills)} skills: size and sha256 match the manifest ({elapsed:.2f} s)", bad[:10])
                name = enum[0]
                result = await session.call_tool("activate_skill", {"name": name})
                c.ok(not result.is_error, f"activate_skill {name}", text_of(result)[:200])
                await expect_tool_error(c, session, f"read_skill_resource {name} ../x", "read_skill_resource",
                                        {"skill": name, "path": "../x"}, "Illegal path")
                await still_answers(c, session, "every read")


def run_cli(bin_path: str, args: list[str], cwd: str) -> None:
    out = subprocess.run([bin_path, *args], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)
    if out.returncode != 0:
        raise SystemExit(f"skills {' '.join(args)}: exit {out.returncode}\n{out.stderr}")


async def signed_pack(c: Checks, bin_path: str, skills_dir: Path) -> None:
    bin_path = os.path.abspath(bin_path)
    with tempfile.TemporaryDirectory() as d:
        run_cli(bin_path, ["keygen", "-W", "-p", "good.pub", "-s", "good.key"], d)
        run_cli(bin_path, ["keygen", "-W", "-p", "bad.pub", "-s", "bad.key"], d)
        pack = os.path.join(d, "skills.skillpack")
        run_cli(bin_path, ["pack", str(skills_dir), "-o", pack, "--sign", "good.key"], d)
        c.ok(os.path.isfile(pack + ".minisig"), "skb keygen + skb pack --sign: skills.skillpack and .minisig")
        await examples(c, bin_path, [pack, "--pubkey", os.path.join(d, "good.pub")], skills_dir)

        # Another key: exit 1, nothing on stdout (no protocol spoken).
        out = subprocess.run([bin_path, "serve", pack, "--pubkey", os.path.join(d, "bad.pub"), "--cache", os.path.join(d, "c")],
                             input=b"", capture_output=True, timeout=TIMEOUT)
        stderr = out.stderr.decode(errors="replace").strip()
        c.ok(out.returncode == 1 and out.stdout == b"" and "signature" in stderr,
             f"serve with another key: exit {out.returncode}, {len(out.stdout)} bytes on stdout, stderr {stderr[:120]!r}")
        # A tampered pack with the right key: also refused.
        tampered = os.path.join(d, "tampered.skillpack")
        data = bytearray(Path(pack).read_bytes())
        data[len(data) // 2] ^= 1
        Path(tampered).write_bytes(data)
        Path(tampered + ".minisig").write_bytes(Path(pack + ".minisig").read_bytes())
        out = subprocess.run([bin_path, "serve", tampered, "--pubkey", os.path.join(d, "good.pub"), "--cache", os.path.join(d, "c")],
                             input=b"", capture_output=True, timeout=TIMEOUT)
        c.ok(out.returncode == 1 and out.stdout == b"", f"serve a tampered pack: exit {out.returncode}, {len(out.stdout)} bytes on stdout",
             out.stderr.decode(errors="replace"))


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] not in ("examples", "signed-pack", "corpus"):
        print(__doc__, file=sys.stderr)
        return 2
    bin_path, scenario = argv[0], argv[1]
    c = Checks(scenario)
    print(f"== {scenario}: the MCP Python SDK against {bin_path}", flush=True)
    started = time.monotonic()
    try:
        if scenario == "examples":
            skills_dir = Path(argv[2])
            anyio.run(examples, c, bin_path, [str(skills_dir)], skills_dir)
        elif scenario == "signed-pack":
            anyio.run(signed_pack, c, bin_path, Path(argv[2]).resolve())
        else:
            rest = argv[3:]
            if rest[:1] == ["--"]:
                rest = rest[1:]
            anyio.run(corpus, c, bin_path, rest, int(argv[2]))
    except BaseException as e:  # noqa: BLE001 - report, then fail
        detail = repr(e)
        if hasattr(e, "exceptions"):  # an exception group from the task group
            detail = "; ".join(repr(x) for x in e.exceptions)
        c.ok(False, "the session ran to the end", detail)
    if c.failed:
        SERVER_LOG.seek(0)
        lines = SERVER_LOG.read().splitlines()
        print("-- the server's stderr (last 30 lines):", *lines[-30:], sep="\n  ", flush=True)
    print(f"-- {scenario}: {time.monotonic() - started:.1f} s", flush=True)
    print(c.summary(), flush=True)
    return 0 if c.failed == 0 and c.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
