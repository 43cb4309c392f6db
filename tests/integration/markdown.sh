#!/usr/bin/env bash
# markdown.sh BUILD_DIR - every Markdown output (each report kind, the
# licenses report under a policy, the diff / pull-request comment with and
# without its gate table) made from inputs whose package names, versions,
# licenses, workspace name and file name carry HTML, links, mentions, issue
# references, pipes, backslashes and backticks, rendered by a real GFM
# renderer (Debian's cmark-gfm, raw HTML let through) and read back by
# md-render.py: only the elements a report is made of, no link, no extra
# cell, the text intact. Then the CSV of the same inputs opened the way a
# spreadsheet would: no cell a formula. Ends with "markdown: N passed, N failed".
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
command -v cmark-gfm > /dev/null || { bad "cmark-gfm is not installed (scripts/install-deps)"; [ -n "${SB_KEEP:-}" ] && cp -r "$work" "$SB_KEEP"
sb_done markdown; exit; }
sb_start "$work/log" --source-date-epoch 1700000000

# --- the inputs: two CycloneDX documents, base and head -----------------------
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
names = ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "[x](javascript:alert(1))",
         "a\\|b", "a|b", "@scope/name", "#123", "a`b", "``x`", "_em_", "www.example.com", "*bold*"]
lics = ["<img src=x onerror=alert(2)>", "[l](javascript:alert(2))", "MIT\\|GPL", "MIT|GPL", "@owner", "#7",
        "x`y", "~~gone~~", "=HYPERLINK(\"http://x\")", "-1+1", "a;=1+1", "@SUM(A1)"]
def doc(root, comps, deps):
    return {"bomFormat": "CycloneDX", "specVersion": "1.6", "version": 1,
            "metadata": {"component": {"type": "application", "bom-ref": "root", "name": root, "version": "1"}},
            "components": comps, "dependencies": deps}
def comp(i, name, version, lic):
    return {"type": "library", "bom-ref": f"c{i}", "name": name, "version": version,
            "licenses": [{"license": {"name": lic}}]}
base = [comp(i, n, "1.0", lics[i]) for i, n in enumerate(names)]
head = [comp(i, n, "2.0<b>x</b>" if i % 2 else "1.0", lics[(i + 1) % len(lics)]) for i, n in enumerate(names[1:], 1)]
head.append(comp(99, "@added/pkg#1", "`1`", "[a](http://evil)"))
chain = lambda cs: [{"ref": "root", "dependsOn": [c["bom-ref"] for c in cs[:4]]}] + \
    [{"ref": cs[k]["bom-ref"], "dependsOn": [cs[k + 4]["bom-ref"]]} for k in range(len(cs) - 4)]
json.dump(doc("@org/app #1 <i>x</i>", base, chain(base)), open(f"{work}/base.cdx.json", "w"))
json.dump(doc("@org/app #1 <i>x</i>", head, chain(head)), open(f"{work}/head.cdx.json", "w"))
json.dump(names, open(f"{work}/names.json", "w"))
json.dump(lics, open(f"{work}/lics.json", "w"))
PY

render() { # render MD -> HTML beside it; cmark-gfm's exit status
  cmark-gfm --unsafe -e table -e autolink -e strikethrough "$1" > "${1%.md}.html"
}
# the upload's file name: markup, and a line break in the query
fname='%3Cb%3Elock%3C%2Fb%3E%20%40me%0D%0A%23%201.cdx.json'
post_md() { # post_md FILE PATH OUT -> the status
  curl -sS -o "$3" -w '%{http_code}' --data-binary @"$1" "$base$2"
}

# --- every report kind --------------------------------------------------------
named=()
for kind in packages licenses tree python quality explain; do
  q="output=markdown&filename=$fname"
  [ "$kind" = explain ] && q="$q&package=%40scope%2Fname"
  res="$(post_md "$work/base.cdx.json" "/v1/report/$kind?$q" "$work/$kind.md")"
  check "$kind markdown: 200 ($res)" [ "$res" = 200 ]
  check "$kind markdown: cmark-gfm renders it" render "$work/$kind.md"
  case "$kind" in packages|tree) named+=("+$work/$kind.html") ;; *) named+=("$work/$kind.html") ;; esac
done
res="$(post_md "$work/base.cdx.json" "/v1/report/licenses?output=markdown&deny-license=MIT&require-license=true" "$work/licpol.md")"
check "licenses under a policy, markdown: 200 ($res)" [ "$res" = 200 ]
check "licenses under a policy: cmark-gfm renders it" render "$work/licpol.md"
named+=("$work/licpol.html")

# --- the diff, the pull-request comment -----------------------------------------
for gate in "" "&fail-on=added,removed,upgraded,license-changed"; do
  out="$work/diff${gate:+-gated}.md"
  res="$(curl -sS -o "$out" -w '%{http_code}' -F "base=@$work/base.cdx.json;filename=<b>base @me #1.json" \
    -F "head=@$work/head.cdx.json;filename=head\`x\`.json" "$base/v1/diff?output=markdown$gate")"
  check "diff markdown${gate:+ gated}: answered ($res)" [ "$res" = 200 -o "$res" = 422 ]
  check "diff markdown${gate:+ gated}: cmark-gfm renders it" render "$out"
  named+=("+${out%.md}.html")
done
check "the gated diff lists the failing changes first" grep -q 'Failing the gate' "$work/diff-gated.md"

# --- what the renderer made of them ---------------------------------------------
check "names: no element but the report's, no link, no extra cell, each name intact" \
  python3 "$here/md-render.py" "$work/names.json" "${named[@]}"
check "licenses: the same, each license text intact in the licenses report" \
  python3 "$here/md-render.py" "$work/lics.json" "+$work/licenses.html" "+$work/packages.html"
# the file name and the workspace name: text, never markup, no line break
check "the heading names the workspace as code, not as markup" \
  grep -qF '<h2>packages (<code>@org/app #1 &lt;i&gt;x&lt;/i&gt;</code>' "$work/packages.html"
check "the diff names the files as code, their markup shown as text" \
  grep -qF '<code>&lt;b&gt;base @me #1.json</code>' "$work/diff.html"
check "explain names the package it was asked about as code" grep -qF "'<code>@scope/name</code>'" "$work/explain.html"

# --- CSV: no cell a spreadsheet would read as a formula -------------------------
res="$(post_md "$work/base.cdx.json" "/v1/report/packages?output=csv" "$work/packages.csv")"
check "packages csv: 200 ($res)" [ "$res" = 200 ]
check "csv: every cell that looks like a formula after leading whitespace is prefixed, every ';' cell quoted" \
  python3 - "$work/packages.csv" "$work/lics.json" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
lics = json.load(open(sys.argv[2], encoding="utf-8"))
raw = open(sys.argv[1], encoding="utf-8", newline="").read()
bad = [c for r in rows for c in r if c and (c[0] in "\t\r" or c.lstrip(" \t\r\n")[:1] in ("=", "+", "-", "@"))]
seen = {c.removeprefix("'") for r in rows for c in r}
missing = [l for l in lics if l not in seen]
unquoted = [l for l in lics if ";" in l and f'"{l}"' not in raw and f"\"'{l}\"" not in raw]
print("formula-like:", bad, "missing:", missing, "unquoted:", unquoted)
sys.exit(1 if bad or missing or unquoted else 0)
PY

[ -n "${SB_KEEP:-}" ] && cp -r "$work" "$SB_KEEP"
sb_done markdown
