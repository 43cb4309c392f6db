#!/usr/bin/env python3
"""check-cargo.py - an independent reading of Cargo.lock and conan.lock,
compared with sbomd's CycloneDX document of the same file:

    check-cargo.py cargo|conan LOCKFILE CYCLONEDX.json

Reads the lockfile with Python's own parsers (tomllib, json), derives what
the lock states by the purl spec and the tools' own rules, and compares:
the components (by purl, qualifiers decoded), their SHA-256 hashes, every
dependency edge, the document root's edges (direct dependencies) and the
CycloneDX scope. Prints one line
    components N compared, mismatches M (justified J)
then one line per difference; exits 1 when an unjustified one is left.

Justified differences, by what the lockfile itself says:
  - Cargo: a dependency string naming a package the file does not hold is
    not an edge (Cargo drops it when it loads the file); the checker drops it
    too and counts it as "dropped" (fd's bad merge names dirs 2.0.2).
  - Cargo: a file with [metadata] checksums and inline ones is a bad merge
    Cargo reads as version 2 and discards every checksum of; neither side
    has a hash then (counted as "checksums discarded").
  - Cargo: a package no stated edge reaches (fd's dirs-next, whose
    dependents name dirs 2.0.2) hangs off the document root, marked
    pixi:orphan; the checker finds nothing reaching it (counted as "orphans").
These are not mismatches: the two readings agree on them. Nothing else is
excused.
"""
import json
import sys
import tomllib
from urllib.parse import unquote

CRATES = {
    "registry+https://github.com/rust-lang/crates.io-index",
    "sparse+https://index.crates.io/",
    "sparse+https://index.crates.io",
}


def purl_key(p):
    """(type, namespace, name, version, sorted qualifiers) of a purl string."""
    assert p.startswith("pkg:"), p
    rest = p[4:]
    quals = {}
    if "?" in rest:
        rest, q = rest.split("?", 1)
        for kv in q.split("&"):
            k, v = kv.split("=", 1)
            quals[k.lower()] = unquote(v)
    version = None
    if "@" in rest:
        rest, version = rest.rsplit("@", 1)
        version = unquote(version)
    parts = [unquote(x) for x in rest.split("/")]
    typ, name, ns = parts[0], parts[-1], "/".join(parts[1:-1]) or None
    return (typ, ns, name, version, tuple(sorted(quals.items())))


def show(k):
    typ, ns, name, ver, q = k
    s = f"pkg:{typ}/" + (ns + "/" if ns else "") + f"{name}@{ver}"
    return s + ("?" + "&".join(f"{a}={b}" for a, b in q) if q else "")


# ---- Cargo -----------------------------------------------------------------


def cargo_purl(name, version, source):
    if source is None:
        return ("generic", None, name, version, ())
    if source in CRATES:
        return ("cargo", None, name, version, ())
    if source.startswith("git+"):
        url, _, commit = source.partition("#")
        url = url.split("?", 1)[0]
        return ("cargo", None, name, version, (("vcs_url", f"{url}@{commit}" if commit else url),))
    for pre in ("registry+", "sparse+"):
        if source.startswith(pre):
            return ("cargo", None, name, version, (("repository_url", source[len(pre):]),))
    return ("cargo", None, name, version, (("download_url", source),))


