#!/usr/bin/env bash
# archives.sh BUILD_DIR - conda archive lookups against tests/fakeindex.py
# serving the archives tests/make-conda.py builds: licenses, about.json and
# license files filled from each archive's info/ with the fewest range
# requests (one when the tail holds the member, two otherwise, a small
# .tar.bz2 whole, a server without ranges), nothing stored outside the
# cache, single flight, the disk cache surviving a restart (conda and PyPI),
# the private cache removed at exit, no transfer to a host the lockfile
# names. SB_WRAP (valgrind) wraps the server. Ends with "archives: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"

count() { curl -sS "http://127.0.0.1:$1/_count" | jq "$2"; }
zero() { curl -sS -X POST "http://127.0.0.1:$1/_zero" > /dev/null; }
fake() { # fake NAME ARGS... -> sets $fport
  python3 "$root/tests/fakeindex.py" "${@:2}" > "$work/$1.out" 2>&1 &
  pids="$pids $!"
  for _ in $(seq 50); do fport="$(awk '/^port/{print $2}' "$work/$1.out")"; [ -n "$fport" ] && break; sleep 0.1; done
}
python3 "$root/tests/make-conda.py" "$work/channel" > "$work/pixi.lock" || { bad "make-conda.py"; sb_done archives; exit 1; }
fake index --conda-dir "$work/channel"
index="$fport"
fake elsewhere --conda-dir "$work/channel"
elsewhere="$fport"
mkdir -p "$work/cache" "$work/tmp"
dl=10; [ -n "${SB_WRAP:-}" ] && dl=30
args=(--source-date-epoch 1700000000 --lookups --conda-url "http://127.0.0.1:$index/conda" --pypi-url "http://127.0.0.1:$index/pypi"
      --lookup-deadline "$dl" --lookup-timeout "$dl")
sb_start "$work/s.log" "${args[@]}" --cache-dir "$work/cache"
q="fetch-licenses=true"

