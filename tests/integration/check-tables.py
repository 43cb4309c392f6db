#!/usr/bin/env python3
"""check-tables.py KIND JSON CSV MD - read a report's CSV with the csv module and
its Markdown table with a small GFM table reader, and hold both to the JSON
answer of the same request: the CSV header (the JSON row's keys), one row
per JSON row with the same names and values, RFC 4180 line ends, no cell
that a spreadsheet would read as a formula, a `## KIND (...)` heading, a
table whose rows all have the header's cell count, `### ` summaries.
Prints one line per failed expectation and exits 1 when any failed."""
import csv
import io
import json
import re
import sys

kind, jpath, cpath, mpath = sys.argv[1:5]
doc = json.load(open(jpath, encoding="utf-8"))
rows = doc[kind]
summary = doc["summary"]
policy = kind == "licenses" and "policy_violations" in summary
bad = []


def expect(cond, what):
    if not cond:
        bad.append(what)


# the JSON row's keys (openapi/reports.schema.json; check-schema.py holds every cell to the JSON)
HEADERS = {
    "packages": "environment,platform,name,version,kind,license,declared,scope,source,spdx,spdx_reason,"
    "license_family,license_source,license_files,purl,yanked,yanked_reason",
    "licenses": "environment,platform,name,version,kind,license,spdx,spdx_reason,license_family,"
    "license_source,license_files,purl",
    "python": "environment,platform,name,version,requires_python,satisfied,ceiling",
    "tree": "environment,platform,depth,name,version,kind,license,parent,repeat,purl",
}

raw = open(cpath, "rb").read()
expect(raw.endswith(b"\r\n") and b"\n" not in raw.replace(b"\r\n", b""), "CSV lines end in CRLF only")
table = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
header = HEADERS[kind].split(",") + (["policy", "license_violation", "license_exempt"] if policy else [])
expect(table and table[0] == header, f"CSV header {table[0] if table else None} != {header}")
body = table[1:]
expect(len(body) == len(rows), f"CSV has {len(body)} rows, JSON {len(rows)}")
name_key = "name"
for i, (c, j) in enumerate(zip(body, rows)):
    rec = dict(zip(header, c))
    expect(len(c) == len(header), f"CSV row {i}: {len(c)} cells")
    expect(rec[name_key] == j[name_key], f"CSV row {i}: {rec[name_key]!r} != {j[name_key]!r}")
    expect(rec["version"] == (j["version"] or ""), f"CSV row {i}: version")
    expect(rec["environment"] == summary["environment"] and rec["platform"] == summary["platform"],
           f"CSV row {i}: selection")
    if kind in ("licenses", "tree", "packages"):
        expect(rec["license"] == (j["license"] or ""), f"CSV row {i}: license")
    if kind == "licenses":
        expect(rec["spdx"] == ("true" if j["spdx"] else "false"), f"CSV row {i}: spdx")
        expect(rec["license_files"] == ";".join(j["license_files"]), f"CSV row {i}: license_files")
        if policy:
            expect(rec["license_violation"] == (j["license_violation"] or ""), f"CSV row {i}: violation")
    if kind == "tree":
        expect(rec["depth"] == str(j["depth"]) and rec["repeat"] == ("true" if j["repeat"] else "false"),
               f"CSV row {i}: depth/repeat")
    for cell in c:
        expect(not cell or (cell[0] not in "\t\r" and cell.lstrip(" \t\r\n")[:1] not in ("=", "+", "-", "@")),
               f"CSV row {i}: formula-like cell {cell!r}")


def md_cells(line):
    """GFM: split on | not escaped by a backslash; outer pipes dropped."""
    assert line.startswith("|") and line.endswith("|"), line
    cells, cur, k = [], "", 1
    while k < len(line) - 1:
        ch = line[k]
        if ch == "\\" and line[k + 1] == "|":
            cur += "|"
            k += 2
            continue
        if ch == "|":
            cells.append(cur.strip())
            cur = ""
        else:
            cur += ch
        k += 1
    cells.append(cur.strip())
    return cells


def md_text(cell):
    """A cell's text: a whole-cell code span (how sbomd writes a value that
    holds markup characters) unwrapped, one padding space each side dropped."""
    m = re.fullmatch(r"(`+)(.*?)\1", cell)
    if not m or "`" * len(m.group(1)) in m.group(2):
        return cell
    body = m.group(2)
    return body[1:-1] if len(body) > 1 and body[0] == " " and body[-1] == " " and body.strip() else body


md = open(mpath, encoding="utf-8").read().split("\n")
expect(re.fullmatch(rf"## {kind} \(.+, environment .+, platform .+\)", md[0]) is not None, f"MD heading {md[0]!r}")
expect(md[1] == "", "MD blank line after the heading")
head = md_cells(md[2])
expect(re.fullmatch(r"\|(---\|)+", md[3]) is not None and md[3].count("---") == len(head), "MD rule row")
trows = []
for line in md[4:]:
    if not line.startswith("|"):
        break
    trows.append(md_cells(line))
expect(len(trows) == len(rows), f"MD table has {len(trows)} rows, JSON {len(rows)}")
for i, (c, j) in enumerate(zip(trows, rows)):
    expect(len(c) == len(head), f"MD row {i}: {len(c)} cells, header {len(head)}")
    first = re.sub(r"^[\u2003 ]*[\u251c\u2514]\u2500 ", "", c[0]).removesuffix(" (*)") if kind == "tree" else c[0]
    first = md_text(first)
    expect(first == j[name_key], f"MD row {i}: {first!r} != {j[name_key]!r}")
if kind != "tree":
    expect(any(line.startswith("### Summary") for line in md), "MD has a ### Summary")
if policy:
    expect(any(line.startswith("### Policy violations") for line in md), "MD has ### Policy violations")
for b in bad:
    print(f"{kind}: {b}")
sys.exit(1 if bad else 0)
