#!/usr/bin/env bash
# run.sh - build the libFuzzer targets with clang (ASan+UBSan) and run each for
# FUZZ_SECONDS (default 60) on a seed corpus made from the shared fixtures.
# The core is compiled once (in parallel) into an archive every target links;
# FUZZ_JOBS targets (default: one per core) run at once, each one process.
# Crashers are kept in build/fuzz/crashes-<target>/ and fail the run.
#   tests/fuzz/run.sh [SECONDS]
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
secs="${1:-${FUZZ_SECONDS:-60}}"
shared="${SB_SHARED:-$root/../shared}"
out=build/fuzz
mkdir -p "$out"
CC=${FUZZ_CC:-clang}
if ! command -v "$CC" >/dev/null; then echo "fuzz: $CC not found"; echo "0 passed, 1 failed"; exit 1; fi
common="-g -O1 -fno-sanitize-recover=undefined -DSB_NO_MIMALLOC -D_GNU_SOURCE -std=c11 $(pkg-config --cflags yaml-0.1)"
flags="-fsanitize=fuzzer,address,undefined $common"
libs="$(pkg-config --libs yaml-0.1 jansson libzstd zlib) -lbz2"
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}"
# the core and the service files some targets call, instrumented for
# the fuzzer but without its main: compiled once, not once per target
objs="$out/obj"
mkdir -p "$objs"
# an object is rebuilt when its source is newer; a header changed since the
# last build (a struct's layout) makes every object stale, so all go
if [ -n "$(find core service -name '*.h' -newer "$objs/.built" 2>/dev/null | head -1)" ] || [ ! -e "$objs/.built" ]; then
  rm -f "$objs"/*.o
fi
srcs="$(make -s --no-print-directory print-core-src) service/params.c service/distance.c service/http/negotiate.c service/http/decode.c service/http/multipart.c"
t0=$SECONDS
if ! printf '%s\n' $srcs | xargs -P "$jobs" -I{} sh -c \
     'o="$1/$(echo "$2" | tr / _ | sed "s/\.c$/.o/")"; [ "$o" -nt "$2" ] || exec '"$CC"' -fsanitize=fuzzer-no-link,address,undefined '"$common"' -c "$2" -o "$o"' _ "$objs" {} \
     2> "$out/build-core.log"; then
  cat "$out/build-core.log"; echo "fuzz: 0 passed, 1 failed"; exit 1
fi
touch "$objs/.built"
rm -f "$out/libcore.a"
ar rcs "$out/libcore.a" $(for f in $srcs; do case "$f" in core/*) echo "$objs/$(echo "$f" | tr / _ | sed 's/\.c$/.o/')" ;; esac; done)
echo "fuzz: core built in $((SECONDS - t0)) s"
pass=0 fail=0
# long_lists CORPUS EXT... - make-lists.py's inputs at 600 items whose names end in EXT, as seeds
python3 tests/hostile/make-lists.py "$out/lists" 600
long_lists() {
  local c="$1" e f; shift
  for e in "$@"; do for f in "$out"/lists/*."$e"; do [ -e "$f" ] && cp "$f" "$c/list-$(basename "$f")"; done; done
}
# target name, source, extra flags, seed corpus (directories of fixtures)
targets=(
  "pixi fuzz_reader.c -DFUZZ_KIND_RAW=pixi.lock pixi conda-lock"
  "pixi-pieces fuzz_reader.c -DFUZZ_PIECES=1 pixi conda-lock"
  "uv fuzz_reader.c -DFUZZ_KIND_RAW=uv.lock uv"
  "pylock fuzz_reader.c -DFUZZ_KIND_RAW=pylock.toml pylock"
  "poetry fuzz_reader.c -DFUZZ_KIND_RAW=poetry.lock poetry"
  "pdm fuzz_reader.c -DFUZZ_KIND_RAW=pdm.lock pdm"
  "requirements fuzz_reader.c -DFUZZ_KIND_RAW=requirements.txt requirements explicit"
  "npm fuzz_reader.c -DFUZZ_KIND_RAW=package-lock.json npm"
  "pnpm fuzz_reader.c -DFUZZ_KIND_RAW=pnpm-lock.yaml pnpm"
  "yarn fuzz_reader.c -DFUZZ_KIND_RAW=yarn.lock yarn"
  "bun fuzz_reader.c -DFUZZ_KIND_RAW=bun.lock bun"
  "cargo fuzz_reader.c -DFUZZ_KIND_RAW=Cargo.lock cargo"
  "conan fuzz_reader.c -DFUZZ_KIND_RAW=conan.lock conan"
  "gem fuzz_reader.c -DFUZZ_KIND_RAW=Gemfile.lock bundler"
  "cocoapods fuzz_reader.c -DFUZZ_KIND_RAW=Podfile.lock cocoapods"
  "mix fuzz_reader.c -DFUZZ_KIND_RAW=mix.lock mix"
  "cyclonedx fuzz_reader.c -DFUZZ_KIND_RAW=cyclonedx"
  "spdx fuzz_reader.c -DFUZZ_KIND_RAW=spdx"
  "composer fuzz_reader.c -DFUZZ_KIND_RAW=composer.lock composer"
  "nuget fuzz_reader.c -DFUZZ_KIND_RAW=packages.lock.json nuget"
  "pub fuzz_reader.c -DFUZZ_KIND_RAW=pubspec.lock pub"
  "gomod fuzz_reader.c -DFUZZ_KIND_RAW=go.mod go"
  "swift fuzz_reader.c -DFUZZ_KIND_RAW=Package.resolved swiftpm"
  "gradle fuzz_reader.c -DFUZZ_KIND_RAW=gradle.lockfile gradle"
  "toml fuzz_toml.c -DFUZZ_TOML=1 uv pylock poetry pdm"
  "yaml-fast fuzz_yaml_fast.c -DFUZZ_YAML_FAST=1 pixi conda-lock pnpm"
  "license fuzz_license.c -DFUZZ_LICENSE=1"
  "params fuzz_params.c -DFUZZ_PARAMS=1"
  "archive fuzz_archive.c -DFUZZ_ARCHIVE=1"
  "repo fuzz_repo.c -DFUZZ_REPO=1"
  "decode fuzz_decode.c -DFUZZ_DECODE=1"
  "manifest fuzz_manifest.c -DFUZZ_MANIFEST=1"
  "multipart fuzz_multipart.c -DFUZZ_MULTIPART=1"
  "all-1 fuzz_reader.c -DFUZZ_KIND_RAW=auto pixi conda-lock uv pylock poetry pdm requirements explicit npm pnpm yarn bun composer nuget pub"
  "all-2 fuzz_reader.c -DFUZZ_KIND_RAW=auto pixi conda-lock uv pylock poetry pdm requirements explicit npm pnpm yarn bun go swiftpm gradle"
  "all-3 fuzz_reader.c -DFUZZ_KIND_RAW=auto pixi conda-lock uv pylock poetry pdm requirements explicit npm pnpm yarn bun cargo conan"
  "all-4 fuzz_reader.c -DFUZZ_KIND_RAW=auto pixi conda-lock uv pylock poetry pdm requirements explicit npm pnpm yarn bun bundler cocoapods mix"
)
only="${FUZZ_ONLY:-}"
for spec in "${targets[@]}"; do
  read -r t src def seeds <<< "$spec"
  # FUZZ_ONLY names targets; "all" names all-1..all-4
  [ -n "$only" ] && [[ " $only " != *" $t "* && " $only " != *" ${t%-[0-9]} "* ]] && continue
  extra=""; case "$t" in params) extra="$objs/service_params.o $objs/service_distance.o $objs/service_http_negotiate.o" ;; decode|multipart) extra="$objs/service_http_$t.o" ;; esac
  if ! eval $CC $flags "$def" -o "$out/fuzz_$t" "tests/fuzz/$src" $extra "$out/libcore.a" $libs 2> "$out/build-$t.log"; then
    cat "$out/build-$t.log"; fail=$((fail + 1)); failed="${failed:-} $t"; continue
  fi
  corpus="$out/corpus-$t"; crashes="$out/crashes-$t"
  mkdir -p "$corpus" "$crashes"
  if [ "$t" = license ]; then
    printf 'MIT/Apache-2.0' > "$corpus/l1"; printf 'GPL-2.0-or-later WITH Classpath-exception-2.0' > "$corpus/l2"
    printf 'pkg:conda/zlib@1.3.1?build=h1&channel=conda-forge&subdir=linux-64&type=conda' > "$corpus/p1"
    printf 'pkg:github/Package-url/purl-Spec@244fd47e07d1004f0aed9c#a/b' > "$corpus/p2"
  elif [ "$t" = params ]; then
    printf 'application/spdx+json;version=3.0.1;q=0.9, application/vnd.cyclonedx+json; version="1.7"' > "$corpus/a1"
    printf 'text/plain;q=0.5, */*;q=0.1' > "$corpus/a2"; printf '67108864' > "$corpus/n1"; printf 'true' > "$corpus/b1"
    printf 'format=spdx-2.3&include=a&include=b&scope=required&fail-on=license&deny-license=MIT' > "$corpus/q1"
    printf 'paths=a/**&paths=b&skip-paths=c/*&strict=true&allow-license=MIT&ignore-license=x' > "$corpus/q2"
  elif [ "$t" = decode ]; then
    # one body per coding (mode byte 0 gzip, 1 deflate, 2 zstd), and a small bomb
    f="$shared/fixtures/uv/pydantic-pydantic-core/uv.lock"
    { printf '\000'; head -c 60000 "$f" | gzip -c; } > "$corpus/gz"
    { printf '\001'; head -c 60000 "$f" | python3 -c 'import sys,zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))'; } > "$corpus/zlib"
    { printf '\002'; head -c 60000 "$f" | zstd -q -c; } > "$corpus/zst"
    { printf '\004'; head -c 8000000 /dev/zero | gzip -c; } > "$corpus/bomb"
  elif [ "$t" = multipart ]; then
    # Content-Type line, then the body: the shapes curl -F sends, and a truncated one
    b=XyZ; f="$shared/fixtures/uv/pydantic/uv.lock"
    { printf 'multipart/form-data; boundary=%s\n' "$b"
      printf -- '--%s\r\nContent-Disposition: form-data; name="lockfile"; filename="dir/uv.lock"\r\n\r\n' "$b"; head -c 2000 "$f"
      printf '\r\n--%s\r\nContent-Disposition: form-data; name="manifest"; filename="pyproject.toml"\r\n\r\n[project]\nname = "x"\r\n--%s--\r\n' "$b" "$b"; } > "$corpus/two"
    printf 'multipart/form-data; boundary="q q"\n--q q\r\nContent-Disposition: form-data; name=lockfile\r\n\r\nabc' > "$corpus/cut"
  elif [ "$t" = manifest ]; then
    # the upstream manifests beside the fixtures, tagged with the kind byte
    # fuzz_manifest.c reads (0 pixi.toml, 1 pyproject.toml, 2 environment.yml, 3 package.json)
    i=0
    for f in $(find tests/data/manifests -type f -name '*.toml' -o -type f -name '*.yml' -o -type f -name '*.json'); do
      case "$f" in *pixi.toml) k='\000' ;; *.toml) k='\001' ;; *.yml) k='\002' ;; *) k='\003' ;; esac
      { printf "$k"; cat "$f"; } > "$corpus/m-$i"; i=$((i + 1))
    done
    printf '\001[dependency-groups]\na = [{include-group = "b"}]\nb = ["x", {include-group = "a"}]\n' > "$corpus/cycle"
    printf '\003{"name":"x","dependencies":{"a":"1"},"devDependencies":{"b":"2"}}' > "$corpus/pkg"
  elif [ "$t" = cyclonedx ] || [ "$t" = spdx ]; then
    # sbomd's own documents and another tool's shapes (tests/data/sbom)
    for f in tests/data/sbom/*; do cp "$f" "$corpus/$(basename "$f")"; done
    [ "$t" = cyclonedx ] && long_lists "$corpus" cdx.json
  elif [ "$t" = repo ]; then
    # small repositories in every container the walker opens
    python3 - "$corpus" "$shared/fixtures" <<'PY'
import io, os, sys, tarfile, zipfile, gzip
c, fx = sys.argv[1], sys.argv[2]
files = {"a/requirements.txt": b"six==1.16.0\n", "b/node_modules/x/uv.lock": b"x",
         "c/conda.lock": open(os.path.join(fx, "explicit/conda-lock-tests-zlib/conda-win-64.lock"), "rb").read()}
b = io.BytesIO()
with tarfile.open(fileobj=b, mode="w") as t:
    for n, d in files.items():
        i = tarfile.TarInfo(n); i.size = len(d); t.addfile(i, io.BytesIO(d))
    i = tarfile.TarInfo("d/uv.lock"); i.type = tarfile.SYMTYPE; i.linkname = "../a"; t.addfile(i)
open(os.path.join(c, "tar"), "wb").write(b.getvalue())
open(os.path.join(c, "tgz"), "wb").write(gzip.compress(b.getvalue()))
z = io.BytesIO()
with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
    for n, d in files.items(): zf.writestr(n, d)
open(os.path.join(c, "zip"), "wb").write(z.getvalue())
PY
  elif [ "$t" = archive ]; then
    # the test channel's archives, tagged with the mode byte fuzz_archive.c reads
    python3 tests/make-conda.py "$out/archive-seeds" > /dev/null
    i=0
    for f in "$out"/archive-seeds/conda-forge/linux-64/*.conda; do
      [ "$(stat -c %s "$f")" -lt 65000 ] || continue
      { printf '\000'; cat "$f"; } > "$corpus/conda-$i"; i=$((i + 1))
    done
    for f in "$out"/archive-seeds/conda-forge/linux-64/*.tar.bz2; do { printf '\002'; cat "$f"; } > "$corpus/bz2-$i"; i=$((i + 1)); done
    python3 -c 'import io,sys,tarfile
b = io.BytesIO()
with tarfile.open(fileobj=b, mode="w", format=tarfile.PAX_FORMAT) as t:
    for n in ["info/index.json", "info/licenses/" + "x" * 120, "info/../up"]:
        i = tarfile.TarInfo(n); i.size = 2; t.addfile(i, io.BytesIO(b"{}"))
sys.stdout.buffer.write(b"\x03" + b.getvalue())' > "$corpus/tar-0"
  else
    i=0
    for d in $seeds; do
      for f in $(find "$shared/fixtures/$d" -type f -size -64k); do cp "$f" "$corpus/seed-$d-$i"; i=$((i + 1)); done
    done
    # shapes no fixture has (a joined go.mod and go.sum): tests/fuzz/seed-<target>/
    if [ -d "tests/fuzz/seed-$t" ]; then cp tests/fuzz/seed-"$t"/* "$corpus/"; fi
    # issue 19's size and shape attacks, small enough for the harness (make-bounds.py at 1/1000, 1/10000)
    case "$t" in uv|toml) bext=uv.lock ;; requirements) bext=requirements.txt ;; *) bext= ;; esac
    # issue 43: one record holding a list of hundreds of items (make-lists.py),
    # the shapes whose lists were once joined in quadratic time
    case "$t" in uv) long_lists "$corpus" uv.lock ;; toml) long_lists "$corpus" uv.lock pdm.lock ;;
      pdm) long_lists "$corpus" pdm.lock ;; pixi) long_lists "$corpus" pixi.lock ;;
      yaml-fast) long_lists "$corpus" pixi.lock pnpm-lock.yaml ;;
      pnpm) long_lists "$corpus" pnpm-lock.yaml ;; all-*) long_lists "$corpus" uv.lock pdm.lock pixi.lock pnpm-lock.yaml ;; esac
    if [ -n "$bext" ]; then
      for sc in 1000 10000; do
        python3 tests/hostile/make-bounds.py "$out/bounds-$sc" "$sc"
        for f in "$out/bounds-$sc"/*."$bext"; do
          [ "$(stat -c %s "$f")" -lt 65000 ] && cp "$f" "$corpus/bounds-$sc-$(basename "$f")"
        done
      done
    fi
  fi
  echo "fuzz: $t for ${secs}s"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  rm -f "$out/result-$t"
  ( if "$out/fuzz_$t" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
         -artifact_prefix="$crashes/" "$corpus" > "$out/run-$t.log" 2>&1; then
      echo pass > "$out/result-$t"
    else
      echo fail > "$out/result-$t"
    fi ) &
  ran="${ran:-} $t"
done
wait
for t in ${ran:-}; do
  if [ "$(cat "$out/result-$t" 2>/dev/null)" = pass ]; then
    pass=$((pass + 1)); echo "fuzz: $t: $(grep -E '^#[0-9]+.*DONE|Done [0-9]+ runs' "$out/run-$t.log" | tail -1)"
  else
    fail=$((fail + 1)); failed="${failed:-} $t"; echo "fuzz: $t FAILED"; tail -40 "$out/run-$t.log"
  fi
done
# named again last, where a CI log's tail shows it
[ -n "${failed:-}" ] && echo "fuzz: failed:$failed (logs $out/run-<target>.log, inputs $out/crashes-<target>/)"
echo "fuzz: $pass passed, $fail failed"
[ "$fail" = 0 ]
