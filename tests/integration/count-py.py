#!/usr/bin/python3
"""count-py.py KIND FILE [PLATFORM] - an independent count of the packages a
Python lockfile installs on a platform (default linux-64), for the
integration suite to compare with sbomd's documents.

Written separately from the C readers on purpose: TOML comes from Python's
tomllib and markers from the `packaging` library (Debian python3-packaging).
Prints the count, or `refused` when the spec says the input is not read
(unsupported format version, unpinned requirements).
"""
import re
import sys
import tomllib

from packaging.markers import Marker

PLATFORMS = {
    "linux-64": ("linux", "Linux", "posix", "x86_64"),
    "linux-aarch64": ("linux", "Linux", "posix", "aarch64"),
    "osx-64": ("darwin", "Darwin", "posix", "x86_64"),
    "osx-arm64": ("darwin", "Darwin", "posix", "arm64"),
    "win-64": ("win32", "Windows", "nt", "AMD64"),
}


def pep503(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def floor(requires_python, default="3.14"):
    for clause in (requires_python or "").split(","):
        m = re.match(r"\s*(>=|~=|==|\^|~|>)\s*(\d+)(?:\.(\d+))?", clause)
        if m:
            return "%s.%s" % (m.group(2), m.group(3) or "0")
    return default


def environment(platform, python):
    sp, system, osn, machine = PLATFORMS[platform]
    return {
        "sys_platform": sp, "platform_system": system, "os_name": osn, "platform_machine": machine,
        "python_version": python, "python_full_version": python + ".0",
        "implementation_version": python + ".0", "implementation_name": "cpython",
        "platform_python_implementation": "CPython", "platform_release": "", "platform_version": "",
        "extra": "",
    }


def holds(marker, env, all_extras=False):
    if not marker:
        return True
    extras = re.findall(r"extra\s*==\s*[\"']([^\"']+)", marker)
    # PEP 751 `"x" in extras` / `in dependency_groups`: every listed one is selected
    marker = re.sub(r"[\"'][^\"']*[\"']\s+in\s+(extras|dependency_groups)", "os_name != 'no-such-os'", marker)
    try:
        if all_extras and extras:
            return any(Marker(marker).evaluate(dict(env, extra=e)) for e in extras)
        return Marker(marker).evaluate(env)
    except Exception as e:
        sys.exit("count-py: cannot evaluate marker %r: %s" % (marker, e))


def uv(doc, env):
    pkgs = uv_packages(doc, env)
    return None if pkgs is None else len(pkgs)


def uv_packages(doc, env):
    """The package tables uv.lock installs in env (None: a version not read)."""
    if doc.get("version") != 1:
        return None
    pkgs = doc.get("package", [])
    members = {pep503(m) for m in doc.get("manifest", {}).get("members", [])}
    byname = {}
    for i, p in enumerate(pkgs):
        byname.setdefault(pep503(p["name"]), []).append(i)

    def resolve(dep):
        cands = byname.get(pep503(dep["name"]), [])
        if len(cands) > 1:
            for i in cands:
                if dep.get("version") and pkgs[i].get("version") == dep["version"]:
                    return i
            for i in cands:
                if any(holds(m, env) for m in pkgs[i].get("resolution-markers", [])):
                    return i
        return cands[0] if cands else None

    def groups(p):
        yield p.get("dependencies", [])
        for name, deps in p.get("optional-dependencies", {}).items():
            yield deps
        for name, deps in p.get("dev-dependencies", {}).items():
            yield deps

    root = None
    seen, work = set(), []
    for i, p in enumerate(pkgs):
        src = p.get("source", {})
        here = src.get("editable") in (".", "./") or src.get("virtual") in (".", "./")
        if here:
            root = i
        if here or (pep503(p["name"]) in members and ("editable" in src or "virtual" in src or "path" in src or "directory" in src)):
            seen.add(i)
            for g in groups(p):
                work.append(g)
    active = {}
    while work:
        for dep in work.pop():
            if not holds(dep.get("marker"), env):
                continue
            t = resolve(dep)
            if t is None:
                continue
            if t not in seen:
                seen.add(t)
                work.append(pkgs[t].get("dependencies", []))
            for e in dep.get("extra", []):
                if e not in active.setdefault(t, set()):
                    active[t].add(e)
                    opt = {pep503(k): v for k, v in pkgs[t].get("optional-dependencies", {}).items()}
                    work.append(opt.get(pep503(e), []))
    seen.discard(root)
    return [pkgs[i] for i in sorted(seen)]


def pylock(doc, env):
    if not str(doc.get("lock-version", "")).split(".")[0] == "1":
        return None
    n = 0
    for p in doc.get("packages", []):
        if p.get("directory", {}).get("path") in (".", "./"):
            continue
        n += holds(p.get("marker"), env, all_extras=True)
    return n


def poetry(doc, env):
    version = doc.get("metadata", {}).get("lock-version", "1.0")
    if version.split(".")[0] not in ("1", "2"):
        return None
    n = 0
    for p in doc.get("package", []):
        m = p.get("markers", p.get("marker"))  # 1.x: marker
        if isinstance(m, dict):
            n += any(holds(v, env, all_extras=True) for v in m.values())
        else:
            n += holds(m, env, all_extras=True)
    return n


def pdm(doc, env):
    version = doc.get("metadata", {}).get("lock_version", "")
    if version.split(".")[0] not in ("", "1", "2", "3", "4"):  # "": before lock_version
        return None
    names = {}
    for p in doc.get("package", []):
        key = pep503(p["name"])
        if "extras" in p and key in names:
            continue
        names[key] = holds(p.get("marker"), env)
    return sum(names.values())


def requirements(text, platform):
    m = re.search(r"autogenerated by pip-compile with Python (\d+\.\d+)", "\n".join(text.splitlines()[:10]))
    env = environment(platform, m.group(1) if m else "3.14")
    text = re.sub(r"\\\r?\n", " ", text)
    names = {}
    for line in text.splitlines():
        line = line.split(" #")[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("-"):
            if line.split()[0] in ("-e", "--editable"):
                return None
            continue
        req, _, marker = line.partition(";")
        req = req.split(" --")[0].strip()
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*===?\s*([^\s*,;<>!=~]+)\s*$", req)
        if not m:
            return None
        names.setdefault(pep503(m.group(1)), holds(marker.strip(), env))
    return sum(names.values()) if names else None


def main():
    kind, path = sys.argv[1], sys.argv[2]
    platform = sys.argv[3] if len(sys.argv) > 3 else "linux-64"
    with open(path, "rb") as f:
        raw = f.read()
    if kind == "requirements":
        n = requirements(raw.decode("utf-8"), platform)
    else:
        doc = tomllib.loads(raw.decode("utf-8"))
        default = "3.14"
        rp = doc.get("requires-python") or doc.get("metadata", {}).get("python-versions") or \
            doc.get("metadata", {}).get("requires_python")
        for t in doc.get("metadata", {}).get("targets", []) if kind == "pdm" else []:
            rp = rp or t.get("requires_python")
        env = environment(platform, floor(rp, default))
        n = {"uv": uv, "pylock": pylock, "poetry": poetry, "pdm": pdm}[kind](doc, env)
    print("refused" if n is None else n)


if __name__ == "__main__":
    main()
