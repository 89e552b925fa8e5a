"""An HTTP(S) file server behind authentication, for tests/cli/private_sources.rs,
on Python's standard library (http.server and ssl).

    auth_server.py ROOT LOG [--tls CERT KEY] [--expect VALUE]... [--elsewhere URL]

Listens on 127.0.0.1, prints its port, then answers each GET: when any
--expect is given and the request's Authorization header is none of them,
401 with a Basic challenge; else the file under ROOT, or, when the file is
missing and --elsewhere is given, a 302 to URL followed by the path; else
404. Every request is logged to LOG as a line "PATH<TAB>AUTHORIZATION"
("-" when it had none), so a test can see what was sent where.
"""

import http.server
import os
import ssl
import sys

ROOT, LOG = sys.argv[1], sys.argv[2]
TLS, EXPECT, ELSEWHERE = None, [], None
args = sys.argv[3:]
while args:
    flag = args.pop(0)
    if flag == "--tls":
        TLS = (args.pop(0), args.pop(0))
    elif flag == "--expect":
        EXPECT.append(args.pop(0))
    elif flag == "--elsewhere":
        ELSEWHERE = args.pop(0)
    else:
        sys.exit("unknown flag " + flag)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        auth = self.headers.get("Authorization")
        with open(LOG, "a") as log:
            log.write("%s\t%s\n" % (self.path, auth or "-"))
        if EXPECT and auth not in EXPECT:
            return self.answer(401, b"who are you?\n", [("WWW-Authenticate", 'Basic realm="skills"')])
        path = os.path.normpath(os.path.join(ROOT, self.path.split("?")[0].lstrip("/")))
        if path.startswith(os.path.abspath(ROOT)) and os.path.isfile(path):
            with open(path, "rb") as f:
                return self.answer(200, f.read())
        if ELSEWHERE:
            return self.answer(302, headers=[("Location", ELSEWHERE + self.path)])
        return self.answer(404, b"not found\n")

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if TLS:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(TLS[0], TLS[1])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
