#!/usr/bin/env python3
"""check-php.py - an independent reading of composer.lock, packages.lock.json
and pubspec.lock held against sbomd's CycloneDX document.

  check-php.py platforms LOCKFILE            the NuGet target frameworks, one a line
  check-php.py compare KIND LOCKFILE CDX [PLATFORM]

KIND is composer, nuget or pub. The lockfile is read here with Python's own
json / a small reader of pubspec.lock's YAML subset (no sbomd code), by the
rules the lock formats and the purl spec state:

  components  one per package (per target framework for NuGet)
  purls       the registry purl, vcs_url for a git checkout, pkg:generic for
              a path (and a Composer path repository, a NuGet project, a pub
              sdk package), repository_url for another Composer repository
              (its notification-url's origin) or another pub host
  hashes      composer dist.shasum (SHA-1), NuGet contentHash (SHA-512 when
              it is 64 bytes of base64), pub sha256
  licenses    composer: the array, alternatives joined with OR
  edges       composer `require` (platform packages php, ext-*, lib-*,
              composer-*-api are not packages; provide/replace stand in),
              NuGet `dependencies` (names case-insensitive; a runtime section
              over its framework's packages); pubspec.lock states none
  direct      NuGet: the root's dependsOn is the Direct entries and the
              Project entries nothing depends on; pub: the `direct *` ones
              carry pixi:direct
  scope       composer packages required / packages-dev optional (CycloneDX's
              word for development); pub direct main/overridden required,
              direct dev optional, transitive none
Prints "compared N mismatches M" and each mismatch; exits 1 on any.

Differences that are not mismatches, each justified where it is decided:
  - a license the document spells otherwise when its pixi:license-raw
    property is the lock's text (sbomd normalized it to SPDX, e.g. a
    deprecated id); counted as "normalized".
  - a license the lock spells with a common non-SPDX name that sbomd maps
    to its SPDX id (LICENSE_ALIASES below: mautic's ip2location says
    "LGPLv3"); counted as "normalized".
  - purls are compared percent-decoded (the encoding of '/' inside a
    qualifier value is the purl library's, not the lock's fact).
"""
import base64
import json
import re
import sys
from urllib.parse import unquote

PLATFORM = re.compile(r"^(php(-.*)?|hhvm|ext-.+|lib-.+|composer|composer-plugin-api|composer-runtime-api)$")


# non-SPDX names locks use and the SPDX id sbomd's license table maps them to
LICENSE_ALIASES = {"LGPLv3": "LGPL-3.0-only"}


def origin(url):
    m = re.match(r"^([a-z]+://[^/?#]+)", url or "")
    return m.group(1) if m else None


# ---- composer.lock -------------------------------------------------------

def composer(path):
    d = json.load(open(path, encoding="utf-8-sig"))
    pkgs = {}
    ents = []
    for section, scope in (("packages", "required"), ("packages-dev", "optional")):
        for e in d.get(section) or []:
            name = e.get("name") or e.get("package")
            ents.append((name, e, scope))
    provided = {}
    for name, e, _ in ents:
        for k in ("provide", "replace"):
            m = e.get(k)
            if isinstance(m, dict):
                for n in m:
                    provided.setdefault(n.lower(), name.lower())
    for name, e, scope in ents:
        ver = e["version"]
        src = e.get("source") or {}
        dist = e.get("dist") or {}
        low = name.lower()
        ref = src.get("reference") or dist.get("reference") or e.get("source-reference")
        if dist.get("type") == "path":
            purl = "pkg:generic/%s@%s" % (low, ver)
        elif not dist.get("url") and src.get("url") and src.get("type") == "git":
            purl = "pkg:composer/%s@%s?vcs_url=git+%s%s" % (low, ver, src["url"], "@" + ref if ref else "")
        else:
            purl = "pkg:composer/%s@%s" % (low, ver)
            o = origin(e.get("notification-url"))
            if o and o not in ("https://packagist.org", "https://repo.packagist.org"):
                purl += "?repository_url=" + o
        hashes = {}
        sh = dist.get("shasum") or ""
        if re.fullmatch(r"[0-9a-fA-F]{40}", sh):
            hashes["SHA-1"] = sh.lower()
        lic = e.get("license")
        if isinstance(lic, str):
            lic = [lic]
        lic = [x for x in (lic or []) if x]
        if len(lic) > 1:
            lic = ["(%s)" % x if " " in x and not x.startswith("(") else x for x in lic]
        pkgs[low] = {"purl": purl, "hashes": hashes, "license": " OR ".join(lic) or None, "scope": scope,
                     "req": e.get("require") if isinstance(e.get("require"), dict) else {}}
    edges = set()
    for low, p in pkgs.items():
        for dn in p["req"]:
            dn = dn.lower()
            if PLATFORM.match(dn):
                continue
            t = dn if dn in pkgs else provided.get(dn)
            if t and t != low and t in pkgs:
                edges.add((p["purl"], pkgs[t]["purl"]))
    return {p["purl"]: p for p in pkgs.values()}, edges, None


