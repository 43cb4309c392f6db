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
  npm v1: every nested `dependencies` entry with a version.
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
    a built-in patch (patch:<locator>#optional!builtin<...>) counts as the
    locator it patches (yarn installs the patched one, never both).
"""
import json
import re
import sys
from urllib.parse import unquote


def registry(url):
    return bool(url) and re.match(r"https?://", url) and "/-/" in url and url.split("?")[0].split("#")[0].endswith(".tgz")


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
            m = re.match(r"patch:(.*?)#(optional!)?builtin<", proto)
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


def main():
    kind, path = sys.argv[1], sys.argv[2]
    print({"npm": npm, "pnpm": pnpm, "yarn": yarn}[kind](path))


if __name__ == "__main__":
    main()
