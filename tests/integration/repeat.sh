#!/usr/bin/env bash
# repeat.sh BUILD_DIR - repeat uploads (issue 24): the strong ETag on
# documents and reports, If-None-Match -> 304, the result cache
# (--result-cache-size, --result-cache-max-entry) answering the same upload
# without reading it again (same bytes, headers replayed, gzip from the cached
# bytes), what it never keeps (errors, lookups, bodies over the entry cap),
# the metrics that count it (documents per NDJSON document, inputs by kind,
# result cache hits and misses), and the pixi:incomplete note when licenses
# are absent because no lookup ran. Ends with "N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"

UV="$shared/fixtures/uv/rerun/uv.lock"
PIXI="$(ls "$shared"/fixtures/pixi/*/pixi.lock | head -1)"

# post OUT QUERY [CURL ARGS...] - POST the uv.lock; prints the status; headers in OUT.h
post() {
  local out="$1" q="$2"; shift 2
  curl -sS -o "$out" -D "$out.h" -w '%{http_code}' "$@" --data-binary @"$UV" "$base/v1/sbom?filename=uv.lock&$q"
}
hdr() { grep -i "^$2:" "$1.h" | head -1 | cut -d' ' -f2- | tr -d '\r'; }
metric() { curl -sS "$base/metrics" | awk -v n="$1" '$1 == n {print $2}'; }

sb_start "$work/s.log"

# --- ETag and If-None-Match -----------------------------------------------------
check "first upload 200" [ "$(post "$work/a.json" "timestamp=1700000000")" = 200 ]
etag="$(hdr "$work/a.json" ETag)"
check "a strong ETag ($etag)" sh -c "echo '$etag' | grep -Eq '^\"[0-9a-f]{32}\"$'"
check "the first answer was made (parse in Server-Timing)" sh -c "grep -i '^Server-Timing:' '$work/a.json.h' | grep -q 'parse;dur'"
check "the repeat 200" [ "$(post "$work/b.json" "timestamp=1700000000")" = 200 ]
check "the repeat: same ETag" [ "$(hdr "$work/b.json" ETag)" = "$etag" ]
check "the repeat: the same bytes" cmp -s "$work/a.json" "$work/b.json"
check "the repeat came from the result cache (Server-Timing cache, no parse)" \
  sh -c "grep -i '^Server-Timing:' '$work/b.json.h' | grep -q 'cache;dur' && ! grep -i '^Server-Timing:' '$work/b.json.h' | grep -q 'parse;dur'"
check "the repeat: Content-Disposition replayed" [ "$(hdr "$work/b.json" Content-Disposition)" = "$(hdr "$work/a.json" Content-Disposition)" ]
check "the repeat: Content-Type kept" [ "$(hdr "$work/b.json" Content-Type)" = "$(hdr "$work/a.json" Content-Type)" ]
check "If-None-Match with the ETag: 304" [ "$(post "$work/c.json" "timestamp=1700000000" -H "If-None-Match: $etag")" = 304 ]
check "the 304 has no body" [ ! -s "$work/c.json" ]
check "the 304 carries the ETag" [ "$(hdr "$work/c.json" ETag)" = "$etag" ]
check "If-None-Match: a list, weak form: 304" [ "$(post "$work/c.json" "timestamp=1700000000" -H "If-None-Match: \"0000\", W/$etag")" = 304 ]
check "If-None-Match with another tag: 200" [ "$(post "$work/c.json" "timestamp=1700000000" -H 'If-None-Match: "0123"')" = 200 ]
check "If-None-Match: * is not taken (200)" [ "$(post "$work/c.json" "timestamp=1700000000" -H 'If-None-Match: *')" = 200 ]
# issue 40: the gzip answer is other bytes, so it has its own strong ETag (RFC 9110 8.8.3)
check "gzip: 200" [ "$(post "$work/z.gz" "timestamp=1700000000" -H 'Accept-Encoding: gzip')" = 200 ]
gtag="$(hdr "$work/z.gz" ETag)"
check "gzip: its own ETag, the identity one with -gzip ($gtag)" [ "$gtag" = "${etag%\"}-gzip\"" ]
check "gzip: If-None-Match with the identity ETag is no match (200)" [ "$(post "$work/c.json" "timestamp=1700000000" -H 'Accept-Encoding: gzip' -H "If-None-Match: $etag")" = 200 ]
check "gzip: If-None-Match with the gzip ETag: 304 carrying it" \
  sh -c "[ '$(post "$work/c.json" "timestamp=1700000000" -H 'Accept-Encoding: gzip' -H "If-None-Match: $gtag")' = 304 ] && [ '$(hdr "$work/c.json" ETag)' = '$gtag' ]"
