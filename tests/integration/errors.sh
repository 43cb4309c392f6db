#!/usr/bin/env bash
# errors.sh [BUILD_DIR] - answers that teach: what to do next on the
# mistakes people make. Git merge-conflict markers in a lockfile (400 naming
# the line, for every reader kind); a workspace manifest sent instead of its
# lockfile (pixi.toml, pyproject.toml, package.json, environment.yml: which
# lockfile to send, and the multipart form); a body whose line breaks were
# stripped (curl -d); parameter names from neighbouring tools (cdxgen's
# specVersion, Dependency-Track's projectName / projectVersion, a 'bom'
# parameter) named with sbomd's own; a mistyped path answered with the
# closest endpoint; timestamp= as an RFC 3339 date-time.
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
ex="$root/examples"
sb_start "$work/s.log" --source-date-epoch 1700000000
post() { curl -sS -o "$3" -w '%{http_code}' --data-binary @"$1" "$base$2"; }

# --- merge-conflict markers, one lockfile of each kind ---------------------------------
conflict() { # conflict IN OUT: markers around lines 10-12
  awk 'NR==10{print "<<<<<<< HEAD"} {print} NR==11{print "======="} NR==12{print ">>>>>>> feature"}' "$1" > "$2"
}
for f in pixi-pypi/pixi.lock uv-droid-semantic-search/uv.lock poetry-5484122/poetry.lock \
         requirements-warehouse/tests.txt npm-with-prepared/package-lock.json conda-lock-pip-deps/conda-lock.yml; do
  name="$(basename "$f")"
  conflict "$ex/$f" "$work/c-$name"
  res="$(post "$work/c-$name" "/v1/sbom?filename=$name" "$work/c.json")"
  check "$name with conflict markers: 400 ($res)" [ "$res" = 400 ]
  check "$name: names the markers, the line and what to do" \
    jq -e '(.detail | test("merge-conflict markers \\(<<<<<<< at line 10\\): resolve the conflict and lock again")) and .line == 10' "$work/c.json" > /dev/null
  # the command of the tool that wrote it, and no other's
  case "$name" in
    pixi.lock) cmd="pixi install" ;; uv.lock) cmd="uv lock" ;; poetry.lock) cmd="poetry lock" ;;
    tests.txt) cmd="pip-compile" ;; package-lock.json) cmd="npm install" ;; conda-lock.yml) cmd="conda-lock" ;;
  esac
  check "$name: says to run $cmd, naming no other locker" \
    jq -e --arg c "$cmd" '(.detail | split(" (the reader said")[0]) as $d | ($d | contains("lock again (" + $c)) and ([("pixi install", "uv lock", "npm install", "poetry lock", "pip-compile") | . as $o | select($o != $c and ($d | contains($o)))] | length == 0)' "$work/c.json" > /dev/null
done
# markers a requirements.txt hash continuation swallows are still markers:
# a conflicted lockfile is never half of each side as a 200
printf 'asttokens==3.0.2 \\\n    --hash=sha256:%s \\\n<<<<<<< HEAD\n    --hash=sha256:%s \\\n=======\n    --hash=sha256:%s \\\n>>>>>>> feature\nsix==1.16.0\n' \
  "$(printf '3%.0s' $(seq 64))" "$(printf '9%.0s' $(seq 64))" "$(printf '0%.0s' $(seq 64))" > "$work/c-cont.txt"
res="$(post "$work/c-cont.txt" "/v1/sbom?filename=requirements.txt" "$work/c.json")"
check "requirements.txt with markers inside a hash continuation: 400 ($res), at line 3" \
  sh -c "[ '$res' = 400 ] && jq -e '.line == 3 and (.detail | test(\"merge-conflict markers .*pip-compile\"))' '$work/c.json' > /dev/null"

# --- parameters and parts from the other endpoint or tool ------------------------------
res="$(post "$ex/pixi-pypi/pixi.lock" "/v1/report/licenses?format=csv" "$work/f.json")"
check "format=csv on a report: 400 ($res) pointing to output=csv" \
  sh -c "[ '$res' = 400 ] && jq -e '.detail | test(\"output=csv\")' '$work/f.json' > /dev/null"
