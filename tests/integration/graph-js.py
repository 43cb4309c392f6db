#!/usr/bin/env python3
"""graph-js.py KIND LOCKFILE CYCLONEDX.json - every edge a pnpm-lock.yaml or
yarn.lock states, and the dev/optional flags pnpm 5.x/6.x record, read
independently of sbomd's readers (PyYAML and this file's own resolution),
compared with a CycloneDX document's `dependencies` and pixi:scope.

Prints one line:
  components=N edges=E differences=D justified=J [first differences...]
and exits 1 when D > 0.

Nodes are compared as name@version (the issue's "name@version pairs"), the
document root as <root>, a pnpm importer as importer:<path> (its component
is the one whose pixi:direct-url is that path: how it is named is a unit
test's business, not this count's).

Edges the lockfile states:
  pnpm: importers' (5.x without importers: the top level's) dependencies,
    devDependencies, optionalDependencies; packages' (9.x: snapshots')
    dependencies and optionalDependencies. A reference becomes a key by
    pnpm's own rule for the lockfile's major version (refToRelative of
    @pnpm/dependency-path 5, 6 and 9); link:<path> is the importer at that
    path relative to the dependent importer (a package's, to the lockfile's
    folder).
  yarn: each entry's dependencies and optionalDependencies, a name: range
    looked up as the descriptor name@range among the entries' keys (berry:
    npm: added to a range without a protocol; when that descriptor is not a
    key, the one bound to the dependent, name@range::locator=<its resolution,
    URI-encoded>, as yarn binds relative file:/link:/portal: ranges). Berry's
    workspace:. entry is the root; classic states no root edges.

Differences (each one counted, none allowed):
  missing   an edge the lockfile states, absent from the document
  extra     an edge of the document the lockfile does not state, except the
            justified ones below
  scope     pnpm 5.x/6.x: a package whose every key says dev: true is not dev
            or devOptional in pixi:scope (or is when some key says dev: false
            or nothing); every key optional: true and not optional or
            devOptional (or the reverse)
Justified (counted apart, named):
  member    a root edge to a workspace member (a pnpm importer, a berry
            workspace): sbomd's root is the workspace, which holds them
  orphan    a root edge to a package no stated edge reaches: sbomd hangs what
            nothing depends on off the root so that the graph is closed
  self      an edge from a node to itself: a pnpm importer listing itself
            (`link:`, pnpm's own packages do), which a graph drops
  dangling  an edge to a key the lockfile lists nowhere (nothing to compare)
"""
import json
import sys
from urllib.parse import quote

import yaml


def pnpm_ref_to_key(ref, name, major):
    """@pnpm/dependency-path refToRelative, per lockfile major version."""
    if ref.startswith("link:"):
        return None
    if major == 9:
        if ref.startswith("@"):
            return ref
        at = ref.find("@")
        if at < 0:
            return "%s@%s" % (name, ref)
        colon, paren = ref.find(":"), ref.find("(")
        if (colon < 0 or at < colon) and (paren < 0 or at < paren):
            return ref
        return "%s@%s" % (name, ref)
    if ref.startswith("file:"):
        return ref
    if major == 5:
        return "/%s/%s" % (name, ref) if "/" not in ref else ref
    paren = ref.find("(")
    if "/" not in ref or (paren >= 0 and "/" not in ref[:paren]):
        return "/%s@%s" % (name, ref)
    return ref


def pnpm_split(key, major):
    s = key[1:] if key.startswith("/") else key
    if major == 5:
        i = s.rfind("/")
        return (s[:i], s[i + 1:].split("_", 1)[0]) if i > 0 else (None, None)
    base = s.split("(", 1)[0]
    at = base.find("@", 1)
    return (base[:at], base[at + 1:]) if at > 0 else (None, None)


