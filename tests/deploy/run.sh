#!/usr/bin/env bash
# run.sh - render deploy/base, every subset of deploy/components (all 32,
# each through a generated temporary kustomization listing them) and every
# deploy/overlays/* offline with `kubectl kustomize` (Debian
# kubernetes-client, installed when no kubectl is present), and validate
# every object against the Kubernetes schemas (npm kubernetes-models; the
# PodMonitor against prometheus-operator's CRD schema,
# @kubernetes-models/prometheus-operator) and the deployment's own rules
# (validate.mjs, told which components are in). Also checks that a changed
# setting renames the generated ConfigMap (the pods roll), and, as root,
# that sbomd (BUILD_DIR, default build/release) started as the pod's user
# reads the tokens Secret as the kubelet writes it. Ends with
# "N passed, N failed".
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! command -v kubectl >/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends kubernetes-client; } > "$work/apt.log" 2>&1 \
    || { tail -5 "$work/apt.log"; echo "0 passed, 1 failed"; exit 1; }
fi
if [ ! -d "$here/node_modules/kubernetes-models" ] || [ ! -d "$here/node_modules/@kubernetes-models/prometheus-operator" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) > "$work/npm.log" 2>&1 || { cat "$work/npm.log"; echo "0 passed, 1 failed"; exit 1; }
fi
pass=0 fail=0
check() { # what, command...: one printed line either way
  local what="$1"; shift
  if "$@"; then pass=$((pass + 1)); echo "deploy: $what"; else fail=$((fail + 1)); echo "  FAIL $what"; fi
}
# render DIR NAME COMPONENTS: kubectl kustomize, then validate.mjs
render() {
  local dir="$1" name="$2" comps="$3" out="$work/$2.yaml"
  if kubectl kustomize "$dir" > "$out" 2> "$work/$name.err"; then
    pass=$((pass + 1)); echo "deploy: $name: kubectl kustomize rendered $(grep -c '^kind:' "$out") objects"
  else
    fail=$((fail + 1)); echo "  FAIL $name: kubectl kustomize"; cat "$work/$name.err"; return
  fi
  node "$here/validate.mjs" "$out" "$name" "$comps" > "$work/$name.txt" 2>&1
  grep -v '^deploy: [0-9]* passed' "$work/$name.txt" | sed "s/^/$name: /" || true
  local line; line="$(grep -o 'deploy: [0-9]* passed, [0-9]* failed' "$work/$name.txt")"
  if [ -n "$line" ]; then set -- $line; pass=$((pass + $2)); fail=$((fail + $4)); else fail=$((fail + 1)); fi
}
render "$root/deploy/base" base ""
# every subset of the components, by a bit mask over their names
all=(auth lookups vulns redis monitoring)
for mask in $(seq 0 $(( (1 << ${#all[@]}) - 1 ))); do
  list=() name=""
  for i in "${!all[@]}"; do [ $(( mask >> i & 1 )) = 1 ] && list+=("${all[$i]}"); done
  name="components=$(IFS=+; echo "${list[*]:-none}")"
  mkdir -p "$work/k$mask"
  # kustomize takes no absolute paths: relative ones from the temporary dir
  rel="$(realpath --relative-to="$work/k$mask" "$root/deploy")"
  { echo "apiVersion: kustomize.config.k8s.io/v1beta1"; echo "kind: Kustomization"
    echo "resources: [$rel/base]"; echo "components:"
    for c in "${list[@]}"; do echo "  - $rel/components/$c"; done
    [ ${#list[@]} = 0 ] && echo "  []"; } > "$work/k$mask/kustomization.yaml"
  render "$work/k$mask" "$name" "$(IFS=,; echo "${list[*]}")"
done
# the example overlays, with the components each lists
for dir in "$root"/deploy/overlays/*/; do
  dir="${dir%/}"
  comps="$(sed -n 's|^ *- .*components/\([a-z]*\)/*$|\1|p' "$dir/kustomization.yaml" | paste -sd, -)"
  render "$dir" "overlay=$(basename "$dir")" "$comps"
done
# the registry overlay points the Deployment at what docs/deploy.md pushes:
# the push line's destination is the overlay's newName:newTag, and nothing
# of the local build's tag is left in the rendered objects
reg="$(sed -n 's/^ *newName: //p' "$root/deploy/overlays/registry/kustomization.yaml"):$(sed -n 's/^ *newTag: "*\([^"]*\)"*$/\1/p' "$root/deploy/overlays/registry/kustomization.yaml")"
check "overlay=registry renders the Deployment's image as $reg" grep -q "^ *image: $reg\$" "$work/overlay=registry.yaml"
check "overlay=registry leaves no localhost/ image" sh -c "! grep -q 'image: localhost/' '$work/overlay=registry.yaml'"
check "docs/deploy.md pushes localhost/sbomd:dev to the overlay's image ($reg)" \
  grep -qF "buildah push localhost/sbomd:dev docker://$reg" "$root/docs/deploy.md"
check "docs/deploy.md applies the overlay with kubectl alone (no kustomize binary)" \
  sh -c "grep -q 'kubectl apply -k deploy/overlays/registry' '$root/docs/deploy.md' && ! grep -q 'kustomize edit' '$root/docs/deploy.md' '$root/deploy/overlays/pinned/kustomization.yaml'"
# the tokens Secret as the kubelet writes it, read by the user the pod runs
# as: no schema sees a file the process cannot open. The kubelet makes the
# file root-owned with the volume's defaultMode; with a pod fsGroup it
# gives the file that group (adding group read) and the process that
# supplementary group. Needs root to chown and to change user; the binary
# is BUILD_DIR's sbomd (default build/release).
secret_start() { # secret_start LOG UID GID GROUPS FILE: sbomd as UID, 0 when it serves
  local log="$1" u="$2" g="$3" grps="$4" f="$5" p=""
  setpriv --reuid="$u" --regid="$g" --groups="$grps" --inh-caps=-all \
    "$bin" --listen 127.0.0.1 --port 0 --tokens-file "$f" 2> "$log" &
  spid=$!
  for _ in $(seq 1 100); do
    p="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' | head -1)"
    [ -n "$p" ] && break; kill -0 "$spid" 2>/dev/null || break; sleep 0.1
  done
  sport="$p"
  [ -n "$p" ]
}
bin="$(cd "$root" && realpath -m "${1:-build/release}")/sbomd"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
  fail=$((fail + 1)); echo "  FAIL the tokens Secret as uid 10001 reads it: needs root and setpriv (run as root)"
elif [ ! -x "$bin" ]; then
  fail=$((fail + 1)); echo "  FAIL the tokens Secret as uid 10001 reads it: no $bin (make first)"
else
  for name in components=auth overlay=auth; do
    read -r uid gid fsg mode mnt tf < <(node "$here/secret-file.mjs" "$work/$name.yaml")
    sdir="$work/secret-$name"; mkdir -p "$sdir"; chmod 0755 "$work" "$sdir"
    sf="$sdir/$(basename "$tf")"
    printf 'ci-token-1\n' > "$sf"; chown 0:0 "$sf"; chmod "$mode" "$sf"
    grps="$gid"
    if [ "$fsg" != - ]; then chgrp "$fsg" "$sf"; chmod g+r "$sf"; grps="$gid,$fsg"; fi
    what="$name: sbomd as uid $uid (groups $grps) starts on the tokens Secret written $(stat -c '%u:%g %a' "$sf")"
    if secret_start "$work/secret-$name.log" "$uid" "$gid" "$grps" "$sf"; then
      pass=$((pass + 1)); echo "deploy: $what"
      code="$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer ci-token-1' "http://127.0.0.1:$sport/v1/version")"
      check "$name: the Secret's token is accepted ($code)" test "$code" = 200
      code="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$sport/v1/version")"
      check "$name: no token is refused ($code)" test "$code" = 401
    else
      fail=$((fail + 1)); echo "  FAIL $what"; sed 's/^/    /' "$work/secret-$name.log" | tail -3
    fi
    kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
  done
  # the failure the fix avoids, shown so that its message stays readable: a
  # root:root 0440 file is unreadable to uid 10001 and sbomd says so
  sf="$work/secret-rootonly"; printf 'x\n' > "$sf"; chown 0:0 "$sf"; chmod 0440 "$sf"
  secret_start "$work/secret-rootonly.log" 10001 10001 10001 "$sf"; st=$?
  kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
  check "a root:root 0440 tokens file as uid 10001: refused at start, naming the user, the owner and fsGroup" \
    sh -c "[ $st != 0 ] && grep -q 'Permission denied (sbomd runs as uid 10001 gid 10001, the file is 0:0 mode 440; .*fsGroup' '$work/secret-rootonly.log'"
fi
# the monitoring component's alerts and dashboard: the PrometheusRule is
# what `promtool check rules` accepts, and every metric the rules and the
# dashboard's panels name is one a running sbomd exports (a renamed metric
# would leave an alert that never fires and a panel that stays empty)
mon="$work/overlay=monitoring.yaml" dash="$root/deploy/components/monitoring/sbomd-dashboard.json"
if node "$here/rules.mjs" "$mon" "$work/rules.yaml" "$work/exprs.txt" "$dash" 2> "$work/rules.err"; then
  check "the PrometheusRule passes promtool check rules ($(promtool check rules "$work/rules.yaml" 2>&1 | grep -o 'SUCCESS: [0-9]* rules found' || echo failed))" \
    sh -c "promtool check rules '$work/rules.yaml' > '$work/promtool.txt' 2>&1"
  check "the dashboard is JSON with panels, each with a query" \
    sh -c "jq -e '(.panels | length) > 0 and all(.panels[]; (.targets | length) > 0 and all(.targets[]; .expr | length > 0))' '$dash' > /dev/null"
  check "the dashboard has a panel for every alert (its title names the alert)" \
    sh -c "for a in \$(sed -n 's/^ *- alert: //p' '$root/deploy/components/monitoring/prometheusrule.yaml'); do jq -e --arg a \"\$a\" 'any(.panels[]; .title | contains(\$a))' '$dash' > /dev/null || { echo \"no panel for \$a\"; exit 1; }; done"
  if [ -x "$bin" ]; then
    "$bin" --listen 127.0.0.1 --port 0 2> "$work/mon.log" & mpid=$!
    mport=""
    for _ in $(seq 1 50); do mport="$(grep -o '"detail":"http://127.0.0.1:[0-9]*' "$work/mon.log" | grep -o '[0-9]*$' | head -1)"; [ -n "$mport" ] && break; sleep 0.1; done
    # one document so the histogram's /v1/sbom series exist too
    curl -sS -o /dev/null --data-binary @"$root/examples/pixi-pypi/pixi.lock" "http://127.0.0.1:$mport/v1/sbom?filename=pixi.lock"
    curl -sS "http://127.0.0.1:$mport/metrics" > "$work/scrape.txt"
    kill "$mpid" 2>/dev/null; wait "$mpid" 2>/dev/null
    sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' "$work/scrape.txt" | sort -u > "$work/families.txt"
    grep -o 'sbomd_[a-z_]*\|process_[a-z_]*' "$work/exprs.txt" | sort -u | while read -r name; do
      fam="$(echo "$name" | sed 's/_\(bucket\|sum\|count\)$//')"
      if grep -qx "$fam" "$work/families.txt"; then echo "ok $name"; else echo "MISSING $name"; fi
    done > "$work/names.txt"
    check "every metric the rules and dashboard name is exported ($(grep -c '^ok' "$work/names.txt") names; missing: $(grep '^MISSING' "$work/names.txt" | cut -d' ' -f2 | paste -sd, -))" \
      sh -c "! grep -q '^MISSING' '$work/names.txt' && grep -q '^ok' '$work/names.txt'"
    check "every label value the rules select on exists: route=\"/v1/sbom\",status=\"200\" in the histogram" \
      grep -q '^sbomd_request_duration_seconds_bucket{route="/v1/sbom",status="200",le=' "$work/scrape.txt"
  else
    fail=$((fail + 1)); echo "  FAIL the metrics the rules name: no $bin (make first)"
  fi
else
  fail=$((fail + 1)); echo "  FAIL overlay=monitoring renders no PrometheusRule: $(cat "$work/rules.err")"
fi
# a changed setting is a new ConfigMap name in the pod template (the pods
# roll); the same settings keep the name (nothing rolls for nothing)
cm() { grep -A1 'configMapRef:' "$1" | sed -n 's/^ *name: //p'; }
cp -r "$root/deploy" "$work/changed"
sed -i 's/^SBOMD_MAX_REQUESTS=.*/SBOMD_MAX_REQUESTS=63/' "$work/changed/base/sbomd.env"
kubectl kustomize "$work/changed/base" > "$work/changed.yaml" 2>&1
kubectl kustomize "$root/deploy/base" > "$work/again.yaml" 2>&1
b="$(cm "$work/base.yaml")" c="$(cm "$work/changed.yaml")" a="$(cm "$work/again.yaml")"
check "a changed SBOMD_MAX_REQUESTS renames the ConfigMap the Deployment refers to ($b -> $c)" \
  test -n "$b" -a -n "$c" -a "$b" != "$c"
check "the same settings render the same ConfigMap name ($b, $a)" test -n "$a" -a "$a" = "$b"
n="$(ls "$work"/components=*.yaml | xargs -n1 sh -c 'grep -A1 configMapRef: "$0" | sed -n "s/^ *name: //p"' | sort -u | wc -l)"
check "the 32 component subsets render 16 ConfigMap names ($n: monitoring adds no setting)" test "$n" = 16
echo "deploy: $pass passed, $fail failed"
[ "$fail" = 0 ]
