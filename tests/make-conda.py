#!/usr/bin/env python3
"""make-conda.py OUT [--many N] - conda channel archives for the archive lookup tests.

Writes OUT/conda-forge/linux-64/*.conda and *.tar.bz2 (zip + zstd tarballs,
built with zipfile, tarfile and the zstd command) and prints a pixi.lock v6
naming them, licenses left out so the lookups have something to fill:
  alpha      info member last, inside the 256 KiB tail: one range request
  beta       info member first, before 600 KiB of package data: two ranges
  gamma      a legacy .tar.bz2, small: fetched whole
  norange    served whole by the fake index (a server without ranges)
  noinfo     an archive without info/index.json: an answer, nothing filled
  evil       license paths climbing out of info/ and a symlink: not stored
  missing    not on the index: a 404 answer
With --many N: instead, N plain archives bulk-NNNNN-1.0-h0_0.conda (for
loadtest/lookups.sh). With --bomb: instead, one archive whose info member
unpacks to 300 MiB (a 300 MiB license file of zeros): past the reader's cap.
"""
import io, os, subprocess, sys, tarfile, zipfile

out = sys.argv[1]
many = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--many" else 0
bomb = len(sys.argv) > 2 and sys.argv[2] == "--bomb"
chan = os.path.join(out, "conda-forge", "linux-64")
os.makedirs(chan, exist_ok=True)


def tar_bytes(files, mode="w"):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode, format=tarfile.PAX_FORMAT) as t:
        for name, data in files:
            info = tarfile.TarInfo(name)
            if data is None:  # a symlink to /etc/passwd
                info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
                t.addfile(info)
                continue
            info.size, info.mtime = len(data), 1700000000
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zstd(data):
    return subprocess.run(["zstd", "-q", "-c", "-19"], input=data, stdout=subprocess.PIPE, check=True).stdout


def info_files(name, license, extra=()):
    about = '{"license": "%s", "summary": "the %s package", "home": "https://example.org/%s"}' % (license, name, name)
    return [("info/index.json", b'{"name": "%s"}' % name.encode()), ("info/about.json", about.encode()),
            ("info/licenses/LICENSE", ("%s license text\n" % name).encode())] + list(extra)


def conda(stem, files, info_first=False, pkg_size=4096):
    pkg = zstd(tar_bytes([("lib/lib%s.so" % stem, os.urandom(pkg_size))]))
    members = [("metadata.json", b'{"conda_pkg_format_version": 2}')]
    info = ("info-%s.tar.zst" % stem, zstd(tar_bytes(files)))
    body = ("pkg-%s.tar.zst" % stem, pkg)
    members += [info, body] if info_first else [body, info]
    path = os.path.join(chan, stem + ".conda")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for n, d in members:
            z.writestr(n, d)
    return path


def lockfile(made, extra=()):
    names = sorted(list(made) + list(extra))
    url = "https://conda.anaconda.org/conda-forge/linux-64/"
    print("version: 6\nenvironments:\n  default:\n    channels:\n    - url: https://conda.anaconda.org/conda-forge/\n"
          "    packages:\n      linux-64:")
    for n in names:
        print("      - conda: %s%s" % (url, n))
    print("packages:")
    for n in names:
        size = os.path.getsize(made[n]) if n in made else 1000
        print("- conda: %s%s\n  sha256: %s\n  md5: %s\n  size: %d\n  timestamp: 1700000000000" % (url, n, "0" * 64, "0" * 32, size))


class Zeros(io.RawIOBase):
    def __init__(self, n):
        self.left = n

    def readable(self):
        return True

    def readinto(self, b):
        k = min(len(b), self.left)
        b[:k] = bytes(k)
        self.left -= k
        return k


if bomb:
    # the tarball streams through zstd: 300 MiB never sit in memory here
    # zstd's output (about 10 KB for zeros) fits the pipe while the input streams
    z = subprocess.Popen(["zstd", "-q", "-c", "-3"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    with tarfile.open(fileobj=z.stdin, mode="w|", format=tarfile.PAX_FORMAT) as t:
        for name, data in info_files("bomb", "MIT"):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        info = tarfile.TarInfo("info/licenses/BIG")
        info.size = 300 << 20
        t.addfile(info, io.BufferedReader(Zeros(info.size)))
    z.stdin.close()
    packed = z.stdout.read()
    z.wait()
    path = os.path.join(chan, "bomb-1.0-h0_0.conda")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("metadata.json", b'{"conda_pkg_format_version": 2}')
        zf.writestr("info-bomb-1.0-h0_0.tar.zst", packed)
    lockfile({"bomb-1.0-h0_0.conda": path})
    sys.exit(0)

if many:
    made = {}
    for i in range(many):
        stem = "bulk-%05d-1.0-h0_0" % i
        made[stem + ".conda"] = conda(stem, info_files("bulk-%05d" % i, ["MIT", "BSD-3-Clause", "Apache-2.0"][i % 3]))
    lockfile(made)
    sys.exit(0)

made = {
    "alpha-1.0-h0_0.conda": conda("alpha-1.0-h0_0", info_files("alpha", "BSD-3-Clause")),
    "beta-2.0-h0_0.conda": conda("beta-2.0-h0_0", info_files("beta", "Apache-2.0"), info_first=True, pkg_size=600 * 1024),
    "norange-1.0-h0_0.conda": conda("norange-1.0-h0_0", info_files("norange", "MIT")),
    "noinfo-1.0-h0_0.conda": conda("noinfo-1.0-h0_0", [("info/about.json", b'{"license": "MIT"}')]),
    "evil-1.0-h0_0.conda": conda("evil-1.0-h0_0", info_files("evil", "Zlib", [
        ("info/licenses/../../../../escaped", b"x"), ("info/../escaped2", b"x"), ("info/licenses/link", None)])),
}
gamma = os.path.join(chan, "gamma-3.0-h0_0.tar.bz2")
with open(gamma, "wb") as f:
    f.write(tar_bytes(info_files("gamma", "LGPL-2.1-or-later") + [("lib/libgamma.so", b"\0" * 1000)], "w:bz2"))
made["gamma-3.0-h0_0.tar.bz2"] = gamma

lockfile(made, ["missing-1.0-h0_0.conda"])