check "identity again after gzip: the identity ETag (the cache keeps one)" [ "$(post "$work/c.json" "timestamp=1700000000" >/dev/null; hdr "$work/c.json" ETag)" = "$etag" ]
# every output-changing option is another ETag
for q in "timestamp=1700000001" "timestamp=1700000000&format=spdx-2.3" "timestamp=1700000000&pretty=false" \
         "timestamp=1700000000&platform=osx-arm64" "timestamp=1700000000&exclude=a*" "timestamp=1700000000&name=x"; do
  post "$work/o.json" "$q" > /dev/null
  check "$q: another ETag" sh -c "[ -n '$(hdr "$work/o.json" ETag)' ] && [ '$(hdr "$work/o.json" ETag)' != '$etag' ]"
done
post "$work/o.json" "timestamp=1700000000" -H 'Accept: application/spdx+json' > /dev/null
check "Accept choosing another format: another ETag" [ "$(hdr "$work/o.json" ETag)" != "$etag" ]
# another body, same options
printf '\n' | cat "$UV" - > "$work/uv2.lock"
curl -sS -o /dev/null -D "$work/d.h" --data-binary @"$work/uv2.lock" "$base/v1/sbom?filename=uv.lock&timestamp=1700000000"
check "another lockfile: another ETag" sh -c "[ '$(grep -i '^ETag:' "$work/d.h" | tr -d '\r' | cut -d' ' -f2)' != '$etag' ]"

# without timestamp=, a repeat is the document made the first time (same serial and timestamp)
post "$work/n1.json" "" > /dev/null
sleep 1.1
post "$work/n2.json" "" > /dev/null
check "no timestamp: the repeat is the first document" cmp -s "$work/n1.json" "$work/n2.json"
check "no timestamp: same ETag" [ "$(hdr "$work/n1.json" ETag)" = "$(hdr "$work/n2.json" ETag)" ]
check "no timestamp: If-None-Match on the cached answer 304" \
  [ "$(post "$work/c.json" "" -H "If-None-Match: $(hdr "$work/n1.json" ETag)")" = 304 ]

# gzip from the cached bytes
post "$work/g.json" "timestamp=1700000000" --compressed > /dev/null
check "gzip of a cached answer: Content-Encoding gzip" [ "$(hdr "$work/g.json" Content-Encoding)" = gzip ]
check "gzip of a cached answer: the same document" cmp -s "$work/a.json" "$work/g.json"
check "gzip of a cached answer: the gzip ETag (the identity one with -gzip)" [ "$(hdr "$work/g.json" ETag)" = "${etag%\"}-gzip\"" ]

# reports: the same
rep() { curl -sS -o "$1" -D "$1.h" -w '%{http_code}' --data-binary @"$UV" "$base/v1/report/packages?filename=uv.lock&output=csv"; }
check "report 200" [ "$(rep "$work/r1.csv")" = 200 ]
check "report: an ETag" sh -c "grep -qi '^ETag: \"' '$work/r1.csv.h'"
rep "$work/r2.csv" > /dev/null
check "report repeat: the same bytes from the cache" \
  sh -c "cmp -s '$work/r1.csv' '$work/r2.csv' && grep -i '^Server-Timing:' '$work/r2.csv.h' | grep -q cache"
