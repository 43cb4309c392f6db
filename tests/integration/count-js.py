#!/usr/bin/env python3
"""count-js.py KIND LOCKFILE - the distinct name@version(+source) packages of
a JavaScript lockfile, counted independently of sbomd's readers (the json
module; its own walk). Prints the count, or "refused" for a version sbomd
must refuse.

Rules (the issue's "one component per name@version(+source)"):
  npm v2/v3: every `packages` entry but the root "", `link: true` entries
    and entries without a version; name from `name` else the path after its
    last node_modules/ (else the folder's last segment); a registry tarball
    adds no source, anything else (git, file:, other URLs, workspace
    folders) is part of the identity.
  npm v1: every nested `dependencies` entry with a version; a version
    that is a registry tarball URL (npm 5) is the package its path names
    at the version its file names, under whatever name it is installed.
  pnpm: the last YAML document naming a lockfileVersion; every `packages`
    key (and in 9.x every `snapshots` key whose key without the peer part
    is no package) as name/version (the entry's `name`/`version` when it
    states them, else from the key, peer part dropped) plus its source
    (git repo#commit, directory, a non-registry tarball); every importer
    but "." as a workspace member, unless a package of a directory
    resolution is its folder (an injected copy: that package).
  yarn classic: every entry block (a line at column 0 ending in ':'), name
    from its first descriptor (an npm: alias names the real package),
    `version`, and `resolved` unless it is a registry tarball or an offline
    mirror's bare file name (no ':' or '/') for descriptors that all ask the
    registry (a semver range or tag, npm:).
  yarn berry: every entry but __metadata and the `workspace:.` root, name
    and protocol from `resolution`, `version`, the resolution unless npm:;
    a patch, yarn's built-in one (patch:<locator>#optional!builtin<...>) or
    the user's (patch:<locator>#~/.yarn/patches/...), counts as the locator
    it patches (yarn installs the patched one, never both).
  bun.lock (JSONC: comments and trailing commas dropped by its own scan):
    every workspace but "" (its folder is its source), and every `packages`
    entry: "name@spec" with spec a version (registry: no source), a
    workspace: folder (that member), file:/link: paths, tarball paths and
    URLs, git/github repositories (the commit from the resolved item, bun's
    "owner-repo-<commit>" tag or the '#' pin); a name spelled as a path
    ("/app") is the key's.

count-js.py compare bun LOCKFILE CYCLONEDX checks a document against the
same reading: the components (matched through pixi:install-paths, members
through their folder), every edge the lock states (a key's dependency names
resolved bun's way: the nearest <path>/<name> up from the dependent's key;
the workspaces' lists from "" or the member's name), the scopes those edges
give, and each SHA-512 integrity. Prints "components N edges N scopes N
hashes N differences N" and each difference on stderr.
"""
import json
import re
import sys
from urllib.parse import unquote


def registry(url):
    return bool(url) and re.match(r"https?://", url) and "/-/" in url and url.split("?")[0].split("#")[0].endswith(".tgz")


def v1_tarball_version(name, url):
    """npm 5's v1 version written as the registry tarball itself:
    .../<pkg>/-/<last part of pkg>-<version>.tgz is <pkg> at <version>,
    whatever name it is installed under (<pkg> is the path segment before
    /-/, with the one before it when that is an @scope); (name, version), or
    None when the URL has not that shape."""
    path = unquote(url.split("?")[0].split("#")[0].split("://", 1)[-1])
    if "/-/" not in path:
        return None
    head, file = path.split("/-/", 1)
    segs = head.split("/")[1:]  # after the host
    if not segs or "/" in file:
        return None
    pkg = "/".join(segs[-2:]) if len(segs) >= 2 and segs[-2].startswith("@") else segs[-1]
    base = pkg.rsplit("/", 1)[-1] + "-"
    if file.startswith(base) and file.endswith(".tgz") and len(file) > len(base) + 4:
        return pkg, file[len(base):-4]
    return None


