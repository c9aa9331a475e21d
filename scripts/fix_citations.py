"""Point every spec citation at the copy inside the repository: docs/competition.md.

The code used to cite the competition spec by a file name that is not in the repository (and,
in places, by a path on a developer's machine). This rewrites, in every tracked text file:

- the spec's file name, with whatever folder path precedes it, to `docs/competition.md`
  (so "<spec> §4.4" becomes "docs/competition.md §4.4");
- the preference-parameter notes, with their folder path, to `docs/competition.md §7.5`
  (the kinds' table there states the same parameters).

Running it twice changes nothing the second time. `--check` only lists what would change and
exits 1 if anything would (for CI). Usage: `python scripts/fix_citations.py [--check]`.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".py", ".md", ".toml", ".ipynb", ".txt", ".cfg", ".ini"}
# the two files that must mention the old names to find them
SELF = {"scripts/fix_citations.py", "tests/test_docs_citations.py"}

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if needed")
    args = ap.parse_args(argv)
    changed = 0
    for path in tracked_text_files(ROOT):
        old = path.read_text(encoding="utf-8")
        new, n = rewrite(old)
        if n == 0 or new == old:
            continue
        changed += 1
        print(f"{path.relative_to(ROOT)}: {n} citation(s)")
        if not args.check:
            path.write_text(new, encoding="utf-8")
    verb = "would change" if args.check else "changed"
    print(f"{changed} file(s) {verb}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
