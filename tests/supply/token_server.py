"""A Docker token server (the `auth: token` side of CNCF distribution) for
tests/supply/oci.rs, on the standard library and the `openssl` program.

    token_server.py KEY.pem CERT.pem ISSUER SERVICE USER:PASSWORD REFRESH_TOKEN [ADDRESS]

Listens on ADDRESS (default 127.0.0.1), prints its port, then answers
GET /token (anonymous: pull only; Basic with USER:PASSWORD: what the scope
asks; other Basic: 401) and POST /token with grant_type=refresh_token
(REFRESH_TOKEN: what the scope asks), each with an RS256 JWT carrying CERT
in `x5c`, which the registry trusts as its root.
"""

import base64
import http.server
import json
import subprocess
import sys
import time
import urllib.parse

KEY, CERT, ISSUER, SERVICE, CREDENTIALS, REFRESH = sys.argv[1:7]
ADDRESS = sys.argv[7] if len(sys.argv) > 7 else "127.0.0.1"
DER = subprocess.run(
    ["openssl", "x509", "-in", CERT, "-outform", "DER"], check=True, capture_output=True
).stdout


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(subject, scopes, full):
    access = []
    for scope in scopes:
        parts = scope.split(":")
        if len(parts) != 3 or parts[0] != "repository":
            continue
        actions = parts[2].split(",") if full else [a for a in parts[2].split(",") if a == "pull"]
        access.append({"type": "repository", "name": parts[1], "actions": actions})
    now = int(time.time())
    header = {"alg": "RS256", "typ": "JWT", "x5c": [base64.b64encode(DER).decode()]}
    claims = {
        "iss": ISSUER,
        "sub": subject,
        "aud": SERVICE,
        "exp": now + 300,
        "nbf": now - 10,
        "iat": now,
        "jti": str(now),
        "access": access,
    }
    signing_input = (b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())).encode()
    signature = subprocess.run(
        ["openssl", "dgst", "-sha256", "-sign", KEY], input=signing_input, check=True, capture_output=True
    ).stdout
    return signing_input.decode() + "." + b64url(signature)


class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path != "/token" or query.get("service") != [SERVICE]:
            return self.answer(400, {"error": "unknown service"})
        auth = self.headers.get("Authorization", "")
        if not auth:
            return self.answer(200, {"token": token("", query.get("scope", []), False)})
        if auth != "Basic " + base64.b64encode(CREDENTIALS.encode()).decode():
            return self.answer(401, {"error": "bad credentials"})
        user = CREDENTIALS.split(":")[0]
        return self.answer(200, {"token": token(user, query.get("scope", []), True)})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        if form.get("grant_type") != ["refresh_token"] or form.get("refresh_token") != [REFRESH]:
            return self.answer(401, {"error": "bad refresh token"})
        return self.answer(200, {"access_token": token("refresh", form.get("scope", []), True)})

    def log_message(self, *args):
        pass


server = http.server.HTTPServer((ADDRESS, 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
