#!/usr/bin/env python3
"""check-schema.py SCHEMA KIND JSON CSV [repository] [policy] - hold one report's JSON and CSV
answers (the same request) to openapi/reports.schema.json, the one schema a
dashboard maps every report with (issue 40): the JSON validates against
$defs/KIND_report; every JSON row's keys, in order, are the schema's columns
(the row's `required`; licenses under a policy: licenses_policy_row); the
CSV header is those columns; one CSV line per JSON row whose cells are the
JSON values as the schema's description says (null empty, true/false,
arrays joined with ';', quality's reasons as key=count, first_lacking as
name[ version]); environment and platform on every row, the summary's;
summary.incomplete present. `repository`: the report of an archive, whose
rows have the lockfile column after platform (a single lockfile's have
none). KIND diff is /v1/diff's answer: its rows' environment and platform
are the head's (summary.head), and with `policy` (the request had a
license policy) its rows are diff_policy_row. Prints one line per failed
expectation (at most
a few per kind) and exits 1 when any failed."""
import csv
import io
import json
import sys

import jsonschema

spath, kind, jpath, cpath = sys.argv[1:5]
repository = "repository" in sys.argv[5:]
asked_policy = "policy" in sys.argv[5:]
schema = json.load(open(spath, encoding="utf-8"))
doc = json.load(open(jpath, encoding="utf-8"))
raw = open(cpath, "rb").read().decode("utf-8")
bad = []


def expect(cond, what):
    if not cond and len(bad) < 8:
        bad.append(what)


errs = list(jsonschema.Draft202012Validator(
    {"$defs": schema["$defs"], "$ref": f"#/$defs/{kind}_report"}).iter_errors(doc))
for e in errs[:3]:
    expect(False, f"JSON does not validate: {'/'.join(map(str, e.absolute_path))}: {e.message[:160]}")
rows = doc.get(kind, [])
summary = doc.get("summary", {})
expect(isinstance(summary.get("incomplete"), list), "summary.incomplete missing")
policy = (kind == "licenses" and "policy_violations" in summary) or (kind == "diff" and asked_policy)
cols = schema["$defs"][f"{kind}_policy_row" if policy else f"{kind}_row"]["required"]
# the selection the rows are of: the summary's, the head's for a diff
sel = summary.get("head", {}) if kind == "diff" else summary
table = list(csv.reader(io.StringIO(raw, newline="")))
expect(cols[:2] == ["environment", "platform"], "schema columns start with environment, platform")
# a repository's report: the lockfile column after environment and platform
# (a property of every row schema, required of none)
if repository:
    cols = cols[:2] + ["lockfile"] + cols[2:]
expect(bool(table) and table[0] == cols, f"CSV header {table[0] if table else None} != schema columns {cols}")
body = table[1:]
expect(len(body) == len(rows), f"CSV has {len(body)} rows, JSON {len(rows)}")


def cell(v):
    """A JSON value as its CSV cell (reports.schema.json's description)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return ";".join(f"{k}={n}" for k, n in v.items())
    if isinstance(v, list):
        return ";".join(x if isinstance(x, str) else x["name"] + (" " + x["version"] if x.get("version") else "")
                        for x in v)
    return str(v)


for i, j in enumerate(rows):
    expect(list(j.keys()) == cols, f"JSON row {i} keys {list(j.keys())} != {cols}")
    expect(j.get("environment") and j.get("environment") == sel.get("environment")
           and j.get("platform") and j.get("platform") == sel.get("platform"), f"JSON row {i}: environment/platform")
    if i >= len(body):
        continue
    c = body[i]
    expect(len(c) == len(cols), f"CSV row {i}: {len(c)} cells, {len(cols)} columns")
    for name, got in zip(cols, c):
        want = cell(j.get(name))
        if isinstance(j.get(name), float):
            same = got != "" and float(got) == j[name]
        else:
            same = got in (want, "'" + want)  # a formula-like cell is quoted with '
        expect(same, f"CSV row {i} {name}: {got!r} != JSON {want!r}")
for b in bad:
    print(f"{kind}: {b}")
sys.exit(1 if bad else 0)
