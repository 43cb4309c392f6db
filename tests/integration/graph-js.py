#!/usr/bin/env python3
"""graph-js.py KIND LOCKFILE CYCLONEDX.json - every edge a package-lock.json,
pnpm-lock.yaml or yarn.lock states, and the dev/optional flags npm and pnpm
5.x/6.x record, read independently of sbomd's readers (json, PyYAML and this
file's own resolution), compared with a CycloneDX document's `dependencies`
and pixi:scope; for npm also pixi:orphan and the hashes and licenses of a
package installed at several paths (issue 38, defect 1).

Prints one line:
  components=N edges=E scoped=S [npm: copies=C hashes=H licenses=L]
  differences=D justified=J [first differences...]
and exits 1 when D > 0 (C: packages at several paths, H and L: the digests
and licensed packages among them compared).

Nodes are compared as name@version (the issue's "name@version pairs"), the
document root as <root>, a pnpm importer as importer:<path> (its component
is the one whose pixi:direct-url is that path: how it is named is a unit
test's business, not this count's).

Edges the lockfile states:
  npm v2/v3: each `packages` entry's dependencies, optionalDependencies,
    peerDependencies (devDependencies for the root "" and workspace
    folders only: npm installs no one else's), a name resolved as Node
    does: the nearest <dir>/node_modules/<name> from the entry's path up
    to the root, a `link: true` entry standing for the folder its
    `resolved` names; an entry without a version stops the walk and is no
    node (not installed). Nodes are labelled name@version (`name`, else
    the path after its last node_modules/, a folder's last segment).
  npm v1: each nested entry's `requires`, resolved the same way over the
    paths the nesting makes; v1 states no root edges (the root's
    package.json is not in the lock), so every root edge is an orphan's.
  pnpm: importers' (5.x without importers: the top level's) dependencies,
    devDependencies, optionalDependencies; packages' (9.x: snapshots')
    dependencies and optionalDependencies. A reference becomes a key by
    pnpm's own rule for the lockfile's major version (refToRelative of
    @pnpm/dependency-path 5, 6 and 9); link:<path> is the importer at that
    path relative to the dependent importer (a package's, to the lockfile's
    folder).
  yarn: each entry's dependencies and optionalDependencies (berry: those
    dependenciesMeta marks optional: true are optional edges), a name: range
    looked up as the descriptor name@range among the entries' keys (berry:
    npm: added to a range without a protocol; when that descriptor is not a
    key, the one bound to the dependent, name@range::locator=<its resolution,
    URI-encoded>, as yarn binds relative file:/link:/portal: ranges). Berry's
    workspace:. entry is the root; classic states no root edges. Berry's
    0.0.0-use.local is no version (a workspace's label is name@None).

Differences (each one counted, none allowed):
  missing   an edge the lockfile states, absent from the document
  extra     an edge of the document the lockfile does not state, except the
            justified ones below
  scope     npm: pixi:scope is not the word npm's flags give the package's
            copies together: a copy is removed by --omit=dev when dev, by
            optional when optional, by both when devOptional, by peer when
            peer; the package goes where every copy goes, named dev,
            optional, devOptional, peer in that order of test (a mix npm has
            no word for, dev and peer copies, is not compared)
  orphan    npm v2/v3: pixi:orphan on a package a stated edge reaches, or
            missing on one none reaches (workspace members aside)
  hash      npm: a digest of a copy that is neither the component's hash of
            that algorithm nor listed in pixi:other-integrity
  license   npm: copies state a license and the component has none, or
            they disagree and pixi:other-license is absent
  scope     pnpm, yarn: pixi:scope (or its absence) is not the word this
            file's own walk gives. Every path from the root is classed by
            the edges it passes (development, optional) and a package gets
            npm's word for the classes reaching it (walk_classes,
            scope_word): required when some path is plain, dev when every
            path is a development one, optional when every path is
            optional, devOptional otherwise.
              pnpm: walked over the lock keys (each peer variant has its own
            dependencies), merged per name@version; 5.x/6.x flags win where
            they settle it: every key dev: true -> dev (optional or not),
            every key dev: false or every key optional: true -> optional or
            required by the optional flags; no dev flag on some key (both
            sides reach it) and not every key optional -> the walk's word.
              yarn: neither lock tells dev from prod (berry folds
            devDependencies into the workspace's dependencies, classic
            states no root), so paths start plain at the root (berry) or at
            what nothing depends on, an optional edge (optionalDependencies,
            berry's dependenciesMeta optional: true) making them optional;
            optional is the only word expected, every other package none.
Justified (counted apart, named):
  member    a root edge to a workspace member (a pnpm importer, a berry
            workspace, an npm workspace folder): sbomd's root is the workspace, which holds them
  orphan    a root edge to a package no stated edge reaches: sbomd hangs what
            nothing depends on off the root so that the graph is closed
  self      an edge from a node to itself: a pnpm importer listing itself
            (`link:`, pnpm's own packages do), which a graph drops
  dangling  an edge to a key the lockfile lists nowhere (nothing to compare);
            npm: a name no node_modules up the walk holds, or one whose entry
            has no version (an optional or platform package not installed)
"""
import json
import sys
from urllib.parse import quote, unquote