# ---- packages.lock.json --------------------------------------------------

def nuget_platforms(path):
    return list(json.load(open(path, encoding="utf-8-sig"))["dependencies"])


def tfm_key(t):
    """How new a framework is: (family, version tuple)."""
    for pre, fam in ((".NETCoreApp,Version=v", 3), ("netcoreapp", 3), (".NETStandard,Version=v", 2),
                     ("netstandard", 2), (".NETFramework,Version=v", 1)):
        if t.startswith(pre):
            v = t[len(pre):]
            break
    else:
        m = re.match(r"^net(\d[\d.]*)", t)
        if not m:
            return (0, ())
        v = m.group(1)
        fam = 3 if "." in v else 1
    v = re.match(r"[\d.]*", v).group(0)
    parts = v.split(".") if "." in v else list(v)
    return (fam, tuple(int(x) for x in parts if x))


def nuget(path, platform):
    deps = json.load(open(path, encoding="utf-8-sig"))["dependencies"]
    if platform is None:  # the newest framework without a runtime
        best = None
        for t in deps:
            if "/" not in t and (best is None or tfm_key(t) > tfm_key(best)):
                best = t
        platform = best
    entries = dict((n.lower(), (n, e)) for n, e in deps[platform].items())
    if "/" in platform:
        base = platform.split("/")[0]
        for n, e in (deps.get(base) or {}).items():
            entries.setdefault(n.lower(), (n, e))
    pkgs = {}
    for low, (n, e) in entries.items():
        if e["type"] == "Project":
            purl = "pkg:generic/%s" % n
        else:
            purl = "pkg:nuget/%s@%s" % (n, e["resolved"])
        hashes = {}
        try:
            raw = base64.b64decode(e.get("contentHash") or "", validate=True)
        except ValueError:
            raw = b""
        if len(raw) == 64:
            hashes["SHA-512"] = raw.hex()
        pkgs[low] = {"purl": purl, "hashes": hashes, "license": None, "scope": None, "e": e}
    edges, needed = set(), set()
    for low, p in pkgs.items():
        for dn in (p["e"].get("dependencies") or {}):
            if dn.lower() in pkgs and dn.lower() != low:
                edges.add((p["purl"], pkgs[dn.lower()]["purl"]))
                needed.add(dn.lower())
    roots = set()
    for low, p in pkgs.items():
        t = p["e"]["type"]
        if t == "Direct" or (t == "Project" and low not in needed):
            roots.add(p["purl"])
    return {p["purl"]: p for p in pkgs.values()}, edges, roots


# ---- pubspec.lock --------------------------------------------------------

