#!/usr/bin/env python3
"""check-go.py KIND CDX FILE [FILE2] - an independent reading of a Go
(go.mod, go.sum or both), SwiftPM (Package.resolved) or Gradle lockfile,
held to sbomd's CycloneDX document of the same input.

KIND is go, swiftpm or gradle; for go, FILE and FILE2 are go.mod and/or
go.sum (either may be "-"). What is compared, per component (by name and
version): the purl, the hashes (none of these locks records a digest of an
artifact, so none may appear), the properties that carry what the lock
states (pixi:go-h1, pixi:go-mod-h1, pixi:direct, pixi:go-replaced-by,
pixi:swift-identity, pixi:source-rev, pixi:source-branch,
pixi:gradle-configurations), the scope (gradle), and the graph: no lock
states an edge between two packages, so no component depends on another,
the root depends on every component, and the dependency composition says
"unknown".

The reading follows the formats, written here from their descriptions:
 - go.mod: `require` (line and block form, `// indirect`), `replace`
   (module => module version, or => folder), `exclude`, the go line. With
   go >= 1.17 go.mod's requirements are the components; before (or without
   a go line) each module go.sum has files for and go.mod does not require
   joins, at its highest version, as indirect. go.sum alone: each module
   with a files line, highest version. h1 lines become pixi:go-h1 /
   pixi:go-mod-h1 of what is fetched (the replacement when replaced).
   Purl: pkg:golang/<path lower-cased>@<version> of what is fetched; a
   folder replacement is pkg:generic.
 - Package.resolved: pins (v1 object.pins/package/repositoryURL, v2/v3
   pins/identity/location); name host/owner/repo from the URL; version the
   version, else the revision.
 - gradle: group:artifact:version=confs lines; scope required when a conf
   is a non-test compile/runtime classpath, else development (CycloneDX
   writes development as "optional"); bare lines have no scope.

Named differences: none are expected. The one place this reading and the
reader could part on purpose is Go's version order, used to pick a path's
highest version in go.sum: here it is a small SemVer comparison of its own
(pre-releases as Go orders them); the fixtures never hold a tie it could
break differently.

Prints "N components compared, M mismatches" and each mismatch; exit 1 on any.
"""
import json
import re
import sys
from urllib.parse import quote

kind, cdx_path = sys.argv[1], sys.argv[2]
files = sys.argv[3:]


def purl(ptype, ns, name, version, quals=None):
    def enc(s):
        return quote(s, safe="")

    p = "pkg:%s/" % ptype
    if ns:
        p += "/".join(enc(seg) for seg in ns.split("/")) + "/"
    p += enc(name)
    if version:
        p += "@" + enc(version)
    if quals:
        p += "?" + "&".join("%s=%s" % (k, quote(v, safe="/:")) for k, v in sorted(quals.items()))
    return p


def split_ns(path):
    i = path.rfind("/")
    return (path[:i], path[i + 1 :]) if i > 0 else (None, path)


# ---- Go ---------------------------------------------------------------------