def npm(path):
    with open(path, encoding="utf-8-sig") as f:
        doc = json.load(f)
    v = doc.get("lockfileVersion")
    if v not in (1, 2, 3):
        return "refused"
    seen = set()
    if "packages" in doc:
        for key, e in doc["packages"].items():
            if key == "" or e.get("link") or "version" not in e:
                continue
            folder = "node_modules/" not in key and not key.startswith("node_modules/")
            if "name" in e:
                name = e["name"]
            elif folder:
                name = key.rsplit("/", 1)[-1]
            else:
                name = key[key.rindex("node_modules/") + 13:]
            res = e.get("resolved")
            src = "folder:" + key if folder else (None if not res or registry(res) else res)
            seen.add((name, e["version"], src))
        return len(seen)

    def walk(deps):
        for name, e in (deps or {}).items():
            ver = e.get("version")
            if ver is not None:
                res = e.get("resolved")
                if ver.startswith("npm:"):
                    spec = ver[4:]
                    at = spec.find("@", 1)
                    name, ver = (spec[:at], spec[at + 1:]) if at > 0 else (spec, None)
                elif registry(ver) and v1_tarball_version(name, ver):
                    res, (name, ver) = res or ver, v1_tarball_version(name, ver)
                elif ":" in ver or "/" in ver:
                    res = res or ver
                    ver = ver.split("#", 1)[1] if "#" in ver else None
                seen.add((name, ver, None if not res or registry(res) else res))
            walk(e.get("dependencies"))

    walk(doc.get("dependencies"))
    return len(seen)


def pnpm_split(key, major):
    s = key[1:] if key.startswith("/") else key
    if major == 5:
        i = s.rfind("/")
        if i <= 0:
            return None, None
        return s[:i], s[i + 1:].split("_", 1)[0]
    base = s.split("(", 1)[0]
    at = base.find("@", 1)
    return (base[:at], base[at + 1:]) if at > 0 else (None, None)


def pnpm_source(res):
    res = res or {}
    if res.get("type") == "git" and res.get("repo"):
        return "git:%s#%s" % (res["repo"], res.get("commit"))
    if res.get("directory"):
        return "dir:" + res["directory"]
    t = res.get("tarball")
    return t if t and not registry(t) else None


def pnpm(path):
    import yaml
    with open(path, encoding="utf-8-sig") as f:
        docs = [d for d in yaml.load_all(f, Loader=yaml.BaseLoader) if isinstance(d, dict) and "lockfileVersion" in d]
    if not docs:
        return "refused"
    doc = docs[-1]
    major = int(doc["lockfileVersion"].split(".")[0])
    if major not in (5, 6, 9):
        return "refused"
    seen = set()
    pk = doc.get("packages") or {}
    for key, e in pk.items():
        e = e or {}
        n, v = pnpm_split(key, major)
        seen.add((e.get("name", n), e.get("version", v), pnpm_source(e.get("resolution"))))
    if major == 9:
        for key in (doc.get("snapshots") or {}):
            n, v = pnpm_split(key, 9)
            if key not in pk and "%s@%s" % (n, v) not in pk:
                seen.add((n, v, None))
    dirs = {src for _, _, src in seen if src and src.startswith("dir:")}
    for imp in (doc.get("importers") or {}):
        if imp != "." and "dir:" + imp not in dirs:
            seen.add((None, None, "importer:" + imp))
    return len(seen)


def name_of(desc, classic=False):
    at = desc.find("@", 1)
    name, rng = (desc[:at], desc[at + 1:]) if at > 0 else (desc, "")
    if rng.startswith("npm:"):
        real = rng[4:]
        at = real.find("@", 1)
        if at > 0:
            return real[:at], real[at + 1:]
        if classic and re.fullmatch(r"(@[^/ ]+/)?[a-z][^ <>=^~*|]*", real) and real not in ("latest", "next"):
            return real, ""
    return name, rng


