#!/usr/bin/env python3
"""check-ruby.py KIND LOCKFILE CYCLONEDX.json - an independent reading of a
Gemfile.lock (KIND gem), Podfile.lock (pods) or mix.lock (mix), written
from the formats' own descriptions and not from sbomd's readers, compared
with sbomd's CycloneDX document: every component's purl (parsed, qualifiers
decoded, so the spelling of the encoding is not what is compared), its
SHA-256, every edge, and the root's edges (every stated direct dependency
is one; any other root edge must be to a component the direct ones do not
reach, which sbomd hangs from the root so the graph stays closed; without
stated direct dependencies (mix.lock), every component nothing depends on).

Prints one line: "<n> components compared, <m> mismatches"; each mismatch
on stderr. No difference is expected, so none is justified here.
"""
import re
import sys
import json
from urllib.parse import unquote


def parse_purl(p):
    """(type, namespace, name, version, {qualifiers}, subpath), decoded"""
    assert p.startswith("pkg:"), p
    rest = p[4:]
    sub = None
    if "#" in rest:
        rest, sub = rest.split("#", 1)
        sub = unquote(sub)
    quals = {}
    if "?" in rest:
        rest, q = rest.split("?", 1)
        for kv in q.split("&"):
            k, v = kv.split("=", 1)
            quals[k] = unquote(v)
    ver = None
    if "@" in rest:
        rest, ver = rest.rsplit("@", 1)
        ver = unquote(ver)
    parts = rest.split("/")
    typ, name = parts[0], unquote(parts[-1])
    ns = "/".join(unquote(x) for x in parts[1:-1]) or None
    return (typ, ns, name, ver, tuple(sorted(quals.items())), sub)


def purl(typ, name, version, quals=None, ns=None, sub=None):
    return (typ, ns, name, version, tuple(sorted((quals or {}).items())), sub)


# ---- Gemfile.lock -------------------------------------------------------

RUBYGEMS = {"https://rubygems.org/", "https://rubygems.org", "http://rubygems.org/", "https://rubygems.org/gems/"}


def read_gem(text):
    comps = {}  # key -> dict(name, purl, sha256, deps=[names])
    direct = []
    section = None
    src = None
    cur = None
    for line in text.splitlines():
        line = line.rstrip("\r").rstrip(" ")
        if not line:
            continue
        if not line.startswith(" "):
            section = line
            cur = None
            if section in ("GEM", "GIT", "PATH", "PLUGIN SOURCE"):
                src = {"type": section}
            continue
        ind = len(line) - len(line.lstrip(" "))
        body = line.strip()
        if section in ("GEM", "GIT", "PATH", "PLUGIN SOURCE"):
            if ind == 2 and ": " in body:
                k, v = body.split(": ", 1)
                src.setdefault(k, v)
            elif ind == 4:
                m = re.match(r"^(\S+) \(([^-)]*)(?:-(.*))?\)$", body)
                name, ver, plat = m.group(1), m.group(2), m.group(3)
                key = "%s@%s%s" % (name, ver, "-" + plat if plat else "")
                q = {"platform": plat} if plat else {}
                if section == "GEM":
                    if src.get("remote") not in RUBYGEMS:
                        q["repository_url"] = src["remote"]
                    p = purl("gem", name, ver, q)
                elif section == "GIT":
                    q["vcs_url"] = "git+%s@%s" % (src["remote"], src["revision"])
                    p = purl("gem", name, ver, q)
                elif section == "PATH":
                    p = purl("generic", name, ver)
                else:
                    q["download_url"] = src["remote"]
                    p = purl("gem", name, ver, q)
                if key in comps:
                    cur = None
                    continue
                cur = comps[key] = {"name": name, "purl": p, "sha256": None, "deps": []}
            elif ind == 6 and cur is not None:
                cur["deps"].append(body.split(" ")[0])
        elif section == "DEPENDENCIES":
            direct.append(re.split(r"[ !]", body)[0])
        elif section == "CHECKSUMS":
            m = re.match(r"^(\S+) \(([^)]*)\)(?: (.*))?$", body)
            key = "%s@%s" % (m.group(1), m.group(2))
            for kv in (m.group(3) or "").split(","):
                if kv.startswith("sha256=") and key in comps:
                    comps[key]["sha256"] = kv[7:].lower()
    return comps, direct, True


# ---- Podfile.lock -------------------------------------------------------

