#!/usr/bin/env bash
# run.sh - render deploy/base and every deploy/overlays/* offline with
# `kubectl kustomize` (Debian kubernetes-client, installed when no kubectl is
# present) and validate every object against the Kubernetes schemas (npm
# kubernetes-models) and the deployment's own rules (validate.mjs, with the
# overlay's name for its own rules). Ends with "N passed, N failed".
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
for dir in "$root/deploy/base" "$root"/deploy/overlays/*/; do
  dir="${dir%/}"; name="$(basename "$dir")"
  if kubectl kustomize "$dir" > "$work/$name.yaml" 2> "$work/$name.err"; then
    pass=$((pass + 1)); echo "deploy: $name: kubectl kustomize rendered $(grep -c '^kind:' "$work/$name.yaml") objects"
  else
    fail=$((fail + 1)); echo "  FAIL $name: kubectl kustomize"; cat "$work/$name.err"; continue
  fi
  node "$here/validate.mjs" "$work/$name.yaml" "$name" > "$work/$name.txt" 2>&1
  grep -v '^deploy: [0-9]* passed' "$work/$name.txt" | sed "s/^/$name: /" || true
  line="$(grep -o 'deploy: [0-9]* passed, [0-9]* failed' "$work/$name.txt")"
  if [ -n "$line" ]; then set -- $line; pass=$((pass + $2)); fail=$((fail + $4)); else fail=$((fail + 1)); fi
done
echo "deploy: $pass passed, $fail failed"
[ "$fail" = 0 ]
