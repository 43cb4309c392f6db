#!/usr/bin/env python3
"""make-lists.py OUTDIR N - small inputs holding one list of N items, the
shapes whose lists were once joined by re-printing the whole string per item
(quadratic time and memory: a 279 KB uv.lock took a gigabyte):

  markers.uv.lock       one package with N resolution-markers
  extras.uv.lock        one dependency asking for N extras
  extras.pdm.lock       the same in a pdm.lock (legacy dependencies table)
  globs.pixi.lock       a pixi-build source package with N input globs
  licenses.cdx.json     a CycloneDX component with N licenses
  peers.pnpm-lock.yaml  one package locked in N peer-suffixed snapshots

Each is what a reader accepts (a valid lockfile of its kind), so the work is
the reader's, not an early refusal."""
import json
import os
import sys

out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)


def w(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


marker = "python_full_version == '3.{}.{}' and platform_machine == 'm{}'"
ROOT = ('[[package]]\nname = "root"\nversion = "0.1.0"\nsource = { editable = "." }\n'
        'dependencies = [\n    { name = "%s"%s },\n]\n\n')
w("markers.uv.lock",
  'version = 1\nrequires-python = ">=3.8"\n\n' + ROOT % ("a", "") + '[[package]]\nname = "a"\nversion = "1.0"\n'
  'source = { registry = "https://pypi.org/simple" }\nresolution-markers = [\n'
  + "".join('    "%s",\n' % marker.format(i % 100, i, i) for i in range(n)) + "]\n")

extras = ", ".join('"extra-number-%d"' % i for i in range(n))
w("extras.uv.lock",
  'version = 1\nrequires-python = ">=3.8"\n\n' + ROOT % ("a", "") + '[[package]]\nname = "a"\nversion = "1.0"\n'
  'source = { registry = "https://pypi.org/simple" }\ndependencies = [\n    { name = "b", extra = [%s] },\n]\n\n'
  '[[package]]\nname = "b"\nversion = "1.0"\nsource = { registry = "https://pypi.org/simple" }\n' % extras)

w("extras.pdm.lock",
  '[metadata]\ngroups = ["default"]\nlock_version = "4.4"\ncontent_hash = "sha256:00"\n\n'
  '[[package]]\nname = "a"\nversion = "1.0"\nsummary = ""\ngroups = ["default"]\n\n'
  '[package.dependencies]\nb = {version = ">=1", extras = [%s]}\n\n'
  '[[package]]\nname = "b"\nversion = "1.0"\nsummary = ""\ngroups = ["default"]\n' % extras)

w("globs.pixi.lock",
  "version: 6\nenvironments:\n  default:\n    channels:\n    - url: https://prefix.dev/conda-forge/\n"
  "    packages:\n      linux-64:\n      - conda: src/navigator\npackages:\n- conda: src/navigator\n"
  "  name: navigator\n  version: 0.0.0\n  build: h0_0\n  subdir: linux-64\n  input:\n"
  "    hash: 7fd87dea074a2453e59f364849ff6b286a73212f4c4e507b975db38eb2e7ae73\n    globs:\n"
  + "".join("    - src/dir%d/**/*.cpp\n" % i for i in range(n)))

lic = [{"license": {"id": "MIT"}} if i % 2 else {"expression": "Apache-2.0 OR BSD-%d-Clause" % (i % 3 + 2)}
       for i in range(n)]
w("licenses.cdx.json", json.dumps({
    "bomFormat": "CycloneDX", "specVersion": "1.6", "version": 1,
    "metadata": {"component": {"type": "application", "name": "root", "bom-ref": "root"}},
    "components": [{"type": "library", "name": "a", "version": "1.0", "bom-ref": "a",
                    "purl": "pkg:pypi/a@1.0", "licenses": lic}]}))

snaps = "".join("  a@1.0.0(peer-%d@1.0.%d):\n    dependencies:\n      peer-%d: 1.0.%d\n" % (i, i, i, i)
                for i in range(n))
pk = "".join("  peer-%d@1.0.%d:\n    resolution: {integrity: sha512-AAAA}\n" % (i, i) for i in range(n))
w("peers.pnpm-lock.yaml",
  "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      a:\n        specifier: 1.0.0\n"
  "        version: 1.0.0(peer-0@1.0.0)\n\npackages:\n\n  a@1.0.0:\n    resolution: {integrity: sha512-AAAA}\n"
  "    peerDependencies:\n      peer: '*'\n" + pk + "\nsnapshots:\n\n" + snaps
  + "".join("  peer-%d@1.0.%d: {}\n" % (i, i) for i in range(n)))
