#!/usr/bin/python3
"""diff-outputs.py ANSWER.json ANSWER.md ANSWER.csv ANSWER.txt - the Markdown,
CSV and text outputs of one /v1/diff request read back by parsers (Python's
csv module; a reader of the Markdown shape below) and compared with the JSON
answer of the same request. Prints "ok" or every difference (exit 1).

Markdown: a first line `**sbomd diff:** <counts> (<n> unchanged)` or
`**sbomd diff:** no changes (<n> unchanged)`, then per change kind present
`<details><summary>Title (N)</summary>`, a blank line, a table
`| Kind | Name | Before | After |` with N rows (`\\|` is an escaped bar, a value holding markup characters a code span),
and `</details>`.
"""
import csv
import json
import re
import sys

TITLES = {"added": "Added", "removed": "Removed", "upgraded": "Upgraded", "downgraded": "Downgraded",
          "license-changed": "License changed", "source-changed": "Source changed",
          "hash-changed": "Hash changed", "scope-changed": "Scope changed"}
HEADER = ["environment", "platform", "change", "kind", "name", "base_version", "head_version", "base_license", "head_license",
          "base_source", "head_source", "purl", "base_hash", "head_hash", "base_scope", "head_scope", "direct"]


def before_after(r):
    field = {"license-changed": "license", "source-changed": "source", "hash-changed": "hash",
             "scope-changed": "scope"}.get(r["change"], "version")
    b, a = r["base_" + field] or "-", r["head_" + field] or "-"
    return ("-" if r["change"] == "added" else b), ("-" if r["change"] == "removed" else a)


def md_cells(line):
    assert line.startswith("| ") and line.endswith(" |"), line
    cells = re.split(r"(?<!\\) \| ", line[2:-2])
    return [md_text(c.replace("\\|", "|")) for c in cells]


def md_text(cell):
    """A whole-cell code span (a value holding markup characters) unwrapped,
    one padding space each side dropped."""
    m = re.fullmatch(r"(`+)(.*?)\1", cell)
    if not m or "`" * len(m.group(1)) in m.group(2):
        return cell
    body = m.group(2)
    return body[1:-1] if len(body) > 1 and body[0] == " " and body[-1] == " " and body.strip() else body


def check_md(doc, text, errs):
    lines = text.split("\n")
    s = doc["summary"]
    m = re.match(r"^\*\*sbomd diff:\*\* (.*) \((\d+) unchanged\)$", lines[0])
    if not m:
        errs.append("markdown: first line %r" % lines[0])
        return
    if int(m.group(2)) != s["unchanged"]:
        errs.append("markdown: unchanged %s != %d" % (m.group(2), s["unchanged"]))
    if doc["diff"]:
        counts = dict((k, int(n)) for n, k in re.findall(r"(\d+) ([a-z ]+?)(?:,|$)", m.group(1)))
        for c in TITLES:
            key = c.replace("-changed", " changed")
            if counts.get(key) != s[c.replace("-", "_")]:
                errs.append("markdown: summary line says %s %s" % (key, counts.get(key)))
    elif m.group(1) != "no changes":
        errs.append("markdown: no rows but %r" % m.group(1))
    rows, i, sections = [], 0, []
    while i < len(lines):
        sm = re.match(r"^<details><summary>(.+) \((\d+)\)</summary>$", lines[i])
        if not sm:
            i += 1
            continue
        title, n = sm.group(1), int(sm.group(2))
        change = [c for c, t in TITLES.items() if t == title]
        if not change or lines[i + 1] != "" or md_cells(lines[i + 2]) != ["Kind", "Name", "Before", "After"] \
                or lines[i + 3] != "|---|---|---|---|":
            errs.append("markdown: section %r is not shaped as expected" % title)
            return
        j = i + 4
        body = []
        while lines[j].startswith("| "):
            body.append([change[0]] + md_cells(lines[j]))
            j += 1
        if len(body) != n or lines[j] != "" or lines[j + 1] != "</details>":
            errs.append("markdown: section %s has %d rows for %d, then %r" % (title, len(body), n, lines[j:j + 2]))
        sections.append(change[0])
        rows += body
        i = j
    want = [[r["change"], r["kind"], r["name"], *before_after(r)] for r in doc["diff"]]
    if rows != want:
        errs.append("markdown: %d rows differ from the JSON's %d" % (len(rows), len(want)))
    if sections != sorted(set(sections), key=list(TITLES).index):
        errs.append("markdown: sections out of order: %s" % sections)


def check_csv(doc, raw, errs):
    if b"\r\n" not in raw and doc["diff"]:
        errs.append("csv: lines do not end in CRLF")
    rows = list(csv.reader(raw.decode("utf-8").splitlines()))
    if rows[0] != HEADER:
        errs.append("csv: header %s" % rows[0])
    want = [[("true" if r[k] else "false") if k == "direct" else (r[k] or "") for k in HEADER] for r in doc["diff"]]
    # formula-safe cells come back with their ' prefix
    got = [[c[1:] if c.startswith("'") and c[1:2] in "=+-@" else c for c in row] for row in rows[1:]]
    if got != want:
        errs.append("csv: %d rows differ from the JSON's %d" % (len(got), len(want)))


def check_text(doc, text, errs):
    lines = text.split("\n")
    if lines[0].split() != ["Change", "Kind", "Name", "Before", "After"]:
        errs.append("text: header %r" % lines[0])
    n = len(doc["diff"])
    body = lines[2:2 + n]
    for line, r in zip(body, doc["diff"]):
        if line.split()[:3] != [r["change"], r["kind"], r["name"]]:
            errs.append("text: row %r for %s %s" % (line, r["change"], r["name"]))
            break
    if not lines[3 + n].startswith("Summary: "):
        errs.append("text: no summary after the rows: %r" % lines[3 + n])


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    errs = []
    with open(sys.argv[2], encoding="utf-8") as f:
        check_md(doc, f.read(), errs)
    with open(sys.argv[3], "rb") as f:
        check_csv(doc, f.read(), errs)
    with open(sys.argv[4], encoding="utf-8") as f:
        check_text(doc, f.read(), errs)
    for e in errs:
        print(e)
    if errs:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
