"""A rule pasted from a chat assistant, in Markdown, as plain lines the kinds can read.

"| # | stop | lat, lng | arrive by | stay at least |" over "| 1 | Songshan Lake | 22.9210,
113.8880 | 08:30 | 30 min |": a table's cells say what they are only through its header, so
each row is written as "header cell, header cell, ..." (a two-column table of fields and
values as "field value"), each row a clause of its own. Emphasis (**22.5431**, __a__,
`code`), heading marks and quote marks are dropped; a bullet stays a list item. A sheet's
header and row exported as CSV are read as such a table. Any other text is returned
unchanged.
"""

from __future__ import annotations

import csv
import re

from sim.preferences.text import rx

_NUMBERING = r"#|no\.?|序号|编号|站"  # a header that numbers the rows
_SEPARATOR = r"\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*"


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _bare_header(lines: list[str], i: int) -> list[str] | None:
    """A table flattened by OCR or pasted from a sheet, with no |---| row: a header of three
    or more cells without digits (split by bars, or by spaces where the row under it has
    bars) over a row of as many barred cells. Its header cells, else None."""
    if i + 1 >= len(lines) or "|" not in lines[i + 1]:
        return None
    row = _cells(lines[i + 1])
    head = _cells(lines[i]) if "|" in lines[i] else lines[i].split()
    if len(head) < 3 or len(head) != len(row) or any(rx.search(r"\d", h) for h in head):
        return None
    return head


def _cell(head: str, cell: str) -> str:
    """A cell under its header; a unit the header names in brackets ("罚款(元)", "fine
    (yuan)") follows the cell's number, where the kinds read it."""
    m = rx.fullmatch(r"(.*?)\s*[(（]\s*((?:元|块|yuan|rmb|cny|km|公里|天|分钟|min)"
                     r"(?:\s*/\s*[^()（）]+?)?)\s*[)）]", head)
    if m is not None and rx.fullmatch(r"[\d.]+", cell):
        return f"{m.group(1)} {cell}{m.group(2)}".strip()
    return f"{head} {cell}".strip()


def _tables(lines: list[str]) -> list[str]:
    """Each table (a header row, a |---| row or none, data rows) as one plain line per data
    row."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        bare = _bare_header(lines, i)
        if bare is not None or (i + 1 < len(lines) and "|" in lines[i]
                                and rx.fullmatch(_SEPARATOR, lines[i + 1])):
            head = bare if bare is not None else _cells(lines[i])
            i += 1 if bare is not None else 2
            while i < len(lines) and "|" in lines[i] and (
                    bare is not None or lines[i].strip().startswith("|")):
                row = _cells(lines[i])
                if len(head) == 2 and len(row) == 2:  # | field | value |
                    out.append(f"{row[0]} {row[1]};")
                else:
                    # a numbering column (#, No., 序号) numbers the row as a list item
                    pairs = list(zip(head, row, strict=False))
                    num = [c for h, c in pairs if rx.fullmatch(_NUMBERING, h.lower())]
                    cells = ", ".join(_cell(h, c) for h, c in pairs
                                      if c and c not in ("-", "—")
                                      and not rx.fullmatch(_NUMBERING, h.lower()))
                    out.append(f"{num[0]}. {cells};" if num else f"{cells};")
                i += 1
            continue
        out.append(lines[i])
        i += 1
    return out


def _csv_rows(t: str) -> str:
    """A sheet's header and row exported as CSV (two lines split by tabs, semicolons or
    commas, a cell holding the separator quoted: "23.12, 113.26"): the two rows as a barred
    table, which `_tables` reads cell by cell under its header. A last cell (a note) may
    hold the separator unquoted: NFKC writes a note's ，and ；as , and ;."""
    lines = t.split("\n")
    if len(lines) != 2 or "|" in t:
        return t
    for sep in ("\t", ";", ","):
        if sep not in lines[0]:
            continue
        head, row = csv.reader(lines, delimiter=sep)
        if len(row) > len(head) >= 3:
            row = [*row[:len(head) - 1], sep.join(row[len(head) - 1:])]
        # a header names its cells: short, no values in them (not two lines of a rule)
        if len(head) >= 3 and len(head) == len(row) and all(
                len(h.strip()) <= 20 and not rx.search(r"\d[.:月]\d?", h) for h in head):
            return "\n".join(" | ".join(c.strip() for c in r) for r in (head, row))
    return t


def _slashed_rows(t: str) -> str:
    """A sheet's header and row pasted on one line with " / " between them ("规则类型 | 限制值 |
    罚款(元) / 单趟运距上限 | 280 km | 220"): the two rows on lines of their own."""
    if "\n" in t or t.count(" / ") != 1:
        return t
    head, row = t.split(" / ")
    if head.count("|") >= 2 and head.count("|") == row.count("|"):
        return head + "\n" + row
    return t


def plain(t: str) -> str:
    """`t` without its Markdown (the module's doc)."""
    t = _slashed_rows(_csv_rows(t))
    if not rx.search(r"\*\*|__|`|^\s*#|^\s*>|^\s*\|.*\|\s*$|\|[^\n]*\|[^\n]*\n[^\n]*\|",
                     t, re.MULTILINE):
        return t
    lines = _tables(t.split("\n"))
    text = "\n".join(lines)
    text = rx.sub(r"(?m)^\s*#{1,6}\s*", "", text)  # headings
    text = rx.sub(r"(?m)^\s*>\s?", "", text)  # quotes
    return rx.sub(r"\*\*|__|`", "", text)  # emphasis and code spans