TRUNK = {None, "trunk", "https://github.com/CocoaPods/Specs.git", "https://github.com/cocoapods/specs.git",
         "https://cdn.cocoapods.org/"}


def read_pods(text):
    import yaml
    doc = yaml.safe_load(text) or {}
    repo_of = {}
    for repo, pods in (doc.get("SPEC REPOS") or {}).items():
        for p in pods:
            repo_of[p] = repo
    ext = doc.get("EXTERNAL SOURCES") or {}
    co = doc.get("CHECKOUT OPTIONS") or {}
    comps = {}
    for item in doc.get("PODS") or []:
        if isinstance(item, dict):
            (head, deps), = item.items()
        else:
            head, deps = item, []
        m = re.match(r"^(\S+) \((.*)\)$", head)
        name, ver = m.group(1), m.group(2)
        root, _, sub = name.partition("/")
        sub = sub or None
        e = co.get(root) or ext.get(root) or {}
        opts = dict(ext.get(root) or {})
        opts.update(co.get(root) or {})
        rev = opts.get(":commit") or opts.get(":revision") or opts.get(":tag") or opts.get(":branch")
        if ":git" in e:
            q = {"vcs_url": "git+%s" % e[":git"] + ("@" + rev if rev else "")}
            p = purl("cocoapods", root, ver, q, sub=sub)
        elif ":hg" in e or ":svn" in e:
            k = ":hg" if ":hg" in e else ":svn"
            q = {"vcs_url": "%s+%s" % (k[1:], e[k]) + ("@" + rev if rev else "")}
            p = purl("cocoapods", root, ver, q, sub=sub)
        elif ":http" in e:
            p = purl("cocoapods", root, ver, {"download_url": e[":http"]}, sub=sub)
        elif ":path" in e or ":podspec" in e:
            loc = e.get(":path") or e.get(":podspec")
            if "://" in loc:
                p = purl("cocoapods", root, ver, {"download_url": loc}, sub=sub)
            else:
                p = purl("generic", name, ver)
        elif repo_of.get(root) not in TRUNK:
            p = purl("cocoapods", root, ver, {"repository_url": repo_of[root]}, sub=sub)
        else:
            p = purl("cocoapods", root, ver, sub=sub)
        comps[name + "@" + ver] = {"name": name, "purl": p, "sha256": None,
                                   "deps": [d.split(" ")[0] for d in deps or []],
                                   "podspec_sha1": (doc.get("SPEC CHECKSUMS") or {}).get(root)}
    direct = [d.split(" ")[0] for d in doc.get("DEPENDENCIES") or []]
    return comps, direct, "DEPENDENCIES" in doc


# ---- mix.lock: a tokenizer of the Elixir terms a lock holds --------------

TOKEN = re.compile(r'\s+|#[^\n]*|(%\{|[{}\[\],]|=>|[\w@?!]+:(?=\s)|:"(?:\\.|[^"\\])*"|"(?:\\.|[^"\\])*"|'
                   r':[\w@?!]+|[\w.@?!-]+)')


class Key(str):
    pass


class Atom(str):
    pass


def terms(text):
    """the term, as Python: maps as dicts, lists as lists, keywords as (key, value) pairs, tuples as ("tuple", items)"""
    toks = [m.group(1) for m in TOKEN.finditer(text) if m.group(1)]
    pos = [0]

    def val():
        t = toks[pos[0]]
        pos[0] += 1
        if t in ("%{", "{", "["):
            close = "]" if t == "[" else "}"
            items = []
            while toks[pos[0]] != close:
                if toks[pos[0]] == ",":
                    pos[0] += 1
                    continue
                x = val()
                if isinstance(x, Key):
                    items.append((str(x), val()))
                elif t == "%{" and toks[pos[0]] == "=>":
                    pos[0] += 1
                    items.append((x, val()))
                else:
                    items.append(x)
            pos[0] += 1
            return ("tuple", items) if t == "{" else items if t == "[" else dict(items)
        if t.endswith(":"):
            return Key(t[:-1])
        if t.startswith('"'):
            return re.sub(r'\\(.)', r'\1', t[1:-1])
        if t.startswith(':"'):
            return Atom(t[2:-1])
        if t.startswith(":"):
            return Atom(t[1:])
        return Atom(t) if t in ("true", "false", "nil") else t

    return val()