res="$(curl -sS -o "$work/a.json" -w '%{http_code}' --data-binary @"$work/pixi.lock" "$base/v1/sbom?$q")"
check "archive lookups: 200 ($res)" [ "$res" = 200 ]
got="$(jq -r '.components[] | "\(.name) \(.licenses[0].license.id // .licenses[0].expression // "-")"' "$work/a.json" | tr '\n' ' ')"
want="alpha BSD-3-Clause beta Apache-2.0 evil Zlib gamma LGPL-2.1-or-later missing - noinfo - norange MIT "
check "licenses from each archive's about.json ($got)" [ "$got" = "$want" ]
check "provenance conda-archive for the license and the license files" \
  jq -e '[.components[] | select(.licenses) | [.properties[] | select(.name == "pixi:license-source" or .name == "pixi:license-files-source") | .value] == ["conda-archive", "conda-archive"]] | length == 5 and all' "$work/a.json" > /dev/null
check "about.json fills the description and homepage" \
  jq -e '.components[] | select(.name == "beta") | .description == "the beta package" and (.externalReferences | map(.url) | index("https://example.org/beta"))' "$work/a.json" > /dev/null
check "the document is valid CycloneDX 1.6" "$validate" -q --auto "$work/a.json"
p() { count "$index" ".paths[\"/conda/conda-forge/linux-64/$1\"] // 0"; }
check "tail holds the member: 1 request ($(p alpha-1.0-h0_0.conda))" [ "$(p alpha-1.0-h0_0.conda)" = 1 ]
check "member before 600 KiB of package: 2 requests ($(p beta-2.0-h0_0.conda))" [ "$(p beta-2.0-h0_0.conda)" = 2 ]
check "small .tar.bz2 fetched whole: 1 request" [ "$(p gamma-3.0-h0_0.tar.bz2)" = 1 ]
check "a server that ignores ranges still works: 1 request" [ "$(p norange-1.0-h0_0.conda)" = 1 ]
check "8 transfers in all ($(count "$index" .requests))" [ "$(count "$index" .requests)" = 8 ]
check "no lookup failed (404 and no index.json are answers)" \
  sh -c "! jq -e '.metadata.properties[] | select(.name == \"pixi:incomplete-detail\") | .value | test(\"lookup\")' '$work/a.json' > /dev/null"
check "nothing written outside the cache's info/ directories" \
  sh -c "[ -z \"\$(find '$work' -name 'escaped*')\" ] && [ -z \"\$(find '$work/cache' -type l)\" ] && [ -z \"\$(find '$work/cache' -name '*staging*')\" ]"

res="$(curl -sS -o "$work/t.json" -w '%{http_code}' --data-binary @"$work/pixi.lock" "$base/v1/sbom?$q&license-texts=true")"
check "license texts from the archives: 200 ($res)" [ "$res" = 200 ]
check "alpha's LICENSE embedded" \
  jq -e '.components[] | select(.name == "alpha") | .licenses[0].license.text.content == "alpha license text\n"' "$work/t.json" > /dev/null
res="$(curl -sS -o "$work/s.json" -w '%{http_code}' --data-binary @"$work/pixi.lock" "$base/v1/sbom?$q&license-texts=true&format=spdx-2.3")"
check "SPDX 2.3 with archive licenses: valid ($res)" "$validate" -q --auto "$work/s.json"

zero "$index"
curl -sS -o "$work/a2.json" --data-binary @"$work/pixi.lock" "$base/v1/sbom?$q"
check "the same request again: no transfer ($(count "$index" .requests))" [ "$(count "$index" .requests)" = 0 ]
check "and the same document" cmp -s "$work/a.json" "$work/a2.json"

# a .tar.bz2 over 2 MiB (or of unknown size) is not fetched at all
sed 's/^  size: 304$/  size: 3000000/' "$work/pixi.lock" > "$work/big.lock"
sed -i 's/gamma-3.0-h0_0/gamma-3.1-h0_0/' "$work/big.lock"
zero "$index"
curl -sS -o "$work/big.json" --data-binary @"$work/big.lock" "$base/v1/sbom?$q"
check "a .tar.bz2 larger than 2 MiB is not fetched" [ "$(count "$index" '[.paths | keys[] | select(test("gamma"))] | length')" = 0 ]

# the lockfile's host is never contacted: only its channel/subdir/file travel
sed "s#https://conda.anaconda.org/conda-forge/linux-64/alpha#http://127.0.0.1:$elsewhere/conda/conda-forge/linux-64/alpha#; s#alpha-1.0-h0_0#alpha-1.1-h0_0#g" \
  "$work/pixi.lock" > "$work/e.lock"
cp "$work/channel/conda-forge/linux-64/alpha-1.0-h0_0.conda" "$work/channel/conda-forge/linux-64/alpha-1.1-h0_0.conda"
zero "$index"
curl -sS -o "$work/e.json" --data-binary @"$work/e.lock" "$base/v1/sbom?$q"
check "the host in the lockfile saw $(count "$elsewhere" .requests) requests" [ "$(count "$elsewhere" .requests)" = 0 ]
check "the configured host was asked instead" [ "$(p alpha-1.1-h0_0.conda)" = 1 ]

# single flight across two concurrent requests for fresh archives
sed 's/-h0_0/-h0_1/g' "$work/pixi.lock" > "$work/f.lock"
for f in "$work"/channel/conda-forge/linux-64/*-h0_0.*; do cp "$f" "${f/-h0_0/-h0_1}"; done
zero "$index"
curl -sS -o "$work/f1.json" --data-binary @"$work/f.lock" "$base/v1/sbom?$q" &
c1=$!
curl -sS -o "$work/f2.json" --data-binary @"$work/f.lock" "$base/v1/sbom?$q" &
c2=$!
wait "$c1" "$c2"
check "two concurrent requests: 8 transfers, not 16 ($(count "$index" .requests))" [ "$(count "$index" .requests)" = 8 ]
check "both documents filled" sh -c "jq -e '[.components[] | select(.licenses)] | length == 5' '$work/f1.json' > /dev/null && cmp -s '$work/f1.json' '$work/f2.json'"

# PyPI answers go to the disk cache as well
printf 'reqa==1.0\nreqb==2.0\nreqc==3.0\n' > "$work/r.txt"
curl -sS -o "$work/r.json" --data-binary @"$work/r.txt" "$base/v1/sbom?$q&filename=requirements.txt"
check "PyPI answers stored on disk ($(ls "$work/cache/pypi" | wc -l) files)" [ "$(ls "$work/cache/pypi" | wc -l)" = 3 ]
kill -TERM "$pid"; wait "$pid"; st=$?
check "exit 0 ($st)" [ "$st" = 0 ]

# a restart with the same cache directory asks the network nothing
zero "$index"
sb_start "$work/s2.log" "${args[@]}" --cache-dir "$work/cache"
curl -sS -o "$work/b.json" --data-binary @"$work/pixi.lock" "$base/v1/sbom?$q"
curl -sS -o "$work/r2.json" --data-binary @"$work/r.txt" "$base/v1/sbom?$q&filename=requirements.txt"
check "after a restart: $(count "$index" .requests) transfers (conda and PyPI from disk)" [ "$(count "$index" .requests)" = 2 ]
check "only the archives with nothing to keep (a 404, no index.json) are asked again" \
  sh -c "[ '$(p missing-1.0-h0_0.conda)' = 1 ] && [ '$(p noinfo-1.0-h0_0.conda)' = 1 ]"
check "the same conda document after the restart" cmp -s "$work/a.json" "$work/b.json"
check "the same PyPI document after the restart" cmp -s "$work/r.json" "$work/r2.json"
kill -TERM "$pid"; wait "$pid"

# a multi-document request looks up every document's packages together
fake slow --conda-dir "$work/channel" --delay-ms 400
slow="$fport"
python3 - "$work/pixi.lock" > "$work/two.lock" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
head, pk = t.split("packages:\n- ", 1)
env = head.split("    packages:\n", 1)[1]
other = env.replace("-h0_0", "-h0_2")
head = head + "  other:\n    channels:\n    - url: https://conda.anaconda.org/conda-forge/\n    packages:\n" + other
recs = "- " + pk
print(head + "packages:\n" + recs + recs.replace("-h0_0", "-h0_2"), end="")
PY
for f in "$work"/channel/conda-forge/linux-64/*-h0_0.*; do cp "$f" "${f/-h0_0/-h0_2}"; done
mkdir -p "$work/cache2"
sb_start "$work/s4.log" "${args[@]}" --conda-url "http://127.0.0.1:$slow/conda" --cache-dir "$work/cache2" --concurrency 16
res="$(curl -sS -o "$work/two.ndjson" -w '%{http_code}' --data-binary @"$work/two.lock" "$base/v1/sbom?$q&all-environments=true")"
check "two environments, one request: 200 ($res), 2 documents" sh -c "[ '$res' = 200 ] && [ \"\$(wc -l < '$work/two.ndjson')\" = 2 ]"
check "both documents filled" sh -c "jq -se 'map([.components[] | select(.licenses)] | length) == [5, 5]' '$work/two.ndjson' > /dev/null"
mx="$(count "$slow" .max_inflight)"
check "the 14 archives of both documents were asked for at once (max in flight $mx)" [ "$mx" = 14 ]
kill -TERM "$pid"; wait "$pid"

# an archive whose info member unpacks past the cap: the lookup fails, the
# document does not, nothing is stored and memory stays bounded (not under
# valgrind: decompressing 256 MiB there takes minutes)
if [ -z "${SB_WRAP:-}" ]; then
  python3 "$root/tests/make-conda.py" "$work/bombs" --bomb > "$work/bomb.lock"
  fake bombs --conda-dir "$work/bombs"
  mkdir -p "$work/cache3"
  sb_start "$work/s5.log" "${args[@]}" --conda-url "http://127.0.0.1:$fport/conda" --cache-dir "$work/cache3"
  rss0="$(awk '/VmHWM/{print $2}' /proc/$pid/status)"
  res="$(curl -sS -o "$work/bomb.json" -w '%{http_code}' --data-binary @"$work/bomb.lock" "$base/v1/sbom?$q")"
  check "a decompression bomb: still 200 ($res)" [ "$res" = 200 ]
  check "its lookup counts as failed" \
    jq -e '.metadata.properties[] | select(.name == "pixi:incomplete-detail") | .value | test("licenses: 1 lookup\\(s\\) failed")' "$work/bomb.json" > /dev/null
  check "nothing of it stored" [ -z "$(ls "$work/cache3/conda-info")" ]
  rss1="$(awk '/VmHWM/{print $2}' /proc/$pid/status)"
  check "peak RSS stayed bounded ($rss0 -> $rss1 kB)" [ "$((rss1 - rss0))" -lt 65536 ]
  check "refused for its size, not for anything else" grep -q 'archive unpacks to more than 268435456 bytes' "$work/s5.log"
  check "and the server still answers" sh -c "[ \"\$(curl -sS -o /dev/null -w '%{http_code}' '$base/healthz')\" = 200 ]"
  kill -TERM "$pid"; wait "$pid"
fi

# without --cache-dir: a private directory, removed at exit
TMPDIR="$work/tmp" sb_start "$work/s3.log" "${args[@]}"
curl -sS -o "$work/c.json" --data-binary @"$work/pixi.lock" "$base/v1/sbom?$q"
check "a private cache while running" sh -c "ls -d '$work'/tmp/sbomd-cache-* > /dev/null 2>&1"
check "same licenses with the private cache" sh -c "[ \"\$(jq -c '[.components[].licenses]' '$work/c.json')\" = \"\$(jq -c '[.components[].licenses]' '$work/a.json')\" ]"
kill -TERM "$pid"; wait "$pid"
check "and removed at exit" [ -z "$(ls "$work/tmp")" ]
"$bin" --check-config --cache-dir "$work/nonexistent" > /dev/null 2>&1; st=$?
check "a cache-dir that is not a directory is a config error ($st)" [ "$st" = 2 ]
"$bin" --check-config --conda-url ftp://x > /dev/null 2>&1; st=$?
check "a non-http conda-url is a config error ($st)" [ "$st" = 2 ]
sb_done archives
