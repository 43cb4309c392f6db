#!/usr/bin/env python3
"""md-render.py PAYLOADS [+]HTML... - read what cmark-gfm (--unsafe, the table,
autolink and strikethrough extensions) made of sbomd's Markdown and fail
unless it holds only the elements a report is made of, no link or image, no
table row with more or fewer cells than its header, no text GitHub would
turn into a mention or an issue reference (those live in text outside code
and links), and every payload of PAYLOADS (a JSON list) intact as the whole
text of a table cell or a code span (for the files named with a leading
'+': the reports that list every package by name). An independent reading: Python's HTML
parser over cmark-gfm's output, nothing of sbomd's."""
import json
import re
import sys
from html.parser import HTMLParser

ALLOWED = {"h2", "h3", "p", "table", "thead", "tbody", "tr", "th", "td", "code", "strong", "details", "summary",
           "ul", "li", "br"}
MENTION = re.compile(r"(?:^|[^\w`])@[A-Za-z0-9]")
ISSUE = re.compile(r"(?:^|[^\w&])#[0-9]")


class Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.bad, self.stack, self.tables, self.spans, self.cells = [], [], [], [], []
        self.code = self.cell = None

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED:
            self.bad.append(f"element <{tag}> {attrs}")
        if attrs and tag not in ("td", "th"):
            self.bad.append(f"attributes on <{tag}>: {attrs}")
        if tag == "table":
            self.tables.append([])
        if tag == "tr":
            self.tables[-1].append(0)
        if tag in ("td", "th"):
            self.tables[-1][-1] += 1
            self.cell = ""
        if tag == "code":
            self.code = ""
        if tag != "br":
            self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack[-1] != tag:
            self.stack.pop()
        if self.stack:
            self.stack.pop()
        if tag == "code" and self.code is not None:
            self.spans.append(self.code)
            self.code = None
        if tag in ("td", "th") and self.cell is not None:
            self.cells.append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.code is not None:
            self.code += data
            return
        for pat, what in ((MENTION, "mention"), (ISSUE, "issue reference")):
            if pat.search(data):
                self.bad.append(f"{what} in text outside code: {data!r}")


payloads = json.load(open(sys.argv[1], encoding="utf-8"))
bad = 0
for arg in sys.argv[2:]:
    want, path = arg.startswith("+"), arg.lstrip("+")
    r = Reader()
    r.feed(open(path, encoding="utf-8").read())
    problems = list(r.bad)
    # every row of a table as wide as its header row: no cell added or lost
    for k, widths in enumerate(r.tables):
        if len(set(widths)) != 1:
            problems.append(f"table {k}: rows of {sorted(set(widths))} cells")
    if not r.tables:
        problems.append("no table")
    texts = set(r.spans) | {c.strip() for c in r.cells}
    for p in payloads if want else ():
        if p not in texts:
            problems.append(f"payload {p!r} not found intact as a cell or a code span")
    for p in problems:
        print(f"{path}: {p}")
    bad += bool(problems)
    if not problems:
        print(f"{path}: clean ({len(r.tables)} tables, {len(r.spans)} code spans)")
sys.exit(1 if bad else 0)
