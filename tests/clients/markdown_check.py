"""markdown_check.py FILE... — each Markdown summary is valid Markdown as a real parser
(Debian's python3-markdown, its `tables` extension) reads it: every line that starts
with '|' is a row of a table (none is split off a table, e.g. by a wrapped cell), every
row has its table's column count (a '|' inside a cell escaped), and every heading has
something under it before the next heading of the same or a higher level. Prints one
line per file; exit status 1 on any failure.
"""
import html.parser
import re
import sys

import markdown


class Tables(html.parser.HTMLParser):
    """The cell count of every row of every <table>, and the heading sequence."""

    def __init__(self):
        super().__init__()
        self.tables, self.row, self.depth = [], None, 0

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.row = 0
        elif tag in ("td", "th") and self.row is not None:
            self.row += 1

    def handle_endtag(self, tag):
        if tag == "tr" and self.row is not None:
            self.tables[-1].append(self.row)
            self.row = None


def check(path):
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    problems = []
    # table rows: Markdown lines starting with '|', in blocks
    md_rows = sum(1 for l in lines if l.startswith("|") and not re.match(r"^\|[-:| ]+\|$", l))
    p = Tables()
    p.feed(markdown.markdown(text, extensions=["tables", "fenced_code"]))
    html_rows = sum(len(t) for t in p.tables)
    if md_rows != html_rows:
        problems.append("%d table lines in the Markdown, %d table rows as parsed" % (md_rows, html_rows))
    # in the source too: a '|' not escaped splits a cell (the parser may drop the extra)
    block = None
    for n, l in enumerate(lines):
        if l.startswith("|"):
            cells = len(re.split(r"(?<!\\)\|", l)) - 2
            if block is None:
                block = cells
            elif cells != block:
                problems.append("line %d: %d cells in a table of %d columns" % (n + 1, cells, block))
        else:
            block = None
    for i, t in enumerate(p.tables):
        bad = [n for n in t if n != t[0]]
        if bad:
            problems.append("table %d: rows of %s cells under a header of %d" % (i + 1, sorted(set(bad)), t[0]))
    # headings with nothing under them
    heads = [(i, len(m.group(1))) for i, l in enumerate(lines) for m in [re.match(r"^(#+) ", l)] if m]
    for k, (i, level) in enumerate(heads):
        end = next((j for j, lv in heads[k + 1:] if lv <= level), len(lines))
        if not any(l.strip() for l in lines[i + 1:end]):
            problems.append("heading on line %d has nothing under it" % (i + 1))
    return problems, len(p.tables), html_rows


def main():
    failed = 0
    for path in sys.argv[1:]:
        problems, ntables, nrows = check(path)
        if problems:
            failed += 1
            for pr in problems:
                print("FAIL %s: %s" % (path, pr))
        else:
            print("ok %s: %d tables, %d rows" % (path, ntables, nrows))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
