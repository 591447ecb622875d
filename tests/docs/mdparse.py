"""Just enough Markdown for the docs checker: headings, fenced blocks, column tables.

A column table is a pipe table whose header's first cell is `column`; its rows give
column names (comma-separated, backticks optional), `type`, `unit` and `meaning`.
A heading names objects by its code spans (`` `kernel_summary` ``, a family
`` `roofline_<sheet>` ``) or, without code spans, by being one bare word (`## traces`)
or by words with an underscore. It names a function by `name(` in a code span (or in
the bare text), or by its bare name alone (a code span, or the whole heading).
"""
import os
import re

IDENT = re.compile(r"^[A-Za-z_][\w<>]*$")
CALL = re.compile(r"([A-Za-z_]\w*)\s*\(")


def split_cells(line):
    """Cells of a table row; `|` inside backticks or escaped as \\| does not split."""
    cells, cur, code, i = [], "", False, 0
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if ch == "`":
            code = not code
        if ch == "|" and not code:
            cells.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    cells.append(cur.strip())
    return cells


def split_names(cell):
    out, cur, code = [], "", False
    for ch in cell:
        if ch == "`":
            code = not code
            continue
        if ch == "," and not code:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return [n for n in out if n]


class Row:
    def __init__(self, line, cells, header):
        self.line = line
        get = {h: (cells[i] if i < len(cells) else "") for i, h in enumerate(header)}
        self.names = split_names(cells[0])
        self.type = get.get("type", "")
        self.unit = get.get("unit", "")
        self.meaning = get.get("meaning", "")


class Block:
    def __init__(self, line, info, code, end):
        words = info.split()
        self.line = line
        self.end = end
        self.lang = words[0] if words else ""
        self.tags = set(words[1:])
        self.code = code
        self.expected = None
        self.runnable = self.lang == "sql" and "norun" not in self.tags


class Heading:
    def __init__(self, line, level, text):
        self.line = line
        self.level = level
        self.text = text
        self.column_rows = None
        spans = re.findall(r"`([^`]+)`", text)
        self.function_calls = set()
        names = []
        if spans:
            for s in spans:
                m = CALL.match(s.strip())
                if m:
                    self.function_calls.add(m.group(1))
                elif IDENT.match(s.strip()):
                    names.append(s.strip())
        else:
            self.function_calls = set(re.findall(r"\b([a-z_][a-z0-9_]*)\(", text))
            words = re.findall(r"[A-Za-z_][\w<>]*", re.sub(r"\([^)]*\)", "", text))
            if len(words) == 1:
                names = words
            else:
                names = [w for w in words if "_" in w]
        self.object_names = names
        # a function is also named by its bare name: a code span, or the whole heading
        if spans:
            self.bare_words = {x.strip() for x in spans if IDENT.match(x.strip())}
        else:
            self.bare_words = {text.strip()} if IDENT.match(text.strip()) else set()


class Doc:
    def __init__(self, path):
        self.rel = path
        with open(path, encoding="utf-8") as f:
            self.lines = f.read().split("\n")
        self.headings = []
        self.blocks = []
        self.tables = []   # (header cells lowercased, [(line, cells)])
        self._parse()

    def _parse(self):
        lines = self.lines
        i, n = 0, len(lines)
        current = None
        while i < n:
            line = lines[i]
            m = re.match(r"^(\s*)(```+|~~~+)(.*)$", line)
            if m:
                fence = m.group(2)
                start = i
                body = []
                i += 1
                while i < n and not lines[i].strip().startswith(fence):
                    body.append(lines[i])
                    i += 1
                self.blocks.append(Block(start + 1, m.group(3).strip(), "\n".join(body), i + 1))
                i += 1
                continue
            m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if m:
                current = Heading(i + 1, len(m.group(1)), m.group(2))
                self.headings.append(current)
                i += 1
                continue
            if line.lstrip().startswith("|"):
                start = i
                table = []
                while i < n and lines[i].lstrip().startswith("|"):
                    table.append((i + 1, split_cells(lines[i])))
                    i += 1
                header = [c.lower() for c in table[0][1]]
                self.tables.append((header, table[2:]))
                if current is not None and header and header[0] == "column":
                    rows = [Row(ln, cells, header) for ln, cells in table[2:]]
                    current.column_rows = (current.column_rows or []) + rows
                continue
            i += 1
        # an output block is a ```text block right after a ```sql block
        for a, b in zip(self.blocks, self.blocks[1:]):
            between = self.lines[a.end:b.line - 1]
            if a.lang == "sql" and b.lang == "text" and not any(s.strip() for s in between):
                a.expected = b.code

    def section_blocks(self, h):
        """Blocks under heading h, down to the next heading of its level or above."""
        end = len(self.lines) + 1
        for g in self.headings:
            if g.line > h.line and g.level <= h.level:
                end = g.line
                break
        return [b for b in self.blocks if h.line < b.line < end]


if __name__ == "__main__":
    import sys
    for p in sys.argv[1:]:
        d = Doc(p)
        for h in d.headings:
            print(os.path.basename(p), h.line, h.level, h.text, h.object_names,
                  sorted(h.function_calls), None if h.column_rows is None else len(h.column_rows))