res="$(curl -sS -o "$work/b.json" -w '%{http_code}' -F bom=@"$ex/pixi-pypi/pixi.lock" "$base/v1/sbom")"
check "-F bom=@...: 400 ($res) naming the part it had and -F lockfile=@FILE" \
  sh -c "[ '$res' = 400 ] && jq -e '.detail | test(\"had .bom. only\") and test(\"-F lockfile=@FILE\")' '$work/b.json' > /dev/null"
res="$(curl -sS -o "$work/d.json" -w '%{http_code}' -F base=@"$ex/poetry-be09d9c/poetry.lock" -F head=@"$ex/poetry-5484122/poetry.lock" "$base/v1/diff?fail-on=downgrade")"
check "fail-on=downgrade: 400 ($res), did you mean 'downgraded'?" \
  sh -c "[ '$res' = 400 ] && jq -e '(.detail | test(\"did you mean .downgraded.\")) and (.choices | index(\"downgraded\"))' '$work/d.json' > /dev/null"
res="$(post "$ex/pixi-pypi/pixi.lock" "/v1/report/explain?package=nump" "$work/x.json")"
check "explain?package=nump: 422 unknown-choice ($res), did you mean 'numpy', numpy first in choices" \
  sh -c "[ '$res' = 422 ] && jq -e '.type == \"urn:sbomd:problem:unknown-choice\" and (.detail | test(\"did you mean .numpy.\")) and .choices[0] == \"numpy\"' '$work/x.json' > /dev/null"
res="$(post "$ex/pixi-pypi/pixi.lock" "/v1/report/explain?package=NumPy" "$work/x.json")"
check "explain?package=NumPy (PEP 503 spelling): 200 ($res)" [ "$res" = 200 ]
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
sb_start "$work/small.log" --max-body 1Mi
head -c 2000000 /dev/zero | tr '\0' a > "$work/big.txt"
res="$(post "$work/big.txt" "/v1/sbom" "$work/t.json")"
check "a body past max-body: 413 ($res) in the setting's unit and name" \
  sh -c "[ '$res' = 413 ] && jq -e '.detail | contains(\"1 MiB (1048576 bytes), its max-body setting (--max-body, SBOMD_MAX_BODY)\")' '$work/t.json' > /dev/null"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
sb_start "$work/s2.log" --source-date-epoch 1700000000

# --- a manifest instead of its lockfile --------------------------------------------------
pixi_toml="$(find "$root/tests/data/manifests" -name pixi.toml | head -1)"
pyproject="$(find "$root/tests/data/manifests" -name pyproject.toml | head -1)"
for m in "$pixi_toml:pixi.toml:pixi.lock" "$pyproject:pyproject.toml:uv.lock" \
         "$ex/npm-with-prepared/package.json:package.json:package-lock.json" \
         "$ex/conda-lock-pip-deps/environment.yml:environment.yml:conda-lock.yml"; do
  IFS=: read -r file kind lock <<< "$m"
  res="$(post "$file" "/v1/sbom" "$work/m.json")"
  check "$kind as the body: 4xx ($res)" sh -c "[ '$res' -ge 400 ] && [ '$res' -lt 500 ]"
  check "$kind as the body: says it is a $kind manifest and to send $lock" \
    jq -e --arg k "$kind" --arg l "$lock" '(.detail | contains("this is a")) and (.detail | contains($k + " manifest, not a lockfile")) and (.detail | contains($l)) and (.detail | contains("-F manifest=@" + $k))' "$work/m.json" > /dev/null
done

