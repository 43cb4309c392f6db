#!/usr/bin/env bash
# params.sh [BUILD_DIR] - HTTP conventions of the API: the strict query check (service/params.c's table):
# an unknown or misspelled parameter, one given twice, one an endpoint does
# not take, a selection beside its all-* form and a mistyped value are each a
# 400 problem naming the parameter (and the closest known one), before the
# body is read; every known parameter still works; format aliases, Accept
# (q=0, NDJSON) and Content-Disposition.
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
sb_start "$work/server.log"
f="$shared/fixtures/uv/pydantic-pydantic-core/uv.lock"
# refused NAME PATH_AND_QUERY DETAIL_REGEX
refused() {
  local st
  st="$(curl -sS -o "$work/p.json" -w '%{http_code}' --data-binary @"$f" "$base$2")"
  check "$1: 400 (got $st)" [ "$st" = 400 ]
  check "$1: problem+json names it" jq -e --arg re "$3" '.status == 400 and (.detail | test($re))' "$work/p.json" > /dev/null
}
refused "misspelled" "/v1/sbom?plaform=linux-64" "unknown query parameter 'plaform' \\(did you mean 'platform'\\?\\)"
refused "underscore and case" "/v1/sbom?License_Texts=true" "did you mean 'license-texts'"
refused "unknown, nothing close" "/v1/sbom?qqqqqqqq=1" "^unknown query parameter 'qqqqqqqq'$"
refused "given twice" "/v1/sbom?format=spdx-2.3&format=cyclonedx-1.6" "'format' is given more than once"
refused "platform with all-platforms" "/v1/sbom?platform=linux-64&all-platforms=true" "'platform' and 'all-platforms' exclude each other"
refused "environment with all-environments" "/v1/sbom?environment=default&all-environments=1" "'environment' and 'all-environments' exclude each other"
refused "depth on the document" "/v1/sbom?depth=1" "'depth' is not taken by this endpoint"
refused "depth on the packages report" "/v1/report/packages?depth=1" "'depth' is not taken by this endpoint"
refused "format on a report" "/v1/report/licenses?format=spdx-2.3" "'format' is not taken"
refused "mistyped boolean, the accepted words named" "/v1/sbom?pretty=maybe" "'pretty' must be a boolean: true, false, on, off, yes, no, 1 or 0 \\(any case\\)"
refused "count out of bounds" "/v1/sbom?license-file-max=99999999999999" "'license-file-max' must be a whole number"
refused "timestamp out of bounds" "/v1/sbom?timestamp=99999999999999" "'timestamp' must be Unix seconds from 0 to 253402300799 or an RFC 3339 date-time"
# every known parameter of each endpoint is accepted
ok_st() { local st; st="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$f" "$base$2")"; check "$1 (got $st)" [ "$st" = 200 ]; }
ok_st "document with every parameter" "/v1/sbom?format=spdx-2.3&environment=default&platform=linux-64&kind=uv.lock&filename=uv.lock&name=x&version=1&timestamp=1&pretty=false&license-texts=false&license-file-max=1&license-texts-max=1&fetch-licenses=false"
ok_st "all-* without a selection" "/v1/sbom?all-environments=true&all-platforms=true&filename=uv.lock"
ok_st "all-platforms=false beside platform" "/v1/sbom?platform=linux-64&all-platforms=false&filename=uv.lock"
ok_st "tree report with depth and output" "/v1/report/tree?depth=0&output=text&filename=uv.lock"
ok_st "bare flag" "/v1/sbom?pretty&filename=uv.lock"
# the words other tools take, in any case, on a query boolean
for w in True FALSE on Off yes NO 1 0; do ok_st "boolean pretty=$w" "/v1/sbom?pretty=$w&filename=uv.lock"; done
pretty_lines() { curl -sS --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&timestamp=1&pretty=$1" | wc -l; }
check "pretty=On is pretty=true, pretty=oFF is pretty=false" sh -c "[ $(pretty_lines On) = $(pretty_lines true) ] && [ $(pretty_lines oFF) = $(pretty_lines false) ] && [ $(pretty_lines true) -gt $(pretty_lines false) ]"
# and on a boolean setting: accepted at start, or refused naming the words
for w in True on OFF Yes no 1 0; do
  check "SBOMD_QUIET=$w is taken" env SBOMD_QUIET="$w" "$bin" --check-config > /dev/null 2>&1
done
SBOMD_QUIET=maybe "$bin" --check-config > /dev/null 2> "$work/cfg.err"; st=$?
check "SBOMD_QUIET=maybe: exit 2 naming the accepted words ($st: $(head -c 160 "$work/cfg.err"))" \
  sh -c "[ $st = 2 ] && grep -q \"quiet: 'maybe' is not a boolean: true, false, on, off, yes, no, 1 or 0 (any case)\" '$work/cfg.err'"
# format names users type map to the defaults (the formats' descriptors)
for a in cyclonedx:cyclonedx-1.6 cyclonedx-json:cyclonedx-1.6 cdx:cyclonedx-1.6 spdx:spdx-2.3 spdx-json:spdx-2.3 SPDX-3:spdx-3.0.1; do
  ct="$(curl -sS -o "$work/d.json" -w '%{content_type}' --data-binary @"$f" "$base/v1/sbom?format=${a%%:*}&filename=uv.lock")"
  want="$(curl -sS "$base/v1/formats" | jq -r --arg n "${a#*:}" '.formats[] | select(.name == $n) | .media_type')"
  check "format=${a%%:*} writes ${a#*:} ($ct)" [ "$ct" = "$want" ]
done
check "/v1/formats lists the aliases" sh -c "curl -sS '$base/v1/formats' | jq -e '.formats[] | select(.name == \"spdx-2.3\") | .aliases | index(\"spdx\")' > /dev/null"
# Accept: the container of all-* answers, and q=0 excluding what a wildcard would pick
st="$(curl -sS -o "$work/n.ndjson" -w '%{http_code} %{content_type}' -H 'Accept: application/x-ndjson' --data-binary @"$f" "$base/v1/sbom?all-platforms=true&filename=uv.lock")"
check "Accept: application/x-ndjson with all-platforms: 200 NDJSON ($st)" [ "$st" = "200 application/x-ndjson" ]
check "  each line a CycloneDX 1.6 document" sh -c "jq -e -s 'length > 1 and all(.specVersion == \"1.6\")' '$work/n.ndjson' > /dev/null"
st="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Accept: application/x-ndjson' --data-binary @"$f" "$base/v1/sbom?filename=uv.lock")"
check "Accept: application/x-ndjson for one document: 406 ($st)" [ "$st" = 406 ]
curl -sS -o "$work/q0.json" -H 'Accept: application/vnd.cyclonedx+json;q=0, */*' --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&timestamp=1700000000"
check "q=0 excludes CycloneDX even beside */*" jq -e '.spdxVersion == "SPDX-2.3"' "$work/q0.json" > /dev/null
# Content-Disposition names the file after the selection
cd_of() { curl -sS -D - -o /dev/null --data-binary @"$f" "$base$1" | tr -d '\r' | sed -n 's/^[Cc]ontent-[Dd]isposition: //p'; }
check "Content-Disposition of an SPDX document" [ "$(cd_of "/v1/sbom?format=spdx-2.3&filename=uv.lock&platform=osx-arm64")" = 'attachment; filename="sbom-default-osx-arm64.spdx.json"' ]
check "Content-Disposition of NDJSON" [ "$(cd_of "/v1/sbom?all-platforms=true&filename=uv.lock")" = 'attachment; filename="sbom-default-all.ndjson"' ]
# gzip: asked for, the document is streamed compressed and inflates to the plain one
curl -sS -D "$work/gz.h" -o "$work/doc.gz" -H 'Accept-Encoding: gzip' --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&timestamp=1700000000"
curl -sS -D "$work/id.h" -o "$work/doc.json" --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&timestamp=1700000000"
check "Accept-Encoding: gzip -> Content-Encoding: gzip" grep -qi '^content-encoding: gzip' "$work/gz.h"
check "  chunked, not buffered to a length" grep -qi '^transfer-encoding: chunked' "$work/gz.h"
check "  inflates to the plain document" sh -c "gzip -dc '$work/doc.gz' | cmp -s - '$work/doc.json'"
check "  smaller by at least 4x" [ "$(stat -c %s "$work/doc.gz")" -lt "$(( $(stat -c %s "$work/doc.json") / 4 ))" ]
check "Vary: Accept-Encoding on both" sh -c "grep -qi '^vary: accept-encoding' '$work/gz.h' && grep -qi '^vary: accept-encoding' '$work/id.h'"
check "no Accept-Encoding: plain" sh -c "! grep -qi '^content-encoding' '$work/id.h'"
for ae in 'gzip;q=0' 'br' 'identity' '*;q=0'; do
  curl -sS -D "$work/ae.h" -o /dev/null -H "Accept-Encoding: $ae" --data-binary @"$f" "$base/v1/sbom?filename=uv.lock&timestamp=1700000000"
  check "Accept-Encoding: $ae -> plain" sh -c "! grep -qi '^content-encoding' '$work/ae.h'"
done
curl -sS -o "$work/nd.gz" -H 'Accept-Encoding: *' --data-binary @"$f" "$base/v1/sbom?all-platforms=true&filename=uv.lock"
check "NDJSON compressed under *" sh -c "gzip -dc '$work/nd.gz' | jq -e -s 'length > 1' > /dev/null"
curl -sS -o "$work/rep.gz" -H 'Accept-Encoding: gzip' --data-binary @"$f" "$base/v1/report/licenses?output=text&filename=uv.lock"
check "reports compressed too" sh -c "gzip -dc '$work/rep.gz' | grep -q ."
# request bodies with a Content-Encoding: inflated, limits on the inflated size
q="filename=uv.lock&timestamp=1700000000"
curl -sS -o "$work/plain.json" --data-binary @"$f" "$base/v1/sbom?$q"
gzip -c "$f" > "$work/body.gz"; zstd -q -c "$f" > "$work/body.zst"
python3 -c 'import sys,zlib; sys.stdout.buffer.write(zlib.compress(open(sys.argv[1],"rb").read()))' "$f" > "$work/body.zlib"
for c in gzip:gz x-gzip:gz deflate:zlib zstd:zst GZIP:gz; do
  st="$(curl -sS -o "$work/coded.json" -w '%{http_code}' -H "Content-Encoding: ${c%%:*}" --data-binary @"$work/body.${c#*:}" "$base/v1/sbom?$q")"
  check "Content-Encoding: ${c%%:*} body -> 200, the same document ($st)" sh -c "[ $st = 200 ] && cmp -s '$work/plain.json' '$work/coded.json'"
done
st="$(curl -sS -o "$work/p.json" -w '%{http_code}' -H 'Content-Encoding: identity' --data-binary @"$f" "$base/v1/sbom?$q")"
check "Content-Encoding: identity is no coding ($st)" [ "$st" = 200 ]
st="$(curl -sS -D "$work/br.h" -o "$work/p.json" -w '%{http_code}' -H 'Content-Encoding: br' --data-binary @"$f" "$base/v1/sbom?$q")"
check "Content-Encoding: br -> 415 naming the codings read ($st)" sh -c "[ $st = 415 ] && jq -e '.detail | test(\"gzip\")' '$work/p.json' >/dev/null && grep -qi '^accept-encoding: gzip' '$work/br.h'"
head -c 3000 "$work/body.gz" > "$work/cut.gz"
st="$(curl -sS -o "$work/p.json" -w '%{http_code}' -H 'Content-Encoding: gzip' --data-binary @"$work/cut.gz" "$base/v1/sbom?$q")"
check "truncated gzip -> 400 saying so ($st)" sh -c "[ $st = 400 ] && jq -e '.detail | test(\"truncated\")' '$work/p.json' >/dev/null"
st="$(curl -sS -o "$work/p.json" -w '%{http_code}' -H 'Content-Encoding: gzip' --data-binary @"$f" "$base/v1/sbom?$q")"
check "plain bytes called gzip -> 400 ($st)" [ "$st" = 400 ]
# a bomb: 200 MiB of zeros in ~200 KB, past the default max-body of 64 MiB
head -c 209715200 /dev/zero | gzip -1 -c > "$work/bomb.gz"
head -c 209715200 /dev/zero | zstd -q -c > "$work/bomb.zst"
for b in gzip:gz zstd:zst; do
  st="$(curl -sS -o "$work/p.json" -w '%{http_code}' -H "Content-Encoding: ${b%%:*}" --data-binary @"$work/bomb.${b#*:}" "$base/v1/sbom?$q")"
  check "${b%%:*} bomb -> 413 ($st)" sh -c "[ $st = 413 ] && jq -e '.detail | test(\"inflates past\")' '$work/p.json' >/dev/null"
done
check "still serving after the bombs" curl -fsS -o /dev/null "$base/healthz"
# Server-Timing: each phase before the first byte, in milliseconds
st="$(curl -sS -D - -o /dev/null --data-binary @"$f" "$base/v1/sbom?filename=uv.lock" | tr -d '\r' | sed -n 's/^[Ss]erver-[Tt]iming: //p')"
check "Server-Timing names upload, parse and model ($st)" sh -c "echo '$st' | grep -Eq '^upload;dur=[0-9.]+, parse;dur=[0-9.]+, model;dur=[0-9.]+$'"
check "the server answers after all of them" curl -fsS -o /dev/null "$base/healthz"
# --- invalid UTF-8 in a YAML lockfile: placed at its line and column -------------
{ head -4 "$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock"; printf 'bad: \377\376 here\n'; } > "$work/bad-utf8.lock"
res="$(curl -sS -o "$work/bad-utf8.json" -w '%{http_code}' --data-binary @"$work/bad-utf8.lock" "$base/v1/sbom")"
check "invalid UTF-8 in a pixi.lock: 400 at line 5, column 6 ($res $(jq -c '[.line, .column]' "$work/bad-utf8.json"))" \
  sh -c "[ '$res' = 400 ] && [ \"\$(jq -c '[.line, .column]' '$work/bad-utf8.json')\" = '[5,6]' ]"

# --- the request log: an error answer's line says why; levels; --log-level -------
lk="$shared/fixtures/uv/rerun/uv.lock"
curl -sS -o /dev/null --data-binary @"$lk" "$base/v1/sbom?platform=nope"
sleep 0.2
line="$(grep '"msg":"request"' "$work/server.log" | grep '"status":422' | tail -1)"
check "a 422's log line carries the problem's detail as reason" sh -c "echo '$line' | jq -e '.level == \"info\" and (.reason | test(\"nope\"))' >/dev/null"
sb_start "$work/warn.log" --log-level warn --max-body 1000
curl -sS -o /dev/null --data-binary @"$lk" "$base/v1/report/python?platform=nope"
curl -sS -o /dev/null --data-binary @"$lk" "$base/v1/sbom"
sleep 0.2
check "--log-level warn: no line for a 4xx that is the client's input ($(grep -c '"msg":"request"' "$work/warn.log"))" \
  sh -c "! grep '\"msg\":\"request\"' '$work/warn.log' | grep -q '\"status\":422'"
check "--log-level warn: a 413 is logged at warn with its reason" \
  sh -c "grep '\"msg\":\"request\"' '$work/warn.log' | grep '\"status\":413' | jq -e '.level == \"warn\" and (.reason | length > 0)' >/dev/null"
"$bin" --check-config --log-level loud > /dev/null 2>&1; st=$?
check "--log-level loud is a configuration error ($st)" [ "$st" = 2 ]
# issue 40: probes and scrapes are debug (not at info: ~36 lines a minute a pod),
# unless they fail; a stalled upload is a warn with its reason
sb_start "$work/info.log" --min-upload-rate 100000 --upload-grace 1
for p in /healthz /readyz /metrics; do curl -sS -o /dev/null "$base$p"; done
curl -sS -o /dev/null "$base/v1/formats"
python3 - "$port" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
for _ in range(25):
    try:
        s.sendall(b"x")
    except OSError:
        break
    time.sleep(0.1)
s.close()
PY
sleep 0.3
check "at info, no line for /healthz, /readyz or /metrics" sh -c "! grep '\"msg\":\"request\"' '$work/info.log' | grep -qE '\"path\":\"/(healthz|readyz|metrics)\"'"
check "at info, /v1/formats is logged" sh -c "grep '\"msg\":\"request\"' '$work/info.log' | grep -q '\"path\":\"/v1/formats\"'"
check "a stalled upload is dropped with a warn naming the rate" grep -q '"level":"warn","msg":"upload dropped","detail":"the upload averaged' "$work/info.log"
sb_start "$work/debug.log" --log-level debug
curl -sS -o /dev/null "$base/healthz"
sleep 0.2
check "--log-level debug logs the probes" sh -c "grep '\"path\":\"/healthz\"' '$work/debug.log' | grep -q '\"level\":\"debug\"'"

# ---- adm: the page may not be framed; many query parameters answered at once ----
curl -sS -D "$work/page.h" -o /dev/null "$base/"
check "the page's CSP forbids framing (frame-ancestors 'none')" grep -qi "^content-security-policy:.*frame-ancestors 'none'" "$work/page.h"
for n in 500 1000; do
  q="$(python3 -c "print('&'.join('x%d=1' % i for i in range($n)))")"
  res="$(curl -sS -o "$work/q$n.json" -w '%{http_code} %{content_type} %{time_total}' --max-time 15 --data-binary 'p==1.0' "$base/v1/sbom?filename=requirements.txt&$q")"
  check "$n query parameters: 400 problem+json ($res)" sh -c "[ '${res% *}' = '400 application/problem+json' ]"
  check "$n query parameters: answered within 2 s ($res)" awk -v t="${res##* }" 'BEGIN { exit !(t < 2) }'
  check "$n query parameters: the first unknown one named" jq -e '.detail == "unknown query parameter '"'"'x0'"'"'"' "$work/q$n.json"
done
# ---- end adm ----

sb_done params
