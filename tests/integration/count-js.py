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
"""
import json
import re
import sys


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


def main():
    kind, path = sys.argv[1], sys.argv[2]
    print({"npm": npm}[kind](path))


if __name__ == "__main__":
    main()