# --- curl -d: the line breaks stripped ----------------------------------------------------
res="$(curl -sS -o "$work/d.json" -w '%{http_code}' -d @"$ex/uv-droid-semantic-search/uv.lock" "$base/v1/sbom?filename=uv.lock")"
check "curl -d: 4xx ($res)" sh -c "[ '$res' -ge 400 ] && [ '$res' -lt 500 ]"
check "curl -d: says to use --data-binary" jq -e '.detail | test("no line breaks at all, as when curl -d strips them: send the file with curl --data-binary @FILE")' "$work/d.json" > /dev/null
res="$(curl -sS -o "$work/d2.json" -w '%{http_code}' -d @"$ex/pixi-pypi/pixi.lock" "$base/v1/sbom")"
check "curl -d, kind unknown: says to use --data-binary ($res)" jq -e '.detail | test("--data-binary")' "$work/d2.json" > /dev/null
res="$(post "$ex/uv-droid-semantic-search/uv.lock" "/v1/sbom?filename=uv.lock" "$work/ok.json")"
check "the same file with --data-binary: 200 ($res)" [ "$res" = 200 ]

# --- names from neighbouring tools ----------------------------------------------------------
for q in "specVersion=1.6:format=" "spec_version=1.6:format=" "projectName=x:name=" "projectVersion=1:version=" \
         "bom=x:multipart part 'sbom'" "outputFormat=json:format="; do
  arg="${q%%:*}" want="${q#*:}"
  res="$(post "$ex/pixi-pypi/pixi.lock" "/v1/sbom?$arg" "$work/f.json")"
  check "?$arg: 400 naming sbomd's own ($res: $(jq -r .detail "$work/f.json"))" \
    sh -c "[ '$res' = 400 ] && jq -e --arg w \"\$1\" '.detail | contains(\$w)' '$work/f.json' > /dev/null" _ "$want"
done

# --- a mistyped path ----------------------------------------------------------------------
for p in "/v1/sbmo:/v1/sbom" "/v1/report/licences:/v1/report/licenses" "/v1/formts:/v1/formats"; do
  path="${p%%:*}" want="${p#*:}"
  res="$(curl -sS -o "$work/p.json" -w '%{http_code}' "$base$path")"
  check "$path: 404 suggesting $want ($res)" sh -c "[ '$res' = 404 ] && jq -e --arg w '$want' '.detail == \"no such endpoint (did you mean \" + \$w + \"?)\"' '$work/p.json' > /dev/null"
done
res="$(curl -sS -o "$work/p.json" -w '%{http_code}' "$base/totally/elsewhere")"
check "a path like none: 404 without a guess ($res)" jq -e '.detail == "no such endpoint"' "$work/p.json" > /dev/null

# --- timestamp= as RFC 3339 ------------------------------------------------------------------
for t in "2020-01-01T00:00:00Z" "2020-01-01T02:00:00%2B02:00" "1577836800"; do
  res="$(post "$ex/pixi-pypi/pixi.lock" "/v1/sbom?timestamp=$t" "$work/t.json")"
  check "timestamp=$t: 200 and the document's time is 2020-01-01T00:00:00Z ($res)" \
    sh -c "[ '$res' = 200 ] && jq -e '.metadata.timestamp == \"2020-01-01T00:00:00Z\"' '$work/t.json' > /dev/null"