def join(frm, rel):
    parts = [] if frm == "." else frm.split("/")
    for seg in rel.split("/"):
        if seg == "..":
            if not parts:
                return None
            parts.pop()
        elif seg and seg != ".":
            parts.append(seg)
    return "/".join(parts) or "."


def ref_of(v):
    return v.get("version") if isinstance(v, dict) else v


def pnpm(path):
    with open(path, encoding="utf-8-sig") as f:
        docs = [d for d in yaml.load_all(f, Loader=yaml.BaseLoader) if isinstance(d, dict) and "lockfileVersion" in d]
    doc = docs[-1]
    major = int(str(doc["lockfileVersion"]).split(".")[0])
    pk = doc.get("packages") or {}
    snaps = doc.get("snapshots") or {}
    label = {}
    for key, e in pk.items():
        e = e or {}
        n, v = pnpm_split(key, major)
        label[key] = "%s@%s" % (e.get("name", n), e.get("version", v))
    if major == 9:
        for key in snaps:
            n, v = pnpm_split(key, 9)
            base = key.split("(", 1)[0]
            e = pk.get(key) or pk.get(base) or {}
            label.setdefault(key, "%s@%s" % (e.get("name", n), e.get("version", v)))
    imps = doc.get("importers")
    if imps is None:
        imps = {".": {k: doc[k] for k in ("dependencies", "devDependencies", "optionalDependencies") if k in doc}}
    node = lambda p: "<root>" if p == "." else "importer:" + p
    edges, why = set(), {"self": 0, "dangling": 0}

    def add(src, name, ref, frm):
        if ref is None:
            return
        if ref.startswith("link:"):
            p = join(frm, ref[5:]) if frm is not None else None
            if p is None or p not in imps:
                why["dangling"] += 1
                return
            dst = node(p)
        else:
            key = pnpm_ref_to_key(ref, name, major)
            if key not in label:
                why["dangling"] += 1
                return
            dst = label[key]
        if dst == src:
            why["self"] += 1
            return
        edges.add((src, dst))

    for p, imp in imps.items():
        for sec in ("dependencies", "devDependencies", "optionalDependencies"):
            for name, v in ((imp or {}).get(sec) or {}).items():
                add(node(p), name, ref_of(v), p)
    for key, e in (snaps if major == 9 else pk).items():
        for sec in ("dependencies", "optionalDependencies"):
            for name, v in ((e or {}).get(sec) or {}).items():
                add(label[key], name, ref_of(v), ".")
    flags = {}
    if major in (5, 6):
        for key, e in pk.items():
            e = e or {}
            dev, opt = flags.get(label[key], (True, True))
            flags[label[key]] = (dev and e.get("dev") == "true", opt and e.get("optional") == "true")
    members = {node(p) for p in imps if p != "."}
    return edges, flags, members, why, {p for p in imps if p != "."}


def yarn_name(desc):
    at = desc.find("@", 1)
    name, rng = (desc[:at], desc[at + 1:]) if at > 0 else (desc, "")
    if rng.startswith("npm:"):
        real = rng[4:]
        at = real.find("@", 1)
        if at > 0:
            return real[:at], real[at + 1:]
    return name, rng