def yarn(path):
    with open(path, encoding="utf-8-sig") as f:
        text = f.read()
    seen = set()
    if any(line.startswith("__metadata:") for line in text.splitlines()[:50]):
        import yaml
        doc = yaml.load(text, Loader=yaml.BaseLoader)
        if not 4 <= int(doc["__metadata"]["version"]) <= 10:
            return "refused"
        for key, e in doc.items():
            if key == "__metadata":
                continue
            name, proto = name_of(e["resolution"])
            if proto == "workspace:.":
                continue
            m = re.match(r"patch:(.*?)#", proto)
            if m:
                proto = name_of(unquote(m.group(1)))[1]
            seen.add((name, e.get("version"), None if proto.startswith("npm:") else proto))
        return len(seen)
    cur = None

    def asks_registry(desc):
        rng = name_of(desc, classic=True)[1]
        rng = rng[4:] if rng.startswith("npm:") else rng
        return not re.search(r"[:/\\]", rng) and not rng.startswith(".") and not re.search(r"\.(tgz|tar|tar\.gz)$", rng)

    def flush():
        if cur:
            res = cur.get("resolved")
            mirror = res and not re.search(r"[:/]", res) and all(asks_registry(d) for d in cur["descs"])
            seen.add((cur["name"], cur.get("version"), None if not res or registry(res) or mirror else res))
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not line.startswith(" "):
            flush()
            descs = [d.strip().strip('"') for d in line.rstrip()[:-1].split(",")]
            cur = {"name": name_of(descs[0], classic=True)[0], "descs": descs}
        elif line.startswith("  ") and not line.startswith("   ") and " " in line.strip():
            k, v = line.strip().split(" ", 1)
            cur[k.strip('"')] = v.strip().strip('"')
    flush()
    return len(seen)


