#!/usr/bin/env python3
"""check-snapshot.py SCHEMA SNAPSHOT CDX [PACKAGES] - a github-snapshot held
to the vendored `snapshot` schema and to the CycloneDX document of the same
request (CDX: one document, or the NDJSON of all-*, one line per manifest in
order). Per manifest: the resolved keys are the CycloneDX bom-refs; each
package_url is the component's purl, or for a conda component with a PyPI
identity (pixi:purl pkg:pypi/...) that identity with the conda purl in
metadata.conda-purl; dependencies are the package_urls of its dependsOn;
relationship is direct exactly for the root's dependsOn (absent everywhere
when the document's dependency composition is unknown). With PACKAGES (the
packages report's JSON, one selection) scope is development exactly where the
report says so. Prints what differs; exit 1 when anything does."""
import json
import sys

import jsonschema

schema_path, snap_path, cdx_path = sys.argv[1:4]
pkgs_path = sys.argv[4] if len(sys.argv) > 4 else None
problems = []
schema = json.load(open(schema_path))
snap = json.load(open(snap_path))
v = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
for e in v.iter_errors(snap):
    problems.append(f"schema: {'/'.join(map(str, e.absolute_path))}: {e.message}")
with open(cdx_path) as f:
    text = f.read()
try:
    cdxs = [json.loads(text)]
except ValueError:
    cdxs = [json.loads(line) for line in text.splitlines() if line.strip()]
manifests = list(snap.get("manifests", {}).items())
if len(manifests) != len(cdxs):
    problems.append(f"{len(manifests)} manifests for {len(cdxs)} CycloneDX documents")
scope_of = {}
if pkgs_path:
    for p in json.load(open(pkgs_path))["packages"]:
        scope_of[p["purl"]] = p["scope"]


def prop(c, name):
    return [p["value"] for p in c.get("properties", []) if p["name"] == name]


for (mname, m), cdx in zip(manifests, cdxs):
    if mname != m.get("name"):
        problems.append(f"manifest key {mname} is not its name {m.get('name')}")
    for k, val in m.get("metadata", {}).items():
        if isinstance(val, (dict, list)):
            problems.append(f"{mname}: metadata {k} is not a scalar")
    comps = {c["bom-ref"]: c for c in cdx.get("components", [])}
    res = m.get("resolved", {})
    if set(res) != set(comps):
        problems.append(f"{mname}: package set differs: only snapshot {sorted(set(res) - set(comps))[:5]}, "
                        f"only CycloneDX {sorted(set(comps) - set(res))[:5]}")
    def submitted(ref):
        c = comps[ref]
        py = [u for u in prop(c, "pixi:purl") if u.startswith("pkg:pypi/")]
        conda = prop(c, "pixi:kind") == ["conda"]
        return (py[0] if conda and py else c["purl"]), (c["purl"] if conda and py else None)
    deps = {d["ref"]: d.get("dependsOn", []) for d in cdx.get("dependencies", [])}
    root = cdx["metadata"]["component"]["bom-ref"]
    unknown = any(a.get("aggregate") == "unknown" for a in cdx.get("compositions", []))
    with_rel = [r for r in res.values() if "relationship" in r]
    if unknown and with_rel:
        problems.append(f"{mname}: relationship given though the input states no dependencies")
    if not unknown and len(with_rel) != len(res):
        problems.append(f"{mname}: {len(res) - len(with_rel)} entries without relationship")
    for ref, r in res.items():
        if ref not in comps:
            continue
        want, conda_purl = submitted(ref)
        if r.get("package_url") != want:
            problems.append(f"{mname}/{ref}: package_url {r.get('package_url')} is not {want}")
        if (r.get("metadata") or {}).get("conda-purl") != conda_purl:
            problems.append(f"{mname}/{ref}: metadata.conda-purl {r.get('metadata')} is not {conda_purl}")
        if not unknown:
            wdeps = sorted(submitted(t)[0] for t in deps.get(ref, []))
            if sorted(r.get("dependencies", [])) != wdeps:
                problems.append(f"{mname}/{ref}: dependencies {r.get('dependencies')} are not {wdeps}")
            wrel = "direct" if ref in deps.get(root, []) else "indirect"
            if r.get("relationship") != wrel:
                problems.append(f"{mname}/{ref}: relationship {r.get('relationship')} is not {wrel}")
        if pkgs_path:
            want_scope = "development" if scope_of.get(comps[ref]["purl"]) == "development" else "runtime"
            if r.get("scope") != want_scope:
                problems.append(f"{mname}/{ref}: scope {r.get('scope')} is not {want_scope}")
for p in problems[:20]:
    print(p)
sys.exit(1 if problems else 0)
