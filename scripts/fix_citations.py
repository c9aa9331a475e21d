"""Point every spec citation at the copy inside the repository: docs/competition.md.

The code used to cite the competition spec by a file name that is not in the repository (and,
in places, by a path on a developer's machine). This rewrites, in every tracked text file:

- the spec's file name, with whatever folder path precedes it, to `docs/competition.md`
  (so "<spec> §4.4" becomes "docs/competition.md §4.4");
- the preference-parameter notes, with their folder path, to `docs/competition.md §7.5`
  (the kinds' table there states the same parameters).

The new name is longer, so in Python files a docstring or comment line that would pass the
line limit is wrapped at a space onto a new line with the same indentation.

Running it twice changes nothing the second time. `--check` only lists what would change and
exits 1 if anything would (for CI). Usage: `python scripts/fix_citations.py [--check]`.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".py", ".md", ".toml", ".ipynb", ".txt", ".cfg", ".ini"}
# the two files that must mention the old names to find them
SELF = {"scripts/fix_citations.py", "tests/test_docs_citations.py"}
LINE_LIMIT = 100  # pyproject.toml [tool.ruff] line-length

_FOLDERS = r"(?:[\w.~-]*/)*"  # "../shared/", an absolute folder path, or nothing
REWRITES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(_FOLDERS + r"COMPETITION\.md"), "docs/competition.md"),
    (re.compile(_FOLDERS + r"PREF_PARAMS\.md"), "docs/competition.md §7.5"),
]


def tracked_text_files(root: Path) -> list[Path]:
    """Tracked and new (not ignored) files with a text suffix, in path order."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=root, check=True, capture_output=True, text=True).stdout
    names = sorted({n for n in out.splitlines() if n and n not in SELF})
    return [root / n for n in names if Path(n).suffix in TEXT_SUFFIXES and (root / n).is_file()]


def rewrite(text: str) -> tuple[str, int]:
    """The text with every citation pointed at docs/, and how many were rewritten."""
    total = 0
    for pattern, target in REWRITES:
        text, n = pattern.subn(target, text)
        total += n
    return text, total


def _prose_lines(source: str) -> set[int]:
    """1-based numbers of the lines that lie inside a triple-quoted string or are a comment:
    the only lines a wrap cannot change the meaning of (docstrings and comments)."""
    lines: set[int] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and tok.line.lstrip().startswith("#"):
                lines.add(tok.start[0])
            elif tok.type == tokenize.STRING and tok.string.lstrip("rbuRBU")[:3] in ('"""', "'''"):
                lines.update(range(tok.start[0], tok.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return set()
    return lines


def _continues(line: str, prefix: str) -> bool:
    """Whether `line` carries on the paragraph whose lines begin with `prefix` (indentation, and
    "# " for a comment), so words pushed off the line before may join its front."""
    if not line.startswith(prefix) or len(line) == len(prefix):
        return False
    body = line[len(prefix):]
    return not (body[0].isspace() or body.startswith(('"""', "\'\'\'", "-", "*", "|", "#"))
                or re.match(r"\d+[.)] ", body))


def wrap_long_lines(source: str, touched: set[int]) -> str:
    """Wrap the touched docstring/comment lines of a Python file that pass LINE_LIMIT; the words
    pushed off join the next line of the same paragraph, which is wrapped in turn."""
    prose = _prose_lines(source)
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if len(line) > LINE_LIMIT and i + 1 in touched and i + 1 in prose:
            indent = line[:len(line) - len(line.lstrip())]
            prefix = indent + ("# " if line.lstrip().startswith("#") else "")
            cut = line.rfind(" ", len(prefix) + 1, LINE_LIMIT + 1)
            if cut > 0:
                lines[i], rest = line[:cut].rstrip(), line[cut + 1:]
                nxt = i + 1
                if nxt < len(lines) and nxt + 1 in prose and _continues(lines[nxt], prefix):
                    lines[nxt] = prefix + rest + " " + lines[nxt][len(prefix):]
                else:
                    lines.insert(nxt, prefix + rest)
                    prose = {n + 1 if n > nxt else n for n in prose} | {nxt + 1}
                touched = {n + 1 if n > nxt and nxt + 1 not in touched else n for n in touched}
                touched.add(nxt + 1)
        i += 1
    return "\n".join(lines)


def fix_file(path: Path) -> int:
    """Rewrite one file in place; the number of citations rewritten."""
    old = path.read_text(encoding="utf-8")
    new, n = rewrite(old)
    if n and path.suffix == ".py":
        touched = {i for i, (a, b) in enumerate(zip(old.split("\n"), new.split("\n"),
                                                   strict=True), 1) if a != b}
        new = wrap_long_lines(new, touched)
    if new != old:
        path.write_text(new, encoding="utf-8")
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if needed")
    args = ap.parse_args(argv)
    changed = 0
    for path in tracked_text_files(ROOT):
        n = rewrite(path.read_text(encoding="utf-8"))[1]
        if n == 0:
            continue
        changed += 1
        print(f"{path.relative_to(ROOT)}: {n} citation(s)")
        if not args.check:
            fix_file(path)
    verb = "would change" if args.check else "changed"
    print(f"{changed} file(s) {verb}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