check "report: If-None-Match 304" [ "$(curl -sS -o /dev/null -w '%{http_code}' -H "If-None-Match: $(hdr "$work/r1.csv" ETag)" \
  --data-binary @"$UV" "$base/v1/report/packages?filename=uv.lock&output=csv")" = 304 ]

# --- what is never kept -----------------------------------------------------------
check "an error: 400" [ "$(post "$work/e1.json" "timestamp=1700000000&platform=nope")" != 200 ]
check "an error has no ETag" [ -z "$(hdr "$work/e1.json" ETag)" ]
post "$work/e2.json" "timestamp=1700000000&platform=nope" > /dev/null
check "an error again: made again, not from the cache" sh -c "! grep -i '^Server-Timing:' '$work/e2.json.h' | grep -q cache"
post "$work/l1.json" "timestamp=1700000000&fetch-licenses=true" > /dev/null
post "$work/l2.json" "timestamp=1700000000&fetch-licenses=true" > /dev/null
check "fetch-licenses=true: no ETag (network answers shape the bytes)" [ -z "$(hdr "$work/l2.json" ETag)" ]
check "fetch-licenses=true: not from the cache" sh -c "! grep -i '^Server-Timing:' '$work/l2.json.h' | grep -q cache"
for q in yanked=true vulnerabilities=osv kev=true; do
  post "$work/n1.json" "timestamp=1700000000&$q" > /dev/null
  post "$work/n2.json" "timestamp=1700000000&$q" > /dev/null
  check "$q: no ETag and not from the cache (upstream answers shape the bytes)" \
    sh -c "[ -z '$(hdr "$work/n2.json" ETag)' ] && ! grep -i '^Server-Timing:' '$work/n2.json.h' | grep -q cache"
done

