#!/usr/bin/env python3
"""fakeindex.py - a PyPI JSON API stand-in for the lookup tests, on 127.0.0.1.

GET /pypi/<name>/<version>/json answers a release document whose license
depends on the name (license_expression, a short license, classifiers only,
or nothing). Behaviour is steered by the name:
  missing*  -> 404            fail*  -> 500
  reset*    -> the connection is closed without an answer
  slow*     -> answered after --slow-ms
  stall*    -> never answered: held until the client closes the connection
               (counted in "stall_aborted") or --stall-ms passes
GET /pypi/<name>/json (a project page) answers <name>.json under
--projects-dir; the names missing*, fail*, slow* and stall* behave as above,
any other name 404.
GET /projects/github.com/<owner>/<repo> (the OpenSSF Scorecard API) answers
github.com-<owner>-<repo>.json under --scorecard-dir; owners failing* 500,
any other repository 404 (not scored).
GET /conda/<path> serves the file <path> under --conda-dir with HTTP range
support (bytes=A-B, bytes=A-, bytes=-N), except files named norange* (whole
body, 200), the way a plain static server would.
Every answer waits --delay-ms first. GET /_count returns
{"requests": N, "connections": N, "paths": {path: n}, "max_inflight": N,
"stall_requests": N, "stall_open": N, "stall_aborted": N} (max_inflight: the
most requests answered at once; stall_open: stalled requests whose client
is still connected); POST /_zero zeroes them (stall_open excepted).
Prints "port N" on stdout once listening. HTTP/1.1 with keep-alive.
"""
import argparse, json, os, re, select, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
counts = {"requests": 0, "connections": 0, "paths": {}, "inflight": 0, "max_inflight": 0,
          "stall_requests": 0, "stall_open": 0, "stall_aborted": 0}


def release(name, version):
    h = sum(name.encode()) % 4
    info = {"name": name, "version": version, "license": None, "license_expression": None, "classifiers": []}
    if h == 0:
        info["license_expression"] = "MIT"
    elif h == 1:
        info["license"] = "Apache 2.0"
    elif h == 2:
        info["classifiers"] = ["License :: OSI Approved :: BSD License", "Programming Language :: Python"]
    return {"info": info, "urls": [], "vulnerabilities": []}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # headers and body go out in two writes: without this, Nagle plus the
        # client's delayed ACK adds 40 ms to every answer on a kept-alive connection
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with lock:
            counts["connections"] += 1

    def log_message(self, *a):
        pass

    def answer(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def archive(self, rel):
        time.sleep(args.delay_ms / 1000.0)
        path = os.path.realpath(os.path.join(args.conda_dir, rel))
        if not path.startswith(os.path.realpath(args.conda_dir) + os.sep) or not os.path.isfile(path):
            self.answer(404, {"message": "Not Found"})
            return
        data = open(path, "rb").read()
        rng = self.headers.get("Range")
        m = re.fullmatch(r"bytes=(\d*)-(\d*)", rng or "")
        if m and not os.path.basename(path).startswith("norange"):
            a, b = m.group(1), m.group(2)
            if a == "":
                start, end = max(0, len(data) - int(b)), len(data) - 1
            else:
                start, end = int(a), min(int(b) if b else len(data) - 1, len(data) - 1)
            if start > end:
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % len(data))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = data[start:end + 1]
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, len(data)))
        else:
            body = data
            self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        if self.path == "/_zero":
            with lock:
                counts.update(requests=0, connections=0, paths={}, max_inflight=0, stall_requests=0, stall_aborted=0)
            self.answer(200, {"ok": True})
        else:
            self.answer(404, {})

    def do_GET(self):
        if self.path == "/_count":
            with lock:
                self.answer(200, counts)
            return
        with lock:
            counts["requests"] += 1
            counts["paths"][self.path] = counts["paths"].get(self.path, 0) + 1
            counts["inflight"] += 1
            counts["max_inflight"] = max(counts["max_inflight"], counts["inflight"])
        try:
            self.route()
        finally:
            with lock:
                counts["inflight"] -= 1

    def client_closed(self):
        r, _, _ = select.select([self.connection], [], [], 0)
        if not r:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def stall(self):
        """Hold the request unanswered; note when the client gives up on it."""
        with lock:
            counts["stall_requests"] += 1
            counts["stall_open"] += 1
        end = time.time() + args.stall_ms / 1000.0
        closed = False
        while time.time() < end and not closed:
            time.sleep(0.02)
            closed = self.client_closed()
        with lock:
            counts["stall_open"] -= 1
            counts["stall_aborted"] += closed
        self.close_connection = True

    def delays(self, name):
        """The behaviours a name's prefix asks for before any answer: the
        index's delay, slow* waits longer, stall* never answers (True:
        nothing more to send)."""
        time.sleep(args.delay_ms / 1000.0)
        if name.startswith("slow"):
            time.sleep(args.slow_ms / 1000.0)
        if name.startswith("stall"):
            self.stall()
            return True
        return False

    def project(self, name):
        if self.delays(name):
            return
        if name.startswith("fail"):
            self.answer(500, {"message": "boom"})
            return
        path = os.path.join(args.projects_dir or "", name + ".json")
        if not args.projects_dir or "/" in name or name.startswith(".") or not os.path.isfile(path):
            self.answer(404, {"message": "Not Found"})
            return
        with open(path) as f:
            self.answer(200, json.load(f))

    def scorecard(self, owner, repo):
        time.sleep(args.delay_ms / 1000.0)
        if owner.startswith("failing"):
            self.answer(500, {"message": "boom"})
            return
        path = os.path.join(args.scorecard_dir or "", "github.com-%s-%s.json" % (owner, repo))
        ok = re.fullmatch(r"[A-Za-z0-9_.-]+", owner) and re.fullmatch(r"[A-Za-z0-9_.-]+", repo)
        if not args.scorecard_dir or not ok or owner.startswith(".") or not os.path.isfile(path):
            self.answer(404, {"error": "NOT_FOUND"})
            return
        with open(path) as f:
            self.answer(200, json.load(f))

    def route(self):
        if self.path.startswith("/conda/") and args.conda_dir:
            self.archive(self.path[len("/conda/"):])
            return
        parts = self.path.strip("/").split("/")
        if len(parts) == 4 and parts[0] == "projects" and parts[1] == "github.com":
            self.scorecard(parts[2], parts[3])
            return
        if len(parts) == 3 and parts[0] == "pypi" and parts[2] == "json":
            self.project(parts[1])
            return
        if len(parts) != 4 or parts[0] != "pypi" or parts[3] != "json":
            self.answer(404, {"message": "Not Found"})
            return
        name, version = parts[1], parts[2]
        if self.delays(name):
            return
        if name.startswith("missing"):
            self.answer(404, {"message": "Not Found"})
        elif name.startswith("fail"):
            self.answer(500, {"message": "boom"})
        elif name.startswith("reset"):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            self.close_connection = True
            self.connection.close()
        else:
            self.answer(200, release(name, version))


p = argparse.ArgumentParser()
p.add_argument("--port", type=int, default=0)
p.add_argument("--delay-ms", type=float, default=0)
p.add_argument("--slow-ms", type=float, default=3000)
p.add_argument("--stall-ms", type=float, default=60000)
p.add_argument("--conda-dir")
p.add_argument("--projects-dir")
p.add_argument("--scorecard-dir")
args = p.parse_args()
ThreadingHTTPServer.request_queue_size = 256  # socketserver's 5 drops SYNs under a burst of connects
srv = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
srv.daemon_threads = True
print("port %d" % srv.server_address[1], flush=True)
srv.serve_forever()