def pub_yaml(path):
    """pubspec.lock as pub writes it: two-space indented maps of plain or
    double-quoted scalars, `description` a map or a scalar."""
    out, stack = {}, [(-1, None)]
    root = out
    for line in open(path, encoding="utf-8-sig"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        ind = len(line) - len(line.lstrip(" "))
        key, _, val = line.strip().partition(":")
        val = val.strip()
        if val.startswith('"') and val.endswith('"'):
            val = val[1:-1]
        while stack and stack[-1][0] >= ind:
            stack.pop()
        parent = stack[-1][1] if stack[-1][1] is not None else root
        key = key.strip('"')
        if val == "":
            parent[key] = {}
            stack.append((ind, parent[key]))
        else:
            parent[key] = val
    return out


def pub(path):
    d = pub_yaml(path)
    pkgs = {}
    for name, e in (d.get("packages") or {}).items():
        src, ver, desc = e["source"], e["version"], e.get("description")
        dep = e.get("dependency", "")
        hashes = {}
        if src == "hosted":
            purl = "pkg:pub/%s@%s" % (name.lower(), ver)
            url = desc.get("url") if isinstance(desc, dict) else None
            if url and url not in ("https://pub.dev", "https://pub.dartlang.org"):
                purl += "?repository_url=" + url
            if isinstance(desc, dict) and desc.get("sha256"):
                hashes["SHA-256"] = desc["sha256"].lower()
        elif src == "git":
            purl = "pkg:pub/%s@%s?vcs_url=git+%s@%s" % (name.lower(), ver, desc["url"], desc["resolved-ref"])
        else:  # path, sdk
            purl = "pkg:generic/%s@%s" % (name, ver)
        scope = {"direct main": "required", "direct overridden": "required", "direct dev": "optional"}.get(dep)
        pkgs[name] = {"purl": purl, "hashes": hashes, "license": None, "scope": scope,
                      "direct": dep.startswith("direct ")}
    return {p["purl"]: p for p in pkgs.values()}, set(), None


# ---- the comparison ------------------------------------------------------

def cdx_license(c):
    ls = c.get("licenses") or []
    parts = []
    for l in ls:
        if "expression" in l:
            parts.append(l["expression"])
        elif "license" in l:
            parts.append(l["license"].get("id") or l["license"].get("name"))
    return " OR ".join(parts) or None


def compare(kind, lock, cdx_path, platform):
    want, want_edges, want_roots = {"composer": lambda: composer(lock), "nuget": lambda: nuget(lock, platform),
                                    "pub": lambda: pub(lock)}[kind]()
    doc = json.load(open(cdx_path))
    comps = {}
    for c in doc.get("components") or []:
        comps[unquote(c["purl"])] = c
    ref2purl = {c["bom-ref"]: unquote(c["purl"]) for c in doc.get("components") or []}
    bad, normalized = [], 0
    for purl in sorted(set(want) | set(comps)):
        if purl not in comps:
            bad.append("missing in the document: " + purl)
            continue
        if purl not in want:
            bad.append("not in the lock: " + purl)
            continue
        w, c = want[purl], comps[purl]
        got_h = {h["alg"]: h["content"] for h in c.get("hashes") or []}
        if got_h != w["hashes"]:
            bad.append("%s: hashes %s, the lock says %s" % (purl, got_h, w["hashes"]))
        gl = cdx_license(c)
        if gl != w["license"]:
            props = {p["name"]: p["value"] for p in c.get("properties") or []}
            if w["license"] and (props.get("pixi:license-raw") == w["license"] or
                                 LICENSE_ALIASES.get(w["license"]) == gl):
                normalized += 1  # sbomd's SPDX spelling of the same text
            else:
                bad.append("%s: license %r, the lock says %r" % (purl, gl, w["license"]))
        if kind != "nuget" and c.get("scope") != w["scope"]:
            bad.append("%s: scope %r, the lock says %r" % (purl, c.get("scope"), w["scope"]))
        if kind == "pub":
            props = {p["name"]: p["value"] for p in c.get("properties") or []}
            if (props.get("pixi:direct") == "true") != w["direct"]:
                bad.append("%s: direct is %r, the lock says %r" % (purl, props.get("pixi:direct"), w["direct"]))
    got_edges, got_roots = set(), set()
    for d in doc.get("dependencies") or []:
        for t in d.get("dependsOn") or []:
            if d["ref"] in ref2purl:
                got_edges.add((ref2purl[d["ref"]], ref2purl.get(t, t)))
            else:
                got_roots.add(ref2purl.get(t, t))
    for e in sorted(want_edges - got_edges):
        bad.append("edge missing: %s -> %s" % e)
    for e in sorted(got_edges - want_edges):
        bad.append("edge not in the lock: %s -> %s" % e)
    if want_roots is not None and want_roots != got_roots:
        bad.append("root's dependencies: %s, the lock says %s" % (sorted(got_roots), sorted(want_roots)))
    print("compared %d components, %d edges, mismatches %d%s" % (
        len(want), len(want_edges), len(bad), ", licenses normalized %d" % normalized if normalized else ""))
    for b in bad[:20]:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "platforms":
        print("\n".join(nuget_platforms(sys.argv[2])))
        sys.exit(0)
    sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None))