def read_mix(text):
    # a quoted keyword key ("name": ...) is a string immediately followed by ':'
    text = re.sub(r'"((?:\\.|[^"\\])*)":(\s)', r'\1:\2', text)
    top = terms(text)
    entries = top.items() if isinstance(top, dict) else top
    comps = {}
    for app, e in entries:
        kind, el = e
        t = el[0]
        if t == "hex":
            pkg, ver = str(el[1]), el[2]
            repo = el[6] if len(el) > 6 else "hexpm"
            ns = repo[6:] if repo.startswith("hexpm:") else None
            deps = [str(d[1][0]) for d in (el[5] if len(el) > 5 else [])]
            comps[app] = {"name": pkg, "purl": purl("hex", pkg, ver, ns=ns),
                          "sha256": el[7].lower() if len(el) > 7 else None, "deps": deps}
        elif t == "git":
            url, commit = el[1], el[2]
            vcs = ("%s@%s" if url.startswith(("git:", "git+")) else "git+%s@%s") % (url, commit)
            comps[app] = {"name": app, "purl": purl("hex", app, commit, {"vcs_url": vcs}), "sha256": None,
                          "deps": []}
        elif t == "package":
            comps[app] = {"name": app, "purl": purl("hex", app, el[1]), "sha256": None, "deps": []}
        else:
            raise SystemExit("unknown entry %r" % t)
    return comps, None, False


# ---- comparison ---------------------------------------------------------

def main():
    kind, lock, cdx = sys.argv[1:4]
    text = open(lock, encoding="utf-8-sig").read()
    comps, direct, has_direct = {"gem": read_gem, "pods": read_pods, "mix": read_mix}[kind](text)
    doc = json.load(open(cdx))
    bad = []
    got = {}
    for c in doc.get("components", []):
        p = parse_purl(c["purl"])
        sha = [h["content"] for h in c.get("hashes", []) if h["alg"] == "SHA-256"]
        props = {x["name"]: x["value"] for x in c.get("properties", [])}
        got[p] = {"ref": c["bom-ref"], "sha256": sha[0] if sha else None, "props": props}
    ref_to_purl = {v["ref"]: k for k, v in got.items()}
    want = {c["purl"]: c for c in comps.values()}
    for p in want:
        if p not in got:
            bad.append("missing component %s" % (p,))
    for p in got:
        if p not in want:
            bad.append("extra component %s" % (p,))
    for p, c in want.items():
        g = got.get(p)
        if g is None:
            continue
        if c["sha256"] != g["sha256"]:
            bad.append("%s: sha256 %s, document %s" % (p, c["sha256"], g["sha256"]))
        if c.get("podspec_sha1") and g["props"].get("pixi:podspec-sha1") != c["podspec_sha1"]:
            bad.append("%s: podspec sha1 %s, document %s" % (p, c["podspec_sha1"], g["props"].get("pixi:podspec-sha1")))
    # edges: a name (mix: an application) is an edge to every component of it
    by_name = {}
    for key, c in comps.items():
        by_name.setdefault(key if kind == "mix" else c["name"], []).append(c["purl"])
    edges = {c["purl"]: set() for c in comps.values()}
    for c in comps.values():
        for d in c["deps"]:
            for t in by_name.get(d, []):
                if t != c["purl"]:
                    edges[c["purl"]].add(t)
    dmap = {d["ref"]: d.get("dependsOn", []) for d in doc.get("dependencies", [])}
    for p, e in edges.items():
        if p not in got:
            continue
        have = {ref_to_purl.get(r) for r in dmap.get(got[p]["ref"], [])}
        if have != e:
            bad.append("%s: edges differ: missing %s, extra %s" % (p, sorted(map(str, e - have)), sorted(map(str, have - e))))
    root_ref = doc["metadata"]["component"]["bom-ref"]
    roots = {ref_to_purl.get(r) for r in dmap.get(root_ref, [])}
    if has_direct:
        want_roots = {t for d in direct for t in by_name.get(d, [])}
    else:
        indeg = {p: 0 for p in edges}
        for e in edges.values():
            for t in e:
                indeg[t] += 1
        want_roots = {p for p, n in indeg.items() if n == 0}
    for p in want_roots - roots:
        bad.append("root: no edge to %s" % (p,))
    seen, todo = set(want_roots), list(want_roots)
    while todo:
        for t in edges.get(todo.pop(), ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    for p in roots - want_roots:
        if p in seen:
            bad.append("root: an edge to %s, which the stated roots reach" % (p,))
    for b in bad:
        print("  " + b, file=sys.stderr)
    print("%d components compared, %d mismatches" % (len(want), len(bad)))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
