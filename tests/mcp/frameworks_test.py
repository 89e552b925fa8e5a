"""Two Python agent frameworks, on their default paths, against `skb serve`.

Usage: frameworks_test.py SKILLS_BINARY SKILLS_DIR

Serves SKILLS_DIR over streamable HTTP and, with no model, calls the tools as
each framework exposes them:

* LangChain: `langchain_mcp_adapters.client.MultiServerMCPClient(...).get_tools()`,
  whose tools open a new MCP session for every call;
* LlamaIndex: `llama_index.tools.mcp.McpToolSpec(BasicMCPClient(url)).to_tool_list_async()`,
  whose client also opens a session per call.

Neither path keeps a session between calls, so `run_skill_script` is called
without `activate_skill` first: the calculator's own `allowed-tools` govern
the run, and `15 * 23` must come back as 345. A command outside those rules
must still be refused. The official SDK, under both, ends every session with
`DELETE /mcp`; it logs "Session termination failed" unless the server answers
as the transport specifies, so no such record may appear.

Prints `N passed, N failed` and exits non-zero on any failure.
"""

import asyncio
import logging
import subprocess
import sys
import tempfile

RUN = "run_skill_script"
CALC = {"skill": "calculator", "command": "python3 scripts/calc.py '15 * 23'"}
OUTSIDE = {"skill": "calculator", "command": "ls -la"}


class Records(logging.Handler):
    """Every log record at WARNING or above, from any logger."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self, condition, what, detail=""):
        if condition:
            self.passed += 1
            print(f"ok: {what}")
        else:
            self.failed += 1
            print(f"FAILED: {what}: {detail!r}")


def text_of(result):
    """The text of a tool result, whatever shape the framework gives it."""
    if isinstance(result, str):
        return result
    if isinstance(result, (list, tuple)):
        return "".join(text_of(r) for r in result)
    for attribute in ("content", "text", "raw_output"):
        value = getattr(result, attribute, None)
        if value is not None and value is not result:
            return text_of(value)
    if isinstance(result, dict):
        return str(result.get("text", result))
    return str(result)


async def langchain(url, checks):
    from langchain_mcp_adapters.client import MultiServerMCPClient

    client = MultiServerMCPClient({"skills": {"url": url, "transport": "streamable_http"}})
    tools = {t.name: t for t in await client.get_tools()}
    checks.ok(RUN in tools, "langchain: get_tools() lists run_skill_script", sorted(tools))
    out = text_of(await tools[RUN].ainvoke(CALC))
    checks.ok("345" in out, "langchain: the calculator answers 345 without activate_skill", out)
    try:
        refused = text_of(await tools[RUN].ainvoke(OUTSIDE))
    except Exception as error:  # the adapter raises on isError by default
        refused = str(error)
    checks.ok(
        "not allowed for skill 'calculator'" in refused,
        "langchain: a command outside calculator's allowed-tools is refused",
        refused,
    )


async def llamaindex(url, checks):
    from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

    spec = McpToolSpec(client=BasicMCPClient(url))
    tools = {t.metadata.name: t for t in await spec.to_tool_list_async()}
    checks.ok(RUN in tools, "llamaindex: to_tool_list_async() lists run_skill_script", sorted(tools))
    out = text_of(await tools[RUN].acall(**CALC))
    checks.ok("345" in out, "llamaindex: the calculator answers 345 without activate_skill", out)
    refused = text_of(await tools[RUN].acall(**OUTSIDE))
    checks.ok(
        "not allowed for skill 'calculator'" in refused,
        "llamaindex: a command outside calculator's allowed-tools is refused",
        refused,
    )


def serve(binary, skills, cache):
    server = subprocess.Popen(
        [binary, "serve", skills, "--http", "127.0.0.1:0", "--cache", cache],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    # "skb: serving N skills at http://127.0.0.1:PORT/mcp"
    line = server.stderr.readline()
    if "http://" not in line:
        server.kill()
        raise SystemExit(f"skb serve did not start: {line!r}")
    return server, "http://" + line.rsplit("http://", 1)[1].strip()


def main():
    binary, skills = sys.argv[1], sys.argv[2]
    records = Records()
    logging.getLogger().addHandler(records)
    checks = Checks()
    with tempfile.TemporaryDirectory() as cache:
        server, url = serve(binary, skills, cache)
        try:
            for framework in (langchain, llamaindex):
                try:
                    asyncio.run(framework(url, checks))
                except Exception as error:
                    checks.ok(False, f"{framework.__name__}: runs", repr(error))
        finally:
            server.kill()
            server.wait()
    terminations = [r for r in records.records if "Session termination failed" in r]
    checks.ok(not terminations, "no session ended with 'Session termination failed'", terminations)
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
