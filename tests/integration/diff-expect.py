#!/usr/bin/python3
"""diff-expect.py KIND BASE HEAD ANSWER.json - what /v1/diff must say about
two revisions of a lockfile, worked out here without sbomd, compared with
the answer sbomd gave (its JSON output). Prints the number of rows when they
agree; otherwise every difference, and exits 1.

Independent on purpose: the package lists come from the lockfiles through
PyYAML / tomllib (uv's walk and pnpm's keys from count-py.py / count-js.py),
PEP 440 order from the `packaging` library, conda's and SemVer's order from
the small implementations below. The rules are core/diff.h's: match by
(kind, name) with PyPI names PEP 503-normalized and conda names folded;
equal versions pair first, then one major line newest with newest, then a
name with one version each side; a version string change is upgraded or
downgraded by the ecosystem's order (equal by that order: no row); a
license change compares the lockfile's strings ("None" is none); a source
change compares the channel (conda) or the artifact URL's host (PyPI).

KIND: pixi (v1-v3 `package:` list or v4/v5 environments), uv, pnpm.
Selection: environment default, platform linux-64.
"""
import functools
import importlib.util
import json
import posixpath
import os
import re
import sys
import tomllib

import yaml
from packaging.version import InvalidVersion, Version

here = os.path.dirname(os.path.abspath(__file__))


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(here, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pep503(name):
    return re.sub(r"[-_.]+", "-", name).lower()


# ---- version orders ---------------------------------------------------------

def conda_key(v):
    """conda's VersionOrder as a comparable list (epoch, components, local)."""
    v = (v or "").strip().lower()
    epoch = 0
    if "!" in v:
        e, v = v.split("!", 1)
        epoch = int(e) if e.isdigit() else 0
    v, _, local = v.partition("+")

    def comps(s):
        out = []
        for c in re.split(r"[._-]", s) if s else []:
            parts = re.findall(r"\d+|[^\d]+", c)
            if parts and not parts[0].isdigit():
                parts.insert(0, "0")
            out.append([conv(p) for p in parts])
        return out
    return epoch, comps(v), comps(local)


def conv(p):
    if p.isdigit():
        return (2, int(p), "")
    if p == "dev":
        return (0, 0, "")
    if p == "post":
        return (3, 0, "")
    return (1, 0, p)


def conda_cmp(a, b):
    ka, kb = conda_key(a), conda_key(b)
    if ka[0] != kb[0]:
        return -1 if ka[0] < kb[0] else 1
    for x, y in ((ka[1], kb[1]), (ka[2], kb[2])):
        for i in range(max(len(x), len(y))):
            cx = x[i] if i < len(x) else [(2, 0, "")]
            cy = y[i] if i < len(y) else [(2, 0, "")]
            for j in range(max(len(cx), len(cy))):
                ex = cx[j] if j < len(cx) else (2, 0, "")
                ey = cy[j] if j < len(cy) else (2, 0, "")
                if ex != ey:
                    return -1 if ex < ey else 1
    return 0


def semver_cmp(a, b):
    def parse(s):
        m = re.match(r"^[v=]?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$", s or "")
        return m
    ma, mb = parse(a), parse(b)
    if not ma or not mb:
        return conda_cmp(a, b)
    for i in (1, 2, 3):
        x, y = int(ma.group(i)), int(mb.group(i))
        if x != y:
            return -1 if x < y else 1
    pa, pb = ma.group(4), mb.group(4)
    if pa is None or pb is None:
        return (pa is None) - (pb is None)
    ia, ib = pa.split("."), pb.split(".")
    for x, y in zip(ia, ib):
        if x == y:
            continue
        if x.isdigit() and y.isdigit():
            return -1 if int(x) < int(y) else 1
        if x.isdigit() != y.isdigit():
            return -1 if x.isdigit() else 1
        return -1 if x < y else 1
    return (len(ia) > len(ib)) - (len(ia) < len(ib))


def pep440_cmp(a, b):
    try:
        x, y = Version(a), Version(b)
    except InvalidVersion:
        return conda_cmp(a, b)
    return (x > y) - (x < y)


ORDER = {"conda": conda_cmp, "pypi": pep440_cmp, "npm": semver_cmp}


# ---- package lists: (kind, key, name, version, license, source) ---------------

def host(url):
    m = re.match(r"https?://(?:[^/@]*@)?([^/?#]+)", url or "")
    return m.group(1) if m else url


def conda_channel(url):
    return url.rsplit("/", 2)[0] if url else None


def lic(s):
    return None if s in (None, "", "None") else s


def pixi(path):
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    out = []
    if "environments" in doc:
        refs = doc["environments"]["default"]["packages"].get("linux-64", [])
        byurl = {}
        for p in doc.get("packages", []):
            url = p.get("url") or p.get("conda") or p.get("pypi")
            byurl[url] = p
        for r in refs:
            kind, url = next(iter(r.items()))
            p = byurl[url]
            out.append(entry("conda" if kind == "conda" else "pypi", p["name"], str(p["version"]),
                             p.get("license"), url))
    else:
        for p in doc.get("package", []):
            if p.get("platform") != "linux-64":
                continue
            kind = "conda" if p.get("manager") == "conda" else "pypi"
            out.append(entry(kind, p["name"], str(p["version"]), p.get("license"), p.get("url")))
    return out


def entry(kind, name, version, license, url):
    key = pep503(name) if kind == "pypi" else name.lower() if kind == "conda" else name
    src = conda_channel(url) if kind == "conda" else host(url)
    return (kind, key, version, lic(license), src)


def uv(path):
    cp = load("count-py")
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    env = cp.environment("linux-64", cp.floor(doc.get("requires-python"), "3.14"))
    return [entry("pypi", p["name"], p.get("version"), None, None) for p in cp.uv_packages(doc, env)]


def pnpm(path):
    cj = load("count-js")
    with open(path, encoding="utf-8-sig") as f:
        docs = [d for d in yaml.load_all(f, Loader=yaml.BaseLoader) if isinstance(d, dict) and "lockfileVersion" in d]
    doc = docs[-1]
    major = int(doc["lockfileVersion"].split(".")[0])
    seen = set()
    for key, e in (doc.get("packages") or {}).items():
        e = e or {}
        n, v = cj.pnpm_split(key, major)
        seen.add((e.get("name", n), e.get("version", v), cj.pnpm_source(e.get("resolution"))))
    imps = doc.get("importers") or {}
    names, used = {}, set()
    # a member is named as the first importer linking it names it (pnpm links a
    # workspace: dependency by the member's package.json name), else by its path
    for imp, e in imps.items():
        for sect in ("dependencies", "optionalDependencies", "devDependencies"):
            for name, spec in ((e or {}).get(sect) or {}).items():
                ref = spec.get("version") if isinstance(spec, dict) else spec
                if not ref or not ref.startswith("link:"):
                    continue
                target = posixpath.normpath(posixpath.join("" if imp == "." else imp, ref[5:]))
                if target in imps and target != "." and target not in names and name not in used:
                    names[target] = name
                    used.add(name)
    dirs = {}
    for key, e in (doc.get("packages") or {}).items():
        res = (e or {}).get("resolution") or {}
        if isinstance(res, dict) and res.get("type") == "directory":
            dirs[res.get("directory")] = True
    for imp in imps:  # workspace members; an injected copy of the folder is that package
        if imp != "." and imp not in dirs:
            seen.add((names.get(imp, imp), None, "importer:" + imp))
    return [("npm", n, v, None, s) for n, v, s in seen]


# ---- the rules ------------------------------------------------------------------

def major(v):
    m = re.search(r"\d+", v or "")
    return m.group(0) if m else None


def expect(base, head):
    groups = {}
    for side, pkgs in ((0, base), (1, head)):
        for p in pkgs:
            groups.setdefault((p[0], p[1]), ([], []))[side].append(p)
    rows, unchanged = [], 0
    for (kind, key), (bs, hs) in groups.items():
        order = ORDER[kind]
        pairs, ub, uh = [], list(bs), list(hs)
        for b in list(ub):  # equal versions
            for h in uh:
                if h[2] == b[2]:
                    pairs.append((b, h))
                    ub.remove(b)
                    uh.remove(h)
                    break
        srt = functools.cmp_to_key(lambda x, y: order(x[2], y[2]))
        for h in sorted(uh, key=srt, reverse=True):  # one major line, newest first
            cands = [b for b in sorted(ub, key=srt, reverse=True) if major(b[2]) and major(b[2]) == major(h[2])]
            if cands:
                pairs.append((cands[0], h))
                ub.remove(cands[0])
                uh.remove(h)
        if len(bs) == 1 and len(hs) == 1 and ub and uh:
            pairs.append((ub.pop(), uh.pop()))
        rows += [("removed", kind, key, b[2], None) for b in ub]
        rows += [("added", kind, key, None, h[2]) for h in uh]
        for b, h in pairs:
            n = len(rows)
            if b[2] != h[2]:
                c = order(b[2], h[2])
                if c:
                    rows.append(("upgraded" if c < 0 else "downgraded", kind, key, b[2], h[2]))
            if b[3] != h[3]:
                rows.append(("license-changed", kind, key, b[2], h[2]))
            if b[4] != h[4]:
                rows.append(("source-changed", kind, key, b[2], h[2]))
            unchanged += len(rows) == n
    return rows, unchanged


def main():
    kind, base, head, answer = sys.argv[1:5]
    read = {"pixi": pixi, "uv": uv, "pnpm": pnpm}[kind]
    want, unchanged = expect(read(base), read(head))
    with open(answer, encoding="utf-8") as f:
        got_doc = json.load(f)

    def key_of(k, n):
        return pep503(n) if k == "pypi" else n.lower() if k == "conda" else n
    # hash-changed and scope-changed are not worked out here (the digests and
    # scopes are the readers'): each such row must say what changed, and the
    # pair it is about is then no longer unchanged
    bad = 0
    extra = [r for r in got_doc["diff"] if r["change"] in ("hash-changed", "scope-changed")]
    for r in extra:
        if r["change"] == "hash-changed" and not (r["base_version"] == r["head_version"] and r["base_hash"]
                                                  and r["head_hash"] and r["base_hash"] != r["head_hash"]):
            print("hash-changed row without a changed digest of one version:", r)
            bad += 1
        if r["change"] == "scope-changed" and not (r["base_scope"] and r["head_scope"]
                                                   and r["base_scope"] != r["head_scope"]):
            print("scope-changed row without two different scopes:", r)
            bad += 1
    got = [(r["change"], r["kind"], key_of(r["kind"], r["name"]), r["base_version"], r["head_version"])
           for r in got_doc["diff"] if r not in extra]
    pairs_with_rows = {(k, n, b, h) for _, k, n, b, h in want}
    unchanged -= len({(r["kind"], key_of(r["kind"], r["name"]), r["base_version"], r["head_version"]) for r in extra}
                     - pairs_with_rows)
    for r in sorted(set(want) - set(got), key=str):
        print("missing from sbomd's answer:", r)
        bad += 1
    for r in sorted(set(got) - set(want), key=str):
        print("not expected:", r)
        bad += 1
    if len(got) != len(want):
        print("rows: sbomd %d, expected %d" % (len(got), len(want)))
        bad += 1
    s = got_doc["summary"]
    for c in ("added", "removed", "upgraded", "downgraded", "license-changed", "source-changed"):
        n = sum(1 for r in want if r[0] == c)
        if s[c.replace("-", "_")] != n:
            print("summary %s: sbomd %d, expected %d" % (c, s[c.replace("-", "_")], n))
            bad += 1
    if s["unchanged"] != unchanged:
        print("summary unchanged: sbomd %d, expected %d" % (s["unchanged"], unchanged))
        bad += 1
    if bad:
        sys.exit(1)
    print(len(want))


if __name__ == "__main__":
    main()