import yaml


D, O, P = 1, 2, 4  # the path classes: through a development edge, an optional edge, from a peer


def walk_classes(roots, adj):
    """npm's meaning of the scope words, on a graph of this file's own: every
    path from the root is classed by the kinds of edge it passes (D, O; P
    from a peer); roots: [(node, class)], adj: node -> [(node, class of the
    edge)]. Returns node -> the set of classes of the paths reaching it."""
    got, todo = {}, []
    for n, c in roots:
        if c not in got.setdefault(n, set()):
            got[n].add(c)
            todo.append((n, c))
    while todo:
        n, c = todo.pop()
        for m, e in adj.get(n, ()):
            k = c | e
            if k not in got.setdefault(m, set()):
                got[m].add(k)
                todo.append((m, k))
    return got


def scope_word(classes):
    """required when some path is plain; peer when some path is from a peer
    and none only optional; dev when every path is a development one;
    optional when every path is optional; devOptional otherwise"""
    if not classes:
        return None
    if 0 in classes:
        return "required"
    if P in classes and not any(c & (D | O) == O for c in classes):
        return "peer"
    if all(c & D for c in classes):
        return "dev"
    if all(c & O for c in classes):
        return "optional"
    return "devOptional"


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
    cls = {"dependencies": 0, "optionalDependencies": O, "devDependencies": D}
    # the graph of lock keys (one peer variant each: its own dependencies)
    # the scopes are walked over, then merged per name@version
    adj, roots = {}, []

    def add(src, name, ref, frm, skey, c):
        if ref is None:
            return
        if ref.startswith("link:"):
            p = join(frm, ref[5:]) if frm is not None else None
            if p is None or p not in imps:
                why["dangling"] += 1
                return
            dst = dkey = node(p)
        else:
            key = pnpm_ref_to_key(ref, name, major)
            if key not in label:
                why["dangling"] += 1
                return
            dst, dkey = label[key], key
        if dst == src:
            why["self"] += 1
            return
        edges.add((src, dst))
        if skey is None:
            roots.append((dkey, c))
        else:
            adj.setdefault(skey, []).append((dkey, c))

    for p, imp in imps.items():
        if p != ".":
            roots.append((node(p), 0))  # a member hangs off the root
        for sec in ("dependencies", "devDependencies", "optionalDependencies"):
            for name, v in ((imp or {}).get(sec) or {}).items():
                add(node(p), name, ref_of(v), p, None if p == "." else node(p), cls[sec])
    for key, e in (snaps if major == 9 else pk).items():
        for sec in ("dependencies", "optionalDependencies"):
            for name, v in ((e or {}).get(sec) or {}).items():
                add(label[key], name, ref_of(v), ".", key, cls[sec])
    merged = {}
    for key, c in walk_classes(roots, adj).items():
        merged.setdefault(label.get(key, key), set()).update(c)
    words = {lab: scope_word(c) for lab, c in merged.items()}
    if major in (5, 6):
        # the flags pnpm writes on each key, each on its own: dev: true only
        # dev paths, dev: false only production ones, no dev both; optional:
        # true only optional paths. Every key dev: dev (an optional one too,
        # npm's word); every key production, or every key optional: optional
        # or required by the optional flags; else the graph's word.
        keyflags = {}
        for key, e in pk.items():
            e = e or {}
            side = {"true": "dev", "false": "prod"}.get(e.get("dev"), "both")
            keyflags.setdefault(label[key], []).append((side, e.get("optional") == "true"))
        for lab, fl in keyflags.items():
            sides, opt = {s for s, _ in fl}, all(o for _, o in fl)
            if sides == {"dev"}:
                words[lab] = "dev"
            elif sides == {"prod"} or opt:
                words[lab] = "optional" if opt else "required"
    members = {node(p) for p in imps if p != "."}
    return edges, words, members, why, {p for p in imps if p != "."}


