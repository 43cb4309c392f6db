#!/usr/bin/env bash
# run.sh BUILD_DIR - the hostile-input suite against one live server: every
# file make-inputs.py writes is POSTed and must get its status as
# problem+json; then raw-socket cases (request smuggling shapes, a 1 GB
# declared body that never comes, wrong methods, path traversal); after all
# of them a valid request must still succeed and the server's RSS must be
# back near its baseline. Ends with "hostile: N passed, N failed".
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${1:-$root/build/release}/sbomd"
shared="${SB_SHARED:-$root/../shared}"
work="$(mktemp -d)"
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
# to stderr: a check whose command is redirected (jq ... >/dev/null) redirects this too
bad() { fail=$((fail + 1)); echo "  FAIL $*" >&2; }
pid2= pid3=
trap 'kill $pid $pid2 $pid3 2>/dev/null; rm -rf "$work"' EXIT
# start_server LOG ARGS... - sbomd on a free loopback port, stderr to LOG;
# sets spid and sport (empty when it did not start within 10 s)
start_server() {
  local log="$1"; shift
  rm -f "$log" # a reused log could show the last server's port before this one's shell truncates it
  "$bin" --listen 127.0.0.1 --port 0 "$@" > /dev/null 2> "$log" &
  spid=$! sport=
  for _ in $(seq 100); do
    sport="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
    [ -n "$sport" ] && break; sleep 0.1
  done
}
/usr/bin/python3 "$here/make-inputs.py" "$work/in"
start_server "$work/log" --quiet
pid=$spid port=$sport
base="http://127.0.0.1:$port"
good="$shared/fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock"
curl -sS -o /dev/null --data-binary @"$good" "$base/v1/sbom"
rss0="$(awk '/VmRSS/{print $2}' /proc/$pid/status)"
for f in "$work"/in/*; do
  name="$(basename "$f")"; want="${name%%-*}"
  kind=""
  case "$name" in
    *.pixi.lock) kind=pixi.lock ;; *.uv.lock) kind=uv.lock ;; *.poetry.lock) kind=poetry.lock ;;
    *.pdm.lock) kind=pdm.lock ;; *.pylock.toml) kind=pylock.toml ;; *.requirements.txt) kind=requirements.txt ;;
    *.bun.lock) kind=bun.lock ;;
    *.packages.lock.json) kind=packages.lock.json ;; *.composer.lock) kind=composer.lock ;;
    *.go.mod) kind=go.mod ;; *.go.sum) kind=go.sum ;; *.Package.resolved) kind=Package.resolved ;;
    *.gradle.lockfile) kind=gradle.lockfile ;;
    *.Cargo.lock) kind=Cargo.lock ;; *.conan.lock) kind=conan.lock ;;
    *.Gemfile.lock) kind=Gemfile.lock ;; *.Podfile.lock) kind=Podfile.lock ;; *.mix.lock) kind=mix.lock ;;
  esac
  res="$(curl -sS -o "$work/p.json" -w '%{http_code} %{content_type}' --data-binary @"$f" "$base/v1/sbom${kind:+?kind=$kind}")"
  if [ "$res" = "$want application/problem+json" ] && jq -e ".status == $want and (.detail|length > 0)" "$work/p.json" >/dev/null; then ok
  else bad "$name: got $res $(head -c 200 "$work/p.json")"; fi
done
# raw HTTP: each case sends bytes, the first status line must be the expected one;
# "400 close" cases must also end the connection after that one answer, so a
# request pipelined behind a malformed head is never served (smuggling shape)
while IFS='|' read -r want label req; do
  got="$(/usr/bin/python3 - "$port" "$req" <<'PY'
import re, socket, sys
port, req = int(sys.argv[1]), sys.argv[2].encode().decode("unicode_escape").encode("latin-1")
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(10)
s.sendall(req)
data = b""
try:
    while True:
        d = s.recv(65536)
        if not d:
            break
        data += d
        if b"HTTP/1.1 200" in data:  # the pipelined request was answered: stop waiting
            break
except Exception as e:
    if not data:
        print("no answer: %s" % e)
        sys.exit()
line = data.split(b"\r\n")[0].decode()
answers = len(re.findall(rb"(?:^|\n)HTTP/1\.1 [0-9]{3} ", data))  # status lines, not a body's words
print(line, "answers=%d" % answers, "closed" if not d else "open")
PY
)"
  case "$want" in
    *close) case "$got" in "HTTP/1.1 ${want% close}"*" answers=1 closed") ok ;; *) bad "$label: $got" ;; esac ;;
    *) case "$got" in "HTTP/1.1 $want"*) ok ;; *) bad "$label: $got" ;; esac ;;
  esac
done <<'EOF2'
400 close|two Content-Length headers|POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhelloGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n
400 close|Content-Length with Transfer-Encoding|POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n
400 close|Transfer-Encoding with Content-Length (order swapped)|POST /v1/report/packages HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n
400 close|HTTP/1.1 without Host|GET /healthz HTTP/1.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n
400 close|HTTP/1.1 with two Host headers|GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n
400 close|two Authorization headers|GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n
200|HTTP/1.0 without Host is fine|GET /healthz HTTP/1.0\r\n\r\n
413|1 GB declared, short body|POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\nshort
405|PUT on /v1/sbom|PUT /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n
405|GET on /v1/sbom|GET /v1/sbom HTTP/1.1\r\nHost: x\r\n\r\n
405|DELETE on /healthz|DELETE /healthz HTTP/1.1\r\nHost: x\r\n\r\n
404|path traversal|GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n
404|encoded path traversal|GET /v1/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n
EOF2
# path traversal in query parameters: only ever a name, never a file read
res="$(curl -sS -o "$work/t.json" -w '%{http_code}' --data-binary @"$good" "$base/v1/sbom?filename=../../../../etc/passwd")"
if [ "$res" = 200 ] && ! grep -q 'root:x:0' "$work/t.json" && jq -e '[.metadata.properties[] | select(.name=="pixi:lockfile") | .value] == ["passwd"]' "$work/t.json" >/dev/null; then ok; else bad "filename=../../etc/passwd: $res"; fi
res="$(curl -sS -o "$work/t.json" -w '%{http_code}' --data-binary @"$good" "$base/v1/sbom?kind=../../etc/passwd")"
[ "$res" = 415 ] && ok || bad "kind=../../etc/passwd: $res"
res="$(curl -sS -o "$work/t.json" -w '%{http_code}' --data-binary @"$good" "$base/v1/sbom?environment=../../etc&platform=%00")"
[ "$res" = 422 ] && ok || bad "environment=../../etc: $res"
# issue 19, the Python readers' size and shape attacks (make-bounds.py at half
# scale), each against a fresh server: 200, /healthz answering all along, and
# a peak RSS (VmHWM) under 64 MiB + 8 x input + 2 KiB per package over the
# server's start. Figures, never durations (loadtest/bounds.sh prints those).
/usr/bin/python3 "$here/make-bounds.py" "$work/bounds" 2
for spec in "req-100k.requirements.txt /v1/report/packages 50000" "req-490k.requirements.txt /v1/report/packages 245000" \
            "big.uv.lock /v1/sbom 11100" "samename.uv.lock /v1/sbom 16001" "root150k.uv.lock /v1/sbom 75000"; do
  read -r name path npk <<< "$spec"
  f="$work/bounds/$name"; size="$(stat -c %s "$f")"
  start_server "$work/log3" --quiet
  pid3=$spid port3=$sport
  rss0="$(awk '/VmRSS/{print $2}' /proc/$pid3/status)"
  curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$f" "http://127.0.0.1:$port3$path?filename=$name" > "$work/st" &
  cpid=$!
  hz=0 hzbad=0
  while :; do
    h="$(curl -sS -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port3/healthz")"
    if [ "$h" = 200 ]; then hz=$((hz + 1)); else hzbad=$((hzbad + 1)); fi
    kill -0 "$cpid" 2>/dev/null || break
    sleep 0.2
  done
  wait "$cpid"
  st="$(cat "$work/st")"
  peak="$(awk '/VmHWM/{print $2}' /proc/$pid3/status)"
  bound=$((rss0 + 65536 + size * 8 / 1024 + npk * 2))
  [ "$st" = 200 ] && ok || bad "$name: status $st"
  [ "$peak" -lt "$bound" ] && ok || bad "$name: peak RSS $peak kB, over $bound kB"
  [ "$hzbad" = 0 ] && [ "$hz" -ge 1 ] && ok || bad "$name: /healthz failed $hzbad time(s), answered $hz"
  echo "hostile: $name ($size bytes, $npk packages): $st, peak RSS $peak kB (bound $bound kB), /healthz answered $hz time(s) meanwhile"
  kill "$pid3"; wait "$pid3" 2>/dev/null
done
# lists of 8,000 items in one record (make-lists.py): each once joined by
# re-printing it per item (a 589 KB uv.lock peaked at 2.2 GB); now a 200
# within 64 MiB + 8 x input of the server's start, like any other input
/usr/bin/python3 "$here/make-lists.py" "$work/lists" 8000
start_server "$work/log4" --quiet
pid4=$spid port4=$sport
for f in "$work/lists"/*; do
  name="$(basename "$f")" size="$(stat -c %s "$f")"
  rss0="$(awk '/VmHWM/{print $2}' /proc/$pid4/status)"
  st="$(curl -sS -o "$work/l.json" -w '%{http_code}' --data-binary @"$f" "http://127.0.0.1:$port4/v1/sbom?filename=${name#*.}")"
  peak="$(awk '/VmHWM/{print $2}' /proc/$pid4/status)"
  bound=$((rss0 + 65536 + size * 8 / 1024))
  [ "$st" = 200 ] && jq -e '(.components | length) >= 1' "$work/l.json" > /dev/null && ok || bad "$name: status $st"
  [ "$peak" -lt "$bound" ] && ok || bad "$name: peak RSS $peak kB, over $bound kB"
  echo "hostile: $name ($size bytes, 8000 items): $st, peak RSS $peak kB (bound $bound kB)"
done
kill "$pid4"; wait "$pid4" 2>/dev/null
# issue 43, the accountant: every upload shape whose memory once did not
# follow its size (shapes.sh: lists, indented pins, npm long names and deep
# paths, dense JSON, 256 documents, a diff, a 16-part merge), four copies at
# once against --memory-budget 300Mi: each answered 200, 413 or 503 (never
# dropped), at least one of the four served, and the process's peak within
# the budget plus 64 MiB over its start
"$here/shapes.sh" "${1:-$root/build/release}" 1 300Mi > "$work/shapes.txt"
nshapes=0
while read -r name bytes codes kb secs; do
  case "$name" in loops-*) continue ;; esac # held to their deadline below
  nshapes=$((nshapes + 1))
  odd="$(tr , '\n' <<< "$codes" | grep -cvE '^(200|413|503)$')"
  [ "$odd" = 0 ] && ok || bad "$name: statuses $codes (only 200, 413 or 503)"
  case ",$codes," in *,200,*) ok ;; *) bad "$name: none of four served ($codes)" ;; esac
  # the budget meters what requests build; the heap around it (allocator
  # slack, libc, threads' stacks) is not, hence the same 64 MiB over the
  # budget every shape is held to (one run of half.cdx.json peaked at +28 MiB)
  [ "$kb" -le $((307200 + 65536)) ] && ok || bad "$name: peak $kb kB over the start, past the 300 MiB budget plus 64 MiB"
  echo "hostile: 4 x $name ($bytes bytes): $codes, peak +$kb kB, ${secs}s"
done < "$work/shapes.txt"
[ "$nshapes" -ge 15 ] && ok || bad "shapes.sh gave $nshapes shapes"
# ---- loops: every loop an input or a query sets reads the deadline (a bun
# key of long names over missing dependencies, a 15 KB include glob over
# 15 KB names, thousands of pixi features, 8,000 npm copies with their own
# licenses, a 5,000-deep chain in the tree report's text and Markdown), at
# 1x (above) and 4x, four copies at once under --request-timeout 5: every
# answer 200, 413, 503 or 504 (never none), the four done within the
# deadline plus 1 s, the peak within the budget plus 64 MiB over the start
loops_check() { # loops_check SHAPES-FILE SCALE
  local n=0 name bytes codes kb secs odd
  while read -r name bytes codes kb secs; do
    case "$name" in loops-*) ;; *) continue ;; esac
    n=$((n + 1))
    odd="$(tr , '\n' <<< "$codes" | grep -cvE '^(200|413|503|504)$')"
    [ "$odd" = 0 ] && ok || bad "$name at ${2}x: statuses $codes (only 200, 413, 503 or 504)"
    awk -v s="$secs" 'BEGIN { exit !(s <= 6) }' && ok || bad "$name at ${2}x: ${secs}s, past the 5 s deadline plus 1 s"
    [ "$kb" -le $((307200 + 65536)) ] && ok || bad "$name at ${2}x: peak +$kb kB, past the budget plus 64 MiB"
    echo "hostile: 4 x $name at ${2}x ($bytes bytes, --request-timeout 5): $codes, peak +$kb kB, ${secs}s"
  done < "$1"
  [ "$n" -ge 6 ] && ok || bad "shapes.sh gave $n loops shapes at ${2}x"
}
loops_check "$work/shapes.txt" 1
SB_SHAPES_ONLY="loops adm" "$here/shapes.sh" "${1:-$root/build/release}" 4 300Mi > "$work/shapes4.txt"
loops_check "$work/shapes4.txt" 4
# the priced query and the half-budget requests at 4x too: every answer a
# status (200, 413, 503), the peak within the budget plus 64 MiB; 28,000
# policy terms still fit alone, so at least one is served (four requests
# of 4 x half the budget each can never fit: 413, nothing served is right)
n4=0
while read -r name bytes codes kb secs; do
  case "$name" in allow7000.*|half.*) ;; *) continue ;; esac
  n4=$((n4 + 1))
  odd="$(tr , '\n' <<< "$codes" | grep -cvE '^(200|413|503)$')"
  [ "$odd" = 0 ] && ok || bad "$name at 4x: statuses $codes (only 200, 413 or 503)"
  [ "$kb" -le $((307200 + 65536)) ] && ok || bad "$name at 4x: peak +$kb kB, past the budget plus 64 MiB"
  case "$name,$codes," in allow7000.*,*200,*|half.*) ok ;; *) bad "$name at 4x: none of four served ($codes)" ;; esac
  echo "hostile: 4 x $name at 4x ($bytes bytes): $codes, peak +$kb kB, ${secs}s"
done < "$work/shapes4.txt"
[ "$n4" = 2 ] && ok || bad "shapes.sh gave $n4 of the 2 priced shapes at 4x"
# ---- end of loops ----
# the deadline by work inside npm's resolution: an entry 8,000 levels deep
# with 8,000 dependencies (64M lookups) under --request-timeout 3 is a 504
# (the time printed, never asserted: well under a millisecond past 3 s here)
python3 -c "
import json
path = '/'.join('node_modules/d%d' % i for i in range(8000))
pk = {'': {'name': 'x'}, path: {'version': '1.0.0', 'dependencies': {'q%d' % i: '1' for i in range(8000)}}}
json.dump({'lockfileVersion': 3, 'packages': pk}, open('$work/deeper.json', 'w'))"
start_server "$work/log7" --quiet --request-timeout 3
pid7=$spid port7=$sport
res="$(curl -sS -o "$work/deeper.out" -w '%{http_code} %{time_total}' --data-binary @"$work/deeper.json" "http://127.0.0.1:$port7/v1/sbom?filename=package-lock.json")"
[ "${res%% *}" = 504 ] && jq -e '.status == 504' "$work/deeper.out" > /dev/null && ok || bad "an npm path 8,000 deep past a 3 s deadline: $res"
echo "hostile: an npm entry 8,000 levels deep with 8,000 dependencies, --request-timeout 3: $res s"
h="$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port7/healthz")"
[ "$h" = 200 ] && ok || bad "/healthz after the deep path: $h"
kill "$pid7"; wait "$pid7" 2>/dev/null
# every input of a request is charged: two sides of a diff that each fit the
# budget alone but not together are a 413 (each side's charge once replaced
# the other's, so a diff held two models while paying for one); 70,000 pins
# are charged ~35 MiB (500 B a pin), two of them past 60 MiB
python3 -c "
for k in (1, 2):
    with open('$work/pins%d.txt' % k, 'w') as f:
        f.writelines('p%d-%d==1.%d\n' % (k, i, i % 7) for i in range(70000))"
start_server "$work/log5" --quiet --memory-budget 60Mi --max-body 8Mi
pid5=$spid port5=$sport
st="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$work/pins1.txt" "http://127.0.0.1:$port5/v1/sbom?filename=requirements.txt")"
[ "$st" = 200 ] && ok || bad "70,000 pins alone against 60 MiB: $st"
st="$(curl -sS -o "$work/d.json" -w '%{http_code}' -F "base=@$work/pins1.txt;filename=requirements.txt" \
  -F "head=@$work/pins2.txt;filename=requirements.txt" "http://127.0.0.1:$port5/v1/diff")"
[ "$st" = 413 ] && jq -e '.detail | test("this request.s inputs together")' "$work/d.json" > /dev/null && ok || bad "a diff of two such: $st $(head -c 200 "$work/d.json")"
echo "hostile: a diff of two 70,000-pin files against 60 MiB: $st ($(jq -r .detail "$work/d.json" | head -c 90))"
kill "$pid5"; wait "$pid5" 2>/dev/null
# a merge of a 100,000-component part: each edge was once pushed after a
# scan of the list so far (57-68 s); now linear, well inside a 20 s deadline
python3 -c "
import json
for k, n in (('a', 100000), ('b', 10)):
    comps = [{'type': 'library', 'name': 'p%d' % i, 'version': '1.0', 'bom-ref': 'r%d' % i, 'purl': 'pkg:pypi/p%d@1.0' % i}
             for i in range(n)]
    json.dump({'bomFormat': 'CycloneDX', 'specVersion': '1.6', 'version': 1,
               'metadata': {'component': {'type': 'application', 'name': 'root', 'bom-ref': 'root'}},
               'components': comps}, open('$work/merge-%s.cdx.json' % k, 'w'))"
start_server "$work/log6" --quiet --request-timeout 20
pid6=$spid port6=$sport
st="$(curl -sS -o "$work/mg.json" -w '%{http_code}' -F "sbom=@$work/merge-a.cdx.json" -F "sbom=@$work/merge-b.cdx.json" "http://127.0.0.1:$port6/v1/sbom")"
[ "$st" = 200 ] && jq -e '(.components | length) == 100000' "$work/mg.json" > /dev/null && ok || bad "merge of 100,000 + 10 components: $st"
echo "hostile: a merge of 100,000 + 10 components (10 shared): $st, $(jq '.components | length' "$work/mg.json" 2>/dev/null) components"
kill "$pid6"; wait "$pid6" 2>/dev/null
# a big input against a 1-second deadline: the reader stops with 504 problem+json
# (not a document started late), the server stays up and counts the timeout.
# The deadline must fall while the reader works, whatever the machine's
# speed: a root depending on 150,000 packages (47 MB) takes ~1.1 s to read and
# select on the release build (490k pins did until issue 41's model work made
# them 0.7 s), and its upload is held to ~0.5 s (--limit-rate), so the second
# falls about half-way into the read, with half a second of slack either way
# (before it, the answer would be a 408 for the upload; after it, a document).
/usr/bin/python3 "$here/make-bounds.py" "$work/bounds1" 1 req-490k.requirements.txt root150k.uv.lock req-100k.requirements.txt
start_server "$work/log3" --quiet --request-timeout 1
pid3=$spid port3=$sport
res="$(curl -sS --limit-rate 100M -o "$work/p.json" -w '%{http_code} %{content_type}' --data-binary @"$work/bounds1/root150k.uv.lock" "http://127.0.0.1:$port3/v1/report/packages?filename=uv.lock")"
if [ "$res" = "504 application/problem+json" ] && jq -e '.status == 504 and (.detail|length > 0)' "$work/p.json" >/dev/null; then ok
else bad "150,000-package uv.lock with --request-timeout 1: $res $(head -c 200 "$work/p.json")"; fi
res="$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port3/healthz")"
[ "$res" = 200 ] && ok || bad "/healthz after the 504: $res"
timeouts="$(curl -sS "http://127.0.0.1:$port3/metrics" | awk '/^sbomd_timeouts_total/{print $2}')"
[ "${timeouts:-0}" -ge 1 ] && ok || bad "sbomd_timeouts_total counts the 504 ($timeouts)"
kill "$pid3"; wait "$pid3" 2>/dev/null
pid3=
# slow clients, against a second server with short limits: a trickling upload
# is dropped once its rate is judged; a document still streaming at the
# deadline ends as a visibly truncated transfer, never a short valid JSON
start_server "$work/log2" --request-timeout 3 --upload-grace 1 --min-upload-rate 2000
pid2=$spid port2=$sport
got="$(/usr/bin/python3 - "$port2" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /v1/sbom HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
t0 = time.time()
try:
    for _ in range(100):  # 10 bytes every 0.1 s: 100 bytes/s
        s.sendall(b"a" * 10)
        time.sleep(0.1)
    print("still open after %.1f s" % (time.time() - t0))
except OSError:
    print("dropped after %.1f s" % (time.time() - t0))
PY
)"
case "$got" in "dropped after "[12].*) ok ;; *) bad "trickling upload: $got" ;; esac
grep -q '"status":408' "$work/log2" && ok || bad "the dropped upload is logged as 408"
big="$work/big-explicit.txt"
{ echo "@EXPLICIT"; for i in $(seq 20000); do echo "https://conda.anaconda.org/conda-forge/linux-64/pkg$i-1.0-h0_0.conda#0123456789abcdef0123456789abcdef"; done; } > "$big"
# upload at full speed, then read slowly (a small receive buffer, 64 KiB per 0.1 s)
got="$(/usr/bin/python3 - "$port2" "$big" <<'PY'
import socket, sys, time, json
body = open(sys.argv[2], "rb").read()
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
s.connect(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /v1/sbom?filename=big.txt HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
s.settimeout(20)
data = b""
while True:
    d = s.recv(65536)
    if not d:
        break
    data += d
    time.sleep(0.1)
head, _, chunked = data.partition(b"\r\n\r\n")
# de-chunk what arrived; a complete response ends with the zero-size chunk
doc, rest, complete = b"", chunked, False
while rest:
    size_line, sep, rest = rest.partition(b"\r\n")
    if not sep:
        break
    n = int(size_line.split(b";")[0] or b"0", 16)
    if n == 0:
        complete = True
        break
    doc += rest[:n]
    rest = rest[n + 2:]
try:
    json.loads(doc)
    parses = "parses"
except ValueError:
    parses = "invalid JSON"
print("%s %s %d bytes %s" % (head.split(b"\r\n")[0].decode(), "complete" if complete else "truncated", len(doc), parses))
PY
)"
case "$got" in "HTTP/1.1 200 OK truncated "*" invalid JSON") ok; echo "hostile: deadline mid-stream: $got" ;; *) bad "deadline mid-stream: $got" ;; esac
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$good" "http://127.0.0.1:$port2/v1/sbom")"
[ "$res" = 200 ] && ok || bad "a normal request on the short-deadline server: $res"
timeouts="$(curl -sS "http://127.0.0.1:$port2/metrics" | awk '/^sbomd_timeouts_total/{print $2}')"
[ "${timeouts:-0}" -ge 2 ] && ok || bad "sbomd_timeouts_total counts both ($timeouts)"
kill "$pid2"; wait "$pid2" 2>/dev/null
# request heads that trickle (a header line every 0.5 s, which resets an idle
# timeout each time), from another loopback address: past --max-connections-per-ip
# they are refused at once, and those accepted are closed once --head-timeout
# passes; /healthz from 127.0.0.1 answers all along
start_server "$work/log3" --head-timeout 2 --max-connections-per-ip 20
pid3=$spid port3=$sport
got="$(/usr/bin/python3 - "$port3" <<'PY'
import http.client, socket, sys, time
port = int(sys.argv[1])
conns = []
for _ in range(30):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", port))
    s.setblocking(False)
    conns.append(s)
open_ = set(range(30))
refused = closed = 0
health = []
t0 = time.time()
def gone(s):
    try:
        return s.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
time.sleep(0.2)
for i in list(open_):  # refused at the cap: closed before anything is sent
    if gone(conns[i]):
        open_.discard(i)
        refused += 1
for i in open_:
    conns[i].send(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
while open_ and time.time() - t0 < 8:  # a bound for the script, not an assertion
    for i in list(open_):
        try:
            conns[i].send(b"X-Trickle: 1\r\n")
        except OSError:
            pass
        if gone(conns[i]):
            open_.discard(i)
            closed += 1
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        c.request("GET", "/healthz")
        health.append(c.getresponse().status)
    except OSError as e:
        health.append(str(e))
    c.close()
    time.sleep(0.5)
print("refused %d, closed %d, still open %d, healthz %s" % (refused, closed, len(open_),
      "all 200" if health and all(h == 200 for h in health) else health))
PY
)"
case "$got" in "refused 10, closed 20, still open 0, healthz all 200") ok; echo "hostile: head trickle: $got" ;; *) bad "head trickle: $got" ;; esac
ht="$(curl -sS "http://127.0.0.1:$port3/metrics" | awk '/^sbomd_head_timeouts_total/{print $2}')"
[ "${ht:-0}" -ge 20 ] && ok || bad "sbomd_head_timeouts_total counts the trickling heads ($ht)"
# on the same server (no short deadline, so a slow sanitizer build streams too):
# a client that leaves mid-download is info and counted apart from stream failures
/usr/bin/python3 - "$port3" "$big" <<'PY'
import socket, sys, time
body = open(sys.argv[2], "rb").read()
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /v1/sbom?filename=leaver.txt HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
s.recv(4096)
time.sleep(0.3)
s.close()
PY
sleep 1
m="$(curl -sS "http://127.0.0.1:$port3/metrics")"
left="$(echo "$m" | awk '/^sbomd_client_disconnects_total/{print $2}')"
failed="$(echo "$m" | awk '/^sbomd_stream_failures_total/{print $2}')"
[ "${left:-0}" -ge 1 ] && ok || bad "sbomd_client_disconnects_total counts the client that left ($left)"
[ "${failed:-x}" = 0 ] && ok || bad "sbomd_stream_failures_total does not count the client that left ($failed)"
# huge method and path fields: the log lines stay valid JSON, cut with a marker
/usr/bin/python3 - "$port3" <<'PY'
import socket, sys
for line in (b"X" * 20000 + b" /v1/formats", b"GET /" + b'a"\\\x01\xc3\xa9' * 4000):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.settimeout(5)
    s.sendall(line + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    try:
        while s.recv(65536):
            pass
    except OSError:
        pass
PY
sleep 0.5
# every line of both logs parses; a cut stream (the short-deadline server's) is at level error
got="$(/usr/bin/python3 - "$work/log3" "$work/log2" <<'PY'
import json, sys
lines = [(f, l) for f in sys.argv[1:] for l in open(f, "rb").read().split(b"\n")[:-1]]
bad, cut, left, deadline = 0, 0, None, None
for f, l in lines:
    try:
        d = json.loads(l)
    except ValueError:
        bad += 1
        continue
    if d.get("msg") == "request":
        cut += sum("\u2026[truncated " in d.get(k, "") and len(d[k]) < 1100 for k in ("method", "path"))
        if f == sys.argv[1] and d.get("packages") == 20000:  # the only large document on this server
            left = d["level"] + ("/client_left" if d.get("client_left") else "/not marked")
        if d.get("stream_failed") and deadline != "info":
            deadline = d["level"]
print("%d invalid, %d fields cut, leaver at %s, cut streams at %s" % (bad, cut, left, deadline or "error"))
PY
)"
case "$got" in "0 invalid, 2 fields cut, leaver at info/client_left, cut streams at error") ok ;; *) bad "log lines: $got" ;; esac
kill "$pid3"; wait "$pid3" 2>/dev/null
# eight 8 MiB uploads at once against a budget that holds one (8 MiB x 5 =
# 40 MiB): each is answered (415 for the one read, 503 + Retry-After before
# the body for the rest, chunked ones once drained), and the peak RSS stays
# near one body's worth instead of eight
start_server "$work/log4" --max-body 8388608 --memory-budget 41943040 --quiet
pid3=$spid port4=$sport
head -c 8388608 /dev/urandom > "$work/8m.bin"
hwm0="$(awk '/VmHWM/{print $2}' /proc/$pid3/status)"
for i in 1 2 3 4 5 6; do
  curl -sS -o /dev/null -D "$work/bh$i" -w '%{http_code}\n' --data-binary @"$work/8m.bin" "http://127.0.0.1:$port4/v1/sbom" > "$work/b$i" &
done
for i in 7 8; do
  curl -sS -o /dev/null -w '%{http_code}\n' -H 'Transfer-Encoding: chunked' --data-binary @"$work/8m.bin" "http://127.0.0.1:$port4/v1/sbom" > "$work/b$i" &
done
wait $(jobs -p | grep -v "^$pid\$" | grep -v "^$pid3\$") 2>/dev/null
codes="$(cat "$work"/b[1-8] | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
n415="$(cat "$work"/b[1-8] | grep -c '^415$')"; n503="$(cat "$work"/b[1-8] | grep -c '^503$')"
[ $((n415 + n503)) = 8 ] && [ "$n503" -ge 1 ] && ok || bad "uploads past the memory budget: $codes"
grep -l '^HTTP/1.1 503' "$work"/bh* 2>/dev/null | head -1 | xargs -r grep -qiE '^retry-after: [2-5]' && ok || bad "a 503 for the budget carries Retry-After"
hwm1="$(awk '/VmHWM/{print $2}' /proc/$pid3/status)"
# the bound: three bodies' worth (8 MiB each) over the peak before, not eight
[ $((hwm1 - hwm0)) -lt 24576 ] && ok || bad "peak RSS grew by $((hwm1 - hwm0)) kB for 8 x 8 MiB uploads"
echo "hostile: 8 x 8 MiB uploads against a 40 MiB budget: $codes peak RSS +$((hwm1 - hwm0)) kB"
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$good" "http://127.0.0.1:$port4/v1/sbom")"
[ "$res" = 200 ] && ok || bad "a request after the budget was released: $res"
kill "$pid3"; wait "$pid3" 2>/dev/null
# the budget charges the model an input will build, estimated from the body
# once read (records counted x the reader's cost, sb_lock_estimate), before
# anything is built: a 490k-pin requirements.txt (~250 MB charged) against an
# 80 MiB budget is 413 without the peak RSS moving past the body; a 100k-pin
# one (~51 MB charged, 500 B a pin) is served alone, 503 + Retry-After while
# another holds its share, served again once that one is gone; the peak
# stays near the budget
start_server "$work/log5" --max-body 16777216 --memory-budget 83886080 --quiet
pid3=$spid port5=$sport
hwm0="$(awk '/VmHWM/{print $2}' /proc/$pid3/status)"
res="$(curl -sS -o "$work/p.json" -w '%{http_code} %{content_type}' --data-binary @"$work/bounds1/req-490k.requirements.txt" "http://127.0.0.1:$port5/v1/report/packages")"
if [ "$res" = "413 application/problem+json" ] && jq -e '.status == 413 and (.detail|test("memory budget"))' "$work/p.json" >/dev/null; then ok
else bad "490k pins against an 80 MiB budget: $res $(head -c 200 "$work/p.json")"; fi
hwm1="$(awk '/VmHWM/{print $2}' /proc/$pid3/status)"
[ $((hwm1 - hwm0)) -lt 20480 ] && ok || bad "the refused 490k pins still moved the peak RSS by $((hwm1 - hwm0)) kB"
echo "hostile: 490k pins (6.26 MB) against an 80 MiB budget: $res, peak RSS +$((hwm1 - hwm0)) kB"
got="$(/usr/bin/python3 - "$port5" "$work/bounds1/req-100k.requirements.txt" <<'PY'
import socket, subprocess, sys, time, urllib.request
port, path = int(sys.argv[1]), sys.argv[2]
body = open(path, "rb").read()
def charged():
    m = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=5).read().decode()
    return int([l.split()[1] for l in m.splitlines() if l.startswith("sbomd_memory_charged_bytes ")][0])
def post():
    out = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-D", "-", "-w", "%{http_code}", "--data-binary", "@" + path,
                          "http://127.0.0.1:%d/v1/sbom?filename=requirements.txt" % port], capture_output=True, text=True).stdout
    retry = [l for l in out.splitlines() if l.lower().startswith("retry-after:")]
    return out[-3:] + (" " + retry[0].strip() if retry else "")
idle = charged()  # what an idle server shows: the /metrics request's own charge
alone = post()
# the last byte of an answer reaches the client just before its request's
# charge is given back: wait for that, or A could meet alone's charge
t0 = time.time()
while charged() > idle and time.time() - t0 < 30:
    time.sleep(0.05)
# A: admitted, then held in flight by a client that does not read its document
a = socket.socket()
a.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
a.connect(("127.0.0.1", port))
a.sendall(b"POST /v1/sbom?filename=requirements.txt HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
t0 = time.time()
while charged() < 40 << 20 and time.time() - t0 < 30:  # a bound for the script, not an assertion
    time.sleep(0.1)
held = charged()
during = post()
a.close()
t0 = time.time()
while charged() > idle and time.time() - t0 < 30:
    time.sleep(0.1)
after = post()
print("alone %s, A holds %d MiB, during %s, after %s" % (alone, held >> 20, during, after))
PY
)"
case "$got" in "alone 200, A holds "[4-7]?" MiB, during 503 Retry-After: "[2-5]", after 200") ok ;; *) bad "100k pins against an 80 MiB budget: $got" ;; esac
hwm1="$(awk '/VmHWM/{print $2}' /proc/$pid3/status)"
# the budget plus 16 MiB: what the allocator keeps of a finished request while
# the next one (on another thread) builds its model (+46 to +71 MB measured
# with 50,000 pins at 1,000 B; +39 MB with 100,000 pins at 500 B)
[ $((hwm1 - hwm0)) -lt 98304 ] && ok || bad "peak RSS grew by $((hwm1 - hwm0)) kB, past the 80 MiB budget + 16 MiB"
echo "hostile: 100k pins (1.19 MB) against an 80 MiB budget: $got; peak RSS +$((hwm1 - hwm0)) kB"
kill "$pid3"; wait "$pid3" 2>/dev/null
# the budget must hold one max-body request (5x the body) the operator chose:
# else a config error; a max-body left at its default is lowered to fit
"$bin" --check-config --memory-budget 1000000 --max-body 8Mi > /dev/null 2> "$work/cc.err"; st=$?
[ "$st" = 2 ] && grep -q 'memory-budget 1000000 cannot hold one request of max-body' "$work/cc.err" && ok || bad "a budget below 5 x max-body: exit $st"
mb="$(SBOMD_MEMORY_BUDGET=41943040 "$bin" --check-config --max-body 8388608 | awk -F= '/^memory-budget=/{print $2}')"
[ "$mb" = 41943040 ] && ok || bad "SBOMD_MEMORY_BUDGET is the budget ($mb)"
mb="$("$bin" --check-config | awk -F= '/^memory-budget=/{print $2}')"
[ "${mb:-0}" -ge $((5 * 67108864)) ] && ok || bad "the derived budget holds one default max-body request ($mb)"
# ---- adm: every stopped request answered, one served, probes never budgeted ----
# four requests each needing about half of a 300 MiB budget (120,000
# components: 133 MB alone), on four threads so all build at once: one alone
# is served; of four, at least one is 200 and every other answer is
# 413/503/504 as problem+json (never 000), each within its deadline + 1 s,
# the peak within the budget + 64 MiB over idle; meanwhile /metrics and
# /healthz are answered while the budget is full; and a query of 500
# parameters is answered at once with a problem
python3 -c "
import json
json.dump({'bomFormat': 'CycloneDX', 'specVersion': '1.6', 'version': 1,
           'components': [{'type': 'library', 'name': 'c%d' % i} for i in range(120000)]}, open('$work/half.cdx.json', 'w'))"
start_server "$work/logh" --quiet --memory-budget 300Mi --threads 4 --request-timeout 30
pidh=$spid porth=$sport
hu="http://127.0.0.1:$porth"
st="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$work/half.cdx.json" "$hu/v1/sbom?filename=cdx.json")"
[ "$st" = 200 ] && ok || bad "one half-budget request alone: $st"
sleep 1
rssh="$(awk '/VmRSS/{print $2}' /proc/$pidh/status)"
hpids=""
for k in 1 2 3 4; do
  curl -sS -o "$work/h$k.out" -w '%{http_code} %{time_total} %{content_type}\n' --max-time 60 \
    --data-binary @"$work/half.cdx.json" "$hu/v1/sbom?filename=cdx.json" > "$work/h$k" 2>/dev/null &
  hpids="$hpids $!"
done
# the probes while the four hold the budget: never refused, never unanswered;
# 40 pairs at least, and on for as long as any of the four is in flight (a
# fixed count could end before the budget filled on a slower machine)
: > "$work/probes"
maxc=0 np=0
while [ "$np" -lt 40 ] || { [ "$np" -lt 1200 ] && kill -0 $hpids 2>/dev/null; }; do
  np=$((np + 1))
  curl -sS -o "$work/m.txt" -w '%{http_code}\n' --max-time 5 "$hu/metrics" >> "$work/probes" 2>/dev/null
  c="$(awk '/^sbomd_memory_charged_bytes /{print $2}' "$work/m.txt" 2>/dev/null)"
  [ "${c:-0}" -gt "$maxc" ] && maxc=$c
  curl -sS -o /dev/null -w '%{http_code}\n' --max-time 5 "$hu/healthz" >> "$work/probes" 2>/dev/null
  sleep 0.05
done
wait $(jobs -p | grep -v "^$pid\$" | grep -v "^$pidh\$") 2>/dev/null
hwmh="$(awk '/VmHWM/{print $2}' /proc/$pidh/status)"
codes="" n200=0
for k in 1 2 3 4; do
  read -r code secs ctype < "$work/h$k"
  codes="$codes${codes:+,}$code"
  [ "$code" = 200 ] && n200=$((n200 + 1))
  case "$code" in
    200) ok ;;
    413|503|504) [ "$ctype" = application/problem+json ] && jq -e --argjson s "$code" '.status == $s' "$work/h$k.out" > /dev/null && ok || bad "half-budget copy $k: $code without its problem ($ctype)" ;;
    *) bad "half-budget copy $k: status $code" ;;
  esac
  awk -v t="$secs" 'BEGIN { exit !(t <= 31) }' && ok || bad "half-budget copy $k took ${secs}s, past its 30 s deadline + 1 s"
done
[ "$n200" -ge 1 ] && ok || bad "four half-budget requests: none served ($codes)"
[ $((hwmh - rssh)) -le $(((300 + 64) * 1024)) ] && ok || bad "four half-budget requests: peak +$((hwmh - rssh)) kB over idle, past the budget + 64 MiB"
nprobe="$(grep -c . "$work/probes")"; nprobe_ok="$(grep -c '^200$' "$work/probes")"
[ "$nprobe" = $((2 * np)) ] && [ "$nprobe_ok" = "$nprobe" ] && ok || bad "/metrics and /healthz during the four: $nprobe_ok of $nprobe answered 200"
# the probes did run while the budget held at least one half-budget
# request (about 120 MiB; four at once reach 300 MiB when they overlap)
[ "$maxc" -ge $((100 << 20)) ] && ok || bad "the budget never held a half-budget request during the probes (at most $maxc bytes charged)"
echo "hostile: 4 x half.cdx.json against 300 MiB: $codes, peak +$((hwmh - rssh)) kB; probes $nprobe_ok/$nprobe 200 with up to $((maxc >> 20)) MiB charged"
q500="$(python3 -c "print('&'.join('x%d=1' % i for i in range(500)))")"
res="$(curl -sS -o "$work/q500.out" -w '%{http_code} %{time_total} %{content_type}' --max-time 15 --data-binary 'p==1.0' "$hu/v1/sbom?filename=requirements.txt&$q500")"
read -r code secs ctype <<< "$res"
case "$code" in 4[0-9][0-9]) ok ;; *) bad "500 query parameters: $res" ;; esac
[ "$ctype" = application/problem+json ] && ok || bad "500 query parameters: no problem ($res)"
awk -v t="$secs" 'BEGIN { exit !(t < 2) }' && ok || bad "500 query parameters answered after ${secs}s"
echo "hostile: 500 query parameters: $res"
kill "$pidh"; wait "$pidh" 2>/dev/null
# ---- end adm ----
# ---- adm: a set budget lowers a default max-body ----
mbody="$("$bin" --check-config --memory-budget 300Mi 2> /dev/null | awk -F= '/^max-body=/{print $2}')"
[ "$mbody" = $((300 * 1048576 / 5)) ] && ok || bad "--memory-budget 300Mi with the default max-body: max-body '$mbody', not lowered to 60 MiB"
# ---- end adm ----
# still serving, and memory back near where it started
res="$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$good" "$base/v1/sbom")"
[ "$res" = 200 ] && ok || bad "a valid request after the hostile ones: $res"
sleep 0.5
rss1="$(awk '/VmRSS/{print $2}' /proc/$pid/status)"
if [ "$rss1" -lt $((rss0 + 32768)) ]; then ok; echo "hostile: RSS ${rss0} kB before, ${rss1} kB after"; else bad "RSS grew from $rss0 kB to $rss1 kB"; fi
kill -0 "$pid" && ok || bad "the server died"
echo "hostile: $pass passed, $fail failed"
[ "$fail" = 0 ]