def yarn(path):
    with open(path, encoding="utf-8-sig") as f:
        text = f.read()
    entries = []  # (descriptors, fields, deps {name: (range, optional)})
    berry = any(line.startswith("__metadata:") for line in text.splitlines()[:50])
    if berry:
        doc = yaml.load(text, Loader=yaml.BaseLoader)
        for key, e in doc.items():
            if key == "__metadata":
                continue
            deps = {n: (r, False) for n, r in (e.get("dependencies") or {}).items()}
            deps.update({n: (r, True) for n, r in (e.get("optionalDependencies") or {}).items()})
            entries.append(([d.strip().strip('"') for d in key.split(",")], e, deps))
    else:
        cur, sec = None, None
        for line in text.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line.startswith(" "):
                cur = ([d.strip().strip('"') for d in line.rstrip()[:-1].split(",")], {}, {})
                entries.append(cur)
                sec = None
            elif line.startswith("    "):
                if sec in ("dependencies", "optionalDependencies"):
                    k, v = line.strip().split(" ", 1)
                    cur[2][k.strip('"')] = (v.strip().strip('"'), sec == "optionalDependencies")
            else:
                s = line.strip()
                if s.endswith(":"):
                    sec = s[:-1].strip('"')
                else:
                    sec = None
                    k, v = s.split(" ", 1)
                    cur[1][k.strip('"')] = v.strip().strip('"')
    by_desc, label, members = {}, [], set()
    for i, (descs, e, _) in enumerate(entries):
        for d in descs:
            by_desc[d] = i
        if berry:
            name, proto = yarn_name(e["resolution"])
            if proto == "workspace:.":
                label.append("<root>")
                continue
            if proto.startswith("workspace:"):
                members.add("%s@%s" % (name, e.get("version")))
        else:
            name = yarn_name(descs[0])[0]
        label.append("%s@%s" % (name, e.get("version")))
    edges, why = set(), {"self": 0, "dangling": 0}
    for i, (descs, e, deps) in enumerate(entries):
        for name, (rng, _opt) in deps.items():
            desc = "%s@%s" % (name, rng if not berry or ":" in rng else "npm:" + rng)
            j = by_desc.get(desc)
            if j is None and berry:
                bound = quote(e["resolution"], safe="-_.!~*'()")
                j = by_desc.get("%s%slocator=%s" % (desc, "&" if "::" in desc else "::", bound))
            if j is None:
                why["dangling"] += 1
                continue
            if label[j] == label[i]:
                why["self"] += 1
                continue
            edges.add((label[i], label[j]))
    return edges, {}, members, why, set()


def cdx_graph(path, importers):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    lab, scope = {"root": "<root>"}, {}
    for c in doc.get("components", []):
        props = {p["name"]: p.get("value") for p in c.get("properties", [])}
        d = props.get("pixi:direct-url")
        if d in importers:
            lab[c["bom-ref"]] = "importer:" + d
        else:
            lab[c["bom-ref"]] = "%s@%s" % (c["name"], c.get("version"))
        scope[lab[c["bom-ref"]]] = props.get("pixi:scope")
    edges = set()
    for dep in doc.get("dependencies", []):
        for t in dep.get("dependsOn", []):
            edges.add((lab[dep["ref"]], lab[t]))
    return edges, scope, len(doc.get("components", []))


def main():
    kind, lock, cdx = sys.argv[1:4]
    want, flags, members, why, importers = (pnpm if kind == "pnpm" else yarn)(lock)
    got, scope, ncomp = cdx_graph(cdx, importers)
    reached = {b for _, b in want}
    diffs, justified = [], dict(why, member=0, orphan=0)
    for e in sorted(want - got):
        diffs.append("missing %s -> %s" % e)
    for a, b in sorted(got - want):
        if a == "<root>" and b in members:
            justified["member"] += 1
        elif a == "<root>" and b not in reached:
            justified["orphan"] += 1
        else:
            diffs.append("extra %s -> %s" % (a, b))
    for lab, (dev, opt) in sorted(flags.items()):
        s = scope.get(lab)
        if s is None:
            continue
        if dev != (s in ("dev", "devOptional")) or opt != (s in ("optional", "devOptional")):
            diffs.append("scope %s: lock dev=%s optional=%s, pixi:scope %s" % (lab, dev, opt, s))
    j = ", ".join("%s %d" % kv for kv in sorted(justified.items()) if kv[1])
    print("components=%d edges=%d scoped=%d differences=%d justified=%d%s%s" % (
        ncomp, len(want), len(flags), len(diffs), sum(justified.values()), " (%s)" % j if j else "",
        "".join("\n  " + d for d in diffs[:int(__import__("os").environ.get("GRAPH_JS_SHOW", "15"))])))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