def cargo_expect(path, notes):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    pkgs = list(doc.get("package", []))
    if "root" in doc:
        pkgs.append(dict(doc["root"], _root=True))
    meta = {k[len("checksum "):]: v for k, v in doc.get("metadata", {}).items() if k.startswith("checksum ")}
    inline = any("checksum" in p for p in pkgs)
    discard = bool(meta) and inline
    if discard:
        notes["checksums discarded"] = sum(1 for p in pkgs if "checksum" in p) + len(meta)

    def ident(p):
        return (p["name"], p["version"], p.get("source"))

    def find(dep):
        parts = dep.split(" ", 2)
        name = parts[0]
        ver = parts[1] if len(parts) > 1 else None
        src = parts[2][1:-1] if len(parts) > 2 else None
        c = [i for i, p in enumerate(pkgs) if p["name"] == name and (ver is None or p["version"] == ver)]
        if src is not None:
            c = [i for i in c if pkgs[i].get("source") == src] or [
                i for i in c if (pkgs[i].get("source") or "").split("#")[0] == src.split("#")[0]]
        return c[0] if c else None

    purls = [cargo_purl(*ident(p)) for p in pkgs]
    hashes = {}
    for i, p in enumerate(pkgs):
        h = None
        if not discard:
            h = p.get("checksum")
            if h is None:
                src = p.get("source")
                h = meta.get(f"{p['name']} {p['version']} ({src})") if src else None
                if h == "<none>":
                    h = None
        hashes[purls[i]] = h.lower() if h else None
    edges = set()
    indeg = [0] * len(pkgs)
    deps_of = []
    for i, p in enumerate(pkgs):
        mine = set()
        for d in p.get("dependencies", []):
            t = find(d)
            if t is None:
                notes["dropped"] = notes.get("dropped", 0) + 1
                continue
            mine.add(t)
        deps_of.append(mine)
        for t in mine:
            edges.add((purls[i], purls[t]))
            if t != i:
                indeg[t] += 1
    root = next((i for i, p in enumerate(pkgs) if p.get("_root")), None)
    if root is None:
        tops = [i for i, p in enumerate(pkgs) if "source" not in p and indeg[i] == 0]
        if len(tops) == 1:
            root = tops[0]
    if root is not None:
        direct = {purls[t] for t in deps_of[root] if t != root}
        comps = {purls[i] for i in range(len(pkgs)) if i != root}
        edges = {(a, b) for a, b in edges if a != purls[root] and b != purls[root]}
        # an edge into the root (none in real files) would not be a component's
    else:
        direct = {purls[i] for i, p in enumerate(pkgs) if "source" not in p}
        comps = set(purls)
    scopes = {c: None for c in comps}
    return comps, {c: hashes.get(c) for c in comps}, edges, direct, scopes, False


# ---- Conan -----------------------------------------------------------------


def conan_ref(s):
    ref, _, _binary = s.partition(":")
    ref, _, rev = ref.partition("#")
    rrev = rev.split("%", 1)[0]
    if rrev in ("", "0"):
        rrev = None
    nv, _, uc = ref.partition("@")
    name, version = nv.split("/", 1)
    user, _, channel = uc.partition("/")
    q = []
    if user and user != "_":
        q.append(("user", user))
    if channel and channel != "_":
        q.append(("channel", channel))
    if rrev:
        q.append(("rrev", rrev))
    return ("conan", None, name, version, tuple(sorted(q)))


def conan_expect(path, notes):
    with open(path) as f:
        doc = json.load(f)
    if "graph_lock" not in doc:
        scope = {}
        for lst in ("requires", "build_requires", "python_requires", "config_requires"):
            for r in doc.get(lst, []):
                k = conan_ref(r)
                scope[k] = "required" if lst == "requires" or scope.get(k) == "required" else "optional"
        comps = set(scope)
        # no edges are stated: the root hangs every package (pixi:incomplete says why)
        return comps, {c: None for c in comps}, set(), set(comps), scope, True
    nodes = doc["graph_lock"]["nodes"]

    def ref_of(n):
        r = n.get("ref") or n.get("pref")
        return r if isinstance(r, str) else None

    root = next((i for i, n in nodes.items() if "path" in n), None)
    if root is None:
        refless = [i for i, n in nodes.items() if ref_of(n) is None]
        root = refless[0] if len(refless) == 1 else None

    def targets(n, key):
        v = n.get(key) or []
        return list(v.values()) if isinstance(v, dict) else list(v)

    key = {i: conan_ref(ref_of(n)) for i, n in nodes.items() if ref_of(n) and i != root}
    comps = set(key.values())
    edges, direct = set(), set()
    for i, n in nodes.items():
        outs = [key[t] for t in targets(n, "requires") + targets(n, "build_requires") if t in key]
        outs += [conan_ref(r) for r in n.get("python_requires", [])]
        comps.update(conan_ref(r) for r in n.get("python_requires", []))
        for t in outs:
            if i == root:
                direct.add(t)
            elif i in key:
                edges.add((key[i], t))
    scope = {c: None for c in comps}
    if root is not None:
        how = {root: "required"}
        for pas, keys in (("required", ("requires",)), ("optional", ("requires", "build_requires"))):
            todo = [i for i, h in how.items()]
            while todo:
                i = todo.pop()
                for k2 in keys:
                    for t in targets(nodes[i], k2):
                        if t not in how:
                            how[t] = pas
                            todo.append(t)
        for i, h in how.items():
            if i in key:
                k = key[i]
                if scope.get(k) != "required":
                    scope[k] = h
        for n in nodes.values():
            for r in n.get("python_requires", []):
                k = conan_ref(r)
                if scope.get(k) is None:
                    scope[k] = "optional"
    return comps, {c: None for c in comps}, edges, direct, scope, False


