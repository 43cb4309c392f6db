#!/usr/bin/env python3
"""fake_osv.py - a loopback stand-in for api.osv.dev used by vulns.sh.

Serves POST /v1/querybatch and GET /v1/vulns/<id> from the OSV records in a
directory (tests/data/osv): a query's purl matches a record when the record
lists the purl's PEP 503 name (npm: the name as is) under its ecosystem and
the version sorts below the record's fixed version. GET /stats answers the
request counts so the suite can see caching at work. Also a CISA KEV feed
(GET /kev.json, tests/data/kev) and FIRST's EPSS API (GET
/data/v1/epss?cve=A,B, the rows of tests/data/epss/epss.json asked for).
Modes (argv[3]): ok, batch500 (querybatch answers 500), garbage (querybatch
answers 200 with an HTML body), vuln500 (records
answer 500), slow (querybatch sleeps past the client's timeout), kev500 and
epss500 (those answer 500), paged (querybatch answers one advisory per query
a page, with next_page_token "pK" while more follow, and serves page_token
"pK"; /stats "pages" counts the queries that sent one), endless (as paged,
but every answer has a next_page_token). GET /mapping.json serves tests/data/vulns/mapping.json
(--pypi-mapping-url) in mode ok and answers 500 in every other mode.
Prints its port on stdout once listening.
"""
import json
import os
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

records = {}
for f in sorted(os.listdir(sys.argv[1])):
    if f.endswith(".json"):
        with open(os.path.join(sys.argv[1], f)) as fh:
            r = json.load(fh)
        records[r["id"]] = r
mode = sys.argv[3] if len(sys.argv) > 3 else "ok"
stats = {"querybatch": 0, "pages": 0, "vulns": 0, "queries": 0, "kev": 0, "epss": 0, "epss_cves": [], "mapping": 0}
data = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])))
with open(os.path.join(data, "kev", "known_exploited_vulnerabilities.json")) as fh:
    kev = json.load(fh)
with open(os.path.join(data, "epss", "epss.json")) as fh:
    epss = json.load(fh)


def pep503(n):
    return re.sub(r"[-_.]+", "-", n).lower()


def vkey(v):
    return [int(x) if x.isdigit() else x for x in re.split(r"[.]", v)]


def matches(purl):
    m = re.match(r"pkg:(pypi|npm)/(.+)@([^?#]+)$", purl)
    if not m:
        return []
    eco = "PyPI" if m.group(1) == "pypi" else "npm"
    name = m.group(2).replace("%40", "@")
    name = pep503(name) if eco == "PyPI" else name
    out = []
    for r in records.values():
        for a in r.get("affected", []):
            p = a.get("package", {})
            an = pep503(p.get("name", "")) if eco == "PyPI" else p.get("name")
            if p.get("ecosystem") != eco or an != name:
                continue
            fixed = [e["fixed"] for rg in a.get("ranges", []) for e in rg.get("events", []) if "fixed" in e]
            if any(vkey(m.group(3)) < vkey(f) for f in fixed):
                out.append({"id": r["id"], "modified": r.get("modified", "")})
    return out


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def answer(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        req = json.loads(self.rfile.read(n) or b"{}")
        if self.path != "/v1/querybatch":
            return self.answer(404, {"code": 5, "message": "Not Found"})
        stats["querybatch"] += 1
        stats["queries"] += len(req.get("queries", []))
        if mode == "batch500":
            return self.answer(500, {"code": 13, "message": "internal"})
        if mode == "garbage":  # 200 with a body that is not OSV's shape
            body = b"<html>upstream proxy error</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if mode == "slow":
            time.sleep(4)
        results = []
        for q in req.get("queries", []):
            v = matches(q.get("package", {}).get("purl", ""))
            if mode in ("paged", "endless"):
                # OSV pagination: one advisory a page, next_page_token while
                # more follow (endless: always), page_token asks for page K
                tok = q.get("page_token")
                if tok is not None:
                    stats["pages"] += 1
                    if not re.fullmatch(r"p[0-9]+", tok):
                        return self.answer(400, {"code": 3, "message": "Invalid page token"})
                k = int(tok[1:]) if tok else 0
                r = {"vulns": v[k:k + 1]} if v[k:k + 1] else {}
                if k + 1 < len(v) or mode == "endless":
                    r["next_page_token"] = "p%d" % (k + 1)
                results.append(r)
                continue
            results.append({"vulns": v} if v else {})
        self.answer(200, {"results": results})

    def do_GET(self):
        if self.path == "/stats":
            return self.answer(200, stats)
        if self.path == "/mapping.json":  # the prefix.dev compressed mapping's shape; 500 unless mode ok
            stats["mapping"] += 1
            if mode != "ok":
                return self.answer(500, {"error": "internal"})
            with open(os.path.join(data, "vulns", "mapping.json"), "rb") as fh:
                body = fh.read()  # the file's bytes as they are: the same digest as --pypi-mapping-file
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return None
        if self.path == "/kev.json":
            stats["kev"] += 1
            return self.answer(500 if mode == "kev500" else 200, {"error": "internal"} if mode == "kev500" else kev)
        if self.path.startswith("/data/v1/epss?"):
            stats["epss"] += 1
            if mode == "epss500":
                return self.answer(500, {"status": "error", "status-code": 500})
            q = parse_qs(urlparse(self.path).query)
            want = [c for v in q.get("cve", []) for c in v.split(",") if c]
            stats["epss_cves"] += want
            rows = [r for r in epss["data"] if r["cve"] in want]
            out = dict(epss, total=len(rows), data=rows)
            return self.answer(200, out)
        m = re.match(r"^/v1/vulns/([A-Za-z0-9._-]+)$", self.path)
        if not m:
            return self.answer(404, {"code": 5, "message": "Not Found"})
        stats["vulns"] += 1
        if mode == "vuln500":
            return self.answer(500, {"code": 13, "message": "internal"})
        r = records.get(m.group(1))
        if r is None:
            return self.answer(404, {"code": 5, "message": "Bug not found."})
        self.answer(200, r)


srv = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