done
res="$(post "$ex/pixi-pypi/pixi.lock" "/v1/sbom?timestamp=2020-02-30T00:00:00Z" "$work/t.json")"
check "timestamp=2020-02-30: 400 naming both forms ($res)" jq -e '.detail | test("Unix seconds .* or an RFC 3339 date-time")' "$work/t.json" > /dev/null
# --- one problem type per kind (issue 37): the type names the kind, the status is the type's -------------
ptype() { # ptype LABEL WANT_STATUS WANT_TYPE CURL_ARGS...
  local label="$1" st="$2" ty="$3" res; shift 3
  res="$(curl -sS -o "$work/pt.json" -w '%{http_code}' "$@")"
  check "$label: $st urn:sbomd:problem:$ty ($res $(jq -r .type "$work/pt.json" 2>/dev/null))" \
    sh -c "[ '$res' = '$st' ] && jq -e --arg t 'urn:sbomd:problem:$ty' --argjson s '$st' '.type == \$t and .status == \$s and (.title | length > 0)' '$work/pt.json' > /dev/null"
}
lock="$ex/pixi-pypi/pixi.lock"
ptype "format= a format sbomd does not write (a bad value, not negotiation)" 400 invalid-parameter --data-binary @"$lock" "$base/v1/sbom?format=cyclonedx-1.2"
ptype "Accept: image/png" 406 not-acceptable -H 'Accept: image/png' --data-binary @"$lock" "$base/v1/sbom"
ptype "GET /v1/sbom" 405 method-not-allowed "$base/v1/sbom"
ptype "a mistyped path" 404 not-found --data-binary @"$lock" "$base/v1/sbomm"
ptype "an unknown report" 404 not-found --data-binary @"$lock" "$base/v1/report/nothing"
ptype "a mistyped report" 404 not-found --data-binary @"$lock" "$base/v1/report/licenze"
check "the mistyped report's 404: did you mean /v1/report/licenses?" jq -e '.detail | test("did you mean /v1/report/licenses\\?")' "$work/pt.json" > /dev/null
ptype "Content-Encoding: br" 415 unsupported-content-encoding -H 'Content-Encoding: br' --data-binary @"$lock" "$base/v1/sbom"
printf 'not gzip at all' > "$work/notgz"
ptype "a corrupt gzip body" 400 undecodable-body -H 'Content-Encoding: gzip' --data-binary @"$work/notgz" "$base/v1/sbom"
ptype "github-snapshot without sha/ref" 400 missing-parameter --data-binary @"$lock" "$base/v1/sbom?format=github-snapshot"
ptype "a body that is no lockfile" 415 unsupported-media-type --data-binary 'just some words' "$base/v1/sbom"
ptype "an environment the lockfile lacks" 422 unknown-choice --data-binary @"$lock" "$base/v1/sbom?environment=nope"
ptype "an unknown parameter" 400 invalid-parameter --data-binary @"$lock" "$base/v1/sbom?plaform=x"
printf 'version: 6\nenvironments: [\n' > "$work/trunc.lock"
ptype "a truncated pixi.lock" 400 malformed-input --data-binary @"$work/trunc.lock" "$base/v1/sbom?filename=pixi.lock"
# issue 40: configuration typos are named, with the setting meant
err="$(SBOMD_VULNERABILITES=1 "$bin" --check-config 2>&1 >/dev/null)"; st=$?
check "SBOMD_VULNERABILITES: --check-config exits 2 ($st)" [ "$st" = 2 ]
check "SBOMD_VULNERABILITES: did you mean SBOMD_VULNERABILITIES? ($err)" grep -q 'unknown environment variable SBOMD_VULNERABILITES (did you mean SBOMD_VULNERABILITIES?)' <<< "$err"
err="$(SBOMD_NOTHING_LIKE_IT=1 "$bin" --check-config 2>&1 >/dev/null)"; st=$?
check "an SBOMD_ variable far from every setting: exit 2, named ($err)" sh -c "[ $st = 2 ] && echo '$err' | grep -q 'SBOMD_NOTHING_LIKE_IT (no setting of that name)'"
err="$("$bin" --memory-budgt 300Mi 2>&1 >/dev/null)"; st=$?
check "--memory-budgt: exit 2, did you mean --memory-budget? ($err)" sh -c "[ $st = 2 ] && echo \"\$1\" | grep -q 'did you mean --memory-budget?'" _ "$err"
SBOMD_VULNERABILITES=1 "$bin" --listen 127.0.0.1 --port 0 > /dev/null 2> "$work/typo.log" &
tpid=$!
for _ in $(seq 50); do grep -q '"listening"' "$work/typo.log" && break; sleep 0.1; done
kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null
check "a server started with the typo serves, and logs it at warn" grep -q '"level":"warn","msg":"config","detail":"unknown environment variable SBOMD_VULNERABILITES (did you mean SBOMD_VULNERABILITIES?)"' "$work/typo.log"
sb_done errors