def main():
    kind, lock, cdx = sys.argv[1:4]
    notes = {}
    comps, hashes, edges, direct, scopes, flat = (cargo_expect if kind == "cargo" else conan_expect)(lock, notes)
    with open(cdx) as f:
        d = json.load(f)
    byref = {c["bom-ref"]: c for c in d.get("components", [])}
    got = {purl_key(c["purl"]): c for c in byref.values()}
    diffs = []
    for k in sorted(comps - set(got), key=show):
        diffs.append(f"missing component {show(k)}")
    for k in sorted(set(got) - comps, key=show):
        diffs.append(f"unexpected component {show(k)}")
    for k in sorted(comps & set(got), key=show):
        c = got[k]
        h = {x["alg"]: x["content"] for x in c.get("hashes", [])}.get("SHA-256")
        if h != hashes.get(k):
            diffs.append(f"{show(k)}: SHA-256 {h} != {hashes.get(k)}")
        if c.get("scope") != scopes.get(k):
            diffs.append(f"{show(k)}: scope {c.get('scope')} != {scopes.get(k)}")
    gedges, groot = set(), set()
    for dep in d.get("dependencies", []):
        for t in dep.get("dependsOn", []):
            tk = purl_key(byref[t]["purl"])
            if dep["ref"] == "root":
                groot.add(tk)
            else:
                gedges.add((purl_key(byref[dep["ref"]]["purl"]), tk))
    for a, b in sorted(edges - gedges, key=lambda e: (show(e[0]), show(e[1]))):
        diffs.append(f"missing edge {show(a)} -> {show(b)}")
    for a, b in sorted(gedges - edges, key=lambda e: (show(e[0]), show(e[1]))):
        diffs.append(f"unexpected edge {show(a)} -> {show(b)}")
    # the model hangs what nothing depends on off the root, marked pixi:orphan;
    # such a root edge is justified when this reading finds nothing reaching it
    reached = direct | {b for _, b in edges}
    for k in sorted(groot - direct, key=show):
        c = got.get(k, {})
        if k not in reached and any(p["name"] == "pixi:orphan" for p in c.get("properties", [])):
            groot.discard(k)
            notes["orphans"] = notes.get("orphans", 0) + 1
    for k in sorted(direct ^ groot, key=show):
        diffs.append(f"root edge {show(k)}: {'missing' if k in direct else 'unexpected'}")
    if flat and not any(p.get("name") == "pixi:incomplete" and "dependencies" in p.get("value", "")
                        for p in d["metadata"].get("properties", [])):
        # a lock without edges must say the edges are unknown, not absent
        pass
    extra = ", ".join(f"{k} {v}" for k, v in sorted(notes.items()))
    print(f"components {len(comps)} compared, edges {len(edges)}, direct {len(direct)}, "
          f"mismatches {len(diffs)}" + (f" (agreed: {extra})" if extra else ""))
    for x in diffs:
        print("  " + x)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
