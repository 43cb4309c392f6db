#!/usr/bin/python3
"""make-bounds.py DIR [SCALE [NAME...]] - write the size and shape attacks on the Python
readers (issue 19, items 1 and 2) into DIR, generated so the repository holds
no large blobs. SCALE (default 1) divides every count: 1 gives the inputs the
issue measured, 100 small versions for the fuzz seed corpus. NAMEs limit
the output to those files.

  req-100k.requirements.txt   100,000 `pN==1.0` pins (1.19 MB)
  req-490k.requirements.txt   490,000 pins (6.26 MB), under the package limit
  big.uv.lock                 an ordinary uv.lock, 18.5 MB: 22,200 packages
                              with deps, markers, an sdist and wheels
  samename.uv.lock            32,000 packages of one name (4.6 MB), each
                              pinned by version from the previous one
  root150k.uv.lock            a root project depending on 150,000 packages
                              (50 MB)
"""
import os
import sys

d = sys.argv[1]
scale = int(sys.argv[2]) if len(sys.argv) > 2 else 1
os.makedirs(d, exist_ok=True)
H = "0123456789abcdef" * 4


def write(name, lines):
    with open(os.path.join(d, name), "w") as f:
        f.writelines(lines)


def requirements(n):
    yield "# a pinned requirements file, one pin a line\n"
    for i in range(n):
        yield "p%d==1.0\n" % i


def uv_head():
    return 'version = 1\nrequires-python = ">=3.10"\n\n'


def uv_root(deps):
    yield '[[package]]\nname = "app"\nversion = "0.1.0"\nsource = { editable = "." }\ndependencies = [\n'
    for dep in deps:
        yield "    { %s },\n" % dep
    yield "]\n\n"


def big_uv(n):
    yield uv_head()
    yield from uv_root(['name = "pkg%d"' % i for i in range(0, n, 97)])
    for i in range(n):
        name = "pkg%d" % i
        url = "https://files.pythonhosted.org/packages/%02x/%02x/%s" % (i % 256, (i // 256) % 256, name)
        yield '[[package]]\nname = "%s"\nversion = "1.%d.0"\n' % (name, i % 50)
        yield 'source = { registry = "https://pypi.org/simple" }\n'
        deps = [j for j in (i + 1, i + 7, i + 31) if j < n]
        if deps:
            yield "dependencies = [\n"
            for k, j in enumerate(deps):
                marker = ', marker = "sys_platform == \'linux\'"' if k == 1 else ""
                yield '    { name = "pkg%d"%s },\n' % (j, marker)
            yield "]\n"
        yield 'sdist = { url = "%s-1.%d.0.tar.gz", hash = "sha256:%s", size = %d }\n' % (url, i % 50, H, 1000 + i)
        yield "wheels = [\n"
        for tag in ("py3-none-any", "cp312-cp312-manylinux_2_17_x86_64"):
            yield '    { url = "%s-1.%d.0-%s.whl", hash = "sha256:%s", size = %d },\n' % (url, i % 50, tag, H, 2000 + i)
        yield "]\n\n"


def samename_uv(n):
    yield uv_head()
    yield from uv_root(['name = "p", version = "1.0.0"'])
    for i in range(n):
        yield '[[package]]\nname = "p"\nversion = "1.0.%d"\nsource = { registry = "https://pypi.org/simple" }\n' % i
        if i + 1 < n:
            yield 'dependencies = [{ name = "p", version = "1.0.%d" }]\n' % (i + 1)
        yield "\n"


def root_uv(n):
    yield uv_head()
    yield from uv_root(['name = "q%d"' % i for i in range(n)])
    for i in range(n):
        yield '[[package]]\nname = "q%d"\nversion = "2.0.%d"\nsource = { registry = "https://pypi.org/simple" }\n' % (i, i)
        yield 'sdist = { url = "https://files.pythonhosted.org/packages/aa/bb/q%d-2.0.%d.tar.gz", hash = "sha256:%s", size = %d }\n\n' % (
            i, i, H, 4000 + i)


only = set(sys.argv[3:])
for name, gen, n in [("req-100k.requirements.txt", requirements, 100000),
                     ("req-490k.requirements.txt", requirements, 490000),
                     ("big.uv.lock", big_uv, 22200),
                     ("samename.uv.lock", samename_uv, 32000),
                     ("root150k.uv.lock", root_uv, 150000)]:
    if not only or name in only:
        write(name, gen(n // scale))
