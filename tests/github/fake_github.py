#!/usr/bin/env python3
"""fake_github.py PORTFILE LOG SCHEMA - a loopback stand-in for GitHub's
dependency-submission endpoint, POST /repos/{owner}/{repo}/dependency-graph/snapshots,
holding a request to the shape the REST API documents: the method and path,
Accept: application/vnd.github+json, Authorization: Bearer <token> (the token
in $FAKE_GITHUB_TOKEN), X-GitHub-Api-Version: 2022-11-28, a JSON body that
validates against the vendored `snapshot` schema (tests/github/snapshot.schema.json).
A request in that shape is answered 201 with the documented body
({id, created_at, result, message}); anything else with the 4xx a client
would see and a message naming what was wrong. Each request is one JSON line
in LOG ({path, status, problems, manifests, packages}) so the suite can say
what reached it. Listens on 127.0.0.1, port 0; the port goes to PORTFILE."""
import json
import re
import sys
import os
from http.server import BaseHTTPRequestHandler, HTTPServer

import jsonschema

PORTFILE, LOG, SCHEMA = sys.argv[1:4]
TOKEN = os.environ.get("FAKE_GITHUB_TOKEN", "")
with open(SCHEMA) as f:
    schema = json.load(f)
validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
PATH = re.compile(r"^/repos/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/dependency-graph/snapshots$")
count = 0


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, problems, snap=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        line = {"method": self.command, "path": self.path, "status": status, "problems": problems}
        if snap is not None:
            line["manifests"] = sorted(snap.get("manifests", {}))
            line["packages"] = sum(len(m.get("resolved", {})) for m in snap.get("manifests", {}).values())
            line["sha"], line["ref"], line["job"] = snap.get("sha"), snap.get("ref"), snap.get("job")
        with open(LOG, "a") as f:
            f.write(json.dumps(line) + "\n")

    def refuse(self, status, problems):
        self.answer(status, {"message": "; ".join(problems),
                             "documentation_url": "https://docs.github.com/rest/dependency-graph/dependency-submission"},
                    problems)

    def do_GET(self):
        self.refuse(404, ["only POST is served here"])

    do_PUT = do_DELETE = do_PATCH = do_GET

    def do_POST(self):
        global count
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if not PATH.match(self.path):
            return self.refuse(404, [f"no such path {self.path}"])
        h = self.headers
        if not TOKEN or h.get("Authorization") != f"Bearer {TOKEN}":
            return self.refuse(401, ["Authorization is not 'Bearer <the job's token>'"])
        problems = []
        if h.get("Accept") != "application/vnd.github+json":
            problems.append(f"Accept is {h.get('Accept')!r}, not application/vnd.github+json")
        if h.get("X-GitHub-Api-Version") != "2022-11-28":
            problems.append(f"X-GitHub-Api-Version is {h.get('X-GitHub-Api-Version')!r}, not 2022-11-28")
        if not (h.get("Content-Type") or "").startswith("application/json"):
            problems.append(f"Content-Type is {h.get('Content-Type')!r}, not application/json")
        if problems:
            return self.refuse(400, problems)
        try:
            snap = json.loads(raw)
        except ValueError as e:
            return self.refuse(400, [f"body is not JSON: {e}"])
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(snap)]
        if errors:
            return self.refuse(422, errors[:10])
        count += 1
        self.answer(201, {"id": count, "created_at": "2023-11-14T22:13:20Z", "result": "SUCCESS",
                          "message": "Dependency results for the repo have been successfully updated."}, [], snap)


server = HTTPServer(("127.0.0.1", 0), Handler)
with open(PORTFILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
server.serve_forever()
