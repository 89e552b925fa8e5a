#!/usr/bin/env python3
"""Loopback mock of the OpenAI chat-completions (and responses) API.

Records every request body as DIR/req-NNN.json and answers `ok`. With --call NAME, the first request that
offers a tool called `skill` or `Skill` is answered with one call of that tool, arguments
{"skill": NAME} (plus "args" when --args is given); later requests get `ok`.

Usage: mock_openai.py --log DIR [--call NAME] [--args ARGS]; prints the port on stdout's first line.
"""
import argparse
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

p = argparse.ArgumentParser()
p.add_argument("--log", required=True)
p.add_argument("--call")
p.add_argument("--args")
opts = p.parse_args()
os.makedirs(opts.log, exist_ok=True)
lock = threading.Lock()
state = {"n": 0, "called": False}


def tool_name(req):
    for t in req.get("tools") or []:
        name = (t.get("function") or {}).get("name") or t.get("name")
        if name in ("skill", "Skill"):
            return name
    return None


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_json(self, obj, code=200):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.rstrip("/").endswith("/models"):
            self.send_json({"object": "list", "data": [{"id": "gpt-4o", "object": "model", "created": 0, "owned_by": "mock"}]})
        else:
            self.send_json({"error": "not found"}, 404)

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length)
        try:
            req = json.loads(body)
        except Exception:
            req = {"_raw": body.decode("utf-8", "replace")}
        with lock:
            state["n"] += 1
            n = state["n"]
            call = None
            tn = tool_name(req) if isinstance(req, dict) else None
            if opts.call and tn and not state["called"]:
                state["called"] = True
                a = {"skill": opts.call}
                if opts.args is not None:
                    a["args"] = opts.args
                call = (tn, json.dumps(a))
        with open(os.path.join(opts.log, "req-%03d.json" % n), "w") as f:
            json.dump({"path": self.path, "body": req}, f, ensure_ascii=False)
        stream = isinstance(req, dict) and req.get("stream")
        if "/messages" in self.path:
            return self.answer_anthropic(call, stream, req)
        if "/responses" in self.path:
            return self.answer_responses(call, stream)
        if not stream:
            msg = {"role": "assistant", "content": None if call else "ok"}
            if call:
                msg["tool_calls"] = [{"id": "call_1", "type": "function", "function": {"name": call[0], "arguments": call[1]}}]
            self.send_json({"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4o",
                            "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if call else "stop"}],
                            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
            return
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-4o"}

        def ev(delta, finish=None, usage=None):
            c = dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": finish}])
            if usage:
                c["usage"] = usage
            self.wfile.write(b"data: " + json.dumps(c).encode() + b"\n\n")

        if call:
            ev({"role": "assistant", "content": None, "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": call[0], "arguments": ""}}]})
            ev({"tool_calls": [{"index": 0, "function": {"arguments": call[1]}}]})
            ev({}, "tool_calls")
        else:
            ev({"role": "assistant", "content": ""})
            ev({"content": "ok"})
            ev({}, "stop")
        c = dict(base, choices=[], usage={"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2})
        self.wfile.write(b"data: " + json.dumps(c).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True

    def answer_anthropic(self, call, stream, req):
        if self.path.split("?")[0].endswith("/count_tokens"):
            return self.send_json({"input_tokens": 1})
        if call:
            content = [{"type": "tool_use", "id": "toolu_1", "name": call[0], "input": json.loads(call[1])}]
        else:
            content = [{"type": "text", "text": "ok"}]
        msg = {"id": "msg_1", "type": "message", "role": "assistant", "model": req.get("model", "claude"),
               "content": content, "stop_reason": "tool_use" if call else "end_turn", "stop_sequence": None,
               "usage": {"input_tokens": 1, "output_tokens": 1}}
        if not stream:
            return self.send_json(msg)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()

        def ev(t, d):
            d = dict(d, type=t)
            self.wfile.write(("event: %s\ndata: %s\n\n" % (t, json.dumps(d))).encode())

        ev("message_start", {"message": dict(msg, content=[], stop_reason=None)})
        for i, c in enumerate(content):
            if c["type"] == "tool_use":
                ev("content_block_start", {"index": i, "content_block": dict(c, input={})})
                ev("content_block_delta", {"index": i, "delta": {"type": "input_json_delta", "partial_json": json.dumps(c["input"])}})
            else:
                ev("content_block_start", {"index": i, "content_block": {"type": "text", "text": ""}})
                ev("content_block_delta", {"index": i, "delta": {"type": "text_delta", "text": c["text"]}})
            ev("content_block_stop", {"index": i})
        ev("message_delta", {"delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None}, "usage": {"output_tokens": 1}})
        ev("message_stop", {})
        self.wfile.flush()
        self.close_connection = True

    def answer_responses(self, call, stream):
        out = []
        if call:
            out.append({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": call[0], "arguments": call[1], "status": "completed"})
        else:
            out.append({"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                        "content": [{"type": "output_text", "text": "ok", "annotations": []}]})
        resp = {"id": "resp_1", "object": "response", "created_at": 0, "status": "completed", "model": "gpt-4o",
                "output": out, "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}
        if not stream:
            return self.send_json(resp)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        seq = 0

        def ev(t, d):
            nonlocal seq
            d = dict(d, type=t, sequence_number=seq)
            seq += 1
            self.wfile.write(("event: %s\ndata: %s\n\n" % (t, json.dumps(d))).encode())

        ev("response.created", {"response": dict(resp, status="in_progress", output=[])})
        for i, item in enumerate(out):
            ev("response.output_item.added", {"output_index": i, "item": item})
            ev("response.output_item.done", {"output_index": i, "item": item})
        ev("response.completed", {"response": resp})
        self.wfile.flush()
        self.close_connection = True


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
