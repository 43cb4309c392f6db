#!/usr/bin/env bash
# run.sh - render deploy/base and each deploy/overlays/* offline with `kubectl kustomize` (Debian
# kubernetes-client, installed when no kubectl is present) and validate every
# object against the Kubernetes schemas (npm kubernetes-models) and the
# deployment's own rules. Ends with "N passed, N failed".
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
if [ ! -d "$here/node_modules/kubernetes-models" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) > "$work/npm.log" 2>&1 || { cat "$work/npm.log"; echo "0 passed, 1 failed"; exit 1; }
fi
pass=0 fail=0
# the base, then every overlay (deploy/overlays/*), each rendered and validated
for dir in "$root/deploy/base" "$root"/deploy/overlays/*/; do
  dir="${dir%/}"; name="${dir#"$root"/deploy/}"
  if kubectl kustomize "$dir" > "$work/rendered.yaml" 2> "$work/kustomize.err"; then
    pass=$((pass + 1)); echo "deploy: kubectl kustomize $name rendered $(grep -c '^kind:' "$work/rendered.yaml") objects"
  else
    fail=$((fail + 1)); echo "  FAIL kubectl kustomize $name"; cat "$work/kustomize.err"; continue
  fi
  node "$here/validate.mjs" "$work/rendered.yaml" > "$work/validate.txt" 2>&1
  grep -v '^deploy: [0-9]* passed' "$work/validate.txt" | sed "s#FAIL #FAIL [$name] #" || true
  line="$(grep -o 'deploy: [0-9]* passed, [0-9]* failed' "$work/validate.txt")"
  if [ -n "$line" ]; then set -- $line; pass=$((pass + $2)); fail=$((fail + $4)); else fail=$((fail + 1)); fi
done
echo "deploy: $pass passed, $fail failed"
[ "$fail" = 0 ]
