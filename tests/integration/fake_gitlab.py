#!/usr/bin/env python3
"""fake_gitlab.py PORTFILE LOG TOKEN - a loopback stand-in for GitLab's REST
API, as much as the merge-request note recipe calls: POST
/api/v4/projects/ID/merge_requests/IID/notes with a JSON body {body} and the
PRIVATE-TOKEN header. A wrong token is GitLab's 401, anything else 404; a
note is answered 201 and its request appended to LOG as one JSON line
(path, content type, body). Writes its port to PORTFILE."""
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

portfile, log, token = sys.argv[1:4]


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def answer(self, code, obj):
        b = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n)
        if self.headers.get("PRIVATE-TOKEN") != token:
            return self.answer(401, {"message": "401 Unauthorized"})
        if not re.fullmatch(r"/api/v4/projects/[0-9]+/merge_requests/[0-9]+/notes", self.path):
            return self.answer(404, {"message": "404 Not Found"})
        try:
            body = json.loads(raw)["body"]
        except (ValueError, KeyError, TypeError):
            return self.answer(400, {"message": "body is missing"})
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"path": self.path, "type": self.headers.get("Content-Type"), "body": body}) + "\n")
        self.answer(201, {"id": 1, "body": body, "noteable_type": "MergeRequest"})


s = HTTPServer(("127.0.0.1", 0), H)
with open(portfile, "w") as f:
    f.write(f"{s.server_port}\n")
s.serve_forever()