def jsonc(text):
    """JSONC -> JSON: comments dropped, a comma before ] or } dropped."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif ch == ",":
            m = re.match(r"(\s|//[^\n]*|/\*.*?\*/)*[\]}]", text[i + 1:], re.S)
            if not m:
                out.append(ch)
            i += 1
        else:
            out.append(ch)
            i += 1
    return json.loads("".join(out))


def bun_key_names(key):
    """an install path as its package names: "a/@s/b" -> ["a", "@s/b"]"""
    parts, names, i = key.split("/"), [], 0
    while i < len(parts):
        if parts[i].startswith("@") and i + 1 < len(parts):
            names.append(parts[i] + "/" + parts[i + 1])
            i += 2
        else:
            names.append(parts[i])
            i += 1
    return names


GIT_HOSTS = {"github:": "github.com", "gitlab:": "gitlab.com", "bitbucket:": "bitbucket.org"}


def bun_ident(key, item, members):
    """(name, version, source) of a packages entry; None for the root."""
    ident = item[0]
    at = ident.find("@", 1)
    name, spec = ident[:at], ident[at + 1:]
    if spec.startswith("root:") or ident.startswith("@root:"):
        return None
    if name.startswith("/") or name.startswith("."):
        name = bun_key_names(key)[-1]
    if spec.startswith("workspace:"):
        folder = spec[len("workspace:"):]
        if folder in ("", "."):
            return None
        return members.get(folder) or (name, None, "folder:" + folder)
    strs = [x for x in item[1:] if isinstance(x, str)]
    if any(spec.startswith(p) for p in ("git+", "git://")) or any(spec.startswith(h) for h in GIT_HOSTS):
        repo, _, pin = spec.partition("#")
        commit = None
        for s in strs:
            tail = s.rsplit("-", 1)[-1]
            if re.fullmatch(r"[0-9a-f]{7,}", s):
                commit = s
            elif not s.startswith("sha") and re.fullmatch(r"[0-9a-f]{7,}", tail):
                commit = tail
            if commit:
                break
        commit = commit or pin or None
        for h, host in GIT_HOSTS.items():
            if repo.startswith(h):
                repo = "git+https://%s/%s.git" % (host, repo[len(h):])
        return (name, commit, "git:%s#%s" % (repo, commit))
    if spec.startswith("file:") or spec.startswith("link:"):
        return (name, None, "path:" + spec[5:])
    if "://" in spec:
        return (name, None, "url:" + spec)
    if ":" not in spec and ("/" in spec or spec.endswith((".tgz", ".tar.gz", ".tar"))):
        return (name, None, "path:" + spec)
    return (name, spec, None)


def bun_read(path):
    with open(path, encoding="utf-8-sig") as f:
        text = f.read()
    if text.startswith("#!/usr/bin/env bun"):
        return None
    doc = jsonc(text)
    if doc.get("lockfileVersion") not in (0, 1):
        return None
    members, ws_from, ws_lists = {}, {}, {}
    for folder, w in (doc.get("workspaces") or {}).items():
        ws_lists[folder] = w
        if folder == "":
            continue
        name = w.get("name") or folder.rsplit("/", 1)[-1]
        members[folder] = (name, w.get("version"), "folder:" + folder)
        ws_from[folder] = name
    entries = {}
    for key, item in (doc.get("packages") or {}).items():
        entries[key] = (bun_ident(key, item, members), item)
    return doc, members, ws_from, ws_lists, entries


def bun(path):
    r = bun_read(path)
    if r is None:
        return "refused"
    _, members, _, _, entries = r
    return len(set(members.values()) | {e for e, _ in entries.values() if e})


def bun_resolve(entries, frm, name):
    names = bun_key_names(frm) if frm else []
    while True:
        key = "/".join(names + [name])
        if key in entries:
            return entries[key][0]
        if not names:
            return None
        names.pop()


def bun_expected(r):
    """(edges {(src, dst, how)}, root edges {dst: how}) as the lock states them;
    src None is the root."""
    doc, members, ws_from, ws_lists, entries = r
    edges = set()
    groups = [("dependencies", "required"), ("optionalDependencies", "optional"),
              ("devDependencies", "dev"), ("peerDependencies", "peer")]
    for key, (ident, item) in entries.items():
        info = next((x for x in item[1:] if isinstance(x, dict)), None)
        if ident is None or info is None or item[0].split("@", 2)[-1].startswith("workspace:") \
                or "@workspace:" in item[0]:
            continue
        opt_peers, listed = set(info.get("optionalPeers") or []), set()
        for g, how in groups:  # devDependencies: listed only where installed (file:, link:)
            for dep in info.get(g) or {}:
                if g == "peerDependencies" and dep in listed:
                    continue  # a peer also listed keeps that list's scope
                listed.add(dep)
                t = bun_resolve(entries, key, dep)
                if t and t != ident:
                    h = "optional" if g == "peerDependencies" and dep in opt_peers else how
                    edges.add((ident, t, "required" if h == "peer" else h))
    for folder, w in ws_lists.items():
        src = members.get(folder)
        frm = ws_from.get(folder, "")
        listed = set()
        for g, how in groups:
            for dep in w.get(g) or {}:
                if g == "peerDependencies" and dep in listed:
                    continue
                listed.add(dep)
                t = bun_resolve(entries, frm, dep)
                if t and t != src:
                    edges.add((src, t, how if src is None else ("required" if how == "peer" else how)))
        if src:
            edges.add((None, src, "required"))
    return edges


def bun_scopes(edges):
    """npm's meaning of its scope words: every path from the root is classed
    by whether it passes a dev edge (1), an optional edge (2) and starts at a
    peer (4); a package is required when some path is none of these, peer
    when else some path from a peer is neither dev nor optional (and none is
    optional only), dev when every path passes a dev edge, optional when every
    path passes an optional one, devOptional otherwise (npm omits it only when
    both dev and optional are omitted)."""
    cls, kids, todo = {}, {}, []
    for s, t, how in edges:
        kids.setdefault(s, []).append((t, how))
    start = {"required": 0, "dev": 1, "optional": 2, "devOptional": 3, "peer": 4}

    def add(t, c):
        if c not in cls.setdefault(t, set()):
            cls[t].add(c)
            todo.append((t, c))
    for t, how in kids.get(None, []):
        add(t, start[how])
    while todo:
        u, c = todo.pop()
        for t, how in kids.get(u, []):
            add(t, c | (1 if how == "dev" else 2 if how == "optional" else 0))
    out = {}
    for t, cs in cls.items():
        if 0 in cs:
            out[t] = "required"
        elif 4 in cs and not any(c & 3 == 2 for c in cs):
            out[t] = "peer"
        elif all(c & 1 for c in cs):
            out[t] = "dev"
        elif all(c & 2 for c in cs):
            out[t] = "optional"
        else:
            out[t] = "devOptional"
    return out


def compare(kind, lock, cdx):
    assert kind == "bun"
    r = bun_read(lock)
    _, members, _, _, entries = r
    with open(cdx) as f:
        d = json.load(f)
    diffs = []
    by_path, by_folder, comp = {}, {}, {}
    for c in d.get("components", []):
        props = {p["name"]: p["value"] for p in c.get("properties", [])}
        comp[c["bom-ref"]] = (c, props)
        for p in (props.get("pixi:install-paths") or "").split(", "):
            if p:
                by_path[p] = c["bom-ref"]
        if props.get("pixi:direct-url"):
            by_folder[props["pixi:direct-url"]] = c["bom-ref"]
    ref = {None: "root"}
    for folder, m in members.items():
        ref[m] = by_folder.get(folder)
    for key, (ident, _) in entries.items():
        if ident is None:
            continue
        got = by_path.get(key)
        if ident in ref and ref[ident] != got and got is not None:
            diffs.append("%s: one identity %s in two components %s, %s" % (key, ident, ref[ident], got))
        ref.setdefault(ident, got)
        if got is None:
            diffs.append("%s: %s has no component" % (key, ident))
        elif (comp[got][0]["name"], comp[got][0].get("version")) != ident[:2]:
            diffs.append("%s: %s is component %s@%s" % (key, ident, comp[got][0]["name"], comp[got][0].get("version")))
    idents = set(members.values()) | {e for e, _ in entries.values() if e}
    if len(idents) != len(comp):
        diffs.append("%d identities, %d components" % (len(idents), len(comp)))
    want = bun_expected(r)
    got = set()
    for dep in d.get("dependencies", []):
        for t in dep.get("dependsOn", []):
            got.add((dep["ref"], t))
    want_refs = {(ref.get(s), ref.get(t)) for s, t, _ in want}
    for e in sorted(want_refs - got, key=str):
        diffs.append("edge %s -> %s stated, not in the document" % e)
    for e in sorted(got - want_refs, key=str):
        diffs.append("edge %s -> %s in the document, not stated" % e)
    scopes = bun_scopes(want)
    for ident, sc in scopes.items():
        c = comp.get(ref.get(ident))
        if c and c[1].get("pixi:scope") != sc:
            diffs.append("%s: scope %s, the lock gives %s" % (ident, c[1].get("pixi:scope"), sc))
    nh = 0
    for key, (ident, item) in entries.items():
        sri = [x for x in item[1:] if isinstance(x, str) and x.startswith("sha512-")]
        if not sri or ident is None:
            continue
        import base64
        hexd = base64.b64decode(sri[0][7:] + "==").hex()
        if len(hexd) != 128:
            continue  # no SHA-512 digest (a hand-made "sha512-AAAA"): no hash to compare
        c = comp.get(ref.get(ident))
        have = {h["alg"]: h["content"] for h in (c[0].get("hashes") or [])} if c else {}
        nh += 1
        if have.get("SHA-512") != hexd:
            diffs.append("%s: SHA-512 %s, the lock says %s" % (key, have.get("SHA-512"), hexd))
    for x in diffs:
        print(x, file=sys.stderr)
    print("components %d edges %d scopes %d hashes %d differences %d"
          % (len(comp), len(want_refs), len(scopes), nh, len(diffs)))


def main():
    if sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    kind, path = sys.argv[1], sys.argv[2]
    print({"npm": npm, "pnpm": pnpm, "yarn": yarn, "bun": bun}[kind](path))


if __name__ == "__main__":
    main()
