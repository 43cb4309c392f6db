#!/usr/bin/python3
"""make-inputs.py DIR - write the hostile-input corpus into DIR: one file per
case, named <expected status>-<case>.<ext>[.<kind>] (the kind, when given, is
sent as ?kind=). Generated, so the repository holds no large blobs and each
case's construction is readable here."""
import os
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)


def put(name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


pixi_head = "version: 6\nenvironments:\n  default:\n    channels: []\n    packages: {}\npackages:\n"
put("400-invalid-utf8.pixi.lock", pixi_head.encode() + b"- conda: https://x/\xff\xfe-1-0.conda\n")
put("400-nul-byte.pixi.lock", pixi_head.encode() + b"- conda: https://x/a\x00b-1-0.conda\n")
put("400-invalid-utf8.uv.lock", b'version = 1\n[[package]]\nname = "\xc3\x28"\n')
put("400-nul-byte.uv.lock", b'version = 1\n[[package]]\nname = "a\x00"\n')
put("400-nul-byte.requirements.txt", b"six==1.16.0\x00\n")
put("413-nested-flows.pixi.lock", "version: 6\nenvironments: {}\nextra: " + "[" * 1000000 + "\npackages: []\n")
put("413-nested-arrays.uv.lock", "version = 1\na = " + "[" * 1000000 + "\n")
put("413-nested-inline-tables.uv.lock", "version = 1\na = " + "{b = " * 200000 + "\n")
bomb = "version: 6\na: &a [x, x, x, x, x, x, x, x, x]\n"
for i in range(1, 9):
    bomb += "%s: &%s [%s]\n" % (chr(97 + i), chr(97 + i), ", ".join(["*" + chr(96 + i)] * 9))
put("422-alias-bomb.pixi.lock", bomb + "packages: []\n")
put("400-duplicate-keys.pixi.lock", pixi_head + "environments: {}\n")
put("400-duplicate-keys.uv.lock", 'version = 1\nversion = 1\n')
put("400-duplicate-table.poetry.lock", '[metadata]\nlock-version = "2.1"\n[metadata]\n')
put("413-huge-scalar.pixi.lock", pixi_head + "- conda: https://x/" + "a" * (2 << 20) + "-1-0.conda\n")
put("413-huge-string.uv.lock", 'version = 1\nx = "' + "a" * (2 << 20) + '"\n')
put("422-unsupported-version.pixi.lock", "version: 99\nenvironments: {}\npackages: []\n")
put("422-unsupported-version.uv.lock", "version = 7\n")
put("422-unsupported-version.pdm.lock", '[metadata]\nlock_version = "9.0"\n')
put("422-unsupported-version.pylock.toml", 'lock-version = "2.0"\n')
put("422-unsupported-version.bun.lock", '{\n  "lockfileVersion": 7,\n  "workspaces": {},\n  "packages": {},\n}\n')
# NuGet's format version; a composer.lock written by a Composer with plugin API 3 (pubspec.lock has no format version)
put("422-unsupported-version.packages.lock.json", '{\n  "version": 3,\n  "dependencies": {}\n}\n')
put("422-unsupported-version.composer.lock", '{\n  "packages": [],\n  "plugin-api-version": "3.0.0"\n}\n')
put("422-unsupported-version.go.mod", "module example.com/m\n\ngo 2.0\n")
put("422-unsupported-hash.go.sum", "example.com/m v1.0.0 h2:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n")
put("422-unsupported-version.Package.resolved", '{\n  "pins" : [],\n  "version" : 4\n}\n')
put("400-deep-nesting.Package.resolved", '{"version": 2, "pins": ' + "[" * 100000 + "}\n")
put("400-not-a-coordinate.gradle.lockfile", "# This is a Gradle generated file for dependency locking.\n" + "a" * 100000 + "=x\n")
put("422-unsupported-version.Cargo.lock", 'version = 99\n\n[[package]]\nname = "a"\nversion = "1.0.0"\n')
put("422-unsupported-version.conan.lock", '{\n  "version": "0.9",\n  "requires": ["zlib/1.3.1"]\n}\n')
put("422-unsupported-version-graph.conan.lock", '{"graph_lock": {"nodes": {}}, "version": "0.9"}\n')
put("413-nested-arrays.bun.lock", '{"lockfileVersion": 1, "packages": {"a": ' + "[" * 1000000 + "}}\n")
put("422-unsupported-version.Gemfile.lock",
    "GEM\n  remote: https://rubygems.org/\n  specs:\n    a (1.0)\n\nBUNDLED WITH\n   9.0.0\n")
put("422-unsupported-version.Podfile.lock", "PODS:\n  - A (1.0)\n\nCOCOAPODS: 3.0.0\n")
put("422-unsupported-version.mix.lock", '%{\n  "a": {:hex, :a, "1.0.0", "", [], [], "hexpm", "", "x"}\n}\n')
put("413-nested-tuples.mix.lock", '%{"a": ' + "{" * 1000000 + "\n")
# Bun's binary lockfile, detected by its header whatever the bytes after: 422 with how to get bun.lock
put("422-binary-lockfile.bun.lockb", b"#!/usr/bin/env bun\nbun-lockfile-format-v0\n" + bytes(range(256)) * 64)
put("415-binary-garbage.bin", bytes((i * 7919 + 13) % 256 for i in range(65536)))
put("415-html.html", "<!doctype html><html><body>not a lockfile</body></html>\n")
put("400-empty.bin", b"")