def npm_v1_version(name, v):
    """a v1 `version` as sbomd's components name it (count-js.py's rules)."""
    if v.startswith("npm:"):
        spec = v[4:]
        at = spec.find("@", 1)
        return (spec[:at], spec[at + 1:]) if at > 0 else (spec, None)
    # a registry tarball: the package its path names (before /-/, with an
    # @scope), at the version its file names, whatever it is installed as
    path = unquote(v.split("?")[0].split("#")[0].split("://", 1)[-1])
    if "://" in v and "/-/" in path:
        head, file = path.split("/-/", 1)
        segs = head.split("/")[1:]
        pkg = ("/".join(segs[-2:]) if len(segs) >= 2 and segs[-2].startswith("@") else segs[-1]) if segs else ""
        base = pkg.rsplit("/", 1)[-1] + "-"
        if pkg and "/" not in file and file.startswith(base) and file.endswith(".tgz") and len(file) > len(base) + 4:
            return pkg, file[len(base):-4]
    if ":" in v or "/" in v:
        return name, (v.split("#", 1)[1] or None) if "#" in v else None
    return name, v


def npm_omits(e):
    """the --omit sets (frozensets of dev/optional/peer) that remove a copy"""
    sets = [frozenset(c) for n in range(4) for c in __import__("itertools").combinations(("dev", "optional", "peer"), n)]
    return {o for o in sets if (e.get("dev") and "dev" in o) or (e.get("optional") and "optional" in o)
            or (e.get("devOptional") and {"dev", "optional"} <= o) or (e.get("peer") and "peer" in o)}


def npm_scope_word(gone):
    """npm's word for a package gone in exactly the sets `gone` (every copy gone)"""
    every = lambda *k: all(o in gone for o in npm_all_sets() if set(k) <= o)
    if not gone:
        return "required"
    for word, kinds in (("dev", ("dev",)), ("optional", ("optional",)), ("devOptional", ("dev", "optional")),
                        ("peer", ("peer",))):
        if every(*kinds):
            return word
    return None  # a mix npm has no word for: not compared


def npm_all_sets():
    import itertools
    return [frozenset(c) for n in range(4) for c in itertools.combinations(("dev", "optional", "peer"), n)]