# --- metrics ---------------------------------------------------------------------
h0="$(metric sbomd_result_cache_hits_total)"; m0="$(metric sbomd_result_cache_misses_total)"
check "result cache hits counted ($h0)" [ "${h0:-0}" -ge 6 ]
check "result cache misses counted ($m0)" [ "${m0:-0}" -ge 10 ]
k0="$(curl -sS "$base/metrics" | awk '$1 == "sbomd_inputs_total{kind=\"pixi.lock\"}" {print $2}')"
d0="$(curl -sS "$base/metrics" | awk '$1 == "sbomd_documents_total{format=\"cyclonedx-1.6\"}" {print $2}')"
ndocs="$(curl -sS --data-binary @"$PIXI" "$base/v1/sbom?filename=pixi.lock&all-platforms=true&all-environments=true" | wc -l)"
k1="$(curl -sS "$base/metrics" | awk '$1 == "sbomd_inputs_total{kind=\"pixi.lock\"}" {print $2}')"
d1="$(curl -sS "$base/metrics" | awk '$1 == "sbomd_documents_total{format=\"cyclonedx-1.6\"}" {print $2}')"
check "NDJSON of $ndocs documents counts $ndocs in sbomd_documents_total (${d0:-0} -> $d1)" \
  [ "$((d1 - ${d0:-0}))" = "$ndocs" ]
check "more than one document in that NDJSON ($ndocs)" [ "$ndocs" -gt 1 ]
check "sbomd_inputs_total{kind=\"pixi.lock\"} +1 (${k0:-0} -> $k1)" [ "$((k1 - ${k0:-0}))" = 1 ]
check "sbomd_inputs_total{kind=\"uv.lock\"} counted" sh -c "curl -sS '$base/metrics' | grep -c '^sbomd_inputs_total{kind=\"uv.lock\"} [1-9]' > /dev/null"
check "lookup cache hit and miss counters exposed" \
  sh -c "curl -sS '$base/metrics' | grep -c '^sbomd_lookup_cache_hits_total ' > /dev/null && curl -sS '$base/metrics' | grep -c '^sbomd_lookup_cache_misses_total ' > /dev/null"

# --- pixi:incomplete says why licenses are absent --------------------------------
check "no lookups on this server: 'lookup(s) not made (network lookups are off)'" \
  sh -c "jq -r '.metadata.properties[] | select(.name == \"pixi:incomplete-detail\") | .value' '$work/a.json' | grep -Eq 'licenses: [1-9][0-9]* lookup\\(s\\) not made \\(network lookups are off\\)'"
check "asked on a server without lookups: 'this server makes no network lookups'" \
  sh -c "jq -r '.metadata.properties[] | select(.name == \"pixi:incomplete-detail\") | .value' '$work/l1.json' | grep -q 'lookup(s) not made (this server makes no network lookups)'"
check "pixi:incomplete lists licenses" \
  jq -e '.metadata.properties[] | select(.name == "pixi:incomplete") | .value | test("licenses")' "$work/a.json" > /dev/null
# a server that makes lookups, asked for none (its index is never reached: nothing is asked)
main_base="$base"
sb_start "$work/l.log" --lookups --pypi-url http://127.0.0.1:9/pypi --conda-url http://127.0.0.1:9
post "$work/u.json" "timestamp=1700000000" > /dev/null
check "a server with lookups, not asked: 'not asked: fetch-licenses=true looks them up'" \
  sh -c "jq -r '.metadata.properties[] | select(.name == \"pixi:incomplete-detail\") | .value' '$work/u.json' | grep -q 'lookup(s) not made (not asked: fetch-licenses=true looks them up)'"
check "a package with its license: no note" \
  sh -c "! curl -sS --data-binary @'$PIXI' '$base/v1/sbom?filename=pixi.lock' | jq -r '.metadata.properties[] | select(.name == \"pixi:incomplete-detail\") | .value' | grep -q 'lookup(s) not made'"
check "/v1/version features: license lookups on, cache on" \
  [ "$(curl -sS "$base/v1/version" | jq -c '[.features.license_lookups, .features.result_cache, .features.shared_cache]')" = '[true,true,false]' ]
base="$main_base"
check "/v1/version features: license lookups and vulnerabilities off by default" \
  [ "$(curl -sS "$base/v1/version" | jq -c '[.features.license_lookups, .features.vulnerabilities]')" = '[false,false]' ]

# --- the settings: off, and the entry cap -----------------------------------------
sb_start "$work/off.log" --result-cache-size 0
post "$work/f1.json" "timestamp=1700000000" > /dev/null
post "$work/f2.json" "timestamp=1700000000" > /dev/null
check "/v1/version features: result cache off" [ "$(curl -sS "$base/v1/version" | jq .features.result_cache)" = false ]
check "--result-cache-size 0: the repeat is made again" sh -c "! grep -i '^Server-Timing:' '$work/f2.json.h' | grep -q cache"
check "--result-cache-size 0: the same bytes and ETag all the same" \
  sh -c "cmp -s '$work/f1.json' '$work/a.json' && [ '$(hdr "$work/f2.json" ETag)' = '$etag' ]"
check "--result-cache-size 0: If-None-Match still 304 (the ETag needs no cache)" \
  [ "$(post "$work/c.json" "timestamp=1700000000" -H "If-None-Match: $etag")" = 304 ]
check "--result-cache-size 0: no hits or misses counted" sh -c "[ '$(metric sbomd_result_cache_hits_total)' = 0 ] && [ '$(metric sbomd_result_cache_misses_total)' = 0 ]"
sb_start "$work/cap.log" --result-cache-max-entry 4096
post "$work/x1.json" "timestamp=1700000000" > /dev/null
post "$work/x2.json" "timestamp=1700000000" > /dev/null
check "over --result-cache-max-entry: streamed, not kept" \
  sh -c "cmp -s '$work/x1.json' '$work/x2.json' && ! grep -i '^Server-Timing:' '$work/x2.json.h' | grep -q cache"
check "under it: kept" sh -c "curl -sS -o /dev/null --data-binary 'x==1' '$base/v1/report/packages?kind=requirements.txt&output=csv' && \
  curl -sS -D - -o /dev/null --data-binary 'x==1' '$base/v1/report/packages?kind=requirements.txt&output=csv' | grep -i '^Server-Timing:' | grep -q cache"

sb_done repeat
