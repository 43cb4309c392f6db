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

# ---- loops: shapes whose work an input or a query sets (bun resolution,
# include globs, manifest features, npm copies, the tree report). Each goes
# to shapes.sh's loops block, under a short --request-timeout; in OUTDIR/loops so that
# the globs above do not take them. ----
os.makedirs(os.path.join(out, "loops"), exist_ok=True)


def wl(name, text):
    w(os.path.join("loops", name), text)



# a bun.lock key of 128 segments of 4,000 characters (the nesting bound's
# limit) whose 2,000 x S dependencies are installed nowhere: each one is
# looked up at every level of the key
segs = ["s%d%s" % (i, "x" * 4000) for i in range(128)]
bun = {"lockfileVersion": 1,
       "workspaces": {"": {"name": "x", "dependencies": {"s0" + "x" * 4000: "1.0.0"}}},
       "packages": {"/".join(segs): ["s127@1.0.0", "", {"dependencies": {"nq%d" % i: "1" for i in range(2000 * s)}},
                                     "sha512-" + "A" * 86 + "=="]}}
wl("bunpath.bun.lock", json.dumps(bun))

# 260 x S npm packages with 15,000-character names, for an include pattern
# of 15 KB (shapes.sh): a backtracking matcher walks name x pattern per package
glob = {"": {"name": "x", "version": "1.0.0"}}
glob.update(("node_modules/%s-%d" % ("a" * 15000, i), {"version": "1.0.0"}) for i in range(260 * s))
wl("glob.package-lock.json", json.dumps({"name": "x", "lockfileVersion": 3, "packages": glob}))
wl("glob.pattern", "*" + "a" * 15000 + "b*")

# a pixi.toml of 20,000 x S features, each declaring the shared d0 and a
# dependency of its own, all in the default environment, with a pixi.lock
# locking d0..d99: each dependency once checked against every feature, d0's
# declared_in re-printed per feature
nf = 20000 * s
toml = ['[workspace]', 'name = "x"', 'channels = ["conda-forge"]', 'platforms = ["linux-64"]', '',
        '[dependencies]', 'd1 = "*"', '']
for i in range(nf):
    toml += ['[feature.f%d.dependencies]' % i, 'd0 = "*"', 'u%d = "*"' % i]
toml += ['', '[environments]', 'default = [%s]' % ", ".join('"f%d"' % i for i in range(nf))]
wl("features.pixi.toml", "\n".join(toml) + "\n")
url = "https://conda.anaconda.org/conda-forge/linux-64/d%d-1.0-h0_0.conda"
lk = ["version: 6", "environments:", "  default:", "    channels:", "    - url: https://conda.anaconda.org/conda-forge/",
      "    packages:", "      linux-64:"]
lk += ["      - conda: " + url % i for i in range(100)]
lk.append("packages:")
for i in range(100):
    lk += ["- conda: " + url % i, "  sha256: " + "%064x" % i, "  md5: " + "%032x" % i, "  license: MIT",
           "  size: 1000", "  timestamp: 1700000000000"]
wl("features.pixi.lock", "\n".join(lk) + "\n")

# 8,000 x S copies of x@1.0.0, each with a license of its own: the other
# licenses were re-scanned and re-printed per copy
cp = {"": {"name": "r", "version": "1.0.0", "dependencies": {"p0": "1"}}}
for i in range(8000 * s):
    cp["node_modules/p%d" % i] = {"version": "1.0.0"}
    cp["node_modules/p%d/node_modules/x" % i] = {"version": "1.0.0", "license": "LicenseRef-copy-%d" % i}
wl("copies.package-lock.json", json.dumps({"name": "r", "lockfileVersion": 3, "packages": cp}))

# a chain 5,000 x S deep, all hoisted: the tree report draws depth x rows
ch = {"": {"name": "r", "version": "1.0.0", "dependencies": {"c0": "1"}}}
n = 5000 * s
for i in range(n):
    e = {"version": "1.0.0"}
    if i + 1 < n:
        e["dependencies"] = {"c%d" % (i + 1): "1"}
    ch["node_modules/c%d" % i] = e
wl("chain.package-lock.json", json.dumps({"name": "r", "lockfileVersion": 3, "packages": ch}))
# ---- end of loops ----
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