def npm(path):
    """package-lock.json: each copy (install path) with its label, the
    edges its dependency objects state resolved as Node does (the nearest
    <dir>/node_modules/<name> walking up, a link followed to its folder),
    the copies' flags, integrity and license."""
    with open(path, encoding="utf-8-sig") as f:
        doc = json.load(f)
    copies = {}  # path -> (label, entry)
    deps = {}  # path -> [(name, devsection)]
    v1 = "packages" not in doc
    if not v1:
        pk = doc["packages"]
        for key, e in pk.items():
            if key == "" or e.get("link") or "version" not in e:
                continue
            folder = not key.startswith("node_modules/") and "/node_modules/" not in key
            name = e.get("name") or (key.rsplit("/", 1)[-1] if folder else key[key.rindex("node_modules/") + 13:])
            copies[key] = ("%s@%s" % (name, e["version"]), e)
        for key, e in pk.items():
            if key != "" and key not in copies:
                continue
            folder = not key.startswith("node_modules/") and "/node_modules/" not in key
            secs = ("dependencies", "optionalDependencies", "peerDependencies") + (("devDependencies",) if folder else ())
            deps[key] = [n for sec in secs for n in (e.get(sec) or {})]
        links = {k: e.get("resolved", "") for k, e in pk.items() if e.get("link")}
        present = set(pk)
    else:
        links, present = {}, set()

        def walk(d, parent):
            for name, e in (d or {}).items():
                key = (parent + "/" if parent else "") + "node_modules/" + name
                present.add(key)  # a folder npm made, version or not: Node stops there
                if "version" in e:
                    n, v = npm_v1_version(name, e["version"])
                    copies[key] = ("%s@%s" % (n, v), e)
                    deps[key] = list((e.get("requires") or {}).keys())
                walk(e.get("dependencies"), key)

        walk(doc.get("dependencies"), "")

    def resolve(frm, name):
        d = frm
        while True:
            cand = (d + "/" if d else "") + "node_modules/" + name
            if cand in links:
                cand = links[cand]  # a folder key as the lock spells it ("packages/a", "../b")
                return copies[cand][0] if cand in copies else None
            if cand in present:
                return copies[cand][0] if cand in copies else None
            if not d:
                return None
            d = d.rsplit("/", 1)[0] if "/" in d else ""

    edges, why = set(), {"self": 0, "dangling": 0}
    for key, names in deps.items():
        src = "<root>" if key == "" else copies[key][0]
        for n in names:
            dst = resolve(key, n)
            if dst is None:
                why["dangling"] += 1  # optional, peer or platform package not installed
            elif dst == src:
                why["self"] += 1
            else:
                edges.add((src, dst))
    members = {lab for k, (lab, _) in copies.items()
               if not k.startswith("node_modules/") and "/node_modules/" not in k}
    gone, hashes, lics, first = {}, {}, {}, {}
    for key, (lab, e) in copies.items():
        gone[lab] = gone.get(lab, set(npm_all_sets())) & npm_omits(e)
        for tok in (e.get("integrity") or "").split():
            alg, _, b64 = tok.partition("-")
            try:
                hx = __import__("base64").b64decode(b64.split("?")[0]).hex()
            except Exception:
                continue
            hashes.setdefault(lab, []).append((alg, hx))
        if isinstance(e.get("license"), str):
            lics.setdefault(lab, []).append(e["license"])
        first.setdefault(lab, key)
    flags = {lab: npm_scope_word(g) for lab, g in gone.items()}
    extra = {"hashes": hashes, "licenses": lics, "ncopies": {}, "stated_roots": not v1}
    for lab, _ in copies.values():
        extra["ncopies"][lab] = extra["ncopies"].get(lab, 0) + 1
    return edges, flags, members, why, set(), extra


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
            meta = {k[:k.find("@", 1)] if k.find("@", 1) > 0 else k for k, m in (e.get("dependenciesMeta") or {}).items()
                    if isinstance(m, dict) and m.get("optional") == "true"}
            deps = {n: (r, n in meta) for n, r in (e.get("dependencies") or {}).items()}
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
            # berry's placeholder for a workspace's unknown version is none
            version = None if e.get("version") == "0.0.0-use.local" else e.get("version")
            if proto.startswith("workspace:"):
                members.add("%s@%s" % (name, version))
            label.append("%s@%s" % (name, version))
            continue
        name = yarn_name(descs[0])[0]
        label.append("%s@%s" % (name, e.get("version")))
    edges, why = set(), {"self": 0, "dangling": 0}
    adj, roots, incoming = {}, [(m, 0) for m in members], set()
    for i, (descs, e, deps) in enumerate(entries):
        for name, (rng, opt) in deps.items():
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
            if label[i] == "<root>":
                roots.append((label[j], O if opt else 0))
            else:
                adj.setdefault(label[i], []).append((label[j], O if opt else 0))
                incoming.add(label[j])
    # neither lock tells dev from prod (berry folds devDependencies into the
    # workspace's dependencies; classic states no root): a path from the root
    # or from a package nothing depends on counts as plain, and the only
    # word the lock can give is optional, to what every path reaches
    # through an optional edge
    rooted = {n for n, _ in roots}
    roots += [(lab, 0) for lab in set(label) - incoming - rooted - {"<root>"}]
    words = {lab: "optional" for lab, c in walk_classes(roots, adj).items() if scope_word(c) == "optional"}
    return edges, words, members, why, set()


def cdx_graph(path, importers):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    lab, scope, comp = {"root": "<root>"}, {}, {}
    for c in doc.get("components", []):
        props = {p["name"]: p.get("value") for p in c.get("properties", [])}
        d = props.get("pixi:direct-url")
        if d in importers:
            lab[c["bom-ref"]] = "importer:" + d
        else:
            lab[c["bom-ref"]] = "%s@%s" % (c["name"], c.get("version"))
        scope[lab[c["bom-ref"]]] = props.get("pixi:scope")
        comp.setdefault(lab[c["bom-ref"]], []).append((c, props))
    edges = set()
    for dep in doc.get("dependencies", []):
        for t in dep.get("dependsOn", []):
            edges.add((lab[dep["ref"]], lab[t]))
    return edges, scope, len(doc.get("components", [])), comp