def semver_key(v):
    m = re.match(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$", v)
    if not m:
        return ((0, 0, 0), 0, ())
    core = tuple(int(x or 0) for x in m.group(1, 2, 3))
    pre = m.group(4)
    if pre is None:
        return (core, 1, ())
    ids = tuple((0, int(x), "") if x.isdigit() else (1, 0, x) for x in pre.split("."))
    return (core, 0, ids)


def go_tokens(line):
    out, i = [], 0
    comment = None
    while i < len(line):
        c = line[i]
        if c in " \t\r":
            i += 1
        elif line.startswith("//", i):
            comment = line[i + 2 :].strip()
            break
        elif c in "\"`":
            j = line.index(c, i + 1)
            out.append(line[i + 1 : j].replace('\\"', '"'))
            i = j + 1
        elif c in "()":
            out.append(c)
            i += 1
        else:
            j = i
            while j < len(line) and line[j] not in " \t\r()\"`":
                j += 1
            out.append(line[i:j])
            i = j
    return out, comment


def read_go(mod_text, sum_text):
    reqs, reps, excl, gover = {}, [], set(), None
    order = []
    if mod_text is not None:
        block = None
        for raw in mod_text.splitlines():
            toks, comment = go_tokens(raw)
            if not toks:
                continue
            if block:
                if toks == [")"]:
                    block = None
                    continue
                verb, args = block, toks
            else:
                if len(toks) >= 2 and toks[1] == "(":
                    block = toks[0]
                    continue
                verb, args = toks[0], toks[1:]
            indirect = comment is not None and (comment == "indirect" or comment.startswith("indirect;"))
            if verb == "require":
                path, ver = args
                if path in reqs:
                    old = reqs[path]
                    if semver_key(ver) > semver_key(old[0]):
                        reqs[path] = (ver, old[1] and indirect)
                    else:
                        reqs[path] = (old[0], old[1] and indirect)
                else:
                    reqs[path] = (ver, indirect)
                    order.append(path)
            elif verb == "replace":
                a = args.index("=>")
                old = args[:a]
                new = args[a + 1 :]
                reps.append((old[0], old[1] if len(old) > 1 else None, new[0], new[1] if len(new) > 1 else None))
            elif verb == "exclude":
                excl.add((args[0], args[1]))
            elif verb == "go":
                m = re.match(r"(\d+)\.(\d+)", args[0])
                gover = (int(m.group(1)), int(m.group(2))) if m else None
    sums, best = {}, {}
    if sum_text is not None:
        for raw in sum_text.splitlines():
            f = raw.split()
            if len(f) != 3:
                continue
            path, ver, h = f
            if ver.endswith("/go.mod"):
                sums[(path, ver[:-7], True)] = h
            else:
                sums[(path, ver, False)] = h
                if path not in best or semver_key(ver) > semver_key(best[path]):
                    best[path] = ver
    comps = []
    for path in order:
        ver, ind = reqs[path]
        comps.append((path, ver, "false" if ind else "true"))
    pruned = gover is not None and gover >= (1, 17)
    if mod_text is None or not pruned:
        for path, ver in best.items():
            if path in reqs or (path, ver) in excl:
                continue
            comps.append((path, ver, "false" if mod_text is not None else None))
    want = {}
    for path, ver, direct in comps:
        rep = None
        for r in reps:  # the last matching wins; a versioned one over an unversioned one
            if r[0] == path and r[1] == ver:
                rep = r
        if rep is None:
            for r in reps:
                if r[0] == path and r[1] is None:
                    rep = r
        props = {}
        if direct is not None:
            props["pixi:direct"] = direct
        if rep and rep[3] is None:
            ns, name = None, path
            p = "pkg:generic/" + quote(path, safe="") + "@" + quote(ver, safe="")
            props["pixi:go-replaced-by"] = rep[2]
        else:
            fpath, fver = (rep[2], rep[3]) if rep else (path, ver)
            if rep:
                props["pixi:go-replaced-by"] = "%s %s" % (fpath, fver)
            ns, name = split_ns(fpath.lower())
            p = purl("golang", ns, name, fver)
            if (fpath, fver, False) in sums:
                props["pixi:go-h1"] = sums[(fpath, fver, False)]
            if (fpath, fver, True) in sums:
                props["pixi:go-mod-h1"] = sums[(fpath, fver, True)]
        want[(path, ver)] = {"purl": p, "props": props, "scope": None}
    return want


# ---- SwiftPM ------------------------------------------------------------------


def url_identity(url):
    m = re.match(r"^[a-z+]+://(?:[^@/]*@)?([^/:]+)(?::\d*)?/+(.*)$", url)
    if not m:
        m = re.match(r"^(?:[^@/]*@)?([^/:]+):/*(.*)$", url)
    host, path = m.group(1).lower(), m.group(2)
    path = path.split("?")[0].split("#")[0].rstrip("/")
    if path.endswith(".git"):
        path = path[:-4]
    return host + "/" + path


def read_swift(text):
    doc = json.loads(text)
    v = doc["version"]
    pins = doc["object"]["pins"] if v == 1 else doc["pins"]
    want = {}
    for pin in pins:
        ident = pin["package"] if v == 1 else pin["identity"]
        loc = pin["repositoryURL"] if v == 1 else pin["location"]
        pkind = "remoteSourceControl" if v == 1 else pin["kind"]
        st = pin["state"]
        ver = st.get("version") or st.get("revision")
        props = {"pixi:swift-identity": ident}
        if st.get("revision"):
            props["pixi:source-rev"] = st["revision"]
        if st.get("branch"):
            props["pixi:source-branch"] = st["branch"]
        if pkind == "remoteSourceControl":
            name = url_identity(loc)
            ns, base = split_ns(name)
            p = purl("swift", ns, base, ver)
        elif pkind == "registry":
            scope, _, base = ident.partition(".")
            name = scope + "/" + base
            p = purl("swift", scope, base, ver)
        else:
            name = ident
            p = "pkg:generic/" + quote(name, safe="") + "@" + quote(ver, safe="")
        want[(name, ver)] = {"purl": p, "props": props, "scope": None}
    return want


# ---- Gradle -------------------------------------------------------------------


def product_conf(c):
    if c.startswith("test") or "Test" in c:
        return False
    return c.endswith("ompileClasspath") or c.endswith("untimeClasspath") or c in ("compile", "runtime", "default")


def read_gradle(text):
    want = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        coord, eq, confs = line.partition("=")
        if coord == "empty" and eq:
            continue
        group, artifact, version = coord.split(":")
        props, scope = {}, None
        if confs:
            props["pixi:gradle-configurations"] = confs
            scope = "required" if any(product_conf(c) for c in confs.split(",")) else "optional"
        want[(group + ":" + artifact, version)] = {
            "purl": purl("maven", group, artifact, version),
            "props": props,
            "scope": scope,
        }
    return want


def text_of(path):
    return None if path == "-" else open(path, encoding="utf-8").read()


if kind == "go":
    mod = sum_ = None
    for f in files:
        t = text_of(f)
        if t is None:
            continue
        if f.endswith("go.mod"):
            mod = t
        else:
            sum_ = t
    want = read_go(mod, sum_)
    checked = ("pixi:go-h1", "pixi:go-mod-h1", "pixi:direct", "pixi:go-replaced-by")
elif kind == "swiftpm":
    want = read_swift(text_of(files[0]))
    checked = ("pixi:swift-identity", "pixi:source-rev", "pixi:source-branch")
else:
    want = read_gradle(text_of(files[0]))
    checked = ("pixi:gradle-configurations",)

cdx = json.load(open(cdx_path))
got = {}
for c in cdx.get("components", []):
    got[(c["name"], c.get("version"))] = c
bad = []
for key in sorted(set(want) | set(got), key=str):
    if key not in got:
        bad.append("missing from the document: %s@%s" % key)
        continue
    if key not in want:
        bad.append("not in the lockfile: %s@%s" % key)
        continue
    w, c = want[key], got[key]
    if c.get("purl") != w["purl"]:
        bad.append("%s@%s: purl %s, expected %s" % (key + (c.get("purl"), w["purl"])))
    if c.get("hashes"):
        bad.append("%s@%s: hashes %s where the lock records no artifact digest" % (key + (c["hashes"],)))
    props = {p["name"]: p["value"] for p in c.get("properties", []) if p["name"] in checked}
    if props != w["props"]:
        bad.append("%s@%s: properties %s, expected %s" % (key + (props, w["props"])))
    if c.get("scope") != w["scope"]:
        bad.append("%s@%s: scope %s, expected %s" % (key + (c.get("scope"), w["scope"])))
refs = {c["bom-ref"] for c in cdx.get("components", [])}
deps = {d["ref"]: set(d.get("dependsOn", [])) for d in cdx.get("dependencies", [])}
for ref in refs:
    if deps.get(ref):
        bad.append("%s depends on %s: the lock states no such edge" % (ref, sorted(deps[ref])))
if deps.get("root", set()) != refs:
    bad.append("the root depends on %d of %d components" % (len(deps.get("root", set()) & refs), len(refs)))
aggs = [c.get("aggregate") for c in cdx.get("compositions", []) if c.get("dependencies")]
if aggs and aggs != ["unknown"]:
    bad.append("dependency composition %s, expected unknown" % aggs)
print("%d components compared, %d mismatches" % (len(want), len(bad)))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
