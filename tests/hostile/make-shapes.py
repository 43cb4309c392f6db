#!/usr/bin/env python3
"""make-shapes.py OUTDIR SCALE - the upload shapes of issue 43 whose memory or
time once did not follow their size, at SCALE x a base size (1, 2, 4 for the
linear-growth figures of loadtest/shapes.sh). With make-lists.py (one list
of N items in one record) they are every row of the issue's table:

  indented.requirements.txt  50,000 x S pins, each indented by one space
                             (the estimate once counted unindented lines only)
  v1name.package-lock.json   a package-lock v1 package with a 100 KB name and
                             500 x S children (its path once copied into each)
  deep.package-lock.json     a v3 entry 1,000 x S node_modules levels deep
                             with 200 dependencies resolved level by level
  dense.package-lock.json    50,000 x S entries {"version":"1.0.0"}
  dense.cdx.json             25,000 x S minimal CycloneDX components
  dense.spdx.json            25,000 x S minimal SPDX 2.3 packages
  docs.pixi.lock             16 environments x 16 platforms, 20 x S packages
                             each: 256 documents with all-environments&all-platforms
  diff-base.txt, diff-head.txt  two 50,000 x S pin files (POST /v1/diff)
  part-00.cdx.json .. part-15.cdx.json  16 parts of 2,000 x S components (a merge)

Each is what its reader accepts, so the work measured is the reader's."""
import json
import os
import sys

out, s = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)


def w(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


w("indented.requirements.txt", "".join(" p%d==1.0\n" % i for i in range(50000 * s)))

name = "n" * 100000
v1 = {"name": "x", "version": "1.0.0", "lockfileVersion": 1, "requires": True,
      "dependencies": {name: {"version": "1.0.0",
                              "requires": {"c0": "1"},
                              "dependencies": {"c%d" % i: {"version": "1.0.0", "requires": {"c0": "1"}}
                                               for i in range(500 * s)}}}}
w("v1name.package-lock.json", json.dumps(v1))

depth = 1000 * s
path = "/".join("node_modules/d%d" % i for i in range(depth))
pk = {"": {"name": "x", "version": "1.0.0", "dependencies": {"d0": "1"}},
      "node_modules/d0": {"version": "1.0.0"},
      path: {"version": "1.0.0", "dependencies": {"q%d" % i: "1" for i in range(200)}}}
for i in range(0, 200, 2):
    pk["node_modules/q%d" % i] = {"version": "1.0.0"}
w("deep.package-lock.json", json.dumps({"name": "x", "version": "1.0.0", "lockfileVersion": 3, "packages": pk}))

dense = {"": {"name": "x", "version": "1.0.0"}}
dense.update(("node_modules/p%d" % i, {"version": "1.0.0"}) for i in range(50000 * s))
w("dense.package-lock.json", json.dumps({"name": "x", "lockfileVersion": 3, "packages": dense}))

w("dense.cdx.json", json.dumps({"bomFormat": "CycloneDX", "specVersion": "1.6", "version": 1,
                                "components": [{"type": "library", "name": "c%d" % i} for i in range(25000 * s)]}))
w("dense.spdx.json", json.dumps({
    "spdxVersion": "SPDX-2.3", "dataLicense": "CC0-1.0", "SPDXID": "SPDXRef-DOCUMENT", "name": "d",
    "documentNamespace": "https://example.com/d",
    "creationInfo": {"created": "2024-01-01T00:00:00Z", "creators": ["Tool: x"]},
    "packages": [{"SPDXID": "SPDXRef-p%d" % i, "name": "p%d" % i, "downloadLocation": "NOASSERTION"}
                 for i in range(25000 * s)]}))

platforms = ["linux-64", "linux-aarch64", "linux-ppc64le", "linux-s390x", "linux-armv7l", "linux-armv6l",
             "linux-32", "osx-64", "osx-arm64", "win-64", "win-32", "win-arm64", "emscripten-wasm32",
             "wasi-wasm32", "zos-z", "noarch"]
npk = 20 * s
url = "https://conda.anaconda.org/conda-forge/%s/pkg%d-1.0-h0_0.conda"
lines = ["version: 6", "environments:"]
for e in range(16):
    lines += ["  %s:" % ("default" if e == 0 else "env%d" % e), "    channels:",
              "    - url: https://conda.anaconda.org/conda-forge/", "    packages:"]
    for p in platforms:
        lines.append("      %s:" % p)
        lines += ["      - conda: " + url % (p, i) for i in range(npk)]
lines.append("packages:")
for p in platforms:
    for i in range(npk):
        lines += ["- conda: " + url % (p, i), "  sha256: " + "%064x" % i, "  md5: " + "%032x" % i,
                  "  license: MIT", "  size: 1000", "  timestamp: 1700000000000"]
w("docs.pixi.lock", "\n".join(lines) + "\n")

for k in ("base", "head"):
    w("diff-%s.txt" % k, "".join("p%d==1.%d\n" % (i, i % 7 if k == "base" else i % 5) for i in range(50000 * s)))

for part in range(16):
    w("part-%02d.cdx.json" % part, json.dumps({
        "bomFormat": "CycloneDX", "specVersion": "1.6", "version": 1,
        "components": [{"type": "library", "name": "m%d" % i, "version": "1.%d" % part,
                        "bom-ref": "m%d@%d" % (i, part), "purl": "pkg:pypi/m%d@1.%d" % (i, part)}
                       for i in range(2000 * s)]}))

# ---- adm: priced queries, requests that stop each other ----
# tiny-body.txt  27 bytes: the body beside a query of 7,000 policy terms
#                        (shapes.sh builds the query)
# half.cdx.json          120,000 x S minimal CycloneDX components: alone about
#                        half of a 300 MiB budget (133 MB peak measured), so
#                        four at once stop each other unless one is served
w("tiny-body.txt", "requests==2.31.0\nidna==3.4\n")
w("half.cdx.json", json.dumps({"bomFormat": "CycloneDX", "specVersion": "1.6", "version": 1,
                               "components": [{"type": "library", "name": "c%d" % i} for i in range(120000 * s)]}))
# ---- end adm ----