SRI_ALG = {"sha512": "SHA-512", "sha384": "SHA-384", "sha256": "SHA-256", "sha1": "SHA-1"}


def npm_copies_check(extra, comp, diffs, counts):
    """defect 1: a package at several paths carries every digest and a
    license when some copy states one; a digest that disagrees with the
    component's is in pixi:other-integrity, a second license in
    pixi:other-license. Compared for labels naming one component."""
    for lab, n in extra["ncopies"].items():
        if n < 2 or len(comp.get(lab, [])) != 1:
            continue
        c, props = comp[lab][0]
        got = {h["alg"]: h["content"] for h in c.get("hashes", [])}
        other = set((props.get("pixi:other-integrity") or "").split())
        for alg, hx in extra["hashes"].get(lab, []):
            name = SRI_ALG.get(alg)
            if name is None:
                continue
            counts["hashes"] += 1
            if got.get(name) != hx:
                b64 = __import__("base64").b64encode(bytes.fromhex(hx)).decode()
                if got.get(name) is None or not any(o.split("?")[0] == "%s-%s" % (alg, b64) for o in other):
                    diffs.append("hash %s: %s %s… of a copy is neither its hash nor in pixi:other-integrity"
                                 % (lab, name, hx[:12]))
        lics = extra["licenses"].get(lab, [])
        if lics:
            counts["licenses"] += 1
            if not c.get("licenses"):
                diffs.append("license %s: copies state %s, the component has none" % (lab, lics))
            elif len(set(lics)) > 1 and not props.get("pixi:other-license"):
                diffs.append("license %s: copies disagree (%s), no pixi:other-license" % (lab, sorted(set(lics))))


def main():
    kind, lock, cdx = sys.argv[1:4]
    extra = None
    if kind == "npm":
        want, flags, members, why, importers, extra = npm(lock)
    else:
        want, flags, members, why, importers = (pnpm if kind == "pnpm" else yarn)(lock)
    got, scope, ncomp, comp = cdx_graph(cdx, importers)
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
    counts = {"hashes": 0, "licenses": 0}
    if extra is not None:
        # npm's word per package from its copies' flags (None: a mix npm has no word for)
        for lab, word in sorted(flags.items()):
            s = scope.get(lab)
            if word is not None and s is not None and len(comp.get(lab, [])) == 1 and s != word:
                diffs.append("scope %s: the copies' flags say %s, pixi:scope %s" % (lab, word, s))
        # pixi:orphan exactly on what no stated edge reaches (v2/v3: the root's edges are stated)
        for lab, cs in sorted(comp.items()):
            marked = any(p.get("pixi:orphan") == "true" for _, p in cs)
            orphan = extra["stated_roots"] and lab not in reached and lab not in members
            if marked != orphan and len(cs) == 1:
                diffs.append("orphan %s: %s" % (lab, "marked, yet an edge reaches it" if marked else "not marked"))
        npm_copies_check(extra, comp, diffs, counts)
        flags = {k: v for k, v in flags.items() if v is not None}
    else:
        # every component's pixi:scope against this file's own reading (no
        # word: none expected)
        for lab, cs in sorted(comp.items()):
            s, expect = scope.get(lab), flags.get(lab)
            if len(cs) == 1 and s != expect:
                diffs.append("scope %s: the lock gives %s, pixi:scope %s" % (lab, expect, s))
    j = ", ".join("%s %d" % kv for kv in sorted(justified.items()) if kv[1])
    multi = " copies=%d hashes=%d licenses=%d" % (
        sum(1 for n in extra["ncopies"].values() if n > 1), counts["hashes"], counts["licenses"]) if extra else ""
    print("components=%d edges=%d scoped=%d%s differences=%d justified=%d%s%s" % (
        ncomp, len(want), len(flags), multi, len(diffs), sum(justified.values()), " (%s)" % j if j else "",
        "".join("\n  " + d for d in diffs[:int(__import__("os").environ.get("GRAPH_JS_SHOW", "15"))])))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
